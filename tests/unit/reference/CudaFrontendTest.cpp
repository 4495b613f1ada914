//===- CudaFrontendTest.cpp - the sample references through Clang and the back end ===//
/// \file
/// Every sample reference is read by Clang in process and compiled to PTX by
/// the back end; the tests hold the kernel's signature as the AST gives it and
/// the PTX patterns that make it the kernel it claims to be (16-byte loads,
/// warp shuffles, libdevice's exp, tensor-core MMA). Malformed files give
/// Clang's diagnostics at their lines, never a crash or a hang.
//===----------------------------------------------------------------------===//
#include "compiler/reference/ReferenceCompile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <chrono>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <gtest/gtest.h>

using namespace tessel;
using namespace tessel::reference;

namespace {

std::string sample(const std::string &Name) { return std::string(TESSEL_SOURCE_DIR) + "/samples/reference/" + Name; }

backend::GpuArch sm90() { return backend::GpuArch{90, false}; }

CompiledReference ptxOf(const std::string &File, const std::string &Fn, const std::string &Args) {
  ReferenceCompileOptions O;
  O.Arch = sm90();
  O.Assemble = false;
  return compileReference(sample(File), Fn, Args, O);
}

std::string errorsOf(const ReferenceSource &S) {
  std::string Out = S.Error;
  for (const ClangDiagnostic &D : S.Diagnostics)
    Out += "\n" + formatDiagnostic(D);
  return Out;
}

TEST(CudaFrontend, VectorAddSignatureAndPtx) {
  CompiledReference R = ptxOf("vector_add_ref.cu", "vector_add", "");
  ASSERT_TRUE(R.Kernel) << R.Error << errorsOf(R.Source);
  EXPECT_TRUE(R.Source.Diagnostics.empty()) << errorsOf(R.Source);
  const CudaKernel &K = *R.Source.Kernel;
  EXPECT_EQ(K.Mangled, "_Z10vector_addPKfS0_Pfi");
  ASSERT_EQ(K.Params.size(), 4u);
  EXPECT_EQ(K.Params[0].Name, "x");
  EXPECT_EQ(K.Params[0].Type, "const float *__restrict");
  EXPECT_TRUE(K.Params[0].ConstPointee);
  EXPECT_EQ(K.Params[2].Name, "out");
  EXPECT_FALSE(K.Params[2].ConstPointee);
  EXPECT_EQ(K.Params[3].DType, "i32");
  const std::string &Ptx = R.Kernel->Ptx;
  EXPECT_EQ(R.Kernel->Entry, "_Z10vector_addPKfS0_Pfi");
  EXPECT_NE(Ptx.find(".version 9.0"), std::string::npos);
  EXPECT_NE(Ptx.find(".target sm_90"), std::string::npos);
  EXPECT_NE(Ptx.find(".visible .entry _Z10vector_addPKfS0_Pfi("), std::string::npos);
  EXPECT_NE(Ptx.find("ld.global.nc.v4.f32"), std::string::npos);
  EXPECT_NE(Ptx.find("st.global.v4.f32"), std::string::npos);
  ASSERT_EQ(R.Kernel->Params.size(), 4u);
  EXPECT_EQ(R.Kernel->Params[3].Type, ".u32");
}

TEST(CudaFrontend, SoftmaxTemplateInstanceWithLibdevice) {
  CompiledReference R = ptxOf("softmax_ref.cu", "softmax_rows", "__half, 256, 4");
  ASSERT_TRUE(R.Kernel) << R.Error << errorsOf(R.Source);
  const CudaKernel &K = *R.Source.Kernel;
  EXPECT_EQ(K.Mangled, "_Z12softmax_rowsI6__halfLi256ELi4EEvPT_PKS1_iii");
  EXPECT_EQ(K.TemplateArgs, "__half, 256, 4");
  ASSERT_EQ(K.Params.size(), 5u);
  EXPECT_EQ(K.Params[0].Name, "out");
  EXPECT_EQ(K.Params[0].DType, "fp16");
  EXPECT_EQ(K.Params[1].Name, "in");
  EXPECT_TRUE(K.Params[1].ConstPointee);
  const std::string &Ptx = R.Kernel->Ptx;
  EXPECT_NE(Ptx.find(".entry _Z12softmax_rowsI6__halfLi256ELi4EEvPT_PKS1_iii("), std::string::npos);
  EXPECT_NE(Ptx.find(".maxntid 256, 1, 1"), std::string::npos);
  EXPECT_NE(Ptx.find("shfl.sync.bfly.b32"), std::string::npos);
  EXPECT_NE(Ptx.find("ex2.approx"), std::string::npos); // libdevice's expf, linked and inlined
  EXPECT_EQ(Ptx.find("__nv_expf"), std::string::npos);
  EXPECT_NE(Ptx.find("cvt.rn.f16.f32"), std::string::npos);
  EXPECT_NE(Ptx.find("bar.sync"), std::string::npos);
}

TEST(CudaFrontend, LayerNorm) {
  CompiledReference R = ptxOf("layer_norm_ref.cu", "layer_norm_rows", "256, 12");
  ASSERT_TRUE(R.Kernel) << R.Error << errorsOf(R.Source);
  const CudaKernel &K = *R.Source.Kernel;
  ASSERT_EQ(K.Params.size(), 9u);
  EXPECT_EQ(K.Params[4].Name, "mean");
  EXPECT_EQ(K.Params[8].Name, "eps");
  EXPECT_EQ(K.Params[8].DType, "fp32");
  EXPECT_EQ(R.Kernel->Params.size(), 9u);
  EXPECT_NE(R.Kernel->Ptx.find("rsqrt.approx"), std::string::npos);
  EXPECT_NE(R.Kernel->Ptx.find("shfl.sync.bfly.b32"), std::string::npos);
}

TEST(CudaFrontend, MatmulRunsOnTensorCores) {
  CompiledReference R = ptxOf("matmul_wmma_ref.cu", "matmul_wmma", "");
  ASSERT_TRUE(R.Kernel) << R.Error << errorsOf(R.Source);
  const CudaKernel &K = *R.Source.Kernel;
  ASSERT_EQ(K.Params.size(), 6u);
  EXPECT_EQ(K.Params[0].DType, "fp16");
  EXPECT_EQ(K.Params[2].DType, "fp16");
  const std::string &Ptx = R.Kernel->Ptx;
  EXPECT_NE(Ptx.find("wmma.load.a.sync.aligned.row.m16n16k16"), std::string::npos);
  EXPECT_NE(Ptx.find("wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32"), std::string::npos);
  EXPECT_NE(Ptx.find(".shared"), std::string::npos);
}

TEST(CudaFrontend, OnlineSoftmax) {
  CompiledReference R = ptxOf("online_softmax_ref.cu", "online_softmax_rows", "1024");
  ASSERT_TRUE(R.Kernel) << R.Error << errorsOf(R.Source);
  const std::string &Ptx = R.Kernel->Ptx;
  EXPECT_NE(Ptx.find(".maxntid 1024, 1, 1"), std::string::npos);
  EXPECT_NE(Ptx.find("ld.global.nc.v4.f32"), std::string::npos);
  EXPECT_NE(Ptx.find("ex2.approx.f32"), std::string::npos); // __expf, without flush-to-zero as nvcc's default
}

ReferenceSource readText(const std::string &Text, const std::string &Fn, const std::string &Args = "") {
  CudaOptions O;
  O.Arch = sm90();
  O.Text = Text;
  return readReference("/nonexistent/dir/bad.cu", Fn, Args, O);
}

TEST(CudaFrontend, MalformedFileGetsClangsDiagnosticsAtItsLines) {
  ReferenceSource S = readText("__global__ void k(float *x, int n) {\n"
                               "  int i = threadIdx.x\n"
                               "}\n"
                               "__device__ float f() { return undefined_thing; }\n",
                               "k");
  ASSERT_TRUE(S.hasErrors());
  EXPECT_FALSE(S.Module);
  ASSERT_GE(S.Diagnostics.size(), 2u) << errorsOf(S);
  EXPECT_EQ(S.Diagnostics[0].File, "/nonexistent/dir/bad.cu");
  EXPECT_EQ(S.Diagnostics[0].Line, 2u);
  EXPECT_EQ(S.Diagnostics[0].Message, "expected ';' at end of declaration");
  EXPECT_EQ(S.Diagnostics[1].Line, 4u);
  EXPECT_EQ(S.Diagnostics[1].Message, "use of undeclared identifier 'undefined_thing'");
  EXPECT_EQ(formatDiagnostic(S.Diagnostics[1]),
            "/nonexistent/dir/bad.cu:4:31: error: use of undeclared identifier 'undefined_thing'");
}

TEST(CudaFrontend, GarbageAndRunawayTemplatesEndInDiagnostics) {
  ReferenceSource S = readText(std::string("\x01\xff\xfe garbage {{{ \"unterminated\n", 28), "k");
  EXPECT_TRUE(S.hasErrors());
  S = readText("template <int N> struct F { static constexpr int v = F<N + 1>::v; };\n"
               "__global__ void k(int *x) { *x = F<0>::v; }\n",
               "k");
  ASSERT_TRUE(S.hasErrors());
  EXPECT_NE(S.Diagnostics[0].Message.find("recursive template instantiation exceeded maximum depth"), std::string::npos)
      << formatDiagnostic(S.Diagnostics[0]);
}

TEST(CudaFrontend, TheDirectivesTemplateArgumentsAreCheckedByClang) {
  ReferenceSource S = readText("template <int B> __global__ void k(float *x) { x[threadIdx.x] = B; }\n", "k", "float");
  ASSERT_TRUE(S.hasErrors());
  bool AtDirective = false;
  for (const ClangDiagnostic &D : S.Diagnostics)
    AtDirective |= D.File == "<tessel: reference directive>";
  EXPECT_TRUE(AtDirective);
}

TEST(CudaFrontend, NamesWhatIsMissing) {
  ReferenceSource S = readText("__global__ void a(float *x) {}\n__global__ void b(float *x) {}\n", "c");
  EXPECT_EQ(S.Error, "/nonexistent/dir/bad.cu has no __global__ function 'c' (it has: a, b)");
  S = readText("template <int B> __global__ void k(float *x) {}\n", "k");
  EXPECT_EQ(S.Error, "k is a function template: name its arguments in the directive (k<...>)");
  CudaOptions O;
  O.Arch = sm90();
  S = readReference("/nonexistent/dir/missing.cu", "k", "", O);
  EXPECT_EQ(S.Error, "cannot read /nonexistent/dir/missing.cu: No such file or directory");
}

TEST(CudaFrontend, OnlyTheNamedKernelIsCompiled) {
  CudaOptions O;
  O.Arch = sm90();
  O.Text = "__global__ void a(float *x) { x[0] = 1; }\n__global__ void b(float *x) { x[0] = 2; }\n";
  ReferenceSource S = readReference("/nonexistent/dir/two.cu", "b", "", O);
  ASSERT_TRUE(S.Module) << errorsOf(S);
  backend::JitOptions JO;
  JO.Arch = sm90();
  JO.Assemble = false;
  auto K = backend::compileModule(*S.Module, backend::LaunchShape{}, JO);
  ASSERT_TRUE(bool(K)) << llvm::toString(K.takeError());
  EXPECT_EQ(K->Entry, "_Z1bPf");
  EXPECT_EQ(K->Ptx.find("_Z1aPf"), std::string::npos);
}

} // namespace

