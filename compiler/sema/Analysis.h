//===- Analysis.h - what sema knows about a file's kernels ------*- C++ -*-===//
/// \file
/// The result of checking every kernel of a file under every specialization:
/// problems, plus the facts editors show (the type of each assigned tile, the
/// constexpr values in force) and the memory accesses that the masking checks
/// in diagnostics/ read. Plain data, immutable once built, safe to share
/// between threads.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SEMA_ANALYSIS_H
#define TESSEL_COMPILER_SEMA_ANALYSIS_H

#include "compiler/frontend/Discovery.h"
#include "compiler/frontend/Parser.h"
#include "compiler/host/HostLaunches.h"
#include "compiler/project/Project.h"
#include "compiler/support/Problem.h"
#include "compiler/types/Types.h"

#include <cstddef>
#include <iterator>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tessel::sema {

/// The type of one named value at one place in the source (an assignment
/// target, a parameter, a loop variable).
struct ValueFact {
  SourceRange Range; ///< the name token
  std::string Name;
  TileType Type;
  PyValue Constexpr; ///< Unknown when the value is not a compile-time constant
  /// Value::DimNames: the constexpr naming each dimension of unknown size.
  std::vector<std::string> DimNames;
};

/// Type's text with the dimensions of unknown size named where Names says
/// (`[BLOCK_M, BLOCK_N] fp32`; `?` where no name is known).
std::string typeWithDimNames(const TileType &Type, const std::vector<std::string> &Names);

/// How a memory access's offsets vary along each tile axis (see
/// MaskFacts.h for the lattice); read by diagnostics/checks/MaskCoverage.
enum class AxisIndex : uint8_t {
  None,    ///< constant along this axis
  Arange,  ///< varies along the axis within the block only (bounded by the block size)
  Sliding, ///< block position plus a program-id or loop-derived start: can run past the end
  Wrapped, ///< reduced modulo / clamped: bounded whatever the start
};

struct MemoryAccess {
  /// The tl.load / tl.store / tl.atomic_* call: a range, not an AST pointer,
  /// so that the analysis can outlive its tree and be reused after an edit.
  SourceRange CallRange;
  std::string Op;                     ///< "tl.load", "tl.store", "tl.atomic_add"...
  SourceRange PointerRange;           ///< the pointer argument
  std::vector<AxisIndex> PointerAxes; ///< one per tile axis of the pointer (empty for a scalar pointer)
  /// Why an axis slides: "program_id(0)", "the loop variable `k`".
  std::vector<std::string> SlidingCause;
  bool HasMask = false;
  std::vector<bool> MaskBounds; ///< per axis: some mask term compares an index varying along it
  /// The dynamic scalars (by cause) some mask term compares: an axis they
  /// slide is bounded (IndexFacts::BoundedScalars).
  std::vector<std::string> MaskBoundedScalars;
  bool IsBlockPointer = false;
  bool HasBoundaryCheck = false;
  /// Set when this load is the then/else operand of a tl.where whose
  /// condition is a comparison: the SourceRange of that tl.where call.
  std::optional<SourceRange> EnclosingWhere;
  /// Inside an arm of a constexpr `if` whose condition tessel cannot decide
  /// (`if EVEN_K:` set by a heuristic, `if x.dtype.is_fp64():` on an unknown
  /// dtype): Triton may never compile it, and the condition often is what
  /// makes the access safe, so no check reports it.
  bool InUndecidedBranch = false;
};

/// One tl.dot call as the front tier sees it: what the shared-memory lower
/// bound (diagnostics/checks/SharedMemoryBound) reads. Dims may be unknown
/// (knownDim), element types Unknown (a pointer's, until a launch fixes it).
struct DotFact {
  SourceRange CallRange;
  std::vector<int64_t> AShape, BShape;
  ScalarKind AElem = ScalarKind::Unknown, BElem = ScalarKind::Unknown;
  /// The operand is a tl.load's result itself (Value::Loaded): Triton stages
  /// it whole in shared memory before the dot reads it.
  bool ALoaded = false, BLoaded = false;
  bool InUndecidedBranch = false; ///< as MemoryAccess::InUndecidedBranch
};

struct KernelAnalysis {
  std::string Kernel;
  std::string Specialization;       ///< "BLOCK_M=128, BLOCK_N=64, num_warps=4, num_stages=3"; "" for the only one
  SourceRange SpecializationSource; ///< the config or launch site that fixed it (empty when defaults)
  std::vector<ValueFact> Values;
  std::vector<MemoryAccess> Accesses;
  std::vector<DotFact> Dots;
  int64_t NumWarps = 4;   ///< the specialization's num_warps
  bool Completed = false; ///< false when an error stopped the walk early
};

