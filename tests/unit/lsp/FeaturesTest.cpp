//===- FeaturesTest.cpp - lsp/features on annotated Triton snippets -------===//
/// \file
/// Each test is a kernel with cursor marks (`^{name}` is removed from the
/// text and names the offset where it stood, as clangd's Annotations do) and
/// what the feature must answer there. Features run on the real front end
/// and sema, through the same AnalyzedFile the server builds.
//===----------------------------------------------------------------------===//
#include "diagnostics/JitCheck.h"
#include "lsp/AnalyzedFile.h"
#include "lsp/features/CodeLens.h"
#include "lsp/features/Completion.h"
#include "lsp/features/Definition.h"
#include "lsp/features/DocumentSymbols.h"
#include "lsp/features/Hover.h"
#include "lsp/features/InlayHints.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

using namespace tessel;
using namespace tessel::lsp;

namespace {

/// Text with `^{name}` marks removed, and the offset of each mark.
struct Annotated {
  std::string Text;
  std::map<std::string, uint32_t> Points;
  explicit Annotated(std::string_view Marked) {
    for (size_t I = 0; I < Marked.size(); ++I) {
      if (Marked.substr(I, 2) != "^{") {
        Text += Marked[I];
        continue;
      }
      size_t Close = Marked.find('}', I);
      Points[std::string(Marked.substr(I + 2, Close - I - 2))] = static_cast<uint32_t>(Text.size());
      I = Close;
    }
  }
  uint32_t operator[](const std::string &Name) const { return Points.at(Name); }
};

std::shared_ptr<AnalyzedFile> analyze(const std::string &Text) {
  auto F = std::make_shared<AnalyzedFile>();
  auto Source = std::make_shared<const SourceText>(Text, "test.py");
  F->Doc = {"test:///test.py", 1, Source, std::make_shared<const LineIndex>(Text)};
  F->Parsed = ParsedFile::parse(Source);
  F->Report = diag::checkFile(F->Parsed);
  return F;
}

const char *Kernel = R"py(import triton
import triton.language as tl

@triton.jit
def hel^{helper_def}per(v):
    return v + 1

@triton.jit
def ^{kernel_name}kern(x_ptr, n, BLOCK: tl.constexpr):
    of^{offs_def}fs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = of^{offs_use}fs < n
    x = tl.lo^{load}ad(x_ptr + offs, mask=mask)
    y = hel^{helper_call}per(x)
    z = tl.ar^{ar}

def launch(x):
    kern[(1,)](x, 10, BLOCK=256)
)py";

TEST(Features, HoverShowsTileTypeAtDefinitionAndUse) {
  Annotated A(Kernel);
  auto F = analyze(A.Text);
  auto Def = hover(*F, A["offs_def"]);
  ASSERT_TRUE(Def);
  EXPECT_NE(Def->Code.find("offs: [256] "), std::string::npos) << Def->Code;
  auto Use = hover(*F, A["offs_use"]);
  ASSERT_TRUE(Use);
  EXPECT_EQ(Use->Code, Def->Code);
  EXPECT_EQ(F->Parsed->text().slice(Use->Range), "offs");
}

TEST(Features, HoverShowsAConstexprParameterAsItsValue) {
  Annotated A(R"py(import triton
import triton.language as tl

@triton.jit
def kern(x_ptr, n, BLO^{block}CK: tl.constexpr, MO^{mode}DE: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, 1.0, mask=offs < n)

def launch(x):
    kern[(1,)](x, 10, BLOCK=256, MODE="fast")
)py");
  auto F = analyze(A.Text);
  auto Block = hover(*F, A["block"]);
  ASSERT_TRUE(Block);
  EXPECT_EQ(Block->Code, "BLOCK: constexpr int = 256");
  auto Mode = hover(*F, A["mode"]);
  ASSERT_TRUE(Mode);
  EXPECT_EQ(Mode->Code, "MODE: constexpr str = 'fast'");
}

TEST(Features, HoverDocumentsBuiltinsAndKernels) {
  Annotated A(Kernel);
  auto F = analyze(A.Text);
  auto Load = hover(*F, A["load"]);
  ASSERT_TRUE(Load);
  EXPECT_EQ(Load->Code.rfind("tl.load(pointer, mask=None", 0), 0u) << Load->Code;
  EXPECT_FALSE(Load->Doc.empty());
  auto K = hover(*F, A["kernel_name"]);
  ASSERT_TRUE(K);
  EXPECT_EQ(K->Code, "def kern(x_ptr, n, BLOCK: tl.constexpr)");
  EXPECT_NE(K->markdown().find("1 launch site"), std::string::npos);
  EXPECT_EQ(K->plainText().find("```"), std::string::npos);
}

