//===- Discovery.cpp - the kernels of a file and how they are launched ----===//
/// \file
/// Walks a module in import order, the way Python would execute it, keeping
/// one namespace (name -> PyValue): imports bind qualified paths, `def`s bind
/// functions, assignments bind what ConstEval computes. Decorators are read
/// when their `def` is reached, so `configs=get_configs()` sees exactly the
/// globals defined above it. A last pass finds launch sites and the calls
/// between @jit functions, which decide IsKernel.
///
/// Problems reported here are the launch-time ones Triton raises from
/// Python: malformed Configs, `num_warps` not a power of two, unknown launch
/// keywords, and re-defined auto-tuned meta-parameters.
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Discovery.h"

#include "compiler/frontend/AstDump.h"
#include "compiler/frontend/AstWalk.h"
#include "compiler/frontend/ConstEval.h"
#include "compiler/frontend/PyOps.h"

#include <algorithm>
#include <set>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>

namespace tessel {

using namespace ast;

namespace {

/// Triton re-exports the same objects under several paths; sema and the
/// checks compare against one spelling.
std::string canonicalPath(std::string P) {
  static const std::pair<const char *, const char *> Exact[] = {
      {"triton.runtime.jit.jit", "triton.jit"},           {"triton.runtime.autotuner.autotune", "triton.autotune"},
      {"triton.runtime.autotune", "triton.autotune"},     {"triton.runtime.autotuner.heuristics", "triton.heuristics"},
      {"triton.runtime.heuristics", "triton.heuristics"}, {"triton.runtime.autotuner.Config", "triton.Config"},
      {"triton.runtime.Config", "triton.Config"},
  };
  for (const auto &[From, To] : Exact)
    if (P == From)
      return To;
  static const std::string Core = "triton.language.core.";
  if (P.rfind(Core, 0) == 0)
    return "triton.language." + P.substr(Core.size());
  return P;
}

bool isPowerOfTwo(int64_t X) { return X > 0 && (X & (X - 1)) == 0; }

/// Options Triton's launcher accepts besides the kernel's parameters
/// (JITFunction.run's own keywords and every CUDAOptions field).
bool isLaunchOption(const std::string &N) {
  static const char *const Options[] = {"grid",
                                        "warmup",
                                        "num_warps",
                                        "num_stages",
                                        "num_ctas",
                                        "maxnreg",
                                        "enable_fp_fusion",
                                        "launch_pdl",
                                        "launch_cooperative_grid",
                                        "debug",
                                        "warp_size",
                                        "cluster_dims",
                                        "ptx_version",
                                        "ptx_options",
                                        "ir_override",
                                        "supported_fp8_dtypes",
                                        "deprecated_fp8_dot_operand_dtypes",
                                        "default_dot_input_precision",
                                        "allowed_dot_input_precisions",
                                        "max_num_imprecise_acc_default",
                                        "extern_libs",
                                        "backend_name",
                                        "sanitize_overflow",
                                        "arch",
                                        "instrumentation_mode",
                                        "stream"};
  for (const char *O : Options)
    if (N == O)
      return true;
  return false;
}

/// The Python type name of a literal that can never be a Config's dict.
const char *nonDictKind(const Expr *E) {
  if (const auto *C = dyn_cast<ConstantExpr>(E)) {
    switch (C->CK) {
    case ConstantKind::Int:
      return "int";
    case ConstantKind::Float:
      return "float";
    case ConstantKind::String:
      return "str";
    case ConstantKind::Bool:
      return "bool";
    case ConstantKind::None:
      return "NoneType";
    case ConstantKind::Bytes:
      return "bytes";
    case ConstantKind::Ellipsis:
      return "ellipsis";
    }
  }
  switch (E->kind()) {
  case ExprKind::List:
  case ExprKind::ListComp:
    return "list";
  case ExprKind::Tuple:
    return "tuple";
  case ExprKind::JoinedStr:
    return "str";
  case ExprKind::Lambda:
    return "function";
  default:
    return nullptr;
  }
}

using Scope = std::map<std::string, PyValue>;

/// What a host function's locals are known to be: names assigned once, at
/// the top of its body, to something ConstEval can compute; every other
/// local is Unknown (never the global of the same name). Each such
/// assignment sees the locals assigned before it, as Python would.
struct LocalScope {
  Scope Values; ///< every bound name; Unknown until its assignment is evaluated
  /// The assignments to evaluate, in order, and the first not yet done:
  /// most launch keywords are literals, so a local is evaluated only when
  /// a launch reads it (or one after it), not for every wrapper.
  std::vector<const AssignStmt *> Pending;
  size_t Next = 0;
  std::map<std::string_view, size_t> PendingIndex;
};

/// The head of a dotted path, "" for a relative one (`..utils.tl`).
std::string_view pathHead(std::string_view P) {
  return P.empty() || P[0] == '.' ? std::string_view() : P.substr(0, P.find('.'));
}

/// Paths the frontend knows stand for themselves; every other import may be
/// a module of the project that re-exports them.
bool externalHead(std::string_view Head) { return Head == "triton" || Head == "math" || Head == "builtins"; }

/// Does a function body read like a Triton kernel: a call of `x.program_id`,
/// or of `x.arange` together with `x.load` or `x.store`, for some x (`tl`,
/// `triton.language`)? numba's and jax's jit functions call neither spelling.
bool readsLikeTriton(const FunctionDefStmt &F) {
  bool ProgramId = false, Arange = false, Memory = false;
  Walker W;
  W.OnExpr = [&](const Expr *E) {
    const auto *C = dyn_cast<CallExpr>(E);
    const auto *A = C ? dyn_cast<AttributeExpr>(C->Func) : nullptr;
    if (!A)
      return;
    ProgramId |= A->Attr == "program_id";
    Arange |= A->Attr == "arange";
    Memory |= A->Attr == "load" || A->Attr == "store";
  };
  W.walk(F.Body);
  return ProgramId || (Arange && Memory);
}

class Discoverer {
public:
  Discoverer(const Module &M, ProblemSink &Sink, const ExternalResolver &Resolver)
      : M(M), Sink(Sink), Resolver(Resolver) {}

  ModuleInfo run() {
    process(M.Body, /*Conditional=*/false);
    Info.Jit.forEachMutable([&](const std::string &Name, JitFunction &J) {
      JitDefs.insert(J.Def);
      JitByName.emplace(Name, &J);
    });
    for (size_t I = 0; I < Info.Order.size(); ++I)
      JitByName.at(Info.Order[I])->Position = I;
    forgetRebound();
    scanLaunches(M.Body, nullptr);
    decideKernels();
    return std::move(Info);
  }

private:
  const Module &M;
  ProblemSink &Sink;
  const ExternalResolver &Resolver;
  std::map<std::string, std::string> Resolved; ///< the resolver's answers, by path asked
  ModuleInfo Info;
  Scope NS;                                         ///< the module namespace, as import-time Python sees it
  std::map<std::string, const Stmt *> DefiningStmt; ///< the statement that last bound a global
  std::set<std::string> Heuristicked;
  std::map<const FunctionDefStmt *, LocalScope> LocalScopes;
  std::unordered_set<const FunctionDefStmt *> JitDefs; ///< the Defs of Info.Jit, once all are known
  /// Info.Jit hashed, once all are known: the launch scan and the kernel
  /// decision look up every name written in the file's functions, and with
  /// 13,000 kernels named alike (`scale_kernel_123`) the map's string
  /// comparisons were a quarter of discovery.
  std::unordered_map<std::string_view, JitFunction *> JitByName;

  ConstEval::GlobalLookup moduleLookup() {
    return [this](const std::string &N) {
      auto It = NS.find(N);
      return It == NS.end() ? PyValue() : It->second;
    };
  }

  PyValue evalModule(const Expr *E) {
    ConstEval CE(Info, moduleLookup());
    return CE.eval(E);
  }

  /// The canonical qualified path an expression names, through imports and
  /// module-level aliases (`my_jit = triton.jit`), and through the project's
  /// modules (`pkg.triton_utils.triton.jit`, `utils.jit`); "" otherwise.
  std::string pathOf(const Expr *E) {
    PyValue V = meaning(evalModule(E));
    return V.kind() == PyValue::Kind::Qualified ? canonicalPath(V.qualifiedPath()) : std::string();
  }

