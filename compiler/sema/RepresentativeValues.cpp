//===- RepresentativeValues.cpp - values to assume where none is known ----===//
/// \file
/// One walk per function body gathers how each parameter is used; the rules
/// of the header turn the uses into a value. The walk is syntactic, as
/// PointerParams' is: it runs before any specialization exists.
//===----------------------------------------------------------------------===//
#include "compiler/sema/RepresentativeValues.h"

#include "compiler/frontend/AstWalk.h"
#include "compiler/sema/CalledName.h"
#include "compiler/sema/ParamAnnotations.h"
#include "compiler/sema/PointerParams.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>
#include <vector>

namespace tessel::sema {

using namespace ast;

namespace {

/// How one constexpr is used, over the kernel and the helpers it reaches.
struct Uses {
  bool Called = false;
  bool Shape = false;
  bool Condition = false;
  bool LoopBound = false;
  bool Unrolled = false; ///< bounds a tl.static_range: every iteration is code
  bool DType = false;
  /// Values converted to it are shifted or combined bitwise (gemlite's
  /// `tl.load(w).to(out_dtype) << shifts`): an integer dtype.
  bool BitwiseDType = false;
  bool Arithmetic = false;
  bool Dividend = false; ///< `N % BLOCK`, `tl.cdiv(N, BLOCK)`: a size the kernel divides into blocks
  bool Divisor = false;  ///< `tl.cdiv(N, BLOCK)`: the block it divides a size into
  bool Stages = false;   ///< `tl.range(..., num_stages=S)`: a pipeline depth
  bool Used = false;
  bool ComparedNone = false;
  std::optional<PyValue> ComparedWith;
};

/// The walk over one function, where Tracked maps its local names (a
/// parameter, or a local bound to one) to the constexpr they stand for.
struct ConstexprWalk {
  const ModuleInfo &Info;
  std::map<std::string, Uses> &Out;
  unsigned &TileRank;
  std::set<std::pair<const FunctionDefStmt *, std::string>> &Visited;
  const ImportedDefs &Imported;
  int Depth = 0;

  std::string Q(const Expr *E) const { return Info.qualify(E); }

  /// The constexpr E names directly, or null.
  Uses *named(const Expr *E, const std::map<std::string, std::string> &Tracked) const {
    const auto *N = E ? dyn_cast<NameExpr>(E) : nullptr;
    if (!N)
      return nullptr;
    auto It = Tracked.find(N->Id);
    return It == Tracked.end() ? nullptr : &Out[It->second];
  }

  /// Every tracked name inside E (`BLOCK // 2`, `(BLOCK_M, BLOCK_N)`).
  void eachNamed(const Expr *E, const std::map<std::string, std::string> &Tracked,
                 const std::function<void(Uses &)> &F) const {
    if (!E)
      return;
    Walker W;
    W.OnExpr = [&](const Expr *X) {
      if (Uses *U = named(X, Tracked))
        F(*U);
    };
    W.walk(E);
  }

  static bool isNone(const Expr *E) {
    const auto *C = E ? dyn_cast<ConstantExpr>(E) : nullptr;
    return C && C->CK == ConstantKind::None;
  }

  static std::optional<PyValue> literal(const Expr *E) {
    const auto *C = E ? dyn_cast<ConstantExpr>(E) : nullptr;
    if (!C)
      return std::nullopt;
    switch (C->CK) {
    case ConstantKind::Int:
      if (C->IntOverflow || C->IntIsUnsigned64)
        return std::nullopt;
      return PyValue::integer(C->IntValue);
    case ConstantKind::Bool:
      return PyValue::boolean(C->BoolValue);
    case ConstantKind::Float:
      return PyValue::floating(C->FloatValue);
    case ConstantKind::String:
      return PyValue::string(C->StrValue);
    default:
      return std::nullopt;
    }
  }

  /// A shape argument: a tuple or list of sizes, or one size.
  void shape(const Expr *E, const std::map<std::string, std::string> &Tracked) {
    if (!E)
      return;
    const std::vector<Expr *> *Elts = nullptr;
    if (const auto *T = dyn_cast<TupleExpr>(E))
      Elts = &T->Elts;
    else if (const auto *L = dyn_cast<ListExpr>(E))
      Elts = &L->Elts;
    if (Elts)
      TileRank = std::max(TileRank, static_cast<unsigned>(Elts->size()));
    eachNamed(E, Tracked, [](Uses &U) { U.Shape = true; });
  }

