//===- LaunchPlan.h - how one kernel of a file is launched ------*- C++ -*-===//
/// \file
/// Turns "run kernel K of this file" into concrete launches and the
/// specialization each one lowers under. The launch comes from, in order:
/// a `--spec` text, the kernel's `# tessel: launch` directives, the launch
/// the file's own host code makes when its module-level code runs (the
/// tutorials' `x = torch.randn(1823, 781); softmax(x)`), or, when the file
/// has none of these, what docs/launch-spec.md "Without a spec" derives
/// (constexprs and num_warps/num_stages from the chosen autotune config or
/// literal launch-site keywords, then representative values read from the
/// kernel's own uses: RepresentativeValues.h), with every guess written down
/// as an assumption. A launch the host code makes with values tessel cannot
/// know takes representative ones for those values alone.
///
/// A spec may leave out the constexprs an autotune config (or a launch site,
/// or a parameter default) fixes: those are added to it before it is
/// evaluated, so its grid can say `cdiv(M, BLOCK_M)` about a BLOCK_M that
/// the autotuner picks.
///
/// Each launch's LoweringRequest follows Triton's specialization rules: an
/// int scalar is i32, or i64 when it does not fit; a float is fp32; a bool
/// is i1; an int equal to 1 (not named in do_not_specialize) is in
/// EqualToOne; a tensor gives pointer<dtype>.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SEMA_LAUNCHPLAN_H
#define TESSEL_COMPILER_SEMA_LAUNCHPLAN_H

#include "compiler/frontend/Discovery.h"
#include "compiler/frontend/LaunchSpec.h"
#include "compiler/frontend/Parser.h"
#include "compiler/host/HostLaunches.h"
#include "compiler/sema/Lowering.h"
#include "compiler/support/Problem.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::sema {

struct LaunchPlanOptions {
  /// `--spec` text; replaces the kernel's directives.
  std::optional<std::string> SpecText;
  /// 0-based index of the autotune config; nullopt: the first.
  std::optional<size_t> Config;
  /// The size given to every symbol and scalar argument nothing else fixes.
  int64_t DefaultSize = 1024;
  /// What a caller planning every kernel of one file found once for all of
  /// them (the prover: FileAnalysis::Host): the file's launch directives and
  /// the first launch of each kernel its host code makes. Null: found here,
  /// which scans the file and runs its host code for this one kernel.
  const std::vector<launch::LaunchDirective> *Directives = nullptr;
  const std::map<std::string, HostLaunch> *HostLaunches = nullptr;
  /// Where the file's own code reaches no launch of the kernel, plan from
  /// the launch a host wrapper of the file makes when called with made-up
  /// tensors (host/WrapperLaunches.h). The prover turns it off: it reads
  /// wrappers with symbolic sizes instead.
  bool FromWrappers = true;
  /// When set, the types the plan guesses are settled (GuessedTypes.h) by
  /// lowering its first launch under these options: set by the callers that
  /// compile or run the plan, left unset by the prover, which only reads it.
  const AnalyzeOptions *Settle = nullptr;
};

/// The most elements a tile of a plan from a made-up wrapper call may hold
/// (LaunchPlan::FromMadeUpCall): a larger one is tessel's sizes, not the
/// kernel's (64K fp32 elements are 512 registers a thread at 4 warps).
constexpr int64_t MaxMadeUpTile = int64_t(1) << 16;

/// One concrete launch and the specialization it lowers under.
struct PlannedLaunch {
  launch::ConcreteLaunch Launch;
  LoweringRequest Request;
};

enum class SpecOrigin {
  CommandLine, ///< --spec: problem ranges are byte offsets into LaunchPlanOptions::SpecText
  Directive,   ///< `# tessel: launch` comments: problem ranges are in the file
  HostCode,    ///< no spec: the launch the file's own host code makes (HostLaunches.h), see Assumptions
  Derived,     ///< no spec and no host launch: derived from the file, see Assumptions
};

