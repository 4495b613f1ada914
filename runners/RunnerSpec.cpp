//===- RunnerSpec.cpp - where tasks run: local, ssh://, slurm:// ----------===//
#include "runners/RunnerSpec.h"

#include <cctype>
#include <cstdint>

namespace tessel::runners {

static bool parseCount(const std::string &S, unsigned Max, unsigned &Out) {
  if (S.empty() || S.size() > 9)
    return false;
  uint64_t N = 0;
  for (char C : S) {
    if (!std::isdigit(static_cast<unsigned char>(C)))
      return false;
    N = N * 10 + static_cast<uint64_t>(C - '0');
  }
  if (N > Max)
    return false;
  Out = static_cast<unsigned>(N);
  return true;
}

/// Characters a host, user or partition may hold: nothing a shell or ssh
/// would read as an option or a separator.
static bool plainName(const std::string &S) {
  if (S.empty() || S[0] == '-')
    return false;
  for (char C : S)
    if (!std::isalnum(static_cast<unsigned char>(C)) && C != '.' && C != '-' && C != '_')
      return false;
  return true;
}

static bool parseQuery(const std::string &Query, RunnerSpec &R, std::string &Error) {
  size_t Pos = 0;
  while (Pos <= Query.size() && !Query.empty()) {
    size_t Amp = Query.find('&', Pos);
    std::string Item = Query.substr(Pos, Amp == std::string::npos ? std::string::npos : Amp - Pos);
    size_t Eq = Item.find('=');
    if (Eq == std::string::npos) {
      Error = "'" + Item + "' is not NAME=VALUE";
      return false;
    }
    std::string Name = Item.substr(0, Eq), Value = Item.substr(Eq + 1);
    unsigned N = 0;
    if (Name == "workers") {
      if (!parseCount(Value, 4096, N) || N == 0) {
        Error = "workers takes a count from 1 to 4096, not '" + Value + "'";
        return false;
      }
      R.Workers = N;
    } else if (Name == "tessel") {
      if (Value.empty() || Value.find_first_of(" \t\n'\"\\$`;&|<>") != std::string::npos) {
        Error = "tessel takes a path without spaces or shell characters, not '" + Value + "'";
        return false;
      }
      R.Tessel = Value;
    } else if (Name == "gpus" && R.Kind == RunnerKind::Slurm) {
      if (!parseCount(Value, 64, N) || N == 0) {
        Error = "gpus takes a count from 1 to 64, not '" + Value + "'";
        return false;
      }
      R.Gpus = N;
    } else if (Name == "queue-timeout" && R.Kind == RunnerKind::Slurm) {
      if (!parseCount(Value, 86400, N) || N == 0) {
        Error = "queue-timeout takes seconds from 1 to 86400, not '" + Value + "'";
        return false;
      }
      R.QueueTimeoutSeconds = N;
    } else if (Name == "array" && R.Kind == RunnerKind::Slurm) {
      if (Value != "0" && Value != "1") {
        Error = "array takes 0 or 1, not '" + Value + "'";
        return false;
      }
      R.Array = Value == "1";
    } else if (Name == "spool" && R.Kind == RunnerKind::Slurm) {
      if (Value.empty() || Value[0] != '/' || Value.find_first_of(" \t\n'\"\\$`;&|<>%") != std::string::npos) {
        Error = "spool takes an absolute directory without spaces, % or shell characters, not '" + Value + "'";
        return false;
      }
      R.Spool = Value;
    } else if (Name == "time" && R.Kind == RunnerKind::Slurm) {
      if (!parseCount(Value, 525600, N) || N == 0) {
        Error = "time takes minutes from 1 to 525600, not '" + Value + "'";
        return false;
      }
      R.TimeMinutes = N;
    } else {
      Error = "unknown setting '" + Name + "'";
      return false;
    }
    if (Amp == std::string::npos)
      break;
    Pos = Amp + 1;
  }
  return true;
}

std::optional<RunnerSpec> parseRunnerSpec(const std::string &Text, std::string &Error) {
  RunnerSpec R;
  R.Text = Text;
  size_t Q = Text.find('?');
  std::string Base = Text.substr(0, Q);
  std::string Query = Q == std::string::npos ? "" : Text.substr(Q + 1);
  auto Fail = [&](const std::string &Why) {
    Error = "runner '" + Text + "': " + Why;
    return std::nullopt;
  };
  if (Base == "local") {
    R.Kind = RunnerKind::Local;
  } else if (Base.rfind("ssh://", 0) == 0) {
    R.Kind = RunnerKind::Ssh;
    std::string Rest = Base.substr(6);
    if (size_t At = Rest.find('@'); At != std::string::npos) {
      R.User = Rest.substr(0, At);
      Rest = Rest.substr(At + 1);
      if (!plainName(R.User))
        return Fail("'" + R.User + "' is not a user name");
    }
    if (size_t Colon = Rest.rfind(':'); Colon != std::string::npos) {
      unsigned Port = 0;
      if (!parseCount(Rest.substr(Colon + 1), 65535, Port) || Port == 0)
        return Fail("'" + Rest.substr(Colon + 1) + "' is not a port");
      R.Port = Port;
      Rest = Rest.substr(0, Colon);
    }
    if (!plainName(Rest))
      return Fail(Rest.empty() ? std::string("no host") : "'" + Rest + "' is not a host name");
    R.Host = Rest;
  } else if (Base.rfind("slurm://", 0) == 0) {
    R.Kind = RunnerKind::Slurm;
    R.Partition = Base.substr(8);
    if (!plainName(R.Partition))
      return Fail(R.Partition.empty() ? std::string("no partition") : "'" + R.Partition + "' is not a partition");
  } else {
    return Fail("expected local, ssh://[user@]host[:port] or slurm://PARTITION");
  }
  std::string Why;
  if (!parseQuery(Query, R, Why))
    return Fail(Why);
  return R;
}

} // namespace tessel::runners
