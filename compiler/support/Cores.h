//===- Cores.h - how many cores this process may run on ---------*- C++ -*-===//
/// \file
/// The number of CPUs in the process's affinity mask (what `taskset` or a
/// container's cpuset allows), which std::thread::hardware_concurrency does
/// not see: work split over more threads than that only takes turns.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SUPPORT_CORES_H
#define TESSEL_COMPILER_SUPPORT_CORES_H

namespace tessel {

/// At least 1.
unsigned usableCores();

} // namespace tessel

#endif // TESSEL_COMPILER_SUPPORT_CORES_H
