//===- DevicePeak.h - what this GPU can do at best ---------------*- C++ -*-===//
/// \file
/// The ceilings `tessel run --gpu` divides its figures by, measured on the
/// device itself rather than taken from a datasheet (a datasheet's HBM figure
/// is never reached, and the clocks of one board differ from the next):
///
/// - memory: a copy kernel (one 16-byte load and one store per thread over
///   a buffer far larger than the L2), bytes read plus bytes written per
///   second, the best of a few timed runs;
/// - tensor cores: a kernel of independent `mma.sync.m16n8k16` fp16 chains
///   with fp32 accumulators in registers (no memory traffic), the rate of
///   the sm_80 dot lowering; and on sm_90, the instructions Triton's Hopper
///   dots use: `wgmma.mma_async` m64n256 with fp32 accumulators, operands
///   read from shared memory by descriptor, fp16 (bf16 runs at its rate)
///   and fp8 e4m3 (k32), four per commit group with one group in flight,
///   two warpgroups per block, one block per SM (128 accumulators a thread).
///
/// Both kernels are PTX written here, compiled by the driver's JIT, with
/// Triton's ABI (two trailing scratch pointers) so GpuSession launches them
/// as it launches a kernel of the user's. Measuring takes well under a
/// second; tools/GpuPeak caches the result per device.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_RUNTIME_DEVICEPEAK_H
#define TESSEL_COMPILER_RUNTIME_DEVICEPEAK_H

#include "compiler/runtime/GpuSession.h"

#include <string>

namespace tessel::runtime {

struct DevicePeak {
  double CopyGBps = 0;  ///< bytes read + written per second / 1e9
  double MmaTflops = 0; ///< fp16 mma.sync, fp32 accumulate; 0 below sm_80
  /// wgmma, fp32 accumulate, fp16 and fp8 e4m3 operands; 0 but on sm_90.
  double WgmmaF16Tflops = 0, WgmmaFp8Tflops = 0;
  std::string Method;   ///< how it was measured, for the report
};

/// The copy kernel's PTX (exposed for the tests).
std::string copyKernelPtx();
/// The mma.sync kernel's PTX: Chains independent accumulators per warp.
std::string mmaKernelPtx(int Chains);
/// The wgmma kernel's PTX (sm_90a): fp16 operands, or fp8 e4m3 ones.
std::string wgmmaKernelPtx(bool Fp8);

/// Measures S's device. A DriverError when a kernel could not be loaded or
/// launched (the session may then be broken).
Result<DevicePeak> measurePeak(GpuSession &S);

} // namespace tessel::runtime

#endif // TESSEL_COMPILER_RUNTIME_DEVICEPEAK_H
