//===- CrashReporter.cpp - say which request crashed the server -----------===//
/// \file
/// The buffer is fixed-size and plain chars so the signal handler reads it
/// without allocating or locking.
//===----------------------------------------------------------------------===//
#include "lsp/CrashReporter.h"

#include <algorithm>
#include <csignal>
#include <cstring>
#include <unistd.h>

namespace tessel::lsp {

static thread_local char Current[512];

static void append(char *Buf, size_t &Len, std::string_view S) {
  size_t N = std::min(S.size(), sizeof(Current) - 1 - Len);
  std::memcpy(Buf + Len, S.data(), N);
  Len += N;
  Buf[Len] = '\0';
}

CrashContext::CrashContext(std::string_view What, std::string_view Subject) {
  size_t Len = 0;
  append(Current, Len, What);
  append(Current, Len, " ");
  append(Current, Len, Subject);
}

CrashContext::~CrashContext() { Current[0] = '\0'; }

static void onFatalSignal(int Sig) {
  static const char Prefix[] = "tessel lsp: fatal signal while ";
  ssize_t Ignored = ::write(STDERR_FILENO, Prefix, sizeof(Prefix) - 1);
  const char *What = Current[0] ? Current : "not handling a request";
  Ignored = ::write(STDERR_FILENO, What, std::strlen(What));
  Ignored = ::write(STDERR_FILENO, "\n", 1);
  (void)Ignored;
  std::signal(Sig, SIG_DFL);
  std::raise(Sig);
}

void installCrashHandler() {
  for (int Sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
    std::signal(Sig, onFatalSignal);
}

} // namespace tessel::lsp
