//===- Sanitize.cpp - one launch under compute-sanitizer memcheck ---------===//
/// \file
/// compute-sanitizer writes a report as a header line (`========= Invalid
/// __global__ read of size 4 bytes`) followed by indented detail lines (`at
/// K+0x70 in /path/k.py:9`, `by thread (0,0,0) in block (3,0,0)`, the
/// address). Older releases spell the location `at 0x70 in /path/k.py:9:K`;
/// both are read. Lines about the host (`Program hit ...`, backtraces) are
/// consequences of a report already counted and are skipped.
//===----------------------------------------------------------------------===//
#include "tools/Sanitize.h"

#include "compiler/backend/Subprocess.h"

#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <tuple>
#include <unistd.h>

namespace tessel::tools {

std::string findComputeSanitizer(std::string &Searched) {
  std::vector<std::string> Dirs;
  if (const char *H = std::getenv("CUDA_HOME"); H && *H) {
    Dirs.push_back(std::string(H) + "/bin");
    Dirs.push_back(std::string(H) + "/compute-sanitizer");
  }
  Dirs.push_back("/usr/local/cuda/bin");
  Dirs.push_back("/usr/local/cuda/compute-sanitizer");
  if (const char *P = std::getenv("PATH")) {
    std::stringstream SS(P);
    std::string D;
    while (std::getline(SS, D, ':'))
      if (!D.empty())
        Dirs.push_back(D);
  }
  Searched.clear();
  for (const std::string &D : Dirs) {
    std::filesystem::path P = std::filesystem::path(D) / "compute-sanitizer";
    std::error_code EC;
    if (std::filesystem::is_regular_file(P, EC) && ::access(P.c_str(), X_OK) == 0)
      return P.string();
  }
  Searched = "CUDA_HOME, /usr/local/cuda and PATH";
  return "";
}

static std::string trim(std::string S) {
  size_t B = S.find_first_not_of(" \t\r");
  size_t E = S.find_last_not_of(" \t\r");
  return B == std::string::npos ? "" : S.substr(B, E - B + 1);
}

static bool startsWith(const std::string &S, const char *P) { return S.rfind(P, 0) == 0; }

/// Kernel and line of an `at ...` detail line.
static void readLocation(const std::string &At, std::string &Kernel, int &Line) {
  std::string S = At.substr(3); // after "at "
  size_t In = S.rfind(" in ");
  std::string Where = In == std::string::npos ? "" : S.substr(In + 4);
  std::string Func = In == std::string::npos ? S : S.substr(0, In);
  // `K+0x70` (newer) or `0x70` with the kernel after the line (older).
  if (size_t Plus = Func.find("+0x"); Plus != std::string::npos)
    Kernel = Func.substr(0, Plus);
  if (size_t Paren = Kernel.find('('); Paren != std::string::npos)
    Kernel = Kernel.substr(0, Paren);
  // Where: `/path/k.py:9` or `/path/k.py:9:K`.
  size_t C1 = Where.rfind(':');
  if (C1 == std::string::npos)
    return;
  std::string Tail = Where.substr(C1 + 1);
  if (!Tail.empty() && Tail.find_first_not_of("0123456789") != std::string::npos) {
    if (Kernel.empty())
      Kernel = Tail.substr(0, Tail.find('('));
    Where = Where.substr(0, C1);
    C1 = Where.rfind(':');
    if (C1 == std::string::npos)
      return;
    Tail = Where.substr(C1 + 1);
  }
  if (!Tail.empty() && Tail.size() < 9 && Tail.find_first_not_of("0123456789") == std::string::npos)
    Line = std::atoi(Tail.c_str());
}

SanitizerReport parseSanitizerOutput(const std::string &Output) {
  SanitizerReport R;
  std::istringstream In(Output);
  std::string L;
  std::map<std::tuple<std::string, std::string, int>, size_t> Index;
  std::optional<SanitizerError> Cur;
  bool Summary = false;
  std::string FirstError;
  auto Flush = [&] {
    if (!Cur)
      return;
    auto Key = std::make_tuple(Cur->What, Cur->Kernel, Cur->Line);
    if (auto It = Index.find(Key); It != Index.end()) {
      ++R.Errors[It->second].Count;
    } else {
      Index.emplace(Key, R.Errors.size());
      Cur->Count = 1;
      R.Errors.push_back(*Cur);
    }
    Cur.reset();
  };
  while (std::getline(In, L)) {
    if (!startsWith(L, "========="))
      continue;
    std::string Body = L.substr(9);
    bool Detail = startsWith(Body, "  ");
    std::string T = trim(Body);
    if (T.empty())
      continue;
    if (!Detail) {
      Flush();
      if (startsWith(T, "ERROR SUMMARY:")) {
        Summary = true;
        R.Total = static_cast<size_t>(std::strtoull(T.c_str() + 14, nullptr, 10));
        continue;
      }
      if (startsWith(T, "Error:") || startsWith(T, "Internal Sanitizer Error")) {
        if (FirstError.empty())
          FirstError = T;
        continue;
      }
      if (startsWith(T, "COMPUTE-SANITIZER") || startsWith(T, "Program hit") || startsWith(T, "Saved host") ||
          startsWith(T, "Target application") || startsWith(T, "Host Frame") || startsWith(T, "LEAK SUMMARY"))
        continue;
      Cur = SanitizerError{T, "", 0, "", "", 0};
      continue;
    }
    if (!Cur)
      continue;
    if (startsWith(T, "at ") && Cur->Line == 0 && Cur->Kernel.empty()) {
      readLocation(T, Cur->Kernel, Cur->Line);
    } else if (startsWith(T, "by thread ") && Cur->Thread.empty()) {
      // "by thread (0,0,0) in block (3,0,0)"
      size_t In2 = T.find(" in block ");
      Cur->Thread = T.substr(10, In2 == std::string::npos ? std::string::npos : In2 - 10);
      if (In2 != std::string::npos)
        Cur->Block = T.substr(In2 + 10);
    }
  }
  Flush();
  // An "Error:" line means the tool did not check this launch (a device it
  // does not support, a driver it cannot attach to), whatever summary follows:
  // "0 errors" would then be a false all-clear.
  R.Ran = Summary && FirstError.empty();
  if (!R.Ran) {
    R.Errors.clear();
    R.Error = FirstError.empty() ? "compute-sanitizer gave no error summary (it did not run to the end)"
                                 : "compute-sanitizer could not run: " + FirstError;
  } else if (R.Total < R.Errors.size()) {
    R.Total = R.Errors.size();
  }
  return R;
}

SanitizerReport runUnderSanitizer(const std::string &Sanitizer, const std::vector<std::string> &Command,
                                  unsigned TimeoutSeconds) {
  // --padding: a guard buffer after every allocation, so that an access
  // just past one buffer is reported rather than landing in the next one
  // (the driver packs small allocations back to back). A compute-sanitizer
  // that does not know the option is run again without it.
  for (bool Padding : {true, false}) {
    std::vector<std::string> Args = {"compute-sanitizer", "--tool", "memcheck", "--print-limit", "200"};
    if (Padding)
      Args.insert(Args.end(), {"--padding", "4096"});
    Args.insert(Args.end(), Command.begin(), Command.end());
    auto Out = backend::runProgram(Sanitizer, Args, TimeoutSeconds);
    if (!Out) {
      SanitizerReport R;
      R.Error = llvm::toString(Out.takeError());
      return R;
    }
    std::string Text = Out->Stdout + "\n" + Out->Stderr;
    bool Rejected = Text.find("padding") != std::string::npos &&
                    (Text.find("nrecognized") != std::string::npos || Text.find("nknown option") != std::string::npos ||
                     Text.find("nvalid option") != std::string::npos);
    if (Padding && Rejected)
      continue;
    return parseSanitizerOutput(Text);
  }
  return SanitizerReport{};
}

} // namespace tessel::tools
