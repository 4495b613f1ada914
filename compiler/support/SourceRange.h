//===- SourceRange.h - byte ranges into one source file ---------*- C++ -*-===//
/// \file
/// Positions inside the compiler are byte offsets into the file's UTF-8 text,
/// which is what tree-sitter gives. Lines and columns are derived on demand by
/// SourceText; UTF-16 columns exist only in lsp/ (LineIndex).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SUPPORT_SOURCERANGE_H
#define TESSEL_COMPILER_SUPPORT_SOURCERANGE_H

#include <cstdint>

namespace tessel {

/// Half-open byte range [Begin, End).
struct SourceRange {
  uint32_t Begin = 0;
  uint32_t End = 0;

  bool empty() const { return Begin == End; }
  bool contains(uint32_t Offset) const { return Begin <= Offset && Offset < End; }
  bool contains(SourceRange R) const { return Begin <= R.Begin && R.End <= End; }
  friend bool operator==(SourceRange A, SourceRange B) { return A.Begin == B.Begin && A.End == B.End; }
  friend bool operator<(SourceRange A, SourceRange B) { return A.Begin != B.Begin ? A.Begin < B.Begin : A.End < B.End; }
};

} // namespace tessel

#endif // TESSEL_COMPILER_SUPPORT_SOURCERANGE_H
