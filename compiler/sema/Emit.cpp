//===- Emit.cpp - the checker's tile IR emission ---------------------------===//
/// \file
/// What KernelChecker does beyond typing when it has an ir::Builder: the
/// implicit conversions of semantic.py made explicit (cast, splat,
/// expand_dims, broadcast), constants for Python numbers, and the runtime
/// control flow (visit_If / visit_For / visit_While / visit_IfExp with a
/// dynamic condition) as structured region ops whose results are the names
/// the region reassigns (a tensor as one value, a tuple as its elements, a
/// block pointer as its base and parts), with the rest of a function body
/// moved into the else region of an `if` whose then branch returns. A
/// construct the lowering cannot express yet is a
/// Problem at its range ("... is not supported by tessel's lowering yet"),
/// never a crash: the value is replaced by a zero so the walk goes on.
//===----------------------------------------------------------------------===//
#include "compiler/sema/KernelChecker.h"

#include "compiler/frontend/AstWalk.h"
#include "compiler/ir/Builder.h"
#include "compiler/ir/TypeUtils.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <utility>

namespace tessel::sema {

using namespace ast;

void KernelChecker::loweringLimit(SourceRange R, const std::string &What) {
  if (!LimitsReported.insert({R.Begin, R.End}).second)
    return;
  error(ProblemKind::UnsupportedConstruct, R, What + " is not supported by tessel's lowering yet");
}

/// A type the IR can hold: a known element type (or pointee) and static dims.
static bool concrete(const TileType &T) {
  return T.Elem.Scalar != ScalarKind::Unknown && T.Elem.Scalar != ScalarKind::Void && !T.hasUnknownDim();
}

/// A Python number as a constant of T, holding the literal's value: like
/// Triton's scalar_constant (an MLIR attribute of the element type), every
/// reader rounds it to T's element type once.
static ir::Value *numberConstant(ir::Builder &B, const PyValue &N, const TileType &T, SourceRange R) {
  if (isFloat(T.Elem.Scalar))
    return B.constantFloat(R, N.asFloat(), T);
  if (N.isBool())
    return B.constantInt(R, N.asBool() ? 1 : 0, T);
  return B.constantInt(R, N.asInt(), T);
}

/// Does integer literal N fit element type K (Triton refuses the others)?
static bool intFits(const PyValue &N, ScalarKind K) {
  int64_t V = N.asInt();
  int Bits = bitWidth(K);
  if (K == ScalarKind::I1)
    return V == 0 || V == 1;
  if (isUnsigned(K))
    return V >= 0 && (Bits == 64 || V < (int64_t(1) << Bits));
  return Bits == 64 || (V >= -(int64_t(1) << (Bits - 1)) && V < (int64_t(1) << (Bits - 1)));
}

ir::Value *KernelChecker::lower(const Value &V, SourceRange R) {
  if (!IRB)
    return nullptr;
  const TileType I32{ElemType{ScalarKind::I32}, {}};
  if (V.isTensor()) {
    if (V.IR && V.IR->type() == V.Type)
      return V.IR;
    std::string Text = "`" + std::string(sourceText(R)) + "`";
    if (!concrete(V.Type)) {
      loweringLimit(R, Text + ", a value of unknown type " + V.Type.str() + ",");
      return IRB->constantInt(R, 0, I32);
    }
    loweringLimit(R, V.IR ? Text + " (typed " + V.Type.str() + " but lowered as " + V.IR->type().str() + ")" : Text);
    return IRB->constantInt(R, 0, V.Type);
  }
  if (V.isKnownConstexpr() && (V.Const.isNumber() || V.Const.isBool())) {
    if (OrError<ScalarKind> K = literalType(V.Const))
      return numberConstant(*IRB, V.Const, TileType{ElemType{*K.Result}, {}}, R);
  }
  if (!V.isPoison())
    loweringLimit(R, "`" + std::string(sourceText(R)) + "` (" + V.describe() + ") as a tensor");
  return IRB->constantInt(R, 0, I32);
}

ir::Value *KernelChecker::lowerAs(const Value &V, const TileType &T, SourceRange R) {
  if (!IRB)
    return nullptr;
  if (V.isKnownConstexpr() && V.Const.isNumber() && concrete(T) && !T.Elem.isPointer()) {
    // binary_op_type_checking_impl: a Python number operand becomes a
    // scalar_constant of the computation type directly (no fp32 detour).
    ScalarKind K = T.Elem.Scalar;
    if (isFloat(K) || (V.Const.isIntLike() && isInt(K) && intFits(V.Const, K)))
      return numberConstant(*IRB, V.Const, T, R);
  }
  return coerce(lower(V, R), T, R);
}

ir::Value *KernelChecker::coerce(ir::Value *X, const TileType &T, SourceRange R) {
  if (!IRB || !X || X->type() == T)
    return X;
  if (!(X->type().Elem == T.Elem))
    X = IRB->cast(R, X, T.Elem);
  if (X->type().Shape == T.Shape)
    return X;
  if (X->type().Shape.empty())
    return IRB->splat(R, X, T.Shape);
  while (X->type().Shape.size() < T.Shape.size())
    X = IRB->expandDims(R, X, 0);
  if (X->type().Shape != T.Shape)
    X = IRB->broadcast(R, X, T.Shape);
  return X;
}

/// A runtime condition as an i1 scalar (Triton unsplats a [1] block and
/// compares other types with zero).
static ir::Value *conditionValue(KernelChecker &C, const Value &Test, SourceRange R) {
  ir::Builder &B = *C.builder();
  ir::Value *X = C.lower(Test, R);
  if (!X->type().Shape.empty())
    X = B.reshape(R, X, {});
  if (X->type().Elem.isPointer()) // `if ptr:`: not null
    X = B.cast(R, X, ElemType{ScalarKind::I1});
  else if (X->type().Elem.Scalar != ScalarKind::I1)
    X = B.cmp(R, ir::CmpPredicate::NE, X, C.lowerAs(Value::constant(PyValue::integer(0)), X->type(), R));
  return X;
}

std::vector<std::string> KernelChecker::carriedNames(const ast::Block &Body, SourceRange R) {
  std::set<std::string> Assigned;
  for (const Stmt *S : Body)
    boundNames(S, Assigned);
  std::vector<std::string> Names;
  for (const std::string &Name : Assigned) {
    auto It = frame().Vars.find(Name);
    if (It == frame().Vars.end())
      continue;
    if (It->second.isTensor() || It->second.K == Value::Kind::Tuple)
      Names.push_back(Name);
  }
  return Names;
}

/// The IR values a region carries for V: a tensor's value, a block pointer's
/// base and parts, a tuple's elements' in order (constexprs carry none).
static void flatten(const Value &V, std::vector<ir::Value *> &Out) {
  if (V.K == Value::Kind::Tuple) {
    for (const Value &E : V.Elts)
      flatten(E, Out);
    return;
  }
  if (!V.isTensor())
    return;
  Out.push_back(V.IR);
  Out.insert(Out.end(), V.BlockParts.begin(), V.BlockParts.end());
}

/// Proto with its IR values replaced by Vals[Next...] (the inverse of
/// flatten); each value's sema type becomes its IR type.
static Value rebuild(const Value &Proto, const std::vector<ir::Value *> &Vals, size_t &Next) {
  Value V = Proto;
  if (V.K == Value::Kind::Tuple) {
    for (Value &E : V.Elts)
      E = rebuild(E, Vals, Next);
    return V;
  }
  if (!V.isTensor() || Next >= Vals.size())
    return V;
  V.IR = Vals[Next++];
  V.Type = V.IR->type();
  // A descriptor out of a region may be either branch's: its accesses keep
  // the pointer form, which the region's values give.
  V.DeviceDesc = nullptr;
  for (ir::Value *&P : V.BlockParts)
    P = Next < Vals.size() ? Vals[Next++] : P;
  return V;
}

/// V's values for a region's yield, converted to the types of Proto's (a
/// Python number assigned to a carried tensor becomes a constant of its
/// type); empty when V does not have Proto's structure.
std::vector<ir::Value *> KernelChecker::flattenAs(const Value &V, const Value &Proto, SourceRange R) {
  std::vector<ir::Value *> Out;
  if (Proto.isTensor() && !Proto.IsBlockPtr) {
    if (V.isTensor() && V.IsBlockPtr)
      return {};
    Out.push_back(lowerAs(V, Proto.IR ? Proto.IR->type() : Proto.Type, R));
    return Out;
  }
  std::vector<ir::Value *> Want;
  flatten(Proto, Want);
  flatten(V, Out);
  bool Same = Proto.K == V.K && Proto.Elts.size() == V.Elts.size() && Proto.IsBlockPtr == V.IsBlockPtr &&
              Out.size() == Want.size();
  for (size_t I = 0; Same && I < Out.size(); ++I)
    Same = Out[I] && Want[I] && Out[I]->type() == Want[I]->type();
  return Same ? Out : std::vector<ir::Value *>{};
}

/// Binds Names to consecutive values of Vals from First (region arguments
/// or op results), each with the structure of its value in Protos.
static void bindTo(std::map<std::string, Value> &Vars, const std::vector<std::string> &Names,
                   const std::map<std::string, Value> &Protos, const std::vector<ir::Value *> &Vals, size_t First) {
  size_t Next = First;
  for (const std::string &N : Names) {
    size_t Start = Next;
    Vars[N] = rebuild(Protos.at(N), Vals, Next);
    if (Start < Vals.size() && Vals[Start]->definingOp() == nullptr)
      Vals[Start]->setName(N);
  }
}

std::vector<ir::Value *> KernelChecker::carriedInits(const std::vector<std::string> &Names, SourceRange R) {
  std::vector<ir::Value *> Inits;
  for (const std::string &N : Names) {
    Value &V = frame().Vars[N];
    std::function<void(Value &)> Materialize = [&](Value &X) {
      if (X.K == Value::Kind::Tuple)
        for (Value &E : X.Elts)
          Materialize(E);
      else if (X.isTensor() && !X.IsBlockPtr)
        X.IR = lower(X, R);
    };
    Materialize(V);
    std::vector<ir::Value *> Parts;
    flatten(V, Parts);
    if (std::find(Parts.begin(), Parts.end(), nullptr) != Parts.end()) {
      loweringLimit(R, "carrying `" + N + "` through a region");
      V = Value::poison();
      continue;
    }
    Inits.insert(Inits.end(), Parts.begin(), Parts.end());
  }
  return Inits;
}

std::vector<ir::Value *> KernelChecker::carriedYields(const std::vector<std::string> &Names,
                                                      const std::map<std::string, Value> &Protos, SourceRange R) {
  std::vector<ir::Value *> Out;
  for (const std::string &N : Names) {
    const Value &Proto = Protos.at(N);
    if (Proto.isPoison())
      continue;
    std::vector<ir::Value *> Parts = flattenAs(frame().Vars[N], Proto, R);
    if (Parts.empty()) {
      // The checker reports a change of type; other changes of structure
      // (a tuple of another length) are limits. The initial values keep the
      // region well formed.
      if (ErrorsReported == 0)
        loweringLimit(R, "`" + N + "` changing its structure inside a region");
      flatten(Proto, Parts);
    }
    Out.insert(Out.end(), Parts.begin(), Parts.end());
  }
  return Out;
}

/// Names assigned inside a region that did not exist before it are not
/// visible after it (their values live in the region).
static void dropRegionLocals(std::map<std::string, Value> &Vars, const std::map<std::string, Value> &Before) {
  for (auto It = Vars.begin(); It != Vars.end();)
    It = Before.count(It->first) ? std::next(It) : Vars.erase(It);
}

void KernelChecker::lowerRangeFor(const ForStmt *S, std::vector<Value> Bounds, ScalarKind IndVar, SourceRange KeywordR,
                                  int64_t NumStages) {
  const auto *Call = cast<CallExpr>(S->Iter);
  TileType T{ElemType{IndVar}, {}};
  if (Bounds.empty() || Bounds.size() > 3 || Bounds.size() != Call->Args.size()) {
    loweringLimit(S->Iter->Range, "a range with " + std::to_string(Bounds.size()) + " bounds");
    return;
  }
  if (!concrete(T)) {
    loweringLimit(S->Iter->Range, "a loop whose bounds have unknown types");
    return;
  }
  auto Bound = [&](size_t I) { return Call->Args[I]->Range; };
  Value Zero = Value::constant(PyValue::integer(0)), One = Value::constant(PyValue::integer(1));
  ir::Value *Lb, *Ub, *Step;
  if (Bounds.size() == 1) {
    Lb = lowerAs(Zero, T, S->Iter->Range);
    Ub = lowerAs(Bounds[0], T, Bound(0));
  } else {
    Lb = lowerAs(Bounds[0], T, Bound(0));
    Ub = lowerAs(Bounds[1], T, Bound(1));
  }
  Step = Bounds.size() == 3 ? lowerAs(Bounds[2], T, Bound(2)) : lowerAs(One, T, S->Iter->Range);
  const auto *Target = dyn_cast<NameExpr>(S->Target);
  if (Target)
    frame().Vars.erase(Target->Id); // visit_For binds the induction variable first: it is no carried value
  std::vector<std::string> Names = carriedNames(S->Body, KeywordR);
  std::vector<ir::Value *> Inits = carriedInits(Names, KeywordR);
  // The induction variable, like the names first assigned in the body, is
  // not visible after the loop (its value lives in the region).
  std::map<std::string, Value> Outside = frame().Vars;
  ir::ForOp *For = IRB->createFor(S->Range, Lb, Ub, Step, Inits, NumStages);
  ir::Value *Iv = For->inductionVar();
  if (Target) {
    IndexFacts F;
    F.DynScalar = true;
    F.Cause = "the loop variable `" + Target->Id + "`";
    assignTarget(Target, Value::tensor(T, std::move(F), Iv));
    Iv->setName(Target->Id);
  } else if (S->Target) {
    assignTarget(S->Target, Value::poison());
  }
  std::map<std::string, Value> Before = frame().Vars;
  {
    ir::Builder::InsertionGuard G(*IRB);
    IRB->setInsertionPointToEnd(For->body());
    bindTo(frame().Vars, Names, Outside, For->body()->arguments(), 1);
    execLoopBody(S->Body);
    IRB->yield(KeywordR, carriedYields(Names, Outside, KeywordR));
  }
  checkLoopCarried(Before, KeywordR);
  bindTo(frame().Vars, Names, Outside, For->results(), 0);
  dropRegionLocals(frame().Vars, Outside);
}

void KernelChecker::lowerWhile(const WhileStmt *S, SourceRange KeywordR) {
  std::vector<std::string> Names = carriedNames(S->Body, KeywordR);
  std::vector<ir::Value *> Inits = carriedInits(Names, KeywordR);
  std::map<std::string, Value> Before = frame().Vars;
  ir::WhileOp *W = IRB->createWhile(S->Range, Inits);
  {
    ir::Builder::InsertionGuard G(*IRB);
    IRB->setInsertionPointToEnd(W->before());
    bindTo(frame().Vars, Names, Before, W->before()->arguments(), 0);
    Value Test = eval(S->Test);
    if (Test.isBlock())
      error(ProblemKind::InvalidOperands, S->Test->Range,
            "Boolean value of Tensor with more than one value is ambiguous");
    if (Test.isPoison() && errorsReported() == 0)
      loweringLimit(S->Test->Range, "`" + std::string(sourceText(S->Test->Range)) + "`");
    ir::Value *Cond = Test.isPoison() ? lowerAs(Value::constant(PyValue::boolean(false)),
                                                TileType{ElemType{ScalarKind::I1}, {}}, S->Test->Range)
                                      : conditionValue(*this, toTensor(Test, S->Test->Range), S->Test->Range);
    IRB->condition(S->Test->Range, Cond, W->before()->arguments());
  }
  {
    ir::Builder::InsertionGuard G(*IRB);
    IRB->setInsertionPointToEnd(W->after());
    frame().Vars = Before;
    bindTo(frame().Vars, Names, Before, W->after()->arguments(), 0);
    execLoopBody(S->Body);
    IRB->yield(KeywordR, carriedYields(Names, Before, KeywordR));
  }
  checkLoopCarried(Before, KeywordR);
  bindTo(frame().Vars, Names, Before, W->results(), 0);
  dropRegionLocals(frame().Vars, Before);
}

void KernelChecker::lowerRuntimeIf(const IfStmt *S, const Value &Test, SourceRange KeywordR) {
  // The statements after this `if` in the function body: where a branch
  // returns, they run only on the other path (visit_if_top_level's CFG,
  // made structured by moving them into the else region).
  const ast::Block *Enclosing = CurBlock;
  size_t Index = CurIndex;
  ir::Value *Cond = Test.isPoison() ? lowerAs(Value::constant(PyValue::boolean(false)),
                                              TileType{ElemType{ScalarKind::I1}, {}}, S->Test->Range)
                                    : conditionValue(*this, Test, S->Test->Range);
  ir::IfOp *If = IRB->createIf(S->Range, Cond, {}, true);
  std::map<std::string, Value> Before = frame().Vars;
  size_t ReturnsBefore = frame().Returns.size();
  bool ThenReturned = false, ElseReturned = false;
  // The blocks whose remaining statements follow this if: its own, then
  // those of the constexpr ifs around it, innermost first.
  const std::vector<std::pair<const ast::Block *, size_t>> Around = frame().Transparent;
  const ast::Block *Outermost = Around.empty() ? Enclosing : Around.front().first;
  bool AtTopLevel = frame().Fn && Outermost == &frame().Fn->Body;
  frame().Transparent.clear();
  {
    ir::Builder::InsertionGuard G(*IRB);
    IRB->setInsertionPointToEnd(If->thenBlock());
    execBlock(S->Body);
    ThenReturned = std::exchange(frame().Returned, false);
  }
  std::map<std::string, Value> Then = std::move(frame().Vars);
  frame().Vars = Before;
  {
    ir::Builder::InsertionGuard G(*IRB);
    IRB->setInsertionPointToEnd(If->elseBlock());
    execBlock(S->OrElse);
    // Outside loops (where Triton rejects a return), an `if` nested in a
    // runtime `if`'s branch moves the rest of that branch the same way; when
    // the rest falls off the branch's end, the statements after the outer
    // `if` would have to follow too, which is not done (the limit below).
    if (ThenReturned && !frame().Returned && (AtTopLevel || frame().LoopDepth == 0)) {
      frame().Transparent = Around;
      for (size_t I = Index + 1; I < Enclosing->size() && !frame().Returned; ++I)
        lowerStatement(*Enclosing, I);
      for (size_t Level = Around.size(); Level-- > 0 && !frame().Returned;) {
        frame().Transparent.resize(Level);
        const auto &[Block, At] = Around[Level];
        for (size_t I = At + 1; I < Block->size() && !frame().Returned; ++I)
          lowerStatement(*Block, I);
      }
      frame().Transparent.clear();
      if (!frame().Returned && AtTopLevel) { // falling off the end returns None
        frame().Returns.emplace_back(Value::constant(PyValue::none()), S->Range);
        frame().ReturnUndecided.push_back(false); // the lowering decides every `if`
        frame().Returned = true;
      }
    }
    ElseReturned = std::exchange(frame().Returned, false);
  }
  frame().Transparent = Around;
  std::map<std::string, Value> Else = std::move(frame().Vars);
  frame().Vars = Before;
  // One value per path that returned; a returning `if` hands it out as a result.
  std::optional<Value> ThenRet, ElseRet;
  if (ThenReturned || ElseReturned) {
    auto &Rets = frame().Returns;
    if (ThenReturned && ElseReturned && Rets.size() >= ReturnsBefore + 2) {
      ThenRet = Rets[ReturnsBefore].first;
      ElseRet = Rets.back().first;
      SourceRange R = Rets[ReturnsBefore].second;
      Rets.resize(ReturnsBefore);
      Rets.emplace_back(*ThenRet, R);
      frame().Returned = true;
    } else {
      loweringLimit(KeywordR, "a `return` on one path of an `if` on a runtime condition");
    }
  }
  for (const auto &[Name, V] : Before) {
    Then.emplace(Name, V);
    Else.emplace(Name, V);
  }
  std::map<std::string, Value> ThenVals = Then, ElseVals = Else;
  // When both paths returned, nothing runs after the if: no names to merge.
  if (!(ThenRet && ElseRet))
    mergeBranches(Before, std::move(Then), std::move(Else), KeywordR);
  // The if's results: the names both paths define whose values (a tensor,
  // a block pointer's parts, a tuple's elements) differ from before it.
  // Each yields the structure of its then value (the merged tensor's type
  // for a plain tensor, so a constant converts).
  auto Flat = [](const Value &V) {
    std::vector<ir::Value *> F;
    flatten(V, F);
    return F;
  };
  std::vector<std::string> Names;
  std::map<std::string, Value> Protos;
  for (const auto &[Name, TV] : ThenVals) {
    auto EIt = ElseVals.find(Name);
    auto MIt = frame().Vars.find(Name);
    if ((ThenRet && ElseRet) || EIt == ElseVals.end())
      continue;
    bool IsTuple = TV.K == Value::Kind::Tuple && EIt->second.K == Value::Kind::Tuple;
    if (!IsTuple && (MIt == frame().Vars.end() || !MIt->second.isTensor()))
      continue;
    auto B = Before.find(Name);
    if (B != Before.end() && Flat(TV) == Flat(B->second) && Flat(EIt->second) == Flat(B->second))
      continue;
    Names.push_back(Name);
    Protos[Name] = IsTuple || TV.IsBlockPtr ? TV : MIt->second;
  }
  // A value both paths return is one more result (or a tuple's elements):
  // a tensor (the other path may return a number of its type), or a tuple
  // of tensors of one structure. None from both carries nothing.
  std::function<bool(const Value &)> AllTensors = [&](const Value &V) {
    if (V.K == Value::Kind::Tuple)
      return std::all_of(V.Elts.begin(), V.Elts.end(), AllTensors);
    return V.isTensor();
  };
  bool ReturnsTensor = false, ReturnsTuple = false;
  TileType RetType;
  if (ThenRet &&
      !(ThenRet->isConstexpr() && ThenRet->Const.isNone() && ElseRet->isConstexpr() && ElseRet->Const.isNone())) {
    // visit_Return decays a returned number to a tensor of its literal type.
    auto Plain = [](const Value &V) { return V.isTensor() && !V.IsBlockPtr; };
    auto Number = [](const Value &V) { return V.isKnownConstexpr() && V.Const.isNumber(); };
    if (Plain(*ThenRet) || Plain(*ElseRet)) {
      RetType = Plain(*ThenRet) ? ThenRet->Type : ElseRet->Type;
      ReturnsTensor = (Number(*ThenRet) || (Plain(*ThenRet) && ThenRet->Type == RetType)) &&
                      (Number(*ElseRet) || (Plain(*ElseRet) && ElseRet->Type == RetType));
    }
    ReturnsTuple = ThenRet->K == Value::Kind::Tuple && AllTensors(*ThenRet) && AllTensors(*ElseRet) &&
                   !flattenAs(*ElseRet, *ThenRet, KeywordR).empty();
    if (!ReturnsTensor && !ReturnsTuple)
      loweringLimit(KeywordR, "returning " + ThenRet->describe() + " and " + ElseRet->describe() +
                                  " from the two paths of an `if` on a runtime condition");
  }
  size_t RetCount = 0;
  std::vector<TileType> ResultTypes;
  auto YieldAll = [&](ir::Block *Region, std::map<std::string, Value> &Vals, const std::optional<Value> &Ret) {
    ir::Builder::InsertionGuard G(*IRB);
    IRB->setInsertionPointToEnd(Region);
    std::vector<ir::Value *> Out;
    for (const std::string &N : Names) {
      const Value &Proto = Protos[N];
      if (Proto.isTensor() && !Proto.IsBlockPtr) {
        Out.push_back(lowerAs(Vals[N], Proto.Type, KeywordR));
        continue;
      }
      std::vector<ir::Value *> Parts = flattenAs(Vals[N], Proto, KeywordR);
      std::vector<ir::Value *> Want = Flat(Proto);
      if (Parts.empty() || std::find(Want.begin(), Want.end(), nullptr) != Want.end()) {
        loweringLimit(KeywordR, "`" + N + "` with different structures after the two paths of an `if`");
        Parts.clear();
        for (ir::Value *W : Want)
          Parts.push_back(IRB->constantInt(KeywordR, 0, W ? W->type() : TileType{ElemType{ScalarKind::I32}, {}}));
      }
      Out.insert(Out.end(), Parts.begin(), Parts.end());
    }
    size_t Before = Out.size();
    if (ReturnsTensor)
      Out.push_back(lowerAs(*Ret, RetType, KeywordR));
    if (ReturnsTuple)
      flatten(*Ret, Out);
    RetCount = Out.size() - Before;
    IRB->yield(KeywordR, Out);
    if (ResultTypes.empty())
      for (ir::Value *V : Out)
        ResultTypes.push_back(V->type());
  };
  YieldAll(If->thenBlock(), ThenVals, ThenRet);
  YieldAll(If->elseBlock(), ElseVals, ElseRet);
  std::vector<ir::Value *> Results;
  for (const TileType &T : ResultTypes)
    Results.push_back(IRB->addResult(If, T));
  size_t Next = 0;
  for (const std::string &N : Names)
    frame().Vars[N] = rebuild(Protos[N], Results, Next);
  if (RetCount > 0)
    frame().Returns.back().first = rebuild(ReturnsTensor ? Value::tensor(RetType) : *ThenRet, Results, Next);
}

Value KernelChecker::lowerIfExp(const IfExpExpr *E, const Value &Test) {
  ir::Value *Cond = conditionValue(*this, Test, E->Test->Range);
  ir::IfOp *If = IRB->createIf(E->Range, Cond, {}, true);
  auto Side = [&](const Expr *X, ir::Block *Region) {
    ir::Builder::InsertionGuard G(*IRB);
    IRB->setInsertionPointToEnd(Region);
    return toTensor(eval(X), X->Range);
  };
  Value A = Side(E->Body, If->thenBlock());
  Value B = Side(E->OrElse, If->elseBlock());
  bool Same = A.isTensor() && B.isTensor() && A.Type == B.Type;
  if (A.isTensor() && B.isTensor() && !Same && A.Type.Elem.Scalar != ScalarKind::Unknown &&
      B.Type.Elem.Scalar != ScalarKind::Unknown && !A.Type.hasUnknownDim() && !B.Type.hasUnknownDim())
    error(ProblemKind::ControlFlowType, E->Range,
          "Ternary expression with dynamic condition has inconsistent types " + A.Type.tritonStr() + " and " +
              B.Type.tritonStr());
  for (auto [V, Region] : {std::pair{&A, If->thenBlock()}, std::pair{&B, If->elseBlock()}}) {
    ir::Builder::InsertionGuard G(*IRB);
    IRB->setInsertionPointToEnd(Region);
    IRB->yield(E->Range, Same ? std::vector<ir::Value *>{lower(*V, E->Range)} : std::vector<ir::Value *>{});
  }
  if (!Same)
    return Value::poison();
  return Value::tensor(A.Type, {}, IRB->addResult(If, A.Type));
}

} // namespace tessel::sema