  /// V, or what the project says V stands for when V is a path into one of
  /// its modules that re-exports triton (or math): the one place discovery
  /// asks the project, so imports, module-level aliases and decorators all
  /// see `from pkg.triton_utils import tl, triton` as triton itself.
  PyValue meaning(PyValue V) {
    if (V.kind() != PyValue::Kind::Qualified)
      return V;
    const std::string &P = V.qualifiedPath();
    if (externalHead(pathHead(P)))
      return V;
    Info.ImportsProjectPaths = true;
    if (!Resolver)
      return V;
    auto It = Resolved.find(P);
    if (It == Resolved.end()) {
      // Only an answer that changed a meaning keeps what it read: a module
      // that stops re-exporting triton must re-check this one's kernels, but
      // an edit of the helper module `from utils import h` names must not
      // re-check kernels that never call h (sema's own reads cover those).
      std::map<std::string, uint64_t> Read;
      It = Resolved.emplace(P, Resolver(P, Read)).first;
      if (!It->second.empty())
        Info.ProjectReads.insert(Read.begin(), Read.end());
    }
    return It->second.empty() ? V : PyValue::qualified(canonicalPath(It->second));
  }

  //===--------------------------------------------------------------------===//
  // Module-level statements, in order
  //===--------------------------------------------------------------------===//

  /// Names imported by an earlier branch of the conditional statement being
  /// processed (`try: from a import f` / `except ImportError: from b import
  /// f`, `if new_triton(): ... else: ...`); null outside one.
  std::set<std::string> *BranchImports = nullptr;
  /// What each branch of the undecided `if` being processed assigned, in
  /// order (null outside one): the branch, whether it is a triton branch,
  /// and the value (Unknown where ConstEval could not compute it).
  struct BranchValue {
    int Branch;
    bool Triton;
    PyValue V;
  };
  std::map<std::string, std::vector<BranchValue>> *BranchValues = nullptr;
  /// Inside an undecided conditional (`if has_triton():`, `try: import
  /// triton`): the branch being processed, whether it is a triton branch
  /// (tritonBranch), and per name a triton branch bound by `def`, that branch
  /// (null outside one). Python on a machine with triton and a GPU runs the
  /// triton branch, as pyright takes `TYPE_CHECKING` as true: it is processed
  /// first (processBranches, so its imports win), and a non-triton branch's
  /// `def` or assignment of a name it defined (the raising stub of `else:`) is
  /// a fallback that machine never runs. Between two triton branches (`if
  /// is_hip(): ... else: ...`), or two others, the last still wins.
  std::map<std::string, int> *BranchDefs = nullptr;
  int Branch = 0, NextBranch = 0;
  bool InTritonBranch = false;

  bool keptFromOtherBranch(const std::string &Name) const {
    if (!BranchDefs || InTritonBranch)
      return false;
    auto It = BranchDefs->find(Name);
    return It != BranchDefs->end() && It->second != Branch;
  }

  /// Does a branch import triton or define a function decorated `...jit`
  /// (looked at lexically: its imports are not bound yet)?
  bool tritonBranch(const Block &B) const {
    for (const Stmt *S : B) {
      if (const auto *I = dyn_cast<ImportStmt>(S)) {
        for (const ImportAlias &A : I->Names)
          if (pathHead(A.Name) == "triton")
            return true;
      } else if (const auto *I = dyn_cast<ImportFromStmt>(S)) {
        if (I->Level == 0 && pathHead(I->Module) == "triton")
          return true;
      } else if (const auto *F = dyn_cast<FunctionDefStmt>(S)) {
        if (jitNamed(*F))
          return true;
      } else if (const auto *If = dyn_cast<IfStmt>(S)) {
        if (tritonBranch(If->Body) || tritonBranch(If->OrElse))
          return true;
      } else if (const auto *U = dyn_cast<UnsupportedStmt>(S)) {
        // `try: from triton.language.extra.libdevice import tanh` (Liger's
        // dyt.py, under an undecided version check) imports triton too.
        for (const Block &Inner : U->Blocks)
          if (tritonBranch(Inner))
            return true;
      }
    }
    return false;
  }

  /// Is one of F's decorators spelled `jit` or `x.jit` (called or not)?
  static bool jitNamed(const FunctionDefStmt &F) {
    for (const Expr *D : F.Decorators) {
      const auto *Call = dyn_cast<CallExpr>(D);
      std::string Name = dottedName(Call ? Call->Func : D);
      if (Name == "jit" || (Name.size() > 4 && Name.compare(Name.size() - 4, 4, ".jit") == 0))
        return true;
    }
    return false;
  }

  /// Is one of F's decorators `triton.jit` as the module sees it (or spelled
  /// so, for a `def` whose enclosing function imports triton itself)?
  bool tritonDecorated(const FunctionDefStmt &F) {
    for (const Expr *D : F.Decorators) {
      const auto *Call = dyn_cast<CallExpr>(D);
      const Expr *Callee = Call ? Call->Func : D;
      if (dottedName(Callee) == "triton.jit" || pathOf(Callee) == "triton.jit")
        return true;
    }
    return false;
  }

  /// `try: get_int_dtype = triton.runtime.jit.constexpr_function(core.get_int_dtype)
  /// except Exception: get_int_dtype = core.get_int_dtype` (lmdeploy's bitonic
  /// top-k): on a machine with Triton 3.6 the try body runs to its end when
  /// every assignment in it evaluates, and the handler, another Triton's
  /// fallback, never runs. The values the body's assignments give, when all
  /// evaluate to known values; empty otherwise (and under a condition).
  std::map<std::string, PyValue> tryBodyValues(const UnsupportedStmt &U, bool Conditional) {
    std::map<std::string, PyValue> Out;
    if (Conditional || (U.PyName != "Try" && U.PyName != "TryStar") || U.Blocks.empty())
      return Out;
    Scope Trial = NS;
    ConstEval CE(Info, moduleLookup());
    std::set<std::string> Names;
    for (const Stmt *St : U.Blocks.front()) {
      if (!isa<AssignStmt>(St))
        continue;
      boundNames(St, Names);
      if (!CE.exec(Block{const_cast<Stmt *>(St)}, Trial))
        return {};
    }
    for (const std::string &N : Names) {
      PyValue V = meaning(Trial[N]);
      if (V.isUnknown())
        return {};
      Out[N] = V;
    }
    return Out;
  }

  /// Processes the branches of one undecided conditional, the triton branch
  /// first (BranchDefs).
  void processBranches(std::vector<const Block *> Blocks) {
    std::stable_partition(Blocks.begin(), Blocks.end(), [&](const Block *B) { return tritonBranch(*B); });
    std::map<std::string, int> Defs, *Outer = BranchDefs;
    if (!Outer)
      BranchDefs = &Defs;
    int Saved = Branch;
    bool SavedTriton = InTritonBranch;
    for (const Block *B : Blocks) {
      Branch = ++NextBranch;
      InTritonBranch = SavedTriton || tritonBranch(*B);
      process(*B, true);
    }
    Branch = Saved;
    InTritonBranch = SavedTriton;
    BranchDefs = Outer;
  }

  /// The value a name bound in the branches of an undecided `if` has on a
  /// machine with triton and a CUDA GPU: the last one the triton branch
  /// gives it (`if has_triton(): TILE_ELEMS = tl.constexpr(512)` in
  /// torchao), the same in every triton branch; else cudaChoice's.
  static std::optional<PyValue> branchChoice(const std::vector<BranchValue> &Values) {
    std::map<int, const PyValue *> LastOfTritonBranch;
    for (const BranchValue &B : Values)
      if (B.Triton)
        LastOfTritonBranch[B.Branch] = &B.V;
    if (!LastOfTritonBranch.empty()) {
      const PyValue &First = *LastOfTritonBranch.begin()->second;
      bool Same = !First.isUnknown() && First.kind() != PyValue::Kind::Tensor;
      for (const auto &[Branch, V] : LastOfTritonBranch)
        Same = Same && V->kind() == First.kind() && V->repr() == First.repr();
      if (Same)
        return First;
    }
    std::vector<PyValue> All;
    for (const BranchValue &B : Values)
      All.push_back(B.V);
    return cudaChoice(All);
  }

