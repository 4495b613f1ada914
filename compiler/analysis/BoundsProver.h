//===- BoundsProver.h - every access in bounds, or the launch that breaks it -*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The bounds prover: for each load, store and atomic of a kernel, is there a
/// lane, enabled by its mask, whose address leaves its buffer? It works on
/// the tile IR of one specialization (helpers inlined, constexprs folded;
/// SymbolicTir.h turns values into Z3 terms) and asks Z3 one question per
/// access and side (below 0, at or after the extent).
///
/// Where sizes come from, in order of preference:
///  - the launch spec (`# tessel: launch`): every size, scalar, tensor
///    extent and the grid are concrete; integers wrap at their width as on
///    the GPU; a violation is certain (an error).
///  - otherwise a host wrapper that nothing in the file calls (`def add(x,
///    y): ... add_kernel[grid](x, y, out, n, BLOCK=1024)`, read symbolically:
///    HostLaunches.h's SymbolicLaunch): the sizes are symbols (the shared
///    shape of the wrapper's tensors), and what the wrapper computes from
///    them holds: integer arguments (`n = x.numel()`, `x.stride(0)`), the
///    extent of each tensor argument, the grid (`cdiv(n, BLOCK)`); an access
///    is out of bounds when it reaches past its tensor's extent. Whatever
///    the wrapper leaves open takes the conventional reading below. A
///    violation is a warning, listing the wrapper's assumptions.
///  - otherwise the conventional reading: integer arguments are symbolic
///    (1 to 2^31-1), integer arithmetic is exact (tensors below 2^31
///    elements, so no offset wraps), the grid along an axis is the cdiv of
///    the size that a mask compares a `program_id * BLOCK + lane` index
///    against, and a pointer covers the offsets its most tightly masked
///    access allows: an access is out of bounds when it reaches an offset
///    beyond every offset some access with the same base pointer (or the
///    same offsets) reaches inside its own mask. Comparisons written `<=` a
///    size are read as the size they compare against (`offs <= n` means `n`
///    elements). A violation here is a warning, with its assumptions.
///
/// Worked example (the conventional reading):
///
///   offs = pid * 1024 + tl.arange(0, 1024)
///   x = tl.load(x_ptr + offs)                 # no mask
///   tl.store(out_ptr + offs, x, mask=offs < n)
///
/// The store's mask says the tensors behind `offs` have n elements and the
/// grid is cdiv(n, 1024); the load then reaches x_ptr[n] at n = 1000,
/// program 0, lane 1000: refuted. Offsets that depend on values loaded from
/// memory make a satisfiable query "undecided", never a finding; so does a
/// solver time-out (per query and per kernel). The exception is an integer
/// loaded, under a launch, from a tensor whose fill bounds its contents
/// (`:randint(0, 8)`, the host code's `torch.randint(0, 8, (n,))`): it is a
/// value in that range, so `table + idx + 1` is decided, and a
/// counterexample names the loaded value ("where idx_ptr[496] = 7").
///
/// Results are plain data with byte ranges (no Z3 types leak out), so they
/// can be cached per kernel and shown by any front end.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_ANALYSIS_BOUNDSPROVER_H
#define TESSEL_COMPILER_ANALYSIS_BOUNDSPROVER_H

#include "compiler/frontend/Discovery.h"
#include "compiler/frontend/LaunchSpec.h"
#include "compiler/frontend/Parser.h"
#include "compiler/host/HostLaunches.h"
#include "compiler/ir/Ops.h"
#include "compiler/support/SourceRange.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tessel::project {
class Project;
} // namespace tessel::project

