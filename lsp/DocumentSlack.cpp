//===- DocumentSlack.cpp - spaces that keep offsets still below an edit ---===//
/// \file
/// After an edit: the starts are scanned again around it
/// (cst::startsAfterEdit), slack between the edit and the first start the
/// old text had too is removed (the edit may have opened a string there),
/// and the piece the edit ends in gets the slack that cancels the change in
/// length. The changes to the text are applied last offset first, so each
/// one's offsets are those of the text the one before left.
//===----------------------------------------------------------------------===//
#include "lsp/DocumentSlack.h"
#include "compiler/frontend/Segments.h"

#include <algorithm>
#include <optional>

namespace tessel::lsp {

DocumentSlack::DocumentSlack(std::string_view Text) : Starts(cst::topLevelStarts(Text)) {}

namespace {
/// One change of slack: [Offset, Offset + OldSize) spaces become NewSize.
struct SlackChange {
  uint32_t Offset, OldSize, NewSize;
};
} // namespace

void DocumentSlack::edited(std::string &Text, const ByteEdit &Edit, std::vector<ByteEdit> &Edits) {
  int64_t Delta = int64_t(Edit.NewEndByte) - int64_t(Edit.OldEndByte);
  size_t OldSize = static_cast<size_t>(int64_t(Text.size()) - Delta);
  std::vector<uint32_t> Old = std::move(Starts);
  Starts = cst::startsAfterEdit(Old, OldSize, Text, Edit.StartByte, OldSize - Edit.OldEndByte);

  // Slack the edit replaced is gone; slack after it moved with the text.
  std::vector<Slack> Kept;
  Kept.reserve(Slacks.size() + 1);
  for (Slack S : Slacks) {
    if (S.Offset + S.Size <= Edit.StartByte) {
      Kept.push_back(S);
    } else if (S.Offset >= Edit.OldEndByte) {
      S.Offset = static_cast<uint32_t>(S.Offset + Delta);
      Kept.push_back(S);
    }
  }
  Slacks = std::move(Kept);

  // From the first start past the edit that the old text had too, the text
  // and the scan's state are the old ones: slack there is still safe.
  uint32_t TextEnd = static_cast<uint32_t>(Text.size());
  uint32_t Settled = TextEnd;
  for (auto It = std::lower_bound(Starts.begin(), Starts.end(), Edit.NewEndByte); It != Starts.end(); ++It)
    if (std::binary_search(Old.begin(), Old.end(), static_cast<uint32_t>(int64_t(*It) - Delta))) {
      Settled = *It;
      break;
    }
  // The piece the edit ends in: padded at its last line that can take it
  // (none for the last piece: nothing after it to keep still).
  auto Next = std::lower_bound(Starts.begin(), Starts.end(), std::max<uint32_t>(Edit.NewEndByte, 1));
  std::optional<uint32_t> Pad;
  if (Next != Starts.end()) {
    uint32_t Begin = Next == Starts.begin() ? 0 : *(Next - 1);
    Pad = cst::lastPaddableLineEnd(Text, Begin, *Next);
  }

  std::vector<SlackChange> Changes;
  std::vector<char> Replaced(Slacks.size(), 0);
  int64_t Change = Delta;
  std::optional<size_t> AtPad;
  for (size_t I = 0; I < Slacks.size(); ++I) {
    const Slack &S = Slacks[I];
    if (Pad && S.Offset + S.Size == *Pad) {
      AtPad = I;
    } else if (S.Offset >= Edit.StartByte && S.Offset < Settled) {
      Changes.push_back({S.Offset, S.Size, 0});
      Replaced[I] = 1;
      Change -= S.Size;
    }
  }
  if (Pad) {
    uint32_t Have = AtPad ? Slacks[*AtPad].Size : 0;
    int64_t Want = int64_t(Have) - Change;
    if (Want < 0)
      Want = Step; // nothing left to absorb an insertion: make room for the next ones
    else if (Want > Max)
      Want = Have;
    if (uint32_t(Want) != Have) {
      Changes.push_back({*Pad - Have, Have, static_cast<uint32_t>(Want)});
      if (AtPad)
        Replaced[*AtPad] = 1;
    }
  }
  if (Changes.empty())
    return;
  std::sort(Changes.begin(), Changes.end(),
            [](const SlackChange &A, const SlackChange &B) { return A.Offset < B.Offset; });

  // Tree-sitter points of each change, from those of the edit's end, then
  // the changes applied last offset first.
  LineCol Anchor = Edit.NewEnd;
  uint32_t AnchorByte = Edit.NewEndByte;
  auto PointAt = [&](uint32_t At) {
    auto Count = [&](uint32_t A, uint32_t B) {
      return static_cast<uint32_t>(std::count(Text.begin() + A, Text.begin() + B, '\n'));
    };
    uint32_t Line = At >= AnchorByte ? Anchor.Line + Count(AnchorByte, At) : Anchor.Line - Count(At, AnchorByte);
    size_t Nl = At == 0 ? std::string::npos : Text.rfind('\n', At - 1);
    uint32_t Column = static_cast<uint32_t>(Nl == std::string::npos ? At : At - Nl - 1);
    Anchor = {Line, Column};
    AnchorByte = At;
    return Anchor;
  };
  std::vector<ByteEdit> Out;
  for (const SlackChange &C : Changes) {
    ByteEdit B;
    B.StartByte = C.Offset;
    B.OldEndByte = C.Offset + C.OldSize;
    B.NewEndByte = C.Offset + C.NewSize;
    B.Start = PointAt(C.Offset);
    B.OldEnd = {B.Start.Line, B.Start.Column + C.OldSize};
    B.NewEnd = {B.Start.Line, B.Start.Column + C.NewSize};
    Out.push_back(B);
  }
  for (size_t I = Changes.size(); I-- > 0;) {
    const SlackChange &C = Changes[I];
    Text.replace(C.Offset, C.OldSize, C.NewSize, ' ');
    Edits.push_back(Out[I]);
  }

  // The starts and the slack after each change move by what it added.
  std::vector<Slack> Now;
  Now.reserve(Slacks.size() + 1);
  int64_t Moved = 0;
  size_t J = 0;
  auto Advance = [&](uint32_t Before) {
    for (; J < Changes.size() && Changes[J].Offset < Before; ++J) {
      const SlackChange &C = Changes[J];
      if (C.NewSize)
        Now.push_back({static_cast<uint32_t>(C.Offset + Moved), C.NewSize});
      Moved += int64_t(C.NewSize) - int64_t(C.OldSize);
    }
  };
  for (size_t I = 0; I < Slacks.size(); ++I) {
    // A replaced slack's change is at its own offset: taken with it.
    Advance(Slacks[I].Offset + (Replaced[I] ? 1 : 0));
    if (!Replaced[I])
      Now.push_back({static_cast<uint32_t>(Slacks[I].Offset + Moved), Slacks[I].Size});
  }
  Advance(UINT32_MAX);
  Slacks = std::move(Now);
  Moved = 0;
  J = 0;
  for (uint32_t &S : Starts) {
    while (J < Changes.size() && Changes[J].Offset < S) {
      Moved += int64_t(Changes[J].NewSize) - int64_t(Changes[J].OldSize);
      ++J;
    }
    S = static_cast<uint32_t>(S + Moved);
  }
}

} // namespace tessel::lsp
