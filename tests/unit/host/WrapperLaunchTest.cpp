//===- WrapperLaunchTest.cpp - the launch an uncalled wrapper makes -------===//
/// \file
/// host::wrapperLaunch on small trees: the wrapper is called with made-up
/// tensors, its helpers imported from other modules of the project run in
/// their own modules (relative and absolute imports), and parameters it
/// never uses as tensors stay unknown.
//===----------------------------------------------------------------------===//
#include "compiler/host/WrapperLaunches.h"
#include "unit/project/TempTree.h"

#include <gtest/gtest.h>

namespace tessel::host {
namespace {

using testing::TempTree;

struct Loaded {
  std::shared_ptr<const ParsedFile> File;
  ModuleInfo Info;
};

Loaded load(project::Project &P, const std::string &Path) {
  project::FileSet::Contents C = P.files().contents(Path);
  EXPECT_TRUE(C.Text) << Path;
  Loaded L;
  L.File = ParsedFile::parse(std::make_shared<SourceText>(C.Text ? *C.Text : std::string(), Path));
  ProblemSink Sink;
  L.Info = discover(L.File->module(), Sink);
  return L;
}

const PyValue *arg(const HostLaunch &L, const std::string &Param) {
  const HostArgument *A = L.arg(Param);
  return A ? &A->Value : nullptr;
}

const PyValue *option(const HostLaunch &L, const std::string &Name) {
  for (const auto &[K, V] : L.Options)
    if (K == Name)
      return &V;
  return nullptr;
}

const char *Kernel = "import torch\nimport triton\nimport triton.language as tl\n"
                     "@triton.jit\ndef k(x_ptr, y_ptr, n, eps, BLOCK: tl.constexpr):\n"
                     "    offs = tl.arange(0, BLOCK)\n"
                     "    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * eps, mask=offs < n)\n";

TEST(WrapperLaunch, HelpersImportedFromOtherModulesRunInTheirModules) {
  TempTree T;
  T.write("pyproject.toml", "");
  T.write("pkg/__init__.py", "");
  T.write("pkg/utils.py", "import triton\nMAX = 65536\n"
                          "def calculate_settings(n):\n"
                          "    BLOCK = triton.next_power_of_2(n)\n"
                          "    if BLOCK > MAX:\n        raise RuntimeError('too big')\n"
                          "    num_warps = 4\n"
                          "    if BLOCK >= 2048:\n        num_warps = 8\n"
                          "    return BLOCK, num_warps\n");
  T.write("pkg/ops/__init__.py", "");
  T.write("pkg/ops/norm.py", std::string(Kernel) + "from ..utils import calculate_settings\n"
                                                   "def norm(x, eps):\n"
                                                   "    rows, cols = x.shape\n"
                                                   "    y = torch.empty_like(x)\n"
                                                   "    BLOCK, num_warps = calculate_settings(cols * 2)\n"
                                                   "    k[(rows,)](x, y, cols, eps, BLOCK=BLOCK, num_warps=num_warps)\n"
                                                   "    return y\n");
  project::Project P;
  Loaded L = load(P, T.path("pkg/ops/norm.py"));
  std::optional<HostLaunch> H = wrapperLaunch(*L.File, L.Info, &P, "k", {}, 1024);
  ASSERT_TRUE(H);
  EXPECT_EQ(H->Grid, (std::vector<int64_t>{1024}));
  ASSERT_NE(arg(*H, "BLOCK"), nullptr);
  EXPECT_EQ(arg(*H, "BLOCK")->repr(), "2048");
  ASSERT_NE(option(*H, "num_warps"), nullptr);
  EXPECT_EQ(option(*H, "num_warps")->repr(), "8");
  EXPECT_EQ(arg(*H, "n")->repr(), "1024");
  // `eps` is never used as a tensor: it stays unknown for the plan to assume.
  EXPECT_TRUE(arg(*H, "eps")->isUnknown());
  ASSERT_TRUE(arg(*H, "x_ptr")->isTensor());
  EXPECT_EQ(arg(*H, "x_ptr")->asTensor().Shape, (std::vector<int64_t>{1024, 1024}));
  EXPECT_EQ(arg(*H, "x_ptr")->asTensor().DType, "");
  EXPECT_NE(H->MadeUpCall.find("`norm` (nothing in the file calls it)"), std::string::npos) << H->MadeUpCall;

  // Without the project the helper is unknown: so are the block and warps.
  std::optional<HostLaunch> Alone = wrapperLaunch(*L.File, L.Info, nullptr, "k", {}, 1024);
  ASSERT_TRUE(Alone);
  EXPECT_TRUE(arg(*Alone, "BLOCK")->isUnknown());
}

TEST(WrapperLaunch, AWrapperForOtherRanksIsCalledWithThem) {
  // `B, H, S, D = q.shape` refuses a matrix: the 4-D made-up shape serves.
  TempTree T;
  T.write("pyproject.toml", "");
  T.write("attn.py", std::string(Kernel) + "def attention(q, scale):\n"
                                           "    B, H, S, D = q.shape\n"
                                           "    o = torch.empty_like(q)\n"
                                           "    k[(B * H, triton.cdiv(S, 64))](q, o, S, scale, BLOCK=D)\n");
  project::Project P;
  Loaded L = load(P, T.path("attn.py"));
  std::optional<HostLaunch> H = wrapperLaunch(*L.File, L.Info, &P, "k", {}, 1024);
  ASSERT_TRUE(H);
  EXPECT_EQ(H->Grid, (std::vector<int64_t>{8, 4}));
  EXPECT_EQ(arg(*H, "BLOCK")->repr(), "64");
  EXPECT_FALSE(wrapperLaunch(*L.File, L.Info, &P, "nothing", {}, 1024));
}

} // namespace
} // namespace tessel::host
