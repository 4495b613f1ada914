//===- BuiltinsMisc.cpp - hints, assertions, printing, barriers -----------===//
/// \file
/// Compiler hints (multiple_of, max_contiguous...), tl.static_assert with
/// Triton's compile-time rules, static/device printing and assertions.
//===----------------------------------------------------------------------===//
#include "compiler/sema/BuiltinCall.h"

#include "compiler/sema/Promotion.h"

namespace tessel::sema {

static Value none(BuiltinCall &) { return Value::constant(PyValue::none()); }

/// tl.debug_barrier: a barrier op, which also keeps the optimizer from
/// moving memory accesses across it.
static Value debugBarrier(BuiltinCall &B) {
  if (B.ir())
    B.ir()->barrier(B.range());
  return Value::constant(PyValue::none());
}

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

/// core.inline_asm_elementwise: the args broadcast to one shape (their
/// types kept), a result of `dtype` in that shape; a tuple of dtypes gives
/// a tuple of results, all from one asm statement.
static Value inlineAsmElementwise(BuiltinCall &B) {
  std::vector<Value> Args;
  std::vector<int64_t> Shape;
  for (const Value &A : elementsOf(B.value("args"))) {
    Value T = B.C.toTensor(A, B.rangeOf("args"));
    if (!T.isTensor())
      return Value::poison();
    OrError<std::vector<int64_t>> S = broadcastShapes(Shape, T.Type.Shape);
    if (!S) {
      B.error(ProblemKind::ShapeMismatch, S.Error);
      return Value::poison();
    }
    Shape = *S.Result;
    Args.push_back(std::move(T));
  }
  Value Dtype = B.value("dtype");
  std::vector<Value> Outs;
  for (const Value &D : elementsOf(Dtype))
    Outs.push_back(Value::tensor(TileType{ElemType{D.dtypeKind().value_or(ScalarKind::Unknown)}, Shape}));
  // `dtype=tl.float32` gives a tensor, `dtype=(tl.float32,)` a 1-tuple.
  bool Tuple = Dtype.K == Value::Kind::Tuple || (Dtype.isKnownConstexpr() && Dtype.Const.isSequence());
  auto Result = [&] { return Tuple ? Value::tuple(Outs) : Outs.empty() ? Value::poison() : Outs[0]; };
  if (!B.ir())
    return Result();
  Value Asm = B.value("asm"), Constraints = B.value("constraints");
  std::optional<int64_t> Pack = B.present("pack") ? B.constInt("pack") : std::optional<int64_t>(1);
  bool Known =
      std::none_of(Outs.begin(), Outs.end(), [](const Value &O) { return O.Type.Elem.Scalar == ScalarKind::Unknown; });
  if (!Asm.isKnownConstexpr() || !Asm.Const.isStr() || !Constraints.isKnownConstexpr() || !Constraints.Const.isStr() ||
      !Pack || Outs.empty() || !Known) {
    B.C.loweringLimit(B.range(), "tl.inline_asm_elementwise whose asm text, constraints, pack or dtype is not known");
    return Value::poison();
  }
  std::vector<ir::Value *> Lowered;
  for (const Value &A : Args)
    Lowered.push_back(B.C.lowerAs(A, TileType{A.Type.Elem, Shape}, B.rangeOf("args")));
  std::vector<TileType> Types;
  for (const Value &O : Outs)
    Types.push_back(O.Type);
  ir::InlineAsmOp *Op = B.ir()->inlineAsm(B.range(), Asm.Const.asStr(), Constraints.Const.asStr(), Lowered,
                                          std::move(Types), B.flag("is_pure"), *Pack);
  for (size_t I = 0; I < Outs.size(); ++I)
    Outs[I].IR = Op->result(static_cast<unsigned>(I));
  return Result();
}

const std::vector<BuiltinEntry> &miscBuiltins() {
  static const std::vector<BuiltinEntry> Entries = {
      {"multiple_of", "input, values:C", hint},
      {"max_contiguous", "input, values:C", hint},
      {"max_constancy", "input, values:C", hint},
      {"assume", "cond", none},
      {"debug_barrier", "", debugBarrier},
      {"static_assert", "cond, msg:C=", staticAssert},
      {"static_print", "*values, sep:C=, end:C=, file:C=, flush:C=", none},
      {"device_print", "prefix:C, *args, hex:C=", devicePrint},
      {"device_assert", "cond, msg:C=, mask=", deviceAssert},
      {"inline_asm_elementwise", "asm:C, constraints:C, args, dtype:C, is_pure:C, pack:C=", inlineAsmElementwise},
  };
  return Entries;
}

} // namespace tessel::sema
