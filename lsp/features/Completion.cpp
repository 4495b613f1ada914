//===- Completion.cpp - tl. members with their signatures -----------------===//
/// \file
/// Reads the text before the cursor rather than the AST: right after a `.`
/// the line does not parse, and the import table (from the rest of the file)
/// is all that is needed to know what `tl` means.
//===----------------------------------------------------------------------===//
#include "lsp/features/Completion.h"
#include "lsp/AnalyzedFile.h"

#include <cctype>

namespace tessel::lsp {

static bool isIdentChar(char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; }

std::vector<CompletionInfo> complete(const AnalyzedFile &F, uint32_t Offset) {
  std::vector<CompletionInfo> Out;
  if (!F.Report.Analysis)
    return Out;
  const std::string &Text = F.Doc.Text->text();
  if (Offset > Text.size())
    return Out;
  uint32_t I = Offset;
  while (I > 0 && isIdentChar(Text[I - 1]))
    --I;
  std::string Prefix = Text.substr(I, Offset - I);
  if (I == 0 || Text[I - 1] != '.')
    return Out;
  uint32_t DotEnd = I - 1, J = DotEnd;
  while (J > 0 && (isIdentChar(Text[J - 1]) || Text[J - 1] == '.'))
    --J;
  std::string Head = Text.substr(J, DotEnd - J);
  if (Head.empty())
    return Out;
  // Resolve the first component through the imports, keep the rest.
  size_t Dot = Head.find('.');
  std::string First = Head.substr(0, Dot);
  auto It = F.Report.Analysis->Info.Imports.find(First);
  if (It == F.Report.Analysis->Info.Imports.end())
    return Out;
  std::string Qualified = It->second + (Dot == std::string::npos ? "" : Head.substr(Dot));
  bool Math = Qualified == "triton.language.math";
  if (Qualified != "triton.language" && !Math)
    return Out;
  for (const BuiltinDoc &D : builtinDocs()) {
    if (D.Name.substr(0, Prefix.size()) != Prefix)
      continue;
    if (Math && D.Kind != BuiltinKind::Function)
      continue;
    Out.push_back({std::string(D.Name), D.Kind, std::string(D.Signature), std::string(D.Doc)});
  }
  return Out;
}

} // namespace tessel::lsp
