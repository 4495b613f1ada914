//===- WorkspaceTest.cpp - document edits and tree-sitter byte edits ------===//
/// \file
/// Tests that LSP content changes (UTF-16 positions, applied in order) give
/// the right text and the ByteEdits an incremental reparse needs, including
/// surrogate pairs, multi-line inserts, full replacement and bad ranges.
//===----------------------------------------------------------------------===//
#include "lsp/Workspace.h"

#include <gtest/gtest.h>

using namespace tessel;
using namespace tessel::lsp;

namespace {

DocumentEdit edit(uint32_t L1, uint32_t C1, uint32_t L2, uint32_t C2, std::string Text) {
  return {DocumentEdit::PositionRange{{L1, C1}, {L2, C2}}, std::move(Text)};
}

TEST(Workspace, OpenSnapshotsTextVersionAndPath) {
  Workspace W;
  DocumentUpdate U = W.open("file:///tmp/a%20b.py", 3, "x = 1\n");
  EXPECT_TRUE(U.Reset);
  EXPECT_EQ(U.Snapshot.Version, 3);
  EXPECT_EQ(U.Snapshot.Text->text(), "x = 1\n");
  EXPECT_EQ(U.Snapshot.Text->path(), "/tmp/a b.py");
  ASSERT_TRUE(W.snapshot("file:///tmp/a%20b.py"));
}

TEST(Workspace, IncrementalEditsApplyInOrderWithUtf16Columns) {
  Workspace W;
  // The emoji is 4 UTF-8 bytes and 2 UTF-16 units.
  W.open("test:///a.py", 1, "s = \"\xF0\x9F\x98\x80\"; y = 3\n");
  std::string Error;
  // After the emoji (UTF-16 column 7), insert "!"; then, in the new text,
  // replace the "3" (now at column 15) by "42".
  auto U = W.change("test:///a.py", 2, {edit(0, 7, 0, 7, "!"), edit(0, 15, 0, 16, "42")}, Error);
  ASSERT_TRUE(U) << Error;
  EXPECT_EQ(U->Snapshot.Text->text(), "s = \"\xF0\x9F\x98\x80!\"; y = 42\n");
  EXPECT_EQ(U->Snapshot.Version, 2);
  EXPECT_FALSE(U->Reset);
  ASSERT_EQ(U->Edits.size(), 2u);
  // Byte offsets: the emoji ends at byte 9.
  EXPECT_EQ(U->Edits[0].StartByte, 9u);
  EXPECT_EQ(U->Edits[0].OldEndByte, 9u);
  EXPECT_EQ(U->Edits[0].NewEndByte, 10u);
  EXPECT_EQ(U->Edits[0].Start.Column, 9u);
  EXPECT_EQ(U->Edits[1].StartByte, 17u);
  EXPECT_EQ(U->Edits[1].OldEndByte, 18u);
  EXPECT_EQ(U->Edits[1].NewEndByte, 19u);
}

TEST(Workspace, MultiLineInsertGivesTreeSitterPoints) {
  Workspace W;
  W.open("test:///a.py", 1, "a\nbc\n");
  std::string Error;
  auto U = W.change("test:///a.py", 2, {edit(1, 1, 1, 2, "X\nYZ\nW")}, Error);
  ASSERT_TRUE(U);
  EXPECT_EQ(U->Snapshot.Text->text(), "a\nbX\nYZ\nW\n");
  const ByteEdit &B = U->Edits[0];
  EXPECT_EQ(B.Start.Line, 1u);
  EXPECT_EQ(B.Start.Column, 1u);
  EXPECT_EQ(B.OldEnd.Line, 1u);
  EXPECT_EQ(B.OldEnd.Column, 2u);
  EXPECT_EQ(B.NewEnd.Line, 3u);
  EXPECT_EQ(B.NewEnd.Column, 1u);
}

TEST(Workspace, FullReplacementResets) {
  Workspace W;
  W.open("test:///a.py", 1, "a\n");
  std::string Error;
  auto U = W.change("test:///a.py", 2, {edit(0, 0, 0, 0, "z"), {std::nullopt, "new\n"}}, Error);
  ASSERT_TRUE(U);
  EXPECT_TRUE(U->Reset);
  EXPECT_TRUE(U->Edits.empty());
  EXPECT_EQ(U->Snapshot.Text->text(), "new\n");
}

TEST(Workspace, SnapshotIndexSharesTheFinalText) {
  Workspace W;
  DocumentUpdate Open = W.open("test:///a.py", 1, "a\nbc\n");
  EXPECT_EQ(&Open.Snapshot.Index->text(), &Open.Snapshot.Text->text());
  std::string Error;
  // A full replacement, then an edit positioned in the replaced text's lines,
  // then one in the lines that edit made.
  auto U = W.change("test:///a.py", 2, {{std::nullopt, "x\nyy\nz\n"}, edit(1, 1, 1, 2, "Q\nR"), edit(2, 1, 2, 1, "!")},
                    Error);
  ASSERT_TRUE(U) << Error;
  // The server's text has slack after the edited piece ("R!"); the client's has not.
  EXPECT_EQ(U->Snapshot.Index->clientText(), "x\nyQ\nR!\nz\n");
  EXPECT_EQ(U->Snapshot.Text->text(), "x\nyQ\nR!" + std::string(DocumentSlack::Step - 1, ' ') + "\nz\n");
  EXPECT_EQ(&U->Snapshot.Index->text(), &U->Snapshot.Text->text());
  EXPECT_EQ(U->Snapshot.Index->lineCount(), 5u);
  EXPECT_EQ(U->Snapshot.Index->line(2), "R!");
  // No edit: the same text, indexed.
  auto Same = W.change("test:///a.py", 3, {}, Error);
  ASSERT_TRUE(Same);
  EXPECT_EQ(Same->Snapshot.Index->text(), Same->Snapshot.Text->text());
}

TEST(Workspace, ReversedRangeIsRejectedWhole) {
  Workspace W;
  W.open("test:///a.py", 1, "abc\n");
  std::string Error;
  auto U = W.change("test:///a.py", 2, {edit(0, 0, 0, 1, "X"), edit(0, 3, 0, 1, "Y")}, Error);
  EXPECT_FALSE(U);
  EXPECT_NE(Error.find("precedes its start"), std::string::npos);
  EXPECT_EQ(W.snapshot("test:///a.py")->Text->text(), "abc\n");
  EXPECT_EQ(W.snapshot("test:///a.py")->Version, 1);
}

TEST(Workspace, PositionsPastTheEndAreClamped) {
  Workspace W;
  W.open("test:///a.py", 1, "ab\ncd");
  std::string Error;
  auto U = W.change("test:///a.py", 2, {edit(0, 99, 7, 0, "!")}, Error);
  ASSERT_TRUE(U);
  EXPECT_EQ(U->Snapshot.Text->text(), "ab!");
}

TEST(Workspace, UnknownDocumentAndClose) {
  Workspace W;
  std::string Error;
  EXPECT_FALSE(W.change("test:///nope.py", 1, {}, Error));
  EXPECT_NE(Error.find("not open"), std::string::npos);
  W.open("test:///a.py", 1, "");
  EXPECT_TRUE(W.close("test:///a.py"));
  EXPECT_FALSE(W.close("test:///a.py"));
  EXPECT_FALSE(W.snapshot("test:///a.py"));
}

TEST(Workspace, Utf8EncodingCountsBytes) {
  Workspace W(PositionEncoding::UTF8);
  W.open("test:///a.py", 1, "\xC3\xA9x\n");
  std::string Error;
  auto U = W.change("test:///a.py", 2, {edit(0, 2, 0, 3, "y")}, Error);
  ASSERT_TRUE(U);
  EXPECT_EQ(U->Snapshot.Text->text(), "\xC3\xA9y\n");
}

} // namespace
