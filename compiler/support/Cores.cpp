//===- Cores.cpp - how many cores this process may run on -----------------===//
/// \file
/// Implements usableCores with sched_getaffinity where the system has it.
//===----------------------------------------------------------------------===//
#include "compiler/support/Cores.h"

#include <algorithm>
#include <thread>

#if defined(__linux__)
#include <sched.h>
#endif

namespace tessel {

unsigned usableCores() {
#if defined(__linux__)
  cpu_set_t Set;
  CPU_ZERO(&Set);
  if (sched_getaffinity(0, sizeof(Set), &Set) == 0)
    return std::max(1, CPU_COUNT(&Set));
#endif
  return std::max(1u, std::thread::hardware_concurrency());
}

} // namespace tessel
