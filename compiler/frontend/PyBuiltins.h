//===- PyBuiltins.h - Python builtins and library calls on PyValues -*- C++ -*-===//
/// \file
/// The functions ConstEval can call without running Python: the builtins
/// (`range`, `len`, `min`, `max`, `sum`, `abs`, `int`, `float`, `bool`,
/// `str`, `list`, `tuple`, `sorted`, `enumerate`, `zip`, `isinstance`...),
/// `math.ceil`/`floor`/`log2`/`sqrt`, and Triton's host helpers
/// (`triton.Config`, `triton.cdiv`, `triton.next_power_of_2`,
/// `tl.constexpr`). Kept apart from the interpreter: these need no scope,
/// only values. Anything undecidable is Unknown.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_FRONTEND_PYBUILTINS_H
#define TESSEL_COMPILER_FRONTEND_PYBUILTINS_H

#include "compiler/frontend/PyValue.h"

#include <optional>
#include <string>
#include <string_view>

namespace tessel::pybuiltins {

/// Largest sequence built (`range(10**9)` stays Unknown).
constexpr int64_t MaxElements = 100000;

/// Whether N is a builtin callLibrary knows (as "builtins.N").
bool isBuiltinName(const std::string &N);
std::optional<int64_t> intOf(const PyValue &V);
/// Python's PySlice_AdjustIndices for a sequence of N elements: the bounds
/// `lo:hi:step` (absent ones defaulted, negative ones counted from the end,
/// clipped) and the slice's length. Step must not be 0.
struct SliceBounds {
  int64_t Start = 0, Stop = 0, Length = 0;
};
SliceBounds adjustSlice(int64_t N, std::optional<int64_t> Lo, std::optional<int64_t> Hi, int64_t Step);
/// The elements of an iterable value, or nullopt (a dict iterates its keys,
/// a str its characters, as in Python).
std::optional<PyList> iterate(const PyValue &V);
/// The keyword argument Name, or nullptr.
const PyValue *kwarg(const PyDict &Kwargs, const char *Name);

/// The value `triton.runtime.driver.active.get_current_target()` returns
/// (a Qualified path), whose attributes targetAttribute knows.
inline constexpr const char CurrentTarget[] = "triton.runtime.driver.active.get_current_target()";
/// `backend` ("cuda") and `warp_size` (32) of the current target; Unknown
/// for the rest (the arch is the check's option, not the host code's).
PyValue targetAttribute(const std::string &Attr);

/// Calls what a qualified path names ("builtins.len", "math.ceil",
/// "triton.cdiv", "triton.Config"...); Unknown for anything else.
PyValue callLibrary(const std::string &Path, const PyList &Args, const PyDict &Kwargs);

/// The value of a library constant a qualified path names (`math.pi`,
/// `math.e`, `math.tau`, `math.inf`, `math.nan`), or nullopt. Triton lets a
/// kernel read these: the `math` module is a global it accepts, and the
/// attribute is a plain float there.
std::optional<PyValue> libraryConstant(std::string_view Path);

} // namespace tessel::pybuiltins

#endif // TESSEL_COMPILER_FRONTEND_PYBUILTINS_H
