//===- FromProtocol.cpp - LSP requests to tessel's terms ------------------===//
/// \file
/// Thin by design: LineIndex does the counting, this file only names the
/// direction of each conversion.
//===----------------------------------------------------------------------===//
#include "lsp/FromProtocol.h"

namespace tessel::lsp {

uint32_t fromProtocol(Position P, const LineIndex &Index, PositionEncoding Enc) { return Index.offset(P, Enc); }

SourceRange fromProtocol(const Range &R, const LineIndex &Index, PositionEncoding Enc) {
  uint32_t B = Index.offset(R.Start, Enc), E = Index.offset(R.End, Enc);
  return E < B ? SourceRange{B, B} : SourceRange{B, E};
}

std::vector<DocumentEdit> fromProtocol(const std::vector<TextDocumentContentChangeEvent> &Changes) {
  std::vector<DocumentEdit> Edits;
  for (const TextDocumentContentChangeEvent &C : Changes) {
    DocumentEdit E;
    if (C.ChangeRange)
      E.Range = DocumentEdit::PositionRange{C.ChangeRange->Start, C.ChangeRange->End};
    E.Text = C.Text;
    Edits.push_back(std::move(E));
  }
  return Edits;
}

std::optional<PositionEncoding> parsePositionEncoding(std::string_view Name) {
  if (Name == "utf-8")
    return PositionEncoding::UTF8;
  if (Name == "utf-16")
    return PositionEncoding::UTF16;
  if (Name == "utf-32")
    return PositionEncoding::UTF32;
  return std::nullopt;
}

std::string_view positionEncodingName(PositionEncoding Enc) {
  switch (Enc) {
  case PositionEncoding::UTF8:
    return "utf-8";
  case PositionEncoding::UTF16:
    return "utf-16";
  case PositionEncoding::UTF32:
    return "utf-32";
  }
  return "utf-16";
}

} // namespace tessel::lsp
