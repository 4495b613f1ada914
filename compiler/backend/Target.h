//===- Target.h - the GPU architectures the JIT compiles for ----*- C++ -*-===//
/// \file
/// A GPU architecture as the NVPTX back end and ptxas name it (`sm_80`,
/// `sm_90`, `sm_90a`), the default one (the local GPU's when the CUDA driver
/// shows one, else sm_90), and the PTX ISA version a CUDA toolkit accepts,
/// chosen as Triton 3.6's `ptx_get_version` does: CUDA 12.x gives 8.minor
/// (one less from 12.6 on), CUDA 13+ gives 9.0 + (major - 13) + 0.minor.
///
/// LLVM 19's NVPTX back end knows PTX ISA versions up to 8.5, so the target
/// feature is capped there (Triton caps at 8.6 for its newer LLVM) and the
/// PTX text's `.version` line is then rewritten to the toolkit's version, as
/// Triton's make_ptx rewrites it.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_BACKEND_TARGET_H
#define TESSEL_COMPILER_BACKEND_TARGET_H

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::backend {

struct GpuArch {
  unsigned Capability = 90;  ///< 80, 90: major * 10 + minor
  bool ArchSpecific = false; ///< the `a` suffix (sm_90a: wgmma, setmaxnreg)

  /// `sm_90a`
  std::string name() const;
  friend bool operator==(const GpuArch &A, const GpuArch &B) = default;
};

/// The architectures tessel compiles for, in the order `--arch` lists them.
const std::vector<GpuArch> &supportedArchs();

/// `sm_80`, `sm_90`, `sm_90a` (also without the `sm_` prefix); nullopt for
/// anything else.
std::optional<GpuArch> parseArch(std::string_view Text);

/// The compute capability of GPU 0 as the CUDA driver (libcuda, opened at
/// run time) reports it; nullopt when there is no driver or no GPU.
std::optional<unsigned> localGpuCapability();

/// The local GPU's architecture when it is one tessel supports (with the `a`
/// suffix for capability 9.0, as Triton's sm_arch_from_capability adds it),
/// else sm_90a: a Hopper GPU as Triton compiles for it (wgmma).
GpuArch defaultArch();

/// The PTX ISA version (major * 10 + minor) Triton 3.6 uses with CUDA
/// toolkit Major.Minor.
unsigned ptxIsaForToolkit(unsigned Major, unsigned Minor);

/// The newest PTX ISA version LLVM 19's NVPTX back end can target.
constexpr unsigned MaxLlvmPtxIsa = 85;

struct Toolkit;
/// The PTX ISA version the JIT's PTX declares when Tools assembles it:
/// Triton's for the toolkit's release, LLVM's newest without a toolkit.
unsigned ptxIsaOf(const Toolkit &Tools);

} // namespace tessel::backend

#endif // TESSEL_COMPILER_BACKEND_TARGET_H
