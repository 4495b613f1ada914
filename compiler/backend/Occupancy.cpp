//===- Occupancy.cpp - theoretical occupancy per architecture -------------===//
/// \file
/// The occupancy calculator's arithmetic over the table of Occupancy.h.
//===----------------------------------------------------------------------===//
#include "compiler/backend/Occupancy.h"

#include <algorithm>

namespace tessel::backend {

const SmLimits &smLimits(const GpuArch &Arch) {
  static const SmLimits Ampere = {64, 32, 65536, 256, 255, 167936, 166912, 1024, 128, 1024};
  static const SmLimits Hopper = {64, 32, 65536, 256, 255, 233472, 232448, 1024, 128, 1024};
  return Arch.Capability >= 90 ? Hopper : Ampere;
}

const char *occupancyLimitName(OccupancyLimit L) {
  switch (L) {
  case OccupancyLimit::Warps:
    return "warps";
  case OccupancyLimit::Blocks:
    return "blocks";
  case OccupancyLimit::Registers:
    return "registers";
  case OccupancyLimit::SharedMemory:
    return "shared memory";
  case OccupancyLimit::DoesNotFit:
    return "does not fit";
  }
  return "?";
}

static unsigned roundUp(unsigned X, unsigned Unit) { return (X + Unit - 1) / Unit * Unit; }

Occupancy occupancy(const GpuArch &Arch, unsigned Threads, unsigned Registers, unsigned SharedBytes) {
  const SmLimits &L = smLimits(Arch);
  Occupancy O;
  O.MaxWarpsPerSm = L.MaxWarpsPerSm;
  unsigned Warps = std::max(1u, (Threads + 31) / 32);
  unsigned RegsPerWarp = roundUp(std::max(1u, Registers) * 32, L.RegisterUnit);
  if (Threads > L.MaxThreadsPerBlock || Registers > L.MaxRegistersPerThread || RegsPerWarp * Warps > L.RegistersPerSm ||
      SharedBytes > L.MaxSharedPerBlock) {
    O.Limit = OccupancyLimit::DoesNotFit;
    return O;
  }
  struct Candidate {
    unsigned Blocks;
    OccupancyLimit Why;
  };
  // Each sub-partition (a quarter of the SM's registers) holds whole warps.
  unsigned WarpsByRegs = 4 * ((L.RegistersPerSm / 4) / RegsPerWarp);
  unsigned SharedPerBlock = roundUp(SharedBytes + L.ReservedSharedPerBlock, L.SharedUnit);
  Candidate Cs[] = {{L.MaxWarpsPerSm / Warps, OccupancyLimit::Warps},
                    {L.MaxBlocksPerSm, OccupancyLimit::Blocks},
                    {WarpsByRegs / Warps, OccupancyLimit::Registers},
                    {L.SharedPerSm / SharedPerBlock, OccupancyLimit::SharedMemory}};
  Candidate Best = Cs[0];
  for (const Candidate &C : Cs)
    if (C.Blocks < Best.Blocks)
      Best = C;
  O.BlocksPerSm = Best.Blocks;
  O.WarpsPerSm = Best.Blocks * Warps;
  O.Limit = Best.Blocks == 0 ? OccupancyLimit::DoesNotFit : Best.Why;
  return O;
}

std::string sharedMemoryOutOfResource(uint64_t Required, uint64_t Limit) {
  return "out of resource: shared memory, Required: " + std::to_string(Required) +
         ", Hardware limit: " + std::to_string(Limit) + ". Reducing block sizes or `num_stages` may help.";
}

} // namespace tessel::backend
