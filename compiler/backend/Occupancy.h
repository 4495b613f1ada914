//===- Occupancy.h - theoretical occupancy per architecture -----*- C++ -*-===//
/// \file
/// How many blocks of a kernel one SM holds at once, as the CUDA occupancy
/// calculator computes it from the per-architecture limits (CUDA C
/// Programming Guide, "Technical Specifications per Compute Capability"):
///
///   sm_80: 64 warps, 32 blocks, 65536 registers, 164 KiB shared per SM,
///          163 KiB per block (opt-in), 1 KiB reserved per block
///   sm_90: 64 warps, 32 blocks, 65536 registers, 228 KiB shared per SM,
///          227 KiB per block (opt-in), 1 KiB reserved per block
///
/// Registers are allocated per warp in units of 256 from four SM
/// sub-partitions of 16384 each; shared memory in units of 128 bytes. The
/// blocks an SM holds is the least of what threads, blocks, registers and
/// shared memory allow, and that limit is named.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_BACKEND_OCCUPANCY_H
#define TESSEL_COMPILER_BACKEND_OCCUPANCY_H

#include "compiler/backend/Target.h"

#include <cstdint>
#include <string>

namespace tessel::backend {

struct SmLimits {
  unsigned MaxWarpsPerSm, MaxBlocksPerSm, RegistersPerSm, RegisterUnit, MaxRegistersPerThread;
  unsigned SharedPerSm, MaxSharedPerBlock, ReservedSharedPerBlock, SharedUnit, MaxThreadsPerBlock;
};

const SmLimits &smLimits(const GpuArch &Arch);

enum class OccupancyLimit { Warps, Blocks, Registers, SharedMemory, DoesNotFit };

const char *occupancyLimitName(OccupancyLimit L);

struct Occupancy {
  unsigned BlocksPerSm = 0;
  unsigned WarpsPerSm = 0;    ///< BlocksPerSm x warps per block
  unsigned MaxWarpsPerSm = 0; ///< the architecture's
  OccupancyLimit Limit = OccupancyLimit::Warps;

  /// Active warps over the most an SM holds, 0..1.
  double fraction() const { return MaxWarpsPerSm ? double(WarpsPerSm) / MaxWarpsPerSm : 0; }
};

/// Occupancy of a kernel of Threads threads per block using Registers
/// registers per thread and SharedBytes bytes of shared memory per block
/// (static + dynamic). Limit is DoesNotFit (and BlocksPerSm 0) when one
/// block exceeds the block limits.
Occupancy occupancy(const GpuArch &Arch, unsigned Threads, unsigned Registers, unsigned SharedBytes);

/// Triton's words for a kernel that needs more shared memory than a block may
/// have (runtime/errors.py OutOfResources, raised before the launch reaches
/// the driver): "out of resource: shared memory, Required: R, Hardware limit:
/// L. Reducing block sizes or `num_stages` may help."
std::string sharedMemoryOutOfResource(uint64_t Required, uint64_t Limit);

} // namespace tessel::backend

#endif // TESSEL_COMPILER_BACKEND_OCCUPANCY_H
