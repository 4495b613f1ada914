//===- JitTest.cpp - LLVM IR -> PTX -> cubin and the resource report ------===//
/// \file
/// The whole back end on LLVM IR kernels: the PTX header and entry follow
/// Triton's ABI, libdevice is linked with ftz reflected and nothing of it is
/// left but what the kernel calls, both assemblers (when the toolkit has
/// them; CI has ptxas) produce a cubin whose resources are read, a
/// register-starved kernel reports its spills, and the serialized form
/// round-trips and rejects truncated bytes.
//===----------------------------------------------------------------------===//
#include "compiler/backend/Jit.h"
#include "compiler/backend/PtxEmit.h"
#include "compiler/backend/Toolkit.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"

#include "BackendTestUtil.h"

#include <gtest/gtest.h>

#include <optional>
#include <thread>

using namespace tessel::backend;
using namespace tessel::backend::test;

static JitOptions options(const char *Arch, bool Assemble = true) {
  JitOptions O;
  O.Arch = *parseArch(Arch);
  O.Assemble = Assemble;
  return O;
}

static unsigned count(const std::string &Hay, const std::string &Needle) {
  unsigned N = 0;
  for (size_t P = Hay.find(Needle); P != std::string::npos; P = Hay.find(Needle, P + 1))
    ++N;
  return N;
}

TEST(Jit, PtxFollowsTritonsHeaderAndAbi) {
  if (toolkit().Libdevice.empty())
    GTEST_SKIP() << "no CUDA toolkit (libdevice) on this machine";
  llvm::LLVMContext Ctx;
  auto M = parseModule(AddExpKernel, Ctx);
  auto K = compileModule(*M, {128, 0}, options("sm_90a", false));
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  unsigned Isa = ptxIsaForToolkit(toolkit().Major, toolkit().Minor);
  EXPECT_NE(K->Ptx.find(".version " + std::to_string(Isa / 10) + "." + std::to_string(Isa % 10) + "\n"),
            std::string::npos);
  EXPECT_NE(K->Ptx.find(".target sm_90a\n"), std::string::npos);
  EXPECT_NE(K->Ptx.find(".address_size 64"), std::string::npos);
  EXPECT_EQ(K->Entry, "add_kernel");
  ASSERT_EQ(K->Params.size(), 6u);
  for (int I : {0, 1, 2, 4, 5})
    EXPECT_EQ(K->Params[I].Type, ".u64 .ptr .global .align 1") << I;
  EXPECT_EQ(K->Params[3].Type, ".u32");
  EXPECT_EQ(K->Params[3].Name, "add_kernel_param_3");
  EXPECT_EQ(K->ReqNtid, 128u);
  EXPECT_FALSE(K->MaxNReg);
  // libdevice's expf, inlined with __nvvm_reflect("__CUDA_FTZ") = 1: the
  // flush-to-zero exp2, and no libdevice function left in the PTX.
  EXPECT_NE(K->Ptx.find("ex2.approx.ftz.f32"), std::string::npos);
  EXPECT_EQ(K->Ptx.find("__nv_"), std::string::npos);
  EXPECT_EQ(count(K->Ptx, ".func"), 0u);
  EXPECT_EQ(K->Ptx.find(".local"), std::string::npos);
}

TEST(Jit, KeepsTheOptimizedLlvmIr) {
  if (toolkit().Libdevice.empty())
    GTEST_SKIP() << "no CUDA toolkit (libdevice) on this machine";
  llvm::LLVMContext Ctx;
  auto M = parseModule(AddExpKernel, Ctx);
  JitOptions O = options("sm_80", false);
  O.KeepLlvm = true;
  auto K = compileModule(*M, {128, 0}, O);
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  EXPECT_NE(K->Llvm.find("define void @add_kernel"), std::string::npos);
  EXPECT_NE(K->Llvm.find("\"nvvm-reflect-ftz\", i32 1"), std::string::npos);
  EXPECT_EQ(K->Llvm.find("@__nv_expf("), std::string::npos) << "libdevice's expf should be inlined and dropped";
  EXPECT_NE(K->Ptx.find(".target sm_80\n"), std::string::npos);
}

TEST(Jit, AModuleWithoutAKernelIsAnError) {
  llvm::LLVMContext Ctx;
  auto M = parseModule("define void @f() {\n  ret void\n}\n", Ctx);
  auto K = compileModule(*M, {128, 0}, options("sm_90", false));
  ASSERT_FALSE(bool(K));
  EXPECT_EQ(llvm::toString(K.takeError()), "the module has no kernel entry");
}

