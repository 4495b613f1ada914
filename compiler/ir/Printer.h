//===- Printer.h - the textual form of tile IR ------------------*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Prints a Function as text meant for people (`tessel compile --emit tir`,
/// the editor's IR view, golden tests). The grammar is in docs/tir.md; in
/// short, one op per line:
///
///   %3 = add %1, %2 : [1024] i32  loc(12:5)
///
/// Values are numbered in print order (so the text is stable whatever order
/// they were created in); kernel parameters and named block arguments keep
/// their source names. There is no parser: the text is a view, not a format
/// other tools exchange.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_IR_PRINTER_H
#define TESSEL_COMPILER_IR_PRINTER_H

#include "compiler/ir/Ops.h"

#include <string>

namespace tessel {
class SourceText;
}

namespace tessel::ir {

struct PrintOptions {
  /// When set, locations print as 1-based `line:col`; otherwise as byte
  /// ranges `@begin..end`.
  const SourceText *Source = nullptr;
  bool Locations = true;
};

std::string printFunction(const Function &F, const PrintOptions &Opts = {});

} // namespace tessel::ir

#endif // TESSEL_COMPILER_IR_PRINTER_H
