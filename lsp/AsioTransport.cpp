//===- AsioTransport.cpp - JSON-RPC framing over Asio streams -------------===//
/// \file
/// The Transport implementations: LSP's Content-Length framing and the
/// `---`-delimited test framing, read from stdin (posix::stream_descriptor),
/// a TCP socket (`--listen`), or memory (the fuzzer).
///
/// Framing follows clangd's JSONTransport: headers other than Content-Length
/// are ignored; a duplicate Content-Length is logged and the last one wins; a
/// message longer than the limit is refused and its body skipped; a body cut
/// short by the end of the input is logged ("input was aborted"). Header lines
/// may end in "\r\n" or a bare "\n".
///
/// All reads are synchronous on the loop thread: the server does its work on
/// other threads, so a blocking read here costs nothing and keeps the framing
/// code a straight line. Writes are synchronous under a mutex.
//===----------------------------------------------------------------------===//
#include "lsp/Logger.h"
#include "lsp/Transport.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <optional>
#include <unistd.h>

namespace asio = boost::asio;
using nlohmann::json;

namespace tessel::lsp {
namespace {

/// Where message bytes come from.
class ByteSource {
public:
  virtual ~ByteSource() = default;
  /// One line without its "\n" (a trailing "\r" is kept); false at the end
  /// of the input when nothing was left to read.
  virtual bool readLine(std::string &Line) = 0;
  /// Up to N bytes into Buf; 0 only at the end of the input.
  virtual size_t read(char *Buf, size_t N) = 0;
};

/// Where message bytes go.
class ByteSink {
public:
  virtual ~ByteSink() = default;
  virtual void write(std::string_view Bytes) = 0;
};

/// Reads lines through an Asio streambuf, then raw bytes from what the
/// buffer already holds before touching the stream again.
template <typename Stream> class AsioSource final : public ByteSource {
public:
  explicit AsioSource(Stream &S) : S(S) {}

  bool readLine(std::string &Line) override {
    boost::system::error_code Ec;
    size_t N = asio::read_until(S, Buf, '\n', Ec);
    if (N == 0) {
      // End of input: hand out whatever partial line is left.
      if (Buf.size() == 0)
        return false;
      N = Buf.size();
    }
    const char *Data = static_cast<const char *>(Buf.data().data());
    Line.assign(Data, N);
    Buf.consume(N);
    if (!Line.empty() && Line.back() == '\n')
      Line.pop_back();
    return true;
  }

  size_t read(char *Out, size_t N) override {
    if (Buf.size() > 0) {
      size_t Take = std::min(N, Buf.size());
      std::memcpy(Out, Buf.data().data(), Take);
      Buf.consume(Take);
      return Take;
    }
    boost::system::error_code Ec;
    size_t Got = S.read_some(asio::buffer(Out, N), Ec);
    return Ec ? 0 : Got;
  }

private:
  Stream &S;
  asio::streambuf Buf;
};

template <typename Stream> class AsioSink final : public ByteSink {
public:
  explicit AsioSink(Stream &S) : S(S) {}
  void write(std::string_view Bytes) override {
    boost::system::error_code Ec;
    asio::write(S, asio::buffer(Bytes.data(), Bytes.size()), Ec);
    if (Ec)
      logError("write failed: " + Ec.message());
  }

private:
  Stream &S;
};

class MemorySource final : public ByteSource {
public:
  explicit MemorySource(std::string Input) : Input(std::move(Input)) {}
  bool readLine(std::string &Line) override {
    if (Pos >= Input.size())
      return false;
    size_t Nl = Input.find('\n', Pos);
    size_t End = Nl == std::string::npos ? Input.size() : Nl;
    Line.assign(Input, Pos, End - Pos);
    Pos = Nl == std::string::npos ? Input.size() : Nl + 1;
    return true;
  }
  size_t read(char *Out, size_t N) override {
    size_t Take = std::min(N, Input.size() - Pos);
    std::memcpy(Out, Input.data() + Pos, Take);
    Pos += Take;
    return Take;
  }

private:
  std::string Input;
  size_t Pos = 0;
};

class StringSink final : public ByteSink {
public:
  explicit StringSink(std::string &Out) : Out(Out) {}
  void write(std::string_view Bytes) override { Out.append(Bytes); }

private:
  std::string &Out;
};

static bool startsWithNoCase(std::string_view S, std::string_view Prefix) {
  if (S.size() < Prefix.size())
    return false;
  for (size_t I = 0; I < Prefix.size(); ++I)
    if (std::tolower(static_cast<unsigned char>(S[I])) != std::tolower(static_cast<unsigned char>(Prefix[I])))
      return false;
  return true;
}

static std::string_view trim(std::string_view S) {
  while (!S.empty() && (S.front() == ' ' || S.front() == '\t'))
    S.remove_prefix(1);
  while (!S.empty() && (S.back() == ' ' || S.back() == '\t' || S.back() == '\r'))
    S.remove_suffix(1);
  return S;
}

/// The framing and dispatch shared by every byte source. Owns the streams
/// (through Keep) so each factory only has to build them.
class FramedTransport final : public Transport {
public:
  FramedTransport(std::unique_ptr<ByteSource> In, std::unique_ptr<ByteSink> Out, TransportOptions Opts)
      : In(std::move(In)), Out(std::move(Out)), Opts(Opts) {}

