//===- IncrementalTest.cpp - reused kernel analyses equal fresh ones -------===//
/// \file
/// analyzeFile with the previous version's analysis must give exactly what a
/// fresh analysis gives. Random edits (insertions of code fragments,
/// deletions, line duplications, anywhere: in kernels, helpers, configs,
/// launch sites, globals) are applied to the samples and to the 50-kernel
/// benchmark file, and each incremental result is compared with a
/// from-scratch one field by field through a complete textual dump, the
/// launches the host code makes (HostLaunchTable, run again only when the
/// host code's text changed) included.
//===----------------------------------------------------------------------===//
#include "compiler/frontend/AstWalk.h"
#include "compiler/sema/Analysis.h"
#include "compiler/sema/KernelReuse.h"
#include "compiler/sema/Specializations.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

namespace tessel::sema {
namespace {

std::string readFile(const std::filesystem::path &P) {
  std::ifstream In(P);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

std::string range(SourceRange R) { return "[" + std::to_string(R.Begin) + "," + std::to_string(R.End) + ")"; }

std::string pyValue(const PyValue &V) {
  return std::to_string(static_cast<int>(V.kind())) + ":" + (V.isUnknown() ? std::string("?") : V.repr());
}

void dumpProblem(const Problem &P, std::string &S) {
  S += "problem " + std::string(problemKindName(P.Kind)) + " " + range(P.Range) + " {" + P.Message + "} spec {" +
       P.Specialization + "}\n";
  for (const RelatedLocation &L : P.Related)
    S += "  related " + range(L.Range) + " " + L.Message + "\n";
  for (const Fix &F : P.Fixes) {
    S += "  fix " + F.Title + "\n";
    for (const TextEdit &E : F.Edits)
      S += "    edit " + range(E.Range) + " {" + E.NewText + "}\n";
  }
}

/// The module's facts (discovery's result, rediscovered or not), with every
/// tree pointer checked to be a node of the analysed file's own tree.
std::string dumpInfo(const FileAnalysis &FA) {
  std::set<const void *> Nodes;
  ast::Walker W;
  W.OnStmt = [&](const ast::Stmt *St) {
    Nodes.insert(St);
    return true;
  };
  W.OnExpr = [&](const ast::Expr *E) { Nodes.insert(E); };
  W.walk(FA.File->module().Body);
  auto Node = [&](const auto *N) {
    return N ? range(N->Range) + (Nodes.count(N) ? "" : " STALE") : std::string("null");
  };
  const ModuleInfo &I = FA.Info;
  std::string S;
  for (const auto &[Name, Path] : I.Imports)
    S += "import " + Name + "=" + Path + "\n";
  for (const auto &[Name, Def] : I.Functions)
    S += "function " + Name + " " + Node(Def) + "\n";
  for (const std::string &Name : I.Order) {
    const JitFunction &J = I.Jit.at(Name);
    S += "jit " + Name + " " + J.Name + " " + Node(J.Def) + (J.IsKernel ? " kernel" : " helper") +
         (J.Launched ? " launched" : "") + (J.HasAutotune ? " autotune" : "") + (J.ConfigsUnknown ? " unknown" : "") +
         " decorator " + range(J.DecoratorRange) + "\n";
    for (const AutotuneConfig &C : J.Configs)
      S += "  config " + range(C.Range) + " " + PyValue::config(C.Config).repr() + "\n";
    for (const std::string &K : J.AutotuneKey)
      S += "  key " + K + "\n";
    for (const std::string &H : J.HeuristicNames)
      S += "  heuristic " + H + "\n";
    for (const auto &[K, V] : J.JitOptions)
      S += "  option " + K + " " + pyValue(V) + "\n";
    for (const LaunchSite &L : J.Launches) {
      S += "  launch " + range(L.Range) + " grid " + range(L.GridRange) + " call " + Node(L.Call) + " positional " +
           std::to_string(L.NumPositional);
      for (size_t K = 0; K < L.Keywords.size(); ++K)
        S += " " + L.Keywords[K].first + "=" + pyValue(L.Keywords[K].second) + range(L.KeywordRanges[K]);
      S += "\n";
    }
  }
  for (const auto &[Name, G] : I.Globals)
    S += "global " + Name + " " + range(G.Range) + " " + pyValue(G.Value) + (G.IsConstexpr ? " constexpr" : "") +
         (G.IsConstexprInstance ? " instance" : "") + "\n";
  for (const std::string &M : I.StarImports)
    S += "star " + M + "\n";
  for (const auto &[Callee, R] : I.OtherLaunches)
    S += "other launch " + Callee + " " + range(R) + "\n";
  for (const std::string &B : I.ConfigBodies)
    S += "config body " + B + "\n";
  return S;
}

/// Every field of the analysis that consumers read, in order.
std::string dump(const FileAnalysis &FA) {
  std::string S = dumpInfo(FA);
  for (const Problem &P : FA.Problems)
    dumpProblem(P, S);
  for (const KernelAnalysis &K : FA.Kernels) {
    S += "kernel " + K.Kernel + " {" + K.Specialization + "} " + range(K.SpecializationSource) +
         (K.Completed ? " completed\n" : " stopped\n");
    for (const ValueFact &V : K.Values)
      S += "  value " + V.Name + " " + range(V.Range) + " " + V.Type.str() + " " + pyValue(V.Constexpr) + "\n";
    for (const MemoryAccess &A : K.Accesses) {
      S += "  access " + A.Op + " call " + range(A.CallRange) + " pointer " + range(A.PointerRange) + " axes";
      for (AxisIndex X : A.PointerAxes)
        S += " " + std::to_string(static_cast<int>(X));
      S += " causes";
      for (const std::string &C : A.SlidingCause)
        S += " {" + C + "}";
      S += A.HasMask ? " mask" : " nomask";
      for (bool B : A.MaskBounds)
        S += B ? " 1" : " 0";
      S += A.IsBlockPointer ? " blockptr" : "";
      S += A.HasBoundaryCheck ? " boundary" : "";
      S += A.EnclosingWhere ? " where " + range(*A.EnclosingWhere) : std::string();
      S += "\n";
    }
  }
  // The host code's launches, whether run again or moved from the previous
  // version, and the text that run read (the next version compares it).
  S += "host segments";
  for (SourceRange Seg : FA.Host->Segments)
    S += " " + range(Seg);
  S += "\n";
  for (const auto &[Name, L] : FA.Host->Launches) {
    S += "host launch " + Name + " " + range(L.Range) + " grid " + range(L.GridRange) + " {" + L.BindError + "}";
    for (int64_t G : L.Grid)
      S += " " + std::to_string(G);
    for (const std::string &C : L.Callers)
      S += " from " + C;
    S += "\n";
    for (const HostArgument &A : L.Args)
      S += "  arg " + A.Param + " " + range(A.Range) + " " + pyValue(A.Value) + (A.FromDefault ? " default\n" : "\n");
    for (const auto &[K, V] : L.Options)
      S += "  option " + K + " " + pyValue(V) + "\n";
  }
  for (const KernelRecord &R : FA.Records) {
    S += "record " + R.Kernel + " " + std::to_string(R.FirstAnalysis) + "+" + std::to_string(R.NumAnalyses) + " {" +
         R.Inputs.Facts.str() + "}" + (R.Inputs.Reusable ? "" : " not reusable");
    for (SourceRange Seg : R.Inputs.Segments)
      S += " " + range(Seg);
    S += "\n";
    for (const Problem &P : R.Problems)
      dumpProblem(P, S);
  }
  return S;
}

std::shared_ptr<const FileAnalysis> analyzeText(const std::string &Text, const FileAnalysis *Previous = nullptr) {
  return analyzeFile(ParsedFile::parse(std::make_shared<SourceText>(Text, "edited.py")), {}, Previous);
}

/// As the language server does: Text reparsed from the previous version's
/// tree (the one edit that turns its text into Text), then analysed with the
/// previous analysis.
std::shared_ptr<const FileAnalysis> reanalyzeText(const std::string &Text, const FileAnalysis &Previous) {
  const ParsedFile &Old = *Previous.File;
  std::string_view A = Old.text().text();
  size_t Prefix = 0, Suffix = 0;
  while (Prefix < A.size() && Prefix < Text.size() && A[Prefix] == Text[Prefix])
    ++Prefix;
  while (Suffix < A.size() - Prefix && Suffix < Text.size() - Prefix &&
         A[A.size() - 1 - Suffix] == Text[Text.size() - 1 - Suffix])
    ++Suffix;
  auto NewText = std::make_shared<SourceText>(Text, "edited.py");
  ByteEdit E;
  E.StartByte = static_cast<uint32_t>(Prefix);
  E.OldEndByte = static_cast<uint32_t>(A.size() - Suffix);
  E.NewEndByte = static_cast<uint32_t>(Text.size() - Suffix);
  E.Start = Old.text().lineCol(E.StartByte);
  E.OldEnd = Old.text().lineCol(E.OldEndByte);
  E.NewEnd = NewText->lineCol(E.NewEndByte);
  return analyzeFile(ParsedFile::reparse(Old, {E}, NewText), {}, &Previous);
}

/// Code-shaped fragments, so edits make both valid and broken kernels.
const char *const Fragments[] = {
    "x",
    " + 1",
    "\n",
    "\n    y = tl.arange(0, 16)\n",
    "BLOCK",
    "(",
    ")",
    ":",
    "tl.load(p)",
    "\n    z = tl.load(x_ptr + offs)\n",
    " * 2.0",
    "128",
    "63",
    "\n@triton.jit\ndef extra(a):\n    return a + 1\n",
    ", num_warps=8",
    "\nEPS = tl.constexpr(1e-3)\n",
    "tl.constexpr",
    "    ",
    "#",
    "\"",
};

/// One random edit of Text.
std::string edit(std::string Text, std::mt19937 &Rng) {
  if (Text.empty())
    return "x";
  std::uniform_int_distribution<size_t> Pos(0, Text.size());
  size_t At = Pos(Rng);
  switch (Rng() % 4) {
  case 0:
  case 1:
    return Text.insert(At, Fragments[Rng() % std::size(Fragments)]);
  case 2:
    return Text.erase(std::min(At, Text.size() - 1), 1 + Rng() % 12);
  default: {
    size_t Begin = Text.rfind('\n', At == 0 ? 0 : At - 1);
    Begin = Begin == std::string::npos ? 0 : Begin + 1;
    size_t End = Text.find('\n', At);
    End = End == std::string::npos ? Text.size() : End + 1;
    return Text.insert(Begin, Text.substr(Begin, End - Begin));
  }
  }
}

/// Applies Steps random edits in a chain, each analysed incrementally from the
/// previous incremental result and from scratch; returns the kernels reused.
/// With Reparse, each version is reparsed from the previous one's tree, as
/// the language server does, rather than parsed afresh.
size_t checkChain(const std::string &Name, std::string Text, unsigned Seed, int Steps, bool Reparse = false) {
  std::mt19937 Rng(Seed);
  std::shared_ptr<const FileAnalysis> Prev = analyzeText(Text);
  size_t Reused = 0;
  for (int I = 0; I < Steps; ++I) {
    Text = edit(std::move(Text), Rng);
    auto Inc = Reparse ? reanalyzeText(Text, *Prev) : analyzeText(Text, Prev.get());
    auto Fresh = analyzeText(Text);
    std::string A = dump(*Inc), B = dump(*Fresh);
    EXPECT_EQ(A, B) << Name << ", seed " << Seed << ", step " << I << "; text:\n" << Text;
    if (A != B)
      return Reused;
    Reused += Inc->ReusedKernels;
    Prev = Inc;
  }
  return Reused;
}

std::filesystem::path sourceDir() { return TESSEL_SOURCE_DIR; }

TEST(Incremental, RandomEditsOfSamplesMatchFreshAnalysis) {
  size_t Reused = 0;
  unsigned Seed = 1;
  for (const auto &Dir : {sourceDir() / "samples", sourceDir() / "samples" / "bugs"})
    for (const auto &E : std::filesystem::directory_iterator(Dir))
      if (E.path().extension() == ".py")
        Reused += checkChain(E.path().filename().string(), readFile(E.path()), Seed++, 25);
  EXPECT_GT(Reused, 0u) << "no edit ever reused a kernel: the comparison tested nothing";
}

// A keystroke derives one kernel's inputs through a lazy name index: every
// kernel's inputs must be what the full index gives, facts and segments.
TEST(Incremental, LazyModuleNamesGiveTheSameInputs) {
  size_t Kernels = 0;
  for (const auto &Dir : {sourceDir() / "samples", sourceDir() / "samples" / "bugs"})
    for (const auto &E : std::filesystem::directory_iterator(Dir)) {
      if (E.path().extension() != ".py")
        continue;
      auto File = ParsedFile::parse(std::make_shared<const SourceText>(readFile(E.path()), E.path().string()));
      ProblemSink Sink;
      ModuleInfo Info = discover(File->module(), Sink);
      ModuleNames Eager(*File, Info), Lazy(*File, Info, /*Lazy=*/true);
      AnalyzeOptions Opts;
      for (const std::string &Name : Info.Order) {
        const JitFunction &Fn = Info.Jit.at(Name);
        if (!Fn.Def)
          continue;
        std::vector<Specialization> Specs = specializationsOf(Fn, Opts.MaxSpecializations);
        KernelInputs A = kernelInputs(Eager, *File, Fn, Specs, Opts, " role kernel;");
        KernelInputs B = kernelInputs(Lazy, *File, Fn, Specs, Opts, " role kernel;");
        EXPECT_EQ(A.Facts.str(), B.Facts.str()) << E.path() << " " << Name;
        EXPECT_EQ(A.Segments, B.Segments) << E.path() << " " << Name;
        EXPECT_FALSE(A.Facts.sharedWith(B.Facts));
        ++Kernels;
      }
    }
  EXPECT_GT(Kernels, 20u);
}

std::string generatedFile() {
  std::filesystem::path Out =
      std::filesystem::temp_directory_path() / ("tessel_incremental_" + std::to_string(::getpid()) + ".py");
  std::string Cmd = "python3 " + (sourceDir() / "bench" / "gen_kernels.py").string() + " " + Out.string();
  EXPECT_EQ(std::system(Cmd.c_str()), 0) << Cmd;
  std::string Text = readFile(Out);
  std::filesystem::remove(Out);
  return Text;
}

TEST(Incremental, RandomEditsOfGeneratedFileMatchFreshAnalysis) {
  std::string Text = generatedFile();
  ASSERT_GT(Text.size(), 50000u);
  EXPECT_GT(checkChain("bench_50_kernels.py", Text, 7, 40), 0u);
}

TEST(Incremental, RandomEditsReparsedMatchFreshAnalysis) {
  size_t Reused = 0;
  unsigned Seed = 100;
  for (const auto &Dir : {sourceDir() / "samples", sourceDir() / "samples" / "bugs"})
    for (const auto &E : std::filesystem::directory_iterator(Dir))
      if (E.path().extension() == ".py")
        Reused += checkChain(E.path().filename().string(), readFile(E.path()), Seed++, 25, /*Reparse=*/true);
  EXPECT_GT(Reused, 0u);
  EXPECT_GT(checkChain("bench_50_kernels.py", generatedFile(), 8, 40, /*Reparse=*/true), 0u);
}

/// Random edits confined to the bodies of @jit functions: the module's facts
/// are taken from the previous version (rediscover) and must equal a fresh
/// discovery, tree pointers included.
TEST(Incremental, EditsInsideKernelBodiesRediscoverTheModule) {
  std::string Text = generatedFile();
  std::mt19937 Rng(21);
  std::shared_ptr<const FileAnalysis> Prev = analyzeText(Text);
  size_t Moved = 0;
  for (int I = 0; I < 60; ++I) {
    // A position inside a kernel's body: after a `    mask = ` line start.
    size_t At = Text.find("    mask = ");
    for (unsigned K = Rng() % 40; K > 0; --K)
      if (size_t Next = Text.find("    mask = ", At + 1); Next != std::string::npos)
        At = Next;
    if (At == std::string::npos)
      break; // the edits wore every `mask = ` line away
    At += 4;
    const char *Typed[] = {"t", "tmp = 1\n    ", "(", "x", "scale_kernel_3 = 1\n    "};
    if (Rng() % 3 == 0)
      Text.erase(At, 1 + Rng() % 3);
    else
      Text.insert(At, Typed[Rng() % std::size(Typed)]);
    bool Reparse = I % 2 == 0;
    auto Inc = Reparse ? reanalyzeText(Text, *Prev) : analyzeText(Text, Prev.get());
    auto Fresh = analyzeText(Text);
    ASSERT_EQ(dump(*Inc), dump(*Fresh)) << "step " << I << "; text:\n" << Text;
    Moved += Inc->InfoMoved;
    Prev = Inc;
  }
  EXPECT_GT(Moved, 30u);
}

/// A module-level value or launch keyword that names a function of the file
/// points into the old version's tree: such a module is discovered afresh,
/// whatever the edit.
TEST(Incremental, ValuesNamingFunctionsOfTheFileAreNotCarriedOver) {
  const char *Head = "import triton\nimport triton.language as tl\n\n";
  const char *Kernel = "@triton.jit\ndef k(x_ptr, BLOCK: tl.constexpr):\n    offs = tl.arange(0, BLOCK)\n"
                       "    tl.store(x_ptr + offs, offs)\n\n\n";
  for (const char *Host : {"GRID = lambda meta: (1,)\n",
                           "def pick(meta):\n    return 64\n\n\ndef run(x):\n    k[(1,)](x, BLOCK=pick)\n"}) {
    std::string Text = std::string(Head) + Kernel + Host;
    std::shared_ptr<const FileAnalysis> Prev = analyzeText(Text);
    size_t At = Text.find("    tl.store");
    Text.insert(At, "    y = 1\n");
    auto Inc = analyzeText(Text, Prev.get());
    EXPECT_FALSE(Inc->InfoMoved) << Host;
    EXPECT_EQ(dump(*Inc), dump(*analyzeText(Text))) << Host;
  }
  // Without them, the same edit carries the module's facts over.
  std::string Text = std::string(Head) + Kernel + "GRID = (1,)\n";
  std::shared_ptr<const FileAnalysis> Prev = analyzeText(Text);
  Text.insert(Text.find("    tl.store"), "    y = 1\n");
  EXPECT_TRUE(analyzeText(Text, Prev.get())->InfoMoved);
}

/// An edit that keeps the text below it in place (the language server's
/// slack makes most keystrokes such edits): the new version's facts share
/// every entry but the changed function's with the previous version's.
TEST(Incremental, AnEditKeepingTheTextBelowInPlaceSharesTheOtherFunctionsFacts) {
  std::string Text = generatedFile();
  auto Prev = reanalyzeText(Text, *analyzeText(Text));
  size_t At = Text.find("output = x + y * ", Text.size() / 2);
  ASSERT_NE(At, std::string::npos);
  At += std::string_view("output = x + y * ").size();
  Text[At] = Text[At] == '9' ? '8' : '9'; // a digit of the factor: the same length
  auto Inc = reanalyzeText(Text, *Prev);
  EXPECT_TRUE(Inc->InfoMoved);
  EXPECT_EQ(dump(*Inc), dump(*analyzeText(Text)));
  const ast::FunctionDefStmt *Changed = nullptr;
  size_t Shared = 0;
  for (const auto &[Name, J] : Inc->Info.Jit) {
    const JitFunction &Old = Prev->Info.Jit.at(Name);
    if (J.Def->Range.contains(SourceRange{static_cast<uint32_t>(At), static_cast<uint32_t>(At + 1)})) {
      EXPECT_NE(&J, &Old) << Name;
      Changed = J.Def;
    } else {
      EXPECT_EQ(&J, &Old) << Name;
      Shared += &J == &Old;
    }
  }
  ASSERT_NE(Changed, nullptr);
  EXPECT_EQ(Shared, Inc->Info.Jit.size() - 1);
  EXPECT_EQ(Inc->Info.Functions.at(Changed->Name), Changed);
}

TEST(Incremental, EditInsideOneKernelReusesTheOthers) {
  std::string Text = generatedFile();
  auto Before = analyzeText(Text);
  ASSERT_GE(Before->Records.size(), 40u);
  // A statement typed into the body of one kernel in the middle of the file.
  size_t At = Text.find("tl.arange(0, BLOCK)", Text.size() / 2);
  ASSERT_NE(At, std::string::npos);
  At = Text.find('\n', At) + 1;
  Text.insert(At, "    tmp = offs * 2\n");
  auto After = analyzeText(Text, Before.get());
  EXPECT_EQ(After->ReusedKernels, After->Records.size() - 1);
  EXPECT_EQ(dump(*After), dump(*analyzeText(Text)));
  // The kernels above the edit share their analyses with the previous
  // version; those below it hold moved copies.
  size_t Shared = 0, Moved = 0;
  for (size_t I = 0; I < After->Kernels.size(); ++I) {
    bool Same = false;
    for (size_t J = 0; J < Before->Kernels.size(); ++J)
      Same |= After->Kernels.shared(I) == Before->Kernels.shared(J);
    (Same ? Shared : Moved) += 1;
    if (Same) {
      const JitFunction *J = After->Info.jit(After->Kernels[I].Kernel);
      ASSERT_TRUE(J && J->Def);
      EXPECT_LT(J->Def->Range.End, At);
    }
  }
  EXPECT_GT(Shared, 10u);
  EXPECT_GT(Moved, 10u);
}

TEST(Incremental, TypingALineKeyByKeyRechecksOneKernel) {
  // bench_lsp_replay's session: a statement typed one key at a time into a
  // kernel, broken until its last key.
  std::string Text = generatedFile();
  size_t At = Text.find("tl.arange(0, BLOCK)", Text.size() / 2);
  ASSERT_NE(At, std::string::npos);
  At = Text.find('\n', At) + 1;
  Text.insert(At, "    \n");
  At += 4;
  auto Prev = analyzeText(Text);
  for (char C : std::string("tmp = tl.where(mask, x * 2.0 + 1.0, 0.0)")) {
    Text.insert(At++, 1, C);
    auto Inc = analyzeText(Text, Prev.get());
    ASSERT_EQ(dump(*Inc), dump(*analyzeText(Text))) << "after typing up to " << C;
    EXPECT_EQ(Inc->ReusedKernels, Inc->Records.size() - 1) << "after typing up to " << C;
    Prev = Inc;
  }
}

/// Triton's fused-softmax tutorial: a wrapper computes BLOCK_SIZE and the
/// module-level code calls it, so the host code's launch fixes the kernel's
/// constexprs.
const char HostSoftmax[] = R"(import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK_SIZE)
    x = tl.load(input_ptr + row * input_row_stride + offs, mask=offs < n_cols, other=-float('inf'))
    tl.store(output_ptr + row * output_row_stride + offs, x, mask=offs < n_cols)


def softmax(x):
    n_rows, n_cols = x.shape
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    y = torch.empty_like(x)
    softmax_kernel[(n_rows, )](y, x, x.stride(0), y.stride(0), n_rows, n_cols, BLOCK_SIZE, num_warps=4)
    return y


x = torch.randn(1823, 781, device='cuda')
y_triton = softmax(x)
)";

TEST(Incremental, HostCodeRunsAgainOnlyWhenItsTextChanges) {
  std::string Text = HostSoftmax;
  auto Before = analyzeText(Text);
  ASSERT_EQ(Before->Host->Launches.count("softmax_kernel"), 1u);
  EXPECT_FALSE(Before->Host->Reused);
  // A keystroke in the kernel's body: the launch is taken, not recomputed.
  std::string InKernel = Text;
  InKernel.insert(InKernel.find("    tl.store"), "    y = x * 2\n");
  auto After = analyzeText(InKernel, Before.get());
  EXPECT_TRUE(After->Host->Reused);
  EXPECT_EQ(dump(*After), dump(*analyzeText(InKernel)));
  // A line above everything moves the launch's ranges with it.
  std::string Above = "# a comment\n" + InKernel;
  auto Moved = analyzeText(Above, After.get());
  EXPECT_TRUE(Moved->Host->Reused);
  EXPECT_EQ(Moved->Host->Launches.at("softmax_kernel").Range.Begin,
            After->Host->Launches.at("softmax_kernel").Range.Begin + 12);
  EXPECT_EQ(dump(*Moved), dump(*analyzeText(Above)));
  // An edit of the host code runs it again, and the new size reaches the kernel.
  std::string InHost = Above;
  InHost.replace(InHost.find("1823, 781"), 9, "1823, 4000");
  auto Rerun = analyzeText(InHost, Moved.get());
  EXPECT_FALSE(Rerun->Host->Reused);
  EXPECT_EQ(dump(*Rerun), dump(*analyzeText(InHost)));
  const HostLaunch &L = Rerun->Host->Launches.at("softmax_kernel");
  ASSERT_NE(L.arg("BLOCK_SIZE"), nullptr);
  EXPECT_EQ(L.arg("BLOCK_SIZE")->Value.asInt(), 4096);
  // So does an edit of a kernel's signature (the host code binds its parameters).
  std::string Signature = InHost;
  Signature.replace(Signature.find("n_rows, n_cols,\n"), 15, "n_rows, n_cols, extra=1,");
  EXPECT_FALSE(analyzeText(Signature, Rerun.get())->Host->Reused);
}

TEST(Incremental, RandomEditsOfHostCodeMatchFreshAnalysis) {
  EXPECT_GT(checkChain("host_softmax.py", HostSoftmax, 11, 60), 0u);
  EXPECT_GT(checkChain("host_softmax.py", HostSoftmax, 12, 60, /*Reparse=*/true), 0u);
}

TEST(Incremental, ChangedHelperRechecksItsCallers) {
  std::string Src = "import triton\nimport triton.language as tl\n\n"
                    "@triton.jit\ndef helper(x):\n    return x + 1\n\n"
                    "@triton.jit\ndef uses(p):\n    tl.store(p, helper(tl.load(p)))\n\n"
                    "@triton.jit\ndef other(p):\n    tl.store(p, tl.load(p))\n";
  auto Before = analyzeText(Src);
  ASSERT_EQ(Before->Records.size(), 2u);
  std::string Edited = Src;
  Edited.replace(Edited.find("x + 1"), 5, "x + tl.arange(0, 3)");
  auto After = analyzeText(Edited, Before.get());
  EXPECT_EQ(After->ReusedKernels, 1u); // `other` only
  EXPECT_EQ(dump(*After), dump(*analyzeText(Edited)));
  EXPECT_FALSE(After->Problems.empty()); // arange's range must be a power of 2
}

// A name no table of the module has is undefined, unless a `from m import *`
// may bind it: the star imports are an input of every kernel, wherever they
// stand (an edits fuzz finding: one typed below the kernel kept its TS113).
TEST(Incremental, AStarImportTypedAnywhereRechecksUndefinedNames) {
  std::string Src = "import triton\nimport triton.language as tl\n\n"
                    "@triton.jit\ndef k(p):\n    tl.store(p, offs)\n\n"
                    "x = 1\n";
  auto Before = analyzeText(Src);
  ASSERT_EQ(Before->Records.size(), 1u);
  ASSERT_FALSE(Before->Problems.empty()); // offs is not defined
  std::string Edited = Src;
  Edited.replace(Edited.find("x = 1"), 5, "from ..pkg.mod import *");
  auto After = analyzeText(Edited, Before.get());
  EXPECT_EQ(After->ReusedKernels, 0u);
  EXPECT_EQ(dump(*After), dump(*analyzeText(Edited)));
  EXPECT_TRUE(After->Problems.empty());
  // And back: removing it reports the name again.
  auto Back = analyzeText(Src, After.get());
  EXPECT_EQ(dump(*Back), dump(*analyzeText(Src)));
  EXPECT_FALSE(Back->Problems.empty());
}

} // namespace
} // namespace tessel::sema
