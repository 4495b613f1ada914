//===- CheckFileTest.cpp - behaviour of diag::checkFile as a whole --------===//
/// \file
/// What checkFile guarantees beyond single checks: a half-typed line gets its
/// syntax error and nothing else, including from the analysis-based checks;
/// a write whose value failed is still recorded from its pointer;
/// proofs deferred and added later give the report a proving check gives.
//===----------------------------------------------------------------------===//
#include "diagnostics/Check.h"

#include "compiler/analysis/BoundsCache.h"

#include <gtest/gtest.h>

using namespace tessel;

TEST(CheckFile, BrokenLineGetsOnlyItsSyntaxError) {
  // The load on the broken line would otherwise also be an unmasked-axis
  // warning (TS201); the same load on an intact line still is one.
  std::string Src = "import triton\nimport triton.language as tl\n\n@triton.jit\n"
                    "def k(x_ptr, BLOCK: tl.constexpr = 128):\n"
                    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                    "    x = tl.load(x_ptr + offs);;\n"
                    "    y = tl.load(x_ptr + offs)\n";
  diag::FileReport R = diag::checkFile(ParsedFile::parse(std::make_shared<SourceText>(Src, "t.py")));
  std::vector<std::string> Codes;
  for (const diag::Finding &F : R.Findings)
    Codes.push_back(std::string(F.code()) + "@" +
                    std::to_string(R.Analysis->File->text().lineCol(F.Range.Begin).Line + 1));
  EXPECT_EQ(Codes, (std::vector<std::string>{"TS001@7", "TS201@8"}));
}

TEST(CheckFile, WithoutValueFactsTheFindingsAreTheSame) {
  // `tessel check` skips the hover facts; the findings must not depend on it.
  std::string Src = "import triton\nimport triton.language as tl\n\n@triton.jit\n"
                    "def k(x_ptr, n, BLOCK: tl.constexpr = 128):\n"
                    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                    "    x = tl.load(x_ptr + offs)\n"
                    "    tl.store(x_ptr + offs, x * 2, mask=offs < n)\n";
  auto File = ParsedFile::parse(std::make_shared<SourceText>(Src, "t.py"));
  diag::FileReport With = diag::checkFile(File);
  diag::FileReport Without = diag::checkFile(File, {.KeepValueFacts = false});
  auto Summary = [](const diag::FileReport &R) {
    std::string S;
    for (const diag::Finding &F : R.Findings)
      S += std::string(F.code()) + " " + std::to_string(F.Range.Begin) + " " + F.Message + "\n";
    return S;
  };
  EXPECT_EQ(Summary(Without), Summary(With));
  EXPECT_NE(Summary(With), "");
  ASSERT_FALSE(With.Analysis->Kernels.empty());
  EXPECT_FALSE(With.Analysis->Kernels[0].Values.empty());
  EXPECT_TRUE(Without.Analysis->Kernels[0].Values.empty());
  // The parameters' facts sit on their names.
  const sema::ValueFact &First = With.Analysis->Kernels[0].Values[0];
  EXPECT_EQ(First.Name, "x_ptr");
  EXPECT_EQ(Src.substr(First.Range.Begin, First.Range.End - First.Range.Begin), "x_ptr");
}