  /// A name every branch of an undecided `if` binds to a function of
  /// triton.language, some of them another vendor's (`if DEVICE_TYPE ==
  /// "xpu": tanh = tl.extra.intel.libdevice.tanh else: tanh =
  /// libdevice.tanh`): on the machine tessel models (CUDA) it is the one no
  /// other vendor's module names.
  static std::optional<PyValue> cudaChoice(const std::vector<PyValue> &Values) {
    if (Values.size() < 2)
      return std::nullopt;
    std::optional<PyValue> Pick;
    for (const PyValue &V : Values) {
      if (V.kind() != PyValue::Kind::Qualified || V.qualifiedPath().rfind("triton.language.", 0) != 0)
        return std::nullopt;
      const std::string &P = V.qualifiedPath();
      bool OtherVendor = false;
      for (const char *Vendor : {".intel.", ".amd.", ".hip.", ".musa.", ".ascend.", ".mlu.", ".xpu.", ".npu."})
        OtherVendor |= P.find(Vendor) != std::string::npos;
      if (OtherVendor)
        continue;
      if (Pick && Pick->qualifiedPath() != P)
        return std::nullopt;
      Pick = V;
    }
    return Pick;
  }

  void bindImport(const std::string &Local, const std::string &Path) {
    // The first branch is what a machine with a current triton runs, as
    // pyright takes `TYPE_CHECKING` as true: a fallback import of the same
    // name in a later branch does not replace it.
    if (BranchImports && !BranchImports->insert(Local).second)
      return;
    PyValue V = meaning(PyValue::qualified(Path));
    Info.Imports[Local] = V.qualifiedPath() == Path ? Path : V.qualifiedPath();
    NS[Local] = PyValue::qualified(canonicalPath(V.qualifiedPath()));
    Info.Globals.erase(Local);
  }

  void process(const Block &B, bool Conditional) {
    for (const Stmt *S : B) {
      switch (S->kind()) {
      case StmtKind::Import:
        for (const ImportAlias &A : cast<ImportStmt>(S)->Names) {
          if (!A.AsName.empty())
            bindImport(A.AsName, A.Name);
          else {
            std::string Head = A.Name.substr(0, A.Name.find('.'));
            bindImport(Head, Head); // `import a.b` binds `a`
          }
        }
        break;
      case StmtKind::ImportFrom: {
        const auto *I = cast<ImportFromStmt>(S);
        std::string Base = std::string(static_cast<size_t>(I->Level), '.') + I->Module;
        for (const ImportAlias &A : I->Names) {
          if (A.Name == "*") {
            Info.StarImports.push_back(Base);
            continue;
          }
          std::string Path = Base.empty() || Base.back() == '.' ? Base + A.Name : Base + "." + A.Name;
          bindImport(A.AsName.empty() ? A.Name : A.AsName, Path);
        }
        break;
      }
      case StmtKind::FunctionDef: {
        const auto *F = cast<FunctionDefStmt>(S);
        if (Conditional && keptFromOtherBranch(F->Name))
          break; // the stub of a branch a machine with triton does not run
        if (BranchDefs && InTritonBranch)
          (*BranchDefs)[F->Name] = Branch;
        Info.Functions[F->Name] = F;
        Info.Globals.erase(F->Name);
        NS[F->Name] = PyValue::function(F);
        readDecorators(F);
        break;
      }
      case StmtKind::ClassDef: {
        const auto *C = cast<ClassDefStmt>(S);
        NS[C->Name] = PyValue();
        Info.Globals.erase(C->Name);
        break;
      }
      case StmtKind::If: {
        const auto *I = cast<IfStmt>(S);
        std::optional<bool> T = Conditional ? std::nullopt : evalModule(I->Test).truthy();
        if (T) {
          for (const Stmt *Skipped : *T ? I->OrElse : I->Body)
            if (const auto *F = dyn_cast<FunctionDefStmt>(Skipped); F && looksLikeKernel(*F))
              Info.UntakenJit.push_back(F->Decorators.front()->Range);
          process(*T ? I->Body : I->OrElse, Conditional);
        } else {
          std::set<std::string> Imported, *Outer = BranchImports;
          std::map<std::string, std::vector<BranchValue>> Values, *OuterValues = BranchValues;
          if (!Outer)
            BranchImports = &Imported;
          if (!OuterValues)
            BranchValues = &Values;
          processBranches({&I->Body, &I->OrElse});
          BranchImports = Outer;
          BranchValues = OuterValues;
          for (const auto &[Name, Vs] : Values)
            if (auto G = Info.Globals.find(Name); G != Info.Globals.end()) {
              std::optional<PyValue> V = branchChoice(Vs);
              NS[Name] = V ? *V : PyValue();
              G->second.Value = NS[Name];
            }
        }
        break;
      }
      case StmtKind::With:
        process(cast<WithStmt>(S)->Body, Conditional);
        break;
      case StmtKind::Unsupported:
        // `try: import triton ... except ImportError: ...`: imports and defs
        // in any branch are what the file means to use.
        {
          const auto *U = cast<UnsupportedStmt>(S);
          std::map<std::string, PyValue> TryBody = tryBodyValues(*U, Conditional);
          std::set<std::string> Imported, *Outer = BranchImports;
          if (!Outer)
            BranchImports = &Imported;
          std::vector<const Block *> Blocks;
          for (const Block &Inner : U->Blocks)
            Blocks.push_back(&Inner);
          processBranches(std::move(Blocks));
          BranchImports = Outer;
          for (const auto &[Name, V] : TryBody)
            if (auto G = Info.Globals.find(Name); G != Info.Globals.end() && G->second.Value.isUnknown()) {
              G->second.Value = V;
              NS[Name] = V;
            }
        }
        break;
      case StmtKind::Assign:
      case StmtKind::AnnAssign:
      case StmtKind::AugAssign:
      case StmtKind::ExprStmt:
      case StmtKind::For:
      case StmtKind::While:
        execute(S, Conditional);
        break;
      default:
        break;
      }
    }
  }

  /// Runs one plain statement with ConstEval and records what it bound.
  void execute(const Stmt *S, bool Conditional) {
    std::set<std::string> Names;
    boundNames(S, Names);
    if (isa<ExprStmt>(S) && Names.empty())
      return; // a bare call (print, a launch): nothing to bind
    // `except ImportError: triton = None`: a fallback in a branch does not
    // undo the import the file is written against; `else: f = None` does not
    // undo the triton branch's `def f` either.
    Scope KeptImports;
    if (Conditional)
      for (auto It = Names.begin(); It != Names.end();) {
        if (!Info.Imports.count(*It) && !keptFromOtherBranch(*It)) {
          ++It;
          continue;
        }
        KeptImports[*It] = NS[*It];
        It = Names.erase(It);
      }
    ConstEval CE(Info, moduleLookup());
    bool Ok = CE.exec(Block{const_cast<Stmt *>(S)}, NS);
    for (const auto &[Name, Value] : KeptImports)
      NS[Name] = Value;
    bool Constexpr = isConstexprDefinition(S);
    bool Instance = isConstexprInstance(S);
    // `body = triton.jit(body)` rebinds the def it decorates: find it first.
    const FunctionDefStmt *Base = nullptr;
    const auto *A = dyn_cast<AssignStmt>(S);
    const NameExpr *Target = A && A->Targets.size() == 1 ? dyn_cast<NameExpr>(A->Targets[0]) : nullptr;
    if (Target)
      if (const NameExpr *B = decoratedName(A->Value))
        if (auto It = Info.Functions.find(B->Id); It != Info.Functions.end())
          Base = It->second;
    for (const std::string &N : Names) {
      if (Ok)
        NS[N] = meaning(NS[N]); // `tl = triton_utils.tl`: the alias of what it stands for
      if (Conditional && BranchValues)
        (*BranchValues)[N].push_back({Branch, InTritonBranch, Ok ? NS[N] : PyValue()});
      // Inside the triton branch of an undecided conditional, later
      // statements of that branch see its values, as Python with triton runs
      // it; the conditional's end decides what stays (branchChoice).
      if (!Ok || (Conditional && !InTritonBranch))
        NS[N] = PyValue();
      GlobalSymbol G;
      G.Name = N;
      G.Range = S->Range;
      G.Value = NS[N];
      G.IsConstexpr = Constexpr;
      G.IsConstexprInstance = Instance;
      Info.Globals[N] = G;
      DefiningStmt[N] = S;
      Info.Functions.erase(N);
    }
    if (Target)
      functionalDecorators(Target->Id, A->Value, Base);
  }

