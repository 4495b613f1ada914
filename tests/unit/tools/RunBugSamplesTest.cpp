//===- RunBugSamplesTest.cpp - what running the samples reports ------------===//
/// \file
/// Runs every kernel that has a `# tessel: launch` directive in the masking
/// and run-time bug samples (samples/bugs/ts2*, ts3*) and in the tutorial
/// samples, exactly as `tessel run` does (tools::runKernel), and compares the
/// TS3xx findings with the `# run:` expectations the files carry below the
/// offending line:
///
///     x = tl.load(x_ptr + offs)
///     # run: error[TS301] `tl.load(x_ptr + offs)`: 72 out-of-bounds loads of x_ptr[3000..3071] ...
///
/// The backquoted text is the start of the finding's range, the rest a
/// prefix of its message (which names the count, the element offsets, the
/// tensor's size, the first program id and lane). Every expectation must be
/// met and every finding expected, so a clean kernel reports nothing. Check
/// annotations (`# ^^^ ...`) between the code and the `# run:` line are
/// skipped over.
//===----------------------------------------------------------------------===//
#include "RunSupport.h"

#include "tools/KernelRun.h"

#include <algorithm>
#include <filesystem>
#include <regex>

using namespace tessel;
using namespace tessel::test;
namespace fs = std::filesystem;