TEST(Jit, LibdeviceMissingIsAClearError) {
  Toolkit None = findToolkit({"/nonexistent"}, true);
  llvm::LLVMContext Ctx;
  auto M = parseModule(AddExpKernel, Ctx);
  JitOptions O = options("sm_90", false);
  O.Assembler.Tools = &None;
  auto K = compileModule(*M, {128, 0}, O);
  ASSERT_FALSE(bool(K));
  EXPECT_NE(llvm::toString(K.takeError()).find("libdevice.10.bc was not found"), std::string::npos);
}

TEST(Jit, NoAssemblerIsAClearError) {
  Toolkit None = findToolkit({"/nonexistent"}, true);
  AssembleOptions O;
  O.Tools = &None;
  auto A = assemble(".version 8.0\n", O);
  ASSERT_FALSE(bool(A));
  std::string Msg = llvm::toString(A.takeError());
  EXPECT_NE(Msg.find("no PTX assembler"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("/nonexistent"), std::string::npos) << Msg;
}

namespace {
class Assemblers : public testing::TestWithParam<std::tuple<AssemblerKind, const char *>> {};
} // namespace

TEST_P(Assemblers, CompileToACubinAndReadItsResources) {
  auto [Kind, Arch] = GetParam();
  if (toolkit().Libdevice.empty() || !hasAssembler(toolkit(), Kind))
    GTEST_SKIP() << assemblerName(Kind) << " is not installed";
  llvm::LLVMContext Ctx;
  auto M = parseModule(AddExpKernel, Ctx);
  JitOptions O = options(Arch);
  O.Assembler.Use = Kind;
  auto K = compileModule(*M, {128, 0}, O);
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  ASSERT_GE(K->Cubin.size(), 4u);
  EXPECT_EQ(K->Cubin.substr(0, 4), "\x7f"
                                   "ELF");
  EXPECT_TRUE(K->Resources.HasSpillCounts) << K->AssemblerLog;
  EXPECT_GT(K->Resources.Registers, 4u);
  EXPECT_LT(K->Resources.Registers, 64u);
  EXPECT_EQ(K->Resources.spillBytes(), 0u);
  EXPECT_EQ(K->Resources.StackFrame, 0u);
  // The cubin's own record agrees with the report.
  auto Elf = readCubinResources(K->Cubin, "add_kernel");
  ASSERT_TRUE(bool(Elf)) << llvm::toString(Elf.takeError());
  EXPECT_EQ(Elf->Registers, K->Resources.Registers);
  EXPECT_EQ(K->Occ.Limit, OccupancyLimit::Warps);
  EXPECT_EQ(K->Occ.BlocksPerSm, 16u);
  EXPECT_EQ(K->Assembler, std::string(assemblerName(Kind)) + " " + toolkit().version());
}

/// A kernel of Triton's shape that uses only dynamic shared memory.
static const char *SharedKernel = R"ll(
@global_smem = external addrspace(3) global [0 x i8], align 16
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

define void @smem_kernel(ptr addrspace(1) %o, ptr addrspace(1) %gs, ptr addrspace(1) %ps) {
entry:
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %p = getelementptr i32, ptr addrspace(3) @global_smem, i32 %t
  store volatile i32 %t, ptr addrspace(3) %p
  call void @llvm.nvvm.barrier0()
  %u = xor i32 %t, 1
  %q = getelementptr i32, ptr addrspace(3) @global_smem, i32 %u
  %v = load volatile i32, ptr addrspace(3) %q
  %po = getelementptr i32, ptr addrspace(1) %o, i32 %t
  store i32 %v, ptr addrspace(1) %po
  ret void
}
!nvvm.annotations = !{!0, !1}
!0 = !{ptr @smem_kernel, !"kernel", i32 1}
!1 = !{ptr @smem_kernel, !"reqntidx", i32 128}
)ll";

TEST_P(Assemblers, TheCubinsSharedFigureIsTheReportsOnEveryArch) {
  // On sm_90 the cubin's `.nv.shared.K` also holds the block's 1 KB system
  // reservation, which the report (and Triton's metadata.shared) leaves
  // out: read back from the cubin, the figure is the report's, 0 here.
  auto [Kind, Arch] = GetParam();
  if (toolkit().Libdevice.empty() || !hasAssembler(toolkit(), Kind))
    GTEST_SKIP() << assemblerName(Kind) << " is not installed";
  llvm::LLVMContext Ctx;
  auto M = parseModule(SharedKernel, Ctx);
  JitOptions O = options(Arch);
  O.Assembler.Use = Kind;
  auto K = compileModule(*M, {128, 512}, O);
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  EXPECT_EQ(K->Resources.StaticShared, 0u) << K->AssemblerLog;
  auto Elf = readCubinResources(K->Cubin, "smem_kernel");
  ASSERT_TRUE(bool(Elf)) << llvm::toString(Elf.takeError());
  EXPECT_EQ(Elf->StaticShared, K->Resources.StaticShared);
  EXPECT_EQ(K->sharedBytes(), 512u);
}

