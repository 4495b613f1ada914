//===- Verifier.cpp - structural and type checks of tile IR ---------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// A walk that keeps the set of visible values (a value becomes visible
/// after its definition and stays visible inside nested regions, and leaves
/// scope with its block), plus one check function per op family. Checks
/// report and carry on, so one run lists every problem.
//===----------------------------------------------------------------------===//
#include "compiler/ir/Verifier.h"

#include "compiler/ir/TypeUtils.h"

#include <unordered_set>

namespace tessel::ir {

namespace {

bool isPow2(int64_t N) { return N > 0 && (N & (N - 1)) == 0; }

class Verifier {
public:
  std::vector<VerifierError> run(const Function &F) {
    for (Value *P : F.params())
      Visible.insert(P);
    verifyBlock(F.body(), OpKind::Return);
    return std::move(Errors);
  }

private:
  void error(const Op &O, std::string Message) {
    Errors.push_back({&O, O.loc(), std::string(opName(O.kind())) + ": " + Message});
  }

  /// Checks the ops of B in order; B must end in a terminator of kind Term.
  void verifyBlock(const Block &B, OpKind Term) {
    std::vector<const Value *> Added;
    for (Value *A : B.arguments()) {
      Visible.insert(A);
      Added.push_back(A);
    }
    for (size_t I = 0; I < B.ops().size(); ++I) {
      const Op &O = *B.ops()[I];
      bool IsTerm = O.kind() == OpKind::Yield || O.kind() == OpKind::Condition || O.kind() == OpKind::Return;
      if (IsTerm && I + 1 != B.ops().size())
        error(O, "terminator is not the last op of its block");
      if (IsTerm && O.kind() != Term)
        error(O, "wrong terminator: this region must end in " + std::string(opName(Term)));
      for (unsigned K = 0; K < O.numOperands(); ++K)
        if (!O.operand(K))
          error(O, "operand " + std::to_string(K) + " is null");
        else if (!Visible.count(O.operand(K)))
          error(O, "operand " + std::to_string(K) + " is used where its definition is not visible");
      if (O.parentBlock() != &B)
        error(O, "op's parent block is wrong");
      verifyOp(O);
      for (Value *R : O.results()) {
        Visible.insert(R);
        Added.push_back(R);
      }
    }
    if (!B.terminator() || B.terminator()->kind() != Term) {
      Op *Owner = B.parentOp();
      std::string Msg = "block does not end in " + std::string(opName(Term));
      if (Owner)
        error(*Owner, Msg);
      else
        Errors.push_back({nullptr, {}, "function: " + Msg});
    }
    for (const Value *V : Added)
      Visible.erase(V);
  }

  bool hasOperands(const Op &O, unsigned N) {
    if (O.numOperands() == N)
      return true;
    error(O, "expects " + std::to_string(N) + " operands, has " + std::to_string(O.numOperands()));
    return false;
  }

  bool sameType(const Op &O, const Value *A, const Value *B, const char *What = "operand types differ") {
    if (A->type() == B->type())
      return true;
    error(O, std::string(What) + ": " + typeString(A->type()) + " and " + typeString(B->type()));
    return false;
  }

  bool sameShape(const Op &O, const Value *A, const Value *B) {
    if (A->type().Shape == B->type().Shape)
      return true;
    error(O, "operand shapes differ: " + typeString(A->type()) + " and " + typeString(B->type()));
    return false;
  }

  void expectResultType(const Op &O, const TileType &T) {
    if (O.numResults() == 1 && !(O.result()->type() == T))
      error(O, "result type " + typeString(O.result()->type()) + " should be " + typeString(T));
  }

  static bool isScalarInt(const Value *V) {
    return V->type().Shape.empty() && !V->type().Elem.isPointer() && isIntScalar(V->type().Elem.Scalar);
  }
  static bool isBool(const Value *V) { return !V->type().Elem.isPointer() && V->type().Elem.Scalar == ScalarKind::I1; }
  static bool isFloatVal(const Value *V) { return !V->type().Elem.isPointer() && isFloatScalar(V->type().Elem.Scalar); }
  static bool isIntVal(const Value *V) { return !V->type().Elem.isPointer() && isIntScalar(V->type().Elem.Scalar); }