/// An immutable string whose copies share one buffer. A kernel's reuse facts
/// are the same text version after version: the next version's record takes
/// them by pointer (issue 9: 6.8 MiB of facts copied per keystroke in a file
/// of 13,000 kernels), and equal pointers compare equal without reading them.
class SharedString {
public:
  SharedString() = default;
  SharedString(std::string S) : P(std::make_shared<const std::string>(std::move(S))) {}
  const std::string &str() const { return P ? *P : empty(); }
  operator const std::string &() const { return str(); }
  bool sharedWith(const SharedString &O) const { return P == O.P; }
  friend bool operator==(const SharedString &A, const SharedString &B) { return A.P == B.P || A.str() == B.str(); }

private:
  static const std::string &empty() {
    static const std::string E;
    return E;
  }
  std::shared_ptr<const std::string> P;
};

/// What one kernel's analysis read from its file (see KernelReuse.h): two
/// kernels with equal inputs analyse identically, up to where their text
/// sits in the file.
struct KernelInputs {
  /// The kernel's `def` first, then every @jit helper it may reach, then the
  /// configs and launch sites of its specializations.
  std::vector<SourceRange> Segments;
  /// Everything else it read, spelled out: the module-level names its text
  /// may resolve, its specializations' values, the options.
  SharedString Facts;
  /// False when the analysis may hold something the text does not pin down
  /// (a lambda or function passed as a constexpr); never reused then.
  bool Reusable = true;
  /// The other files the analysis read (imported modules), with their
  /// content hashes: known only once it ran, so reuse compares the hashes
  /// the previous analysis recorded with the files' hashes now.
  project::Reads Files;
};

/// What the other files of the project said about the role of a @jit
/// function that nothing in its own file launches (a kernel, or an uncalled
/// helper: Analysis.cpp) when the analysis was made. The role is part of the
/// kernel's reuse key (KernelInputs::Facts); these answers are what a
/// language server asks again when another file changes, to re-check exactly
/// the documents whose roles moved (roleEvidenceChanged).
struct RoleEvidence {
  bool Asked = false;        ///< the file alone did not decide (no launch, directive or own call)
  bool Launched = false;     ///< Project::launchedElsewhere
  bool ReturnsValue = false; ///< its own text: only a callee can return a value
  bool AskedCalled = false;  ///< Project::calledElsewhere was asked (not launched, returns nothing)
  bool Called = false;
  /// An uncalled helper (KernelChecker::checkUncalledHelper), else a kernel.
  bool helper() const { return !Launched && (ReturnsValue || Called); }
};

/// One kernel's share of a FileAnalysis, kept so that the analysis of the
/// next version of the file can reuse it when the kernel's inputs are equal:
/// one per @jit function with a def that is not a helper its file calls
/// (JitFunction::IsKernel).
struct KernelRecord {
  std::string Kernel;
  KernelInputs Inputs;
  RoleEvidence Role;
  size_t FirstAnalysis = 0, NumAnalyses = 0; ///< its slice of FileAnalysis::Kernels
  /// Its inputs are the previous version's record's, moved past an edit that
  /// touched none of their segments: their texts are equal without comparing
  /// them (the prover takes that record's verdicts so).
  bool MovedFromPrevious = false;
  /// Every range of its analyses lies in one of its segments (a previous
  /// reuse checked it; moving the analyses with the segments keeps it true).
  bool Covered = false;
  /// Its problems, merged across specializations, before the file-wide
  /// deduplication and the broken-line filter.
  std::vector<Problem> Problems;
};

/// The analyses of a file's kernels, in order, read as a vector of
/// KernelAnalysis but each held by pointer: a kernel that the edit left where
/// it was (every input segment at the same offset, as above the edit) shares
/// its analysis with the previous version instead of a copy (issue 14: a
/// keystroke in a file of 13,000 kernels copied all of them).
class KernelAnalyses {
  using Store = std::vector<std::shared_ptr<const KernelAnalysis>>;

public:
  class const_iterator {
  public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = KernelAnalysis;
    using difference_type = std::ptrdiff_t;
    using pointer = const KernelAnalysis *;
    using reference = const KernelAnalysis &;
    const_iterator() = default;
    explicit const_iterator(Store::const_iterator It) : It(It) {}
    reference operator*() const { return **It; }
    pointer operator->() const { return It->get(); }
    const_iterator &operator++() {
      ++It;
      return *this;
    }
    const_iterator operator++(int) { return const_iterator(It++); }
    bool operator==(const const_iterator &O) const { return It == O.It; }