  void call(const CallExpr *C, const std::map<std::string, std::string> &Tracked) {
    if (Uses *U = named(C->Func, Tracked))
      U->Called = true;
    auto Arg = [&](size_t I, std::string_view Kw) -> const Expr * {
      if (I < C->Args.size())
        return C->Args[I];
      const Keyword *K = C->keyword(Kw);
      return K ? K->Value : nullptr;
    };
    for (const Keyword &K : C->Keywords)
      if (K.Name == "dtype")
        if (Uses *U = named(K.Value, Tracked))
          U->DType = true;
    std::string Path = Q(C->Func);
    const std::string_view Tl = "triton.language.";
    std::string_view Op = std::string_view(Path).substr(0, Tl.size()) == Tl ? std::string_view(Path).substr(Tl.size())
                                                                            : std::string_view();
    if (Op == "arange") {
      eachNamed(Arg(1, "end"), Tracked, [](Uses &U) { U.Shape = true; });
    } else if (Op == "zeros" || Op == "full" || Op == "empty") {
      shape(Arg(0, "shape"), Tracked);
      if (Op == "full")
        if (Uses *U = named(Arg(2, "dtype"), Tracked))
          U->DType = true;
    } else if (Op == "reshape" || Op == "view" || Op == "broadcast_to") {
      for (size_t I = 1; I < C->Args.size(); ++I)
        shape(C->Args[I], Tracked);
      if (const Keyword *K = C->keyword("shape"))
        shape(K->Value, Tracked);
    } else if (Op == "make_block_ptr" || Op == "make_tensor_descriptor") {
      if (const Keyword *K = C->keyword("block_shape"))
        shape(K->Value, Tracked);
    } else if (Op == "dot" || Op == "dot_scaled") {
      TileRank = std::max(TileRank, 2u);
    } else if (Op == "range" || Op == "static_range" || Path == "builtins.range" ||
               (isa<NameExpr>(C->Func) && cast<NameExpr>(C->Func)->Id == "range")) {
      for (const Expr *A : C->Args)
        eachNamed(A, Tracked, [&](Uses &U) {
          U.LoopBound = true;
          U.Unrolled = U.Unrolled || Op == "static_range";
        });
      if (const Keyword *K = C->keyword("num_stages"))
        if (Uses *U = named(K->Value, Tracked))
          U->Stages = true;
    } else if (Op == "cdiv" || Path == "triton.cdiv") {
      // `for k in range(tl.cdiv(K, BLOCK_K))`: K is a size, BLOCK_K the
      // block a tile (or a descriptor's block) covers of it.
      if (Uses *U = named(Arg(0, "x"), Tracked))
        U->Dividend = true;
      if (Uses *U = named(Arg(1, "div"), Tracked))
        U->Divisor = true;
    } else if (Op == "cast") {
      if (Uses *U = named(Arg(1, "dtype"), Tracked))
        U->DType = true;
    } else if (Op == "where") {
      if (Uses *U = named(Arg(0, "condition"), Tracked))
        U->Condition = true;
    }
    if (const auto *A = dyn_cast<AttributeExpr>(C->Func)) {
      if (A->Attr == "to" && !C->Args.empty())
        if (Uses *U = named(C->Args[0], Tracked))
          U->DType = true;
      if ((A->Attr == "reshape" || A->Attr == "view" || A->Attr == "broadcast_to") && !C->Args.empty())
        shape(C->Args.size() == 1 ? C->Args[0] : nullptr, Tracked);
    }
    // A @jit helper of this module, or one imported from another module of
    // the project (its body is read as the kernel's module's, which only
    // misses its own module's helpers): its parameter's uses are the
    // constexpr's.
    if (const auto *N = dyn_cast<NameExpr>(C->Func); N && Depth < 4) {
      const JitFunction *J = Info.jit(N->Id);
      const FunctionDefStmt *Def = J ? J->Def : nullptr;
      if (!J && Depth == 0 && Imported && !Info.Functions.count(N->Id))
        Def = Imported(N->Id);
      if (Def) {
        std::map<std::string, std::string> Inner;
        const std::vector<Param> &Ps = Def->Params;
        for (size_t I = 0; I < C->Args.size() && I < Ps.size(); ++I)
          if (const auto *A = dyn_cast<NameExpr>(C->Args[I]); A && Tracked.count(A->Id))
            Inner[Ps[I].Name] = Tracked.at(A->Id);
        for (const Keyword &K : C->Keywords)
          if (const auto *A = K.Value ? dyn_cast<NameExpr>(K.Value) : nullptr; A && Tracked.count(A->Id))
            Inner[K.Name] = Tracked.at(A->Id);
        std::erase_if(Inner, [&](const auto &KV) { return !Visited.insert({Def, KV.first}).second; });
        if (!Inner.empty()) {
          ConstexprWalk Sub{Info, Out, TileRank, Visited, Imported, Depth + 1};
          Sub.walk(*Def, Inner);
        }
      }
    }
  }