namespace {

/// The precompiled prelude holds a file's includes: a header edited after it was built makes Clang
/// refuse it, and the compile builds it again and sees the edit (never a stale header, never an error).
TEST(CudaPrelude, AnEditedHeaderRebuildsIt) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tessel-prelude-test", Dir));
  ::setenv("TESSEL_CACHE_DIR", (Dir + "/cache").str().c_str(), 1);
  std::string Header = (Dir + "/value.cuh").str(), Cu = (Dir + "/k.cu").str();
  auto write = [](const std::string &Path, const std::string &Text) {
    std::FILE *F = std::fopen(Path.c_str(), "w");
    ASSERT_TRUE(F);
    std::fputs(Text.c_str(), F);
    std::fclose(F);
  };
  write(Header, "#pragma once\n#define VALUE 1234567\n");
  write(Cu, "#include \"value.cuh\"\n__global__ void k(int *x) { x[threadIdx.x] = VALUE; }\n");
  ReferenceCompileOptions O;
  O.Arch = sm90();
  O.Assemble = false;
  CompiledReference First = compileReference(Cu, "k", "", O);
  ASSERT_TRUE(First.Kernel) << First.Error << errorsOf(First.Source);
  EXPECT_NE(First.Kernel->Ptx.find("1234567"), std::string::npos);
  write(Header, "#pragma once\n#define VALUE 7654321 // a longer header than before\n");
  CompiledReference Second = compileReference(Cu, "k", "", O);
  ASSERT_TRUE(Second.Kernel) << Second.Error << errorsOf(Second.Source);
  EXPECT_TRUE(Second.Source.Diagnostics.empty()) << errorsOf(Second.Source);
  EXPECT_NE(Second.Kernel->Ptx.find("7654321"), std::string::npos);
  ::unsetenv("TESSEL_CACHE_DIR");
  llvm::sys::fs::remove_directories(Dir);
}

