//===- ProjectTest.cpp - Python's import resolution in the project model --===//
/// \file
/// Resolution on small trees written to a temporary directory: relative and
/// absolute imports, packages and their `__init__.py` re-exports, star
/// imports with and without `__all__`, `src/` layouts, roots from
/// tessel.toml and pyproject.toml, alias chains, open buffers over disk,
/// launches found in other files, and Unknown for whatever is outside.
//===----------------------------------------------------------------------===//
#include "compiler/project/Project.h"

#include "TempTree.h"
#include "compiler/support/WorkerPool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>

namespace tessel::project {
namespace {

using testing::TempTree;
using K = Symbol::Kind;

const char *Jit = "import triton\nimport triton.language as tl\n";

/// "Function f in <relative path>" for a symbol, to compare in one line.
std::string describe(const Symbol &S, const TempTree &T) {
  auto Where = [&](const std::shared_ptr<const Module> &M) {
    return M ? M->Ref.Path.substr(T.Root.size() + 1) : std::string("?");
  };
  switch (S.K) {
  case K::Unknown:
    return "Unknown";
  case K::External:
    return "External " + S.Path;
  case K::Module:
    return "Module " + S.Path + (S.Mod ? " in " + Where(S.Mod) : std::string(" (namespace)"));
  case K::Function:
    return "Function " + S.Def->Name + " in " + Where(S.Mod);
  case K::Global:
    return "Global " + S.Global->Name + " in " + Where(S.Mod);
  }
  return "?";
}

TEST(ProjectTest, RelativeAndAbsoluteImports) {
  TempTree T;
  T.write("pyproject.toml", "");
  T.write("pkg/__init__.py", "");
  T.write("pkg/ops/__init__.py", "");
  T.write("pkg/ops/utils.py", std::string(Jit) + "@triton.jit\ndef f(x):\n    return x\n");
  T.write("pkg/common.py", std::string(Jit) + "@triton.jit\ndef g(x):\n    return x\n");
  std::string Kern =
      T.write("pkg/ops/kern.py", "from .utils import f\nfrom ..common import g\nimport pkg.ops.utils as u\n");
  Project P;
  ModuleRef Ref = P.refOf(Kern);
  EXPECT_EQ(Ref.Name, "pkg.ops.kern");
  EXPECT_FALSE(Ref.IsPackage);
  std::shared_ptr<const Module> M = P.moduleAt(Kern);
  ASSERT_TRUE(M);
  EXPECT_EQ(M->Info.Imports.at("f"), ".utils.f");
  EXPECT_EQ(describe(P.resolve(".utils.f", Ref), T), "Function f in pkg/ops/utils.py");
  EXPECT_EQ(describe(P.resolve("..common.g", Ref), T), "Function g in pkg/common.py");
  EXPECT_EQ(describe(P.resolve("pkg.ops.utils", Ref), T), "Module pkg.ops.utils in pkg/ops/utils.py");
  EXPECT_EQ(describe(P.resolve("pkg.ops.utils.f", Ref), T), "Function f in pkg/ops/utils.py");
  // Climbing above the top package is an error in Python: Unknown here.
  EXPECT_EQ(describe(P.resolve("....x", Ref), T), "Unknown");
  EXPECT_EQ(Project::absolute("..common.g", Ref), "pkg.common.g");
  EXPECT_EQ(Project::absolute(".", P.refOf(T.path("pkg/ops/__init__.py"))), "pkg.ops");
}

TEST(ProjectTest, InitReexportsAndAliasChains) {
  TempTree T;
  T.write("setup.py", "");
  T.write("lib/__init__.py", "from .ops.math import exp2 as fast_exp2\nfrom . import ops\n");
  T.write("lib/ops/__init__.py", "from .math import *\n");
  T.write("lib/ops/math.py", std::string(Jit) + "ex2 = tl.math.exp2\n"
                                                "from triton.language.math import exp2 as e2\n"
                                                "@triton.jit\ndef exp2(x):\n    return ex2(x)\n"
                                                "helper = exp2\n"
                                                "BLOCK = tl.constexpr(64)\n"
                                                "def _private(x):\n    return x\n");
  std::string User = T.write("user.py", "import lib\n");
  Project P;
  ModuleRef Ref = P.refOf(User);
  EXPECT_EQ(describe(P.resolve("lib.fast_exp2", Ref), T), "Function exp2 in lib/ops/math.py");
  EXPECT_EQ(describe(P.resolve("lib.ops.exp2", Ref), T), "Function exp2 in lib/ops/math.py");
  EXPECT_EQ(describe(P.resolve("lib.ops.math.ex2", Ref), T), "External triton.language.math.exp2");
  EXPECT_EQ(describe(P.resolve("lib.ops.math.e2", Ref), T), "External triton.language.math.exp2");
  EXPECT_EQ(describe(P.resolve("lib.ops.math.helper", Ref), T), "Function exp2 in lib/ops/math.py");
  EXPECT_EQ(describe(P.resolve("lib.ops.BLOCK", Ref), T), "Global BLOCK in lib/ops/math.py");
  // A star import without __all__ takes public names only.
  EXPECT_EQ(describe(P.resolve("lib.ops._private", Ref), T), "Unknown");
  EXPECT_EQ(describe(P.resolve("lib.ops.math._private", Ref), T), "Function _private in lib/ops/math.py");
}

TEST(ProjectTest, StarImportHonoursAll) {
  TempTree T;
  T.write(".git/HEAD", "");
  T.write("m/__init__.py", "from .impl import *\n");
  T.write("m/impl.py", "__all__ = ['a']\ndef a():\n    pass\ndef b():\n    pass\n");
  Project P;
  ModuleRef Ref = P.refOf(T.write("main.py", ""));
  EXPECT_EQ(describe(P.resolve("m.a", Ref), T), "Function a in m/impl.py");
  EXPECT_EQ(describe(P.resolve("m.b", Ref), T), "Unknown");
}

TEST(ProjectTest, SrcLayoutAndNamespacePackages) {
  TempTree T;
  T.write("pyproject.toml", "[project]\nname = 'x'\n");
  T.write("src/liger/__init__.py", "");
  T.write("src/liger/ops/kernels.py", "def k():\n    pass\n"); // ops/ has no __init__.py
  std::string Test = T.write("test/test_k.py", "");
  Project P;
  ModuleRef Ref = P.refOf(Test);
  std::vector<std::string> Roots = P.searchRoots(Test);
  ASSERT_GE(Roots.size(), 2u);
  EXPECT_EQ(Roots[0], T.Root);
  EXPECT_EQ(Roots[1], T.Root + "/src");
  EXPECT_EQ(describe(P.resolve("liger.ops.kernels.k", Ref), T), "Function k in src/liger/ops/kernels.py");
  EXPECT_EQ(describe(P.resolve("liger.ops", Ref), T), "Module liger.ops (namespace)");
  EXPECT_EQ(P.refOf(T.path("src/liger/ops/kernels.py")).Name, "liger.ops.kernels");
}

TEST(ProjectTest, ExtraPathsFromTomlAndSettings) {
  TempTree T;
  T.write("tessel.toml", "extraPaths = [\"vendor\"]\n");
  T.write("vendor/vlib/__init__.py", "X = 1\n");
  T.write("other/olib.py", "Y = 2\n");
  std::string Main = T.write("app/main.py", "");
  {
    Project P;
    Config C = P.configFor(Main);
    EXPECT_EQ(C.Root, T.Root);
    ASSERT_EQ(C.ExtraPaths.size(), 1u);
    EXPECT_EQ(C.ExtraPaths[0], T.Root + "/vendor");
    EXPECT_EQ(describe(P.resolve("vlib.X", P.refOf(Main)), T), "Global X in vendor/vlib/__init__.py");
    EXPECT_EQ(describe(P.resolve("olib.Y", P.refOf(Main)), T), "Unknown");
  }
  Project WithSetting({T.path("other")});
  EXPECT_EQ(describe(WithSetting.resolve("olib.Y", WithSetting.refOf(Main)), T), "Global Y in other/olib.py");
}

TEST(ProjectTest, PyprojectToolTesselTable) {
  TempTree T;
  T.write("pyproject.toml", "[project]\nname = 'x'\n[tool.tessel]\nextraPaths = ['third_party']\n");
  T.write("third_party/tp.py", "Z = 3\n");
  std::string Main = T.write("main.py", "");
  Project P;
  EXPECT_EQ(describe(P.resolve("tp.Z", P.refOf(Main)), T), "Global Z in third_party/tp.py");
}

TEST(ProjectTest, MalformedTomlIsIgnoredWithAReason) {
  TempTree T;
  T.write("tessel.toml", "extraPaths = [\"unterminated\n");
  std::string Main = T.write("main.py", "");
  Project P;
  Config C = P.configFor(Main);
  EXPECT_EQ(C.Root, T.Root);
  EXPECT_TRUE(C.ExtraPaths.empty());
  EXPECT_NE(C.Problem.find("tessel.toml"), std::string::npos) << C.Problem;
  T.write("tessel.toml", "extraPaths = 3\n");
  Project Q;
  EXPECT_NE(Q.configFor(Main).Problem.find("array of strings"), std::string::npos);
}

TEST(ProjectTest, WhatIsOutsideIsUnknown) {
  TempTree T;
  T.write("pyproject.toml", "");
  std::string Main = T.write("main.py", "import torch\n");
  Project P;
  ModuleRef Ref = P.refOf(Main);
  EXPECT_EQ(describe(P.resolve("torch.sin", Ref), T), "Unknown");
  EXPECT_EQ(describe(P.resolve("nowhere.mod.f", Ref), T), "Unknown");
  EXPECT_EQ(describe(P.resolve("triton.language.exp", Ref), T), "External triton.language.exp");
  EXPECT_EQ(describe(P.resolve("math.pi", Ref), T), "External math.pi");
}

TEST(ProjectTest, ImportCyclesEnd) {
  TempTree T;
  T.write("pyproject.toml", "");
  T.write("a.py", "from b import x\n");
  T.write("b.py", "from a import x\n");
  Project P;
  EXPECT_EQ(describe(P.resolve("a.x", P.refOf(T.path("a.py"))), T), "Unknown");
}

TEST(ProjectTest, TritonReexportedThroughProjectModules) {
  // vllm: `from vllm.triton_utils import tl, triton`, a package that imports
  // triton under `if TYPE_CHECKING or HAS_TRITON:` with placeholders in
  // `else:` and lists the names in `__all__`.
  TempTree T;
  T.write(".git/HEAD", "");
  T.write("pkg/__init__.py", "");
  T.write("pkg/triton_utils/__init__.py", "from typing import TYPE_CHECKING\n"
                                          "from pkg.triton_utils.importing import HAS_TRITON, Placeholder\n"
                                          "if TYPE_CHECKING or HAS_TRITON:\n"
                                          "    import triton\n"
                                          "    import triton.language as tl\n"
                                          "else:\n"
                                          "    triton = Placeholder()\n"
                                          "    tl = Placeholder()\n"
                                          "__all__ = ['HAS_TRITON', 'triton', 'tl']\n");
  T.write("pkg/triton_utils/importing.py", "import importlib.util\n"
                                           "HAS_TRITON = importlib.util.find_spec('triton') is not None\n"
                                           "class Placeholder:\n    pass\n");
  T.write("pkg/shim.py", "import triton\n");
  const char *Body = "(x_ptr, B: tl.constexpr):\n"
                     "    o = tl.program_id(0) * B + tl.arange(0, B)\n"
                     "    tl.store(x_ptr + o, tl.load(x_ptr + o))\n";
  std::string K1 =
      T.write("pkg/ops/k1.py", std::string("from pkg.triton_utils import tl, triton\n@triton.jit\ndef k1") + Body);
  std::string K2 = T.write("pkg/ops/k2.py", std::string("from ..shim import triton\nimport triton.language as tl\n"
                                                        "my_jit = triton.jit\n@my_jit\ndef k2") +
                                                Body);
  std::string K3 = T.write("pkg/ops/k3.py", std::string("import pkg.triton_utils as tu\ntl = tu.tl\n"
                                                        "@tu.triton.jit\ndef k3") +
                                                Body);
  T.write("pkg/ops/__init__.py", "");
  Project P;
  for (const auto &[Path, Name] : {std::pair{K1, "k1"}, std::pair{K2, "k2"}, std::pair{K3, "k3"}}) {
    std::shared_ptr<const Module> M = P.moduleAt(Path);
    ASSERT_TRUE(M);
    EXPECT_TRUE(M->Info.jit(Name)) << Name;
    EXPECT_TRUE(M->Info.UnresolvedJit.empty()) << Name;
    ProblemSink Sink;
    ModuleInfo Info = P.discoverFile(*M->File, Sink);
    EXPECT_TRUE(Info.jit(Name)) << Name;
    EXPECT_TRUE(Sink.take().empty()) << Name;
  }
  std::shared_ptr<const Module> M1 = P.moduleAt(K1);
  EXPECT_EQ(M1->Info.Imports.at("tl"), "triton.language");
  EXPECT_EQ(M1->Info.ProjectReads.count(T.path("pkg/triton_utils/__init__.py")), 1u);
  EXPECT_EQ(P.moduleAt(K3)->Info.Globals.at("tl").Value.repr(), "triton.language");
  // The re-export dropped: the importer is discovered again, and its kernel
  // is no longer one (a note says so instead).
  P.files().setOverlay(T.path("pkg/triton_utils/__init__.py"), "HAS_TRITON = False\n");
  EXPECT_FALSE(P.readsCurrent(M1->Info));
  std::shared_ptr<const Module> Again = P.moduleAt(K1);
  EXPECT_NE(Again, M1);
  EXPECT_FALSE(Again->Info.jit("k1"));
  EXPECT_EQ(Again->Info.UnresolvedJit.size(), 1u);
}

TEST(ProjectTest, ReexportCyclesEndWithoutWaiting) {
  // Two modules importing `tl` from each other, discovered on several
  // threads at once: each resolution ends (Unknown), none waits on another.
  TempTree T;
  T.write("pyproject.toml", "");
  std::string A = T.write("a.py", "from b import tl\nimport triton\n@triton.jit\ndef ka(x):\n    tl.program_id(0)\n");
  std::string B = T.write("b.py", "from a import tl\nimport triton\n@triton.jit\ndef kb(x):\n    tl.program_id(0)\n");
  Project P;
  std::vector<std::shared_ptr<const Module>> Got(8);
  parallelFor(Got.size(), 4, [&](size_t I) { Got[I] = P.moduleAt(I % 2 ? A : B); });
  for (const auto &M : Got) {
    ASSERT_TRUE(M);
    EXPECT_EQ(M->Info.Jit.size(), 1u);
  }
  EXPECT_EQ(describe(P.resolve("a.tl", P.refOf(A)), T), "Unknown");
}

TEST(ProjectTest, OpenBuffersOverrideDiskAndModulesFollowEdits) {
  TempTree T;
  T.write("pyproject.toml", "");
  std::string U = T.write("u.py", "def f():\n    pass\n");
  Project P;
  ModuleRef Ref = P.refOf(T.write("main.py", ""));
  Reads R;
  EXPECT_EQ(describe(P.resolve("u.f", Ref, &R), T), "Function f in u.py");
  ASSERT_EQ(R.count(U), 1u);
  uint64_t Before = R[U];
  std::shared_ptr<const Module> M1 = P.moduleAt(U);
  EXPECT_EQ(P.moduleAt(U), M1); // parsed once, shared
  P.files().setOverlay(U, "def g():\n    pass\n");
  EXPECT_EQ(describe(P.resolve("u.f", Ref), T), "Unknown");
  Reads R2;
  EXPECT_EQ(describe(P.resolve("u.g", Ref, &R2), T), "Function g in u.py");
  EXPECT_NE(R2[U], Before);
  EXPECT_NE(P.moduleAt(U), M1);
  P.files().clearOverlay(U);
  EXPECT_EQ(describe(P.resolve("u.f", Ref), T), "Function f in u.py");
  // A change on disk shows once the file is invalidated (a watched-file event).
  T.write("u.py", "def h():\n    pass\n");
  EXPECT_EQ(describe(P.resolve("u.h", Ref), T), "Unknown");
  P.files().invalidate(U);
  EXPECT_EQ(describe(P.resolve("u.h", Ref), T), "Function h in u.py");
}

TEST(ProjectTest, LaunchesInOtherFiles) {
  TempTree T;
  T.write("pyproject.toml", "");
  T.write("pkg/__init__.py", "");
  std::string Kernels = T.write("pkg/kernels.py", std::string(Jit) + "@triton.jit\ndef launched(X):\n    pass\n"
                                                                     "@triton.jit\ndef helper(x):\n    return x\n"
                                                                     "@triton.jit\ndef via_module(X):\n    pass\n");
  T.write("pkg/wrap.py", "from .kernels import launched\nfrom . import kernels as kk\n"
                         "def run(x):\n    launched[(1,)](x)\n    kk.via_module[(1,)](x)\n"
                         "    helper[(1,)](x)  # not pkg.kernels.helper: an unbound name\n");
  T.write("pkg/other.py",
          std::string(Jit) + "@triton.jit\ndef helper(x):\n    pass\ndef go(x):\n    helper[(1,)](x)\n");
  Project P;
  EXPECT_TRUE(P.launchedElsewhere(Kernels, "launched"));
  EXPECT_TRUE(P.launchedElsewhere(Kernels, "via_module"));
  EXPECT_FALSE(P.launchedElsewhere(Kernels, "helper"));
}

TEST(ProjectTest, CallsFromOtherFilesJitCode) {
  TempTree T;
  T.write("pyproject.toml", "");
  T.write("pkg/__init__.py", "");
  std::string Lib = T.write("pkg/lib.py", std::string(Jit) + "@triton.jit\ndef store_tile(p, x):\n    tl.store(p, x)\n"
                                                             "@triton.jit\ndef host_only(p):\n    pass\n"
                                                             "@triton.jit\ndef unused(p):\n    pass\n");
  T.write("pkg/k.py", std::string(Jit) + "from . import lib\nfrom .lib import host_only\n"
                                         "@triton.jit\ndef k(p):\n    lib.store_tile(p, 1)\n"
                                         "def host(p):\n    host_only(p)  # host code, not a @jit caller\n");
  Project P;
  EXPECT_TRUE(P.calledElsewhere(Lib, "store_tile"));
  EXPECT_FALSE(P.calledElsewhere(Lib, "host_only"));
  EXPECT_FALSE(P.calledElsewhere(Lib, "unused"));
}

TEST(ProjectTest, LaunchIndexFollowsBuffersAndWatchedFiles) {
  // The index is incremental: a buffer that starts launching a kernel, a file
  // created on disk, a file deleted, each seen at the next question.
  TempTree T;
  T.write("pyproject.toml", "");
  T.write("pkg/__init__.py", "");
  std::string Lib = T.write("pkg/lib.py", std::string(Jit) + "@triton.jit\ndef k(p):\n    pass\n");
  std::string Host = T.write("pkg/host.py", "from .lib import k\ndef run(p):\n    pass\n");
  Project P;
  EXPECT_FALSE(P.launchedElsewhere(Lib, "k"));
  EXPECT_TRUE(P.setBuffer(Host, std::string("from .lib import k\ndef run(p):\n    k[(1,)](p)\n")));
  EXPECT_TRUE(P.launchedElsewhere(Lib, "k"));
  // Closing the buffer: the disk, which does not launch it, again.
  EXPECT_TRUE(P.setBuffer(Host, std::nullopt));
  EXPECT_FALSE(P.launchedElsewhere(Lib, "k"));
  // Opening a buffer with the disk's text changes nothing importers read.
  EXPECT_FALSE(P.setBuffer(Host, std::string("from .lib import k\ndef run(p):\n    pass\n")));
  P.setBuffer(Host, std::nullopt);
  std::string Other = T.write("pkg/other.py", "from pkg.lib import k\ndef go(p):\n    k[(2,)](p)\n");
  EXPECT_FALSE(P.launchedElsewhere(Lib, "k")); // not told yet: the listing is cached
  P.fileChanged(Other, /*Structural=*/true);
  EXPECT_TRUE(P.launchedElsewhere(Lib, "k"));
  std::filesystem::remove(Other);
  P.fileChanged(Other, /*Structural=*/true);
  EXPECT_FALSE(P.launchedElsewhere(Lib, "k"));
}

TEST(ProjectTest, CreatedModuleResolvesAfterStructuralChange) {
  TempTree T;
  T.write("tessel.toml", "");
  T.write("pkg/__init__.py", "");
  std::string User = T.write("user.py", "from pkg.extra import boost\n");
  Project P;
  ModuleRef Ref = P.refOf(User);
  EXPECT_EQ(describe(P.resolve("pkg.extra.boost", Ref), T), "Unknown");
  std::string Extra = T.write("pkg/extra.py", std::string(Jit) + "@triton.jit\ndef boost(x):\n    return x\n");
  P.fileChanged(Extra, /*Structural=*/true);
  EXPECT_EQ(describe(P.resolve("pkg.extra.boost", Ref), T), "Function boost in pkg/extra.py");
  // A changed file is read again.
  T.write("pkg/extra.py", std::string(Jit) + "@triton.jit\ndef boost2(x):\n    return x\n");
  P.fileChanged(Extra, /*Structural=*/false);
  EXPECT_EQ(describe(P.resolve("pkg.extra.boost", Ref), T), "Unknown");
  EXPECT_EQ(describe(P.resolve("pkg.extra.boost2", Ref), T), "Function boost2 in pkg/extra.py");
}

TEST(ProjectTest, SubmodulesAndPreload) {
  TempTree T;
  T.write("tessel.toml", "");
  T.write("pkg/__init__.py", "");
  T.write("pkg/ops/__init__.py", "");
  T.write("pkg/a.py", "");
  T.write("pkg/b.py", "");
  T.write("pkg/not-a-module.py", "");
  T.write("pkg/data/readme.txt", "");
  std::string User = T.write("user.py", "");
  Project P;
  ModuleRef Ref = P.refOf(User);
  EXPECT_EQ(P.submodules("pkg", Ref), (std::vector<std::string>{"a", "b", "ops"}));
  std::vector<std::string> Top = P.submodules("", Ref);
  EXPECT_NE(std::find(Top.begin(), Top.end(), "pkg"), Top.end());
  EXPECT_NE(std::find(Top.begin(), Top.end(), "user"), Top.end());
  std::vector<std::string> Files = P.pythonFiles(T.Root);
  std::atomic<size_t> Calls{0};
  EXPECT_EQ(P.preload(Files, 2, [&](size_t) { ++Calls; }), Files.size());
  EXPECT_EQ(Calls.load(), Files.size());
  std::atomic<bool> Stop{true};
  EXPECT_EQ(P.preload(Files, 2, nullptr, &Stop), 0u);
}

} // namespace
} // namespace tessel::project

namespace {

TEST(ProjectConfig, ReferencesAreKernelNamesToDirectiveTexts) {
  tessel::project::Config C;
  std::string Why;
  ASSERT_TRUE(tessel::project::parseConfig("[tool.tessel.references]\nsoftmax = \"ref.cu::rows block=(256,) "
                                           "grid=(n,)\"\n",
                                           "tool.tessel", "/p", C, Why))
      << Why;
  ASSERT_EQ(C.References.size(), 1u);
  EXPECT_EQ(C.References["softmax"], "ref.cu::rows block=(256,) grid=(n,)");
  tessel::project::Config Bad;
  EXPECT_FALSE(tessel::project::parseConfig("[references]\nsoftmax = 3\n", "", "/p", Bad, Why));
  EXPECT_EQ(Why, "references.softmax must be a string (a reference directive's text)");
}

} // namespace