  void walk(const FunctionDefStmt &Fn, std::map<std::string, std::string> Tracked) {
    Walker W;
    // Locals holding values converted to a tracked dtype (`values =
    // tl.load(p).to(out_dtype)`), by the constexpr they were converted to.
    std::map<std::string, std::string> Converted;
    auto ConvertedBy = [&](const Expr *E) -> Uses * {
      if (const auto *N = dyn_cast<NameExpr>(E))
        if (auto It = Converted.find(N->Id); It != Converted.end())
          return &Out[It->second];
      const auto *C = dyn_cast<CallExpr>(E);
      const auto *A = C ? dyn_cast<AttributeExpr>(C->Func) : nullptr;
      return A && A->Attr == "to" && !C->Args.empty() ? named(C->Args[0], Tracked) : nullptr;
    };
    W.OnStmt = [&](const Stmt *S) {
      if (isa<FunctionDefStmt>(S) || isa<ClassDefStmt>(S))
        return false;
      if (const auto *A = dyn_cast<AssignStmt>(S)) {
        const auto *C = dyn_cast<CallExpr>(A->Value);
        const auto *To = C ? dyn_cast<AttributeExpr>(C->Func) : nullptr;
        const auto *D = To && To->Attr == "to" && !C->Args.empty() ? dyn_cast<NameExpr>(C->Args[0]) : nullptr;
        for (const Expr *T : A->Targets)
          if (const auto *N = dyn_cast<NameExpr>(T)) {
            if (D && Tracked.count(D->Id))
              Converted[N->Id] = Tracked.at(D->Id);
            else
              Converted.erase(N->Id);
          }
      }
      // `B = BLOCK`: B stands for BLOCK from here on.
      // `dtype = tl.float8e5 if FP8 else default_dtype`: one of its values.
      if (const auto *A = dyn_cast<AssignStmt>(S)) {
        const auto *V = dyn_cast<NameExpr>(A->Value);
        if (const auto *IfE = dyn_cast<IfExpExpr>(A->Value)) {
          V = dyn_cast<NameExpr>(IfE->OrElse);
          if (const auto *B = dyn_cast<NameExpr>(IfE->Body); B && Tracked.count(B->Id))
            V = B;
        }
        if (V && Tracked.count(V->Id))
          for (const Expr *T : A->Targets)
            if (const auto *N = dyn_cast<NameExpr>(T))
              Tracked[N->Id] = Tracked.at(V->Id);
      }
      if (const auto *I = dyn_cast<IfStmt>(S))
        if (Uses *U = named(I->Test, Tracked))
          U->Condition = true;
      if (const auto *Wh = dyn_cast<WhileStmt>(S))
        if (Uses *U = named(Wh->Test, Tracked))
          U->Condition = true;
      return true;
    };
    W.OnExpr = [&](const Expr *E) {
      if (Uses *U = named(E, Tracked))
        U->Used = true;
      if (const auto *C = dyn_cast<CallExpr>(E)) {
        call(C, Tracked);
      } else if (const auto *S = dyn_cast<SubscriptExpr>(E)) {
        if (const auto *T = dyn_cast<TupleExpr>(S->Index))
          if (std::any_of(T->Elts.begin(), T->Elts.end(), isNone))
            TileRank = std::max(TileRank, static_cast<unsigned>(T->Elts.size()));
      } else if (const auto *Cmp = dyn_cast<CompareExpr>(E); Cmp && Cmp->Comparators.size() == 1) {
        const Expr *Other = Cmp->Comparators[0];
        Uses *U = named(Cmp->Lhs, Tracked);
        if (!U) {
          U = named(Other, Tracked);
          Other = Cmp->Lhs;
        }
        if (U && isNone(Other))
          U->ComparedNone = true;
        else if (std::optional<PyValue> L = U ? literal(Other) : std::nullopt; L && !U->ComparedWith)
          U->ComparedWith = *L;
      } else if (const auto *B = dyn_cast<BinOpExpr>(E)) {
        for (const Expr *Side : {B->Lhs, B->Rhs})
          if (Uses *U = named(Side, Tracked))
            U->Arithmetic = true;
        if (Uses *U = B->Op == BinOpKind::Mod ? named(B->Lhs, Tracked) : nullptr)
          U->Dividend = true;
        if (B->Op == BinOpKind::LShift || B->Op == BinOpKind::RShift || B->Op == BinOpKind::BitOr ||
            B->Op == BinOpKind::BitXor || B->Op == BinOpKind::BitAnd)
          for (const Expr *Side : {B->Lhs, B->Rhs})
            if (Uses *U = ConvertedBy(Side))
              U->BitwiseDType = true;
      } else if (const auto *Bo = dyn_cast<BoolOpExpr>(E)) {
        for (const Expr *V : Bo->Values)
          if (Uses *U = named(V, Tracked))
            U->Condition = true;
      } else if (const auto *Un = dyn_cast<UnaryOpExpr>(E); Un && Un->Op == UnaryOpKind::Not) {
        if (Uses *U = named(Un->Operand, Tracked))
          U->Condition = true;
      } else if (const auto *IfE = dyn_cast<IfExpExpr>(E)) {
        if (Uses *U = named(IfE->Test, Tracked))
          U->Condition = true;
      }
    };
    W.walk(Fn.Body);
  }
};

std::string upper(std::string S) {
  for (char &C : S)
    C = static_cast<char>(std::toupper(static_cast<unsigned char>(C)));
  return S;
}

bool nameSaysFlag(const std::string &Name) {
  std::string U = upper(Name);
  for (const char *P : {"IS_", "HAS_", "USE_", "ENABLE", "EVEN_", "DO_", "APPLY_", "WITH_", "RETURN_", "SAVE_"})
    if (U.rfind(P, 0) == 0)
      return true;
  return U.find("FLAG") != std::string::npos;
}

bool nameSaysBlock(const std::string &Name) {
  std::string U = upper(Name);
  for (const char *P : {"BLOCK", "TILE", "SIZE", "BLK", "_DIM", "HEAD_D"})
    if (U.find(P) != std::string::npos)
      return true;
  return false;
}

AssumedValue decide(const std::string &Name, const Uses &U, unsigned TileRank) {
  // The tutorials' sizes: 1024 elements in a row, 64 x 64 tiles; a tile of
  // three or more dimensions keeps to 16 a side.
  auto Block = [&](const char *Why) {
    unsigned Rank = std::max(TileRank, 1u);
    return AssumedValue{PyValue::integer(Rank == 1   ? 1024
                                         : Rank == 2 ? 64
                                                     : 16),
                        std::string(Why) + " of a " + std::to_string(Rank) + "-D tile"};
  };
  if (U.Called)
    return {PyValue(), "it is called: a function passed as a constexpr, whose value tessel cannot assume"};
  // An unrolled loop's count is code size: a few iterations stand for many.
  if (U.Unrolled)
    return U.Shape ? AssumedValue{PyValue::integer(16), "sizes a block and bounds a tl.static_range"}
                   : AssumedValue{PyValue::integer(4), "bounds a tl.static_range"};
  if (U.Shape)
    return Block("sizes a block");
  // A pipeline's depth is buffers of shared memory: Triton's default.
  if (U.Stages)
    return {PyValue::integer(3), "a loop's num_stages (Triton's default)"};
  if (U.ComparedNone)
    return {PyValue::none(), "compared with None"};
  if (U.ComparedWith)
    return {*U.ComparedWith, "the first value it is compared with"};
  if (U.DType && U.BitwiseDType)
    return {PyValue::qualified("triton.language.int32"), "used as the dtype of values shifted or combined bitwise"};
  if (U.DType)
    return {PyValue::qualified("triton.language.float32"), "used as a dtype"};
  if (U.Condition || nameSaysFlag(Name))
    return {PyValue::boolean(false), U.Condition ? "used as a condition" : "named as a flag"};
  // `tl.static_assert(N % BLOCK_N == 0)`: a multiple of every block size
  // assumed here (a loop over it then runs 1024 / step times).
  if (U.Dividend)
    return {PyValue::integer(1024), "divided into blocks (`%`, `cdiv`)"};
  if (U.Divisor)
    return Block("divides a size into blocks (`cdiv`)");
  if (U.LoopBound)
    return {PyValue::integer(4), "bounds a loop"};
  if (nameSaysBlock(Name))
    return Block("named as a block size");
  if (U.Arithmetic || U.Used) {
    bool Group = upper(Name).find("GROUP") != std::string::npos;
    return {PyValue::integer(Group ? 8 : 16), U.Arithmetic ? "used in arithmetic" : "passed on"};
  }
  return {PyValue::integer(0), "not used by the kernel"};
}

} // namespace

std::map<std::string, AssumedValue> representativeConstexprs(const JitFunction &Fn, const ModuleInfo &Info,
                                                             const std::set<std::string> &Extra,
                                                             const ImportedDefs &Imported) {
  std::map<std::string, AssumedValue> Result;
  if (!Fn.Def)
    return Result;
  std::map<std::string, std::string> Tracked;
  for (const Param &P : Fn.Def->Params)
    if (isConstexprAnnotation(Info, P.Annotation))
      Tracked[P.Name] = P.Name;
  for (const std::string &N : Extra)
    Tracked[N] = N;
  std::map<std::string, Uses> Found;
  unsigned TileRank = 1;
  std::set<std::pair<const FunctionDefStmt *, std::string>> Visited;
  ConstexprWalk W{Info, Found, TileRank, Visited, Imported};
  W.walk(*Fn.Def, Tracked);
  for (const auto &[Name, Same] : Tracked)
    Result[Name] = decide(Name, Found[Name], TileRank);
  return Result;
}

namespace {

/// The parameter a pointer expression is based on: the leftmost name of a
/// chain of `+`, through assignments of this body (`p = X + offs`).
std::string baseParam(const Expr *E, const std::map<std::string, const Expr *> &Defs,
                      const std::set<std::string> &Params, int Depth = 0) {
  while (E && Depth < 8) {
    if (const auto *B = dyn_cast<BinOpExpr>(E); B && (B->Op == BinOpKind::Add || B->Op == BinOpKind::Sub)) {
      std::string L = baseParam(B->Lhs, Defs, Params, Depth + 1);
      if (!L.empty())
        return L;
      E = B->Rhs;
      ++Depth;
      continue;
    }
    const auto *N = dyn_cast<NameExpr>(E);
    if (!N)
      return "";
    if (Params.count(N->Id))
      return N->Id;
    auto It = Defs.find(N->Id);
    if (It == Defs.end())
      return "";
    E = It->second;
    ++Depth;
  }
  return "";
}

/// The tl.load / atomic call E is, possibly under `.to(...)`, and the
/// conversion's target when there is one.
const CallExpr *loadIn(const Expr *E, const ModuleInfo &Info, const Expr **ConvertedTo) {
  *ConvertedTo = nullptr;
  const auto *C = dyn_cast<CallExpr>(E);
  if (!C)
    return nullptr;
  if (const auto *A = dyn_cast<AttributeExpr>(C->Func); A && A->Attr == "to" && !C->Args.empty()) {
    *ConvertedTo = C->Args[0];
    C = dyn_cast<CallExpr>(A->Value);
    if (!C)
      return nullptr;
  }
  std::string Q = Info.qualify(C->Func);
  return Q == "triton.language.load" && !C->Args.empty() ? C : nullptr;
}

/// The dtype `tl.<name>` names (Types.h's table of triton.language names).
std::optional<ScalarKind> dtypeNamed(const Expr *E, const ModuleInfo &Info) {
  if (!E)
    return std::nullopt;
  std::string Q = Info.qualify(E);
  const std::string_view Tl = "triton.language.";
  if (std::string_view(Q).substr(0, Tl.size()) != Tl)
    return std::nullopt;
  return scalarKindFromLanguageName(std::string_view(Q).substr(Tl.size()));
}

/// A walker's statement step that stays out of nested defs and classes and
/// records what `name = value` assigns (the last assignment wins).
bool recordAssignments(const Stmt *S, std::map<std::string, const Expr *> &Defs) {
  if (isa<FunctionDefStmt>(S) || isa<ClassDefStmt>(S))
    return false;
  if (const auto *A = dyn_cast<AssignStmt>(S))
    for (const Expr *T : A->Targets)
      if (const auto *N = dyn_cast<NameExpr>(T))
        Defs[N->Id] = A->Value;
  return true;
}

} // namespace

static constexpr const char *NoEvidence = "no evidence of its element type";

/// What each helper's own evidence says of its pointer parameters, found
/// once per helper in one inference (kernels call their helpers many times).
using HelperPointers = std::map<const FunctionDefStmt *, std::map<std::string, AssumedPointer>>;

/// Walks the names Roots read, each once, going on into a local's
/// definition (as recordAssignments keeps it) where Follow says so.
static void namesThrough(const std::vector<const Expr *> &Roots, const std::map<std::string, const Expr *> &Defs,
                         const std::function<bool(const std::string &)> &Follow) {
  std::set<std::string> Seen;
  std::vector<const Expr *> Work(Roots.begin(), Roots.end());
  while (!Work.empty()) {
    const Expr *E = Work.back();
    Work.pop_back();
    // `tl.argmax(vals, 0)` is a position, whatever vals hold: the names
    // under it are not followed (vllm's rejection sampler offsets by the
    // argmax of the float maxima it loads).
    std::set<const Expr *> Positions;
    Walker Names;
    Names.OnExpr = [&](const Expr *X) {
      if (Positions.count(X))
        return;
      if (const auto *C = dyn_cast<CallExpr>(X); C && (calledName(C) == "argmax" || calledName(C) == "argmin")) {
        Walker Under;
        Under.OnExpr = [&](const Expr *Y) { Positions.insert(Y); };
        for (const Expr *A : C->Args)
          Under.walk(A);
        if (const auto *F = dyn_cast<AttributeExpr>(C->Func))
          Under.walk(F->Value); // `vals.argmax(0)`
      }
      const auto *N = dyn_cast<NameExpr>(X);
      if (!N || !Seen.insert(N->Id).second || !Follow(N->Id))
        return;
      if (auto D = Defs.find(N->Id); D != Defs.end())
        Work.push_back(D->second);
    };
    Names.walk(E);
  }
}

/// Adds to Out every sum in Fn whose left side is a pointer: pointer
/// arithmetic wherever it is written, not only where a memory op reads it
/// (vllm's LoRA expand helper builds `b_ptr = cur_lora_ptr + stride *
/// lora_index + ...` and hands b_ptr to another helper that loads). Triton
/// adds only integers to pointers, so what is added there is an offset.
static void pointerArithmetic(const FunctionDefStmt &Fn, const ModuleInfo &Info,
                              const std::map<std::string, const Expr *> &Defs, const std::set<std::string> &Pointers,
                              std::vector<const Expr *> &Out) {
  std::function<bool(const Expr *, int)> PointerValued = [&](const Expr *E, int Depth) -> bool {
    if (!E || Depth > 8)
      return false;
    if (!baseParam(E, Defs, Pointers).empty())
      return true;
    if (const auto *B = dyn_cast<BinOpExpr>(E); B && (B->Op == BinOpKind::Add || B->Op == BinOpKind::Sub))
      return PointerValued(B->Lhs, Depth + 1);
    if (const auto *N = dyn_cast<NameExpr>(E)) {
      auto D = Defs.find(N->Id);
      return D != Defs.end() && PointerValued(D->second, Depth + 1);
    }
    const auto *C = dyn_cast<CallExpr>(E);
    if (!C)
      return false;
    const auto *M = dyn_cast<AttributeExpr>(C->Func);
    std::string Q = Info.qualify(C->Func);
    const Expr *To = M && M->Attr == "to" && !C->Args.empty()            ? C->Args[0]
                     : Q == "triton.language.cast" && C->Args.size() > 1 ? C->Args[1]
                                                                         : nullptr;
    const auto *ToCall = To ? dyn_cast<CallExpr>(To) : nullptr;
    if (ToCall && Info.qualify(ToCall->Func) == "triton.language.pointer_type")
      return true;
    // `tl.multiple_of(p, 16)` and friends keep their operand's type.
    if ((Q == "triton.language.multiple_of" || Q == "triton.language.max_contiguous") && !C->Args.empty())
      return PointerValued(C->Args[0], Depth + 1);
    return false;
  };
  Walker Arith;
  Arith.OnStmt = [](const Stmt *S) { return !isa<FunctionDefStmt>(S) && !isa<ClassDefStmt>(S); };
  Arith.OnExpr = [&](const Expr *E) {
    if (const auto *B = dyn_cast<BinOpExpr>(E); B && B->Op == BinOpKind::Add && PointerValued(B->Lhs, 0))
      Out.push_back(B);
  };
  Arith.walk(Fn.Body);
}

/// The parameters of helper H, other than its pointers, that take part in
/// the offsets of its loads, stores and atomics (`c_ptr = out_ptr + ram[:,
/// None] * stride`): what a caller passes there is an index.
static std::set<std::string> offsetParams(const FunctionDefStmt &H, const ModuleInfo &Info) {
  std::set<std::string> Pointers = inferPointerParams(H, Info), Params, Out;
  for (const Param &P : H.Params)
    if (!Pointers.count(P.Name))
      Params.insert(P.Name);
  std::map<std::string, const Expr *> Defs;
  std::vector<const Expr *> PointerOps;
  Walker W;
  W.OnStmt = [&](const Stmt *S) { return recordAssignments(S, Defs); };
  W.OnExpr = [&](const Expr *E) {
    const auto *C = dyn_cast<CallExpr>(E);
    if (!C || C->Args.empty())
      return;
    std::string Q = Info.qualify(C->Func);
    if (Q == "triton.language.load" || Q == "triton.language.store" || Q.rfind("triton.language.atomic_", 0) == 0)
      PointerOps.push_back(C->Args[0]);
  };
  W.walk(H.Body);
  pointerArithmetic(H, Info, Defs, Pointers, PointerOps);
  namesThrough(PointerOps, Defs, [&](const std::string &N) {
    if (!Params.count(N))
      return true;
    Out.insert(N);
    return false;
  });
  return Out;
}

static bool isBitwise(BinOpKind Op) {
  return Op == BinOpKind::LShift || Op == BinOpKind::RShift || Op == BinOpKind::BitOr || Op == BinOpKind::BitXor ||
         Op == BinOpKind::BitAnd;
}

/// Operators Triton applies to integers only: the bitwise ones, and `//`
/// (semantic.floordiv raises "unexpected type fp32" on floats; vllm's
/// attention helpers floor-divide the query offsets they load).
static bool isIntegerOnly(BinOpKind Op) { return isBitwise(Op) || Op == BinOpKind::FloorDiv; }

/// A call of triton.language's random family (`tl.rand(seed, offsets)`),
/// whose seed and offsets are integers.
static bool isRandomCall(const CallExpr *C) {
  std::string_view Fn = calledName(C);
  return Fn == "rand" || Fn == "randn" || Fn == "randint" || Fn == "randint4x" || Fn == "rand4x" || Fn == "randn4x";
}

/// The parameters of helper H it passes as argument Arg (0: the seed, 1: the
/// offsets) of a random number (vllm's `tl_rand64(seed, offset)` calls
/// `tl.randint4x(seed, offset)`).
static std::set<std::string> randomParams(const FunctionDefStmt &H, size_t Arg) {
  std::set<std::string> Params, Out;
  for (const Param &P : H.Params)
    Params.insert(P.Name);
  Walker W;
  W.OnStmt = [](const Stmt *S) { return !isa<FunctionDefStmt>(S) && !isa<ClassDefStmt>(S); };
  W.OnExpr = [&](const Expr *E) {
    if (const auto *C = dyn_cast<CallExpr>(E); C && isRandomCall(C) && C->Args.size() > Arg)
      if (const auto *N = dyn_cast<NameExpr>(C->Args[Arg]); N && Params.count(N->Id))
        Out.insert(N->Id);
  };
  W.walk(H.Body);
  return Out;
}

/// The parameters of helper H that it shifts, combines bitwise or
/// floor-divides (gemlite's
/// `dequantize(b, ...)` computes `(b >> q_shift) & mask`): integers, as
/// Triton has no bitwise operators on floats.
static std::set<std::string> bitwiseParams(const FunctionDefStmt &H) {
  std::set<std::string> Params, Out;
  for (const Param &P : H.Params)
    Params.insert(P.Name);
  Walker W;
  W.OnStmt = [](const Stmt *S) { return !isa<FunctionDefStmt>(S) && !isa<ClassDefStmt>(S); };
  W.OnExpr = [&](const Expr *E) {
    if (const auto *B = dyn_cast<BinOpExpr>(E); B && isIntegerOnly(B->Op))
      for (const Expr *Side : {B->Lhs, B->Rhs})
        if (const auto *N = dyn_cast<NameExpr>(Side); N && Params.count(N->Id))
          Out.insert(N->Id);
  };
  W.walk(H.Body);
  return Out;
}

/// For each value helper H returns (the elements of a returned tuple, or
/// the one value), the parameters of H it was loaded from: vllm's attention
/// helpers load a sequence's start and length and return them, and the
/// kernel offsets and bounds its loads by them.
static std::vector<std::set<std::string>> returnedLoads(const FunctionDefStmt &H, const ModuleInfo &Info) {
  std::set<std::string> Pointers = inferPointerParams(H, Info);
  std::map<std::string, const Expr *> Defs;
  std::map<std::string, std::set<std::string>> LoadedFrom;
  std::vector<const Expr *> Returned;
  Walker W;
  W.OnStmt = [&](const Stmt *S) {
    if (!recordAssignments(S, Defs))
      return false;
    if (const auto *A = dyn_cast<AssignStmt>(S))
      for (const Expr *T : A->Targets)
        if (const auto *N = dyn_cast<NameExpr>(T)) {
          // Rebound to anything else (`ptr = tl.cast(ptr, ...)` makes the
          // loaded address a pointer), the name no longer holds the load.
          LoadedFrom.erase(N->Id);
          const Expr *To = nullptr;
          if (const CallExpr *L = loadIn(A->Value, Info, &To))
            if (std::string P = baseParam(L->Args[0], Defs, Pointers); !P.empty())
              LoadedFrom[N->Id].insert(P);
        }
    if (const auto *R = dyn_cast<ReturnStmt>(S); R && R->Value && Returned.empty())
      Returned.push_back(R->Value);
    return true;
  };
  W.walk(H.Body);
  std::vector<std::set<std::string>> Out;
  if (Returned.empty())
    return Out;
  std::vector<const Expr *> Values{Returned.front()};
  if (const auto *T = dyn_cast<TupleExpr>(Returned.front()))
    Values.assign(T->Elts.begin(), T->Elts.end());
  for (const Expr *V : Values) {
    std::set<std::string> From;
    const Expr *To = nullptr;
    if (const CallExpr *L = loadIn(V, Info, &To)) {
      if (std::string P = baseParam(L->Args[0], Defs, Pointers); !P.empty())
        From.insert(P);
    } else {
      namesThrough({V}, Defs, [&](const std::string &N) {
        auto It = LoadedFrom.find(N);
        if (It == LoadedFrom.end())
          return true;
        From.insert(It->second.begin(), It->second.end());
        return false;
      });
    }
    Out.push_back(std::move(From));
  }
  return Out;
}

static std::map<std::string, AssumedPointer> pointersOf(const FunctionDefStmt &Fn, const ModuleInfo &Info,
                                                        const std::set<std::string> &Pointers, int Depth,
                                                        HelperPointers &Memo, const ImportedDefs &Imported) {
  std::map<std::string, AssumedPointer> Out;
  // Calls of @jit helpers, whose evidence about their pointer parameters is
  // evidence about the pointers passed to them.
  std::vector<std::pair<const CallExpr *, const FunctionDefStmt *>> HelperCalls;
  std::map<std::string, const Expr *> Defs;
  // Locals holding values loaded from a pointer parameter, and how converted.
  // Every pointer a name was loaded from: vllm's sparse attention loads
  // `slot` from one index table in one loop and from another in the next.
  std::map<std::string, std::set<std::string>> LoadedFrom;
  std::map<std::string, std::optional<ScalarKind>> LoadConverted, Stored;
  std::set<std::string> Indices;
  /// Pointers whose loaded values are cast to pointers: tables of addresses
  /// (`tl.cast(tl.load(ptrs + i), tl.pointer_type(tl.int32))` in vllm).
  std::set<std::string> Addresses;
  std::vector<const Expr *> PointerOps; ///< the pointer operands of memory ops
  Walker W;
  W.OnStmt = [&](const Stmt *S) {
    if (!recordAssignments(S, Defs))
      return false;
    if (const auto *A = dyn_cast<AssignStmt>(S))
      for (const Expr *T : A->Targets)
        if (const auto *N = dyn_cast<NameExpr>(T)) {
          // `curr_N = N if SAME_STRIDE else tl.load(hs_ptr + i)` (vllm):
          // either branch's load.
          std::vector<const Expr *> Values{A->Value};
          if (const auto *I = dyn_cast<IfExpExpr>(A->Value))
            Values = {I->Body, I->OrElse};
          for (const Expr *V : Values) {
            const Expr *To = nullptr;
            if (const CallExpr *L = loadIn(V, Info, &To)) {
              std::string P = baseParam(L->Args[0], Defs, Pointers);
              if (!P.empty()) {
                LoadedFrom[N->Id].insert(P);
                if (std::optional<ScalarKind> K = dtypeNamed(To, Info))
                  LoadConverted[P] = K;
              }
            }
          }
        }
    return true;
  };
  W.OnExpr = [&](const Expr *E) {
    const auto *C = dyn_cast<CallExpr>(E);
    if (!C)
      return;
    std::string Q = Info.qualify(C->Func);
    const Expr *To = nullptr;
    if (const CallExpr *L = loadIn(E, Info, &To); L && To) {
      std::string P = baseParam(L->Args[0], Defs, Pointers);
      if (!P.empty())
        if (std::optional<ScalarKind> K = dtypeNamed(To, Info))
          LoadConverted[P] = K;
    }
    if (Q == "triton.language.store" && C->Args.size() >= 2) {
      std::string P = baseParam(C->Args[0], Defs, Pointers);
      const auto *V = dyn_cast<CallExpr>(C->Args[1]);
      const auto *A = V ? dyn_cast<AttributeExpr>(V->Func) : nullptr;
      if (!P.empty() && A && A->Attr == "to" && !V->Args.empty())
        if (std::optional<ScalarKind> K = dtypeNamed(V->Args[0], Info))
          Stored[P] = K;
    }
    // `tl.cast(v, T)` and `v.to(T)` with T a pointer type, or another
    // pointer's `.dtype`, of a value loaded from a pointer.
    {
      const auto *M = dyn_cast<AttributeExpr>(C->Func);
      bool IsTo = M && M->Attr == "to";
      const Expr *From = IsTo ? M->Value : Q == "triton.language.cast" && !C->Args.empty() ? C->Args[0] : nullptr;
      const Expr *To = C->Args.size() > (IsTo ? 0u : 1u) ? C->Args[IsTo ? 0 : 1] : nullptr;
      if (const Keyword *K = C->keyword("dtype"); !To && K)
        To = K->Value;
      const auto *ToCall = To ? dyn_cast<CallExpr>(To) : nullptr;
      const auto *ToAttr = To ? dyn_cast<AttributeExpr>(To) : nullptr;
      bool ToPointer = (ToCall && Info.qualify(ToCall->Func) == "triton.language.pointer_type") ||
                       (ToAttr && ToAttr->Attr == "dtype" && !baseParam(ToAttr->Value, Defs, Pointers).empty());
      if (From && ToPointer) {
        const Expr *Unused = nullptr;
        if (const CallExpr *L = loadIn(From, Info, &Unused)) {
          if (std::string P = baseParam(L->Args[0], Defs, Pointers); !P.empty())
            Addresses.insert(P);
        } else if (const auto *N = dyn_cast<NameExpr>(From)) {
          if (auto It = LoadedFrom.find(N->Id); It != LoadedFrom.end())
            Addresses.insert(It->second.begin(), It->second.end());
        }
      }
    }
    if (Q == "triton.language.load" || Q == "triton.language.store" || Q.rfind("triton.language.atomic_", 0) == 0) {
      if (!C->Args.empty())
        PointerOps.push_back(C->Args[0]);
    } else if (Q == "triton.language.make_block_ptr" || Q == "triton.language.make_tensor_descriptor") {
      // `base=V + kv_offset + begin_k * stride_vn`: the block's base pointer.
      if (!C->Args.empty())
        PointerOps.push_back(C->Args[0]);
      else if (const Keyword *K = C->keyword("base"))
        PointerOps.push_back(K->Value);
    }
    if (const auto *N = dyn_cast<NameExpr>(C->Func)) {
      if (const JitFunction *J = Info.jit(N->Id); J && J->Def && J->Def != &Fn)
        HelperCalls.push_back({C, J->Def});
      else if (!J && Depth == 0 && Imported && !Info.Functions.count(N->Id))
        if (const FunctionDefStmt *D = Imported(N->Id); D && D != &Fn)
          HelperCalls.push_back({C, D}); // a helper of another module of the project
    }
  };
  W.walk(Fn.Body);
  // Names bound to what a helper returns, when it returns values it loaded
  // from the pointers the kernel passes it: loaded from those pointers.
  {
    std::map<const CallExpr *, const FunctionDefStmt *> HelperOf(HelperCalls.begin(), HelperCalls.end());
    std::map<const FunctionDefStmt *, std::vector<std::set<std::string>>> Returns;
    Walker Binds;
    Binds.OnStmt = [&](const Stmt *S) {
      if (isa<FunctionDefStmt>(S) || isa<ClassDefStmt>(S))
        return false;
      const auto *A = dyn_cast<AssignStmt>(S);
      const auto *C = A && A->Targets.size() == 1 ? dyn_cast<CallExpr>(A->Value) : nullptr;
      if (!C)
        return true;
      auto Called = HelperOf.find(C);
      if (Called == HelperOf.end())
        return true;
      const FunctionDefStmt *H = Called->second;
      auto [It, New] = Returns.try_emplace(H);
      if (New)
        It->second = returnedLoads(*H, Info);
      const std::vector<std::set<std::string>> &R = It->second;
      std::vector<const Expr *> Targets{A->Targets[0]};
      if (const auto *T = dyn_cast<TupleExpr>(A->Targets[0]))
        Targets.assign(T->Elts.begin(), T->Elts.end());
      if (Targets.size() != R.size())
        return true;
      std::map<std::string, std::string> Passed; // H's pointer parameter -> the kernel's
      forEachBoundArgument(*C, *H, [&](const std::string &Param, const Expr *Arg) {
        if (std::string P = baseParam(Arg, Defs, Pointers); !P.empty())
          Passed[Param] = P;
      });
      for (size_t I = 0; I < Targets.size(); ++I)
        if (const auto *N = dyn_cast<NameExpr>(Targets[I]))
          for (const std::string &HP : R[I])
            if (auto P = Passed.find(HP); P != Passed.end())
              LoadedFrom[N->Id].insert(P->second);
      return true;
    };
    Binds.walk(Fn.Body);
  }
  // A loaded local that bounds a loop, or is compared with an index tile
  // (`offs < end`), is an integer: its pointer holds int32 sizes or offsets.
  std::set<std::string> Counts;
  auto LoadedIn = [&](const Expr *E, std::set<std::string> &Into) {
    Walker Names;
    Names.OnExpr = [&](const Expr *X) {
      if (const auto *N = dyn_cast<NameExpr>(X))
        if (auto It = LoadedFrom.find(N->Id); It != LoadedFrom.end())
          Into.insert(It->second.begin(), It->second.end());
    };
    Names.walk(E);
  };
  auto HoldsArange = [&](const Expr *E) {
    bool Found = false;
    std::set<std::string> Seen;
    std::vector<const Expr *> Work{E};
    while (!Work.empty() && !Found) {
      const Expr *X = Work.back();
      Work.pop_back();
      Walker W;
      W.OnExpr = [&](const Expr *Y) {
        if (const auto *C = dyn_cast<CallExpr>(Y))
          if (const auto *A = dyn_cast<AttributeExpr>(C->Func); A && (A->Attr == "arange" || A->Attr == "program_id"))
            Found = true;
        if (const auto *N = dyn_cast<NameExpr>(Y); N && Seen.insert(N->Id).second && !LoadedFrom.count(N->Id))
          if (auto D = Defs.find(N->Id); D != Defs.end())
            Work.push_back(D->second);
      };
      W.walk(X);
    }
    return Found;
  };
  Walker Bounds;
  Bounds.OnStmt = [&](const Stmt *S) {
    if (isa<FunctionDefStmt>(S) || isa<ClassDefStmt>(S))
      return false;
    if (const auto *F = dyn_cast<ForStmt>(S))
      if (const auto *C = dyn_cast<CallExpr>(F->Iter))
        for (const Expr *A : C->Args)
          LoadedIn(A, Counts);
    return true;
  };
  Bounds.OnExpr = [&](const Expr *E) {
    const auto *Cmp = dyn_cast<CompareExpr>(E);
    if (!Cmp || Cmp->Comparators.size() != 1)
      return;
    const Expr *L = Cmp->Lhs, *R = Cmp->Comparators[0];
    if (HoldsArange(L))
      LoadedIn(R, Counts);
    if (HoldsArange(R))
      LoadedIn(L, Counts);
  };
  Bounds.walk(Fn.Body);
  pointerArithmetic(Fn, Info, Defs, Pointers, PointerOps);
  // A loaded local that takes part in another pointer's offsets: its pointer holds indices.
  for (const Expr *Ptr : PointerOps) {
    std::string Base = baseParam(Ptr, Defs, Pointers);
    namesThrough({Ptr}, Defs, [&](const std::string &N) {
      auto It = LoadedFrom.find(N);
      if (It == LoadedFrom.end())
        return true;
      for (const std::string &From : It->second)
        if (From != Base)
          Indices.insert(From);
      return false;
    });
  }
  // Values loaded from a pointer and shifted or combined bitwise, here or
  // in a helper they are passed to: the pointer holds integers.
  std::set<std::string> Bitwise;
  Walker Shifts;
  Shifts.OnStmt = [](const Stmt *S) { return !isa<FunctionDefStmt>(S) && !isa<ClassDefStmt>(S); };
  // Values loaded and used as the seed or offsets of random numbers (vllm's
  // samplers load per-request seeds and positions): integers too.
  std::set<std::string> Seeds, Counters;
  Shifts.OnExpr = [&](const Expr *E) {
    if (const auto *B = dyn_cast<BinOpExpr>(E); B && isIntegerOnly(B->Op))
      for (const Expr *Side : {B->Lhs, B->Rhs}) {
        const Expr *To = nullptr;
        if (const auto *N = dyn_cast<NameExpr>(Side)) {
          if (auto It = LoadedFrom.find(N->Id); It != LoadedFrom.end())
            Bitwise.insert(It->second.begin(), It->second.end());
        } else if (const CallExpr *L = loadIn(Side, Info, &To); L && !To) {
          if (std::string P = baseParam(L->Args[0], Defs, Pointers); !P.empty())
            Bitwise.insert(P); // `tl.load(starts + i) // BLOCK_Q`
        }
      }
    if (const auto *C = dyn_cast<CallExpr>(E); C && isRandomCall(C))
      for (size_t I = 0; I < C->Args.size() && I < 2; ++I)
        if (const auto *N = dyn_cast<NameExpr>(C->Args[I]))
          if (auto It = LoadedFrom.find(N->Id); It != LoadedFrom.end())
            (I == 0 ? Seeds : Counters).insert(It->second.begin(), It->second.end());
  };
  Shifts.walk(Fn.Body);
  // A loaded local passed to a helper that offsets a pointer by it (vllm's
  // LoRA kernels hand the token rows they load to `do_shrink_kernel`), or
  // that shifts it.
  // Each helper read once, however often the kernel calls it.
  struct HelperUses {
    std::set<std::string> Offsets, Shifted, Seeds, Counters;
  };
  std::map<const FunctionDefStmt *, HelperUses> HelperParams;
  for (const auto &[C, Def] : HelperCalls) {
    const FunctionDefStmt &H = *Def;
    auto [It, New] = HelperParams.try_emplace(&H);
    if (New)
      It->second = {offsetParams(H, Info), bitwiseParams(H), randomParams(H, 0), randomParams(H, 1)};
    const auto &Uses = It->second;
    if (Uses.Offsets.empty() && Uses.Shifted.empty() && Uses.Seeds.empty() && Uses.Counters.empty())
      continue;
    forEachBoundArgument(*C, H, [&](const std::string &Param, const Expr *Arg) {
      const auto *N = dyn_cast<NameExpr>(Arg);
      auto Loaded = N ? LoadedFrom.find(N->Id) : LoadedFrom.end();
      if (Loaded != LoadedFrom.end()) {
        if (Uses.Shifted.count(Param))
          Bitwise.insert(Loaded->second.begin(), Loaded->second.end());
        if (Uses.Seeds.count(Param))
          Seeds.insert(Loaded->second.begin(), Loaded->second.end());
        if (Uses.Counters.count(Param))
          Counters.insert(Loaded->second.begin(), Loaded->second.end());
      }
      if (!Uses.Offsets.count(Param))
        return;
      Walker Names;
      Names.OnExpr = [&](const Expr *X) {
        if (const auto *M = dyn_cast<NameExpr>(X))
          if (auto It = LoadedFrom.find(M->Id); It != LoadedFrom.end())
            Indices.insert(It->second.begin(), It->second.end());
      };
      Names.walk(Arg);
    });
  }
  for (const std::string &P : Pointers) {
    AssumedPointer A;
    if (Addresses.count(P)) {
      A = {ScalarKind::I64, "its values are addresses, cast to pointers"};
    } else if (Indices.count(P)) {
      bool Widened = LoadConverted.count(P) && LoadConverted[P] == ScalarKind::I64;
      A = {Widened ? ScalarKind::I32 : ScalarKind::I64,
           Widened ? "its values are offsets, widened to int64" : "its values are offsets of other pointers"};
    } else if (Counts.count(P)) {
      A = {ScalarKind::I32, "its values bound loops or are compared with index tiles"};
    } else if (Bitwise.count(P)) {
      A = {ScalarKind::I32, "its values are shifted, combined bitwise or floor-divided"};
    } else if (Seeds.count(P)) {
      A = {ScalarKind::I64, "its values seed random numbers"};
    } else if (Counters.count(P)) {
      // Triton's 32-bit Philox, as for offsets made with tl.arange.
      A = {ScalarKind::I32, "its values are the offsets of random numbers"};
    } else if (auto S = Stored.find(P); S != Stored.end() && S->second) {
      A = {*S->second, "the values stored to it are converted to that type"};
    } else if (auto L = LoadConverted.find(P); L != LoadConverted.end() && L->second == ScalarKind::FP32) {
      A = {ScalarKind::FP16, "its values are converted to float32 when loaded"};
    } else {
      A = {ScalarKind::FP32, NoEvidence};
    }
    Out[P] = std::move(A);
  }
  // What a helper does with a pointer passed to it (`begin = tl.load(offsets
  // + b)` in gdpa's forward helper) types a pointer the kernel's own body
  // gives no evidence for.
  if (Depth >= 3)
    return Out;
  for (const auto &[C, Def] : HelperCalls) {
    const FunctionDefStmt &H = *Def;
    auto [Known, New] = Memo.try_emplace(&H);
    if (New)
      Known->second = pointersOf(H, Info, inferPointerParams(H, Info), Depth + 1, Memo, nullptr);
    const std::map<std::string, AssumedPointer> &Inner = Known->second;
    forEachBoundArgument(*C, H, [&](const std::string &Param, const Expr *Arg) {
      auto In = Inner.find(Param);
      if (In == Inner.end() || In->second.Why == NoEvidence)
        return;
      auto It = Out.find(baseParam(Arg, Defs, Pointers));
      if (It != Out.end() && It->second.Why == NoEvidence)
        It->second = {In->second.Scalar, In->second.Why + " (in " + H.Name + "())"};
    });
  }
  return Out;
}

std::map<std::string, AssumedPointer> representativePointers(const FunctionDefStmt &Fn, const ModuleInfo &Info,
                                                             const std::set<std::string> &Pointers,
                                                             const ImportedDefs &Imported) {
  HelperPointers Memo;
  Memo.emplace(&Fn, std::map<std::string, AssumedPointer>{}); // a helper calling back into Fn adds nothing
  return pointersOf(Fn, Info, Pointers, 0, Memo, Imported);
}

std::set<std::string> innermostStrides(const FunctionDefStmt &Fn, const ModuleInfo &Info,
                                       const std::set<std::string> &Names) {
  std::map<std::string, int> Inner, Outer;
  std::map<std::string, const Expr *> Defs;
  std::set<std::string> Constexprs;
  for (const auto &P : Fn.Params)
    if (isConstexprAnnotation(Info, P.Annotation))
      Constexprs.insert(P.Name);
  // `BLOCK_K * stride_ak` advances a pointer along the axis the stride
  // strides: a product with constexprs and literals alone says nothing of
  // which axis that is (mamba's `a_ptrs += BLOCK_SIZE_K * stride_ak` beside
  // `offs_k[None, :] * stride_ak`).
  auto OnlyConstexprs = [&](const Expr *E) {
    bool Only = true;
    Walker W;
    W.OnExpr = [&](const Expr *X) {
      if (const auto *N = dyn_cast<NameExpr>(X); N && !Constexprs.count(N->Id))
        Only = false;
      else if (!isa<NameExpr>(X) && !isa<ConstantExpr>(X) && !isa<BinOpExpr>(X))
        Only = false;
    };
    W.walk(E);
    return Only;
  };
  auto IsArange = [&](const Expr *E) {
    bool Found = false;
    Walker W;
    W.OnExpr = [&](const Expr *X) {
      if (const auto *C = dyn_cast<CallExpr>(X))
        if (const auto *A = dyn_cast<AttributeExpr>(C->Func); A && A->Attr == "arange")
          Found = true;
    };
    W.walk(E);
    return Found;
  };
  // The axis the other operand of `x * stride` varies along.
  auto Classify = [&](const Expr *Other, const std::string &Stride) {
    if (const auto *S = dyn_cast<SubscriptExpr>(Other))
      if (const auto *T = dyn_cast<TupleExpr>(S->Index); T && !T->Elts.empty()) {
        bool LastIsNone = ConstexprWalk::isNone(T->Elts.back());
        ++(LastIsNone ? Outer : Inner)[Stride];
        return;
      }
    if (OnlyConstexprs(Other))
      return;
    const Expr *E = Other;
    if (const auto *N = dyn_cast<NameExpr>(Other))
      if (auto It = Defs.find(N->Id); It != Defs.end())
        E = It->second;
    ++(IsArange(E) ? Inner : Outer)[Stride];
  };
  Walker W;
  W.OnStmt = [&](const Stmt *S) { return recordAssignments(S, Defs); };
  W.OnExpr = [&](const Expr *E) {
    if (const auto *B = dyn_cast<BinOpExpr>(E); B && B->Op == BinOpKind::Mult) {
      for (auto [Side, Other] : {std::pair{B->Lhs, B->Rhs}, std::pair{B->Rhs, B->Lhs}})
        if (const auto *N = dyn_cast<NameExpr>(Side); N && Names.count(N->Id))
          Classify(Other, N->Id);
      return;
    }
    // `strides=(s0, s1)` of a block pointer or tensor descriptor.
    if (const auto *C = dyn_cast<CallExpr>(E))
      if (const Keyword *K = C->keyword("strides"))
        if (const auto *T = dyn_cast<TupleExpr>(K->Value); T || isa<ListExpr>(K->Value)) {
          const std::vector<Expr *> &Elts = T ? T->Elts : cast<ListExpr>(K->Value)->Elts;
          for (size_t I = 0; I < Elts.size(); ++I)
            if (const auto *N = dyn_cast<NameExpr>(Elts[I]); N && Names.count(N->Id))
              ++(I + 1 == Elts.size() ? Inner : Outer)[N->Id];
        }
  };
  W.walk(Fn.Body);
  std::set<std::string> Out;
  for (const auto &[Name, N] : Inner)
    if (N > Outer[Name])
      Out.insert(Name);
  return Out;
}

} // namespace tessel::sema
