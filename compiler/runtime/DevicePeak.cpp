//===- DevicePeak.cpp - what this GPU can do at best ----------------------===//
/// \file
/// The copy moves 1 GiB each way (less on a small card): far past any L2, and
/// long enough (about half a millisecond on an H200) that the launch itself
/// is noise. The mma kernel runs 16 warps per SM, each with Chains
/// independent accumulators so that no mma waits on the one before it; its
/// operands are constants in registers, which ptxas cannot fold through an
/// mma, and the sums are stored so nothing is dead.
//===----------------------------------------------------------------------===//
#include "compiler/runtime/DevicePeak.h"

#include <algorithm>

namespace tessel::runtime {

static constexpr const char *PtxHeader = ".version 7.0\n.target sm_80\n.address_size 64\n\n";

std::string copyKernelPtx() {
  return std::string(PtxHeader) + R"(.visible .entry tessel_peak_copy(
	.param .u64 tessel_peak_copy_param_0,
	.param .u64 tessel_peak_copy_param_1,
	.param .u64 tessel_peak_copy_param_2,
	.param .u64 tessel_peak_copy_param_3,
	.param .u64 tessel_peak_copy_param_4
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<8>;
	ld.param.u64 	%rd1, [tessel_peak_copy_param_0];
	ld.param.u64 	%rd2, [tessel_peak_copy_param_1];
	ld.param.u64 	%rd3, [tessel_peak_copy_param_2];
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %ntid.x;
	mov.u32 	%r3, %tid.x;
	mul.wide.u32 	%rd4, %r1, %r2;
	cvt.u64.u32 	%rd5, %r3;
	add.u64 	%rd4, %rd4, %rd5;
	setp.ge.u64 	%p1, %rd4, %rd3;
	@%p1 bra 	DONE;
	shl.b64 	%rd4, %rd4, 4;
	cvta.to.global.u64 	%rd1, %rd1;
	cvta.to.global.u64 	%rd2, %rd2;
	add.u64 	%rd6, %rd1, %rd4;
	add.u64 	%rd7, %rd2, %rd4;
	ld.global.v4.u32 	{%r4, %r5, %r6, %r7}, [%rd6];
	st.global.v4.u32 	[%rd7], {%r4, %r5, %r6, %r7};
DONE:
	ret;
}
)";
}

std::string mmaKernelPtx(int Chains) {
  std::string P = PtxHeader;
  P += ".visible .entry tessel_peak_mma(\n"
       "\t.param .u64 tessel_peak_mma_param_0,\n"
       "\t.param .u32 tessel_peak_mma_param_1,\n"
       "\t.param .u64 tessel_peak_mma_param_2,\n"
       "\t.param .u64 tessel_peak_mma_param_3\n"
       ")\n{\n"
       "\t.reg .pred \t%p<2>;\n"
       "\t.reg .b32 \t%r<16>;\n"
       "\t.reg .b64 \t%rd<4>;\n";
  P += "\t.reg .f32 \t%f<" + std::to_string(Chains * 4 + 1) + ">;\n";
  P += "\tld.param.u64 \t%rd1, [tessel_peak_mma_param_0];\n"
       "\tld.param.u32 \t%r1, [tessel_peak_mma_param_1];\n"
       // A = 1.0 everywhere, B = 2^-10: the sums stay far from overflow.
       "\tmov.b32 \t%r4, 0x3c003c00;\n\tmov.b32 \t%r5, 0x3c003c00;\n"
       "\tmov.b32 \t%r6, 0x3c003c00;\n\tmov.b32 \t%r7, 0x3c003c00;\n"
       "\tmov.b32 \t%r8, 0x14001400;\n\tmov.b32 \t%r9, 0x14001400;\n";
  for (int F = 0; F < Chains * 4; ++F)
    P += "\tmov.f32 \t%f" + std::to_string(F) + ", 0f00000000;\n";
  P += "\tmov.u32 \t%r10, 0;\nLOOP:\n";
  for (int C = 0; C < Chains; ++C) {
    std::string D = "{%f" + std::to_string(4 * C) + ", %f" + std::to_string(4 * C + 1) + ", %f" +
                    std::to_string(4 * C + 2) + ", %f" + std::to_string(4 * C + 3) + "}";
    P += "\tmma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 \t" + D + ", {%r4, %r5, %r6, %r7}, {%r8, %r9}, " + D +
         ";\n";
  }
  P += "\tadd.u32 \t%r10, %r10, 1;\n"
       "\tsetp.lt.u32 \t%p1, %r10, %r1;\n"
       "\t@%p1 bra \tLOOP;\n";
  std::string Sum = "%f" + std::to_string(Chains * 4);
  P += "\tmov.f32 \t" + Sum + ", 0f00000000;\n";
  for (int F = 0; F < Chains * 4; ++F)
    P += "\tadd.f32 \t" + Sum + ", " + Sum + ", %f" + std::to_string(F) + ";\n";
  P += "\tmov.u32 \t%r2, %ctaid.x;\n"
       "\tmov.u32 \t%r3, %ntid.x;\n"
       "\tmov.u32 \t%r11, %tid.x;\n"
       "\tmad.lo.u32 \t%r12, %r2, %r3, %r11;\n"
       "\tmul.wide.u32 \t%rd2, %r12, 4;\n"
       "\tcvta.to.global.u64 \t%rd1, %rd1;\n"
       "\tadd.u64 \t%rd3, %rd1, %rd2;\n"
       "\tst.global.f32 \t[%rd3], " +
       Sum + ";\n\tret;\n}\n";
  return P;
}

