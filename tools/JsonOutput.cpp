//===- JsonOutput.cpp - `tessel check --format=json` layout ---------------===//
/// \file
/// Implements the one-diagnostic-per-line layout with nlohmann::json's own
/// serializer for every value, so escaping is always right.
//===----------------------------------------------------------------------===//
#include "tools/JsonOutput.h"

namespace tessel::tools {

void writeJsonReport(std::ostream &OS, const std::vector<FileDiagnostics> &Files) {
  if (Files.empty()) {
    OS << "[]\n";
    return;
  }
  OS << "[\n";
  for (size_t I = 0; I < Files.size(); ++I) {
    const FileDiagnostics &F = Files[I];
    OS << "  {\"file\": " << nlohmann::json(F.File).dump() << ", \"diagnostics\": [";
    for (size_t J = 0; J < F.Diagnostics.size(); ++J)
      OS << (J ? ",\n    " : "\n    ") << F.Diagnostics[J].dump();
    OS << (F.Diagnostics.empty() ? "]" : "\n  ]");
    if (F.Kernels) {
      OS << ", \"kernels\": [";
      for (size_t J = 0; J < F.Kernels->size(); ++J)
        OS << (J ? ",\n    " : "\n    ") << (*F.Kernels)[J].dump();
      OS << (F.Kernels->empty() ? "]" : "\n  ]");
    }
    OS << "}" << (I + 1 < Files.size() ? ",\n" : "\n");
  }
  OS << "]\n";
}

} // namespace tessel::tools
