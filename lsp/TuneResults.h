//===- TuneResults.h - what the editor shows of a `tessel tune` -*- C++ -*-===//
/// \file
/// The editor's Tune action runs `tessel tune --json-out` (tools/Tune.h's
/// report); this turns that report into the results table (Markdown: a row
/// per config, a column per launch instance, each instance's best in bold)
/// and the configs the "keep the tuned configs" quick fix keeps. An
/// incomplete tune says so above the table and offers no quick fix.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_LSP_TUNERESULTS_H
#define TESSEL_LSP_TUNERESULTS_H

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace tessel::lsp {

struct TuneSummary {
  std::string Markdown;
  bool Complete = false;
  std::vector<size_t> Keep; ///< configs best for some instance (complete tunes only)
  size_t Configs = 0;
};

/// Nullopt when Report is not a tune report (the tune failed before writing one).
std::optional<TuneSummary> summarizeTuneReport(const nlohmann::json &Report);

} // namespace tessel::lsp

#endif // TESSEL_LSP_TUNERESULTS_H