namespace tessel::analysis {

enum class BoundsVerdict {
  Proven,    ///< no enabled lane leaves its buffer
  Refuted,   ///< a counterexample exists
  Undecided, ///< the solver gave up, or the answer depends on data
};

/// A launch that drives one access out of bounds, in words and as a spec.
struct Counterexample {
  std::string Pointer;                                     ///< the kernel argument: "x_ptr"
  int64_t Offset = 0;                                      ///< the element offset reached
  int64_t Extent = -1;                                     ///< the buffer's elements; -1 when not computed
  std::array<int64_t, 3> ProgramId{};                      ///< the program that does it
  int64_t Lane = 0;                                        ///< row-major index into the access's tile
  std::vector<std::pair<std::string, int64_t>> Iterations; ///< loop variable = value, outermost first
  /// Scalar arguments and constexprs of the launch, in parameter order.
  std::vector<std::pair<std::string, int64_t>> Scalars;
  std::vector<std::pair<std::string, double>> Floats; ///< float arguments (any value does)
  /// Every pointer argument: name, dtype ("fp32") and elements.
  struct Tensor {
    std::string Name, DType;
    int64_t Elements = 0;
    std::string Fill; ///< a launch-spec flag the violation needs ("randint(0, 8)"); empty: any contents
  };
  /// Integers loaded from tensors whose contents the launch bounds, as the
  /// counterexample reads them: "idx_ptr[7]" = 7.
  std::vector<std::pair<std::string, int64_t>> Loaded;
  std::vector<Tensor> Tensors;
  std::array<int64_t, 3> Grid = {1, 1, 1};
  /// "x_ptr[1000] read by program 3, lane 232, with n = 1000 (x_ptr has 1000 elements)".
  std::string Text;
};

/// A `# tessel: launch` spec that reproduces a counterexample (every value
/// explicit, tensors as 1-D buffers of their extent).
std::string launchSpecText(const Counterexample &C);

struct AccessBounds {
  SourceRange Range; ///< the tl.load / tl.store / tl.atomic_* call
  std::string Op;    ///< "load", "store", "atomic_add"...
  BoundsVerdict Verdict = BoundsVerdict::Undecided;
  /// Refuted under a launch spec: the violation happens on that launch.
  bool Certain = false;
  Counterexample Example;   ///< when Refuted
  std::string Reason;       ///< when Undecided: "the offsets depend on values loaded from memory"
  bool OutOfLimits = false; ///< undecided because a query or the kernel ran out of its limits
};

struct KernelBounds {
  std::string Kernel;
  SourceRange NameRange; ///< the kernel's name in its `def`
  /// False when the kernel could not be lowered or planned (Reason says
  /// why); nothing is then said about its accesses.
  bool Analysed = false;
  std::string Reason;
  bool FromSpec = false; ///< sizes came from the launch spec
  /// Sizes came from a host wrapper read symbolically.
  bool FromWrapper = false;
  /// SymbolicLaunch::key() of the file's wrapper launch of this kernel ("" for
  /// none): the verdicts hold for that launch only (BoundsCache keys on it).
  std::string LaunchKey;
  /// Some access is undecided because a query or the kernel ran out of its
  /// limits (not because of data or a missing size).
  bool TimedOut = false;
  /// The proof ran in a process of its own (ProverOptions::Isolated) and
  /// that process failed: "ran out of memory (its limit: 1024 MiB)". Nothing
  /// is said about the accesses, and the verdict is never reused: the next
  /// version proves the kernel again.
  std::string Failure;
  /// What the verdicts assume; from a wrapper, with the conventional
  /// reading's too where it decided what the wrapper's sizes left open.
  std::vector<std::string> Assumptions;
  std::vector<AccessBounds> Accesses; ///< in source order
  double Milliseconds = 0;            ///< solver and lowering time
};

/// Limits, so that the editor never waits. Resource units (Z3's rlimit,
/// deterministic: the same kernel gets the same verdicts on any machine and
/// under any load) bound each query and each kernel; about 1.3 M units are a
/// second of one core of the dev VM (bench/RESULTS.md). The wall-clock
/// limits only guard against a stalled machine.
struct ProverOptions {
  uint64_t QueryRlimit = 150'000;
  /// A query that stays nonlinear after the cheap tier (a product of two
  /// sizes, a division by one) gets less: such a query that is not decided
  /// quickly is rarely decided at all.
  uint64_t NonlinearQueryRlimit = 40'000;
  /// A nonlinear query of the exact model read over the integers
  /// (IntTerms.h) first: monotonicity of products is often out of the
  /// integer solver's reach too, so it gets little.
  uint64_t IntegerQueryRlimit = 5'000;
  uint64_t KernelRlimit = 300'000;
  unsigned QueryTimeoutMs = 2000;
  unsigned KernelTimeoutMs = 10000;
  /// Launch instances of a spec that are checked (each is lowered).
  size_t MaxInstances = 4;
  /// Without a spec, give an integer constexpr that nothing in the file
  /// fixes and whose name says it is a block size (BLOCK, TILE, SIZE) the
  /// value 128, listed as an assumption, instead of leaving the kernel
  /// unanalysed. Off in `tessel check` (an unknown stays silent); the corpus
  /// study turns it on, as a stand-in for reading the host code.
  bool GuessBlockSizes = false;
  /// The project the file belongs to: helpers imported from other modules
  /// are inlined through it (as `tessel check` lowers them). Null: a kernel
  /// that calls one is not analysed.
  project::Project *Project = nullptr;
  /// Read the file's uncalled host wrappers for sizes (SymbolicLaunch).
  bool UseWrappers = true;
  /// Prove each kernel in a forked child process (IsolatedProof.h), so that
  /// the solver running out of memory or crashing costs that kernel's
  /// verdicts, not the caller (the language server's proof tier).
  bool Isolated = false;
  /// The child's address-space budget beyond what it inherits.
  uint64_t IsolatedMemoryBytes = uint64_t(2) << 30;
};

/// What the launch plans of every kernel of one file share, found once by a
/// caller that proves them all (proveFile, BoundsCache: FileAnalysis::Host),
/// so that proving N kernels does not scan the file and run its host code N
/// times. A null member is found per kernel.
struct FileLaunches {
  const std::vector<launch::LaunchDirective> *Directives = nullptr;
  const std::map<std::string, HostLaunch> *HostLaunches = nullptr;
  /// The symbolic launches of the file's uncalled host wrappers
  /// (HostLaunchTable::symbolic).
  const std::map<std::string, SymbolicLaunch> *Wrappers = nullptr;
};

/// Proves the accesses of kernel Kernel of File (Info is its discovery).
KernelBounds proveKernel(const ParsedFile &File, const ModuleInfo &Info, std::string_view Kernel,
                         const ProverOptions &Opts = {}, const FileLaunches &Shared = {});

/// Every kernel (not helper) of the file, in source order.
std::vector<KernelBounds> proveFile(const ParsedFile &File, const ModuleInfo &Info, const ProverOptions &Opts = {});

/// The verdict on the access whose call contains Offset, if any.
const AccessBounds *accessAt(const std::vector<KernelBounds> &Kernels, uint32_t Offset,
                             const KernelBounds **Owner = nullptr);

/// For hovers: "proven in bounds under the launch spec", "proven in bounds,
/// assuming: ...", or "not proven: <counterexample or reason>", one line each.
std::vector<std::string> describeVerdict(const KernelBounds &Kernel, const AccessBounds &Access);

} // namespace tessel::analysis

#endif // TESSEL_COMPILER_ANALYSIS_BOUNDSPROVER_H