std::string wgmmaKernelPtx(bool Fp8) {
  // m64n256: 128 fp32 accumulators per thread. The operands' contents do
  // not change the rate: the shared buffers are zeroed once, and the
  // descriptors (no swizzle) point at them. a is 64 x K, b is K x 256 (K 16
  // for fp16, 32 for fp8: 2 KB and 8 KB either way), in 16 KB.
  std::string P = ".version 8.0\n.target sm_90a\n.address_size 64\n\n"
                  ".visible .entry tessel_peak_wgmma(\n"
                  "\t.param .u64 tessel_peak_wgmma_param_0,\n"
                  "\t.param .u32 tessel_peak_wgmma_param_1,\n"
                  "\t.param .u64 tessel_peak_wgmma_param_2,\n"
                  "\t.param .u64 tessel_peak_wgmma_param_3\n"
                  ")\n.reqntid 256\n{\n"
                  "\t.reg .pred \t%p<3>;\n"
                  "\t.reg .b32 \t%r<16>;\n"
                  "\t.reg .b64 \t%rd<8>;\n"
                  "\t.reg .f32 \t%f<129>;\n"
                  "\t.shared .align 1024 .b8 \ttessel_peak_smem[16384];\n"
                  "\tld.param.u64 \t%rd1, [tessel_peak_wgmma_param_0];\n"
                  "\tld.param.u32 \t%r1, [tessel_peak_wgmma_param_1];\n"
                  "\tmov.u32 \t%r2, %tid.x;\n"
                  "\tmov.u32 \t%r3, tessel_peak_smem;\n"
                  // 16384 bytes zeroed as 1024 16-byte vectors, 256 threads.
                  "\tmov.u32 \t%r4, %r2;\n"
                  "ZERO:\n"
                  "\tshl.b32 \t%r5, %r4, 4;\n"
                  "\tadd.u32 \t%r5, %r5, %r3;\n"
                  "\tst.shared.v4.u32 \t[%r5], {0, 0, 0, 0};\n"
                  "\tadd.u32 \t%r4, %r4, 256;\n"
                  "\tsetp.lt.u32 \t%p1, %r4, 1024;\n"
                  "\t@%p1 bra \tZERO;\n"
                  "\tfence.proxy.async.shared::cta;\n"
                  "\tbar.sync \t0;\n"
                  // Descriptors: address >> 4 in bits 0-13, leading byte offset >> 4
                  // at 16, stride byte offset >> 4 at 32, no swizzle.
                  "\tshr.u32 \t%r6, %r3, 4;\n"
                  "\tand.b32 \t%r6, %r6, 16383;\n"
                  "\tcvt.u64.u32 \t%rd2, %r6;\n"
                  "\tor.b64 \t%rd2, %rd2, 68720001024;\n" // LBO 128 B (8 << 16), SBO 256 B (16 << 32)
                  "\tadd.u64 \t%rd3, %rd2, 128;\n"        // b at 2048 bytes
                  "\tsetp.ne.b32 \t%p2, %r1, 0;\n";
  for (int F = 0; F < 128; ++F)
    P += "\tmov.f32 \t%f" + std::to_string(F) + ", 0f00000000;\n";
  std::string D = "{";
  for (int F = 0; F < 128; ++F)
    D += (F ? ", %f" : "%f") + std::to_string(F);
  D += "}";
  std::string Instr =
      Fp8 ? "\twgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3 \t" + D + ", %rd2, %rd3, %p2, 1, 1;\n"
          : "\twgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 \t" + D + ", %rd2, %rd3, %p2, 1, 1, 0, 0;\n";
  P += "\tmov.u32 \t%r10, 0;\n"
       "\twgmma.fence.sync.aligned;\n"
       "LOOP:\n";
  for (int I = 0; I < 4; ++I)
    P += Instr;
  P += "\twgmma.commit_group.sync.aligned;\n"
       "\twgmma.wait_group.sync.aligned \t1;\n"
       "\tadd.u32 \t%r10, %r10, 1;\n"
       "\tsetp.lt.u32 \t%p1, %r10, %r1;\n"
       "\t@%p1 bra \tLOOP;\n"
       "\twgmma.wait_group.sync.aligned \t0;\n"
       "\tmov.f32 \t%f128, 0f00000000;\n";
  for (int F = 0; F < 128; ++F)
    P += "\tadd.f32 \t%f128, %f128, %f" + std::to_string(F) + ";\n";
  P += "\tmov.u32 \t%r7, %ctaid.x;\n"
       "\tmad.lo.u32 \t%r8, %r7, 256, %r2;\n"
       "\tmul.wide.u32 \t%rd4, %r8, 4;\n"
       "\tcvta.to.global.u64 \t%rd1, %rd1;\n"
       "\tadd.u64 \t%rd5, %rd1, %rd4;\n"
       "\tst.global.f32 \t[%rd5], %f128;\n\tret;\n}\n";
  return P;
}