  /// Terminator values must match Types one to one.
  void checkYield(const Op &Owner, const Block *B, const std::vector<TileType> &Types, const char *Region) {
    const Op *T = B ? B->terminator() : nullptr;
    if (!T || T->kind() != OpKind::Yield)
      return; // reported by verifyBlock
    if (T->numOperands() != Types.size()) {
      error(Owner, std::string(Region) + " yields " + std::to_string(T->numOperands()) + " values, expected " +
                       std::to_string(Types.size()));
      return;
    }
    for (unsigned I = 0; I < Types.size(); ++I)
      if (!(T->operand(I)->type() == Types[I]))
        error(Owner, std::string(Region) + " yield " + std::to_string(I) + " has type " +
                         typeString(T->operand(I)->type()) + ", expected " + typeString(Types[I]));
  }

  static std::vector<TileType> resultTypes(const Op &O) {
    std::vector<TileType> Ts;
    for (Value *R : O.results())
      Ts.push_back(R->type());
    return Ts;
  }

  void verifyOp(const Op &O) {
    switch (O.kind()) {
    case OpKind::Constant:
      if (O.numResults() != 1 || O.result()->type().Elem.isPointer())
        error(O, "a constant has one non-pointer result");
      return;
    case OpKind::Splat:
      if (hasOperands(O, 1) && !O.operand(0)->type().Shape.empty())
        error(O, "operand must be a scalar, got " + typeString(O.operand(0)->type()));
      if (hasOperands(O, 1))
        expectResultType(O, withShape(O.operand(0)->type(), O.result()->type().Shape));
      return;
    case OpKind::Broadcast: {
      if (!hasOperands(O, 1))
        return;
      const auto &In = O.operand(0)->type().Shape;
      const auto &Out = O.result()->type().Shape;
      bool Ok = In.size() == Out.size();
      for (size_t I = 0; Ok && I < In.size(); ++I)
        Ok = In[I] == Out[I] || In[I] == 1;
      if (!Ok)
        error(O, "cannot broadcast " + typeString(O.operand(0)->type()) + " to " + typeString(O.result()->type()));
      expectResultType(O, withShape(O.operand(0)->type(), Out));
      return;
    }
    case OpKind::ExpandDims: {
      if (!hasOperands(O, 1))
        return;
      auto Shape = O.operand(0)->type().Shape;
      int64_t Axis = O.intAttr();
      if (Axis < 0 || Axis > static_cast<int64_t>(Shape.size())) {
        error(O, "axis " + std::to_string(Axis) + " out of range");
        return;
      }
      Shape.insert(Shape.begin() + Axis, 1);
      expectResultType(O, withShape(O.operand(0)->type(), Shape));
      return;
    }
    case OpKind::Reshape:
      if (hasOperands(O, 1) && numElements(O.operand(0)->type()) != numElements(O.result()->type()))
        error(O, "cannot change the number of elements: " + typeString(O.operand(0)->type()) + " to " +
                     typeString(O.result()->type()));
      return;
    case OpKind::Permute: {
      if (!hasOperands(O, 1))
        return;
      const auto &In = O.operand(0)->type().Shape;
      const auto &Order = O.intsAttr();
      std::vector<bool> Seen(In.size(), false);
      bool Ok = Order.size() == In.size();
      for (int64_t D : Order) {
        Ok = Ok && D >= 0 && D < static_cast<int64_t>(In.size()) && !Seen[D];
        if (Ok)
          Seen[D] = true;
      }
      if (!Ok) {
        error(O, "order is not a permutation of the operand's dimensions");
        return;
      }
      std::vector<int64_t> Shape;
      for (int64_t D : Order)
        Shape.push_back(In[D]);
      expectResultType(O, withShape(O.operand(0)->type(), Shape));
      return;
    }
    case OpKind::Join:
      if (hasOperands(O, 2) && sameType(O, O.operand(0), O.operand(1))) {
        auto Shape = O.operand(0)->type().Shape;
        Shape.push_back(2);
        expectResultType(O, withShape(O.operand(0)->type(), Shape));
      }
      return;
    case OpKind::Split:
      if (hasOperands(O, 1) && (O.operand(0)->type().Shape.empty() || O.operand(0)->type().Shape.back() != 2))
        error(O, "the last dimension must be 2, got " + typeString(O.operand(0)->type()));
      return;
    case OpKind::Arange: {
      int64_t N = O.intAttr2() - O.intAttr();
      if (!isPow2(N))
        error(O, "range size " + std::to_string(N) + " is not a positive power of 2");
      expectResultType(O, tileType(ScalarKind::I32, {N}));
      return;
    }
    case OpKind::ProgramId:
    case OpKind::NumPrograms:
      if (O.intAttr() < 0 || O.intAttr() > 2)
        error(O, "axis must be 0, 1 or 2, got " + std::to_string(O.intAttr()));
      expectResultType(O, scalarType(ScalarKind::I32));
      return;
    case OpKind::Fma:
      if (hasOperands(O, 3) && sameType(O, O.operand(0), O.operand(1)) && sameType(O, O.operand(0), O.operand(2)) &&
          !isFloatVal(O.operand(0)))
        error(O, "operands must be floats");
      return;
    case OpKind::Cmp:
      if (hasOperands(O, 2) && sameType(O, O.operand(0), O.operand(1)))
        expectResultType(O, withElem(O.operand(0)->type(), {ScalarKind::I1, 0, false}));
      return;
    case OpKind::Select:
      if (!hasOperands(O, 3))
        return;
      if (!isBool(O.operand(0)))
        error(O, "condition must be i1, got " + typeString(O.operand(0)->type()));
      sameShape(O, O.operand(0), O.operand(1));
      sameType(O, O.operand(1), O.operand(2));
      return;
    case OpKind::Cast:
      if (hasOperands(O, 1)) {
        sameShape(O, O.operand(0), O.result());
        // Pointers and integers convert both ways (ptrtoint / inttoptr,
        // Triton's tl.pointer_type casts and `if ptr:`); floats never.
        const ElemType &From = O.operand(0)->type().Elem, &To = O.result()->type().Elem;
        if (From.isPointer() != To.isPointer() && isFloatScalar(From.isPointer() ? To.Scalar : From.Scalar))
          error(O, "cannot cast between pointers and floats");
      }
      return;
    case OpKind::Bitcast:
      if (hasOperands(O, 1)) {
        sameShape(O, O.operand(0), O.result());
        if (elemBytes(O.operand(0)->type().Elem) != elemBytes(O.result()->type().Elem) ||
            scalarBits(O.operand(0)->type().Elem.Scalar) == 1 || scalarBits(O.result()->type().Elem.Scalar) == 1)
          error(O, "bit widths differ: " + typeString(O.operand(0)->type()) + " to " + typeString(O.result()->type()));
      }
      return;
    case OpKind::AddPtr:
      if (!hasOperands(O, 2))
        return;
      if (!O.operand(0)->type().Elem.isPointer())
        error(O, "first operand must be a pointer, got " + typeString(O.operand(0)->type()));
      if (!isIntVal(O.operand(1)))
        error(O, "offset must be an integer, got " + typeString(O.operand(1)->type()));
      sameShape(O, O.operand(0), O.operand(1));
      return;
    case OpKind::Load:
      verifyLoad(*cast<LoadOp>(&O));
      return;
    case OpKind::Store:
      verifyStore(*cast<StoreOp>(&O));
      return;
    case OpKind::AtomicRMW:
    case OpKind::AtomicCas:
      verifyAtomic(O);
      return;
    case OpKind::Reduce:
      verifyReduce(*cast<ReduceOp>(&O));
      return;
    case OpKind::Scan:
      verifyScan(*cast<ScanOp>(&O));
      return;
    case OpKind::Gather:
      if (hasOperands(O, 2))
        verifyGather(*cast<GatherOp>(&O));
      return;
    case OpKind::Histogram:
      verifyHistogram(*cast<HistogramOp>(&O));
      return;
    case OpKind::Dot:
      verifyDot(*cast<DotOp>(&O));
      return;
    case OpKind::Rand:
    case OpKind::Randn:
    case OpKind::Randint: {
      bool Counters = O.kind() == OpKind::Randint && O.numOperands() == 5;
      if (!Counters && !hasOperands(O, 2))
        return;
      if (!isScalarInt(O.operand(0)))
        error(O, "seed must be a scalar integer, got " + typeString(O.operand(0)->type()));
      for (unsigned I = 1; I < O.numOperands(); ++I) {
        if (!isIntVal(O.operand(I)) || scalarBits(O.operand(I)->type().Elem.Scalar) != 32)
          error(O, "offset must be a 32-bit integer, got " + typeString(O.operand(I)->type()));
        else if (O.operand(I)->type().Shape != O.operand(1)->type().Shape)
          error(O, "the counter words must have one shape, got " + typeString(O.operand(I)->type()));
      }
      if (O.intAttr2() < 0 || O.intAttr2() > 3 || (!Counters && O.intAttr2() != 0))
        error(O, "word must be 0..3 (and 0 without counter words), got " + std::to_string(O.intAttr2()));
      return;
    }
    case OpKind::DevicePrint:
      return;
    case OpKind::Barrier:
      if (O.numOperands() || O.numResults())
        error(O, "a barrier takes no operands and has no results");
      return;
    case OpKind::DeviceAssert:
      if (O.numOperands() < 1 || !isBool(O.operand(0)))
        error(O, "condition must be i1");
      return;
    case OpKind::MakeTensorDesc: {
      if (O.numOperands() < 3 || O.numOperands() % 2 == 0) {
        error(O, "make_tensor_descriptor takes a base, then a shape and strides of one rank");
        return;
      }
      const Value *Base = O.operand(0);
      if (!Base->type().Elem.isPointer() || !Base->type().Shape.empty())
        error(O, "descriptor base must be a scalar pointer, got " + typeString(Base->type()));
      for (unsigned I = 1; I < O.numOperands(); ++I)
        if (!(O.operand(I)->type() == TileType{ElemType{ScalarKind::I64}, {}}))
          error(O, "descriptor shape and strides must be scalar i64, got " + typeString(O.operand(I)->type()));
      expectResultType(O, Base->type());
      return;
    }
    case OpKind::Hint:
      if (hasOperands(O, 1))
        expectResultType(O, O.operand(0)->type());
      return;
    case OpKind::InlineAsm: {
      if (O.numResults() == 0) {
        error(O, "inline_asm must have a result");
        return;
      }
      for (Value *A : O.operands())
        sameShape(O, A, O.result());
      for (Value *R : O.results())
        sameShape(O, R, O.result());
      int64_t Pack = cast<InlineAsmOp>(&O)->pack();
      if (Pack < 1)
        error(O, "pack must be at least 1, got " + std::to_string(Pack));
      return;
    }
    case OpKind::For:
      verifyFor(*cast<ForOp>(&O));
      return;
    case OpKind::While:
      verifyWhile(*cast<WhileOp>(&O));
      return;
    case OpKind::If:
      verifyIf(*cast<IfOp>(&O));
      return;
    case OpKind::Yield:
    case OpKind::Return:
      return;
    case OpKind::Condition:
      if (O.numOperands() < 1 || !isBool(O.operand(0)) || !O.operand(0)->type().Shape.empty())
        error(O, "first operand must be a scalar i1");
      return;
    default:
      break;
    }
    if (isa<BinaryOp>(&O))
      verifyBinary(O);
    else if (isa<UnaryOp>(&O))
      verifyUnary(O);
  }

