//===- TuneResults.cpp - what the editor shows of a `tessel tune` ---------===//
#include "lsp/TuneResults.h"

#include <cstdio>

namespace tessel::lsp {

using nlohmann::json;

static std::string costText(const json &Cost, bool Gpu) {
  if (!Cost.is_number())
    return "";
  char Buf[32];
  if (Gpu)
    std::snprintf(Buf, sizeof Buf, "%.4g ms", Cost.get<double>());
  else
    std::snprintf(Buf, sizeof Buf, "%.0f ops", Cost.get<double>());
  return Buf;
}

/// Markdown table cells hold no pipes or newlines.
static std::string cell(std::string S) {
  for (char &C : S)
    if (C == '|' || C == '\n')
      C = ' ';
  return S;
}

std::optional<TuneSummary> summarizeTuneReport(const json &Report) {
  if (!Report.is_object() || !Report.contains("configs") || !Report["configs"].is_array() ||
      !Report.contains("instances") || !Report["instances"].is_array() || !Report.contains("cells") ||
      !Report["cells"].is_array() || Report["cells"].size() != Report["configs"].size())
    return std::nullopt;
  const json &Configs = Report["configs"], &Instances = Report["instances"], &Cells = Report["cells"];
  bool Gpu = Report.value("device", "cpu") == "gpu";
  TuneSummary S;
  S.Configs = Configs.size();
  S.Complete = Report.value("complete", false);
  std::vector<int64_t> Best(Instances.size(), -1);
  if (Report.contains("best") && Report["best"].is_array())
    for (size_t I = 0; I < Report["best"].size() && I < Best.size(); ++I)
      if (Report["best"][I].is_object())
        Best[I] = Report["best"][I].value("config", int64_t(-1));
  std::string &M = S.Markdown;
  M += "### tessel tune: " + Report.value("kernel", std::string("?")) + "\n\n";
  M += Gpu ? "Median time per config and launch instance, on the GPU; **bold**: the config triton.autotune keeps.\n\n"
           : "Ops the interpreter executed per config and launch instance (the same on every machine); **bold**: the "
             "config triton.autotune would keep by this count.\n\n";
  if (!S.Complete)
    M += "**Incomplete:** " + std::to_string(Report.value("missing", 0)) +
         " runs have no result (a runner failed); instances they leave open have no best config.\n\n";
  M += "| config |";
  for (const json &L : Instances)
    M += " " + cell(L.is_string() && !L.get<std::string>().empty() ? L.get<std::string>() : "launch") + " |";
  M += "\n|---|";
  for (size_t I = 0; I < Instances.size(); ++I)
    M += "---|";
  M += "\n";
  for (size_t C = 0; C < Configs.size(); ++C) {
    M += "| #" + std::to_string(C) + " " + cell(Configs[C].is_string() ? Configs[C].get<std::string>() : "") + " |";
    const json &Row = Cells[C];
    for (size_t I = 0; I < Instances.size(); ++I) {
      const json *X = Row.is_array() && I < Row.size() ? &Row[I] : nullptr;
      std::string Text;
      if (!X || !X->is_object() || !X->value("done", false))
        Text = "no result";
      else if (!X->value("ok", false))
        Text = "failed: " + (X->contains("error") && (*X)["error"].is_string() ? (*X)["error"].get<std::string>() : "");
      else
        Text = costText((*X)["cost"], Gpu);
      if (Best[I] == static_cast<int64_t>(C))
        Text = "**" + Text + "**";
      M += " " + cell(Text) + " |";
    }
    M += "\n";
  }
  if (S.Complete && Report.contains("keep") && Report["keep"].is_array())
    for (const json &K : Report["keep"])
      if (K.is_number_unsigned())
        S.Keep.push_back(K.get<size_t>());
  if (S.Complete)
    M += "\n" + std::to_string(S.Keep.size()) + " of " + std::to_string(S.Configs) +
         " configs are best for some instance; the quick fix on the kernel keeps only those.\n";
  return S;
}

} // namespace tessel::lsp