  /// The name at the bottom of `d1(...)(d2(name))`, if Value has that shape.
  static const NameExpr *decoratedName(const Expr *Value) {
    const Expr *Cur = Value;
    bool Applied = false;
    while (const auto *C = dyn_cast<CallExpr>(Cur)) {
      if (C->Args.size() != 1)
        return nullptr;
      Cur = C->Args[0];
      Applied = true;
    }
    return Applied ? dyn_cast<NameExpr>(Cur) : nullptr;
  }

  bool isConstexprCall(const Expr *E) {
    // `tl.constexpr(v) if HAS_TRITON else v` (vllm): a machine with triton
    // takes the branch that uses it.
    if (const auto *I = E ? dyn_cast<IfExpExpr>(E) : nullptr) {
      if (std::optional<bool> T = evalModule(I->Test).truthy())
        return isConstexprCall(*T ? I->Body : I->OrElse);
      return isConstexprCall(I->Body) || isConstexprCall(I->OrElse);
    }
    const auto *C = dyn_cast_or_null(E);
    return C && pathOf(C->Func) == "triton.language.constexpr";
  }
  static const CallExpr *dyn_cast_or_null(const Expr *E) { return E ? dyn_cast<CallExpr>(E) : nullptr; }

  bool isConstexprInstance(const Stmt *S) {
    if (const auto *A = dyn_cast<AssignStmt>(S))
      return isConstexprCall(A->Value);
    if (const auto *An = dyn_cast<AnnAssignStmt>(S))
      return isConstexprCall(An->Value);
    return false;
  }

  bool isConstexprDefinition(const Stmt *S) {
    if (const auto *A = dyn_cast<AssignStmt>(S))
      return isConstexprCall(A->Value);
    if (const auto *An = dyn_cast<AnnAssignStmt>(S))
      return pathOf(An->Annotation) == "triton.language.constexpr" || isConstexprCall(An->Value);
    return false;
  }

  //===--------------------------------------------------------------------===//
  // Decorators
  //===--------------------------------------------------------------------===//

  JitFunction &jitEntry(const std::string &Name, const FunctionDefStmt *Def) {
    if (!Info.Jit.count(Name))
      Info.Order.push_back(Name);
    JitFunction &J = Info.Jit[Name];
    J = JitFunction();
    J.Def = Def;
    J.Name = Name;
    return J;
  }

  void readDecorators(const FunctionDefStmt *F) {
    JitFunction J;
    J.Def = F;
    J.Name = F->Name;
    if (!F->Decorators.empty() && applyDecorators(J, F->Decorators)) {
      jitEntry(F->Name, F) = std::move(J);
      return;
    }
    if (jitNamed(*F) && readsLikeTriton(*F))
      Info.UnresolvedJit.push_back(F->Decorators.front()->Range);
    if (Info.Jit.count(F->Name)) { // a later non-jit def replaces an earlier @jit one
      Info.Jit.erase(F->Name);
      Info.Order.erase(std::remove(Info.Order.begin(), Info.Order.end(), F->Name), Info.Order.end());
    }
  }

  /// Applies decorators (outermost first) to J; true if one of them is jit.
  bool applyDecorators(JitFunction &J, const std::vector<Expr *> &Decorators) {
    bool IsJit = false;
    for (const Expr *D : Decorators) {
      const auto *Call = dyn_cast<CallExpr>(D);
      std::string P = pathOf(Call ? Call->Func : D);
      if (P == "triton.jit") {
        IsJit = true;
        J.DecoratorRange = D->Range;
        if (Call)
          for (const Keyword &K : Call->Keywords)
            if (!K.Name.empty())
              J.JitOptions.emplace_back(K.Name, evalModule(K.Value));
      } else if (P == "triton.autotune" && Call) {
        autotune(J, Call);
      } else if (P == "triton.heuristics" && Call) {
        heuristics(J, Call);
      }
    }
    return IsJit;
  }

  static const Expr *argument(const CallExpr *C, size_t Pos, const char *Name) {
    if (const Keyword *K = C->keyword(Name))
      return K->Value;
    return Pos < C->Args.size() && !isa<StarredExpr>(C->Args[Pos]) ? C->Args[Pos] : nullptr;
  }

  /// The triton.Config(...) calls an expression builds its list from:
  /// written inline, in a comprehension, in the globals it reads, or in the
  /// bodies of the helpers it calls (followed transitively).
  std::vector<const CallExpr *> configCalls(const Expr *E) {
    std::vector<const CallExpr *> Out;
    std::set<const void *> Seen;
    std::vector<const Stmt *> Pending;
    Walker W;
    W.OnStmt = [&](const Stmt *) { return true; };
    W.OnExpr = [&](const Expr *X) {
      if (const auto *N = dyn_cast<NameExpr>(X)) {
        if (auto It = DefiningStmt.find(N->Id); It != DefiningStmt.end() && Seen.insert(It->second).second)
          Pending.push_back(It->second);
        if (auto It = Info.Functions.find(N->Id); It != Info.Functions.end() && Seen.insert(It->second).second)
          Pending.push_back(It->second);
        return;
      }
      const auto *C = dyn_cast<CallExpr>(X);
      if (C && Seen.insert(C).second && pathOf(C->Func) == "triton.Config")
        Out.push_back(C);
    };
    W.walk(E);
    while (!Pending.empty()) {
      const Stmt *S = Pending.back();
      Pending.pop_back();
      if (const auto *F = dyn_cast<FunctionDefStmt>(S)) {
        Info.ConfigBodies.insert(F->Name);
        W.walk(F->Body); // not its decorators: they are not part of the list
      } else
        W.walk(S);
    }
    return Out;
  }

  void checkConfigCall(const CallExpr *C) {
    const Expr *Kw = argument(C, 0, "kwargs");
    if (!Kw) {
      Sink.report(ProblemKind::LaunchOption, C->Range,
                  "triton.Config() missing 1 required positional argument: 'kwargs' (a dict of meta-parameters)");
    } else if (const char *Kind = nonDictKind(Kw)) {
      Sink.report(ProblemKind::LaunchOption, Kw->Range,
                  std::string("triton.Config expects a dict of meta-parameters as its first argument, got ") + Kind);
    }
    if (const Keyword *NW = C->keyword("num_warps"))
      if (const auto *K = dyn_cast<ConstantExpr>(NW->Value);
          K && K->CK == ConstantKind::Int && !K->IntOverflow && !isPowerOfTwo(K->IntValue))
        Sink.report(ProblemKind::LaunchOption, NW->Range, "num_warps must be a power of 2");
  }

