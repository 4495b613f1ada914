//===- RepresentativeValues.h - values to assume where none is known -*- C++ -*-===//
/// \file
/// Figures (registers, shared memory, IR views, runs) need a value for every
/// constexpr, a dtype for every pointer and a value for every scalar; real
/// kernels get theirs from host code tessel cannot always evaluate. Where no
/// source fixes a value, this picks a representative one from how the kernel
/// itself uses the parameter, and says why, so the figure can carry its
/// assumption (DESIGN.md "Figures"). Findings never read these values.
///
/// - A constexpr that bounds a `tl.arange` or sizes a tile (`tl.zeros((B,
///   C))`, `block_shape=`, `tl.reshape`) is a block size: 1024 on a 1-D tile,
///   64 on a 2-D one (the tutorials' choices), 16 on one of more dimensions;
///   one that bounds a tl.static_range is 4 (16 when it also sizes a block),
///   since every unrolled iteration is code. One used
///   as a condition is False, one compared with a string or a number takes
///   the first literal it is compared with, one compared with None is None,
///   one used as a dtype is tl.float32, one divided into blocks (`N %
///   BLOCK`) is 1024, one that bounds a loop is 4, one used
///   in arithmetic only is 8 when it names a group and 16 otherwise. Uses in
///   the module's @jit helpers it is passed to count as the kernel's. A
///   constexpr that is called (an activation passed as a function) has no
///   representative value. Uses in a helper imported from another module of
///   the project count too, when the caller can resolve it (ImportedDefs).
/// - A pointer whose loaded values become offsets of other pointers holds
///   indices (int64, torch's index dtype; int32 when they are widened with
///   `.to(tl.int64)`); one whose loaded values are converted `.to(tl.float32)`
///   holds half precision (fp16); one stored as `.to(tl.float16)` or
///   `.to(tl.bfloat16)` holds that type; any other holds fp32, the type every
///   Triton operation accepts.
/// - A stride multiplies the offsets of one axis: the one that multiplies the
///   last axis of a tile (`offs[None, :] * stride`, a 1-D `tl.arange`, the
///   last entry of `strides=`) is 1, a contiguous tensor's innermost stride,
///   which Triton specializes as a constant; any other is an outer stride.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SEMA_REPRESENTATIVEVALUES_H
#define TESSEL_COMPILER_SEMA_REPRESENTATIVEVALUES_H

#include "compiler/frontend/Discovery.h"
#include "compiler/types/Types.h"

#include <functional>
#include <map>
#include <set>
#include <string>

namespace tessel::sema {

/// A value to assume and, for people, why ("bounds a tl.arange of a 2-D
/// tile"). Value is Unknown when none can be given; Why then says why not.
struct AssumedValue {
  PyValue Value;
  std::string Why;
};

/// A representative value for every constexpr parameter of Fn (in the sense
/// of isConstexprAnnotation) and for every name in Extra (heuristics' names
/// that are no parameters), read from Fn's body and the bodies of the @jit
/// functions of Info it passes them to.
/// The `def` of a function another module defines, by the name the kernel's
/// module calls it (`apply_act_func` of `from .act import apply_act_func`),
/// or null: a helper of another module, whose uses of a constexpr passed to
/// it count as the kernel's too.
using ImportedDefs = std::function<const ast::FunctionDefStmt *(const std::string &LocalName)>;

std::map<std::string, AssumedValue> representativeConstexprs(const JitFunction &Fn, const ModuleInfo &Info,
                                                             const std::set<std::string> &Extra = {},
                                                             const ImportedDefs &Imported = nullptr);

/// The element type to assume for each of Pointers (parameters of Fn). What
/// the helpers Fn calls do with what it passes them counts too: the file's
/// own @jit helpers, and those it imports from the project when Imported
/// resolves them.
struct AssumedPointer {
  ScalarKind Scalar = ScalarKind::FP32;
  std::string Why;
};
std::map<std::string, AssumedPointer> representativePointers(const ast::FunctionDefStmt &Fn, const ModuleInfo &Info,
                                                             const std::set<std::string> &Pointers,
                                                             const ImportedDefs &Imported = nullptr);

/// The parameters of Fn among Names that multiply the innermost axis of an
/// access (their representative value is 1, the others' an outer stride).
std::set<std::string> innermostStrides(const ast::FunctionDefStmt &Fn, const ModuleInfo &Info,
                                       const std::set<std::string> &Names);

} // namespace tessel::sema

#endif // TESSEL_COMPILER_SEMA_REPRESENTATIVEVALUES_H