  void verifyBinary(const Op &O) {
    if (!hasOperands(O, 2) || !sameType(O, O.operand(0), O.operand(1)))
      return;
    expectResultType(O, O.operand(0)->type());
    const Value *V = O.operand(0);
    if (V->type().Elem.isPointer()) {
      error(O, "operands must not be pointers (use addptr)");
      return;
    }
    switch (O.kind()) {
    case OpKind::Div:
    case OpKind::DivRn:
    case OpKind::Pow:
      if (!isFloatVal(V))
        error(O, "operands must be floats, got " + typeString(V->type()));
      return;
    case OpKind::FloorDiv:
    case OpKind::And:
    case OpKind::Or:
    case OpKind::Xor:
    case OpKind::Shl:
    case OpKind::Shr:
    case OpKind::UMulHi:
      if (!isIntVal(V))
        error(O, "operands must be integers, got " + typeString(V->type()));
      return;
    default:
      return;
    }
  }

  void verifyUnary(const Op &O) {
    if (!hasOperands(O, 1))
      return;
    expectResultType(O, O.operand(0)->type());
    const Value *V = O.operand(0);
    switch (O.kind()) {
    case OpKind::Neg:
    case OpKind::Abs:
      if (V->type().Elem.isPointer())
        error(O, "operand must not be a pointer");
      return;
    case OpKind::Not:
      if (!isIntVal(V))
        error(O, "operand must be an integer, got " + typeString(V->type()));
      return;
    default:
      if (!isFloatVal(V))
        error(O, "operand must be a float, got " + typeString(V->type()));
      return;
    }
  }

