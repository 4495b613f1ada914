//===- RunnerChoice.cpp - which runners a command uses --------------------===//
#include "tools/RunnerChoice.h"

#include "tools/CommandLine.h"

#include <cstdlib>
#include <sstream>

namespace tessel::tools {

std::optional<std::vector<runners::RunnerSpec>>
chooseRunners(const std::vector<std::string> &Given, const std::string &File, RunnerUse Use, std::string &Error) {
  std::vector<std::string> Names = Given;
  if (Names.empty()) {
    project::Config C = processProject().configFor(File);
    if (Use == RunnerUse::Tune)
      Names = C.Runners;
    if (Names.empty() && !C.DefaultRunner.empty())
      Names.push_back(C.DefaultRunner);
    if (Names.empty() && Use == RunnerUse::Tune)
      Names.push_back("local");
  }
  std::vector<runners::RunnerSpec> Out;
  for (const std::string &N : Names) {
    std::optional<runners::RunnerSpec> S = runners::parseRunnerSpec(N, Error);
    if (!S)
      return std::nullopt;
    Out.push_back(std::move(*S));
  }
  return Out;
}

runners::SessionOptions sessionOptions(bool Gpu) {
  runners::SessionOptions O;
  O.Self = selfExecutable();
  O.Gpu = Gpu;
  if (const char *Ssh = std::getenv("TESSEL_SSH"); Ssh && *Ssh) {
    O.Ssh.clear();
    std::istringstream In(Ssh);
    for (std::string W; In >> W;)
      O.Ssh.push_back(W);
  }
  return O;
}

} // namespace tessel::tools