  std::shared_ptr<void> Keep; ///< the io_context and streams behind In/Out

  void notify(std::string_view Method, json Params) override {
    send({{"jsonrpc", "2.0"}, {"method", Method}, {"params", std::move(Params)}});
  }
  void call(std::string_view Method, json Params, json Id) override {
    json Message = {{"jsonrpc", "2.0"}, {"id", std::move(Id)}, {"method", Method}};
    // JSON-RPC's params are an object or an array, or absent (a
    // workspace/codeLens/refresh has none), never null.
    if (!Params.is_null())
      Message["params"] = std::move(Params);
    send(std::move(Message));
  }
  void reply(json Id, Expected<json> Result) override {
    if (Result)
      send({{"jsonrpc", "2.0"}, {"id", std::move(Id)}, {"result", std::move(*Result)}});
    else
      send({{"jsonrpc", "2.0"}, {"id", std::move(Id)}, {"error", toJson(Result.error())}});
  }

  bool loop(MessageHandler &Handler) override {
    std::string Body;
    while (true) {
      ReadResult R = Opts.InputStyle == FramingStyle::Delimited ? readDelimited(Body) : readStandard(Body);
      if (R == ReadResult::Eof)
        return false;
      if (R == ReadResult::Skip)
        continue;
      if (!dispatch(Body, Handler))
        return true;
    }
  }

private:
  enum class ReadResult { Message, Skip, Eof };

  void send(const json &Message) {
    std::string Body = Message.dump(Opts.Pretty ? 2 : -1, ' ', false, json::error_handler_t::replace);
    logVerbose("<<< " + Body);
    std::string Frame = "Content-Length: " + std::to_string(Body.size()) + "\r\n\r\n" + Body;
    std::lock_guard<std::mutex> Lock(WriteMutex);
    Out->write(Frame);
  }

