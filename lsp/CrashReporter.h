//===- CrashReporter.h - say which request crashed the server ---*- C++ -*-===//
/// \file
/// A compiler bug that crashes the server should at least leave a log line
/// saying what it was doing, so a user's report can be reproduced (clangd's
/// ThreadCrashReporter). Each thread records its current task in a
/// thread-local buffer; a handler for fatal signals writes that line to
/// stderr with async-signal-safe calls, then lets the signal kill the process
/// as it would have.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_CRASHREPORTER_H
#define TESSEL_LSP_CRASHREPORTER_H

#include <string_view>

namespace tessel::lsp {

/// Installs the handler for SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT.
void installCrashHandler();

/// Marks the current thread as doing What (about Subject) for its lifetime.
class CrashContext {
public:
  CrashContext(std::string_view What, std::string_view Subject);
  ~CrashContext();
  CrashContext(const CrashContext &) = delete;
  CrashContext &operator=(const CrashContext &) = delete;
};

} // namespace tessel::lsp

#endif // TESSEL_LSP_CRASHREPORTER_H
