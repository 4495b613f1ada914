//===- ForkedCall.h - run a computation in a child process ------*- C++ -*-===//
/// \file
/// Some work can fail in ways a process cannot survive: a solver that runs
/// out of memory throws from a destructor or dereferences the null it got,
/// and a library may abort. A server that must outlive one such failure runs
/// the work in a forked child: the child sees the caller's memory as it was
/// at the fork (copy on write, so nothing needs serializing on the way in),
/// runs under an address-space budget and a time limit, and sends back its
/// result as bytes; whatever ends it becomes a status naming what happened.
///
/// Fork copies only the calling thread. The child therefore touches nothing
/// another thread of the caller may have held a lock on at the fork (the
/// caller's contract: the work is self-contained, as the bounds prover is on
/// the language server's proof thread); a child that deadlocks anyway is
/// ended by the time limit like any hang.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SUPPORT_FORKEDCALL_H
#define TESSEL_COMPILER_SUPPORT_FORKEDCALL_H

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

namespace tessel {

struct ForkLimits {
  /// Address space the child may map beyond what it inherits; 0: no limit.
  uint64_t MemoryBytes = 0;
  /// Wall-clock limit; 0: none.
  unsigned TimeoutMs = 0;
};

struct ForkedResult {
  enum class Status {
    Ok,          ///< Output holds what the work returned
    OutOfMemory, ///< an allocation failed (its budget, or the machine's), or it crashed at its limit
    Crashed,     ///< ended by a signal, or threw
    TimedOut,    ///< ran past TimeoutMs and was killed
    Cancelled,   ///< *Cancelled became true and it was killed
    NotStarted,  ///< fork or pipe failed (Detail says why)
  };
  Status S = Status::NotStarted;
  std::string Output;
  /// For a failure: what ended it, in words ("signal 11 (Segmentation fault)").
  std::string Detail;

  bool ok() const { return S == Status::Ok; }
};

/// Runs Work in a forked child under Limits and returns its result. Work's
/// return value is the output; an exception it lets escape is a failure
/// (OutOfMemory for std::bad_alloc and for any exception type whose name
/// says out_of_memory, Crashed otherwise, with its what()).
ForkedResult runForked(const std::function<std::string()> &Work, const ForkLimits &Limits,
                       const std::atomic<bool> *Cancelled = nullptr);

/// "ran out of memory (its limit: 1024 MiB)", "crashed (signal 11 ...)":
/// a failure's status in words, for messages.
std::string describeFailure(const ForkedResult &R, const ForkLimits &Limits);

} // namespace tessel

#endif // TESSEL_COMPILER_SUPPORT_FORKEDCALL_H