struct LaunchPlan {
  std::string Kernel;
  SpecOrigin Origin = SpecOrigin::Derived;
  /// One per instance of every spec, in order; empty when nothing can run.
  std::vector<PlannedLaunch> Launches;
  /// What was guessed, for people: "assumed n_elements=1024 (no launch spec)".
  std::vector<std::string> Assumptions;
  /// Some constexpr or pointer dtype is a representative value
  /// (RepresentativeValues.h) rather than one the project gives: the plan is
  /// good for figures, and what compiling it finds says nothing of the code.
  bool Representative = false;
  /// Some pointer's element type is assumed (its annotation, the host code or
  /// a spec would fix it): the figures hold for that dtype. Resource findings
  /// stay (docs/launch-spec.md "Without a spec" has always assumed them), but
  /// a type error under the assumption is not the code's.
  bool AssumedDtypes = false;
  /// The launch is the one an uncalled host wrapper made when tessel called
  /// it with made-up tensors (LaunchPlanOptions::FromWrappers): its sizes
  /// are tessel's choice, so a caller that finds them past the device's
  /// limits may plan again without wrappers.
  bool FromMadeUpCall = false;
  /// The parameters whose type (a pointer's element type, a scalar's kind)
  /// is a guess: GuessedTypes.h may change them.
  std::set<std::string> GuessedTypes;
  /// The constexprs whose value is a representative one: GuessedValues.h
  /// may change them.
  std::set<std::string> AssumedConstexprs;
  /// The arguments (and "grid") whose value tessel made up because the host
  /// code computes them from something it cannot know: a launch with any is
  /// not the program's own, so what the prover finds under it is not certain.
  std::set<std::string> MadeUp;
  /// Problems of the spec (TS122, at the spec's own range; see Origin) and
  /// values the launch cannot do without, at the kernel's name.
  std::vector<Problem> Problems;
  /// Why the request itself cannot be planned (no kernel of that name, no
  /// autotune config of that index): a usage error, not a finding.
  std::string Error;
};

/// Derived, planned without wrappers, stands in for a plan from a made-up
/// wrapper call that Why ("it builds a tile of ... elements") rules out: its
/// first assumption says so.
void replaceMadeUpLaunch(LaunchPlan &Derived, const std::string &Why);

/// Plans the launches of kernel Kernel of File (Info is its discovery).
LaunchPlan planLaunch(const ParsedFile &File, const ModuleInfo &Info, std::string_view Kernel,
                      const LaunchPlanOptions &Opts = {});

/// The problems of every `# tessel: launch` directive of a file, evaluated
/// as planLaunch would (with what the file fixes added), so that `tessel
/// check` and `tessel run` agree on which directives are valid.
std::vector<Problem> checkLaunchDirectives(const ParsedFile &File, const ModuleInfo &Info);
/// The @jit functions of the file some `# tessel: launch` directive is for.
std::set<std::string> directedKernels(const ParsedFile &File, const ModuleInfo &Info);

/// What the file's launches of a kernel tell `tessel check`.
struct LaunchFacts {
  /// Argument types (pointer element types, scalar types) every launch
  /// agrees on.
  std::map<std::string, ElemType> ArgTypes;
  /// Constexprs the host code's launch passes (`USE_FP8=k.dtype ==
  /// torch.int8`): they fill what a specialization leaves unknown.
  std::map<std::string, PyValue> Constexprs;
};

/// The facts of Fn's `# tessel: launch` directives (types only; Directives
/// are the file's, found once), else of Host, the first launch its host code
/// makes (firstHostLaunches). Empty when nothing fixes them: `tessel check`
/// then keeps its unknowns.
LaunchFacts launchFacts(const ParsedFile &File, const ModuleInfo &Info, const JitFunction &Fn,
                        const std::vector<launch::LaunchDirective> &Directives, const HostLaunch *Host);

/// The LoweringRequest of Fn under one concrete launch (the rules above).
LoweringRequest loweringRequestFor(const JitFunction &Fn, const ModuleInfo &Info, const launch::ConcreteLaunch &L);

} // namespace tessel::sema

#endif // TESSEL_COMPILER_SEMA_LAUNCHPLAN_H
