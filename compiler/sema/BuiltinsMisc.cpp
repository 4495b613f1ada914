//===- BuiltinsMisc.cpp - hints, assertions, printing, barriers -----------===//
/// \file
/// Compiler hints (multiple_of, max_contiguous...), tl.static_assert with
/// Triton's compile-time rules, static/device printing and assertions.
//===----------------------------------------------------------------------===//
#include "compiler/sema/BuiltinCall.h"

namespace tessel::sema {

static Value none(BuiltinCall &) { return Value::constant(PyValue::none()); }

/// multiple_of / max_contiguous / max_constancy: the input, with a hint op.
static Value hint(BuiltinCall &B) {
  Value V = B.value("input");
  if (!B.ir() || !V.isTensor())
    return V;
  std::vector<int64_t> Values;
  Value Given = B.value("values");
  if (Given.isKnownConstexpr() && Given.Const.isIntLike())
    Values.push_back(Given.Const.asInt());
  else if (Given.isKnownConstexpr() && Given.Const.isSequence())
    for (const PyValue &P : Given.Const.elements())
      Values.push_back(P.isIntLike() ? P.asInt() : 1);
  ir::HintKind K = B.Name == "multiple_of"      ? ir::HintKind::MultipleOf
                   : B.Name == "max_contiguous" ? ir::HintKind::MaxContiguous
                                                : ir::HintKind::MaxConstancy;
  V.IR = B.ir()->hint(B.range(), K, B.lower("input"), std::move(Values));
  return V;
}

static Value devicePrint(BuiltinCall &B) {
  if (B.ir()) {
    std::vector<ir::Value *> Args;
    for (const Arg &A : B.Rest)
      Args.push_back(B.C.lower(A.V, A.Range));
    B.ir()->devicePrint(B.range(), B.str("prefix"), Args, B.flag("hex"));
  }
  return Value::constant(PyValue::none());
}

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
  Value Cond = B.C.toTensor(B.value("cond"), B.rangeOf("cond"));
  if (B.ir() && Cond.isTensor()) {
    TileType I1{ElemType{ScalarKind::I1}, Cond.Type.Shape};
    ir::Value *C = B.C.lowerAs(Cond, I1, B.rangeOf("cond"));
    ir::Value *Mask = B.present("mask") ? B.lowerAs("mask", I1) : nullptr;
    B.ir()->deviceAssert(B.range(), C, B.str("msg"), Mask);
  }
  return Value::constant(PyValue::none());
}

const std::vector<BuiltinEntry> &miscBuiltins() {
  static const std::vector<BuiltinEntry> Entries = {
      {"multiple_of", "input, values:C", hint},
      {"max_contiguous", "input, values:C", hint},
      {"max_constancy", "input, values:C", hint},
      {"assume", "cond", none},
      {"debug_barrier", "", none},
      {"static_assert", "cond, msg:C=", staticAssert},
      {"static_print", "*values, sep:C=, end:C=, file:C=, flush:C=", none},
      {"device_print", "prefix:C, *args, hex:C=", devicePrint},
      {"device_assert", "cond, msg:C=, mask=", deviceAssert},
  };
  return Entries;
}

} // namespace tessel::sema