  bool checkPointer(const Op &O, const Value *P) {
    if (P->type().Elem.isPointer())
      return true;
    error(O, "pointer operand has type " + typeString(P->type()));
    return false;
  }

  void checkMask(const Op &O, const Value *Ptr, const Value *Mask) {
    if (!Mask)
      return;
    if (!isBool(Mask))
      error(O, "mask must be i1, got " + typeString(Mask->type()));
    sameShape(O, Ptr, Mask);
  }

  void verifyLoad(const LoadOp &L) {
    if (L.numOperands() < 1 || !checkPointer(L, L.ptr()))
      return;
    checkMask(L, L.ptr(), L.mask());
    if (L.other())
      sameType(L, L.other(), L.result(), "other does not match the loaded type");
    expectResultType(L, withElem(L.ptr()->type(), L.ptr()->type().Elem.pointee()));
    checkDescriptor(L, L.descriptorBase(), L.descriptorOffsets(), L.result()->type());
  }

  /// A descriptor access: a pointer parameter or a make_tensor_descriptor,
  /// and one i32 offset per dimension of the block.
  void checkDescriptor(const Op &O, const Value *Base, const std::vector<Value *> &Offsets, const TileType &Block) {
    if (!Base)
      return;
    const Op *Def = Base->definingOp();
    if (!Base->type().Elem.isPointer() || !Base->type().Shape.empty() || (Def && Def->kind() != OpKind::MakeTensorDesc))
      error(O, "descriptor base must be a scalar pointer parameter or a make_tensor_descriptor, got " +
                   typeString(Base->type()));
    if (const auto *M = Def ? dyn_cast<MakeTensorDescOp>(Def) : nullptr; M && M->rank() != Block.Shape.size())
      error(O, "descriptor of rank " + std::to_string(M->rank()) + " accessed with a block of rank " +
                   std::to_string(Block.Shape.size()));
    if (Offsets.size() != Block.Shape.size())
      error(O, "descriptor access has " + std::to_string(Offsets.size()) + " offsets for a block of rank " +
                   std::to_string(Block.Shape.size()));
    for (const Value *V : Offsets)
      if (!(V->type() == TileType{ElemType{ScalarKind::I32}, {}}))
        error(O, "descriptor offset must be a scalar i32, got " + typeString(V->type()));
  }

