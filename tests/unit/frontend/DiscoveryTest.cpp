//===- DiscoveryTest.cpp - tests of Discovery.cpp -------------------------===//
/// \file
/// Import styles, @jit / @autotune / @heuristics under every spelling,
/// configs written inline, by helpers (tutorial 03), by comprehensions
/// (tutorial 06) and in globals, constexpr globals, launch sites and their
/// problems, and the kernel/helper split.
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Discovery.h"
#include "compiler/frontend/Parser.h"

#include <gtest/gtest.h>

using namespace tessel;

namespace {

struct Discovered {
  std::shared_ptr<const ParsedFile> File;
  ModuleInfo Info;
  std::vector<Problem> Problems;

  const JitFunction &jit(const std::string &Name) const {
    const JitFunction *J = Info.jit(Name);
    EXPECT_TRUE(J) << "no @jit function " << Name;
    static JitFunction Empty;
    return J ? *J : Empty;
  }
  std::string text(SourceRange R) const { return std::string(File->text().slice(R)); }
  std::vector<std::string> messages() const {
    std::vector<std::string> Out;
    for (const Problem &P : Problems)
      Out.push_back(P.Message + " @ " + text(P.Range));
    return Out;
  }
};

Discovered run(const std::string &Source) {
  Discovered D;
  D.File = ParsedFile::parse(std::make_shared<SourceText>(Source));
  ProblemSink Sink;
  D.Info = discover(D.File->module(), Sink);
  D.Problems = Sink.take();
  return D;
}

const ast::Expr *returnedExpr(const Discovered &D, const std::string &Fn) {
  const auto *F = D.Info.Functions.at(Fn);
  return ast::cast<ast::ReturnStmt>(F->Body.back())->Value;
}

TEST(Discovery, ImportStyles) {
  auto D = run("import triton\n"
               "import triton.language as tl\n"
               "import triton.language.core\n"
               "import numpy as np\n"
               "from triton import jit, cdiv as cd\n"
               "from triton.language import arange, load\n"
               "from triton.language.extra import libdevice\n"
               "import triton.language.core as core\n"
               "def f():\n"
               "    return tl.arange\n"
               "def g():\n"
               "    return core.arange\n"
               "def h():\n"
               "    return libdevice.exp\n"
               "def i():\n"
               "    return undefined.x\n");
  const auto &I = D.Info.Imports;
  EXPECT_EQ(I.at("triton"), "triton");
  EXPECT_EQ(I.at("tl"), "triton.language");
  EXPECT_EQ(I.at("np"), "numpy");
  EXPECT_EQ(I.at("jit"), "triton.jit");
  EXPECT_EQ(I.at("cd"), "triton.cdiv");
  EXPECT_EQ(I.at("arange"), "triton.language.arange");
  EXPECT_EQ(I.at("libdevice"), "triton.language.extra.libdevice");
  EXPECT_EQ(D.Info.qualify(returnedExpr(D, "f")), "triton.language.arange");
  EXPECT_EQ(D.Info.qualify(returnedExpr(D, "g")), "triton.language.arange"); // core re-exports
  EXPECT_EQ(D.Info.qualify(returnedExpr(D, "h")), "triton.language.extra.libdevice.exp");
  EXPECT_EQ(D.Info.qualify(returnedExpr(D, "i")), "");
}

TEST(Discovery, JitSpellings) {
  auto D = run("import triton\n"
               "from triton import jit\n"
               "import triton as tr\n"
               "@triton.jit\n"
               "def a(x): pass\n"
               "@jit\n"
               "def b(x): pass\n"
               "@triton.jit(do_not_specialize=['x'], debug=True)\n"
               "def c(x): pass\n"
               "@tr.jit()\n"
               "def d(x): pass\n"
               "def plain(x): pass\n"
               "@staticmethod\n"
               "def other(x): pass\n");
  EXPECT_EQ(D.Info.Order, (std::vector<std::string>{"a", "b", "c", "d"}));
  EXPECT_EQ(D.Info.Functions.size(), 6u);
  const JitFunction &C = D.jit("c");
  ASSERT_EQ(C.JitOptions.size(), 2u);
  EXPECT_EQ(C.JitOptions[0].first, "do_not_specialize");
  EXPECT_EQ(C.JitOptions[0].second.repr(), "['x']");
  EXPECT_EQ(C.JitOptions[1].second.repr(), "True");
  EXPECT_EQ(D.text(C.DecoratorRange), "triton.jit(do_not_specialize=['x'], debug=True)");
  EXPECT_EQ(D.text(D.jit("a").DecoratorRange), "triton.jit");
  EXPECT_FALSE(D.Info.jit("plain"));
}

TEST(Discovery, AutotuneInlineConfigs) {
  auto D = run("import triton\n"
               "import triton.language as tl\n"
               "@triton.autotune(configs=[\n"
               "    triton.Config({'BLOCK': 128}, num_warps=4),\n"
               "    triton.Config({'BLOCK': 256}, num_warps=8, num_stages=4),\n"
               "], key=['n'])\n"
               "@triton.jit\n"
               "def k(x, n, BLOCK: tl.constexpr):\n"
               "    pass\n");
  const JitFunction &K = D.jit("k");
  EXPECT_TRUE(K.HasAutotune);
  EXPECT_FALSE(K.ConfigsUnknown);
  ASSERT_EQ(K.Configs.size(), 2u);
  EXPECT_EQ(K.Configs[1].Config.NumWarps, 8);
  EXPECT_EQ(K.Configs[1].Config.NumStages, 4);
  EXPECT_EQ(K.Configs[0].Config.Kwargs.at(0).second.asInt(), 128);
  EXPECT_EQ(D.text(K.Configs[0].Range), "triton.Config({'BLOCK': 128}, num_warps=4)");
  EXPECT_EQ(K.AutotuneKey, (std::vector<std::string>{"n"}));
  EXPECT_TRUE(K.IsKernel);
  EXPECT_TRUE(D.Problems.empty());
}

TEST(Discovery, Tutorial03HelperConfigs) {
  auto D =
      run("import triton\n"
          "import triton.language as tl\n"
          "def get_cuda_autotune_config():\n"
          "    return [\n"
          "        triton.Config({'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 256, 'BLOCK_SIZE_K': 64, 'GROUP_SIZE_M': 8}, "
          "num_stages=3, num_warps=8),\n"
          "        triton.Config({'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 256, 'BLOCK_SIZE_K': 32, 'GROUP_SIZE_M': 8}, "
          "num_stages=4, num_warps=4),\n"
          "        triton.Config({'BLOCK_SIZE_M': 32, 'BLOCK_SIZE_N': 32, 'BLOCK_SIZE_K': 32, 'GROUP_SIZE_M': 8}, "
          "num_stages=5, num_warps=2),\n"
          "    ]\n"
          "def get_autotune_config():\n"
          "    return get_cuda_autotune_config()\n"
          "@triton.autotune(configs=get_autotune_config(), key=['M', 'N', 'K'])\n"
          "@triton.jit\n"
          "def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,\n"
          "                  BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr):\n"
          "    pass\n");
  const JitFunction &K = D.jit("matmul_kernel");
  ASSERT_EQ(K.Configs.size(), 3u);
  EXPECT_FALSE(K.ConfigsUnknown);
  EXPECT_EQ(K.Configs[2].Config.NumWarps, 2);
  EXPECT_EQ(K.Configs[2].Config.NumStages, 5);
  EXPECT_EQ(K.AutotuneKey, (std::vector<std::string>{"M", "N", "K"}));
}

TEST(Discovery, Tutorial06ComprehensionConfigs) {
  auto D = run("import triton\n"
               "import triton.language as tl\n"
               "configs = [triton.Config({'BLOCK_M': BM, 'BLOCK_N': BN}, num_stages=s, num_warps=w) "
               "for BM in [64, 128] for BN in [32, 64] for s in [3, 4, 7] for w in [4, 8]]\n"
               "def keep(conf):\n"
               "    BLOCK_M = conf.kwargs['BLOCK_M']\n"
               "    BLOCK_N = conf.kwargs['BLOCK_N']\n"
               "    return not (BLOCK_M * BLOCK_N < 128 * 128 and conf.num_warps == 8)\n"
               "@triton.autotune(list(filter(keep, configs)), key=['N_CTX'])\n"
               "@triton.jit\n"
               "def attn_unknown(Q, N_CTX, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):\n"
               "    pass\n"
               "@triton.autotune([c for c in configs if keep(c)], key=['N_CTX'])\n"
               "@triton.jit\n"
               "def attn(Q, N_CTX, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):\n"
               "    pass\n");
  EXPECT_EQ(D.Info.Globals.at("configs").Value.elements().size(), 24u);
  const JitFunction &U = D.jit("attn_unknown");
  EXPECT_TRUE(U.HasAutotune);
  EXPECT_TRUE(U.ConfigsUnknown); // filter() is outside the evaluated subset
  const JitFunction &A = D.jit("attn");
  EXPECT_FALSE(A.ConfigsUnknown);
  ASSERT_EQ(A.Configs.size(), 12u); // every tile here is below 128x128, so all 8-warp configs go
  EXPECT_EQ(A.Configs[0].Config.Kwargs.at(0).second.asInt(), 64);
  EXPECT_EQ(D.text(A.Configs[0].Range).substr(0, 14), "triton.Config(");
}

TEST(Discovery, ConfigsFromGlobalListBuiltByLoop) {
  auto D = run("import triton\n"
               "CONFIGS = []\n"
               "for b in (32, 64):\n"
               "    CONFIGS.append(triton.Config({'B': b}, num_warps=b // 16))\n"
               "@triton.autotune(configs=CONFIGS, key=[])\n"
               "@triton.jit\n"
               "def k(x, B: tl.constexpr):\n"
               "    pass\n");
  const JitFunction &K = D.jit("k");
  ASSERT_EQ(K.Configs.size(), 2u);
  EXPECT_EQ(K.Configs[1].Config.NumWarps, 4);
  EXPECT_EQ(D.text(K.Configs[1].Range), "triton.Config({'B': b}, num_warps=b // 16)");
}

TEST(Discovery, MalformedAndBadConfigs) {
  auto D = run("import triton\n"
               "@triton.autotune(configs=[triton.Config(128, num_warps=4), triton.Config({'B': 1}, num_warps=3),\n"
               "                          triton.Config({'B': 2}, num_warps=6 // 2)], key=[])\n"
               "@triton.jit\n"
               "def k(x, B: tl.constexpr):\n"
               "    pass\n");
  const JitFunction &K = D.jit("k");
  EXPECT_TRUE(K.ConfigsUnknown); // the malformed one
  EXPECT_EQ(K.Configs.size(), 2u);
  EXPECT_EQ(D.messages(), (std::vector<std::string>{
                              "triton.Config expects a dict of meta-parameters as its first argument, got int @ 128",
                              "num_warps must be a power of 2 @ num_warps=3",
                              "num_warps must be a power of 2 @ num_warps=6 // 2",
                          }));
  for (const Problem &P : D.Problems)
    EXPECT_EQ(P.Kind, ProblemKind::LaunchOption);
}

TEST(Discovery, UnknownConfigsStaySilent) {
  auto D = run("import triton\n"
               "from somewhere import make_configs\n"
               "@triton.autotune(configs=make_configs(), key=['n'])\n"
               "@triton.jit\n"
               "def k(x, n):\n"
               "    pass\n");
  const JitFunction &K = D.jit("k");
  EXPECT_TRUE(K.HasAutotune);
  EXPECT_TRUE(K.ConfigsUnknown);
  EXPECT_TRUE(K.Configs.empty());
  EXPECT_TRUE(D.Problems.empty());
}

TEST(Discovery, Heuristics) {
  auto D = run("import triton\n"
               "@triton.heuristics(values={'BLOCK': lambda args: triton.next_power_of_2(args['n']),\n"
               "                           'EVEN': lambda args: args['n'] % 2 == 0})\n"
               "@triton.jit\n"
               "def k(x, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):\n"
               "    pass\n"
               "H = {'B2': lambda a: 1}\n"
               "@triton.heuristics(H)\n"
               "@triton.jit\n"
               "def k2(x, B2: tl.constexpr):\n"
               "    pass\n");
  EXPECT_EQ(D.jit("k").HeuristicNames, (std::vector<std::string>{"BLOCK", "EVEN"}));
  EXPECT_EQ(D.jit("k2").HeuristicNames, (std::vector<std::string>{"B2"}));
  EXPECT_TRUE(D.jit("k2").IsKernel);
}

TEST(Discovery, FunctionalForms) {
  auto D = run("import triton\n"
               "def body(x, B: tl.constexpr):\n"
               "    pass\n"
               "kernel = triton.autotune(configs=[triton.Config({'B': 32})], key=[])(triton.jit(body))\n"
               "simple = triton.jit(body)\n");
  const JitFunction &K = D.jit("kernel");
  EXPECT_TRUE(K.HasAutotune);
  ASSERT_EQ(K.Configs.size(), 1u);
  EXPECT_EQ(K.Def->Name, "body");
  EXPECT_TRUE(D.Info.jit("simple"));
  auto E = run("import triton\n"
               "def body(x):\n"
               "    pass\n"
               "body = triton.jit(body)\n"
               "@triton.jit\n"
               "def replaced(x):\n"
               "    pass\n"
               "@functools.cache\n"
               "def replaced(x):\n"
               "    pass\n"
               "body[(1,)](1)\n");
  ASSERT_TRUE(E.Info.jit("body"));
  EXPECT_EQ(E.jit("body").Launches.size(), 1u);
  EXPECT_FALSE(E.Info.jit("replaced"));
  EXPECT_EQ(E.Info.Order, (std::vector<std::string>{"body"}));
}

TEST(Discovery, InOrderIsOrderAfterARedefinition) {
  // Source order is not name order, and a later plain def of `alpha` takes
  // it out of Order: the positions are those of the final list.
  auto D = run("import triton\n"
               "@triton.jit\n"
               "def zeta(x): pass\n"
               "@triton.jit\n"
               "def alpha(x): pass\n"
               "@triton.jit\n"
               "def mid(x): pass\n"
               "def alpha(x): pass\n"
               "@triton.jit\n"
               "def beta(x): pass\n");
  EXPECT_EQ(D.Info.Order, (std::vector<std::string>{"zeta", "mid", "beta"}));
  std::vector<std::string> Names;
  for (const JitFunction *J : D.Info.inOrder())
    Names.push_back(J->Name);
  EXPECT_EQ(Names, D.Info.Order);
}

TEST(Discovery, ConstexprGlobals) {
  auto D = run("import triton.language as tl\n"
               "from triton.language import constexpr\n"
               "A = tl.constexpr(42)\n"
               "B: tl.constexpr = 8\n"
               "C = 3\n"
               "D = A * 2\n"
               "E = constexpr(1)\n"
               "C = C + 1\n"
               "F: int = 5\n"
               "H: tl.constexpr = tl.constexpr(-1)\n");
  const auto &G = D.Info.Globals;
  EXPECT_TRUE(G.at("H").IsConstexprInstance);
  EXPECT_EQ(G.at("H").Value.asInt(), -1);
  EXPECT_TRUE(G.at("A").IsConstexpr);
  EXPECT_EQ(G.at("A").Value.asInt(), 42);
  EXPECT_TRUE(G.at("B").IsConstexpr);
  EXPECT_FALSE(G.at("B").IsConstexprInstance); // Triton 3.6 asks the value, not the annotation
  EXPECT_TRUE(G.at("A").IsConstexprInstance);
  EXPECT_EQ(G.at("B").Value.asInt(), 8);
  EXPECT_FALSE(G.at("C").IsConstexpr);
  EXPECT_EQ(G.at("C").Value.asInt(), 4); // the last assignment wins
  EXPECT_EQ(D.text(G.at("C").Range), "C = C + 1");
  EXPECT_EQ(G.at("D").Value.asInt(), 84);
  EXPECT_TRUE(G.at("E").IsConstexpr);
  EXPECT_FALSE(G.at("F").IsConstexpr);
}

TEST(Discovery, LaunchSitesEverywhere) {
  auto D = run("import triton\n"
               "import triton.language as tl\n"
               "BLOCK = 512\n"
               "@triton.jit\n"
               "def add(x, y, out, n, BLOCK: tl.constexpr):\n"
               "    pass\n"
               "alias = add\n"
               "def host(x, y, out):\n"
               "    n = out.numel()\n"
               "    B = 1024\n"
               "    grid = lambda meta: (triton.cdiv(n, meta['BLOCK']),)\n"
               "    add[grid](x, y, out, n, BLOCK=B, num_warps=8)\n"
               "    add[grid](x, y, out, n, BLOCK=n)\n"
               "if __name__ == '__main__':\n"
               "    alias[(4,)](1, 2, 3, 4, BLOCK=BLOCK, num_stages=2)\n");
  const JitFunction &K = D.jit("add");
  ASSERT_EQ(K.Launches.size(), 3u);
  const LaunchSite &L0 = K.Launches[0];
  EXPECT_EQ(L0.NumPositional, 4u);
  ASSERT_EQ(L0.Keywords.size(), 2u);
  EXPECT_EQ(L0.Keywords[0].first, "BLOCK");
  EXPECT_EQ(L0.Keywords[0].second.repr(), "1024"); // the local B, not a global
  EXPECT_EQ(L0.Keywords[1].second.repr(), "8");
  EXPECT_EQ(D.text(L0.KeywordRanges[1]), "num_warps=8");
  EXPECT_EQ(D.text(L0.GridRange), "grid");
  EXPECT_TRUE(K.Launches[1].Keywords[0].second.isUnknown()); // n is a runtime value
  EXPECT_EQ(K.Launches[2].Keywords[0].second.repr(), "512");
  EXPECT_EQ(D.text(K.Launches[2].Range), "alias[(4,)](1, 2, 3, 4, BLOCK=BLOCK, num_stages=2)");
  EXPECT_TRUE(D.Problems.empty());
}

// A wrapper's locals are evaluated when a launch reads them, each seeing only
// the locals assigned before it (a later one, or one assigned twice, is
// unknown), whichever launch or keyword reads first.
TEST(Discovery, LaunchKeywordsReadLocalsInSourceOrder) {
  auto D = run("import triton\n"
               "import triton.language as tl\n"
               "S = 3\n"
               "@triton.jit\n"
               "def k(x, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):\n"
               "    pass\n"
               "def host(x):\n"
               "    early = later\n"
               "    base = 64\n"
               "    twice = 1\n"
               "    block = base * 2 + S\n"
               "    twice = 2\n"
               "    later = 8\n"
               "    k[(1,)](x, A=block, B=early, C=twice)\n"
               "    k[(1,)](x, A=later, B=base, C=4)\n");
  const JitFunction &K = D.jit("k");
  ASSERT_EQ(K.Launches.size(), 2u);
  ASSERT_EQ(K.Launches[0].Keywords.size(), 3u);
  EXPECT_EQ(K.Launches[0].Keywords[0].second.repr(), "131");
  EXPECT_TRUE(K.Launches[0].Keywords[1].second.isUnknown()); // `later` was not assigned yet
  EXPECT_TRUE(K.Launches[0].Keywords[2].second.isUnknown()); // assigned twice
  EXPECT_EQ(K.Launches[1].Keywords[0].second.repr(), "8");
  EXPECT_EQ(K.Launches[1].Keywords[1].second.repr(), "64");
  EXPECT_TRUE(D.Problems.empty());
}

TEST(Discovery, LaunchProblems) {
  auto D = run("import triton\n"
               "@triton.autotune(configs=[triton.Config({'BLOCK': 64})], key=[])\n"
               "@triton.jit\n"
               "def k(x, BLOCK: tl.constexpr):\n"
               "    pass\n"
               "@triton.jit\n"
               "def j(x, n):\n"
               "    pass\n"
               "k[(1,)](x, BLOCK=128)\n"
               "j[(1,)](x, n=3, num_warps=6, blok=4, enable_fp_fusion=False, **extra)\n");
  EXPECT_EQ(
      D.messages(),
      (std::vector<std::string>{
          "Conflicting meta-parameters: BLOCK. Make sure that you don't re-define auto-tuned symbols. @ BLOCK=128",
          "num_warps must be a power of 2 @ num_warps=6",
          "Keyword argument blok was specified but unrecognised @ blok=4",
      }));
}

TEST(Discovery, KernelsAndHelpers) {
  auto D = run("import triton\n"
               "@triton.jit\n"
               "def helper(x):\n"
               "    return x * 2\n"
               "@triton.jit\n"
               "def launched_helper(x):\n"
               "    return x\n"
               "@triton.jit\n"
               "def kernel(x):\n"
               "    y = helper(x)\n"
               "    z = launched_helper(y)\n"
               "@triton.jit\n"
               "def never_called(x):\n"
               "    pass\n"
               "kernel[(1,)](1)\n"
               "launched_helper[(1,)](1)\n");
  EXPECT_FALSE(D.jit("helper").IsKernel);
  EXPECT_TRUE(D.jit("launched_helper").IsKernel);
  EXPECT_TRUE(D.jit("kernel").IsKernel);
  EXPECT_TRUE(D.jit("never_called").IsKernel);
  auto E = run("import triton\n"
               "@triton.jit\n"
               "def combine(a, b):\n"
               "    return a + b\n"
               "@triton.jit\n"
               "def recursive_looking(x):\n"
               "    return recursive_looking\n"
               "@triton.jit\n"
               "def k(x):\n"
               "    s = tl.reduce(x, 0, combine)\n");
  EXPECT_FALSE(E.jit("combine").IsKernel);
  EXPECT_TRUE(E.jit("recursive_looking").IsKernel); // naming itself is not use by another kernel
  EXPECT_TRUE(E.jit("k").IsKernel);
}

TEST(Discovery, ImportsInsideTryAndIf) {
  auto D = run("try:\n"
               "    import triton\n"
               "    import triton.language as tl\n"
               "except ImportError:\n"
               "    triton = None\n"
               "if True:\n"
               "    B = 4\n"
               "else:\n"
               "    B = 8\n"
               "@triton.jit\n"
               "def k(x):\n"
               "    pass\n");
  EXPECT_TRUE(D.Info.jit("k"));
  EXPECT_EQ(D.Info.Imports.at("tl"), "triton.language");
  EXPECT_EQ(D.Info.Globals.at("B").Value.repr(), "4"); // a decidable `if` takes its branch
}

TEST(Discovery, VendorDispatchTakesTheCudaFunction) {
  // unsloth: `if DEVICE_TYPE == "xpu": triton_tanh =
  // tl.extra.intel.libdevice.tanh else: ... libdevice.tanh`, DEVICE_TYPE
  // from device probing tessel does not run: on CUDA, libdevice's tanh.
  auto D = run("import triton\n"
               "import triton.language as tl\n"
               "from .device_type import DEVICE_TYPE\n"
               "if DEVICE_TYPE == 'xpu':\n"
               "    triton_tanh = tl.extra.intel.libdevice.tanh\n"
               "else:\n"
               "    from triton.language.extra import libdevice\n"
               "    triton_tanh = libdevice.tanh\n");
  EXPECT_EQ(D.Info.Globals.at("triton_tanh").Value.repr(), "triton.language.extra.libdevice.tanh");
}

TEST(Discovery, AnImportInATryUnderAnUndecidedIfIsATritonBranch) {
  // Liger's dyt.py: a version check tessel cannot decide, libdevice's tanh
  // imported in a `try:` under it, triton.language.math's in the `else:`.
  // Triton 3.6 takes the first (it has no tl.math.tanh).
  auto D = run("import operator\n"
               "import triton\n"
               "from .utils import compare_version\n"
               "if compare_version('triton', operator.ge, '3.0.0'):\n"
               "    try:\n"
               "        from triton.language.extra.libdevice import tanh\n"
               "    except ModuleNotFoundError:\n"
               "        from triton.language.extra.cuda.libdevice import tanh\n"
               "else:\n"
               "    from triton.language.math import tanh\n");
  EXPECT_EQ(D.Info.Imports.at("tanh"), "triton.language.extra.libdevice.tanh");
}

TEST(Discovery, ATryBodyThatEvaluatesIsWhatPythonBinds) {
  // lmdeploy's bitonic top-k: Triton 3.6 has constexpr_function, so the try
  // body runs and the handler (older Tritons' fallback) does not.
  auto D = run("import triton\n"
               "from triton.language import core\n"
               "try:\n"
               "    get_int_dtype = triton.runtime.jit.constexpr_function(core.get_int_dtype)\n"
               "except Exception:\n"
               "    get_int_dtype = core.get_int_dtype\n"
               "try:\n"
               "    from fancy_ext import knob\n"
               "    LEVEL = knob.level()\n"
               "except ImportError:\n"
               "    LEVEL = 0\n");
  EXPECT_EQ(D.Info.Globals.at("get_int_dtype").Value.repr(), "triton.language.core.get_int_dtype");
  // A body whose value tessel cannot compute says nothing of which ran.
  EXPECT_TRUE(D.Info.Globals.at("LEVEL").Value.isUnknown());
}

TEST(Discovery, ConditionalDefinitionsTakeTheTritonBranch) {
  // torchao: @jit helpers under `if has_triton():`, raising stubs of the same
  // names under `else:`; Python on a machine with triton runs the first.
  auto D = run("from torch.utils._triton import has_triton\n"
               "if has_triton():\n"
               "    import triton\n"
               "    import triton.language as tl\n"
               "    @triton.jit\n"
               "    def helper(x):\n"
               "        return x * 2\n"
               "    @triton.jit\n"
               "    def k(x_ptr):\n"
               "        tl.store(x_ptr, helper(tl.load(x_ptr)))\n"
               "    def wrapper(x):\n"
               "        k[(1,)](x)\n"
               "else:\n"
               "    def helper(x):\n"
               "        raise AssertionError('needs triton')\n"
               "    k = None\n"
               "    def wrapper(x):\n"
               "        raise AssertionError('needs triton')\n");
  ASSERT_TRUE(D.Info.jit("helper"));
  EXPECT_EQ(D.Info.Functions.at("helper"), D.Info.jit("helper")->Def);
  EXPECT_FALSE(D.Info.jit("helper")->IsKernel);
  ASSERT_TRUE(D.Info.jit("k"));
  EXPECT_FALSE(D.Info.Globals.count("k")); // `k = None` is the other branch's
  // The host wrapper too: the one that launches, as Python with triton runs.
  EXPECT_EQ(D.text(D.Info.Functions.at("wrapper")->Body.front()->Range), "k[(1,)](x)");
  EXPECT_EQ(D.jit("k").Launches.size(), 1u);
  // The stubs first (`if not has_triton():`): the triton branch still wins,
  // and its imports are the ones bound.
  auto E = run("from torch.utils._triton import has_triton\n"
               "if not has_triton():\n"
               "    tl = None\n"
               "    def helper(x):\n"
               "        raise AssertionError('needs triton')\n"
               "else:\n"
               "    import triton\n"
               "    import triton.language as tl\n"
               "    @triton.jit\n"
               "    def helper(x):\n"
               "        return x * 2\n");
  ASSERT_TRUE(E.Info.jit("helper"));
  EXPECT_EQ(E.Info.Functions.at("helper"), E.Info.jit("helper")->Def);
  EXPECT_EQ(E.Info.Imports.at("tl"), "triton.language");
  // `try: import triton ... except ImportError:` stubs alike.
  auto F = run("try:\n"
               "    import triton\n"
               "    @triton.jit\n"
               "    def helper(x):\n"
               "        return x\n"
               "except ImportError:\n"
               "    def helper(x):\n"
               "        raise RuntimeError\n");
  EXPECT_TRUE(F.Info.jit("helper"));
  // An unconditional rebinding after the conditional still replaces it.
  auto G = run("import triton\n"
               "import os\n"
               "if os.environ.get('X'):\n"
               "    @triton.jit\n"
               "    def helper(x):\n"
               "        return x\n"
               "def helper(x):\n"
               "    return x\n");
  EXPECT_FALSE(G.Info.jit("helper"));
}

TEST(Discovery, ValuesBoundInTheTritonBranchAreItsValues) {
  // torchao's hadamard_utils: a constexpr the store helpers share, bound
  // only under `if has_triton():`; the `else:` holds stubs.
  auto D = run("from torch.utils._triton import has_triton\n"
               "if has_triton():\n"
               "    import triton\n"
               "    import triton.language as tl\n"
               "    TILE_ELEMS = tl.constexpr(32 * 16)\n"
               "    SCALE = 4\n"
               "    SCALE = SCALE * 2\n"
               "else:\n"
               "    SCALE = None\n"
               "    def helper(x):\n"
               "        raise RuntimeError\n");
  EXPECT_EQ(D.Info.Globals.at("TILE_ELEMS").Value.asInt(), 512);
  EXPECT_TRUE(D.Info.Globals.at("TILE_ELEMS").IsConstexprInstance);
  EXPECT_EQ(D.Info.Globals.at("SCALE").Value.asInt(), 8); // the triton branch's last binding
  // vllm: a global wrapped in tl.constexpr only where triton is importable
  // is a constexpr instance on a machine with triton.
  auto E = run("import triton.language as tl\n"
               "from vllm.triton_utils import HAS_TRITON\n"
               "TINY = tl.constexpr(float.fromhex('0x1p-126')) if HAS_TRITON else float.fromhex('0x1p-126')\n");
  EXPECT_TRUE(E.Info.Globals.at("TINY").IsConstexprInstance);
  EXPECT_EQ(E.Info.Globals.at("TINY").Value.repr(), "1.1754943508222875e-38");
  // Neither branch a triton one: undecided, as before.
  auto F = run("from pkg import flag\n"
               "if flag():\n"
               "    N = 1\n"
               "else:\n"
               "    N = 2\n");
  EXPECT_TRUE(F.Info.Globals.at("N").Value.isUnknown());
}

TEST(Discovery, AFileWhoseKernelsAreInAnUntakenBranchSaysSo) {
  // unsloth's utils.py: its one @triton.jit is the `else:` of a version check
  // that Triton 3.6 takes the other way. Python defines no kernel; the file
  // says why rather than "0 kernels checked" in silence.
  auto D = run("import triton\nimport triton.language as tl\n"
               "from packaging.version import Version\n"
               "if Version(triton.__version__) >= Version('3.0.0'):\n"
               "    triton_cast = tl.cast\n"
               "else:\n"
               "    @triton.jit\n"
               "    def triton_cast(x, dtype):\n"
               "        return x.to(dtype)\n");
  EXPECT_TRUE(D.Info.Jit.empty());
  ASSERT_EQ(D.Problems.size(), 1u);
  EXPECT_EQ(D.Problems[0].Kind, ProblemKind::KernelsNotChecked);
  EXPECT_EQ(D.text(D.Problems[0].Range), "triton.jit");
  EXPECT_EQ(D.Problems[0].Message.rfind("1 @triton.jit function of this file is defined only in a branch that Python "
                                        "does not run with Triton 3.6",
                                        0),
            0u)
      << D.Problems[0].Message;
  // With a kernel in the branch taken, the other branch's is no news.
  auto Both = run("import triton\nimport triton.language as tl\n"
                  "from packaging.version import Version\n"
                  "if Version(triton.__version__) >= Version('3.0.0'):\n"
                  "    @triton.jit\n"
                  "    def k(x_ptr):\n"
                  "        tl.store(x_ptr + tl.program_id(0), 1)\n"
                  "else:\n"
                  "    @triton.jit\n"
                  "    def k(x_ptr):\n"
                  "        tl.store(x_ptr + tl.program_id(0), 2)\n");
  EXPECT_TRUE(Both.Info.jit("k"));
  EXPECT_TRUE(Both.Problems.empty());
}

TEST(Discovery, UnresolvedAndNestedKernelsGetOneNoteEach) {
  auto D = run("from .triton_utils import tl, triton\n"
               "import numba\n"
               "@triton.jit\n"
               "def a(x_ptr):\n"
               "    tl.store(x_ptr + tl.program_id(0), 1)\n"
               "@triton.jit\n"
               "def b(x_ptr, B: tl.constexpr):\n"
               "    o = tl.arange(0, B)\n"
               "    tl.store(x_ptr + o, tl.load(x_ptr + o))\n"
               "@numba.jit\n"
               "def c(x):\n"
               "    return x.sum()\n"
               "def factory():\n"
               "    import triton as t\n"
               "    @t.jit\n"
               "    def inner(x_ptr):\n"
               "        t.language.store(x_ptr + t.language.program_id(0), 1)\n"
               "    return inner\n");
  EXPECT_TRUE(D.Info.Jit.empty());
  EXPECT_EQ(D.Info.UnresolvedJit.size(), 2u); // not numba's
  EXPECT_EQ(D.Info.NestedJit.size(), 1u);
  ASSERT_EQ(D.Problems.size(), 2u);
  EXPECT_EQ(D.Problems[0].Kind, ProblemKind::KernelsNotChecked);
  EXPECT_EQ(D.text(D.Problems[0].Range), "triton.jit");
  EXPECT_EQ(D.Problems[0].Message.rfind("2 functions of this file look like Triton kernels", 0), 0u);
  EXPECT_EQ(D.text(D.Problems[1].Range), "t.jit");
  // With a resolver that knows the module re-exports triton: kernels, no note.
  Discovered R;
  R.File = ParsedFile::parse(std::make_shared<SourceText>("from .triton_utils import tl, triton\n"
                                                          "@triton.jit\n"
                                                          "def a(x_ptr):\n"
                                                          "    tl.store(x_ptr + tl.program_id(0), 1)\n"));
  ProblemSink Sink;
  std::vector<std::string> Asked;
  R.Info = discover(R.File->module(), Sink, [&](const std::string &Path, std::map<std::string, uint64_t> &Reads) {
    Asked.push_back(Path);
    Reads["/p/triton_utils.py"] = 7;
    return Path == ".triton_utils.tl"       ? std::string("triton.language")
           : Path == ".triton_utils.triton" ? std::string("triton")
                                            : std::string();
  });
  EXPECT_TRUE(R.Info.jit("a"));
  EXPECT_EQ(R.Info.Imports.at("tl"), "triton.language");
  EXPECT_TRUE(Sink.take().empty());
  EXPECT_EQ(R.Info.ProjectReads.at("/p/triton_utils.py"), 7u);
  EXPECT_EQ(Asked.size(), 2u); // once per path
}

TEST(Discovery, BrokenFileStillDiscovers) {
  auto D = run("import triton\n"
               "@triton.jit\n"
               "def first(x):\n"
               "    a = x +\n"
               "\n"
               "configs = [triton.Config({'B': 1}\n"
               "\n"
               "@triton.jit\n"
               "def second(x):\n"
               "    return x\n");
  EXPECT_TRUE(D.Info.jit("first"));
  EXPECT_TRUE(D.Info.jit("second"));
}

} // namespace
