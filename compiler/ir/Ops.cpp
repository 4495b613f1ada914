//===- Ops.cpp - the tile IR: values, ops, blocks, functions --------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Names of op kinds and attribute enums (the printer's vocabulary), and the
/// Function's value storage.
//===----------------------------------------------------------------------===//
#include "compiler/ir/Ops.h"

namespace tessel::ir {

std::string_view opName(OpKind K) {
  switch (K) {
  case OpKind::Constant:
    return "constant";
  case OpKind::Splat:
    return "splat";
  case OpKind::Broadcast:
    return "broadcast";
  case OpKind::ExpandDims:
    return "expand_dims";
  case OpKind::Reshape:
    return "reshape";
  case OpKind::Permute:
    return "permute";
  case OpKind::Join:
    return "join";
  case OpKind::Split:
    return "split";
  case OpKind::Arange:
    return "arange";
  case OpKind::ProgramId:
    return "program_id";
  case OpKind::NumPrograms:
    return "num_programs";
  case OpKind::Add:
    return "add";
  case OpKind::Sub:
    return "sub";
  case OpKind::Mul:
    return "mul";
  case OpKind::Div:
    return "div";
  case OpKind::DivRn:
    return "div_rn";
  case OpKind::FloorDiv:
    return "floordiv";
  case OpKind::Mod:
    return "mod";
  case OpKind::And:
    return "and";
  case OpKind::Or:
    return "or";
  case OpKind::Xor:
    return "xor";
  case OpKind::Shl:
    return "shl";
  case OpKind::Shr:
    return "shr";
  case OpKind::Minimum:
    return "minimum";
  case OpKind::Maximum:
    return "maximum";
  case OpKind::UMulHi:
    return "umulhi";
  case OpKind::Pow:
    return "pow";
  case OpKind::Neg:
    return "neg";
  case OpKind::Not:
    return "not";
  case OpKind::Exp:
    return "exp";
  case OpKind::Exp2:
    return "exp2";
  case OpKind::Log:
    return "log";
  case OpKind::Log2:
    return "log2";
  case OpKind::Sqrt:
    return "sqrt";
  case OpKind::Rsqrt:
    return "rsqrt";
  case OpKind::Sin:
    return "sin";
  case OpKind::Cos:
    return "cos";
  case OpKind::Erf:
    return "erf";
  case OpKind::Tanh:
    return "tanh";
  case OpKind::Log1p:
    return "log1p";
  case OpKind::Expm1:
    return "expm1";
  case OpKind::Tan:
    return "tan";
  case OpKind::Asin:
    return "asin";
  case OpKind::Acos:
    return "acos";
  case OpKind::Atan:
    return "atan";
  case OpKind::Sinh:
    return "sinh";
  case OpKind::Cosh:
    return "cosh";
  case OpKind::Cbrt:
    return "cbrt";
  case OpKind::Round:
    return "round";
  case OpKind::Rint:
    return "rint";
  case OpKind::Trunc:
    return "trunc";
  case OpKind::Abs:
    return "abs";
  case OpKind::Floor:
    return "floor";
  case OpKind::Ceil:
    return "ceil";
  case OpKind::Fma:
    return "fma";
  case OpKind::Cmp:
    return "cmp";
  case OpKind::Select:
    return "select";
  case OpKind::Cast:
    return "cast";
  case OpKind::Bitcast:
    return "bitcast";
  case OpKind::AddPtr:
    return "addptr";
  case OpKind::Load:
    return "load";
  case OpKind::Store:
    return "store";
  case OpKind::AtomicRMW:
    return "atomic_rmw";
  case OpKind::AtomicCas:
    return "atomic_cas";
  case OpKind::Reduce:
    return "reduce";
  case OpKind::Scan:
    return "scan";
  case OpKind::Gather:
    return "gather";
  case OpKind::Histogram:
    return "histogram";
  case OpKind::Dot:
    return "dot";
  case OpKind::Rand:
    return "rand";
  case OpKind::Randn:
    return "randn";
  case OpKind::Randint:
    return "randint";
  case OpKind::DevicePrint:
    return "device_print";
  case OpKind::DeviceAssert:
    return "device_assert";
  case OpKind::Barrier:
    return "barrier";
  case OpKind::Hint:
    return "hint";
  case OpKind::MakeTensorDesc:
    return "make_tensor_descriptor";
  case OpKind::InlineAsm:
    return "inline_asm";
  case OpKind::For:
    return "for";
  case OpKind::While:
    return "while";
  case OpKind::If:
    return "if";
  case OpKind::Yield:
    return "yield";
  case OpKind::Condition:
    return "condition";
  case OpKind::Return:
    return "return";
  }
  return "?";
}

std::string_view cmpPredicateName(CmpPredicate P) {
  switch (P) {
  case CmpPredicate::EQ:
    return "eq";
  case CmpPredicate::NE:
    return "ne";
  case CmpPredicate::LT:
    return "lt";
  case CmpPredicate::LE:
    return "le";
  case CmpPredicate::GT:
    return "gt";
  case CmpPredicate::GE:
    return "ge";
  }
  return "?";
}

std::string_view atomicKindName(AtomicKind K) {
  switch (K) {
  case AtomicKind::Add:
    return "add";
  case AtomicKind::Max:
    return "max";
  case AtomicKind::Min:
    return "min";
  case AtomicKind::And:
    return "and";
  case AtomicKind::Or:
    return "or";
  case AtomicKind::Xor:
    return "xor";
  case AtomicKind::Xchg:
    return "xchg";
  }
  return "?";
}

std::string_view reduceKindName(ReduceKind K) {
  switch (K) {
  case ReduceKind::Sum:
    return "sum";
  case ReduceKind::Max:
    return "max";
  case ReduceKind::Min:
    return "min";
  case ReduceKind::ArgMax:
    return "argmax";
  case ReduceKind::ArgMin:
    return "argmin";
  case ReduceKind::XorSum:
    return "xor_sum";
  case ReduceKind::Or:
    return "or";
  case ReduceKind::Custom:
    return "custom";
  }
  return "?";
}

std::string_view scanKindName(ScanKind K) {
  switch (K) {
  case ScanKind::CumSum:
    return "cumsum";
  case ScanKind::CumProd:
    return "cumprod";
  case ScanKind::Custom:
    return "custom";
  }
  return "?";
}

std::string_view inputPrecisionName(InputPrecision P) {
  switch (P) {
  case InputPrecision::TF32:
    return "tf32";
  case InputPrecision::TF32x3:
    return "tf32x3";
  case InputPrecision::IEEE:
    return "ieee";
  case InputPrecision::BF16x3:
    return "bf16x3";
  case InputPrecision::BF16x6:
    return "bf16x6";
  }
  return "?";
}

std::string_view cacheModifierName(CacheModifier C) {
  switch (C) {
  case CacheModifier::None:
    return "";
  case CacheModifier::CA:
    return ".ca";
  case CacheModifier::CG:
    return ".cg";
  case CacheModifier::CV:
    return ".cv";
  case CacheModifier::WB:
    return ".wb";
  case CacheModifier::CS:
    return ".cs";
  case CacheModifier::WT:
    return ".wt";
  }
  return "?";
}

std::string_view evictionPolicyName(EvictionPolicy E) {
  switch (E) {
  case EvictionPolicy::None:
    return "";
  case EvictionPolicy::EvictFirst:
    return "evict_first";
  case EvictionPolicy::EvictLast:
    return "evict_last";
  case EvictionPolicy::EvictNormal:
    return "evict_normal";
  }
  return "?";
}

std::string_view memSemanticName(MemSemantic S) {
  switch (S) {
  case MemSemantic::AcqRel:
    return "acq_rel";
  case MemSemantic::Acquire:
    return "acquire";
  case MemSemantic::Release:
    return "release";
  case MemSemantic::Relaxed:
    return "relaxed";
  }
  return "?";
}

std::string_view memScopeName(MemScope S) {
  switch (S) {
  case MemScope::Gpu:
    return "gpu";
  case MemScope::Cta:
    return "cta";
  case MemScope::Sys:
    return "sys";
  }
  return "?";
}

std::string_view hintKindName(HintKind K) {
  switch (K) {
  case HintKind::MultipleOf:
    return "multiple_of";
  case HintKind::MaxContiguous:
    return "max_contiguous";
  case HintKind::MaxConstancy:
    return "max_constancy";
  }
  return "?";
}

Op *Block::terminator() const {
  if (Ops.empty())
    return nullptr;
  OpKind K = Ops.back()->kind();
  if (K == OpKind::Yield || K == OpKind::Condition || K == OpKind::Return)
    return Ops.back().get();
  return nullptr;
}

Function::Function(std::string Name) : Name(std::move(Name)) {}

Value *Function::newValue(const TileType &Ty) {
  Value &V = Values.emplace_back();
  V.Ty = Ty;
  V.Id = static_cast<unsigned>(Values.size() - 1);
  return &V;
}

Value *Function::addParam(const TileType &Ty, std::string ParamName) {
  Value *V = newValue(Ty);
  V->Owner = &Body;
  V->Index = static_cast<unsigned>(Body.Args.size());
  V->Name = std::move(ParamName);
  Body.Args.push_back(V);
  return V;
}

} // namespace tessel::ir
