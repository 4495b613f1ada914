//===- Target.cpp - the GPU architectures the JIT compiles for ------------===//
/// \file
/// Architecture names, the local GPU through the CUDA driver API (opened
/// with dlopen so that a machine without a driver still runs) and Triton's
/// PTX ISA rule.
//===----------------------------------------------------------------------===//
#include "compiler/backend/Target.h"
#include "compiler/backend/Toolkit.h"

#include <dlfcn.h>

namespace tessel::backend {

std::string GpuArch::name() const { return "sm_" + std::to_string(Capability) + (ArchSpecific ? "a" : ""); }

const std::vector<GpuArch> &supportedArchs() {
  static const std::vector<GpuArch> Archs = {{80, false}, {90, false}, {90, true}};
  return Archs;
}

std::optional<GpuArch> parseArch(std::string_view Text) {
  if (Text.substr(0, 3) == "sm_")
    Text.remove_prefix(3);
  for (const GpuArch &A : supportedArchs())
    if (A.name().substr(3) == Text)
      return A;
  return std::nullopt;
}

std::optional<unsigned> localGpuCapability() {
  // The driver API's C signatures, declared here so that no CUDA header is
  // needed to build (cuda.h: CUresult is an int enum, CUdevice an int).
  using InitFn = int (*)(unsigned);
  using CountFn = int (*)(int *);
  using GetFn = int (*)(int *, int);
  using AttrFn = int (*)(int *, int, int);
  constexpr int CapabilityMajor = 75, CapabilityMinor = 76; // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_*
  static const std::optional<unsigned> Found = []() -> std::optional<unsigned> {
    void *Lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!Lib)
      return std::nullopt;
    auto Init = reinterpret_cast<InitFn>(dlsym(Lib, "cuInit"));
    auto Count = reinterpret_cast<CountFn>(dlsym(Lib, "cuDeviceGetCount"));
    auto Get = reinterpret_cast<GetFn>(dlsym(Lib, "cuDeviceGet"));
    auto Attr = reinterpret_cast<AttrFn>(dlsym(Lib, "cuDeviceGetAttribute"));
    int N = 0, Dev = 0, Major = 0, Minor = 0;
    if (!Init || !Count || !Get || !Attr || Init(0) != 0 || Count(&N) != 0 || N < 1 || Get(&Dev, 0) != 0 ||
        Attr(&Major, CapabilityMajor, Dev) != 0 || Attr(&Minor, CapabilityMinor, Dev) != 0)
      return std::nullopt; // the library stays open: the driver does not expect to be unloaded
    return unsigned(Major * 10 + Minor);
  }();
  return Found;
}

GpuArch defaultArch() {
  if (std::optional<unsigned> Cap = localGpuCapability())
    for (const GpuArch &A : supportedArchs())
      if (A.Capability == *Cap && A.ArchSpecific == (*Cap >= 90))
        return A;
  return {90, true};
}

unsigned ptxIsaOf(const Toolkit &Tools) {
  return Tools.Major ? ptxIsaForToolkit(Tools.Major, Tools.Minor) : MaxLlvmPtxIsa;
}

unsigned ptxIsaForToolkit(unsigned Major, unsigned Minor) {
  if (Major >= 13)
    return 90 + 10 * (Major - 13) + Minor;
  if (Major == 12)
    return 80 + Minor - (Minor >= 6 ? 1 : 0);
  // Triton refuses older toolkits; 7.8 is what CUDA 11.8 accepts.
  return 78;
}

} // namespace tessel::backend
