//===- Config.h - a project's settings: roots and extra paths ---*- C++ -*-===//
/// \file
/// Where a project starts and which directories it searches for imports,
/// as pyright reads its execution environment: the project root is the
/// nearest directory above a file holding `tessel.toml`, `pyproject.toml`,
/// `setup.py`, `setup.cfg` or `.git`; its settings come from `tessel.toml`
/// or, failing that, from the `[tool.tessel]` table of `pyproject.toml`:
///
///     extraPaths = ["third_party/kernels", "../shared"]   # relative to the file
///     runners = ["ssh://gpu7", "slurm://gpu?workers=8"]    # where `tessel tune` spreads work
///     defaultRunner = "ssh://gpu7"                          # where `tessel run` and Run go
///
///     [references]   # a kernel's CUDA C++ reference, as a `# tessel: reference` directive's text
///     softmax_kernel = "csrc/softmax.cu::softmax_rows<256> block=(256,) grid=(n_rows,)"
///
/// (runner names are checked where they are used, runners/RunnerSpec.h;
/// references: docs/reference-kernels.md, the .cu path relative to the
/// settings file).
///
/// A malformed file is not an error of the user's kernels: it is ignored and
/// its reason kept (Config::Problem), for a front end to show.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_PROJECT_CONFIG_H
#define TESSEL_COMPILER_PROJECT_CONFIG_H

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::project {

struct Config {
  std::string Root;                    ///< the project root ("" when none was found)
  std::vector<std::string> ExtraPaths; ///< absolute, in the order given
  std::vector<std::string> Runners;    ///< as written
  std::string DefaultRunner;           ///< "" when not set
  std::string Source;                  ///< the file the settings came from ("" for none)
  /// `[references]`: kernel name -> the text of its reference directive (after `reference`).
  std::map<std::string, std::string> References;
  std::string Problem; ///< why that file was not used ("" when it was)
};

/// Reads the settings of the text of a `tessel.toml` (Table empty) or of a
/// `pyproject.toml` (Table "tool.tessel"); paths are made absolute against
/// Dir. False, with Why set, when the text is not TOML or a key has the
/// wrong type.
bool parseConfig(std::string_view Text, std::string_view Table, const std::string &Dir, Config &Out, std::string &Why);

} // namespace tessel::project

#endif // TESSEL_COMPILER_PROJECT_CONFIG_H