  void autotune(JitFunction &J, const CallExpr *Call) {
    J.HasAutotune = true;
    const Expr *Configs = argument(Call, 0, "configs");
    if (const Expr *Key = argument(Call, 1, "key")) {
      PyValue K = evalModule(Key);
      if (K.isSequence())
        for (const PyValue &E : K.elements())
          if (E.isStr())
            J.AutotuneKey.push_back(E.asStr());
    }
    if (!Configs) {
      J.ConfigsUnknown = true;
      return;
    }
    std::vector<const CallExpr *> Calls = configCalls(Configs);
    for (const CallExpr *C : Calls)
      checkConfigCall(C);
    PyValue V = evalModule(Configs);
    if (!V.isSequence()) {
      J.ConfigsUnknown = true;
      return;
    }
    if (V.elements().empty()) { // Triton then tunes over the single default Config
      J.Configs.push_back({PyConfig(), Configs->Range});
      return;
    }
    const std::vector<Expr *> *Inline = nullptr;
    if (const auto *L = dyn_cast<ListExpr>(Configs))
      Inline = &L->Elts;
    else if (const auto *T = dyn_cast<TupleExpr>(Configs))
      Inline = &T->Elts;
    if (Inline && Inline->size() != V.elements().size())
      Inline = nullptr;
    for (size_t I = 0; I < V.elements().size(); ++I) {
      const PyValue &C = V.elements()[I];
      if (C.kind() != PyValue::Kind::Config) {
        J.ConfigsUnknown = true;
        continue;
      }
      // Where this config was written: its own element, the one Config call
      // that builds them all, or the whole configs expression.
      const CallExpr *Source = nullptr;
      if (Inline)
        Source = dyn_cast<CallExpr>((*Inline)[I]);
      else if (Calls.size() == 1)
        Source = Calls.front();
      SourceRange R = Inline ? (*Inline)[I]->Range : Source ? Source->Range : Configs->Range;
      J.Configs.push_back({C.asConfig(), R});
      if (!isPowerOfTwo(C.asConfig().NumWarps)) {
        const Keyword *NW = Source ? Source->keyword("num_warps") : nullptr;
        Problem P{ProblemKind::LaunchOption, NW ? NW->Range : R, "num_warps must be a power of 2", {}, {}, {}};
        P.Specialization = C.repr();
        Sink.report(std::move(P));
      }
    }
  }

  void heuristics(JitFunction &J, const CallExpr *Call) {
    Heuristicked.insert(J.Name);
    const Expr *Values = argument(Call, 0, "values");
    if (!Values)
      return;
    if (const auto *D = dyn_cast<DictExpr>(Values)) {
      for (const Expr *K : D->Keys)
        if (const auto *C = K ? dyn_cast<ConstantExpr>(K) : nullptr; C && C->CK == ConstantKind::String)
          J.HeuristicNames.push_back(C->StrValue);
      return;
    }
    PyValue V = evalModule(Values);
    if (V.kind() == PyValue::Kind::Dict)
      for (const auto &KV : V.items())
        if (KV.first.isStr())
          J.HeuristicNames.push_back(KV.first.asStr());
  }

  /// `kernel = triton.autotune(...)(triton.jit(fn))` and `k = triton.jit(fn)`.
  void functionalDecorators(const std::string &Target, const Expr *Value, const FunctionDefStmt *BaseDef) {
    std::vector<Expr *> Decorators;
    const Expr *Cur = Value;
    while (const auto *C = dyn_cast<CallExpr>(Cur)) {
      if (C->Args.size() != 1)
        return;
      // `f(...)(x)`: the decorator is the inner call; `jit(x, debug=True)`:
      // the call itself carries the options.
      Decorators.push_back(isa<CallExpr>(C->Func) ? C->Func : const_cast<CallExpr *>(C));
      Cur = C->Args[0];
    }
    const auto *Base = dyn_cast<NameExpr>(Cur);
    if (!Base || Decorators.empty())
      return;
    auto Existing = Info.Jit.find(Base->Id);
    JitFunction J;
    if (Existing != Info.Jit.end())
      J = Existing->second;
    else if (BaseDef)
      J.Def = BaseDef;
    else
      return;
    J.Name = Target;
    bool IsJit = applyDecorators(J, Decorators) || Existing != Info.Jit.end();
    if (!IsJit)
      return;
    if (Existing == Info.Jit.end() || Existing->first != Target)
      jitEntry(Target, J.Def) = std::move(J);
    else
      *Info.Jit.mutate(Target) = std::move(J);
    NS[Target] = PyValue::function(Info.Jit.at(Target).Def);
    Info.Globals.erase(Target);
    Info.Functions.erase(Target);
  }

  //===--------------------------------------------------------------------===//
  // Launch sites
  //===--------------------------------------------------------------------===//

  /// A set, not a scan of Info.Jit: scanLaunches asks for every function of
  /// the file, and a scan made discovery quadratic in the number of kernels
  /// (2.8 s for 13,000 of them).
  bool isJitDef(const FunctionDefStmt *F) const { return JitDefs.count(F) != 0; }

  /// The kernels a local name of Enclosing is bound to where every binding
  /// of it names one (`k = int_kernel` in one arm, `k = mx_kernel` in the
  /// other): `k[grid](...)` launches each of them. Empty otherwise.
  std::vector<JitFunction *> localKernelChoice(const Expr *Callee, const FunctionDefStmt *Enclosing) {
    const auto *N = dyn_cast<NameExpr>(Callee);
    if (!N || !Enclosing)
      return {};
    std::vector<JitFunction *> Out;
    bool Other = false;
    Walker W;
    W.OnStmt = [&](const Stmt *S) {
      if (isa<FunctionDefStmt>(S) || isa<ClassDefStmt>(S))
        return false;
      const auto *A = dyn_cast<AssignStmt>(S);
      if (!A)
        return true;
      for (const Expr *T : A->Targets) {
        if (const auto *Tuple = dyn_cast<TupleExpr>(T))
          for (const Expr *E : Tuple->Elts)
            if (const auto *X = dyn_cast<NameExpr>(E); X && X->Id == N->Id)
              Other = true; // `k, cfg = pick()`: bound to what the call returns
        const auto *Name = dyn_cast<NameExpr>(T);
        if (!Name || Name->Id != N->Id)
          continue;
        JitFunction *J = launchedKernel(A->Value);
        if (!J)
          Other = true;
        else if (std::find(Out.begin(), Out.end(), J) == Out.end())
          Out.push_back(J);
      }
      return true;
    };
    W.walk(Enclosing->Body);
    if (Other)
      return {};
    return Out;
  }

  /// Whether every `return` of F gives back its first parameter, a
  /// one-argument call of it or a choice between those (`return
  /// wrap_triton(kernel) if traceable else kernel`): a launch through F's
  /// result launches the kernel passed first.
  static bool handsFirstParamBack(const FunctionDefStmt &F) {
    if (F.Params.empty() || F.Params[0].PKind != Param::ParamKind::Positional)
      return false;
    const std::string &Kernel = F.Params[0].Name;
    std::function<bool(const Expr *)> Gives = [&](const Expr *E) {
      if (!E)
        return false;
      if (const auto *N = dyn_cast<NameExpr>(E))
        return N->Id == Kernel;
      if (const auto *C = dyn_cast<CallExpr>(E))
        return C->Args.size() == 1 && C->Keywords.empty() && Gives(C->Args[0]);
      if (const auto *I = dyn_cast<IfExpExpr>(E))
        return Gives(I->Body) && Gives(I->OrElse);
      return false;
    };
    bool Any = false, All = true;
    Walker W;
    W.OnStmt = [&](const Stmt *S) {
      if (isa<FunctionDefStmt>(S) || isa<ClassDefStmt>(S))
        return false;
      if (const auto *R = dyn_cast<ReturnStmt>(S)) {
        Any = true;
        All = All && Gives(R->Value);
      }
      return true;
    };
    W.walk(F.Body);
    return Any && All;
  }

  /// The @jit function `kernel` in `kernel[grid](...)` names, if any; also
  /// through a wrapper that hands the kernel back to be launched
  /// (`torch.library.wrap_triton(kernel)[grid](...)`, `capture_triton(k)`).
  JitFunction *launchedKernel(const Expr *Callee) {
    if (const auto *C = dyn_cast<CallExpr>(Callee)) {
      if (C->Args.size() == 1 && C->Keywords.empty())
        Callee = C->Args[0];
      else if (const auto *F = dyn_cast<NameExpr>(C->Func); F && !C->Args.empty())
        if (auto It = Info.Functions.find(F->Id); It != Info.Functions.end() && handsFirstParamBack(*It->second))
          Callee = C->Args[0]; // `_launcher(kernel, traceable=t)[grid](...)`
    }
    const auto *N = dyn_cast<NameExpr>(Callee);
    if (!N)
      return nullptr;
    auto It = JitByName.find(N->Id);
    if (It != JitByName.end())
      return It->second;
    auto V = NS.find(N->Id); // an alias: `k = kernel`
    if (V == NS.end() || V->second.kind() != PyValue::Kind::Function)
      return nullptr;
    for (const auto &[Name, J] : Info.Jit) // in name order: the first alias of the def
      if (J.Def == V->second.asFunction())
        return JitByName.at(Name);
    return nullptr;
  }