  void verifyStore(const StoreOp &S) {
    if (S.numOperands() < 2 || !checkPointer(S, S.ptr()))
      return;
    checkMask(S, S.ptr(), S.mask());
    TileType Want = withElem(S.ptr()->type(), S.ptr()->type().Elem.pointee());
    if (!(S.value()->type() == Want))
      error(S, "stored value has type " + typeString(S.value()->type()) + ", expected " + typeString(Want));
    checkDescriptor(S, S.descriptorBase(), S.descriptorOffsets(), S.value()->type());
  }

  void verifyAtomic(const Op &O) {
    if (O.numOperands() < 2 || !checkPointer(O, O.operand(0)))
      return;
    TileType Pointee = withElem(O.operand(0)->type(), O.operand(0)->type().Elem.pointee());
    unsigned Last = O.kind() == OpKind::AtomicCas ? 3 : 2;
    for (unsigned I = 1; I < Last && I < O.numOperands(); ++I)
      if (!(O.operand(I)->type() == Pointee))
        error(O, "operand " + std::to_string(I) + " has type " + typeString(O.operand(I)->type()) + ", expected " +
                     typeString(Pointee));
    if (O.kind() == OpKind::AtomicRMW)
      checkMask(O, O.operand(0), cast<AtomicRMWOp>(&O)->mask());
    expectResultType(O, Pointee);
  }

