//===- Failure.cpp - one line for each way a runner fails -----------------===//
#include "runners/Failure.h"

#include <regex>
#include <sstream>
#include <vector>

namespace tessel::runners {

static std::vector<std::string> lines(const std::string &Text) {
  std::vector<std::string> Out;
  std::istringstream In(Text);
  for (std::string L; std::getline(In, L);) {
    while (!L.empty() && (L.back() == '\r' || L.back() == ' '))
      L.pop_back();
    if (!L.empty())
      Out.push_back(L);
  }
  return Out;
}

static bool noise(const std::string &L) {
  return L.rfind("Warning: Permanently added", 0) == 0 || L.find("srun: job ") == 0 ||
         L.find("Waiting up to") != std::string::npos;
}

std::string lastMeaningfulLine(const std::string &Text) {
  std::vector<std::string> Ls = lines(Text);
  for (auto It = Ls.rbegin(); It != Ls.rend(); ++It)
    if (!noise(*It))
      return *It;
  return "";
}

/// The first line of Text holding Needle ("" when none).
static std::string lineWith(const std::string &Text, const std::string &Needle) {
  for (const std::string &L : lines(Text))
    if (L.find(Needle) != std::string::npos)
      return L;
  return "";
}

static std::string sshFailure(const std::string &Err, const ChildEnd &End) {
  // ssh ends with 255 for its own errors, else with the remote command's status.
  if (End.Exit == 255) {
    for (const char *Auth : {"Permission denied", "Too many authentication failures", "no such identity"})
      if (std::string L = lineWith(Err, Auth); !L.empty())
        return "authentication refused: " + L;
    if (std::string L = lineWith(Err, "Host key verification failed"); !L.empty())
      return "host key not trusted: " + L + " (connect once with ssh to accept it)";
    for (const char *Net :
         {"Could not resolve hostname", "Connection refused", "No route to host", "timed out", "Network is unreachable",
          "Connection reset", "Connection closed by", "kex_exchange_identification", "Name or service not known"})
      if (std::string L = lineWith(Err, Net); !L.empty())
        return "host unreachable: " + L;
  }
  return "";
}

static std::string slurmFailure(const RunnerSpec &R, const std::string &Err) {
  static const std::regex Killed(
      R"(\*\*\* (JOB|STEP) \S+ ON \S+ (CANCELLED|DUE TO TIME LIMIT|DUE TO PREEMPTION|DUE TO NODE FAILURE)[^*]*\*\*\*)");
  std::smatch M;
  if (std::regex_search(Err, M, Killed))
    return "job killed: " + M.str(0);
  if (std::string L = lineWith(Err, "Invalid partition name"); !L.empty())
    return "no such partition '" + R.Partition + "': " + L;
  for (const char *Gres :
       {"Requested node configuration is not available", "Invalid generic resource", "Invalid Trackable RESource"})
    if (std::string L = lineWith(Err, Gres); !L.empty())
      return "no GPU: no node of partition " + R.Partition +
             " has the GPUs asked for (--gres=gpu:" + std::to_string(R.Gpus.value_or(1)) + "): " + L;
  for (const char *Gone : {"Job step aborted", "Force Terminated", "task 0: Terminated", "task 0: Killed",
                           "Job has been cancelled", "job step terminated"})
    if (std::string L = lineWith(Err, Gone); !L.empty())
      return "job killed: " + L;
  if (std::string L = lineWith(Err, "Unable to allocate resources"); !L.empty())
    return "no allocation: " + L;
  if (std::string L = lineWith(Err, "Unable to contact slurm controller"); !L.empty())
    return "Slurm unreachable: " + L;
  return "";
}

std::string describeFailure(const RunnerSpec &R, FailureStage Stage, const ChildEnd &End, const std::string &Stderr) {
  std::string Head = R.Text + ": ";
  std::string Known;
  if (R.Kind == RunnerKind::Ssh)
    Known = sshFailure(Stderr, End);
  if (R.Kind == RunnerKind::Slurm)
    Known = slurmFailure(R, Stderr);
  if (!Known.empty())
    return Head + Known;
  std::string Last = lastMeaningfulLine(Stderr);
  // The remote shell could not find tessel (127), or found something else.
  if (End.Exit == 127 || Last.find("command not found") != std::string::npos ||
      Last.find("No such file or directory") != std::string::npos)
    return Head + "no tessel there at '" + R.Tessel + "' (" + Last + "): install it or name it with ?tessel=PATH";
  std::string Tool = R.Kind == RunnerKind::Ssh ? "ssh" : R.Kind == RunnerKind::Slurm ? "srun" : "the runner";
  std::string What = Stage == FailureStage::Connect ? "runner did not start: " + Tool + " ended before it answered"
                                                    : "job killed: " + Tool + " ended during a task";
  return Head + What + " (" + describeEnd(End) + ")" + (Last.empty() ? std::string() : ": " + Last);
}

} // namespace tessel::runners
