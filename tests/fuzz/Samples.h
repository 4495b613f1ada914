//===- Samples.h - the sample kernels the spec-driven targets use -*- C++ -*-===//
/// \file
/// The launch and codegen targets pick a kernel of tessel's samples by an
/// input byte, so that the rest of the input (a launch spec) lands on code
/// that lowers. The samples are read from the source tree (TESSEL_SOURCE_DIR,
/// or the environment's TESSEL_FUZZ_SOURCE_DIR when a copy of the binary
/// runs on another machine) once, in sorted order: samples/*.py, then
/// samples/bugs/*.py; the same byte picks the same kernel in every build, so
/// a regression file keeps its meaning.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TESTS_FUZZ_SAMPLES_H
#define TESSEL_TESTS_FUZZ_SAMPLES_H

#include "compiler/frontend/Discovery.h"
#include "compiler/frontend/Parser.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace tessel::fuzz {

struct Sample {
  std::string Path;
  std::shared_ptr<const ParsedFile> File;
  ModuleInfo Info;
  std::vector<std::string> Kernels;
};

inline std::string sourceDir() {
  const char *Env = std::getenv("TESSEL_FUZZ_SOURCE_DIR");
  return Env && *Env ? Env : TESSEL_SOURCE_DIR;
}

inline std::vector<Sample> loadSamples() {
  std::vector<Sample> Out;
  for (const char *Dir : {"/samples", "/samples/bugs"}) {
    std::vector<std::filesystem::path> Paths;
    for (const auto &E : std::filesystem::directory_iterator(sourceDir() + Dir))
      if (E.path().extension() == ".py")
        Paths.push_back(E.path());
    std::sort(Paths.begin(), Paths.end());
    for (const auto &P : Paths) {
      std::ifstream In(P, std::ios::binary);
      std::stringstream SS;
      SS << In.rdbuf();
      Sample S;
      S.Path = P.string();
      S.File = ParsedFile::parse(std::make_shared<SourceText>(SS.str(), S.Path));
      ProblemSink Sink;
      S.Info = discover(S.File->module(), Sink);
      S.Kernels = S.Info.Order;
      if (!S.Kernels.empty())
        Out.push_back(std::move(S));
    }
  }
  if (Out.empty()) {
    std::fprintf(stderr, "fuzz: no sample kernels under %s/samples\n", sourceDir().c_str());
    std::abort();
  }
  return Out;
}

inline const std::vector<Sample> &samples() {
  static const std::vector<Sample> S = loadSamples();
  return S;
}

} // namespace tessel::fuzz

#endif // TESSEL_TESTS_FUZZ_SAMPLES_H