INSTANTIATE_TEST_SUITE_P(Both, Assemblers,
                         testing::Combine(testing::Values(AssemblerKind::NvJitLink, AssemblerKind::Ptxas),
                                          testing::Values("sm_80", "sm_90", "sm_90a")));

TEST(Jit, ARegisterStarvedKernelSpills) {
  if (toolkit().Ptxas.empty() && toolkit().NvJitLink.empty())
    GTEST_SKIP() << "no PTX assembler";
  llvm::LLVMContext Ctx;
  auto M = parseModule(spillKernel(), Ctx);
  auto K = compileModule(*M, {128, 0}, options("sm_90"));
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  EXPECT_EQ(K->MaxNReg, 32u);
  EXPECT_LE(K->Resources.Registers, 32u);
  EXPECT_GT(K->Resources.SpillStores, 0u) << K->AssemblerLog;
  EXPECT_GT(K->Resources.SpillLoads, 0u);
  EXPECT_GT(K->Resources.StackFrame, 0u);
}

TEST(Jit, PtxasErrorsAreReported) {
  if (toolkit().Ptxas.empty())
    GTEST_SKIP() << "no ptxas";
  AssembleOptions O;
  O.Use = AssemblerKind::Ptxas;
  auto A = assemble(".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k() { bogus; }\n", O);
  ASSERT_FALSE(bool(A));
  std::string Msg = llvm::toString(A.takeError());
  EXPECT_NE(Msg.find("ptxas could not assemble the PTX for sm_90"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("bogus"), std::string::npos) << Msg;
}

TEST(Jit, SerializedKernelsRoundTrip) {
  CompiledKernel K;
  K.Entry = "k";
  K.Arch = {90, true};
  K.Ptx = "ptx";
  K.Params = {{".u64 .ptr .global .align 1", "k_param_0"}, {".u32", "k_param_1"}};
  K.ReqNtid = 256;
  K.Cubin = std::string("\x7f"
                        "ELF\0\1",
                        6);
  K.Assembler = "ptxas 13.0";
  K.Launch = {256, 4096};
  K.Resources.Registers = 40;
  K.Resources.SpillStores = 8;
  K.Resources.HasSpillCounts = true;
  K.Occ = occupancy(K.Arch, 256, 40, 4096);
  K.FmaDot = true;
  K.DotAccumulatorRegs = 512;
  std::string Bytes = serialize(K);
  auto Back = deserialize(Bytes);
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(serialize(*Back), Bytes);
  EXPECT_EQ(Back->DotAccumulatorRegs, 512u);
  EXPECT_EQ(Back->Cubin, K.Cubin);
  EXPECT_EQ(Back->ReqNtid, 256u);
  EXPECT_FALSE(Back->MaxNReg);
  EXPECT_EQ(Back->Occ.Limit, K.Occ.Limit);
  for (size_t Cut : {size_t(0), size_t(3), Bytes.size() / 2, Bytes.size() - 1}) {
    auto Bad = deserialize(llvm::StringRef(Bytes).substr(0, Cut));
    EXPECT_FALSE(bool(Bad)) << Cut;
    llvm::consumeError(Bad.takeError());
  }
}

/// emitPtx with a fresh module of AddExpKernel under Pipeline (the LLVM IR it
/// handed to the code generator in *Ir).
static std::string ptxUnder(std::optional<LlvmPipeline> Pipeline, const char *Arch, std::string *Ir = nullptr) {
  llvm::LLVMContext Ctx;
  auto M = parseModule(AddExpKernel, Ctx);
  PtxOptions O;
  O.Arch = *parseArch(Arch);
  O.Libdevice = toolkit().Libdevice;
  O.Pipeline = Pipeline;
  O.OptimizedIr = Ir;
  auto Ptx = emitPtx(*M, O);
  EXPECT_TRUE(bool(Ptx)) << llvm::toString(Ptx.takeError());
  return Ptx ? *Ptx : "";
}

TEST(Jit, EveryMiddleEndGivesAKernel) {
  // TESSEL_LLVM_PIPELINE's choices (PtxOptions::Pipeline): tessel's kernel
  // pipeline and O3 inline libdevice's expf; none leaves it a function.
  if (toolkit().Libdevice.empty())
    GTEST_SKIP() << "no CUDA toolkit (libdevice) on this machine";
  for (LlvmPipeline P : {LlvmPipeline::Kernel, LlvmPipeline::O3, LlvmPipeline::None}) {
    std::string Ir;
    std::string Ptx = ptxUnder(P, "sm_90", &Ir);
    EXPECT_NE(Ptx.find(".visible .entry add_kernel("), std::string::npos) << llvmPipelineName(P);
    bool Inlined = Ir.find("@__nv_expf(") == std::string::npos;
    EXPECT_EQ(Inlined, P != LlvmPipeline::None) << llvmPipelineName(P) << "\n" << Ir;
  }
  // Without a choice, the environment's (unset in the tests: the kernel pipeline).
  EXPECT_EQ(ptxUnder(std::nullopt, "sm_90"), ptxUnder(LlvmPipeline::Kernel, "sm_90"));
}

TEST(Jit, AReusedTargetMachineGivesTheSamePtx) {
  // Target machines are kept per thread and options; a compile for another
  // arch in between must not change the next one's code.
  if (toolkit().Libdevice.empty())
    GTEST_SKIP() << "no CUDA toolkit (libdevice) on this machine";
  std::string First = ptxUnder(LlvmPipeline::Kernel, "sm_90");
  std::string Other = ptxUnder(LlvmPipeline::Kernel, "sm_80");
  std::string Again = ptxUnder(LlvmPipeline::Kernel, "sm_90");
  EXPECT_NE(Other.find(".target sm_80\n"), std::string::npos);
  EXPECT_EQ(First, Again);
  std::string OnAnotherThread;
  std::thread([&] { OnAnotherThread = ptxUnder(LlvmPipeline::Kernel, "sm_90"); }).join();
  EXPECT_EQ(First, OnAnotherThread);
}

// "The kernel has a tl.dot" is not "on FMA units": where the dot runs is read from the PTX
// (issue 31: lenses said "tl.dot on FMA units" beside 64 mma.sync).
TEST(Jit, DotUnitsComeFromThePtx) {
  CompiledKernel K;
  K.Ptx = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1}, {%r1}, {%r2}, {%f1};";
  EXPECT_EQ(dotUnits(K), "") << "no tl.dot: nothing to say";
  K.FmaDot = true;
  EXPECT_EQ(dotUnits(K), "mma.sync");
  K.Ptx = "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%f1}, %rd1, %rd2, 1, 1, 1, 0, 0;";
  EXPECT_EQ(dotUnits(K), "wgmma");
  K.Ptx = "fma.rn.f32 %f3, %f1, %f2, %f3;";
  EXPECT_EQ(dotUnits(K), "FMA units");
}

