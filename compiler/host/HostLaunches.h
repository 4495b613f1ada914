//===- HostLaunches.h - the launches a file's host code makes ---*- C++ -*-===//
/// \file
/// Runs a file's module-level code the way `python file.py` would, without
/// Python (ConstEval in host mode: tensors modelled by shape, stride and
/// dtype), and records each `kernel[grid](...)` it reaches: the tutorial
/// pattern `x = torch.randn(1823, 781); y = softmax(x)`, where `softmax`
/// computes BLOCK_SIZE with `triton.next_power_of_2`, allocates outputs
/// with `torch.empty_like` and launches. The arguments are bound to the
/// kernel's parameters as Python binds them; a grid callable is called with
/// Triton's META dict (the bound arguments, the launch keywords and the
/// chosen autotune config). Values the host code computes from something
/// tessel cannot know (device properties, tensor contents) stay Unknown,
/// with the source range of the argument that carries them, so a caller can
/// say which value a launch needs.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_HOST_HOSTLAUNCHES_H
#define TESSEL_COMPILER_HOST_HOSTLAUNCHES_H

#include "compiler/frontend/Discovery.h"
#include "compiler/frontend/Parser.h"
#include "compiler/frontend/PyValue.h"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace tessel {

/// One argument of a host launch: a kernel parameter and what it received.
struct HostArgument {
  std::string Param;
  PyValue Value;            ///< Unknown when the host value is not known
  SourceRange Range;        ///< the argument expression; empty for a default
  bool FromDefault = false; ///< not passed: the parameter's default
};

struct HostLaunch {
  SourceRange Range; ///< the `kernel[grid](...)` call
  SourceRange GridRange;
  std::vector<HostArgument> Args; ///< one per parameter the launch or a default binds, in parameter order
  /// Launch keywords that are no parameters (num_warps, num_stages, ...).
  std::vector<std::pair<std::string, PyValue>> Options;
  /// The grid, up to three dimensions; empty when unknown.
  std::vector<int64_t> Grid;
  /// The host functions that led to it, outermost first ("test_softmax",
  /// "softmax"); empty for a launch in module-level code.
  std::vector<std::string> Callers;
  /// Why the launch does not bind the kernel's parameters (a missing
  /// argument, an unknown `*args`); empty when it does.
  std::string BindError;
  /// Set when no code of the project made this call: the wrapper that
  /// launched and the arguments tessel made up for it (WrapperLaunches.h),
  /// for people ("`rms_norm` (nothing in the file calls it) called with ...").
  std::string MadeUpCall;

  const HostArgument *arg(const std::string &Param) const;
};

/// The launches of Kernel that running File's module-level code reaches,
/// in the order it reaches them, at most Max. Config is the chosen autotune
/// config: its constexprs are part of a grid callable's META and its
/// pre_hook runs on the arguments, as at a real launch.
std::vector<HostLaunch> findHostLaunches(const ParsedFile &File, const ModuleInfo &Info, const JitFunction &Kernel,
                                         const PyConfig &Config, size_t Max = 1);

/// The first launch of every kernel that running File's host code reaches,
/// by kernel name, in one run (grids evaluated without an autotune config).
std::map<std::string, HostLaunch> firstHostLaunches(const ParsedFile &File, const ModuleInfo &Info);

/// A size in a wrapper's launch, as the wrapper computes it from the sizes
/// of its tensor parameters: Coefficient times the product of Symbols (a
/// symbol may repeat) divided by CeilDiv rounding up (`triton.cdiv`).
/// `x.numel()` of a 2-D x is {1, {0, 1}, 1}; `triton.cdiv(n, 1024)` is
/// {1, {0, 1}, 1024}; a buffer padded to whole blocks, {1024, {0, 1}, 1024};
/// a constant has no symbols.
struct SizeTerm {
  int64_t Coefficient = 1;
  std::vector<unsigned> Symbols; ///< indices into SymbolicLaunch::Symbols, sorted
  int64_t CeilDiv = 1;
  /// Added last: `torch.empty(B + 1)`, the B + 1 offsets that bound B rows
  /// (a sum of lengths and its end).
  int64_t Offset = 0;
  bool operator==(const SizeTerm &) const = default;
};