/// The best of the timed runs: a ceiling is what the device can do, not
/// what it usually does.
static Result<double> bestMs(GpuSession &S, const LoadedKernel &K, const LaunchConfig &C) {
  Result<Timing> T = S.time(K, C, 5, 2);
  if (auto *E = std::get_if<DriverError>(&T))
    return *E;
  return std::get<Timing>(T).Min;
}

/// TFLOP/s of a tensor-core kernel of this file (entry Entry of Ptx): Blocks
/// blocks of 8 warps, each writing its sums to Sink, Iters times round its
/// loop, for Flops in all; the best of the timed runs.
static Result<double> tensorTflops(GpuSession &S, const std::string &Ptx, const char *Entry, unsigned Blocks,
                                   const DeviceBuffer &Sink, uint32_t Iters, double Flops) {
  Result<LoadedKernel> K = S.load(Ptx, Entry);
  if (auto *E = std::get_if<DriverError>(&K))
    return *E;
  LoadedKernel Loaded = std::get<LoadedKernel>(K);
  LaunchConfig C;
  C.NumWarps = 8;
  C.Grid = {Blocks, 1, 1};
  C.Args = {KernelArg::pointer(Sink.ptr()), KernelArg::i32(static_cast<int32_t>(Iters))};
  Result<double> Ms = bestMs(S, Loaded, C);
  S.unload(Loaded);
  if (auto *E = std::get_if<DriverError>(&Ms))
    return *E;
  return Flops / (std::get<double>(Ms) * 1e9);
}

