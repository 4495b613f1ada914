//===- JitSamplesTest.cpp - `tessel check --jit` on the samples -----------===//
/// \file
/// The JIT tier (diag::jitCheckFile) against the `# jit:` expectations of
/// samples/bugs/ts4*.py: every expectation is met by a finding of that code
/// and severity on the line above it, whose range's text is the quoted
/// snippet and whose message starts with the given text, and every JIT
/// finding of those files is expected. The tutorial-class samples get no
/// register-spill or compile-failure finding. Needs an assembler (CI has
/// ptxas); without one the test is skipped.
//===----------------------------------------------------------------------===//
#include "compiler/backend/Assemble.h"
#include "compiler/backend/Toolkit.h"
#include "compiler/frontend/Parser.h"
#include "compiler/sema/LaunchPlan.h"
#include "diagnostics/Check.h"
#include "diagnostics/JitCheck.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

using namespace tessel;
namespace fs = std::filesystem;

namespace {

struct JitExpectation {
  uint32_t Line; ///< 0-based line of the finding
  std::string Severity, Code, Snippet, Message;
};

std::string readSource(const std::string &Rel) {
  std::ifstream In(std::string(TESSEL_SOURCE_DIR) + "/" + Rel, std::ios::binary);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

std::vector<JitExpectation> readJitExpectations(const std::string &Text) {
  std::vector<std::string> Lines;
  std::stringstream SS(Text);
  for (std::string L; std::getline(SS, L);)
    Lines.push_back(L);
  static const std::regex Format(R"(^\s*# jit: (error|warning|note)\[(TS\d{3})\] `([^`]+)`: (.+)$)");
  std::vector<JitExpectation> Out;
  auto IsJitLine = [&](size_t I) { return Lines[I].find_first_not_of(' ') == Lines[I].find("# jit:"); };
  for (size_t I = 0; I < Lines.size(); ++I) {
    if (Lines[I].find("# jit:") == std::string::npos || !IsJitLine(I))
      continue;
    std::smatch M;
    EXPECT_TRUE(std::regex_match(Lines[I], M, Format)) << "malformed `# jit:` line " << I + 1;
    // The finding is on the code line above this run of `# jit:` lines
    // (and of the front tier's caret annotations, `# ^^^ ...`).
    auto IsCaretLine = [&](size_t J) {
      size_t At = Lines[J].find_first_not_of(' ');
      return At != std::string::npos && Lines[J].compare(At, 3, "# ^") == 0;
    };
    size_t Target = I;
    while (Target > 0 && (IsJitLine(Target - 1) || IsCaretLine(Target - 1)))
      --Target;
    if (M.empty() || Target == 0)
      continue;
    Out.push_back({uint32_t(Target - 1), M[1], M[2], M[3], M[4]});
  }
  return Out;
}

bool haveAssembler() {
  const backend::Toolkit &T = backend::toolkit();
  return !T.Libdevice.empty() && (backend::hasAssembler(T, backend::AssemblerKind::Ptxas) ||
                                  backend::hasAssembler(T, backend::AssemblerKind::NvJitLink));
}

diag::JitReport jitCheck(const std::string &Rel, std::shared_ptr<const ParsedFile> &File, const char *Arch = "sm_90a") {
  File = ParsedFile::parse(std::make_shared<SourceText>(readSource(Rel), Rel));
  diag::FileReport Front = diag::checkFile(File);
  diag::JitCheckOptions Opts;            // in process, no cache
  Opts.Arch = *backend::parseArch(Arch); // `tessel check --jit`'s default: an H100's, as Triton compiles for it
  return diag::jitCheckFile(*File, Front.Analysis->Info, Front.Findings, Opts);
}

class JitBugSample : public testing::TestWithParam<std::string> {};

} // namespace

TEST_P(JitBugSample, MatchesItsJitExpectations) {
  if (!haveAssembler())
    GTEST_SKIP() << "no CUDA toolkit";
  const std::string &Rel = GetParam();
  std::shared_ptr<const ParsedFile> File;
  diag::JitReport R = jitCheck(Rel, File);
  std::vector<JitExpectation> Expected = readJitExpectations(readSource(Rel));
  ASSERT_FALSE(Expected.empty()) << Rel << " has no `# jit:` line";
  std::vector<bool> Met(R.Findings.size(), false);
  for (const JitExpectation &E : Expected) {
    bool Found = false;
    for (size_t I = 0; I < R.Findings.size(); ++I) {
      const diag::Finding &F = R.Findings[I];
      if (Met[I] || F.code() != E.Code || diag::severityName(F.Sev) != E.Severity ||
          File->text().lineCol(F.Range.Begin).Line != E.Line || File->text().slice(F.Range) != E.Snippet ||
          F.Message.rfind(E.Message, 0) != 0)
        continue;
      Met[I] = Found = true;
      break;
    }
    EXPECT_TRUE(Found) << Rel << ":" << E.Line + 1 << ": no " << E.Severity << "[" << E.Code << "] `" << E.Snippet
                       << "`: " << E.Message;
  }
  for (size_t I = 0; I < R.Findings.size(); ++I)
    EXPECT_TRUE(Met[I]) << Rel << ":" << File->text().lineCol(R.Findings[I].Range.Begin).Line + 1 << ": unexpected "
                        << R.Findings[I].code() << ": " << R.Findings[I].Message << " [" << R.Findings[I].Specialization
                        << "]";
}

static std::vector<std::string> jitSamples() {
  std::vector<std::string> Out;
  for (const fs::directory_entry &E : fs::directory_iterator(fs::path(TESSEL_SOURCE_DIR) / "samples/bugs"))
    if (E.path().filename().string().rfind("ts4", 0) == 0 && E.path().extension() == ".py")
      Out.push_back("samples/bugs/" + E.path().filename().string());
  std::sort(Out.begin(), Out.end());
  return Out;
}

INSTANTIATE_TEST_SUITE_P(Samples, JitBugSample, testing::ValuesIn(jitSamples()),
                         [](const testing::TestParamInfo<std::string> &I) {
                           std::string N = fs::path(I.param).stem().string();
                           for (char &C : N)
                             if (!std::isalnum(static_cast<unsigned char>(C)))
                               C = '_';
                           return N;
                         });

TEST(JitSamples, SpillFindingNamesTheConfig) {
  if (!haveAssembler())
    GTEST_SKIP() << "no CUDA toolkit";
  std::shared_ptr<const ParsedFile> File;
  diag::JitReport R = jitCheck("samples/bugs/ts401_register_spill.py", File);
  const diag::Finding *Spill = nullptr;
  for (const diag::Finding &F : R.Findings)
    if (F.code() == "TS401")
      Spill = &F;
  ASSERT_TRUE(Spill);
  EXPECT_EQ(Spill->Specialization, "BLOCK=16384, num_warps=1, num_stages=3");
  ASSERT_EQ(Spill->Related.size(), 1u);
  EXPECT_EQ(File->text().slice(Spill->Related[0].Range), "triton.Config({'BLOCK': 16384}, num_warps=1)");
  EXPECT_NE(Spill->Message.find("registers (sm_90a)"), std::string::npos) << Spill->Message;
}

// A dot's spill is Triton's where the dot runs on wgmma (sm_90a) and may be
// tessel's own on mma.sync (sm_80): the same 256x256 config spills on both,
// and only the first is a finding.
TEST(JitSamples, ADotSpillIsReportedWhereTheDotIsTritons) {
  if (!haveAssembler())
    GTEST_SKIP() << "no CUDA toolkit";
  const std::string Rel = "samples/bugs/ts401_register_spill_dot.py";
  std::shared_ptr<const ParsedFile> File;
  auto Spills = [](const diag::JitReport &R) {
    std::vector<std::string> Out;
    for (const diag::Finding &F : R.Findings)
      if (F.code() == "TS401")
        Out.push_back(F.Specialization);
    return Out;
  };
  EXPECT_EQ(Spills(jitCheck(Rel, File, "sm_90a")),
            std::vector<std::string>{"BM=256, BN=256, BK=64, num_warps=4, num_stages=3"});
  EXPECT_TRUE(Spills(jitCheck(Rel, File, "sm_80")).empty());
}

// The editor keeps a summary per kernel and config all day: the compiled
// texts must be gone from it, buffers included.
TEST(JitSamples, ASummaryKeepsNoCompiledText) {
  if (!haveAssembler())
    GTEST_SKIP() << "no CUDA toolkit";
  auto File = ParsedFile::parse(std::make_shared<SourceText>(readSource("samples/vector_add.py"), "vector_add.py"));
  diag::FileReport Front = diag::checkFile(File);
  std::vector<const JitFunction *> Kernels = diag::jitKernels(Front.Analysis->Info, Front.Findings);
  ASSERT_FALSE(Kernels.empty());
  diag::ConfigJitReport R =
      diag::jitCheckConfig(*File, Front.Analysis->Info, *Kernels.front(), std::nullopt, diag::JitCheckOptions());
  ASSERT_TRUE(R.Summary && R.Summary->Compiled) << (R.Summary ? R.Summary->Failure : "no summary");
  EXPECT_GT(R.Summary->Compiled->Resources.Registers, 0u);
  const backend::CompiledKernel &K = *R.Summary->Compiled;
  for (const std::string *Text : {&K.Cubin, &K.Ptx, &K.Llvm, &K.AssemblerLog})
    EXPECT_LE(Text->capacity(), std::string().capacity()) << "a compiled text kept its buffer";
}

// Every tutorial-class kernel compiles to a cubin for sm_80 and sm_90, with
// Triton's entry signature and no spill: every config of the element-wise
// and reduction samples, the first config of matmul and attention (their FMA
// dots take ptxas seconds per config; bench/jit compiles all of them).
TEST(JitSamples, TutorialSamplesCompileCleanly) {
  if (!haveAssembler())
    GTEST_SKIP() << "no CUDA toolkit";
  for (const char *Name : {"vector_add", "fused_softmax", "layer_norm", "matmul", "dropout", "attention"})
    for (const char *Arch : {"sm_80", "sm_90"}) {
      std::string Rel = std::string("samples/") + Name + ".py";
      auto File = ParsedFile::parse(std::make_shared<SourceText>(readSource(Rel), Rel));
      diag::FileReport Front = diag::checkFile(File);
      const ModuleInfo &Info = Front.Analysis->Info;
      bool FirstOnly = std::string(Name) == "matmul" || std::string(Name) == "attention";
      size_t Compiled = 0;
      for (const std::string &Kernel : Info.Order) {
        const JitFunction &Fn = Info.Jit.at(Kernel);
        if (!Fn.IsKernel || !Fn.Def)
          continue;
        size_t Configs = Fn.Configs.empty() || FirstOnly ? 1 : Fn.Configs.size();
        for (size_t C = 0; C < Configs; ++C) {
          sema::LaunchPlanOptions PO;
          if (!Fn.Configs.empty())
            PO.Config = C;
          sema::LaunchPlan Plan = sema::planLaunch(*File, Info, Kernel, PO);
          ASSERT_FALSE(Plan.Launches.empty()) << Rel << " " << Kernel << ": " << Plan.Error;
          backend::KernelJitOptions KO;
          KO.Arch = *backend::parseArch(Arch);
          backend::KernelJitResult R = backend::jitKernel(*File, Info, Plan.Launches.front().Request, KO);
          for (const Problem &P : R.Problems)
            ADD_FAILURE() << Rel << " " << Arch << " config " << C << ": " << P.Message;
          ASSERT_TRUE(R.Kernel) << Rel << " " << Arch << " config " << C << ": " << R.Error;
          const backend::CompiledKernel &K = *R.Kernel;
          ++Compiled;
          EXPECT_EQ(K.Entry, Kernel);
          EXPECT_EQ(K.Cubin.substr(0, 4), "\x7f"
                                          "ELF");
          EXPECT_GT(K.Resources.Registers, 0u) << Kernel;
          if (!K.FmaDot)
            EXPECT_EQ(K.Resources.spillBytes(), 0u) << Rel << " " << Arch << " config " << C;
          EXPECT_EQ(K.ReqNtid, unsigned(32 * Plan.Launches.front().Request.NumWarps));
          // Triton's parameter list: the non-constexpr arguments but those equal
          // to 1, in order, then the two scratch pointers, each as Triton prints it.
          const sema::LoweringRequest &Req = Plan.Launches.front().Request;
          size_t Expected = 2;
          for (const auto &[Arg, Ty] : Req.ArgTypes)
            Expected += !Req.EqualToOne.count(Arg);
          ASSERT_EQ(K.Params.size(), Expected) << Rel << " " << Kernel;
          EXPECT_EQ(K.Params[K.Params.size() - 1].Type, ".u64 .ptr .global .align 1");
          EXPECT_EQ(K.Params[K.Params.size() - 2].Type, ".u64 .ptr .global .align 1");
          for (const backend::PtxParam &P : K.Params)
            EXPECT_TRUE(P.Type == ".u64 .ptr .global .align 1" || P.Type == ".u32" || P.Type == ".u64" ||
                        P.Type == ".f32" || P.Type == ".u8")
                << Kernel << ": " << P.Type;
        }
      }
      EXPECT_GT(Compiled, 0u) << Rel;
    }
}

// Configs a list comprehension writes share one source place: the configs the
// autotuner drops there are one warning naming each, not one squiggle each on
// the same line (Triton's tutorial 09 gave 12 at one line).
TEST(JitSamples, ConfigsOfOneComprehensionOverflowAsOneWarning) {
  if (!haveAssembler())
    GTEST_SKIP() << "no CUDA toolkit";
  std::string Src = "import triton\nimport triton.language as tl\n\n"
                    "@triton.autotune(configs=[triton.Config({'BLOCK_K': bk}, num_warps=4, num_stages=1)\n"
                    "                          for bk in (32, 2048, 4096)], key=['K'])\n"
                    "@triton.jit\n"
                    "# tessel: launch K=4096 a_ptr=fp16[64, K] b_ptr=fp16[K, 64] c_ptr=fp32[64, 64]:out grid=(1,)\n"
                    "def mm(a_ptr, b_ptr, c_ptr, K, BLOCK_K: tl.constexpr):\n"
                    "    r = tl.arange(0, 64)\n"
                    "    k = tl.arange(0, BLOCK_K)\n"
                    "    acc = tl.zeros((64, 64), dtype=tl.float32)\n"
                    "    for s in range(0, K, BLOCK_K):\n"
                    "        a = tl.load(a_ptr + r[:, None] * K + (s + k)[None, :])\n"
                    "        b = tl.load(b_ptr + (s + k)[:, None] * 64 + r[None, :])\n"
                    "        acc += tl.dot(a, b)\n"
                    "    tl.store(c_ptr + r[:, None] * 64 + r[None, :], acc)\n";
  auto File = ParsedFile::parse(std::make_shared<SourceText>(Src, "mm.py"));
  diag::FileReport Front = diag::checkFile(File);
  diag::JitReport R = diag::jitCheckFile(*File, Front.Analysis->Info, Front.Findings, diag::JitCheckOptions());
  std::vector<const diag::Finding *> Over;
  for (const diag::Finding &F : R.Findings)
    if (F.code() == "TS404")
      Over.push_back(&F);
  ASSERT_EQ(Over.size(), 1u);
  const diag::Finding &F = *Over[0];
  EXPECT_EQ(F.Sev, diag::Severity::Warning);
  EXPECT_TRUE(F.Specialization.empty()) << F.Specialization;
  EXPECT_NE(F.Message.find("@triton.autotune skips these 2 of `mm`'s 3 configs: BLOCK_K=2048, num_warps=4, "
                           "num_stages=1 ("),
            std::string::npos)
      << F.Message;
  EXPECT_NE(F.Message.find("; BLOCK_K=4096, num_warps=4, num_stages=1 ("), std::string::npos) << F.Message;
  EXPECT_EQ(F.Message.find("BLOCK_K=32,"), std::string::npos) << F.Message;
}