/// Each set of leading includes has its own PCH (megabytes each): the folder keeps the most recently
/// used 16, the one just built among them, never an unbounded history of an editor's buffers.
TEST(CudaPrelude, TheFolderKeepsTheRecentlyUsedOnes) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tessel-prelude-test", Dir));
  ::setenv("TESSEL_CACHE_DIR", (Dir + "/cache").str().c_str(), 1);
  std::string Pchs = (Dir + "/cache/jit/cuda-pch").str();
  ASSERT_FALSE(llvm::sys::fs::create_directories(Pchs));
  // Twenty PCHs of earlier buffers, used an hour ago and earlier.
  auto Then = std::chrono::system_clock::now() - std::chrono::hours(1);
  for (int I = 0; I < 20; ++I) {
    std::string P = Pchs + "/old" + std::to_string(I) + ".pch";
    int Fd;
    ASSERT_FALSE(llvm::sys::fs::openFileForWrite(P, Fd));
    llvm::sys::fs::setLastAccessAndModificationTime(Fd, Then - std::chrono::minutes(I));
    ::close(Fd);
  }
  std::string Cu = (Dir + "/k.cu").str();
  std::FILE *F = std::fopen(Cu.c_str(), "w");
  ASSERT_TRUE(F);
  std::fputs("#include <cuda_fp16.h>\n__global__ void k(__half *x) { x[threadIdx.x] = __float2half(1.0f); }\n", F);
  std::fclose(F);
  ReferenceCompileOptions O;
  O.Arch = sm90();
  O.Assemble = false;
  CompiledReference R = compileReference(Cu, "k", "", O);
  ASSERT_TRUE(R.Kernel) << R.Error << errorsOf(R.Source);
  size_t Kept = 0, Old = 0;
  std::error_code Ec;
  for (llvm::sys::fs::directory_iterator It(Pchs, Ec), End; It != End && !Ec; It.increment(Ec)) {
    ++Kept;
    Old += llvm::sys::path::filename(It->path()).starts_with("old");
  }
  EXPECT_EQ(Kept, 16u);
  EXPECT_EQ(Old, 15u); // the new one, and the 15 most recent of the old
  EXPECT_FALSE(llvm::sys::fs::exists(Pchs + "/old19.pch"));
  EXPECT_TRUE(llvm::sys::fs::exists(Pchs + "/old0.pch"));
  ::unsetenv("TESSEL_CACHE_DIR");
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace
