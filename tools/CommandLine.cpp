//===- CommandLine.cpp - option parsing shared by the subcommands ---------===//
#include "tools/CommandLine.h"

#include <cstdlib>
#include <unistd.h>

namespace tessel::tools {

bool takeValue(const Args &A, size_t &I, std::string_view Name, std::string_view &Value, bool &Missing) {
  std::string_view Arg = A[I];
  if (Arg.substr(0, Name.size()) != Name)
    return false;
  if (Arg.size() > Name.size() && Arg[Name.size()] == '=') {
    Value = Arg.substr(Name.size() + 1);
    return true;
  }
  if (Arg.size() != Name.size())
    return false;
  if (I + 1 >= A.size()) {
    Missing = true;
    return true;
  }
  Value = A[++I];
  return true;
}

bool parseUnsigned(std::string_view Text, uint64_t &Out) {
  if (Text.empty() || Text.size() > 19)
    return false;
  uint64_t V = 0;
  for (char C : Text) {
    if (C < '0' || C > '9')
      return false;
    V = V * 10 + static_cast<uint64_t>(C - '0');
  }
  Out = V;
  return true;
}

bool parseColorMode(std::string_view Value, ColorMode &Out) {
  if (Value == "auto")
    Out = ColorMode::Auto;
  else if (Value == "always")
    Out = ColorMode::Always;
  else if (Value == "never")
    Out = ColorMode::Never;
  else
    return false;
  return true;
}

bool useColor(ColorMode M) {
  if (M != ColorMode::Auto)
    return M == ColorMode::Always;
  const char *Term = std::getenv("TERM");
  return ::isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR") && !(Term && std::string_view(Term) == "dumb");
}

project::Project &processProject() {
  static project::Project *P = new project::Project(); // never deleted, on purpose (freed at exit)
  return *P;
}

} // namespace tessel::tools

std::string tessel::tools::selfExecutable() {
  char Buf[4096];
  ssize_t N = ::readlink("/proc/self/exe", Buf, sizeof(Buf) - 1);
  return N > 0 ? std::string(Buf, static_cast<size_t>(N)) : std::string("tessel");
}
