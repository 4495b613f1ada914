//===- Logger.cpp - the server's log on stderr ----------------------------===//
/// \file
/// Implements the leveled stderr log; each line carries a wall-clock time so
/// that a user's log can be lined up with the client's own trace.
//===----------------------------------------------------------------------===//
#include "lsp/Logger.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>

namespace tessel::lsp {

static std::atomic<int> CurrentLevel{static_cast<int>(LogLevel::Info)};
static std::mutex LogMutex;

bool parseLogLevel(std::string_view Text, LogLevel &Out) {
  if (Text == "error")
    Out = LogLevel::Error;
  else if (Text == "info")
    Out = LogLevel::Info;
  else if (Text == "verbose")
    Out = LogLevel::Verbose;
  else
    return false;
  return true;
}

void setLogLevel(LogLevel L) { CurrentLevel = static_cast<int>(L); }
bool logEnabled(LogLevel L) { return static_cast<int>(L) <= CurrentLevel.load(); }

void log(LogLevel L, const std::string &Message) {
  if (!logEnabled(L))
    return;
  using namespace std::chrono;
  auto Now = system_clock::now();
  std::time_t T = system_clock::to_time_t(Now);
  auto Ms = duration_cast<milliseconds>(Now.time_since_epoch()).count() % 1000;
  std::tm Tm;
  gmtime_r(&T, &Tm);
  char Prefix = L == LogLevel::Error ? 'E' : L == LogLevel::Info ? 'I' : 'V';
  std::lock_guard<std::mutex> Lock(LogMutex);
  std::fprintf(stderr, "%c[%02d:%02d:%02d.%03d] %s\n", Prefix, Tm.tm_hour, Tm.tm_min, Tm.tm_sec, static_cast<int>(Ms),
               Message.c_str());
  std::fflush(stderr);
}

} // namespace tessel::lsp