  void checkCombine(const Op &O, const Block *R, size_t N) {
    if (!R) {
      error(O, "a custom combine needs a region");
      return;
    }
    if (R->arguments().size() != 2 * N) {
      error(O, "combine region takes " + std::to_string(R->arguments().size()) + " arguments, expected " +
                   std::to_string(2 * N));
      return;
    }
    std::vector<TileType> Ts;
    for (size_t I = 0; I < N; ++I) {
      TileType T{O.operand(static_cast<unsigned>(I))->type().Elem, {}};
      Ts.push_back(T);
      if (!(R->argument(static_cast<unsigned>(I))->type() == T) ||
          !(R->argument(static_cast<unsigned>(I + N))->type() == T))
        error(O, "combine argument types do not match the operands' element types");
    }
    verifyBlock(*R, OpKind::Yield);
    checkYield(O, R, Ts, "combine");
    for (const auto &Inner : R->ops()) {
      OpKind K = Inner->kind();
      bool Elementwise = isa<BinaryOp>(Inner.get()) || isa<UnaryOp>(Inner.get()) || K == OpKind::Cmp ||
                         K == OpKind::Select || K == OpKind::Cast || K == OpKind::Bitcast || K == OpKind::Fma ||
                         K == OpKind::Constant || K == OpKind::Yield;
      if (!Elementwise)
        error(*Inner, "only scalar elementwise ops may appear in a combine region");
      // A combine runs over whole slices at once: a value from outside the
      // region can only join in as a scalar (Triton's combine_fn cannot
      // capture tensors either).
      for (Value *V : Inner->operands())
        if (V && !V->type().Shape.empty() && V->ownerBlock() != R &&
            (!V->definingOp() || V->definingOp()->parentBlock() != R))
          error(*Inner, "a combine region may use only scalars from outside it, got " + typeString(V->type()));
    }
  }

  bool checkAxis(const Op &O, int Axis, const Value *V) {
    int Rank = static_cast<int>(V->type().Shape.size());
    if (Axis >= 0 && Axis < Rank)
      return true;
    error(O, "axis " + std::to_string(Axis) + " out of range for " + typeString(V->type()));
    return false;
  }

