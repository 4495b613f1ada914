//===- BuiltinsMisc.cpp - hints, assertions, printing, barriers -----------===//
/// \file
/// Compiler hints (multiple_of, max_contiguous...), tl.static_assert with
/// Triton's compile-time rules, static/device printing and assertions.
//===----------------------------------------------------------------------===//
#include "compiler/sema/BuiltinCall.h"

namespace tessel::sema {

static Value passThrough(BuiltinCall &B) { return B.value("input"); }
static Value none(BuiltinCall &) { return Value::constant(PyValue::none()); }

/// CodeGenerator.execute_static_assert.
static Value staticAssert(BuiltinCall &B) {
  if (!B.Call->Keywords.empty() || B.Call->Args.empty() || B.Call->Args.size() > 2) {
    B.error(ProblemKind::StaticAssert, "`static_assert` requires one or two positional arguments only");
    return Value::poison();
  }
  Value Cond = B.value("cond");
  if (Cond.isConstexpr() && Cond.Const.isUnknown())
    return Value::constant(PyValue::none()); // depends on an unknown constexpr: stay silent
  if (!Cond.isKnownConstexpr() || !Cond.Const.isBool()) {
    B.error(ProblemKind::StaticAssert, "Assertion condition could not be determined at compile-time. Make sure that "
                                       "it depends only on `constexpr` values");
    return Value::poison();
  }
  if (Cond.Const.asBool())
    return Value::constant(PyValue::none());
  Value Msg = B.value("msg");
  std::string Text = Msg.isKnownConstexpr() && Msg.Const.isStr() ? Msg.Const.asStr() : std::string();
  B.error(ProblemKind::StaticAssert, Text.empty() ? std::string("static assertion failed") : Text);
  return Value::poison();
}

static Value deviceAssert(BuiltinCall &B) {
  Value Cond = B.value("cond");
  return Value::constant(PyValue::none());
}

const std::vector<BuiltinEntry> &miscBuiltins() {
  static const std::vector<BuiltinEntry> Entries = {
      {"multiple_of", "input, values:C", passThrough},
      {"max_contiguous", "input, values:C", passThrough},
      {"max_constancy", "input, values:C", passThrough},
      {"assume", "cond", none},
      {"debug_barrier", "", none},
      {"static_assert", "cond, msg:C=", staticAssert},
      {"static_print", "*values, sep:C=, end:C=, file:C=, flush:C=", none},
      {"device_print", "prefix:C, *args, hex:C=", none},
      {"device_assert", "cond, msg:C=, mask=", deviceAssert},
  };
  return Entries;
}

} // namespace tessel::sema
