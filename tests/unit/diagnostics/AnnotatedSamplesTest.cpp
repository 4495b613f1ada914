//===- AnnotatedSamplesTest.cpp - every sample against its annotations ----===//
/// \file
/// Runs diag::checkFile on each file under samples/, samples/bugs/, samples/prover/ and
/// samples/realcode/ (reproducers from real libraries) and compares the findings with the caret
/// annotations in the file
/// (Annotations.h): every annotation must be matched by a finding with the
/// same code, severity, start line and column, end column (for a range on
/// one line) and a message that starts with the annotated text; every
/// finding must be annotated. The tutorial-class samples carry no
/// annotations, so the same rule says they check clean. A mismatch prints
/// both sides with line numbers and the source line.
//===----------------------------------------------------------------------===//
#include "Annotations.h"

#include "diagnostics/Check.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace tessel;
namespace fs = std::filesystem;

namespace {

const fs::path SourceDir = TESSEL_SOURCE_DIR;

std::string readFile(const fs::path &P) {
  std::ifstream In(P, std::ios::binary);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

/// samples/*.py, samples/bugs/*.py, samples/prover/*.py and samples/realcode/*.py, relative
/// to the repository root, sorted.
std::vector<std::string> sampleFiles() {
  std::vector<std::string> Files;
  for (const char *Dir : {"samples", "samples/bugs", "samples/prover", "samples/realcode"}) {
    std::error_code EC;
    for (const fs::directory_entry &E : fs::directory_iterator(SourceDir / Dir, EC))
      if (E.is_regular_file() && E.path().extension() == ".py")
        Files.push_back(fs::relative(E.path(), SourceDir).generic_string());
  }
  std::sort(Files.begin(), Files.end());
  return Files;
}

/// A finding in the same terms as an annotation.
struct GotFinding {
  uint32_t Line = 0, StartColumn = 0, EndColumn = 0;
  bool SingleLine = true;
  std::string Severity, Code, Message;
};

std::string describe(const GotFinding &G) {
  return std::to_string(G.Line + 1) + ":" + std::to_string(G.StartColumn + 1) + "-" +
         (G.SingleLine ? std::to_string(G.EndColumn + 1) : std::string("(next lines)")) + ": " + G.Severity + "[" +
         G.Code + "]: " + G.Message;
}

GotFinding toGot(const diag::Finding &F, const SourceText &Text) {
  LineCol Begin = Text.lineCol(F.Range.Begin), End = Text.lineCol(F.Range.End);
  GotFinding G;
  G.Line = Begin.Line;
  G.StartColumn = Begin.Column;
  G.SingleLine = End.Line == Begin.Line;
  G.EndColumn = G.SingleLine ? End.Column : 0;
  G.Severity = std::string(diag::severityName(F.Sev));
  G.Code = std::string(F.code());
  G.Message = F.Message;
  return G;
}

bool matches(const test::ExpectedFinding &E, const GotFinding &G) {
  if (E.Code != G.Code || E.Severity != G.Severity || E.Line != G.Line || E.StartColumn != G.StartColumn)
    return false;
  // An empty range (a missing token) is drawn as one caret.
  bool EndOk =
      !G.SingleLine || E.EndColumn == G.EndColumn || (G.EndColumn == G.StartColumn && E.EndColumn == E.StartColumn + 1);
  return EndOk && G.Message.compare(0, E.Message.size(), E.Message) == 0;
}

std::string sourceLine(const SourceText &Text, uint32_t Line) {
  return Line < Text.lineCount() ? std::string(Text.line(Line)) : std::string();
}

class AnnotatedSample : public ::testing::TestWithParam<std::string> {};

TEST_P(AnnotatedSample, FindingsMatchAnnotations) {
  const std::string &Rel = GetParam();
  std::string Content = readFile(SourceDir / Rel);
  ASSERT_FALSE(Content.empty()) << "cannot read " << Rel;

  test::Annotations Ann = test::readAnnotations(Content);
  for (const test::AnnotationProblem &P : Ann.Problems)
    ADD_FAILURE() << Rel << ":" << P.Line + 1 << ": malformed annotation: " << P.Message;

  auto Text = std::make_shared<SourceText>(Content, Rel);
  // The bounds prover's samples (and the TS203/TS204 fixtures, and the real
  // bugs it must find) are checked with the prover, as `tessel check
  // --prove` does.
  diag::CheckOptions Opts;
  Opts.Prove = Rel.rfind("samples/prover/", 0) == 0 || Rel.rfind("samples/bugs/ts203_", 0) == 0 ||
               Rel.rfind("samples/bugs/ts204_", 0) == 0 ||
               (Rel.rfind("samples/realcode/", 0) == 0 && Rel.find("real_bugs") != std::string::npos);
  diag::FileReport Report = diag::checkFile(ParsedFile::parse(Text), Opts);

  std::vector<GotFinding> Got;
  for (const diag::Finding &F : Report.Findings)
    Got.push_back(toGot(F, *Text));

  std::vector<bool> Used(Got.size(), false);
  std::vector<const test::ExpectedFinding *> Missing;
  for (const test::ExpectedFinding &E : Ann.Expected) {
    bool Found = false;
    for (size_t I = 0; I < Got.size() && !Found; ++I)
      if (!Used[I] && matches(E, Got[I]))
        Used[I] = Found = true;
    if (!Found)
      Missing.push_back(&E);
  }

  std::ostringstream Diff;
  if (!Missing.empty()) {
    Diff << "  expected (annotated) but not reported:\n";
    for (const test::ExpectedFinding *E : Missing)
      Diff << "    " << Rel << ":" << test::describe(*E) << "\n      | " << sourceLine(*Text, E->Line) << "\n";
  }
  bool AnyUnexpected = false;
  for (size_t I = 0; I < Got.size(); ++I) {
    if (Used[I])
      continue;
    if (!AnyUnexpected)
      Diff << "  reported but not annotated:\n";
    AnyUnexpected = true;
    Diff << "    " << Rel << ":" << describe(Got[I]) << "\n      | " << sourceLine(*Text, Got[I].Line) << "\n";
  }
  if (!Missing.empty() || AnyUnexpected) {
    Diff << "  all findings reported (" << Got.size() << "):\n";
    for (const GotFinding &G : Got)
      Diff << "    " << describe(G) << "\n";
    ADD_FAILURE() << Rel << ": findings differ from the annotations (columns are 1-based)\n" << Diff.str();
  }
}

std::string testName(const ::testing::TestParamInfo<std::string> &Info) {
  std::string Name = fs::path(Info.param).replace_extension().generic_string();
  if (Name.rfind("samples/", 0) == 0)
    Name = Name.substr(8);
  for (char &C : Name)
    if (!std::isalnum(static_cast<unsigned char>(C)))
      C = '_';
  return Name;
}

INSTANTIATE_TEST_SUITE_P(Samples, AnnotatedSample, ::testing::ValuesIn(sampleFiles()), testName);

// Every diagnostic code has its fixture, named after the code, that expects
// the code at least once: a new code without a bug sample fails here.
TEST(AnnotatedSamples, EveryCodeHasABugSample) {
  std::vector<std::string> Files = sampleFiles();
  for (const diag::CodeInfo &Info : diag::allCodes()) {
    std::string Prefix = "samples/bugs/" + std::string(Info.Code) + "_";
    std::transform(Prefix.begin(), Prefix.end(), Prefix.begin(), [](unsigned char C) { return std::tolower(C); });
    auto It = std::find_if(Files.begin(), Files.end(), [&](const std::string &F) { return F.rfind(Prefix, 0) == 0; });
    if (It == Files.end()) {
      ADD_FAILURE() << "no bug sample " << Prefix << "*.py for " << Info.Code << " " << Info.Name;
      continue;
    }
    std::string Text = readFile(SourceDir / *It);
    test::Annotations Ann = test::readAnnotations(Text);
    bool Expects = std::any_of(Ann.Expected.begin(), Ann.Expected.end(),
                               [&](const test::ExpectedFinding &E) { return E.Code == Info.Code; });
    // TS3xx come from running the kernel: their fixtures expect them in `# run:` lines, which
    // tests/unit/tools/RunBugSamplesTest.cpp checks.
    // TS304 needs a GPU: its fixture says so with `# run --gpu:` (tests/unit/tools/GpuRunTest.cpp).
    if (Info.Code.rfind("TS3", 0) == 0)
      Expects = Text.find("# run: error[" + std::string(Info.Code) + "]") != std::string::npos ||
                Text.find("# run --gpu: error[" + std::string(Info.Code) + "]") != std::string::npos;
    // TS4xx come from compiling it (`tessel check --jit`): `# jit:` lines, which
    // tests/unit/diagnostics/JitSamplesTest.cpp checks.
    if (Info.Code.rfind("TS4", 0) == 0)
      Expects = Text.find("[" + std::string(Info.Code) + "]") != std::string::npos &&
                Text.find("# jit: ") != std::string::npos;
    EXPECT_TRUE(Expects) << *It << " has no annotation expecting " << Info.Code;
  }
}

// The tutorial-class kernels exist and expect nothing: they must check clean.
TEST(AnnotatedSamples, TutorialSamplesExpectNoFindings) {
  for (const char *Name : {"vector_add", "fused_softmax", "layer_norm", "matmul", "dropout", "attention"}) {
    fs::path P = SourceDir / "samples" / (std::string(Name) + ".py");
    ASSERT_TRUE(fs::exists(P)) << P;
    test::Annotations Ann = test::readAnnotations(readFile(P));
    EXPECT_TRUE(Ann.Expected.empty() && Ann.Problems.empty()) << P << " carries annotations";
  }
}

} // namespace