/// The launch a host wrapper makes where nothing in the file calls it
/// (`def add(x, y): out = torch.empty_like(x); n = out.numel(); grid =
/// (triton.cdiv(n, 1024),); add_kernel[grid](x, y, out, n, BLOCK=1024)`),
/// with its sizes symbolic: the wrapper's tensor parameters share one
/// shape whose dimensions are the symbols (an elementwise wrapper's
/// tensors have equal shapes), and every integer argument, tensor extent
/// and grid size it computes from them is a SizeTerm.
///
/// How it is read: the wrapper runs twice in ConstEval's host mode, with
/// tensors of two different shapes of large primes (rank 2 first, then 1,
/// then 3: the first rank the wrapper accepts), and each size of the
/// launch is matched to the one product of symbols (times a constant,
/// optionally cdiv by a power of two or a launch constant) that gives the
/// value seen in both runs. A size that matches nothing is left out (the
/// prover's conventional reading covers it); a constexpr or literal that
/// differs between the runs (`BLOCK = next_power_of_2(n)`) cannot be one
/// specialization, so the kernel gets no symbolic launch.
struct SymbolicLaunch {
  std::string Wrapper;                       ///< the host function ("add", "Softmax.forward")
  std::vector<std::string> Symbols;          ///< "x.shape[0]", an int parameter's name
  std::vector<unsigned> ShapeSymbols;        ///< the symbols of the shared tensor shape, in order
  std::string ShapeOwner;                    ///< the first tensor parameter ("x")
  std::map<std::string, SizeTerm> Ints;      ///< integer arguments that are sizes
  std::map<std::string, SizeTerm> Extents;   ///< tensor arguments: the elements they span
  std::map<std::string, std::string> DTypes; ///< tensor arguments: Triton's element type ("fp16")
  /// Arguments equal in both runs that are not tensors: constexprs, flags, constants.
  std::map<std::string, PyValue> Values;
  std::vector<SizeTerm> Grid; ///< one per axis; empty when the grid is not known
  /// What it assumes, for people: "n = x.numel()".
  std::vector<std::string> Assumptions;

  /// "x.numel()", "x.shape[1]", "cdiv(x.numel(), 1024)", "2 * M".
  std::string describe(const SizeTerm &T) const;
  /// Everything above as text: equal keys, equal launches (the prover's cache key).
  std::string key() const;
};

/// firstHostLaunches of one version of a file, with the text that run read:
/// every top-level statement, except that of a @jit function only its
/// header (decorators and signature) counts, as host code binds arguments
/// to a kernel's parameters but never runs its body. The next version of
/// the file takes the table, its ranges moved, while that text is the same:
/// a keystroke inside a kernel does not run the module's host code again.
struct HostLaunchTable {
  std::map<std::string, HostLaunch> Launches;
  /// symbolicHostLaunches of this version, computed on first use (only the
  /// prover's tier asks) and shared with the next version while its host
  /// code's text is the same (the wrappers then run the same way).
  struct SymbolicCache {
    std::once_flag Once;
    std::map<std::string, SymbolicLaunch> Launches;
  };
  std::shared_ptr<SymbolicCache> Symbolic = std::make_shared<SymbolicCache>();
  const std::map<std::string, SymbolicLaunch> &symbolic(const ParsedFile &File, const ModuleInfo &Info) const;
  std::vector<SourceRange> Segments; ///< in source order
  /// False when a launch holds a function or lambda (a pointer into this
  /// version's tree): such a table is never carried to another version.
  bool Reusable = true;
  bool Reused = false; ///< taken from the previous version
};

/// An edit that changed the body of one @jit def only, the def in Piece of
/// the earlier version, and moved the text from Piece's end on by Shift:
/// what rediscover() carried the module's facts over.
struct BodyEdit {
  SourceRange Piece;
  int64_t Shift = 0;

  /// R of the earlier version where the later one has it: moved when it
  /// begins at or after Piece's end, else where it was.
  SourceRange moved(SourceRange R) const {
    if (R.Begin < Piece.End)
      return R;
    return {static_cast<uint32_t>(R.Begin + Shift), static_cast<uint32_t>(R.End + Shift)};
  }
};

/// The table of File: Previous's (the table of PreviousFile, an earlier
/// version of the same document) moved to File when the host code's text is
/// unchanged and no syntax error touches it, else a new run of the host code.
/// The result equals a fresh firstHostLaunches either way. With Edit, File
/// is PreviousFile edited so: the host code's text is the same by
/// construction, so its segments are moved rather than found and compared.
std::shared_ptr<const HostLaunchTable> hostLaunchTable(const ParsedFile &File, const ModuleInfo &Info,
                                                       const HostLaunchTable *Previous = nullptr,
                                                       const ParsedFile *PreviousFile = nullptr,
                                                       const BodyEdit *Edit = nullptr);

/// The symbolic launches of File's host wrappers that nothing in the file
/// calls, by kernel (the first wrapper of each kernel that gives one). At
/// most MaxWrappers wrappers are run.
std::map<std::string, SymbolicLaunch> symbolicHostLaunches(const ParsedFile &File, const ModuleInfo &Info);
constexpr size_t MaxWrappers = 256;

} // namespace tessel

#endif // TESSEL_COMPILER_HOST_HOSTLAUNCHES_H