  LocalScope &localScope(const FunctionDefStmt *F) {
    auto It = LocalScopes.find(F);
    if (It != LocalScopes.end())
      return It->second;
    LocalScope &L = LocalScopes[F];
    std::set<std::string> Bound;
    for (const Param &P : F->Params)
      Bound.insert(P.Name);
    std::map<std::string, int> Count;
    for (const Stmt *St : F->Body) {
      std::set<std::string> N;
      boundNames(St, N);
      for (const std::string &Name : N) {
        Bound.insert(Name);
        ++Count[Name];
      }
    }
    for (const std::string &Name : Bound)
      L.Values[Name] = PyValue();
    for (const Stmt *St : F->Body) {
      const auto *A = dyn_cast<AssignStmt>(St);
      if (!A || A->Targets.size() != 1)
        continue;
      const auto *N = dyn_cast<NameExpr>(A->Targets[0]);
      if (!N || Count[N->Id] != 1)
        continue;
      L.PendingIndex.emplace(N->Id, L.Pending.size());
      L.Pending.push_back(A);
    }
    return L;
  }

  /// Evaluates L's pending assignments up to and including the one of Name
  /// (if any is pending), in source order, so each sees exactly the locals
  /// assigned before it.
  void evaluateLocalsThrough(LocalScope &L, const std::string &Name) {
    auto P = L.PendingIndex.find(Name);
    if (P == L.PendingIndex.end())
      return;
    for (; L.Next <= P->second; ++L.Next) {
      const AssignStmt *A = L.Pending[L.Next];
      ConstEval CE(Info, [&](const std::string &Ref) { return lookupLocal(L.Values, Ref); });
      L.Values[cast<NameExpr>(A->Targets[0])->Id] = CE.eval(A->Value);
    }
  }

  PyValue lookupLocal(const Scope &Values, const std::string &Name) const {
    auto L = Values.find(Name);
    if (L != Values.end())
      return L->second;
    auto G = NS.find(Name);
    return G == NS.end() ? PyValue() : G->second;
  }

  PyValue evalIn(const FunctionDefStmt *Enclosing, const Expr *E) {
    if (!Enclosing)
      return evalModule(E);
    LocalScope &L = localScope(Enclosing);
    ConstEval CE(Info, [&](const std::string &Name) {
      evaluateLocalsThrough(L, Name);
      return lookupLocal(L.Values, Name);
    });
    return CE.eval(E);
  }

  /// A module-level function that declares `global X` and assigns X rebinds
  /// it at run time (`def configure(v): global BLOCK; BLOCK = v`): what a
  /// kernel compiled after that call reads is not the value written at
  /// module level, so it is Unknown (and every check on it silent). The
  /// names are not kept by the syntax tree's `global` statement; the names
  /// such a function assigns that are module globals stand for them.
  void forgetRebound() {
    for (const Stmt *S : M.Body) {
      const auto *F = dyn_cast<FunctionDefStmt>(S);
      if (!F || isJitDef(F))
        continue;
      bool DeclaresGlobal = false;
      std::set<std::string> Assigned;
      Walker W;
      W.OnStmt = [&](const Stmt *St) {
        if (isa<FunctionDefStmt>(St) || isa<ClassDefStmt>(St))
          return false; // their own scopes
        if (const auto *U = dyn_cast<UnsupportedStmt>(St); U && U->PyName == "Global")
          DeclaresGlobal = true;
        if (isa<AssignStmt>(St) || isa<AugAssignStmt>(St) || isa<AnnAssignStmt>(St))
          boundNames(St, Assigned);
        return true;
      };
      W.walk(F->Body);
      if (!DeclaresGlobal)
        continue;
      for (const std::string &N : Assigned)
        if (auto G = Info.Globals.find(N); G != Info.Globals.end()) {
          G->second.Value = PyValue();
          NS[N] = PyValue();
        }
    }
  }

  /// A `def` decorated `...jit` that reads like Triton or names triton.jit.
  bool looksLikeKernel(const FunctionDefStmt &F) { return jitNamed(F) && (readsLikeTriton(F) || tritonDecorated(F)); }

  /// InClass: B is a class body, whose methods were looked at already.
  void scanLaunches(const Block &B, const FunctionDefStmt *Enclosing, bool InClass = false) {
    Walker W;
    W.OnStmt = [&](const Stmt *S) {
      if (const auto *C = dyn_cast<ClassDefStmt>(S)) {
        // Methods are not module-level kernels either (a @triton.jit method
        // of a benchmark's operator class).
        for (const Stmt *M : C->Body)
          if (const auto *F = dyn_cast<FunctionDefStmt>(M); F && looksLikeKernel(*F))
            Info.NestedJit.push_back(F->Decorators.front()->Range);
        scanLaunches(C->Body, Enclosing, /*InClass=*/true);
        return false;
      }
      const auto *F = dyn_cast<FunctionDefStmt>(S);
      if (!F)
        return true;
      if (Enclosing && !InClass && looksLikeKernel(*F))
        Info.NestedJit.push_back(F->Decorators.front()->Range);
      if (!isJitDef(F))
        scanLaunches(F->Body, F);
      return false;
    };
    W.OnExpr = [&](const Expr *E) {
      const auto *C = dyn_cast<CallExpr>(E);
      const auto *Sub = C ? dyn_cast<SubscriptExpr>(C->Func) : nullptr;
      if (!Sub)
        return;
      if (JitFunction *J = launchedKernel(Sub->Value))
        recordLaunch(*J, C, Sub, Enclosing);
      else if (std::vector<JitFunction *> Js = localKernelChoice(Sub->Value, Enclosing); !Js.empty())
        for (JitFunction *K : Js)
          recordLaunch(*K, C, Sub, Enclosing);
      else if (std::string Callee = dottedName(Sub->Value); !Callee.empty())
        Info.OtherLaunches.emplace_back(std::move(Callee), C->Range);
    };
    W.walk(B);
  }

  void recordLaunch(JitFunction &J, const CallExpr *C, const SubscriptExpr *Sub, const FunctionDefStmt *Enclosing) {
    LaunchSite L;
    L.Range = C->Range;
    L.GridRange = Sub->Index->Range;
    L.Call = C;
    L.NumPositional = C->Args.size();
    auto IsParam = [&](const std::string &Name) {
      return std::any_of(J.Def->Params.begin(), J.Def->Params.end(), [&](const Param &P) { return P.Name == Name; });
    };
    std::set<std::string> Tuned;
    if (J.HasAutotune)
      for (const AutotuneConfig &AC : J.Configs)
        for (const auto &KV : AC.Config.Kwargs)
          if (KV.first.isStr())
            Tuned.insert(KV.first.asStr());
    std::vector<std::string> Conflicts;
    SourceRange ConflictAt;
    for (const Keyword &K : C->Keywords) {
      if (K.Name.empty())
        continue; // `**kwargs`: names unknown
      // A literal reads no name, so the launching function's locals need not
      // be set up for it (most launch keywords are `BLOCK=1024`).
      PyValue V = isa<ConstantExpr>(K.Value) ? evalModule(K.Value) : evalIn(Enclosing, K.Value);
      L.Keywords.emplace_back(K.Name, V);
      L.KeywordRanges.push_back(K.Range);
      if (K.Name == "num_warps" && V.isIntLike() && !isPowerOfTwo(V.asInt()))
        Sink.report(ProblemKind::LaunchOption, K.Range, "num_warps must be a power of 2");
      if (!IsParam(K.Name) && !isLaunchOption(K.Name))
        Sink.report(ProblemKind::LaunchOption, K.Range,
                    "Keyword argument " + K.Name + " was specified but unrecognised");
      if (J.HasAutotune && Tuned.count(K.Name)) {
        if (Conflicts.empty())
          ConflictAt = K.Range;
        Conflicts.push_back(K.Name);
      }
    }
    if (!Conflicts.empty()) {
      std::string Names;
      for (const std::string &N : Conflicts)
        Names += (Names.empty() ? "" : ", ") + N;
      Sink.report(ProblemKind::LaunchOption, ConflictAt,
                  "Conflicting meta-parameters: " + Names + ". Make sure that you don't re-define auto-tuned symbols.");
    }
    J.Launches.push_back(std::move(L));
  }

