//===- Transport.h - sending and receiving JSON-RPC messages ----*- C++ -*-===//
/// \file
/// The server talks to its client through a Transport, an interface so that
/// the same server runs over stdio, over a TCP socket (`--listen`), over the
/// `---`-delimited test framing used by the transcript tests (`--lit-test`),
/// and over an in-memory buffer for the fuzzer.
///
/// A Transport only frames and parses. It knows nothing of LSP methods: it
/// hands each incoming message, already decoded as JSON, to a MessageHandler.
///
/// Threading rules:
///  - loop() runs on one thread (the main thread) and calls the handler there,
///    one message at a time, in arrival order.
///  - notify(), call() and reply() may be called from any thread, including
///    while loop() is blocked reading. Writes are serialized inside the
///    transport, so two messages never interleave on the wire.
///
/// Malformed input never ends the loop: a bad header or an oversized message
/// is logged and skipped, a body that is not JSON is answered with a
/// ParseError response (id null), and the loop keeps reading. Only the end of
/// the input (or the handler asking to stop, after `exit`) ends it.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_TRANSPORT_H
#define TESSEL_LSP_TRANSPORT_H

#include "lsp/Error.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace tessel::lsp {

/// Receives decoded messages from Transport::loop(). Each method returns
/// false to stop the loop (after `exit`).
class MessageHandler {
public:
  virtual ~MessageHandler() = default;
  virtual bool onNotify(const std::string &Method, nlohmann::json Params) = 0;
  virtual bool onCall(const std::string &Method, nlohmann::json Params, nlohmann::json Id) = 0;
  /// A response to a request the server sent to the client.
  virtual bool onReply(nlohmann::json Id, Expected<nlohmann::json> Result) = 0;
};

/// How messages are framed on the wire.
enum class FramingStyle {
  Standard,  ///< LSP's `Content-Length: N\r\n\r\n{...}` headers
  Delimited, ///< test input: JSON messages separated by `---` lines; `#` lines are comments
};

struct TransportOptions {
  FramingStyle InputStyle = FramingStyle::Standard;
  /// Messages announcing a larger body are refused (logged, body skipped).
  size_t MaxMessageBytes = size_t(64) << 20;
  /// Write outgoing JSON indented (easier to read in a log).
  bool Pretty = false;
};

class Transport {
public:
  virtual ~Transport() = default;
  virtual void notify(std::string_view Method, nlohmann::json Params) = 0;
  virtual void call(std::string_view Method, nlohmann::json Params, nlohmann::json Id) = 0;
  virtual void reply(nlohmann::json Id, Expected<nlohmann::json> Result) = 0;
  /// Reads and dispatches until the handler stops it (returns true) or the
  /// input ends (returns false).
  virtual bool loop(MessageHandler &Handler) = 0;
};

/// A transport over this process's stdin/stdout.
std::unique_ptr<Transport> newStdioTransport(const TransportOptions &Opts);
/// Listens on Host:Port (loopback by default), accepts one client and talks
/// to it. Returns null (and logs why) when the address cannot be bound.
std::unique_ptr<Transport> newTcpTransport(const std::string &Host, unsigned short Port, const TransportOptions &Opts);
/// Reads Input from memory and appends everything written to Output (the
/// fuzzer and in-process tests). Output must outlive the transport.
std::unique_ptr<Transport> newMemoryTransport(std::string Input, std::string &Output, const TransportOptions &Opts);

} // namespace tessel::lsp

#endif // TESSEL_LSP_TRANSPORT_H
