//===- Error.h - JSON-RPC errors and the replies that carry them -*- C++ -*-===//
/// \file
/// The one error type of lsp/: a JSON-RPC error code and a message. A reply
/// is an Expected<json>: a result or an LspError. Cancellation and staleness
/// are ordinary errors with their own codes (RequestCancelled,
/// ContentModified), because clients treat those codes specially (VS Code's
/// client drops them silently), so they must never become a generic failure.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_ERROR_H
#define TESSEL_LSP_ERROR_H

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <variant>

namespace tessel::lsp {

enum class ErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
  UnknownErrorCode = -32001,
  RequestFailed = -32803,
  ServerCancelled = -32802,
  ContentModified = -32801,
  RequestCancelled = -32800,
};

struct LspError {
  ErrorCode Code;
  std::string Message;
};

/// `{"code": N, "message": "..."}`, the JSON-RPC error object.
nlohmann::json toJson(const LspError &E);

/// A value or an LspError (the reply of a request).
template <typename T> class Expected {
public:
  Expected(T Value) : V(std::move(Value)) {}
  Expected(LspError E) : V(std::move(E)) {}
  explicit operator bool() const { return V.index() == 0; }
  T &operator*() { return std::get<0>(V); }
  const T &operator*() const { return std::get<0>(V); }
  T *operator->() { return &std::get<0>(V); }
  const LspError &error() const { return std::get<1>(V); }

private:
  std::variant<T, LspError> V;
};

} // namespace tessel::lsp

#endif // TESSEL_LSP_ERROR_H