  ReadResult readStandard(std::string &Body) {
    std::optional<uint64_t> Length;
    bool BadLength = false, SawHeader = false;
    std::string Line;
    while (true) {
      if (!In->readLine(Line))
        return ReadResult::Eof;
      std::string_view L = trim(Line);
      if (L.empty()) {
        if (!SawHeader)
          continue; // stray blank lines between messages
        break;
      }
      SawHeader = true;
      if (!startsWithNoCase(L, "content-length:")) {
        logVerbose("ignoring header: " + std::string(L));
        continue;
      }
      std::string_view Value = trim(L.substr(std::strlen("content-length:")));
      uint64_t N = 0;
      auto [Ptr, Ec] = std::from_chars(Value.data(), Value.data() + Value.size(), N);
      if (Ec != std::errc() || Ptr != Value.data() + Value.size() || Value.empty()) {
        logError("bad Content-Length header: " + std::string(L));
        BadLength = true;
        continue;
      }
      if (Length)
        logError("duplicate Content-Length header; the last one wins");
      Length = N;
      BadLength = false;
    }
    if (!Length) {
      logError(BadLength ? "message with an unreadable Content-Length skipped"
                         : "message without Content-Length skipped");
      return ReadResult::Skip;
    }
    if (*Length > Opts.MaxMessageBytes) {
      logError("refusing to read message of " + std::to_string(*Length) + " bytes (limit " +
               std::to_string(Opts.MaxMessageBytes) + "); skipping its body");
      return skipBytes(*Length) ? ReadResult::Skip : ReadResult::Eof;
    }
    Body.resize(*Length);
    size_t Got = 0;
    while (Got < *Length) {
      size_t N = In->read(Body.data() + Got, *Length - Got);
      if (N == 0) {
        logError("input was aborted: expected " + std::to_string(*Length) + " bytes of body, got " +
                 std::to_string(Got));
        return ReadResult::Eof;
      }
      Got += N;
    }
    return ReadResult::Message;
  }

  bool skipBytes(uint64_t N) {
    char Chunk[65536];
    while (N > 0) {
      size_t Got = In->read(Chunk, std::min<uint64_t>(N, sizeof(Chunk)));
      if (Got == 0)
        return false;
      N -= Got;
    }
    return true;
  }

  ReadResult readDelimited(std::string &Body) {
    Body.clear();
    std::string Line;
    bool Any = false;
    while (In->readLine(Line)) {
      std::string_view L = trim(Line);
      if (L == "---") {
        if (Any)
          return ReadResult::Message;
        continue;
      }
      if (!L.empty() && L.front() == '#')
        continue;
      if (!L.empty())
        Any = true;
      Body += Line;
      Body += '\n';
    }
    return Any ? ReadResult::Message : ReadResult::Eof;
  }

  bool dispatch(const std::string &Body, MessageHandler &Handler) {
    logVerbose(">>> " + Body);
    json Message;
    try {
      Message = json::parse(Body);
    } catch (const json::exception &E) {
      logError("invalid JSON in message: " + std::string(E.what()));
      reply(nullptr, LspError{ErrorCode::ParseError, "invalid JSON: " + std::string(E.what())});
      return true;
    }
    if (!Message.is_object()) {
      reply(nullptr, LspError{ErrorCode::InvalidRequest, "a JSON-RPC message must be an object"});
      return true;
    }
    json Id = Message.contains("id") ? Message["id"] : json();
    bool HasId = Message.contains("id");
    if (HasId && !Id.is_number_integer() && !Id.is_string()) {
      reply(nullptr, LspError{ErrorCode::InvalidRequest, "the id must be an integer or a string"});
      return true;
    }
    auto MethodIt = Message.find("method");
    if (MethodIt != Message.end()) {
      if (!MethodIt->is_string()) {
        if (HasId)
          reply(Id, LspError{ErrorCode::InvalidRequest, "the method must be a string"});
        else
          logError("notification with a non-string method ignored");
        return true;
      }
      json Params = Message.contains("params") ? Message["params"] : json();
      std::string Method = *MethodIt;
      if (HasId)
        return Handler.onCall(Method, std::move(Params), std::move(Id));
      return Handler.onNotify(Method, std::move(Params));
    }
    if (HasId && Message.contains("error")) {
      const json &E = Message["error"];
      // JSON-RPC codes are 32-bit integers; anything else reads as 0.
      int Code = 0;
      if (E.is_object() && E.contains("code") && E["code"].is_number_integer()) {
        int64_t C = E["code"].is_number_unsigned() ? -1 : E["code"].get<int64_t>();
        Code = C >= INT32_MIN && C <= INT32_MAX ? static_cast<int>(C) : 0;
      }
      std::string Text = E.is_object() && E.contains("message") && E["message"].is_string() ? E["message"] : "";
      return Handler.onReply(std::move(Id), LspError{static_cast<ErrorCode>(Code), Text});
    }
    if (HasId && Message.contains("result"))
      return Handler.onReply(std::move(Id), Message["result"]);
    if (HasId)
      reply(Id, LspError{ErrorCode::InvalidRequest, "a message needs a method, a result or an error"});
    else
      logError("message with neither method nor id ignored");
    return true;
  }

