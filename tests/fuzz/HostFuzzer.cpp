//===- HostFuzzer.cpp - libFuzzer target for the host model ---------------===//
/// \file
/// The bytes are a Python file whose host code tessel runs without Python
/// (compiler/host: ConstEval in host mode): the launches its module-level
/// code reaches (firstHostLaunches, findHostLaunches), the launch each
/// wrapper makes when called with made-up tensors (wrapperLaunch), and the
/// symbolic launches the prover reads (symbolicHostLaunches). Hostile
/// wrappers (unbounded loops and recursion, huge shapes, `*args` of
/// anything) must end within the host model's budgets, never crash or trip
/// a sanitizer; and the model is a function of the text: a second run of
/// every question gives the same answer, else the target traps.
//===----------------------------------------------------------------------===//
#include "fuzz/FuzzSupport.h"

#include "compiler/frontend/Discovery.h"
#include "compiler/frontend/Parser.h"
#include "compiler/host/HostLaunches.h"
#include "compiler/host/WrapperLaunches.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace tessel;

namespace {

std::string launchText(const HostLaunch &L) {
  std::string S = fuzz::rangeText(L.Range) + " grid";
  for (int64_t G : L.Grid)
    S += " " + std::to_string(G);
  for (const HostArgument &A : L.Args)
    S += " " + A.Param + "=" + A.Value.repr() + (A.FromDefault ? "(default)" : "");
  for (const auto &[K, V] : L.Options)
    S += " " + K + ":" + V.repr();
  for (const std::string &C : L.Callers)
    S += " <" + C;
  return S + " {" + L.BindError + "} {" + L.MadeUpCall + "}\n";
}

/// Everything the host model says about the file, as text.
std::string hostModel(const ParsedFile &File, const ModuleInfo &Info) {
  std::string S;
  for (const auto &[Name, L] : firstHostLaunches(File, Info))
    S += "first " + Name + " " + launchText(L);
  for (const auto &[Name, J] : Info.Jit) {
    for (const HostLaunch &L : findHostLaunches(File, Info, J, {}, 4))
      S += "found " + Name + " " + launchText(L);
    if (std::optional<HostLaunch> W = host::wrapperLaunch(File, Info, nullptr, Name, {}, 1024))
      S += "wrapper " + Name + " " + launchText(*W);
  }
  for (const auto &[Name, L] : symbolicHostLaunches(File, Info))
    S += "symbolic " + Name + " " + L.key() + "\n";
  return S;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  auto File = ParsedFile::parse(std::make_shared<SourceText>(std::string(reinterpret_cast<const char *>(Data), Size)));
  ProblemSink Sink;
  ModuleInfo Info = discover(File->module(), Sink);
  fuzz::requireSame("the host model answers differently for the same text", hostModel(*File, Info),
                    hostModel(*File, Info));
  return 0;
}
