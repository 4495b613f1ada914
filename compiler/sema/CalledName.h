//===- CalledName.h - the name a call spells its callee with ----*- C++ -*-===//
/// \file
/// `argmax` of `tl.argmax(x)` and of `x.argmax()`, `pow` of `libdevice.pow`:
/// what the kernel checker and the representative-value inference match
/// calls by before anything is resolved.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SEMA_CALLEDNAME_H
#define TESSEL_COMPILER_SEMA_CALLEDNAME_H

#include "compiler/frontend/Ast.h"

#include <string_view>

namespace tessel::sema {

/// The last name of C's callee (an attribute's or a plain name); empty for
/// other callees (a call's result, a subscript).
inline std::string_view calledName(const ast::CallExpr *C) {
  if (const auto *F = ast::dyn_cast<ast::AttributeExpr>(C->Func))
    return F->Attr;
  if (const auto *G = ast::dyn_cast<ast::NameExpr>(C->Func))
    return G->Id;
  return {};
}

} // namespace tessel::sema

#endif // TESSEL_COMPILER_SEMA_CALLEDNAME_H
