//===- RunnerChoice.h - which runners a command uses ------------*- C++ -*-===//
/// \file
/// `--runner R` options first; without them the project's settings
/// (tessel.toml or [tool.tessel]: `runners` for tune, `defaultRunner` for
/// both); without those, none (`tessel run` runs in its own process) or the
/// local runner (`tessel tune`). And the session options every command
/// shares: this binary, and the ssh client (TESSEL_SSH, split on spaces as
/// GIT_SSH_COMMAND is, default `ssh`).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_RUNNERCHOICE_H
#define TESSEL_TOOLS_RUNNERCHOICE_H

#include "runners/RunnerSpec.h"
#include "runners/Session.h"

#include <optional>
#include <string>
#include <vector>

namespace tessel::tools {

enum class RunnerUse { Run, Tune };

/// The runners for File; nullopt with Error (one line) when one is
/// misspelt. Empty for a run that stays in this process.
std::optional<std::vector<runners::RunnerSpec>>
chooseRunners(const std::vector<std::string> &Given, const std::string &File, RunnerUse Use, std::string &Error);

runners::SessionOptions sessionOptions(bool Gpu);

} // namespace tessel::tools

#endif // TESSEL_TOOLS_RUNNERCHOICE_H
