//===- WorkerPool.h - one set of threads for the process's parallel loops -*- C++ -*-===//
/// \file
/// Parsing runs of pieces and checking kernels are both "do N independent
/// items on every usable core". Threads started per loop cost their start
/// and, worse, a fresh allocator heap whose pages fault in again; the pool
/// keeps usableCores() - 1 threads for the life of the process, so the
/// memory a parse freed on a thread is what the check on that thread reuses.
/// The caller always works too, and loops from several threads at once (the
/// language server) share the pool: a loop never waits for a worker to
/// become free, only for workers that started on it to finish (so a worker
/// may itself run a loop).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SUPPORT_WORKERPOOL_H
#define TESSEL_COMPILER_SUPPORT_WORKERPOOL_H

#include <cstddef>
#include <functional>

namespace tessel {

/// Calls Body(I) once for every I in [0, N), on the calling thread and on at
/// most MaxThreads - 1 pooled threads; returns when all calls have returned.
/// Items are handed out in increasing order as threads become free.
void parallelFor(size_t N, size_t MaxThreads, const std::function<void(size_t)> &Body);

} // namespace tessel

#endif // TESSEL_COMPILER_SUPPORT_WORKERPOOL_H
