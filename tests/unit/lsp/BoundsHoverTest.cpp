//===- BoundsHoverTest.cpp - hover on an access shows the prover's verdict -===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Hovering `tl.load` / `tl.store` in the language server adds what the
/// bounds prover concluded about that access: "proven in bounds" with the
/// assumptions it rests on, or "not proven" with the counterexample and a
/// launch spec that reproduces it.
//===----------------------------------------------------------------------===//
#include "lsp/AnalyzedFile.h"
#include "lsp/features/Hover.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace tessel;
using namespace tessel::lsp;

namespace {

std::shared_ptr<AnalyzedFile> analyze(const std::string &Text) {
  auto F = std::make_shared<AnalyzedFile>();
  auto Source = std::make_shared<const SourceText>(Text, "test.py");
  F->Doc = {"test:///test.py", 1, Source, std::make_shared<const LineIndex>(Text)};
  F->Parsed = ParsedFile::parse(Source);
  diag::CheckOptions Opts;
  Opts.Prove = true; // as the server's scheduler checks
  F->Report = diag::checkFile(F->Parsed, Opts);
  return F;
}

bool hasNote(const HoverInfo &H, const std::string &Prefix) {
  return std::any_of(H.Notes.begin(), H.Notes.end(), [&](const std::string &N) { return N.rfind(Prefix, 0) == 0; });
}

const char *const Source = R"py(import triton
import triton.language as tl

@triton.jit
def kern(x_ptr, out_ptr, n, BLOCK: tl.constexpr = 1024):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, x, mask=offs < n)
)py";

} // namespace

TEST(BoundsHover, LoadSaysNotProvenWithTheCounterexample) {
  auto F = analyze(Source);
  uint32_t At = static_cast<uint32_t>(std::string(Source).find("load(") + 1);
  auto H = hover(*F, At);
  ASSERT_TRUE(H);
  EXPECT_TRUE(hasNote(*H, "bounds: not proven: x_ptr[")) << H->plainText();
  EXPECT_TRUE(hasNote(*H, "reproduce with `# tessel: launch ")) << H->plainText();
}

TEST(BoundsHover, StoreSaysProvenUnderItsAssumptions) {
  auto F = analyze(Source);
  uint32_t At = static_cast<uint32_t>(std::string(Source).find("store(") + 1);
  auto H = hover(*F, At);
  ASSERT_TRUE(H);
  EXPECT_TRUE(hasNote(*H, "bounds: proven in bounds for every size, assuming:")) << H->plainText();
  EXPECT_TRUE(hasNote(*H, "- program_id(0) ranges over cdiv(size, 1024) programs")) << H->plainText();
}
