//===- Config.cpp - a project's settings: roots and extra paths -----------===//
/// \file
/// TOML through toml++ (libtomlplusplus-dev), header-only in this one file
/// (the binary links no extra shared library) and without exceptions, so a
/// parse error is a value; only the keys tessel knows are read.
//===----------------------------------------------------------------------===//
#define TOML_EXCEPTIONS 0
#define TOML_HEADER_ONLY 1
#include "compiler/project/Config.h"

#include "compiler/project/FileSet.h"

#include <toml++/toml.h>

namespace tessel::project {

bool parseConfig(std::string_view Text, std::string_view Table, const std::string &Dir, Config &Out, std::string &Why) {
  toml::parse_result R = toml::parse(Text);
  if (!R) {
    Why = std::string(R.error().description());
    return false;
  }
  const toml::table &Top = R.table();
  const toml::table *T = &Top;
  if (!Table.empty()) {
    toml::node_view<const toml::node> N = Top.at_path(Table);
    if (!N)
      return true; // a pyproject.toml without [tool.tessel]: no settings
    T = N.as_table();
    if (!T) {
      Why = "[" + std::string(Table) + "] is not a table";
      return false;
    }
  }
  for (const char *Key : {"extraPaths", "extra-paths", "extra_paths"}) {
    const toml::node *N = T->get(Key);
    if (!N)
      continue;
    const toml::array *A = N->as_array();
    if (!A) {
      Why = std::string(Key) + " must be an array of strings";
      return false;
    }
    for (const toml::node &E : *A) {
      const toml::value<std::string> *S = E.as_string();
      if (!S) {
        Why = std::string(Key) + " must be an array of strings";
        return false;
      }
      const std::string &P = S->get();
      Out.ExtraPaths.push_back(normalPath(!P.empty() && P[0] == '/' ? P : Dir + "/" + P));
    }
  }
  if (const toml::node *N = T->get("runners")) {
    const toml::array *A = N->as_array();
    if (!A) {
      Why = "runners must be an array of strings";
      return false;
    }
    for (const toml::node &E : *A) {
      const toml::value<std::string> *S = E.as_string();
      if (!S) {
        Why = "runners must be an array of strings";
        return false;
      }
      Out.Runners.push_back(S->get());
    }
  }
  for (const char *Key : {"defaultRunner", "default-runner", "default_runner"}) {
    const toml::node *N = T->get(Key);
    if (!N)
      continue;
    const toml::value<std::string> *S = N->as_string();
    if (!S) {
      Why = std::string(Key) + " must be a string";
      return false;
    }
    Out.DefaultRunner = S->get();
  }
  if (const toml::node *N = T->get("references")) {
    const toml::table *Refs = N->as_table();
    if (!Refs) {
      Why = "references must be a table of kernel = \"FILE.cu::KERNEL block=(...) grid=(...)\"";
      return false;
    }
    for (const auto &[Kernel, Value] : *Refs) {
      const toml::value<std::string> *S = Value.as_string();
      if (!S) {
        Why = "references." + std::string(Kernel.str()) + " must be a string (a reference directive's text)";
        return false;
      }
      Out.References[std::string(Kernel.str())] = S->get();
    }
  }
  return true;
}

} // namespace tessel::project