TEST(Features, DefinitionOfHelperAndLocal) {
  Annotated A(Kernel);
  auto F = analyze(A.Text);
  auto Helper = definition(*F, A["helper_call"]);
  ASSERT_TRUE(Helper);
  EXPECT_EQ(Helper->Begin, A["helper_def"] - 3);
  auto Local = definition(*F, A["offs_use"]);
  ASSERT_TRUE(Local);
  EXPECT_EQ(F->Parsed->text().slice(*Local), "offs");
  EXPECT_LT(Local->Begin, A["offs_def"]);
}

TEST(Features, CompletionAfterTheLanguageAlias) {
  Annotated A(Kernel);
  auto F = analyze(A.Text);
  std::vector<std::string> Labels;
  for (const CompletionInfo &C : complete(*F, A["ar"]))
    Labels.push_back(C.Label);
  EXPECT_EQ(Labels, (std::vector<std::string>{"arange", "argmax", "argmin"}));
  // Right after the dot every builtin is offered, with its signature.
  Annotated B("import triton.language as tl\nx = tl.^{here}\n");
  auto G = analyze(B.Text);
  auto All = complete(*G, B["here"]);
  ASSERT_GT(All.size(), 80u);
  auto It = std::find_if(All.begin(), All.end(), [](const CompletionInfo &C) { return C.Label == "dot"; });
  ASSERT_NE(It, All.end());
  EXPECT_EQ(It->Detail.rfind("dot(input, other", 0), 0u);
}

TEST(Features, InlayHintsOnTilesOnly) {
  Annotated A(Kernel);
  auto F = analyze(A.Text);
  auto Hints = inlayHints(*F, {0, static_cast<uint32_t>(A.Text.size())});
  std::map<uint32_t, std::string> ByOffset;
  for (const InlayHint &H : Hints)
    ByOffset[H.Offset] = H.Label;
  uint32_t OffsEnd = A["offs_def"] + 2; // "of^fs": the mark sits after "of"
  ASSERT_TRUE(ByOffset.count(OffsEnd)) << "no hint after offs";
  EXPECT_EQ(ByOffset[OffsEnd].rfind(": [256] ", 0), 0u);
  for (const InlayHint &H : Hints)
    EXPECT_EQ(H.Label.find(": ["), 0u) << "a scalar got a hint: " << H.Label;
}

TEST(Features, LensesOfAKernelWithErrorsSayWhyNoFiguresCome) {
  // The JIT tier does not compile a kernel with front-end errors, so its
  // lens must not wait for figures ("not yet known").
  auto F = analyze(R"py(import triton
import triton.language as tl

@triton.jit
def kern(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, 3)
    tl.store(x_ptr + offs, 1.0)

def launch(x):
    kern[(1,)](x, BLOCK=256)
)py");
  CodeLensOptions Opts;
  Opts.JitEnabled = true;
  auto Lenses = codeLenses(*F, Opts);
  ASSERT_EQ(Lenses.size(), 2u);
  EXPECT_NE(Lenses[1].Title.find("BLOCK=256"), std::string::npos) << Lenses[1].Title;
  EXPECT_NE(Lenses[1].Title.find("figures unavailable: the kernel has errors; fix them first"), std::string::npos)
      << Lenses[1].Title;
}

TEST(Features, SymbolsAndLenses) {
  Annotated A(Kernel);
  auto F = analyze(A.Text);
  auto Symbols = documentSymbols(*F);
  // The two @jit functions, then the host function that launches the kernel.
  ASSERT_EQ(Symbols.size(), 3u);
  EXPECT_EQ(Symbols[0].Name, "helper");
  EXPECT_EQ(Symbols[0].Detail, "@triton.jit helper");
  EXPECT_EQ(Symbols[1].Name, "kern");
  EXPECT_EQ(Symbols[1].Children.size(), 3u);
  EXPECT_EQ(Symbols[2].Detail, "host function");
  auto Lenses = codeLenses(*F, {false});
  ASSERT_EQ(Lenses.size(), 2u);
  EXPECT_EQ(Lenses[0].RunDevice, std::optional<std::string>("cpu"));
  EXPECT_NE(Lenses[1].Title.find("BLOCK=256"), std::string::npos);
  // The half-typed `tl.ar` is an error: the kernel is not compiled, and the
  // lens says so (before the tier's setting matters).
  EXPECT_NE(Lenses[1].Title.find("figures unavailable: the kernel has errors"), std::string::npos) << Lenses[1].Title;
  EXPECT_EQ(codeLenses(*F, {true}).size(), 3u);
}

