//===- LoweringReach.cpp - how far a kernel lowers under a guess ----------===//
#include "compiler/sema/LoweringReach.h"

namespace tessel::sema {

namespace {

/// Where lowering stopped at P, as a path from the kernel inwards: the call
/// sites that led into inlined helpers, outermost first, then P's own token.
/// A helper defined above the kernel has its tokens earlier in the file than
/// the kernel's, so its errors compare by the call that reached them.
std::vector<uint32_t> reachedAt(const Problem &P) {
  std::vector<uint32_t> Path;
  for (auto It = P.Related.rbegin(); It != P.Related.rend(); ++It)
    if (It->Message.rfind("in the call of", 0) == 0)
      Path.push_back(It->Range.Begin);
  Path.push_back(P.Range.Begin);
  return Path;
}

/// Path A lies before path B (an empty path, no error, lies after all).
bool before(const std::vector<uint32_t> &A, const std::vector<uint32_t> &B) {
  if (A.empty() || B.empty())
    return !A.empty() && B.empty();
  return A < B;
}

} // namespace

Outcome lowerUnder(const ParsedFile &File, const ModuleInfo &Info, const AnalyzeOptions &Opts,
                   const LoweringRequest &R) {
  LoweredKernel L = lowerKernel(File, Info, R, Opts);
  Outcome O;
  for (const Problem &P : L.Problems)
    if (P.Kind != ProblemKind::UnsupportedConstruct) {
      ++O.Errors;
      if (std::vector<uint32_t> At = reachedAt(P); O.FirstError.empty() || before(At, O.FirstError)) {
        O.FirstError = std::move(At);
        O.FirstMessage = P.Message.substr(0, P.Message.find('\n'));
        O.FirstRange = P.Range;
      }
    }
  O.Typed = O.Errors == 0;
  O.Lowered = L.Function != nullptr;
  return O;
}

bool further(const Outcome &A, const Outcome &B) {
  if (A.Typed != B.Typed)
    return A.Typed;
  if (A.FirstError != B.FirstError)
    return before(B.FirstError, A.FirstError);
  return A.Errors < B.Errors;
}

} // namespace tessel::sema
