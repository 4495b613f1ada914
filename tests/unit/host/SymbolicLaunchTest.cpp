//===- SymbolicLaunchTest.cpp - host wrappers read with symbolic sizes -----===//
/// \file
/// symbolicHostLaunches on the wrappers real libraries write and nothing in
/// their file calls: each launch size is the product of shape symbols the
/// wrapper computes (`n = x.numel()`, `M, N = x.shape`, `x.stride(0)`,
/// `triton.cdiv` grids, `torch.empty_like` outputs); a size-dependent
/// constexpr is left out, and a launch that does not depend on the sizes
/// gives none.
//===----------------------------------------------------------------------===//
#include "compiler/host/HostLaunches.h"

#include <gtest/gtest.h>

using namespace tessel;

namespace {

const char *Kernels = "import torch\nimport triton\nimport triton.language as tl\n\n"
                      "@triton.jit\n"
                      "def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
                      "    pass\n\n"
                      "@triton.jit\n"
                      "def rows_kernel(x_ptr, out_ptr, stride, N, BLOCK: tl.constexpr):\n"
                      "    pass\n\n"
                      "@triton.jit\n"
                      "def ends_kernel(lens_ptr, out_ptr, B):\n"
                      "    pass\n\n";

std::map<std::string, SymbolicLaunch> launchesOf(const std::string &Host) {
  auto F = ParsedFile::parse(std::make_shared<SourceText>(std::string(Kernels) + Host));
  ProblemSink Sink;
  ModuleInfo Info = discover(F->module(), Sink);
  return symbolicHostLaunches(*F, Info);
}

/// "param = term" per integer argument, "param: extent" per tensor, then the grid.
std::string summary(const SymbolicLaunch &S) {
  std::string Out;
  for (const auto &[P, T] : S.Ints)
    Out += P + " = " + S.describe(T) + "; ";
  for (const auto &[P, T] : S.Extents)
    Out += P + ": " + S.describe(T) + "; ";
  Out += "grid (";
  for (const SizeTerm &T : S.Grid)
    Out += S.describe(T) + ",";
  return Out + ")";
}

TEST(SymbolicLaunch, AnElementwiseWrapperGivesTheElementCountAndACdivGrid) {
  auto L = launchesOf("def add(x, y):\n"
                      "    out = torch.empty_like(x)\n"
                      "    n = out.numel()\n"
                      "    grid = (triton.cdiv(n, 1024),)\n"
                      "    add_kernel[grid](x, y, out, n, BLOCK=1024)\n"
                      "    return out\n");
  ASSERT_EQ(L.count("add_kernel"), 1u);
  const SymbolicLaunch &S = L.at("add_kernel");
  EXPECT_EQ(S.Wrapper, "add");
  // Only the element count matters, so the shape is 1-D (linear sizes).
  EXPECT_EQ(summary(S), "n = x.numel(); out_ptr: x.numel(); x_ptr: x.numel(); y_ptr: x.numel(); "
                        "grid (cdiv(x.numel(), 1024),)");
  EXPECT_EQ(S.Values.at("BLOCK").repr(), "1024");
  EXPECT_EQ(S.DTypes.at("out_ptr"), "fp32");
}

TEST(SymbolicLaunch, ARowWiseWrapperGivesShapesAndStrides) {
  auto L = launchesOf("class Rows(torch.autograd.Function):\n"
                      "    @staticmethod\n"
                      "    def forward(ctx, x):\n"
                      "        M, N = x.shape\n"
                      "        out = torch.empty((M, N), device=x.device, dtype=torch.float16)\n"
                      "        rows_kernel[(M,)](x, out, x.stride(0), N, BLOCK=128)\n"
                      "        return out\n");
  ASSERT_EQ(L.count("rows_kernel"), 1u);
  const SymbolicLaunch &S = L.at("rows_kernel");
  EXPECT_EQ(S.Wrapper, "Rows.forward");
  EXPECT_EQ(summary(S), "N = x.shape[1]; stride = x.shape[1]; out_ptr: x.numel(); x_ptr: x.numel(); "
                        "grid (x.shape[0],)");
  EXPECT_EQ(S.DTypes.at("out_ptr"), "fp16");
}

TEST(SymbolicLaunch, AnAllocationOneLongerKeepsItsConstant) {
  // Issue 30: offsets of B rows and their end, `torch.zeros(B + 1)`; read as
  // B the prover would report the store of the end (out_ptr[B]) as past it.
  auto L = launchesOf("def offsets(lens):\n"
                      "    B = lens.shape[0]\n"
                      "    out = torch.zeros(B + 1, dtype=lens.dtype, device=lens.device)\n"
                      "    ends_kernel[(B,)](lens, out, B)\n"
                      "    return out\n");
  ASSERT_EQ(L.count("ends_kernel"), 1u);
  EXPECT_EQ(summary(L.at("ends_kernel")), "B = lens.shape[0]; lens_ptr: lens.numel(); out_ptr: lens.shape[0] + 1; "
                                          "grid (lens.shape[0],)");
}

TEST(SymbolicLaunch, WhatDependsOnTheSizesOtherwiseGivesNone) {
  // A block size computed from the sizes is no single specialization (it
  // is left out of Values, so the prover does not use the launch); a launch
  // whose grid and integers ignore the sizes says nothing of them.
  auto L = launchesOf("def rows(x):\n"
                      "    M, N = x.shape\n"
                      "    out = torch.empty_like(x)\n"
                      "    rows_kernel[(M,)](x, out, x.stride(0), N, BLOCK=triton.next_power_of_2(N))\n"
                      "def fixed(x, y):\n"
                      "    add_kernel[(1,)](x, y, x, 64, BLOCK=64)\n");
  ASSERT_EQ(L.count("rows_kernel"), 1u);
  EXPECT_EQ(L.at("rows_kernel").Values.count("BLOCK"), 0u);
  EXPECT_EQ(L.count("add_kernel"), 0u);
}

} // namespace