  std::unique_ptr<ByteSource> In;
  std::unique_ptr<ByteSink> Out;
  TransportOptions Opts;
  std::mutex WriteMutex;
};

/// The io_context and descriptors a stdio transport reads and writes through.
struct StdioStreams {
  asio::io_context Io;
  asio::posix::stream_descriptor Input{Io, ::dup(STDIN_FILENO)};
  asio::posix::stream_descriptor Output{Io, ::dup(STDOUT_FILENO)};
};

struct TcpStreams {
  asio::io_context Io;
  asio::ip::tcp::socket Socket{Io};
};

} // namespace

std::unique_ptr<Transport> newStdioTransport(const TransportOptions &Opts) {
  auto Streams = std::make_shared<StdioStreams>();
  auto T = std::make_unique<FramedTransport>(
      std::make_unique<AsioSource<asio::posix::stream_descriptor>>(Streams->Input),
      std::make_unique<AsioSink<asio::posix::stream_descriptor>>(Streams->Output), Opts);
  T->Keep = Streams;
  return T;
}

std::unique_ptr<Transport> newTcpTransport(const std::string &Host, unsigned short Port, const TransportOptions &Opts) {
  auto Streams = std::make_shared<TcpStreams>();
  boost::system::error_code Ec;
  auto Address = asio::ip::make_address(Host, Ec);
  if (Ec) {
    logError("cannot listen on '" + Host + "': " + Ec.message());
    return nullptr;
  }
  asio::ip::tcp::acceptor Acceptor(Streams->Io);
  asio::ip::tcp::endpoint Endpoint(Address, Port);
  Acceptor.open(Endpoint.protocol(), Ec);
  if (!Ec)
    Acceptor.set_option(asio::ip::tcp::acceptor::reuse_address(true), Ec);
  if (!Ec)
    Acceptor.bind(Endpoint, Ec);
  if (!Ec)
    Acceptor.listen(1, Ec);
  if (Ec) {
    logError("cannot listen on " + Host + ":" + std::to_string(Port) + ": " + Ec.message());
    return nullptr;
  }
  auto Bound = Acceptor.local_endpoint();
  logInfo("listening on " + Bound.address().to_string() + ":" + std::to_string(Bound.port()));
  Acceptor.accept(Streams->Socket, Ec);
  if (Ec) {
    logError("accept failed: " + Ec.message());
    return nullptr;
  }
  logInfo("client connected from " + Streams->Socket.remote_endpoint(Ec).address().to_string());
  auto T = std::make_unique<FramedTransport>(std::make_unique<AsioSource<asio::ip::tcp::socket>>(Streams->Socket),
                                             std::make_unique<AsioSink<asio::ip::tcp::socket>>(Streams->Socket), Opts);
  T->Keep = Streams;
  return T;
}

std::unique_ptr<Transport> newMemoryTransport(std::string Input, std::string &Output, const TransportOptions &Opts) {
  return std::make_unique<FramedTransport>(std::make_unique<MemorySource>(std::move(Input)),
                                           std::make_unique<StringSink>(Output), Opts);
}

} // namespace tessel::lsp
