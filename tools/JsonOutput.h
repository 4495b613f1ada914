//===- JsonOutput.h - `tessel check --format=json` layout -------*- C++ -*-===//
/// \file
/// Prints the JSON report: an array of `{"file": PATH, "diagnostics": [D...]}`
/// where each D is an LSP Diagnostic from lsp::toProtocol. The layout puts
/// one diagnostic per line, so golden files diff line by line and a reviewer
/// reads one finding per line; it is plain JSON for any parser.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_JSONOUTPUT_H
#define TESSEL_TOOLS_JSONOUTPUT_H

#include <nlohmann/json.hpp>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace tessel::tools {

struct FileDiagnostics {
  std::string File;
  std::vector<nlohmann::json> Diagnostics;
  /// With --jit: one object per kernel and config (its figures, or why it has
  /// none, and what its launch assumed); absent without --jit.
  std::optional<std::vector<nlohmann::json>> Kernels;
};

void writeJsonReport(std::ostream &OS, const std::vector<FileDiagnostics> &Files);

} // namespace tessel::tools

#endif // TESSEL_TOOLS_JSONOUTPUT_H