// A spill is reported where Triton's code must spill too: no tl.dot, or a
// wgmma dot whose accumulator alone takes more than a thread's 255
// registers. A smaller wgmma accumulator (a Liger-Kernel matmul with two dots
// per iteration spilled in tessel's code only) and dots on mma.sync stay
// silent, however large.
TEST(Jit, SpillsAreTritonsWhereTheAccumulatorCannotFit) {
  CompiledKernel K;
  EXPECT_TRUE(spillsAreTritons(K)) << "no tl.dot";
  K.FmaDot = true;
  K.Ptx = "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {%f1}, %rd1, %rd2, 1, 1, 1, 0, 0;";
  K.DotAccumulatorRegs = 128;
  EXPECT_FALSE(spillsAreTritons(K));
  K.DotAccumulatorRegs = 255;
  EXPECT_FALSE(spillsAreTritons(K));
  K.DotAccumulatorRegs = 512;
  EXPECT_TRUE(spillsAreTritons(K));
  K.Ptx = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1}, {%r1}, {%r2}, {%f1};";
  EXPECT_FALSE(spillsAreTritons(K));
}

// Each toolkit folder is searched and named once (issue 31: the SASS message listed /usr/local/cuda twice
// where CUDA_HOME=/usr/local/cuda, and again as the folder the symlink points to).
TEST(Jit, ToolkitRootsAreListedOnce) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tessel-toolkit", Dir));
  std::string Real(Dir), Link = Real + "-link";
  ASSERT_FALSE(llvm::sys::fs::create_link(Real, Link));
  Toolkit T = findToolkit({Real, Link, Real + "/", Real}, /*OnlyThese=*/true);
  EXPECT_EQ(T.Roots, std::vector<std::string>{Real});
  EXPECT_EQ(T.searched(), Real);
  llvm::sys::fs::remove(Link);
  llvm::sys::fs::remove(Real);
}