TEST(CheckFile, DeferredProofsAddedLaterEqualAProvedCheck) {
  // The language server publishes before proving (CheckOptions::DeferProofs)
  // and adds the verdicts later (withProofs): the result must be the report
  // a proving check gives, here a TS203 on one kernel, the TS201 the prover
  // decides dropped, and nothing on the kernel the previous version proved.
  std::string Src = "import triton\nimport triton.language as tl\n\n@triton.jit\n"
                    "def ok(x_ptr, n, BLOCK: tl.constexpr = 128):\n"
                    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                    "    tl.store(x_ptr + offs, 1.0, mask=offs < n)\n"
                    "\n@triton.jit\n"
                    "def le(x_ptr, n, BLOCK: tl.constexpr = 128):\n"
                    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                    "    x = tl.load(x_ptr + offs, mask=offs <= n)\n"
                    "    tl.store(x_ptr + offs, x)\n";
  auto Summary = [](const diag::FileReport &R) {
    std::string S;
    for (const diag::Finding &F : R.Findings)
      S += std::string(F.code()) + " " + std::to_string(F.Range.Begin) + " " + F.Message + "\n";
    return S;
  };
  auto File = ParsedFile::parse(std::make_shared<SourceText>(Src, "t.py"));
  diag::CheckOptions Prove{.Prove = true};
  diag::FileReport Fresh = diag::checkFile(File, Prove);
  ASSERT_NE(Summary(Fresh).find("TS203"), std::string::npos) << Summary(Fresh);

  analysis::clearBoundsCache();
  diag::CheckOptions Defer = Prove;
  Defer.DeferProofs = true;
  diag::FileReport Front = diag::checkFile(File, Defer);
  EXPECT_TRUE(Front.Bounds.empty());
  EXPECT_EQ(Front.Unproved, (std::vector<std::string>{"ok", "le"}));
  EXPECT_EQ(Summary(Front), Summary(diag::checkFile(File)));

  // Proved in two steps, in the reverse order, as an interrupted run would.
  auto Prove1 = [&](const diag::FileReport &R, const std::string &Name) {
    analysis::FileProofs P(*R.Analysis, {});
    for (const sema::KernelRecord &Rec : R.Analysis->Records)
      if (Rec.Kernel == Name)
        return P.prove(Rec);
    ADD_FAILURE() << Name;
    return analysis::KernelBounds{};
  };
  diag::FileReport Half = diag::withProofs(Front, {Prove1(Front, "le")});
  EXPECT_EQ(Half.Unproved, (std::vector<std::string>{"ok"}));
  diag::FileReport Whole = diag::withProofs(Half, {Prove1(Half, "ok")});
  EXPECT_TRUE(Whole.Unproved.empty());
  EXPECT_EQ(Summary(Whole), Summary(Fresh));
  ASSERT_EQ(Whole.Bounds.size(), Fresh.Bounds.size());
  for (size_t I = 0; I < Whole.Bounds.size(); ++I)
    EXPECT_EQ(Whole.Bounds[I].Kernel, Fresh.Bounds[I].Kernel);

  // The next version, an edit inside `le`: `ok`'s verdicts come from the
  // previous report, only `le` is left to prove.
  std::string Edited = Src;
  Edited.insert(Edited.find("    tl.store(x_ptr + offs, x)"), "    y = 1\n");
  auto Next = ParsedFile::parse(std::make_shared<SourceText>(Edited, "t.py"));
  analysis::clearBoundsCache();
  diag::FileReport NextFront = diag::checkFile(Next, Defer, Whole);
  EXPECT_EQ(NextFront.Unproved, (std::vector<std::string>{"le"}));
  diag::FileReport NextWhole = diag::withProofs(NextFront, {Prove1(NextFront, "le")});
  EXPECT_EQ(Summary(NextWhole), Summary(diag::checkFile(Next, Prove)));
}

TEST(CheckFile, AWriteWhoseValueFailedStillWritesWhereItsPointerSays) {
  // gemlite's GEMV (issue 30): the value of `tl.atomic_add(c_ptrs, acc)` is
  // one tessel cannot type (here read through a host tensor descriptor), but
  // the write past N is the pointer's: it is still reported (line 9); the
  // masked store beside it is not (line 10). After an error (kernel j, line
  // 14) Triton stops: nothing more is said of the write (line 15).
  std::string Src = "import triton\nimport triton.language as tl\n\n@triton.jit\n"         // 1-4
                    "def k(desc, out_ptr, N, BLOCK_N: tl.constexpr):\n"                    // 5
                    "    offs_n = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)\n"    // 6
                    "    acc = desc.load([0, 0])\n"                                        // 7
                    "    acc = acc * 2\n"                                                  // 8
                    "    tl.atomic_add(out_ptr + offs_n, acc)\n"                           // 9
                    "    tl.store(out_ptr + offs_n, acc, mask=offs_n < N)\n"               // 10
                    "@triton.jit\n"                                                        // 11
                    "def j(x_ptr, out_ptr, N, BLOCK_N: tl.constexpr):\n"                   // 12
                    "    offs_n = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)\n"    // 13
                    "    acc = tl.sum(tl.load(x_ptr + offs_n, mask=offs_n < N), axis=3)\n" // 14
                    "    tl.atomic_add(out_ptr + offs_n, acc)\n"                           // 15
                    "def run(d, x, out, N):\n"                                             // 16
                    "    k[(triton.cdiv(N, 1024),)](d, out, N, BLOCK_N=1024)\n"            // 17
                    "    j[(triton.cdiv(N, 1024),)](x, out, N, BLOCK_N=1024)\n";           // 18
  diag::FileReport R = diag::checkFile(ParsedFile::parse(std::make_shared<SourceText>(Src, "t.py")));
  std::vector<std::string> Codes;
  for (const diag::Finding &F : R.Findings)
    Codes.push_back(std::string(F.code()) + "@" +
                    std::to_string(R.Analysis->File->text().lineCol(F.Range.Begin).Line + 1));
  ASSERT_EQ(Codes.size(), 2u) << ::testing::PrintToString(Codes);
  EXPECT_EQ(Codes[0], "TS201@9");
  EXPECT_EQ(Codes[1].substr(Codes[1].find('@')), "@14");
}

