//===- GpuSessionTest.cpp - the runtime on a real GPU, or its absence -----===//
/// \file
/// Without a GPU (CI) the driver's absence must be one clear reason, and
/// every GPU test skips with one line saying why. With one, kernels written
/// in PTX with Triton's ABI (the kernel's parameters, then the two scratch
/// pointers) are loaded through the driver's JIT and run: a vector add
/// checked element by element, an illegal address reported as a sticky
/// fault, a kernel that outlives the watchdog reported as hung, dynamic
/// shared memory past 48 KB, and event timing. Each test runs in its own
/// process (gtest_discover_tests), so a fault in one cannot touch another.
//===----------------------------------------------------------------------===//
#include "compiler/runtime/GpuSession.h"

#include <gtest/gtest.h>

#include <vector>

using namespace tessel::runtime;

namespace {

const char AddPtx[] = R"(.version 8.0
.target sm_80
.address_size 64

.visible .entry add_kernel(
	.param .u64 add_kernel_param_0,
	.param .u64 add_kernel_param_1,
	.param .u64 add_kernel_param_2,
	.param .u32 add_kernel_param_3,
	.param .u64 add_kernel_param_4,
	.param .u64 add_kernel_param_5
)
.reqntid 128, 1, 1
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<6>;
	.reg .f32 	%f<4>;
	.reg .b64 	%rd<11>;

	ld.param.u64 	%rd1, [add_kernel_param_0];
	ld.param.u64 	%rd2, [add_kernel_param_1];
	ld.param.u64 	%rd3, [add_kernel_param_2];
	ld.param.u32 	%r1, [add_kernel_param_3];
	mov.u32 	%r2, %ctaid.x;
	mov.u32 	%r3, %tid.x;
	mad.lo.s32 	%r4, %r2, 128, %r3;
	setp.ge.s32 	%p1, %r4, %r1;
	@%p1 bra 	$L_done;
	cvta.to.global.u64 	%rd4, %rd1;
	cvta.to.global.u64 	%rd5, %rd2;
	cvta.to.global.u64 	%rd6, %rd3;
	mul.wide.s32 	%rd7, %r4, 4;
	add.s64 	%rd8, %rd4, %rd7;
	add.s64 	%rd9, %rd5, %rd7;
	add.s64 	%rd10, %rd6, %rd7;
	ld.global.f32 	%f1, [%rd8];
	ld.global.f32 	%f2, [%rd9];
	add.f32 	%f3, %f1, %f2;
	st.global.f32 	[%rd10], %f3;
$L_done:
	ret;
}

.visible .entry fault_kernel(.param .u64 p0, .param .u64 p1, .param .u64 p2)
{
	.reg .b64 	%rd<2>;
	.reg .b32 	%r<2>;
	mov.u64 	%rd1, 8;
	mov.u32 	%r1, 1;
	st.global.u32 	[%rd1], %r1;
	ret;
}

.visible .entry spin_kernel(.param .u64 p0, .param .u64 p1)
{
	.reg .b64 	%rd<4>;
	.reg .pred 	%p<2>;
	mov.u64 	%rd1, %globaltimer;
$L_loop:
	mov.u64 	%rd2, %globaltimer;
	sub.s64 	%rd3, %rd2, %rd1;
	setp.lt.s64 	%p1, %rd3, 2000000000;
	@%p1 bra 	$L_loop;
	ret;
}

.extern .shared .align 16 .b8 global_smem[];

.visible .entry smem_kernel(.param .u64 p0, .param .u64 p1, .param .u64 p2)
{
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<3>;
	mov.u32 	%r1, global_smem;
	add.s32 	%r2, %r1, 65532;
	st.shared.u32 	[%r2], 7;
	ld.shared.u32 	%r3, [%r2];
	ld.param.u64 	%rd1, [p0];
	cvta.to.global.u64 	%rd2, %rd1;
	st.global.u32 	[%rd2], %r3;
	ret;
}
)";

/// The session of GPU 0, or a skip that says why there is none.
#define OPEN_OR_SKIP(S)                                                                                                \
  auto Opened = GpuSession::open(0);                                                                                   \
  if (auto *Err = std::get_if<DriverError>(&Opened))                                                                   \
    GTEST_SKIP() << "no GPU here: " << Err->str();                                                                     \
  GpuSession &S = *std::get<std::unique_ptr<GpuSession>>(Opened);

template <class T> T take(Result<T> R) {
  if (auto *E = std::get_if<DriverError>(&R)) {
    ADD_FAILURE() << E->str();
    return T();
  }
  return std::move(std::get<T>(R));
}

