//===- Problem.cpp - a problem found in the user's code -------------------===//
#include "compiler/support/Problem.h"

#include <algorithm>

namespace tessel {

std::string_view problemKindName(ProblemKind K) {
  switch (K) {
#define PROBLEM(Id, Description)                                                                                       \
  case ProblemKind::Id:                                                                                                \
    return #Id;
#include "compiler/support/ProblemKinds.def"
  }
  return "unknown";
}

void ProblemSink::report(Problem P) {
  auto Same = [&](const Problem &Q) { return Q.Kind == P.Kind && Q.Range == P.Range && Q.Message == P.Message; };
  if (std::any_of(Problems.begin(), Problems.end(), Same))
    return;
  Problems.push_back(std::move(P));
}

} // namespace tessel
