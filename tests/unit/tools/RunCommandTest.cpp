//===- RunCommandTest.cpp - `tessel run` on the command line --------------===//
/// \file
/// The run subcommand in-process (tools::runRun, what the binary's table
/// calls): usage errors and the --gpu message (exit 2), unreadable files and
/// unknown kernels or configs (2), clean runs (0), violations, spec errors
/// and kernels with errors (1), the text summary, --format=json, --save
/// (the .npy read back: header and bytes), and the derivation without a spec.
//===----------------------------------------------------------------------===//
#include "RunCommandSupport.h"
#include "compiler/interp/BufferStats.h"
#include "compiler/numerics/FloatFormats.h"
#include "tools/KernelRun.h"
#include "tools/NpyFile.h"
#include "tools/Subcommands.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace tessel;
namespace fs = std::filesystem;

namespace {

using test::Ran;
using test::sample;
using test::tesselRun;

fs::path scratch(const std::string &Name) {
  fs::path P = fs::path(::testing::TempDir()) / ("tessel-run-test-" + Name);
  fs::remove_all(P);
  fs::create_directories(P);
  return P;
}

std::string readBytes(const fs::path &P) {
  std::ifstream In(P, std::ios::binary);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

TEST(RunCommand, UsageErrorsExitTwo) {
  Ran R = tesselRun({});
  EXPECT_EQ(R.Status, 2);
  EXPECT_NE(R.Err.find("tessel run: error: no input file"), std::string::npos) << R.Err;
  R = tesselRun({sample("vector_add.py"), "--cpu"});
  EXPECT_EQ(R.Status, 2);
  EXPECT_NE(R.Err.find("which kernel? pass --kernel NAME"), std::string::npos) << R.Err;
  R = tesselRun({sample("vector_add.py"), "--kernel", "vector_add_kernel", "--fast"});
  EXPECT_EQ(R.Status, 2);
  EXPECT_NE(R.Err.find("unknown option '--fast'"), std::string::npos) << R.Err;
  R = tesselRun({sample("vector_add.py"), "--kernel", "vector_add_kernel", "--config", "x"});
  EXPECT_EQ(R.Status, 2);
  EXPECT_NE(R.Err.find("--config takes a config index (0, 1, ...), not 'x'"), std::string::npos) << R.Err;
  R = tesselRun({sample("vector_add.py"), "--kernel", "vector_add_kernel", "--cpu", "--gpu"});
  EXPECT_EQ(R.Status, 2);
  EXPECT_NE(R.Err.find("--cpu and --gpu exclude each other"), std::string::npos) << R.Err;
  R = tesselRun({sample("vector_add.py"), "--kernel", "vector_add_kernel", "--format=xml"});
  EXPECT_EQ(R.Status, 2);
  R = tesselRun({"--help"});
  EXPECT_EQ(R.Status, 0);
  EXPECT_EQ(R.Out.rfind("usage: tessel run FILE --kernel K", 0), 0u) << R.Out;
}

TEST(RunCommand, GpuWithoutADriverIsOneLine) {
  Ran R = tesselRun({sample("vector_add.py"), "--kernel", "vector_add_kernel", "--gpu"});
  if (R.Status != 2)
    GTEST_SKIP() << "a GPU driver is present: --gpu ran (status " << R.Status << ")";
  EXPECT_EQ(R.Err.rfind("tessel run: error: --gpu: no ", 0), 0u) << R.Err; // "no GPU driver: libcuda.so.1 ..."
  EXPECT_EQ(std::count(R.Err.begin(), R.Err.end(), '\n'), 1) << R.Err;
  EXPECT_EQ(R.Out, "");
  R = tesselRun({sample("vector_add.py"), "--kernel", "vector_add_kernel", "--iters", "5"});
  EXPECT_EQ(R.Status, 2);
  EXPECT_NE(R.Err.find("--iters times GPU runs: add --gpu"), std::string::npos) << R.Err;
}

TEST(RunCommand, BadInputIsAClearMessage) {
  Ran R = tesselRun({"/nonexistent/tessel/k.py", "--kernel", "k", "--cpu"});
  EXPECT_EQ(R.Status, 2);
  EXPECT_EQ(R.Err.rfind("tessel: error: /nonexistent/tessel/k.py: ", 0), 0u) << R.Err;
  R = tesselRun({sample("vector_add.py"), "--kernel", "nope", "--cpu"});
  EXPECT_EQ(R.Status, 2);
  EXPECT_NE(R.Err.find("no @triton.jit kernel named 'nope'; the file defines vector_add_kernel"), std::string::npos)
      << R.Err;
  R = tesselRun({sample("matmul.py"), "--kernel", "matmul_kernel", "--cpu", "--config", "9"});
  EXPECT_EQ(R.Status, 2);
  EXPECT_NE(R.Err.find("kernel 'matmul_kernel' has 5 autotune configs (0 to 4), not 9"), std::string::npos) << R.Err;
}

TEST(RunCommand, CleanRunPrintsASummaryAndExitsZero) {
  Ran R = tesselRun({sample("vector_add.py"), "--kernel", "vector_add_kernel", "--cpu", "--color=never"});
  EXPECT_EQ(R.Status, 0) << R.Out << R.Err;
  EXPECT_NE(R.Out.find("launch: 3 instances from the `# tessel: launch` directive\n"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("\ninstance n_elements=1000: grid (1, 1, 1), num_warps=4, num_stages=3: ran "),
            std::string::npos)
      << R.Out;
  EXPECT_NE(R.Out.find("  out_ptr: fp32[1000] crc32=0x"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find(" nan=0 inf=0\n    first: "), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("\n3 instances run: no errors\n"), std::string::npos) << R.Out;
  EXPECT_EQ(R.Out.find("error:"), std::string::npos) << R.Out;
}

TEST(RunCommand, ViolationsAreCompilerStyleDiagnosticsAndExitOne) {
  Ran R =
      tesselRun({sample("bugs/ts201_unmasked_axis.py"), "--kernel", "add_unmasked_kernel", "--cpu", "--color=never"});
  EXPECT_EQ(R.Status, 1);
  const std::string Want = "ts201_unmasked_axis.py:19:9: error: 72 out-of-bounds loads of x_ptr[3000..3071] (x_ptr has "
                           "3000 elements), first in program (2, 0, 0), lane 952 [TS301]\n"
                           "    x = tl.load(x_ptr + offs)\n"
                           "        ^~~~~~~~~~~~~~~~~~~~~\n";
  EXPECT_NE(R.Out.find(Want), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("\n1 instance run: 2 errors\n"), std::string::npos) << R.Out;
}

TEST(RunCommand, SpecErrorsPointIntoTheSpecText) {
  Ran R = tesselRun({sample("vector_add.py"), "--kernel", "vector_add_kernel", "--cpu", "--color=never", "--spec",
                     "n_elements=10 x=f33[n_elements]"});
  EXPECT_EQ(R.Status, 1);
  EXPECT_NE(R.Out.find("--spec:1:17: error: unknown dtype 'f33'"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("n_elements=10 x=f33[n_elements]\n                ^~~\n"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("launch: 0 instances from --spec"), std::string::npos) << R.Out;
}

TEST(RunCommand, AKernelWithErrorsReportsThemAndDoesNotRun) {
  fs::path Dir = scratch("errors");
  std::ofstream(Dir / "k.py") << "import triton\nimport triton.language as tl\n\n"
                                 "# tessel: launch x=fp32[1000]:out BLOCK=1000\n"
                                 "@triton.jit\ndef k(x_ptr, BLOCK: tl.constexpr):\n"
                                 "    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)\n";
  Ran R = tesselRun({(Dir / "k.py").string(), "--kernel", "k", "--color=never"});
  EXPECT_EQ(R.Status, 1);
  EXPECT_NE(R.Out.find("k.py:7:22: error: arange's range must be a power of 2 [TS105]"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("  error: the kernel could not be lowered for this instance"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("0 instances run: "), std::string::npos) << R.Out;
}

TEST(RunCommand, InterleaveAlternatesItsOperandsAlongTheLastAxis) {
  // standard.interleave is join then reshape: AWQ's dequantizers repeat each
  // packed word 8 times with three of them. A wrong order fails an assert.
  fs::path Dir = scratch("interleave");
  std::ofstream(Dir / "k.py")
      << "import triton\nimport triton.language as tl\n\n"
         "# tessel: launch x=i32[2, 32]:out\n"
         "@triton.jit\ndef k(x_ptr):\n"
         "    a = tl.arange(0, 4)\n"
         "    i = tl.arange(0, 8)\n"
         "    c = tl.interleave(a, a + 100)\n"
         "    tl.device_assert(c == tl.where(i % 2 == 0, i // 2, i // 2 + 100), 'interleave 1-D')\n"
         "    r = tl.arange(0, 2)[:, None]\n"
         "    w = r * 4 + a[None, :]\n"
         "    t = tl.interleave(w, w + 100)\n"
         "    e = r * 4 + i[None, :] // 2 + (i[None, :] % 2) * 100\n"
         "    tl.device_assert(t == e, 'interleave 2-D')\n"
         "    x8 = tl.interleave(w, w)\n"
         "    x8 = tl.interleave(x8, x8)\n"
         "    x8 = tl.interleave(x8, x8)\n"
         "    j = tl.arange(0, 32)[None, :]\n"
         "    tl.device_assert(x8 == r * 4 + j // 8, 'AWQ repeat')\n"
         "    tl.store(x_ptr + r * 32 + j, x8)\n";
  Ran R = tesselRun({(Dir / "k.py").string(), "--kernel", "k", "--color=never"});
  EXPECT_EQ(R.Status, 0) << R.Out << R.Err;
  EXPECT_NE(R.Out.find("1 instance run: no errors"), std::string::npos) << R.Out;
}

TEST(RunCommand, SortTopkFlipAndReduceOrComputeWhatTritonsStandardLibraryDoes) {
  // standard.py's bitonic network (MoE routers sort packed expert ids;
  // lightllm's grouped top-k sorts scores in rows); each assert fails on a
  // wrong order, a signed compare of uint32, a lost row or a wrong bit.
  fs::path Dir = scratch("sort");
  std::ofstream(Dir / "k.py")
      << "import triton\nimport triton.language as tl\n\n"
         "# tessel: launch x=fp32[256]:out\n"
         "@triton.jit\ndef k(x_ptr):\n"
         "    i = tl.arange(0, 64)\n"
         "    p = (i * 37) % 64\n"
         "    tl.device_assert(tl.sort(p) == i, 'sort 1-D')\n"
         "    tl.device_assert(tl.sort(p, 0, descending=True) == 63 - i, 'descending')\n"
         "    r = tl.arange(0, 4)[:, None]\n"
         "    rows = (r * 64 + p[None, :]).to(tl.float32)\n"
         "    tl.device_assert(tl.sort(rows, dim=1) == (r * 64 + i[None, :]).to(tl.float32), 'rows')\n"
         "    top = tl.topk(p.to(tl.float16), 8)\n"
         "    tl.static_assert(top.dtype == tl.float32)\n"
         "    tl.device_assert(top == (63 - tl.arange(0, 8)).to(tl.float32), 'topk')\n"
         "    u = (p + tl.where(p >= 32, -2147483648, 0)).to(tl.uint32, bitcast=True)\n"
         "    e = (i + tl.where(i >= 32, -2147483648, 0)).to(tl.uint32, bitcast=True)\n"
         "    tl.device_assert(tl.sort(u) == e, 'uint32')\n"
         "    tl.device_assert(tl.flip(rows, 0) == ((3 - r) * 64 + p[None, :]).to(tl.float32), 'flip')\n"
         "    bits = tl.full((4, 64), 1, tl.int32) << (i[None, :] % 32)\n"
         "    tl.device_assert(tl.reduce_or(bits, axis=1) == -1, 'reduce_or')\n"
         "    tl.store(x_ptr + r * 64 + i[None, :], tl.sort(rows, dim=1, descending=True))\n";
  Ran R = tesselRun({(Dir / "k.py").string(), "--kernel", "k", "--color=never"});
  EXPECT_EQ(R.Status, 0) << R.Out << R.Err;
  EXPECT_NE(R.Out.find("1 instance run: no errors"), std::string::npos) << R.Out;
}

TEST(RunCommand, SortAlongAnotherDimensionIsTritonsStaticAssert) {
  fs::path Dir = scratch("sortdim");
  std::ofstream(Dir / "k.py") << "import triton\nimport triton.language as tl\n\n"
                                 "# tessel: launch x=fp32[256]:out\n"
                                 "@triton.jit\ndef k(x_ptr):\n"
                                 "    offs = tl.arange(0, 4)[:, None] * 64 + tl.arange(0, 64)[None, :]\n"
                                 "    tl.store(x_ptr + offs, tl.sort(tl.load(x_ptr + offs), dim=0))\n";
  Ran R = tesselRun({(Dir / "k.py").string(), "--kernel", "k", "--color=never"});
  EXPECT_EQ(R.Status, 1);
  EXPECT_NE(R.Out.find("k.py:8:28: error: only minor dimension is currently supported [TS116]"), std::string::npos)
      << R.Out;
}

TEST(RunCommand, LibdevicesIsnanAndIsinfCountWhatTheyName) {
  // vllm counts NaN logits with `libdevice.isnan(x).to(tl.int1)`: an int32
  // per element, 1 where x is NaN (isinf: +-inf). A wrong count fails the assert.
  fs::path Dir = scratch("isnan");
  std::ofstream(Dir / "k.py") << "import triton\nimport triton.language as tl\n"
                                 "from triton.language.extra import libdevice\n\n"
                                 "# tessel: launch x=fp32[64] out=i32[1]:out\n"
                                 "@triton.jit\ndef k(x_ptr, out_ptr):\n"
                                 "    i = tl.arange(0, 64)\n"
                                 "    x = tl.where(i % 8 == 0, float('nan'), tl.load(x_ptr + i))\n"
                                 "    x = tl.where(i % 16 == 1, float('inf'), x)\n"
                                 "    x = tl.where(i == 2, -float('inf'), x)\n"
                                 "    nans = tl.sum(libdevice.isnan(x).to(tl.int1).to(tl.int32))\n"
                                 "    infs = tl.sum(libdevice.isinf(x))\n"
                                 "    tl.device_assert(nans * 100 + infs == 805, 'counts')\n"
                                 "    tl.store(out_ptr, nans * 100 + infs)\n";
  Ran R = tesselRun({(Dir / "k.py").string(), "--kernel", "k", "--color=never"});
  EXPECT_EQ(R.Status, 0) << R.Out << R.Err;
  EXPECT_NE(R.Out.find("1 instance run: no errors"), std::string::npos) << R.Out;
}

TEST(RunCommand, WithoutASpecTheAssumptionsAreSaid) {
  fs::path Dir = scratch("derived");
  std::ofstream(Dir / "k.py")
      << "import triton\nimport triton.language as tl\n\n"
         "@triton.jit\ndef k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
         "    offs = tl.arange(0, BLOCK)\n"
         "    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)\n";
  Ran R = tesselRun({(Dir / "k.py").string(), "--kernel", "k", "--color=never"});
  EXPECT_EQ(R.Status, 0) << R.Out << R.Err;
  EXPECT_NE(R.Out.find("launch: 1 instance derived from the file (no launch spec)\n"
                       "assumed: BLOCK=1024 assumed: sizes a block of a 1-D tile\n"),
            std::string::npos)
      << R.Out;
  EXPECT_NE(R.Out.find("assumed: x_ptr=fp32[1024]: no evidence of its element type (no launch spec)\n"),
            std::string::npos)
      << R.Out;
  EXPECT_NE(R.Out.find("assumed: n=1024 (no launch spec)\n"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("assumed: grid=(1,) (no launch spec)\n"), std::string::npos) << R.Out;
}

TEST(RunCommand, AnUncalledWrapperMakesTheLaunchAndSaysSo) {
  fs::path Dir = scratch("wrapper");
  std::ofstream(Dir / "k.py")
      << "import torch\nimport triton\nimport triton.language as tl\n\n"
         "@triton.jit\ndef k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
         "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
         "    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)\n"
         "\ndef double(x):\n    out = torch.empty_like(x)\n    n = x.numel()\n"
         "    k[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)\n    return out\n";
  Ran R = tesselRun({(Dir / "k.py").string(), "--kernel", "k", "--color=never"});
  EXPECT_EQ(R.Status, 0) << R.Out << R.Err;
  EXPECT_NE(R.Out.find("launch: 1 instance from the file's host code (no launch spec)\n"
                       "assumed: launch of the host wrapper `double` (nothing in the file calls it) called with "
                       "tensors of shape [1024, 1024] and unknown dtype\n"),
            std::string::npos)
      << R.Out;
  EXPECT_NE(R.Out.find("assumed: grid=(1024, 1, 1) from the launch at line 13 (reached through double())\n"),
            std::string::npos)
      << R.Out;
  // One consistent launch: n is x's element count, so no lane reads past it.
  EXPECT_NE(R.Out.find("1 instance run: no errors"), std::string::npos) << R.Out;
}

TEST(RunCommand, JsonReport) {
  Ran R = tesselRun({sample("bugs/ts201_unmasked_axis.py"), "--kernel", "add_unmasked_kernel", "--format=json"});
  EXPECT_EQ(R.Status, 1);
  nlohmann::json J = nlohmann::json::parse(R.Out);
  EXPECT_EQ(J["kernel"], "add_unmasked_kernel");
  EXPECT_EQ(J["device"], "cpu");
  EXPECT_EQ(J["spec"], "directive");
  EXPECT_EQ(J["errors"], 2);
  ASSERT_EQ(J["instances"].size(), 1u);
  const nlohmann::json &I = J["instances"][0];
  EXPECT_EQ(I["grid"], nlohmann::json::array({3, 1, 1}));
  EXPECT_TRUE(I["ran"].get<bool>());
  EXPECT_EQ(I["violations"], 144);
  ASSERT_EQ(I["outputs"].size(), 1u);
  EXPECT_EQ(I["outputs"][0]["name"], "out_ptr");
  EXPECT_EQ(I["outputs"][0]["dtype"], "fp32");
  EXPECT_EQ(I["outputs"][0]["shape"], nlohmann::json::array({3000}));
  EXPECT_EQ(I["outputs"][0]["nan"], 0);
  ASSERT_EQ(I["diagnostics"].size(), 2u);
  const nlohmann::json &D = I["diagnostics"][0];
  EXPECT_EQ(D["code"], "TS301");
  EXPECT_EQ(D["severity"], 1);
  EXPECT_EQ(D["range"]["start"]["line"], 18);
  EXPECT_EQ(D["range"]["start"]["character"], 8);
  EXPECT_EQ(D["message"].get<std::string>().rfind("72 out-of-bounds loads of x_ptr[3000..3071]", 0), 0u);
}

TEST(RunCommand, AKernelThatDoesNotEndIsStopped) {
  std::string Src = "import triton\nimport triton.language as tl\n\n"
                    "# tessel: launch x=fp32[1]:out n=1000000\n"
                    "@triton.jit\ndef spin(x_ptr, n):\n"
                    "    acc = 0.0\n"
                    "    for i in range(0, n):\n"
                    "        acc += 1.0\n"
                    "    tl.store(x_ptr, acc)\n";
  auto File = ParsedFile::parse(std::make_shared<SourceText>(Src, "spin.py"));
  tools::KernelRunOptions Opts;
  Opts.MaxSteps = 10000;
  tools::RunReport Report;
  std::string Error;
  ASSERT_TRUE(tools::runKernel(*File, "spin.py", "spin", Opts, Report, Error)) << Error;
  ASSERT_EQ(Report.Instances.size(), 1u);
  EXPECT_FALSE(Report.Instances[0].Ran);
  EXPECT_EQ(Report.Instances[0].Error, "the interpreter stopped: step limit of 10000 ops exceeded");
  EXPECT_EQ(Report.errors(), 1u);
}

TEST(RunCommand, EveryFailingAssertLaneIsCounted) {
  // 5000 failing lanes, more than the interpreter keeps records of.
  std::string Src = "import triton\nimport triton.language as tl\n\n"
                    "# tessel: launch x=fp32[5000]:zeros n=5000 BLOCK=1024 grid=(cdiv(n, BLOCK),)\n"
                    "@triton.jit\ndef k(x_ptr, n, BLOCK: tl.constexpr):\n"
                    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                    "    x = tl.load(x_ptr + offs, mask=offs < n, other=1.0)\n"
                    "    tl.device_assert(x > 0, \"x must be positive\")\n";
  auto File = ParsedFile::parse(std::make_shared<SourceText>(Src, "k.py"));
  tools::RunReport Report;
  std::string Error;
  ASSERT_TRUE(tools::runKernel(*File, "k.py", "k", {}, Report, Error)) << Error;
  ASSERT_EQ(Report.Instances.size(), 1u);
  ASSERT_EQ(Report.Instances[0].Findings.size(), 1u);
  EXPECT_EQ(Report.Instances[0].Findings[0].Message,
            "device_assert failed: x must be positive (5000 lanes, first in program (0, 0, 0), lane 0)");
}

TEST(RunCommand, Crc32IsZlibs) {
  const std::string Check = "123456789";
  EXPECT_EQ(interp::crc32(reinterpret_cast<const uint8_t *>(Check.data()), Check.size()), 0xCBF43926u);
}

/// The .npy header: magic, version 1.0, little-endian length, the dict,
/// padded so the data starts at a multiple of 64.
std::string npyHeaderDict(const std::string &File) {
  EXPECT_GE(File.size(), 10u);
  EXPECT_EQ(File.substr(0, 6), "\x93NUMPY");
  EXPECT_EQ(File[6], '\x01');
  EXPECT_EQ(File[7], '\x00');
  size_t Len = static_cast<uint8_t>(File[8]) | static_cast<size_t>(static_cast<uint8_t>(File[9])) << 8;
  EXPECT_EQ((10 + Len) % 64, 0u);
  EXPECT_EQ(File[10 + Len - 1], '\n');
  std::string Dict = File.substr(10, Len);
  return Dict.substr(0, Dict.find_last_not_of(" \n") + 1);
}

TEST(RunCommand, SaveWritesNpyFilesThatHoldTheOutputs) {
  fs::path Dir = scratch("save");
  Ran R = tesselRun({sample("vector_add.py"), "--kernel", "vector_add_kernel", "--format=json", "--save",
                     (Dir / "out").string(), "--spec",
                     "n=10 x=fp16[n] y=fp16[n] out=fp16[n]:out n_elements=n BLOCK_SIZE=16"});
  ASSERT_EQ(R.Status, 0) << R.Out << R.Err;
  nlohmann::json J = nlohmann::json::parse(R.Out);
  const nlohmann::json &O = J["instances"][0]["outputs"][0];
  fs::path Npy = Dir / "out" / "out_ptr.npy";
  EXPECT_EQ(O["savedTo"], Npy.string());
  std::string File = readBytes(Npy);
  EXPECT_EQ(npyHeaderDict(File), "{'descr': '<f2', 'fortran_order': False, 'shape': (10,), }");
  std::string Data = File.substr(File.size() - 20);
  ASSERT_EQ(File.size() % 64, 20u);
  const auto *Bytes = reinterpret_cast<const uint8_t *>(Data.data());
  EXPECT_EQ(O["crc32"], [&] {
    char Buf[16];
    std::snprintf(Buf, sizeof Buf, "0x%08x", interp::crc32(Bytes, Data.size()));
    return std::string(Buf);
  }());
  for (size_t I = 0; I < O["first"].size(); ++I) {
    uint16_t Bits = static_cast<uint16_t>(Bytes[2 * I] | Bytes[2 * I + 1] << 8);
    EXPECT_EQ(numerics::decode(numerics::FloatFormat::FP16, Bits), O["first"][I].get<double>()) << I;
  }
}

TEST(RunCommand, SaveWritesBf16AsRawBitsAndNamesInstances) {
  fs::path Dir = scratch("save-bf16");
  Ran R = tesselRun({sample("vector_add.py"), "--kernel", "vector_add_kernel", "--color=never", "--save", Dir.string(),
                     "--spec", "n=[3, 5] x=bf16[n] y=bf16[n] out=bf16[n]:out n_elements=n BLOCK_SIZE=8"});
  ASSERT_EQ(R.Status, 0) << R.Out << R.Err;
  EXPECT_NE(R.Out.find("(as <u2: the raw bits of bf16, which NumPy has no dtype for)"), std::string::npos) << R.Out;
  EXPECT_EQ(npyHeaderDict(readBytes(Dir / "out_ptr-n_3.npy")),
            "{'descr': '<u2', 'fortran_order': False, 'shape': (3,), }");
  EXPECT_EQ(npyHeaderDict(readBytes(Dir / "out_ptr-n_5.npy")),
            "{'descr': '<u2', 'fortran_order': False, 'shape': (5,), }");
}

TEST(RunCommand, NpyHeadersOfEveryShape) {
  EXPECT_EQ(npyHeaderDict(tools::npyFile(ScalarKind::FP32, {2, 3}, std::vector<uint8_t>(24))),
            "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }");
  EXPECT_EQ(npyHeaderDict(tools::npyFile(ScalarKind::I1, {}, std::vector<uint8_t>(1))),
            "{'descr': '|b1', 'fortran_order': False, 'shape': (), }");
  EXPECT_EQ(tools::npyDescr(ScalarKind::FP8E4NV), "|u1");
  EXPECT_EQ(tools::npyDescr(ScalarKind::I64), "<i8");
}

} // namespace