TEST(CudaDriver, AbsenceIsOneReason) {
  std::string Why;
  const CudaDriver *D = CudaDriver::get(Why);
  if (D)
    GTEST_SKIP() << "a GPU driver is present";
  EXPECT_EQ(Why.rfind("no ", 0), 0u) << Why; // "no GPU driver: libcuda.so.1 cannot be loaded (...)"
  EXPECT_EQ(Why.find('\n'), std::string::npos) << Why;
  auto S = GpuSession::open(0);
  ASSERT_TRUE(std::holds_alternative<DriverError>(S));
  EXPECT_NE(std::get<DriverError>(S).str().find(Why), std::string::npos);
}

TEST(GpuSession, VectorAddWithTritonsAbi) {
  OPEN_OR_SKIP(S);
  EXPECT_GE(S.device().Major, 8) << S.device().str();
  LoadedKernel K = take(S.load(AddPtx, "add_kernel"));
  ASSERT_TRUE(K.Function);
  const int N = 1000; // not a multiple of the block: the mask matters
  std::vector<float> X(N), Y(N), Out(N, -1);
  for (int I = 0; I < N; ++I) {
    X[I] = static_cast<float>(I);
    Y[I] = 0.5f * static_cast<float>(I);
  }
  DeviceBuffer BX = take(S.allocate(N * 4)), BY = take(S.allocate(N * 4)), BO = take(S.allocate(N * 4));
  ASSERT_FALSE(S.upload(BX, X.data(), N * 4));
  ASSERT_FALSE(S.upload(BY, Y.data(), N * 4));
  ASSERT_FALSE(S.fill(BO, 0xff));
  LaunchConfig C;
  C.Grid = {(N + 127) / 128, 1, 1};
  C.NumWarps = 4;
  C.Args = {KernelArg::pointer(BX.ptr()), KernelArg::pointer(BY.ptr()), KernelArg::pointer(BO.ptr()),
            KernelArg::i32(N)};
  auto E = S.launch(K, C);
  ASSERT_FALSE(E) << E->str();
  ASSERT_FALSE(S.download(BO, Out.data(), N * 4));
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(Out[I], 1.5f * static_cast<float>(I)) << "element " << I;
  EXPECT_GT(K.Registers, 0);
  Result<Timing> T = S.time(K, C, 10);
  ASSERT_TRUE(std::holds_alternative<Timing>(T));
  EXPECT_EQ(std::get<Timing>(T).Runs, 10u);
  EXPECT_GT(std::get<Timing>(T).Median, 0);
  EXPECT_LE(std::get<Timing>(T).Min, std::get<Timing>(T).Median);
}

TEST(GpuSession, IllegalAddressIsAStickyFaultNamingTheKernel) {
  OPEN_OR_SKIP(S);
  LoadedKernel K = take(S.load(AddPtx, "fault_kernel"));
  LaunchConfig C;
  C.NumWarps = 1;
  C.Args = {KernelArg::pointer(0)};
  auto E = S.launch(K, C);
  ASSERT_TRUE(E);
  EXPECT_EQ(E->Name, "CUDA_ERROR_ILLEGAL_ADDRESS") << E->str();
  EXPECT_NE(E->str().find("kernel fault_kernel, grid (1, 1, 1)"), std::string::npos) << E->str();
  EXPECT_TRUE(S.broken());
  EXPECT_TRUE(std::holds_alternative<DriverError>(S.allocate(16)));
}

TEST(GpuSession, AKernelPastTheWatchdogIsReportedHung) {
  OPEN_OR_SKIP(S);
  LoadedKernel K = take(S.load(AddPtx, "spin_kernel"));
  LaunchConfig C;
  C.NumWarps = 1;
  C.Watchdog = std::chrono::milliseconds(300);
  auto E = S.launch(K, C);
  ASSERT_TRUE(E);
  EXPECT_EQ(E->Name, "hung");
  EXPECT_NE(E->str().find("after 300 ms"), std::string::npos) << E->str();
  EXPECT_TRUE(S.broken());
}

TEST(GpuSession, DynamicSharedMemoryPast48KB) {
  OPEN_OR_SKIP(S);
  LoadedKernel K = take(S.load(AddPtx, "smem_kernel"));
  DeviceBuffer Out = take(S.allocate(4));
  LaunchConfig C;
  C.NumWarps = 1;
  C.SharedBytes = 64 * 1024;
  C.Args = {KernelArg::pointer(Out.ptr())};
  auto E = S.launch(K, C);
  ASSERT_FALSE(E) << E->str();
  uint32_t V = 0;
  ASSERT_FALSE(S.download(Out, &V, 4));
  EXPECT_EQ(V, 7u);
}

TEST(GpuSession, BadPtxSaysWhy) {
  OPEN_OR_SKIP(S);
  auto R = S.load(".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k() { bogus; }\n", "k");
  ASSERT_TRUE(std::holds_alternative<DriverError>(R));
  EXPECT_EQ(std::get<DriverError>(R).Call, "cuModuleLoadData");
  EXPECT_FALSE(S.broken());
}

} // namespace