  private:
    Store::const_iterator It;
  };
  const_iterator begin() const { return const_iterator(Items.begin()); }
  const_iterator end() const { return const_iterator(Items.end()); }
  size_t size() const { return Items.size(); }
  bool empty() const { return Items.empty(); }
  const KernelAnalysis &operator[](size_t I) const { return *Items[I]; }
  const std::shared_ptr<const KernelAnalysis> &shared(size_t I) const { return Items[I]; }
  void push_back(KernelAnalysis K) { Items.push_back(std::make_shared<const KernelAnalysis>(std::move(K))); }
  void push_back(std::shared_ptr<const KernelAnalysis> K) { Items.push_back(std::move(K)); }
  void reserve(size_t N) { Items.reserve(N); }

private:
  Store Items;
};

struct FileAnalysis {
  std::shared_ptr<const ParsedFile> File;
  ModuleInfo Info;
  KernelAnalyses Kernels; ///< one per kernel x specialization
  std::vector<Problem> Problems;
  std::vector<KernelRecord> Records; ///< one per kernel, in source order
  size_t ReusedKernels = 0;          ///< kernels taken from the previous analysis
  /// The first launch of every kernel the file's host code makes (never
  /// null): launch facts and launch plans (the prover's) read it, so the
  /// module's host code runs once per version, or not at all when its text
  /// is the previous version's.
  std::shared_ptr<const HostLaunchTable> Host;
  /// What discovery reported (part of Problems): the next version takes
  /// them, moved, when it takes Info from this one (rediscover).
  std::vector<Problem> DiscoveryProblems;
  bool InfoMoved = false; ///< Info is the previous version's, moved (rediscover)

  /// The facts of the first specialization of the kernel whose body contains Offset.
  /// Does R share a line with a syntax error? Findings there would describe
  /// the parser's recovery, not the user's code, so a half-typed line gets
  /// its syntax error only.
  bool onBrokenLine(SourceRange R) const;
  const KernelAnalysis *kernelAt(uint32_t Offset) const;
  /// The fact whose name token contains Offset, in the kernel containing Offset.
  const ValueFact *valueAt(uint32_t Offset) const;
};

struct AnalyzeOptions {
  int Arch = 90; ///< compute capability: 80, 90...
  /// Cap on specializations per kernel (autotune lists can be long).
  size_t MaxSpecializations = 64;
  /// Record a ValueFact per named value: hovers and inlay hints read them;
  /// `tessel check` prints none, so it skips them.
  bool RecordValueFacts = true;
  /// The project the file belongs to (its path is the ParsedFile's): imports
  /// resolve through it, and it says whether other files launch a @jit
  /// function. Null: imports of other modules are Unknown and only launches
  /// in the file make a kernel.
  project::Project *Project = nullptr;
};

/// The @jit functions of FA's file checked as uncalled helpers (no launch of
/// their own: the JIT and the prover skip them).
std::set<std::string> uncalledHelpers(const FileAnalysis &FA);

/// The role questions FA's analysis asked of the project (RoleEvidence
/// with Asked), per function, for the file at Path.
struct RoleQuestions {
  std::string Path;
  std::vector<std::pair<std::string, RoleEvidence>> Functions;
};
RoleQuestions roleQuestions(const FileAnalysis &FA);

/// Asks Q's questions again and records the answers in Q; true when some
/// function's role (kernel or helper) is now different. Only the questions
/// whose answer can have changed are asked: those answered yes, and those
/// about a name in Mentioned (the identifiers of the file that changed,
/// project::identifiersIn: a file starts launching or calling a function, or
/// re-exporting it to one that does, only by writing its name); all when
/// Mentioned is null.
bool roleEvidenceChanged(RoleQuestions &Q, project::Project &P, const std::set<std::string> *Mentioned = nullptr);

/// Analyses File. With Previous (the analysis of an earlier version of the
/// same document), every kernel whose inputs are unchanged takes Previous's
/// results, moved to where the kernel now sits, instead of being checked
/// again; the result is the same as without Previous.
std::shared_ptr<const FileAnalysis> analyzeFile(std::shared_ptr<const ParsedFile> File, const AnalyzeOptions &Opts = {},
                                                const FileAnalysis *Previous = nullptr);

} // namespace tessel::sema

#endif // TESSEL_COMPILER_SEMA_ANALYSIS_H
