//===- DocumentSlackTest.cpp - the server's padded copy of a document -----===//
/// \file
/// Workspace's slack (DocumentSlack.h): typing into one kernel of a file
/// leaves every byte after its piece at the offset it had; the client never
/// sees the slack (its text, lines and positions are those of the plain
/// text); and the diagnostics of the padded text, in LSP positions, are those
/// of the client's text, over random edits that open and close strings,
/// comments, brackets and continuations.
//===----------------------------------------------------------------------===//
#include "diagnostics/Check.h"
#include "lsp/Workspace.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

using namespace tessel;
using namespace tessel::lsp;

namespace {

std::string readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

const char *ThreeKernels = R"(import triton
import triton.language as tl


@triton.jit
def a(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, 1.0, mask=offs < n)


@triton.jit
def b(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(x_ptr + offs, x, mask=offs < n)


@triton.jit
def c(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, 33)
    tl.store(x_ptr + offs, 2.0, mask=offs < n)
)";

DocumentEdit at(Position P, Position Q, std::string Text) {
  return {DocumentEdit::PositionRange{P, Q}, std::move(Text)};
}

/// The client's side: the same edits applied to the plain text.
void applyPlain(std::string &Text, const DocumentEdit &E) {
  LineIndex Plain(Text);
  uint32_t Begin = Plain.offset(E.Range->Start), End = Plain.offset(E.Range->End);
  Text.replace(Begin, End - Begin, E.Text);
}

TEST(DocumentSlack, TypingInOneKernelKeepsTheBytesBelowItsPiece) {
  Workspace W;
  W.open("test:///k.py", 1, ThreeKernels);
  std::string Client = ThreeKernels;
  std::string Tail = Client.substr(Client.find("@triton.jit\ndef c"));
  // A new line at the end of b's body (line 14), typed into, then deleted.
  const uint32_t Line = 14;
  const uint32_t End14 = static_cast<uint32_t>(LineIndex(Client).line(Line).size());
  const std::string Typed = "    y = x + 1";
  std::vector<DocumentEdit> Steps = {at({Line, End14}, {Line, End14}, "\n")};
  for (uint32_t I = 0; I < Typed.size(); ++I)
    Steps.push_back(at({Line + 1, I}, {Line + 1, I}, std::string(1, Typed[I])));
  Steps.push_back(at({Line, End14}, {Line + 1, static_cast<uint32_t>(Typed.size())}, ""));
  std::string Error;
  int64_t Version = 1;
  std::optional<size_t> TailAt;
  for (const DocumentEdit &E : Steps) {
    applyPlain(Client, E);
    auto U = W.change("test:///k.py", ++Version, {E}, Error);
    ASSERT_TRUE(U) << Error;
    const std::string &Server = U->Snapshot.Text->text();
    EXPECT_EQ(U->Snapshot.Index->clientText(), Client) << "version " << Version;
    LineIndex Plain(Client);
    ASSERT_EQ(U->Snapshot.Index->lineCount(), Plain.lineCount());
    for (uint32_t L = 0; L < Plain.lineCount(); ++L)
      EXPECT_EQ(U->Snapshot.Index->line(L), Plain.line(L)) << "line " << L;
    // c's piece follows b's slack and stays where the first keystroke put it.
    size_t Found = Server.find(Tail);
    ASSERT_NE(Found, std::string::npos);
    if (!TailAt)
      TailAt = Found;
    EXPECT_EQ(Found, *TailAt) << "version " << Version;
    // The first keystroke made the slack, in b's last (blank) line.
    EXPECT_EQ(Server.size(),
              Client.size() + (U->Snapshot.Index->slacks().empty() ? 0 : U->Snapshot.Index->slacks()[0].Size));
    ASSERT_EQ(U->Snapshot.Index->slacks().size(), 1u);
    EXPECT_EQ(Server.substr(U->Snapshot.Index->slacks()[0].Offset + U->Snapshot.Index->slacks()[0].Size, 1), "\n");
  }
  EXPECT_EQ(*TailAt, std::string(ThreeKernels).find("@triton.jit\ndef c") + 1 + DocumentSlack::Step);
  // Positions on either side of the slack are the client's: the end of the
  // padded line, and the start of the next.
  auto Snap = W.snapshot("test:///k.py");
  const Slack S = Snap->Index->slacks()[0];
  EXPECT_EQ(Snap->Index->position(S.Offset + S.Size / 2), Snap->Index->position(S.Offset));
  EXPECT_EQ(Snap->Index->offset(Snap->Index->position(S.Offset + S.Size)), S.Offset);
  EXPECT_EQ(Snap->Index->offset({Snap->Index->position(S.Offset).Line, 99}), S.Offset);
}

/// Code and LSP ranges of every finding (and its related places and fixes).
std::vector<std::string> described(const std::vector<diag::Finding> &Findings, const LineIndex &Index) {
  auto Pos = [&](uint32_t Offset) {
    Position P = Index.position(Offset);
    return std::to_string(P.Line) + ":" + std::to_string(P.Character);
  };
  auto Range = [&](SourceRange R) { return Pos(R.Begin) + "-" + Pos(R.End); };
  std::vector<std::string> Out;
  for (const diag::Finding &F : Findings) {
    std::string D = std::string(F.code()) + " " + Range(F.Range) + " " + F.Message;
    for (const RelatedLocation &R : F.Related)
      D += " | " + (R.File ? std::string("other") : Range(R.Range)) + " " + R.Message;
    for (const Fix &X : F.Fixes)
      for (const TextEdit &T : X.Edits)
        D += " | fix " + Range(T.Range) + " " + T.NewText;
    Out.push_back(std::move(D));
  }
  return Out;
}

TEST(DocumentSlack, DiagnosticsOfThePaddedTextAreTheClientsOverRandomEdits) {
  std::string Base = readFile(std::string(TESSEL_SOURCE_DIR) + "/samples/bugs/ts106_shape_mismatch.py") + ThreeKernels +
                     readFile(std::string(TESSEL_SOURCE_DIR) + "/samples/bugs/ts105_invalid_arange.py");
  // What typing can do to the lexical state between pieces: strings, a
  // comment, a bracket, a continuation, a new line, a column-0 statement.
  const std::vector<std::string> Inserts = {
      "x", " ", "\n", "\"\"\"", "'", "#", "(", ")", "\\", "\n@triton.jit\n", "\r\n", "\t", "def f():\n"};
  std::mt19937 Rng(20261202);
  for (int Run = 0; Run < 6; ++Run) {
    Workspace W;
    W.open("test:///r.py", 1, Base);
    std::string Client = Base;
    std::string Error;
    for (int Step = 0; Step < 40; ++Step) {
      LineIndex Plain(Client);
      uint32_t L = std::uniform_int_distribution<uint32_t>(0, Plain.lineCount() - 1)(Rng);
      uint32_t C = std::uniform_int_distribution<uint32_t>(0, static_cast<uint32_t>(Plain.line(L).size()) + 2)(Rng);
      Position P{L, C}, Q = P;
      std::string Text;
      switch (Rng() % 3) {
      case 0: // delete a few characters, maybe across a line end
        Q = Plain.position(std::min<uint32_t>(Plain.offset(P) + 1 + Rng() % 6, static_cast<uint32_t>(Client.size())));
        break;
      default:
        Text = Inserts[Rng() % Inserts.size()];
      }
      DocumentEdit E = at(P, Q, Text);
      applyPlain(Client, E);
      auto U = W.change("test:///r.py", Step + 2, {E}, Error);
      ASSERT_TRUE(U) << Error;
      ASSERT_EQ(U->Snapshot.Index->clientText(), Client) << "run " << Run << " step " << Step;
      if (Step % 8 != 7)
        continue;
      auto Padded = diag::checkFile(ParsedFile::parse(U->Snapshot.Text)).Findings;
      auto Plainly = diag::checkFile(ParsedFile::parse(std::make_shared<SourceText>(Client))).Findings;
      EXPECT_EQ(described(Padded, *U->Snapshot.Index), described(Plainly, LineIndex(Client)))
          << "run " << Run << " step " << Step << "\n"
          << Client;
    }
  }
}

} // namespace
