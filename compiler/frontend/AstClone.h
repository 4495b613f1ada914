//===- AstClone.h - copies of statements at another offset ------*- C++ -*-===//
/// \file
/// Internal to the front end. After an edit, the top-level statements below
/// it have the same text at a new byte offset. Their nodes may still be read
/// by other threads through the old ParsedFile, so instead of shifting them
/// in place the reparse copies them into the new module with every byte
/// range moved by the edit's length change.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_FRONTEND_ASTCLONE_H
#define TESSEL_COMPILER_FRONTEND_ASTCLONE_H

#include "compiler/frontend/Ast.h"

#include <cstdint>

namespace tessel::ast {

/// A deep copy of S allocated in Into, with every range moved by Delta bytes.
/// Ranges that were never set ({0, 0}) stay unset.
Stmt *cloneShifted(const Stmt *S, int64_t Delta, Module &Into);

} // namespace tessel::ast

#endif // TESSEL_COMPILER_FRONTEND_ASTCLONE_H
