//===- HostNames.h - what a host module's top-level names mean --*- C++ -*-===//
/// \file
/// The integer constants and functions a host module's top-level names
/// stand for, its own or imported through the project: what host-side
/// reasoning (GridAxes: the divisibility a validator states) needs to follow
/// a launching function into the functions it calls, in any module.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SEMA_HOSTNAMES_H
#define TESSEL_COMPILER_SEMA_HOSTNAMES_H

#include "compiler/frontend/Discovery.h"
#include "compiler/project/Project.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace tessel::sema {

struct HostFunction;

/// What the top-level names of one host module mean. Empty members answer
/// nothing.
struct HostNames {
  std::function<std::optional<int64_t>(const std::string &Name)> Integer;
  /// Fills Out with the definition Name calls and its module's names.
  std::function<bool(const std::string &Name, HostFunction &Out)> Function;
};

/// A host function and the names its module gives its body.
struct HostFunction {
  const ast::FunctionDefStmt *Def = nullptr;
  HostNames Names;
};

/// The names of the module Info (at Ref): its integer globals and top-level
/// functions, then its imports resolved through P (null: its own names
/// only). Every other module read goes to Reads, which must outlive the
/// answers, as must Info and P.
HostNames moduleHostNames(const ModuleInfo &Info, const project::ModuleRef &Ref, project::Project *P,
                          project::Reads *Reads);

} // namespace tessel::sema

#endif // TESSEL_COMPILER_SEMA_HOSTNAMES_H