  //===--------------------------------------------------------------------===//
  // Kernels and helpers
  //===--------------------------------------------------------------------===//

  /// A @jit function named anywhere in another @jit body (called, or passed
  /// as `tl.reduce(x, 0, combine)`) is a helper unless launched or tuned.
  void decideKernels() {
    std::set<std::string> UsedFromJit;
    for (const auto &[Name, J] : Info.Jit) {
      Walker W;
      W.OnExpr = [&, Caller = Name](const Expr *E) {
        const auto *N = dyn_cast<NameExpr>(E);
        if (N && N->Id != Caller && JitByName.count(N->Id))
          UsedFromJit.insert(N->Id);
      };
      W.walk(J.Def->Body);
    }
    Info.Jit.forEachMutable([&](const std::string &Name, JitFunction &J) {
      J.Launched = !J.Launches.empty() || J.HasAutotune || Heuristicked.count(Name);
      J.IsKernel = J.Launched || !UsedFromJit.count(Name);
    });
  }
};

} // namespace

std::string ModuleInfo::qualify(const ast::Expr *E) const {
  std::string D = ast::dottedName(E);
  if (D.empty())
    return {};
  size_t Dot = D.find('.');
  std::string Head = D.substr(0, Dot), Base;
  if (auto It = Imports.find(Head); It != Imports.end())
    Base = It->second;
  else if (auto G = Globals.find(Head); G != Globals.end() && G->second.Value.kind() == PyValue::Kind::Qualified)
    Base = G->second.Value.qualifiedPath();
  else
    return {};
  return canonicalPath(Dot == std::string::npos ? Base : Base + D.substr(Dot));
}

const JitFunction *ModuleInfo::jit(const std::string &Name) const {
  auto It = Jit.find(Name);
  return It == Jit.end() ? nullptr : &It->second;
}

std::vector<const JitFunction *> ModuleInfo::inOrder() const {
  std::vector<const JitFunction *> Out(Order.size());
  for (const auto &[Name, J] : Jit)
    Out[J.Position] = &J;
  return Out;
}

namespace {

/// A value of J's that names a function or lambda of the file: a pointer
/// into the old tree, so J's facts cannot be carried over.
bool holdsTree(const JitFunction &J) {
  for (const AutotuneConfig &C : J.Configs)
    for (const auto &[K, V] : C.Config.Kwargs)
      if (K.refersToTree() || V.refersToTree())
        return true;
  for (const auto &[K, V] : J.JitOptions)
    if (V.refersToTree())
      return true;
  for (const LaunchSite &L : J.Launches)
    for (const auto &[K, V] : L.Keywords)
      if (V.refersToTree())
        return true;
  return false;
}

} // namespace

ModuleInfo discover(const ast::Module &M, ProblemSink &Sink, const ExternalResolver &Resolver) {
  ModuleInfo Info = Discoverer(M, Sink, Resolver).run();
  // A file of kernels tessel does not see says so once, never "0 kernels
  // checked" in silence.
  auto Plural = [](size_t N, const char *One) { return std::to_string(N) + " " + One + (N == 1 ? "" : "s"); };
  if (size_t N = Info.UnresolvedJit.size())
    Sink.report(ProblemKind::KernelsNotChecked, Info.UnresolvedJit.front(),
                Plural(N, "function") + " of this file " + (N == 1 ? "looks" : "look") +
                    " like Triton kernels, but the `jit` decorator does not resolve to `triton.jit` here, so tessel "
                    "did not check " +
                    (N == 1 ? "it" : "them") +
                    "; if a module of the project re-exports triton (`from pkg.triton_utils import triton`), put its "
                    "package under the project root or in `extraPaths`");
  if (size_t N = Info.NestedJit.size())
    Sink.report(ProblemKind::KernelsNotChecked, Info.NestedJit.front(),
                Plural(N, "@triton.jit function") + " of this file " + (N == 1 ? "is" : "are") +
                    " defined inside other functions or classes; tessel checks kernels defined at module level " +
                    "only, so " + (N == 1 ? "it was" : "they were") + " not checked");
  if (size_t N = Info.UntakenJit.size(); N && Info.Jit.empty())
    Sink.report(ProblemKind::KernelsNotChecked, Info.UntakenJit.front(),
                Plural(N, "@triton.jit function") + " of this file " + (N == 1 ? "is" : "are") +
                    " defined only in a branch that Python does not run with Triton 3.6 (tessel decides module-level " +
                    "`if`s as a machine with Triton 3.6 and an NVIDIA GPU does), so there is no kernel to check");
  for (const auto &[Name, J] : Info.Jit)
    Info.RefersToTree = Info.RefersToTree || holdsTree(J);
  for (const auto &[Name, G] : Info.Globals)
    Info.RefersToTree = Info.RefersToTree || G.Value.refersToTree();
  return Info;
}

namespace {

/// The names of @jit functions a body mentions (decideKernels' reading).
std::set<std::string> jitNamesIn(const Block &Body, const ModuleInfo &Info) {
  std::set<std::string> Out;
  Walker W;
  W.OnExpr = [&](const Expr *E) {
    if (const auto *N = dyn_cast<NameExpr>(E); N && Info.Jit.count(N->Id))
      Out.insert(N->Id);
  };
  W.walk(Body);
  return Out;
}

bool sameExpr(const Expr *A, const Expr *B) {
  if (!A || !B)
    return A == B;
  return A->Range == B->Range && ast::dump(A) == ast::dump(B);
}

/// Everything discovery reads of a `def` but its body.
bool sameHeader(const FunctionDefStmt &A, const FunctionDefStmt &B) {
  if (A.Range.Begin != B.Range.Begin || A.Name != B.Name || A.NameRange != B.NameRange ||
      A.DefKeywordRange != B.DefKeywordRange || A.IsAsync != B.IsAsync || A.Decorators.size() != B.Decorators.size() ||
      A.Params.size() != B.Params.size() || !sameExpr(A.Returns, B.Returns))
    return false;
  for (size_t I = 0; I < A.Decorators.size(); ++I)
    if (!sameExpr(A.Decorators[I], B.Decorators[I]))
      return false;
  for (size_t I = 0; I < A.Params.size(); ++I) {
    const Param &P = A.Params[I], &Q = B.Params[I];
    if (P.Name != Q.Name || P.NameRange != Q.NameRange || P.PKind != Q.PKind || P.Range != Q.Range ||
        !sameExpr(P.Annotation, Q.Annotation) || !sameExpr(P.Default, Q.Default))
      return false;
  }
  return true;
}

/// Moves ranges and nodes of the old version to the new one, whose
/// top-level statements are the old ones (same count, same order) but for
/// the changed one, which keeps its header in place.
class Mover {
public:
  Mover(const ParsedFile &From, const ParsedFile &To, SourceRange ChangedPiece, uint32_t ChangedBody, int64_t By)
      : Pieces(From.pieces()), Old(From.module().Body), New(To.module().Body), Changed(ChangedPiece),
        BodyBegin(ChangedBody), Shift(By) {
    // The pieces' starts side by side: searched once per moved node, they
    // stay in cache, where the piece table (a tenth of a megabyte per 1,000
    // pieces) does not.
    PieceBegins.reserve(Pieces.size());
    for (const ParsedFile::Piece &P : Pieces)
      PieceBegins.push_back(P.Range.Begin);
    for (size_t I = 0; I < Old.size(); ++I)
      if (Old[I] != New[I])
        Unshared.push_back(Old[I]->Range);
  }

  /// Would move(R) change R or refuse it?
  bool moves(SourceRange R) const {
    if (R.End <= Changed.Begin || (R.Begin >= Changed.Begin && R.End <= BodyBegin))
      return false;
    return R.Begin < Changed.End || Shift != 0;
  }