  void verifyReduce(const ReduceOp &R) {
    if (R.numOperands() < 1)
      return error(R, "needs an operand");
    if (!checkAxis(R, R.axis(), R.operand(0)))
      return;
    if (R.reduceKind() == ReduceKind::Custom) {
      if (R.numResults() != R.numOperands())
        error(R, "a custom reduce has one result per operand");
      checkCombine(R, R.combine(), R.numOperands());
      return;
    }
    if (R.numOperands() != 1 || !R.regions().empty())
      error(R, "a built-in reduce takes one operand and no region");
    if ((R.reduceKind() == ReduceKind::XorSum || R.reduceKind() == ReduceKind::Or) && !isIntVal(R.operand(0)))
      error(R,
            std::string(reduceKindName(R.reduceKind())) + " needs integers, got " + typeString(R.operand(0)->type()));
    auto Shape = R.operand(0)->type().Shape;
    Shape.erase(Shape.begin() + R.axis());
    bool Arg = R.reduceKind() == ReduceKind::ArgMax || R.reduceKind() == ReduceKind::ArgMin;
    expectResultType(R, Arg ? tileType(ScalarKind::I32, Shape) : withShape(R.operand(0)->type(), Shape));
  }

  void verifyGather(const GatherOp &G) {
    const auto &Src = G.src()->type().Shape, &Idx = G.index()->type().Shape;
    if (!isIntVal(G.index()))
      error(G, "index must be an integer tile, got " + typeString(G.index()->type()));
    if (Src.empty() || Src.size() != Idx.size()) {
      error(G, "source and index must be tiles of one rank, got " + typeString(G.src()->type()) + " and " +
                   typeString(G.index()->type()));
      return;
    }
    if (G.axis() < 0 || static_cast<size_t>(G.axis()) >= Src.size()) {
      error(G, "axis " + std::to_string(G.axis()) + " out of range");
      return;
    }
    for (size_t D = 0; D < Src.size(); ++D)
      if (D != static_cast<size_t>(G.axis()) && Src[D] != Idx[D])
        error(G, "index dimension " + std::to_string(D) + " differs from the source's");
    expectResultType(G, withShape(G.src()->type(), Idx));
  }

  void verifyHistogram(const HistogramOp &H) {
    if (H.numOperands() < 1 || H.numOperands() > 2) {
      error(H, "expected an input and an optional mask");
      return;
    }
    if (!isIntVal(H.input()) || H.input()->type().Shape.size() != 1)
      error(H, "input must be a 1-D integer tile, got " + typeString(H.input()->type()));
    if (H.mask() &&
        (H.mask()->type().Elem.Scalar != ScalarKind::I1 || H.mask()->type().Shape != H.input()->type().Shape))
      error(H, "mask must be i1 of the input's shape, got " + typeString(H.mask()->type()));
    const TileType &R = H.result()->type();
    if (R.Elem.Scalar != ScalarKind::I32 || R.Elem.isPointer() || R.Shape.size() != 1 || !isPow2(R.Shape[0]))
      error(H, "result must be i32 of a power-of-2 bin count, got " + typeString(R));
  }

  void verifyScan(const ScanOp &S) {
    if (S.numOperands() < 1)
      return error(S, "needs an operand");
    if (!checkAxis(S, S.axis(), S.operand(0)))
      return;
    for (unsigned I = 0; I < S.numOperands() && I < S.numResults(); ++I)
      if (!(S.operand(I)->type() == S.result(I)->type()))
        error(S, "result types must equal operand types");
    if (S.scanKind() == ScanKind::Custom)
      checkCombine(S, S.combine(), S.numOperands());
  }

  void verifyDot(const DotOp &D) {
    if (!hasOperands(D, 3))
      return;
    const auto &A = D.a()->type().Shape, &B = D.b()->type().Shape, &C = D.acc()->type().Shape;
    if (A.size() < 2 || A.size() != B.size() || C.size() != A.size())
      return error(D, "operands must have equal ranks >= 2");
    size_t R = A.size();
    if (A[R - 1] != B[R - 2])
      error(D, "reduction dimensions differ: " + typeString(D.a()->type()) + " and " + typeString(D.b()->type()));
    if (C[R - 2] != A[R - 2] || C[R - 1] != B[R - 1])
      error(D, "accumulator shape " + typeString(D.acc()->type()) + " does not match the product");
    if (D.a()->type().Elem.Scalar != D.b()->type().Elem.Scalar &&
        !(isFloatScalar(D.a()->type().Elem.Scalar) && scalarBits(D.a()->type().Elem.Scalar) == 8 &&
          isFloatScalar(D.b()->type().Elem.Scalar) && scalarBits(D.b()->type().Elem.Scalar) == 8))
      error(D, "operand element types differ");
    expectResultType(D, D.acc()->type());
  }