Result<DevicePeak> measurePeak(GpuSession &S) {
  const DeviceInfo &I = S.device();
  DevicePeak Out;
  // Memory: 1 GiB each way, or an eighth of the card.
  size_t Bytes = std::min<size_t>(size_t(1) << 30, static_cast<size_t>(I.GlobalBytes / 8)) / 4096 * 4096;
  {
    Result<LoadedKernel> K = S.load(copyKernelPtx(), "tessel_peak_copy");
    if (auto *E = std::get_if<DriverError>(&K))
      return *E;
    LoadedKernel Copy = std::get<LoadedKernel>(K);
    Result<DeviceBuffer> Src = S.allocate(Bytes), Dst = S.allocate(Bytes);
    if (auto *E = std::get_if<DriverError>(&Src))
      return *E;
    if (auto *E = std::get_if<DriverError>(&Dst))
      return *E;
    if (auto E = S.fill(std::get<DeviceBuffer>(Src), 0x3f))
      return *E;
    uint64_t Vectors = Bytes / 16;
    LaunchConfig C;
    C.NumWarps = 8;
    C.Grid = {static_cast<unsigned>((Vectors + 255) / 256), 1, 1};
    C.Args = {KernelArg::pointer(std::get<DeviceBuffer>(Src).ptr()),
              KernelArg::pointer(std::get<DeviceBuffer>(Dst).ptr()), KernelArg::i64(static_cast<int64_t>(Vectors))};
    Result<double> Ms = bestMs(S, Copy, C);
    if (auto *E = std::get_if<DriverError>(&Ms))
      return *E;
    Out.CopyGBps = 2.0 * static_cast<double>(Bytes) / (std::get<double>(Ms) * 1e6);
    S.unload(Copy);
  }
  Out.Method = "copy of " + std::to_string(Bytes >> 20) + " MiB";
  if (I.Major < 8)
    return Out; // no mma.sync.m16n8k16 before Ampere
  constexpr int Chains = 8;
  unsigned SMs = static_cast<unsigned>(std::max(I.SMs, 1)), Blocks = SMs * 2;
  uint32_t Iters = 1 << 14;
  Result<DeviceBuffer> Sink = S.allocate(size_t(Blocks) * 256 * 4);
  if (auto *E = std::get_if<DriverError>(&Sink))
    return *E;
  // 2 x 16 x 8 x 16 flops per warp-wide mma.
  Result<double> Mma = tensorTflops(S, mmaKernelPtx(Chains), "tessel_peak_mma", Blocks, std::get<DeviceBuffer>(Sink),
                                    Iters, double(Blocks) * 8 * Iters * Chains * 2.0 * 16 * 8 * 16);
  if (auto *E = std::get_if<DriverError>(&Mma))
    return *E;
  Out.MmaTflops = std::get<double>(Mma);
  Out.Method += ", fp16 mma.sync m16n8k16 (fp32 accumulate)";
  if (I.Major != 9)
    return Out; // wgmma is sm_90a's
  for (bool Fp8 : {false, true}) {
    // One block per SM, two warpgroups, four m64n256 instructions per loop,
    // K 16 (fp8: 32).
    uint32_t Loops = 1 << 12;
    Result<double> Wg = tensorTflops(S, wgmmaKernelPtx(Fp8), "tessel_peak_wgmma", SMs, std::get<DeviceBuffer>(Sink),
                                     Loops, double(SMs) * 2 * Loops * 4 * 2.0 * 64 * 256 * (Fp8 ? 32 : 16));
    if (auto *E = std::get_if<DriverError>(&Wg))
      return *E;
    (Fp8 ? Out.WgmmaFp8Tflops : Out.WgmmaF16Tflops) = std::get<double>(Wg);
  }
  Out.Method += ", wgmma m64n256 fp16 and fp8 e4m3 (fp32 accumulate)";
  return Out;
}

} // namespace tessel::runtime