namespace {

struct RunExpectation {
  uint32_t Line = 0; ///< 0-based line of the offending code
  std::string Code;
  std::string RangeText;
  std::string Message;
};

bool isAnnotation(std::string_view Line) {
  size_t I = Line.find_first_not_of(" \t");
  if (I == std::string_view::npos)
    return false;
  Line.remove_prefix(I);
  return Line.rfind("# ^", 0) == 0 || Line.rfind("# run:", 0) == 0;
}

std::vector<RunExpectation> readRunExpectations(const std::string &Text, std::vector<std::string> &Malformed) {
  std::vector<std::string> Lines;
  std::stringstream SS(Text);
  for (std::string L; std::getline(SS, L);)
    Lines.push_back(L);
  static const std::regex Format(R"(^\s*# run: (error|warning)\[(TS\d{3})\] `([^`]+)`: (.+)$)");
  std::vector<RunExpectation> Out;
  for (size_t I = 0; I < Lines.size(); ++I) {
    if (Lines[I].find("# run:") == std::string::npos || !isAnnotation(Lines[I]))
      continue;
    std::smatch M;
    if (!std::regex_match(Lines[I], M, Format)) {
      Malformed.push_back(std::to_string(I + 1) + ": " + Lines[I]);
      continue;
    }
    size_t Target = I;
    while (Target > 0 && isAnnotation(Lines[Target - 1]))
      --Target;
    if (Target == 0) {
      Malformed.push_back(std::to_string(I + 1) + ": no code line above");
      continue;
    }
    Out.push_back({static_cast<uint32_t>(Target - 1), M[2], M[3], M[4]});
  }
  return Out;
}

std::vector<std::string> runSampleFiles() {
  std::vector<std::string> Out;
  fs::path Root = TESSEL_SOURCE_DIR;
  for (const char *Dir : {"samples", "samples/bugs"})
    for (const fs::directory_entry &E : fs::directory_iterator(Root / Dir)) {
      std::string Name = E.path().filename().string();
      if (E.path().extension() != ".py")
        continue;
      if (std::string(Dir) == "samples/bugs" && Name.rfind("ts2", 0) != 0 && Name.rfind("ts3", 0) != 0)
        continue;
      Out.push_back(std::string(Dir) + "/" + Name);
    }
  std::sort(Out.begin(), Out.end());
  return Out;
}

class RunBugSample : public ::testing::TestWithParam<std::string> {};

TEST_P(RunBugSample, ReportsExactlyTheExpectedRunFindings) {
  const std::string Rel = GetParam();
  std::string Text = readSource(Rel);
  auto File = ParsedFile::parse(std::make_shared<SourceText>(Text, Rel));
  lsp::LineIndex Index(Text);
  std::vector<std::string> Malformed;
  std::vector<RunExpectation> Expected = readRunExpectations(Text, Malformed);
  for (const std::string &M : Malformed)
    ADD_FAILURE() << Rel << ":" << M << ": malformed `# run:` expectation";

  ProblemSink Sink;
  ModuleInfo Info = discover(File->module(), Sink);
  std::vector<bool> Met(Expected.size(), false);
  std::vector<std::string> Limited;
  size_t Runs = 0;
  for (const std::string &Kernel : Info.Order) {
    const JitFunction &Fn = Info.Jit.at(Kernel);
    if (!Fn.IsKernel || !Fn.Def)
      continue;
    if (sema::planLaunch(*File, Info, Kernel).Origin != sema::SpecOrigin::Directive)
      continue;
    tools::RunReport Report;
    std::string Error;
    ASSERT_TRUE(tools::runKernel(*File, Rel, Kernel, {}, Report, Error)) << Error;
    bool Limit = false;
    for (const diag::Finding &F : Report.Findings) {
      if (F.Message.find("not supported by tessel's lowering yet") != std::string::npos)
        Limit = true;
      else
        ADD_FAILURE() << Rel << " " << Kernel << ": " << F.Message;
    }
    if (Limit) {
      Limited.push_back(Kernel);
      continue;
    }
    ++Runs;
    for (const tools::InstanceReport &I : Report.Instances) {
      EXPECT_TRUE(I.Error.empty()) << Rel << " " << Kernel << ": " << I.Error;
      for (const diag::Finding &F : I.Findings) {
        uint32_t Line = Index.position(F.Range.Begin, lsp::PositionEncoding::UTF8).Line;
        std::string_view RangeText = File->text().slice(F.Range);
        bool Found = false;
        for (size_t E = 0; E < Expected.size() && !Found; ++E) {
          const RunExpectation &X = Expected[E];
          if (Met[E] || X.Line != Line || X.Code != F.code() || RangeText.rfind(X.RangeText, 0) != 0 ||
              F.Message.rfind(X.Message, 0) != 0)
            continue;
          Met[E] = Found = true;
        }
        EXPECT_TRUE(Found) << Rel << ":" << Line + 1 << ": unexpected " << F.code() << " in " << Kernel << " at `"
                           << RangeText << "`: " << F.Message;
      }
    }
  }
  for (size_t E = 0; E < Expected.size(); ++E) {
    if (Met[E])
      continue;
    // A kernel the lowering cannot handle yet did not run: its expectations cannot be met.
    bool InLimitedKernel = false;
    for (const std::string &K : Limited) {
      const ast::FunctionDefStmt *Def = Info.Jit.at(K).Def;
      uint32_t Begin = Index.position(Def->Range.Begin, lsp::PositionEncoding::UTF8).Line;
      uint32_t End = Index.position(Def->Range.End, lsp::PositionEncoding::UTF8).Line;
      InLimitedKernel |= Expected[E].Line >= Begin && Expected[E].Line <= End;
    }
    if (!InLimitedKernel)
      ADD_FAILURE() << Rel << ":" << Expected[E].Line + 1 << ": expected " << Expected[E].Code << " at `"
                    << Expected[E].RangeText << "`: " << Expected[E].Message << "\n  but the run did not report it";
  }
  if (!Limited.empty()) {
    std::string Names;
    for (const std::string &K : Limited)
      Names += " " + K;
    std::cout << "[ lowering limit ] " << Rel << ": not run:" << Names << "\n";
  }
  EXPECT_TRUE(Runs > 0 || !Limited.empty()) << Rel << " has no kernel with a launch directive";
}

std::string testName(const ::testing::TestParamInfo<std::string> &Info) {
  std::string Name = fs::path(Info.param).replace_extension().generic_string().substr(8);
  for (char &C : Name)
    if (!std::isalnum(static_cast<unsigned char>(C)))
      C = '_';
  return Name;
}

INSTANTIATE_TEST_SUITE_P(Samples, RunBugSample, ::testing::ValuesIn(runSampleFiles()), testName);

// The expectations that name run-time codes are read by this test, so it must
// see at least one for every TS3xx code (AnnotatedSamplesTest requires the fixture files).
TEST(RunBugSamples, EveryRunCodeIsExpectedSomewhere) {
  std::set<std::string> Seen;
  for (const std::string &Rel : runSampleFiles()) {
    std::vector<std::string> Malformed;
    for (const RunExpectation &X : readRunExpectations(readSource(Rel), Malformed))
      Seen.insert(X.Code);
  }
  // TS304 needs a GPU: its fixture's `# run --gpu:` line is checked by GpuRunTest where one is present.
  for (const diag::CodeInfo &Info : diag::allCodes())
    if (Info.Code.rfind("TS3", 0) == 0 && Info.Code != "TS304")
      EXPECT_TRUE(Seen.count(std::string(Info.Code))) << "no `# run:` expectation for " << Info.Code;
}

} // namespace
