//===- ProjectSemaTest.cpp - kernels that use other modules' helpers ------===//
/// \file
/// Sema through the project model, on small trees written to a temporary
/// directory: imported @jit helpers are inlined and run in their own module
/// (its constexpr globals, aliases and further imports); a problem inside one
/// is reported at the call in the checked file with the helper's token as a
/// related location in its file; unresolvable imports stay silent; a @jit
/// function is a kernel only where something launches it (here or in another
/// file), else an uncalled helper; an edit in a helper module re-checks
/// exactly the kernels that read it; lowerKernel inlines imported helpers.
//===----------------------------------------------------------------------===//
#include "compiler/ir/Printer.h"
#include "compiler/sema/Analysis.h"
#include "compiler/sema/LaunchPlan.h"
#include "compiler/sema/Lowering.h"
#include "unit/project/TempTree.h"

#include <gtest/gtest.h>

namespace tessel::sema {
namespace {

using testing::TempTree;

const char *Header = "import triton\nimport triton.language as tl\n";

std::shared_ptr<const ParsedFile> parseFrom(project::Project &P, const std::string &Path) {
  project::FileSet::Contents C = P.files().contents(Path);
  EXPECT_TRUE(C.Text) << Path;
  return ParsedFile::parse(std::make_shared<SourceText>(C.Text ? *C.Text : std::string(), Path));
}

std::shared_ptr<const FileAnalysis> analyze(project::Project &P, const std::string &Path,
                                            const FileAnalysis *Previous = nullptr) {
  AnalyzeOptions O;
  O.Project = &P;
  return analyzeFile(parseFrom(P, Path), O, Previous);
}

/// Kernel of the project file at Path planned with the project's helpers
/// read (LaunchPlanOptions::Settle), as the editor plans it, and its first
/// launch lowered.
struct ProjectPlan {
  std::shared_ptr<const ParsedFile> File;
  ModuleInfo Info;
  LaunchPlan Plan;
  std::string Assumptions; ///< one per line
  bool Lowered = false;
  std::string LoweringProblem; ///< the first, when it did not lower
};

ProjectPlan planInProject(project::Project &P, const std::string &Path, const std::string &Kernel) {
  ProjectPlan Out;
  Out.File = parseFrom(P, Path);
  ProblemSink Ignored;
  Out.Info = discover(Out.File->module(), Ignored);
  AnalyzeOptions Lowering;
  Lowering.Project = &P;
  LaunchPlanOptions Opts;
  Opts.Settle = &Lowering;
  Out.Plan = planLaunch(*Out.File, Out.Info, Kernel, Opts);
  for (const std::string &A : Out.Plan.Assumptions)
    Out.Assumptions += A + "\n";
  if (!Out.Plan.Launches.empty()) {
    LoweredKernel L = lowerKernel(*Out.File, Out.Info, Out.Plan.Launches.front().Request, Lowering);
    Out.Lowered = L.Function != nullptr;
    Out.LoweringProblem = L.Problems.empty() ? std::string() : L.Problems[0].Message;
  }
  return Out;
}

/// "line:col Kind: message" per problem, then "  note file:line:col message"
/// per related location (file named relative to the tree).
std::string problems(const FileAnalysis &FA, const TempTree &T) {
  std::string S;
  auto Where = [&](const SourceText &Text, SourceRange R) {
    LineCol LC = Text.lineCol(R.Begin);
    return std::to_string(LC.Line + 1) + ":" + std::to_string(LC.Column + 1);
  };
  for (const Problem &P : FA.Problems) {
    S += Where(FA.File->text(), P.Range) + " " + std::string(problemKindName(P.Kind)) + ": " + P.Message + "\n";
    for (const RelatedLocation &L : P.Related) {
      const SourceText &Text = L.File ? *L.File : FA.File->text();
      std::string File = L.File ? L.File->path().substr(T.Root.size() + 1) : std::string("this");
      S += "  note " + File + ":" + Where(Text, L.Range) + " " + L.Message + " `" + std::string(Text.slice(L.Range)) +
           "`\n";
    }
  }
  return S;
}

const ValueFact *fact(const FileAnalysis &FA, const std::string &Kernel, const std::string &Name) {
  for (const KernelAnalysis &K : FA.Kernels)
    if (K.Kernel == Kernel)
      for (const ValueFact &V : K.Values)
        if (V.Name == Name)
          return &V;
  return nullptr;
}

/// A package with helpers in several modules, as real libraries write them.
void writeHelpers(TempTree &T) {
  T.write("pyproject.toml", "");
  T.write("pkg/__init__.py", "from .ops.utils import exp2\n");
  T.write("pkg/ops/__init__.py", "");
  T.write("pkg/ops/consts.py", std::string(Header) + "BLOCK = tl.constexpr(64)\nDT = tl.float16\n");
  T.write("pkg/ops/utils.py", std::string(Header) +
                                  "from .consts import BLOCK\n"
                                  "try:\n    from triton.language.extra.cuda.libdevice import exp2 as _ex2\n"
                                  "except ImportError:\n    from triton.language.math import exp2 as _ex2\n"
                                  "alias = tl.math.exp2\n"
                                  "@triton.jit\ndef exp2(x):\n    return alias(x)\n"
                                  "@triton.jit\ndef widen(x):\n    return x + tl.zeros((BLOCK,), tl.float32)\n"
                                  "@triton.jit\ndef bad(x):\n    return tl.arange(0, 3) + x\n");
}

TEST(ProjectSemaTest, ImportedHelpersRunInTheirOwnModule) {
  TempTree T;
  writeHelpers(T);
  std::string Kern =
      T.write("pkg/ops/kern.py", std::string(Header) + "from pkg import exp2\n"
                                                       "from . import utils as u\n"
                                                       "from .consts import BLOCK, DT\n"
                                                       "import pkg.ops.utils\n"
                                                       "@triton.jit\n"
                                                       "def k(X, Y, N):\n"
                                                       "    offs = tl.arange(0, BLOCK)\n"
                                                       "    x = tl.load(X + offs, mask=offs < N).to(tl.float32)\n"
                                                       "    y = u.widen(exp2(x)) + pkg.ops.utils.exp2(x)\n"
                                                       "    z = y.to(DT)\n"
                                                       "    tl.store(Y + offs, z, mask=offs < N)\n"
                                                       "def run(x, y):\n    k[(1,)](x, y, 16)\n");
  project::Project P;
  auto FA = analyze(P, Kern);
  EXPECT_EQ(problems(*FA, T), "");
  const ValueFact *Y = fact(*FA, "k", "y");
  ASSERT_TRUE(Y);
  EXPECT_EQ(Y->Type.Shape, std::vector<int64_t>{64}); // BLOCK of consts.py, in widen's module
  const ValueFact *Z = fact(*FA, "k", "z");
  ASSERT_TRUE(Z);
  EXPECT_EQ(Z->Type.Elem.Scalar, ScalarKind::FP16); // an imported dtype alias
  // Every other file the analysis read is part of its reuse key.
  ASSERT_EQ(FA->Records.size(), 1u);
  EXPECT_TRUE(FA->Records[0].Inputs.Files.count(T.path("pkg/ops/utils.py")));
  std::string Read;
  for (const auto &[Path, Hash] : FA->Records[0].Inputs.Files)
    Read += Path.substr(T.Root.size() + 1) + " ";
  EXPECT_EQ(Read, "pkg/__init__.py pkg/ops/__init__.py pkg/ops/consts.py pkg/ops/utils.py ");
}

TEST(ProjectSemaTest, MisuseInsideAnImportedHelperIsReportedAtTheCall) {
  TempTree T;
  writeHelpers(T);
  std::string Kern = T.write("pkg/ops/kern.py", std::string(Header) + "from .utils import bad\n"
                                                                      "@triton.jit\n"
                                                                      "def k(X):\n"
                                                                      "    bad(tl.load(X))\n"
                                                                      "def run(x):\n    k[(1,)](x)\n");
  project::Project P;
  auto FA = analyze(P, Kern);
  EXPECT_EQ(problems(*FA, T), "6:5 ArangeRange: arange's range must be a power of 2\n"
                              "  note pkg/ops/utils.py:17:12 in `bad` (pkg.ops.utils) `tl.arange(0, 3)`\n");
}

TEST(ProjectSemaTest, WhatCannotBeResolvedStaysSilent) {
  TempTree T;
  T.write("pyproject.toml", "");
  std::string Kern =
      T.write("kern.py", std::string(Header) + "import torch\n"
                                               "from nowhere.ops import helper\n"
                                               "from .relative import thing\n"
                                               "from somewhere import *\n"
                                               "@triton.jit\n"
                                               "def k(X):\n"
                                               "    x = tl.load(X)\n"
                                               "    y = helper(x) + torch.sin(x) + thing(x) + starred(x)\n"
                                               "    tl.store(X, y)\n"
                                               "def run(x):\n    k[(1,)](x)\n");
  project::Project P;
  auto FA = analyze(P, Kern);
  EXPECT_EQ(problems(*FA, T), "");
}

TEST(ProjectSemaTest, UncalledHelpersAreNotKernels) {
  TempTree T;
  T.write("pyproject.toml", "");
  std::string Lib = T.write("lib.py", std::string(Header) + "@triton.jit\n"
                                                            "def helper(x, y, BLOCK: tl.constexpr):\n"
                                                            "    z = tl.load(x + tl.arange(0, BLOCK)) * y\n"
                                                            "    return z\n"
                                                            "@triton.jit\n"
                                                            "def broken(x):\n"
                                                            "    return undefined_name + x + tl.arange(0, 3)\n");
  project::Project P;
  auto FA = analyze(P, Lib);
  // No "kernel returns a value", no guessed argument kinds; what holds
  // whatever the arguments are is still reported.
  EXPECT_EQ(problems(*FA, T), "9:12 UndefinedName: undefined_name is not defined\n"
                              "9:33 ArangeRange: arange's range must be a power of 2\n");
}

TEST(ProjectSemaTest, AHelperCalledFromAnotherFileIsNotAKernel) {
  TempTree T;
  T.write("pyproject.toml", "");
  // As a kernel launched by the host, BLOCK would be a runtime int, which
  // tl.arange refuses; called from another file's kernel with 16, it is fine.
  std::string Lib = T.write("lib.py", std::string(Header) + "@triton.jit\n"
                                                            "def fill(p, BLOCK):\n"
                                                            "    offs = tl.arange(0, BLOCK)\n"
                                                            "    tl.store(p + offs, offs)\n");
  project::Project Alone;
  EXPECT_EQ(problems(*analyze(Alone, Lib), T),
            "5:12 ConstexprRequired: arange's arguments must be of type tl.constexpr\n");
  T.write("k.py", std::string(Header) + "from lib import fill\n@triton.jit\ndef k(P):\n    fill(P, 16)\n");
  project::Project P;
  EXPECT_EQ(problems(*analyze(P, Lib), T), "");
}

TEST(ProjectSemaTest, AKernelLaunchedFromAnotherFileIsAKernel) {
  TempTree T;
  T.write("pyproject.toml", "");
  T.write("pkg/__init__.py", "");
  std::string Kernels = T.write("pkg/kernels.py", std::string(Header) + "@triton.jit\n"
                                                                        "def k(X):\n"
                                                                        "    return tl.load(X)\n");
  project::Project Before;
  EXPECT_EQ(problems(*analyze(Before, Kernels), T), "");
  T.write("pkg/wrapper.py", "from .kernels import k\ndef run(x):\n    k[(1,)](x)\n");
  project::Project After;
  EXPECT_NE(problems(*analyze(After, Kernels), T).find("KernelReturnsValue"), std::string::npos);
}

TEST(ProjectSemaTest, ARoleFollowsLaunchesInOtherFiles) {
  TempTree T;
  T.write("pyproject.toml", "");
  // fill is a helper of fused.py's kernel (BLOCK = 16 there); as a kernel its
  // BLOCK is a runtime int, which tl.arange refuses.
  std::string Lib = T.write("kernels.py", std::string(Header) + "@triton.jit\n"
                                                                "def fill(p, BLOCK):\n"
                                                                "    offs = tl.arange(0, BLOCK)\n"
                                                                "    tl.store(p + offs, offs)\n");
  T.write("fused.py", std::string(Header) + "from kernels import fill\n@triton.jit\ndef outer(p):\n    fill(p, 16)\n");
  std::string Ops = T.write("ops.py", "from kernels import fill\ndef run(x):\n    pass\n");
  project::Project P;
  auto Helper = analyze(P, Lib);
  EXPECT_EQ(problems(*Helper, T), "");
  sema::RoleQuestions Q = roleQuestions(*Helper);
  ASSERT_EQ(Q.Functions.size(), 1u);
  EXPECT_TRUE(Q.Functions[0].second.helper());
  EXPECT_FALSE(roleEvidenceChanged(Q, P));

  // An edit of ops.py that does not name fill before a bracket changes nothing.
  P.files().setOverlay(Ops, "from kernels import fill\ndef run(x):\n    return x\n");
  std::set<std::string> Words = project::identifiersIn(*P.files().contents(Ops).Text);
  EXPECT_FALSE(roleEvidenceChanged(Q, P, &Words));
  // ops.py starts launching it: the role moves, and the same version of
  // kernels.py analysed again (with the previous analysis to reuse) is the
  // kernel a fresh analysis sees.
  std::string Launching = "from kernels import fill\ndef run(x):\n    fill[(1,)](x, 16)\n";
  P.files().setOverlay(Ops, Launching);
  Words = project::identifiersIn(Launching);
  EXPECT_TRUE(roleEvidenceChanged(Q, P, &Words));
  EXPECT_FALSE(Q.Functions[0].second.helper());
  EXPECT_FALSE(roleEvidenceChanged(Q, P, &Words)); // the answers were kept
  auto Kernel = analyze(P, Lib, Helper.get());
  EXPECT_EQ(Kernel->ReusedKernels, 0u);
  EXPECT_EQ(problems(*Kernel, T), "5:12 ConstexprRequired: arange's arguments must be of type tl.constexpr\n");
  // On disk, as `tessel check kernels.py` reads it, the role is the same.
  T.write("ops.py", Launching);
  project::Project Disk;
  EXPECT_EQ(problems(*analyze(Disk, Lib), T), problems(*Kernel, T));
  // The launch removed: a helper again, though the edited file no longer
  // names it before a bracket (an answer "yes" is always asked again).
  P.files().setOverlay(Ops, "def run(x):\n    pass\n");
  Words = project::identifiersIn("def run(x):\n    pass\n");
  EXPECT_TRUE(roleEvidenceChanged(Q, P, &Words));
  auto Back = analyze(P, Lib, Kernel.get());
  EXPECT_EQ(problems(*Back, T), "");
  EXPECT_EQ(Back->ReusedKernels, 0u);
  auto Again = analyze(P, Lib, Back.get());
  EXPECT_EQ(Again->ReusedKernels, 1u);
}

TEST(ProjectSemaTest, AnEditInAHelperModuleRechecksTheKernelsThatReadIt) {
  TempTree T;
  T.write("pyproject.toml", "");
  std::string Utils = T.write("utils.py", std::string(Header) + "@triton.jit\ndef h(x):\n    return x * 2\n");
  std::string Kern = T.write("kern.py", std::string(Header) + "from utils import h\n"
                                                              "@triton.jit\n"
                                                              "def uses(X):\n"
                                                              "    tl.store(X, h(tl.load(X)))\n"
                                                              "@triton.jit\n"
                                                              "def plain(X):\n"
                                                              "    tl.store(X, tl.load(X) + 1)\n"
                                                              "def run(x):\n    uses[(1,)](x)\n    plain[(1,)](x)\n");
  project::Project P;
  auto First = analyze(P, Kern);
  EXPECT_EQ(problems(*First, T), "");
  auto Same = analyze(P, Kern, First.get());
  EXPECT_EQ(Same->ReusedKernels, 2u);
  // The helper module changes in an open buffer: only `uses` read it.
  P.files().setOverlay(Utils, std::string(Header) + "@triton.jit\ndef h(x):\n    return x + tl.arange(0, 3)\n");
  auto Edited = analyze(P, Kern, Same.get());
  EXPECT_EQ(Edited->ReusedKernels, 1u);
  project::Project Fresh;
  Fresh.files().setOverlay(Utils, *P.files().contents(Utils).Text);
  EXPECT_EQ(problems(*Edited, T), problems(*analyze(Fresh, Kern), T));
  EXPECT_NE(problems(*Edited, T).find("ArangeRange"), std::string::npos);
}

TEST(ProjectSemaTest, AnEditInAValidatorModuleRechecksTheKernelsItGuards) {
  // A validator in another module states the grid exact (GridAxes); when
  // its check changes, the kernel it guards is checked again, not reused.
  TempTree T;
  T.write("pyproject.toml", "");
  std::string Checks =
      T.write("checks.py", "def check(x):\n    if x.shape[0] % 128 != 0:\n        raise ValueError()\n");
  std::string Kern = T.write("kern.py", std::string(Header) + "from checks import check\n"
                                                              "@triton.jit\n"
                                                              "def k(X, B: tl.constexpr):\n"
                                                              "    offs = tl.program_id(0) * B + tl.arange(0, B)\n"
                                                              "    tl.store(X + offs, tl.load(X + offs) + 1)\n"
                                                              "def run(x):\n"
                                                              "    check(x)\n"
                                                              "    k[(triton.cdiv(x.shape[0], 128),)](x, B=128)\n");
  project::Project P;
  auto First = analyze(P, Kern);
  EXPECT_EQ(problems(*First, T), "");
  ASSERT_EQ(First->Records.size(), 1u);
  EXPECT_TRUE(First->Records[0].Inputs.Files.count(Checks));
  auto Same = analyze(P, Kern, First.get());
  EXPECT_EQ(Same->ReusedKernels, 1u);
  P.files().setOverlay(Checks, "def check(x):\n    if x.shape[0] % 64 != 0:\n        raise ValueError()\n");
  auto Edited = analyze(P, Kern, Same.get());
  EXPECT_EQ(Edited->ReusedKernels, 0u);
  // The finding itself is the masking check's (diagnostics); what the edit
  // changed here is that the program id now slides a block past the end.
  auto Slides = [](const FileAnalysis &FA) {
    for (const KernelAnalysis &K : FA.Kernels)
      for (const MemoryAccess &A : K.Accesses)
        for (AxisIndex X : A.PointerAxes)
          if (X == AxisIndex::Sliding)
            return true;
    return false;
  };
  EXPECT_FALSE(Slides(*First));
  EXPECT_TRUE(Slides(*Edited));
}

TEST(ProjectSemaTest, LoweringInlinesImportedHelpers) {
  TempTree T;
  T.write("pyproject.toml", "");
  T.write("utils.py",
          std::string(Header) + "SCALE = tl.constexpr(3.0)\n@triton.jit\ndef h(x):\n    return x * SCALE\n");
  std::string Kern = T.write("kern.py", std::string(Header) + "from utils import h\n"
                                                              "@triton.jit\n"
                                                              "def k(X, BLOCK: tl.constexpr):\n"
                                                              "    offs = tl.arange(0, BLOCK)\n"
                                                              "    tl.store(X + offs, h(tl.load(X + offs)))\n");
  project::Project P;
  std::shared_ptr<const ParsedFile> File = parseFrom(P, Kern);
  ProblemSink Ignored;
  ModuleInfo Info = discover(File->module(), Ignored);
  LoweringRequest R;
  R.Kernel = "k";
  R.Constexprs["BLOCK"] = PyValue::integer(16);
  R.ArgTypes["X"] = ElemType{ScalarKind::FP32, 1};
  AnalyzeOptions O;
  O.Project = &P;
  LoweredKernel L = lowerKernel(*File, Info, R, O);
  ASSERT_TRUE(L.Function) << (L.Problems.empty() ? std::string() : L.Problems[0].Message);
  std::string IR = ir::printFunction(*L.Function);
  EXPECT_NE(IR.find("mul"), std::string::npos) << IR;
  EXPECT_NE(IR.find("3.0"), std::string::npos) << IR;
}

TEST(ProjectSemaTest, AConstexprComparedInAnImportedHelperTakesItsFirstValue) {
  // attorch: the kernel passes `act_func: tl.constexpr` to an activation
  // helper of another module, which compares it with names; assumed the
  // first, the helper binds `output` and the kernel lowers (before: assumed
  // an integer, no branch bound `output`).
  TempTree T;
  T.write("pyproject.toml", "");
  T.write("act.py", std::string(Header) + "@triton.jit\n"
                                          "def apply_act(x, act: tl.constexpr):\n"
                                          "    if act == 'sigmoid':\n"
                                          "        output = tl.sigmoid(x)\n"
                                          "    elif act == 'relu':\n"
                                          "        output = tl.maximum(x, 0.0)\n"
                                          "    return output\n");
  std::string Kern =
      T.write("glu.py", std::string(Header) + "from act import apply_act\n"
                                              "@triton.jit\n"
                                              "def glu(X, Y, n, act_func: tl.constexpr, BLOCK: tl.constexpr):\n"
                                              "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                                              "    x = tl.load(X + offs, mask=offs < n)\n"
                                              "    tl.store(Y + offs, x * apply_act(x, act_func), mask=offs < n)\n");
  project::Project P;
  ProjectPlan R = planInProject(P, Kern, "glu");
  EXPECT_NE(R.Assumptions.find("act_func='sigmoid' assumed: the first value it is compared with"), std::string::npos)
      << R.Assumptions;
  ASSERT_FALSE(R.Plan.Launches.empty()) << R.Plan.Error;
  EXPECT_TRUE(R.Lowered) << R.LoweringProblem;
  // Without the project the helper's body is not read: no value compares.
  LaunchPlan Alone = planLaunch(*R.File, R.Info, "glu");
  std::string AloneText;
  for (const std::string &A : Alone.Assumptions)
    AloneText += A + "\n";
  EXPECT_EQ(AloneText.find("act_func='sigmoid'"), std::string::npos) << AloneText;
}

TEST(ProjectSemaTest, RowsLoadedForAnImportedHelperThatOffsetsByThemAreIndices) {
  // vllm's LoRA shrink kernel loads the token rows it serves and hands them
  // to `do_shrink_kernel` of another module, which offsets its input and
  // output pointers by them: the table of rows holds integers (before: fp32,
  // and `input_ptr + ram[:, None] * stride` did not lower).
  TempTree T;
  T.write("pyproject.toml", "");
  T.write("kernel_utils.py", std::string(Header) + "@triton.jit\n"
                                                   "def do_rows(x_ptr, out_ptr, ram, stride, BLOCK: tl.constexpr):\n"
                                                   "    offs = tl.arange(0, BLOCK)\n"
                                                   "    v = tl.load(x_ptr + ram[:, None] * stride + offs[None, :])\n"
                                                   "    c_ptr = out_ptr + ram[:, None] * stride + offs[None, :]\n"
                                                   "    tl.store(c_ptr, v)\n");
  std::string Kern =
      T.write("shrink.py", std::string(Header) + "from kernel_utils import do_rows\n"
                                                 "@triton.jit\n"
                                                 "def shrink(x_ptr, out_ptr, token_ids, stride, BLOCK: tl.constexpr):\n"
                                                 "    start = tl.program_id(0) * BLOCK\n"
                                                 "    ram = tl.load(token_ids + start + tl.arange(0, BLOCK))\n"
                                                 "    do_rows(x_ptr, out_ptr, ram, stride, BLOCK)\n");
  project::Project P;
  ProjectPlan R = planInProject(P, Kern, "shrink");
  EXPECT_NE(R.Assumptions.find("token_ids=i64[1024, 1024]: its values are offsets of other pointers"),
            std::string::npos)
      << R.Assumptions;
  ASSERT_FALSE(R.Plan.Launches.empty()) << R.Plan.Error;
  EXPECT_TRUE(R.Lowered) << R.LoweringProblem;
}

TEST(ProjectSemaTest, AHelperReachedThroughAStarImportGivesItsEvidence) {
  // gemlite: `from .utils import *` brings `dequantize`, which shifts the
  // packed weights it is handed; the weights' pointer holds integers
  // (before: fp32, and `b >> q_shift` did not lower).
  TempTree T;
  T.write("pyproject.toml", "");
  T.write("pkg/__init__.py", "");
  T.write("pkg/utils.py", std::string(Header) + "@triton.jit\n"
                                                "def dequantize(b, q_shift, scale):\n"
                                                "    b = (b >> q_shift) & 15\n"
                                                "    return b.to(tl.float32) * scale\n");
  std::string Kern = T.write("pkg/gemv.py", std::string(Header) + "from .utils import *\n"
                                                                  "@triton.jit\n"
                                                                  "def gemv(w_ptr, out_ptr, BLOCK: tl.constexpr):\n"
                                                                  "    offs = tl.arange(0, BLOCK)\n"
                                                                  "    b = tl.load(w_ptr + offs // 8)\n"
                                                                  "    v = dequantize(b, (offs % 8) * 4, 0.5)\n"
                                                                  "    tl.store(out_ptr + offs, v)\n");
  project::Project P;
  ProjectPlan R = planInProject(P, Kern, "gemv");
  EXPECT_NE(R.Assumptions.find("w_ptr=i32[1024]: its values are shifted, combined bitwise or floor-divided"),
            std::string::npos)
      << R.Assumptions;
  ASSERT_FALSE(R.Plan.Launches.empty()) << R.Plan.Error;
  EXPECT_TRUE(R.Lowered) << R.LoweringProblem;
}

} // namespace
} // namespace tessel::sema