TEST(CheckFile, GroupedOrderingSlidesUnderACdivGrid) {
  // Issue 30's missed bug: the program's row of tiles comes through grouped
  // ordering (`first_pid_m + pid % group_size_m`, the Triton tutorial's
  // GROUP_M), so offs_m still slides a block at a time and the unmasked tail
  // store (line 12) writes past M under a cdiv grid; the masked store beside
  // it (line 13) and a head picked by `pid % H` (line 15: a window of a
  // row, not a sliding block) are fine.
  std::string Src = "import triton\nimport triton.language as tl\n\n@triton.jit\n"        // 1-4
                    "def k(c_ptr, M, N, BLOCK_M: tl.constexpr, GROUP_M: tl.constexpr):\n" // 5
                    "    pid = tl.program_id(0)\n"                                        // 6
                    "    num_pid_m = tl.cdiv(M, BLOCK_M)\n"                               // 7
                    "    first_pid_m = (pid // GROUP_M) * GROUP_M\n"                      // 8
                    "    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)\n"          // 9
                    "    pid_m = first_pid_m + (pid % group_size_m)\n"                    // 10
                    "    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)\n"              // 11
                    "    tl.store(c_ptr + offs_m, 1.0)\n"                                 // 12
                    "    tl.store(c_ptr + offs_m, 2.0, mask=offs_m < M)\n"                // 13
                    "    head = pid % 4\n"                                                // 14
                    "    tl.store(c_ptr + head * BLOCK_M + tl.arange(0, BLOCK_M), 3.0)\n" // 15
                    "def run(c, M, N):\n"                                                 // 16
                    "    k[(triton.cdiv(M, 64),)](c, M, N, BLOCK_M=64, GROUP_M=8)\n";     // 17
  diag::FileReport R = diag::checkFile(ParsedFile::parse(std::make_shared<SourceText>(Src, "t.py")));
  std::vector<std::string> Codes;
  for (const diag::Finding &F : R.Findings)
    Codes.push_back(std::string(F.code()) + "@" +
                    std::to_string(R.Analysis->File->text().lineCol(F.Range.Begin).Line + 1));
  EXPECT_EQ(Codes, std::vector<std::string>{"TS201@12"});
}

TEST(CheckFile, ACdivByOneIsAPlainCount) {
  // gemlite's per-token scales (issue 30): `BLOCK_M = 1; UNROLL = 1` and a
  // grid of `cdiv(M, BLOCK_M * UNROLL)` programs, one per row: no program
  // covers a partial block, so the unmasked store of the row's scale is in
  // bounds. With BLOCK_M = 2 the last block can be partial again.
  auto Codes = [](const std::string &Block) {
    std::string Src = "import triton\nimport triton.language as tl\n\n@triton.jit\n"
                      "def k(s_ptr, M, BLOCK_M: tl.constexpr):\n"
                      "    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)\n"
                      "    tl.store(s_ptr + offs_m, 1.0)\n"
                      "def run(s, M):\n"
                      "    BLOCK_M = " +
                      Block +
                      "\n"
                      "    UNROLL = 1\n"
                      "    grid = (triton.cdiv(M, BLOCK_M * UNROLL),)\n"
                      "    k[grid](s, M, BLOCK_M=BLOCK_M)\n";
    diag::FileReport R = diag::checkFile(ParsedFile::parse(std::make_shared<SourceText>(Src, "t.py")));
    std::string Out;
    for (const diag::Finding &F : R.Findings)
      Out += std::string(F.code()) + " ";
    return Out;
  };
  EXPECT_EQ(Codes("1"), "");
  EXPECT_EQ(Codes("2"), "TS201 ");
}