TEST(Features, InlayHintsNameUnknownSizesAndKeepCertainDtypes) {
  // No launch anywhere: BLOCK is unknown, but an int (it sizes a tile), so
  // `pid * BLOCK + arange` is int32 whatever its value. x's dtype is the
  // pointer's, which nothing gives: `?` there is honest.
  Annotated A(R"py(import triton
import triton.language as tl

@triton.jit
def kern(x_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    of^{offs}fs = pid * BLOCK + tl.arange(0, BLOCK)
    ha^{half}lf = offs * (BLOCK // 2)
    ^{x}x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(x_ptr + offs, x, mask=offs < n)
)py");
  auto F = analyze(A.Text);
  std::map<uint32_t, std::string> ByOffset;
  for (const InlayHint &H : inlayHints(*F, {0, static_cast<uint32_t>(A.Text.size())}))
    ByOffset[H.Offset] = H.Label;
  EXPECT_EQ(ByOffset[A["offs"] + 2], ": [BLOCK] int32");
  EXPECT_EQ(ByOffset[A["half"] + 2], ": [BLOCK] int32");
  EXPECT_EQ(ByOffset[A["x"] + 1], ": [BLOCK] ?");
  auto H = hover(*F, A["offs"]);
  ASSERT_TRUE(H);
  EXPECT_EQ(H->Code, "offs: [BLOCK] int32");
}

TEST(Features, LensesSitAboveTheDecorators) {
  // Between `@triton.jit` and `def` a lens would split the two lines.
  Annotated A(R"py(import triton
import triton.language as tl

@^{deco}triton.jit
def kern(x_ptr, BLOCK: tl.constexpr):
    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)

def launch(x):
    kern[(1,)](x, BLOCK=256)
)py");
  auto F = analyze(A.Text);
  auto Lenses = codeLenses(*F, {false});
  ASSERT_FALSE(Lenses.empty());
  for (const CodeLensInfo &L : Lenses)
    EXPECT_EQ(L.Range.Begin, A["deco"]) << L.Title;
}

TEST(Features, AnAutotunedKernelsLensShowsTheFirstConfigTheAutotunerKeeps) {
  if (!diag::canAssemble())
    GTEST_SKIP() << "no PTX assembler: the tier reports no figures to choose between";
  auto F = analyze(R"py(import triton
import triton.language as tl

configs = [triton.Config({'BLOCK': b}, num_warps=4, num_stages=s) for b, s in [(256, 8), (128, 3)]]

@triton.autotune(configs=configs, key=['n'])
@triton.jit
def kern(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, 1.0, mask=offs < n)
)py");
  CodeLensOptions Opts;
  Opts.JitEnabled = true;
  // Config #0 compiled to more shared memory than a block has (not
  // assembled), config #1 with figures.
  backend::CompiledKernel Over;
  Over.Launch.DynamicShared = 262144;
  backend::CompiledKernel Fits;
  Fits.Assembler = "ptxas 13.0";
  Fits.Resources.Registers = 40;
  Fits.Resources.HasSpillCounts = true;
  Fits.Launch.DynamicShared = 1024;
  KernelJitLens &K = Opts.Jit["kern"];
  K.Configs.push_back({size_t(0), {}});
  K.Configs.back().Summary.Compiled = Over;
  K.Configs.push_back({size_t(1), {}});
  K.Configs.back().Summary.Compiled = Fits;
  auto Lenses = codeLenses(*F, Opts);
  auto It = std::find_if(Lenses.begin(), Lenses.end(),
                         [](const CodeLensInfo &L) { return L.Title.rfind("2 configs", 0) == 0; });
  ASSERT_NE(It, Lenses.end());
  EXPECT_NE(It->Title.find("256 KiB smem: more than a block can have"), std::string::npos) << It->Title;
  EXPECT_NE(It->Title.find("(skipped by @triton.autotune) · #1 BLOCK=128"), std::string::npos) << It->Title;
  EXPECT_NE(It->Title.find("40 regs"), std::string::npos) << It->Title;
}

} // namespace