  void verifyFor(const ForOp &F) {
    if (F.numOperands() < 3)
      return error(F, "needs lower bound, upper bound and step");
    for (unsigned I = 0; I < 3; ++I)
      if (!isScalarInt(F.operand(I)))
        error(F, "bounds and step must be scalar integers, got " + typeString(F.operand(I)->type()));
    sameType(F, F.lowerBound(), F.upperBound(), "bound types differ");
    sameType(F, F.lowerBound(), F.step(), "bound and step types differ");
    if (F.regions().size() != 1)
      return error(F, "needs one body region");
    Block *B = F.body();
    if (B->arguments().size() != F.numInits() + 1)
      return error(F, "body takes the induction variable and one argument per carried value");
    if (!(B->argument(0)->type() == F.lowerBound()->type()))
      error(F, "induction variable type differs from the bounds");
    std::vector<TileType> Carried;
    for (unsigned I = 0; I < F.numInits(); ++I) {
      Carried.push_back(F.init(I)->type());
      if (!(B->argument(I + 1)->type() == F.init(I)->type()) || I >= F.numResults() ||
          !(F.result(I)->type() == F.init(I)->type()))
        error(F, "carried value " + std::to_string(I) + " changes type");
    }
    verifyBlock(*B, OpKind::Yield);
    checkYield(F, B, Carried, "body");
  }

  void verifyWhile(const WhileOp &W) {
    if (W.regions().size() != 2)
      return error(W, "needs before and after regions");
    std::vector<TileType> Carried = resultTypes(W);
    auto checkArgs = [&](const Block *B, const char *Which) {
      bool Ok = B->arguments().size() == W.numOperands();
      for (unsigned I = 0; Ok && I < W.numOperands(); ++I)
        Ok = B->argument(I)->type() == W.operand(I)->type();
      if (!Ok)
        error(W, std::string(Which) + " region arguments do not match the carried values");
    };
    checkArgs(W.before(), "before");
    checkArgs(W.after(), "after");
    verifyBlock(*W.before(), OpKind::Condition);
    if (const Op *C = W.before()->terminator(); C && C->kind() == OpKind::Condition) {
      bool Ok = C->numOperands() == Carried.size() + 1;
      for (unsigned I = 0; Ok && I < Carried.size(); ++I)
        Ok = C->operand(I + 1)->type() == Carried[I];
      if (!Ok)
        error(W, "condition must forward values matching the carried types");
    }
    verifyBlock(*W.after(), OpKind::Yield);
    checkYield(W, W.after(), Carried, "after");
  }

  void verifyIf(const IfOp &I) {
    if (!hasOperands(I, 1))
      return;
    if (!isBool(I.condition()) || !I.condition()->type().Shape.empty())
      error(I, "condition must be a scalar i1, got " + typeString(I.condition()->type()));
    if (I.numResults() && !I.elseBlock())
      error(I, "an if with results needs an else region");
    std::vector<TileType> Ts = resultTypes(I);
    verifyBlock(*I.thenBlock(), OpKind::Yield);
    checkYield(I, I.thenBlock(), Ts, "then");
    if (I.elseBlock()) {
      verifyBlock(*I.elseBlock(), OpKind::Yield);
      checkYield(I, I.elseBlock(), Ts, "else");
    }
  }

  std::unordered_set<const Value *> Visible;
  std::vector<VerifierError> Errors;
};

} // namespace

std::vector<VerifierError> verify(const Function &F) { return Verifier().run(F); }

} // namespace tessel::ir
