//===- Logger.h - the server's log on stderr ---------------------*- C++ -*-===//
/// \file
/// The language server writes its log to stderr (stdout carries the protocol),
/// filtered by `--log=error|info|verbose` as in clangd. One global logger,
/// because every layer of lsp/ logs and threading a logger through each call
/// would add noise for no gain. Lines are written whole under a mutex, so
/// worker threads never interleave characters.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_LOGGER_H
#define TESSEL_LSP_LOGGER_H

#include <string>
#include <string_view>

namespace tessel::lsp {

enum class LogLevel { Error = 0, Info = 1, Verbose = 2 };

/// Parses "error", "info" or "verbose"; false for anything else.
bool parseLogLevel(std::string_view Text, LogLevel &Out);
void setLogLevel(LogLevel L);
bool logEnabled(LogLevel L);

/// Writes "E[12:34:56.789] message" (I, V for the other levels) when L is enabled.
void log(LogLevel L, const std::string &Message);
inline void logError(const std::string &M) { log(LogLevel::Error, M); }
inline void logInfo(const std::string &M) { log(LogLevel::Info, M); }
inline void logVerbose(const std::string &M) { log(LogLevel::Verbose, M); }

} // namespace tessel::lsp

#endif // TESSEL_LSP_LOGGER_H