  /// Would node(N) differ from N? Only inside a top-level statement the new
  /// version does not share (the changed def; those below it when the edit
  /// moved them): a node of a shared one is the new version's too.
  template <typename T> bool moves(const T *N) const {
    if (!N)
      return false;
    auto After = std::upper_bound(Unshared.begin(), Unshared.end(), N->Range.Begin,
                                  [](uint32_t At, const SourceRange &S) { return At < S.Begin; });
    return After != Unshared.begin() && std::prev(After)->contains(N->Range);
  }

  bool move(SourceRange &R) const {
    if (R.End <= Changed.Begin || (R.Begin >= Changed.Begin && R.End <= BodyBegin))
      return true; // above the edit, or in the changed def's header
    if (R.Begin < Changed.End)
      return false;
    R = {static_cast<uint32_t>(R.Begin + Shift), static_cast<uint32_t>(R.End + Shift)};
    return true;
  }

  bool move(Problem &P) const {
    return moveOwnRanges(P, [this](SourceRange &R) { return move(R); });
  }

  /// The new version's node at the old node's place: the same node where
  /// its statement is shared, else the one of its kind at its moved range.
  template <typename T> const T *node(const T *N) const {
    // The piece first, from the piece table (contiguous, unlike the
    // statements: a binary search over those was a tenth of a keystroke),
    // then its statement; both versions number their statements alike.
    uint32_t At = N->Range.Begin;
    auto After = std::upper_bound(PieceBegins.begin(), PieceBegins.end(), At);
    if (After == PieceBegins.begin())
      return nullptr;
    const ParsedFile::Piece &P = Pieces[static_cast<size_t>(After - PieceBegins.begin()) - 1];
    if (P.NumStmts == 0)
      return nullptr;
    size_t I = P.FirstStmt, End = P.FirstStmt + P.NumStmts;
    while (I + 1 < End && Old[I + 1]->Range.Begin <= At) // `a = 1; b = 2`: the last one starting by N
      ++I;
    const Stmt *OldTop = Old[I], *NewTop = New[I];
    if (OldTop == NewTop)
      return N;
    if constexpr (std::is_base_of_v<Stmt, T>)
      if (static_cast<const Stmt *>(N) == OldTop) // the changed def, whose range grew or shrank
        return NewTop->kind() == N->kind() ? cast<T>(NewTop) : nullptr;
    if (!OldTop->Range.contains(N->Range))
      return nullptr;
    SourceRange R = N->Range;
    int64_t Delta = int64_t(NewTop->Range.Begin) - int64_t(OldTop->Range.Begin);
    R = {static_cast<uint32_t>(R.Begin + Delta), static_cast<uint32_t>(R.End + Delta)};
    const T *Found = nullptr;
    Walker W;
    if constexpr (std::is_base_of_v<Stmt, T>) {
      W.OnStmt = [&](const Stmt *S) {
        if (!Found && S->kind() == N->kind() && S->Range == R)
          Found = cast<T>(S);
        return !Found && S->Range.contains(R);
      };
    } else {
      W.OnStmt = [&](const Stmt *S) { return !Found && S->Range.contains(R); };
      W.OnExpr = [&](const Expr *E) {
        if (!Found && E->kind() == N->kind() && E->Range == R)
          Found = cast<T>(E);
      };
    }
    W.walk(NewTop);
    return Found;
  }

private:
  const std::vector<ParsedFile::Piece> &Pieces;
  std::vector<uint32_t> PieceBegins;
  const Block &Old, &New;
  std::vector<SourceRange> Unshared; ///< the old top-level statements New does not share, in order
  SourceRange Changed;
  uint32_t BodyBegin;
  int64_t Shift;
};

} // namespace

std::optional<ModuleInfo> rediscover(const ParsedFile &Old, const ModuleInfo &Info, const ParsedFile &New,
                                     const ParsedFile::PieceDiff &Diff, std::vector<Problem> &Problems) {
  if (Diff.OldChanged != 1 || Diff.NewChanged != 1)
    return std::nullopt;
  const ParsedFile::Piece &OP = Old.pieces()[Diff.Leading], &NP = New.pieces()[Diff.Leading];
  if (OP.NumStmts != 1 || NP.NumStmts != 1 || Old.module().Body.size() != New.module().Body.size())
    return std::nullopt;
  const auto *OF = dyn_cast<FunctionDefStmt>(Old.module().Body[OP.FirstStmt]);
  const auto *NF = dyn_cast<FunctionDefStmt>(New.module().Body[NP.FirstStmt]);
  if (!OF || !NF || OF->Body.empty() || NF->Body.empty() || !sameHeader(*OF, *NF))
    return std::nullopt;
  uint32_t BodyBegin = OF->Body.front()->Range.Begin;
  if (NF->Body.front()->Range.Begin != BodyBegin ||
      Old.text().slice({OF->Range.Begin, BodyBegin}) != New.text().slice({NF->Range.Begin, BodyBegin}))
    return std::nullopt;
  // The changed def must be the @jit function of its name, read by no
  // config list, naming the same @jit functions as before.
  auto J = Info.Jit.find(OF->Name);
  auto F = Info.Functions.find(OF->Name);
  if (J == Info.Jit.end() || J->second.Def != OF || F == Info.Functions.end() || F->second != OF ||
      Info.ConfigBodies.count(OF->Name) || jitNamesIn(OF->Body, Info) != jitNamesIn(NF->Body, Info))
    return std::nullopt;

  if (Info.RefersToTree)
    return std::nullopt;
  Mover M(Old, New, OP.Range, BodyBegin, Diff.Shift);
  // The copy shares every entry; only those the edit moves are written (one
  // or two while an edit keeps the text below it in place).
  ModuleInfo Out = Info;
  bool Ok = true;
  auto Move = [&](SourceRange &R) { Ok = Ok && M.move(R); };
  for (const auto &[Name, Def] : Info.Functions)
    if (M.moves(Def)) {
      const FunctionDefStmt *Moved = M.node(Def);
      if (!Moved)
        return std::nullopt;
      *Out.Functions.mutate(Name) = Moved;
    }
  auto Touched = [&](const JitFunction &Fn) {
    if (M.moves(Fn.Def) || M.moves(Fn.DecoratorRange))
      return true;
    for (const AutotuneConfig &C : Fn.Configs)
      if (M.moves(C.Range))
        return true;
    for (const LaunchSite &L : Fn.Launches) {
      if (M.moves(L.Range) || M.moves(L.GridRange) || M.moves(L.Call))
        return true;
      for (SourceRange R : L.KeywordRanges)
        if (M.moves(R))
          return true;
    }
    return false;
  };
  for (const auto &[Name, Old] : Info.Jit) {
    if (!Touched(Old))
      continue;
    JitFunction Fn = Old;
    // A @jit function's def is mostly the function of its name, moved above.
    auto OldDef = Info.Functions.find(Name);
    if (Fn.Def && OldDef != Info.Functions.end() && OldDef->second == Fn.Def)
      Fn.Def = Out.Functions.at(Name);
    else
      Ok = Ok && (Fn.Def = M.node(Fn.Def));
    for (AutotuneConfig &C : Fn.Configs)
      Move(C.Range);
    for (LaunchSite &L : Fn.Launches) {
      Move(L.Range);
      Move(L.GridRange);
      for (SourceRange &R : L.KeywordRanges)
        Move(R);
      Ok = Ok && (L.Call = M.node(L.Call));
    }
    Move(Fn.DecoratorRange);
    if (!Ok)
      return std::nullopt;
    *Out.Jit.mutate(Name) = std::move(Fn);
  }
  for (auto &[Name, G] : Out.Globals)
    Move(G.Range);
  for (auto &[Callee, R] : Out.OtherLaunches)
    Move(R);
  if (!Ok)
    return std::nullopt;
  std::vector<Problem> Moved = Problems;
  for (Problem &P : Moved)
    if (!M.move(P))
      return std::nullopt;
  Problems = std::move(Moved);
  return Out;
}

} // namespace tessel
