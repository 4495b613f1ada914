//===- LspReplay.cpp - a typing session replayed against `tessel lsp` -----===//
/// \file
/// A benchmark client: starts `tessel lsp` as a subprocess, opens N copies of
/// a large kernel file (the 2,000-line, 50-kernel file of bench/gen_kernels.py),
/// then types lines into one of them a character at a time, each keystroke an
/// incremental didChange. It records the time from each change to the first
/// publishDiagnostics for that document whose version is at least the
/// change's (the server may fold fast keystrokes into one analysis, as
/// clangd does), and the server's resident memory (VmRSS, VmHWM) with every
/// file open. Prints a summary for bench/RESULTS.md.
///
///   bench_lsp_replay TESSEL FILE [--files=20] [--lines=12] [--delay-ms=30] [--at=0.5] [--keys]
///
/// --at=F types after the first arange line past that fraction of the file
/// (near 1, almost nothing below the edit moves). --keys also prints every
/// keystroke's latency, in typing order (which keys make the tail).
//===----------------------------------------------------------------------===//
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <mutex>
#include <spawn.h>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char **environ;

using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

class Server {
public:
  Server(const std::string &Tessel) {
    int In[2], Out[2];
    if (::pipe(In) != 0 || ::pipe(Out) != 0) {
      std::perror("pipe");
      std::exit(2);
    }
    posix_spawn_file_actions_t A;
    posix_spawn_file_actions_init(&A);
    posix_spawn_file_actions_adddup2(&A, In[0], 0);
    posix_spawn_file_actions_adddup2(&A, Out[1], 1);
    posix_spawn_file_actions_addclose(&A, In[1]);
    posix_spawn_file_actions_addclose(&A, Out[0]);
    std::vector<std::string> Args = {Tessel, "lsp", "--log=error"};
    std::vector<char *> Argv;
    for (auto &S : Args)
      Argv.push_back(S.data());
    Argv.push_back(nullptr);
    if (posix_spawn(&Pid, Tessel.c_str(), &A, nullptr, Argv.data(), environ) != 0) {
      std::perror("posix_spawn");
      std::exit(2);
    }
    posix_spawn_file_actions_destroy(&A);
    ::close(In[0]);
    ::close(Out[1]);
    ToServer = In[1];
    FromServer = Out[0];
    Reader = std::thread([this] { readLoop(); });
  }

  ~Server() {
    ::close(ToServer);
    Reader.join();
    int Status;
    ::waitpid(Pid, &Status, 0);
  }

  void send(const json &J) {
    std::string Body = J.dump();
    std::string Frame = "Content-Length: " + std::to_string(Body.size()) + "\r\n\r\n" + Body;
    const char *P = Frame.data();
    size_t Left = Frame.size();
    while (Left > 0) {
      ssize_t N = ::write(ToServer, P, Left);
      if (N <= 0) {
        std::perror("write");
        std::exit(2);
      }
      P += N;
      Left -= N;
    }
  }

  /// Waits until Uri has diagnostics for a version >= Version; returns when they arrived.
  Clock::time_point waitDiagnostics(const std::string &Uri, int64_t Version) {
    std::unique_lock<std::mutex> L(M);
    CV.wait(L, [&] {
      auto It = Published.find(Uri);
      return It != Published.end() && It->second.first >= Version;
    });
    return Published[Uri].second;
  }

  json waitReply(int64_t Id) {
    std::unique_lock<std::mutex> L(M);
    CV.wait(L, [&] { return Replies.count(Id) > 0; });
    return Replies[Id];
  }

  /// CPU time (user + system) the server has used so far, in ms.
  double cpuMs() const {
    std::ifstream F("/proc/" + std::to_string(Pid) + "/stat");
    std::string Stat((std::istreambuf_iterator<char>(F)), std::istreambuf_iterator<char>());
    std::istringstream Fields(Stat.substr(Stat.rfind(')') + 2));
    std::string X;
    long Utime = 0, Stime = 0;
    for (int I = 3; I <= 15; ++I) {
      Fields >> X;
      if (I == 14)
        Utime = std::stol(X);
      if (I == 15)
        Stime = std::stol(X);
    }
    return 1000.0 * (Utime + Stime) / ::sysconf(_SC_CLK_TCK);
  }

  /// VmRSS and VmHWM of the server in KiB.
  std::pair<long, long> memory() const {
    std::ifstream F("/proc/" + std::to_string(Pid) + "/status");
    std::string Line;
    long Rss = 0, Hwm = 0;
    while (std::getline(F, Line)) {
      if (Line.rfind("VmRSS:", 0) == 0)
        Rss = std::stol(Line.substr(6));
      if (Line.rfind("VmHWM:", 0) == 0)
        Hwm = std::stol(Line.substr(6));
    }
    return {Rss, Hwm};
  }

private:
  void readLoop() {
    FILE *F = ::fdopen(FromServer, "r");
    char Line[256];
    while (std::fgets(Line, sizeof(Line), F)) {
      size_t Length = 0;
      if (std::sscanf(Line, "Content-Length: %zu", &Length) != 1)
        continue;
      while (std::fgets(Line, sizeof(Line), F) && std::strcmp(Line, "\r\n") != 0) {
      }
      std::string Body(Length, '\0');
      if (std::fread(Body.data(), 1, Length, F) != Length)
        break;
      auto Now = Clock::now();
      json J = json::parse(Body, nullptr, false);
      std::lock_guard<std::mutex> L(M);
      if (J.value("method", "") == "textDocument/publishDiagnostics") {
        const json &P = J["params"];
        auto &Slot = Published[P["uri"].get<std::string>()];
        int64_t V = P.value("version", int64_t(-1));
        if (V > Slot.first)
          Slot = {V, Now};
      } else if (J.contains("id") && J["id"].is_number_integer()) {
        Replies[J["id"].get<int64_t>()] = J;
      }
      CV.notify_all();
    }
    std::fclose(F);
  }

  pid_t Pid = 0;
  int ToServer = -1, FromServer = -1;
  std::thread Reader;
  std::mutex M;
  std::condition_variable CV;
  std::map<std::string, std::pair<int64_t, Clock::time_point>> Published;
  std::map<int64_t, json> Replies;
};

double percentile(std::vector<double> V, double P) {
  std::sort(V.begin(), V.end());
  size_t I = static_cast<size_t>(P * (V.size() - 1) + 0.5);
  return V[std::min(I, V.size() - 1)];
}

json position(size_t Line, size_t Col) { return {{"line", Line}, {"character", Col}}; }

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 3) {
    std::cerr << "usage: bench_lsp_replay TESSEL FILE [--files=20] [--lines=12] [--delay-ms=30] [--at=F] [--keys]\n";
    return 2;
  }
  std::string Tessel = Argv[1], Path = Argv[2];
  int Files = 20, Lines = 12, DelayMs = 30;
  double At = 0.5;
  bool EachKey = false;
  for (int I = 3; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A.rfind("--files=", 0) == 0)
      Files = std::stoi(A.substr(8));
    else if (A.rfind("--lines=", 0) == 0)
      Lines = std::stoi(A.substr(8));
    else if (A.rfind("--delay-ms=", 0) == 0)
      DelayMs = std::stoi(A.substr(11));
    else if (A.rfind("--at=", 0) == 0)
      At = std::stod(A.substr(5));
    else if (A == "--keys")
      EachKey = true;
  }
  std::ifstream In(Path);
  std::stringstream SS;
  SS << In.rdbuf();
  std::string Text = SS.str();
  std::vector<std::string> FileLines;
  std::istringstream LS(Text);
  for (std::string L; std::getline(LS, L);)
    FileLines.push_back(L);
  // Type inside a kernel in the middle of the file, after an arange line.
  size_t Anchor = 0;
  for (size_t I = static_cast<size_t>(At * static_cast<double>(FileLines.size())); I < FileLines.size(); ++I)
    if (FileLines[I].find("tl.arange(0, BLOCK)") != std::string::npos) {
      Anchor = I;
      break;
    }
  if (Anchor == 0) {
    std::cerr << "no `tl.arange(0, BLOCK)` line past --at=" << At << " of " << Path << "\n";
    return 2;
  }
  std::string Indent = FileLines[Anchor].substr(0, FileLines[Anchor].find_first_not_of(' '));

  Server S(Tessel);
  S.send({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", {{"capabilities", json::object()}}}});
  S.waitReply(1);
  S.send({{"jsonrpc", "2.0"}, {"method", "initialized"}, {"params", json::object()}});

  auto OpenStart = Clock::now();
  for (int F = 0; F < Files; ++F)
    S.send({{"jsonrpc", "2.0"},
            {"method", "textDocument/didOpen"},
            {"params",
             {{"textDocument",
               {{"uri", "file:///bench/f" + std::to_string(F) + ".py"},
                {"languageId", "python"},
                {"version", 1},
                {"text", Text}}}}}});
  for (int F = 0; F < Files; ++F)
    S.waitDiagnostics("file:///bench/f" + std::to_string(F) + ".py", 1);
  double OpenMs = std::chrono::duration<double, std::milli>(Clock::now() - OpenStart).count();
  auto [RssOpen, HwmOpen] = S.memory();

  const std::string Uri = "file:///bench/f0.py";
  const std::string Typed = "tmp = tl.where(mask, x * 2.0 + 1.0, 0.0)";
  std::vector<double> Latencies;
  int64_t Version = 1;
  double CpuBefore = S.cpuMs();
  for (int L = 0; L < Lines; ++L) {
    size_t Line = Anchor + 1 + L;
    // A new line with the indentation, then the statement one key at a time.
    std::vector<std::pair<size_t, std::string>> Keys = {{0, Indent + "\n"}};
    for (size_t C = 0; C < Typed.size(); ++C)
      Keys.push_back({Indent.size() + C, std::string(1, Typed[C])});
    for (size_t K = 0; K < Keys.size(); ++K) {
      size_t Col = Keys[K].first;
      ++Version;
      auto Sent = Clock::now();
      S.send(
          {{"jsonrpc", "2.0"},
           {"method", "textDocument/didChange"},
           {"params",
            {{"textDocument", {{"uri", Uri}, {"version", Version}}},
             {"contentChanges", json::array({{{"range", {{"start", position(Line, Col)}, {"end", position(Line, Col)}}},
                                              {"text", Keys[K].second}}})}}}});
      auto Got = S.waitDiagnostics(Uri, Version);
      Latencies.push_back(std::chrono::duration<double, std::milli>(Got - Sent).count());
      std::this_thread::sleep_for(std::chrono::milliseconds(DelayMs));
    }
  }
  double CpuPerChange = (S.cpuMs() - CpuBefore) / Latencies.size();
  auto [RssEnd, HwmEnd] = S.memory();
  // Closing every document must give the memory back (issue 9's bar).
  for (int F = 0; F < Files; ++F)
    S.send({{"jsonrpc", "2.0"},
            {"method", "textDocument/didClose"},
            {"params", {{"textDocument", {{"uri", "file:///bench/f" + std::to_string(F) + ".py"}}}}}});
  S.send({{"jsonrpc", "2.0"}, {"id", 3}, {"method", "sync"}, {"params", nullptr}});
  S.waitReply(3);
  auto [RssClosed, HwmClosed] = S.memory();
  (void)HwmClosed;
  S.send({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "shutdown"}});
  S.waitReply(2);
  S.send({{"jsonrpc", "2.0"}, {"method", "exit"}});

  std::printf("file: %zu lines, %d copies open (first diagnostics for all after %.1f ms)\n", FileLines.size(), Files,
              OpenMs);
  std::printf("typing: %zu didChange (one key each, %d ms apart) into f0.py\n", Latencies.size(), DelayMs);
  if (EachKey)
    for (size_t K = 0; K < Latencies.size(); ++K)
      std::printf("key %zu: %.2f ms\n", K + 1, Latencies[K]);
  std::printf("change -> publishDiagnostics: p50 %.2f ms, p90 %.2f ms, p95 %.2f ms, p99 %.2f ms, max %.2f ms\n",
              percentile(Latencies, 0.5), percentile(Latencies, 0.9), percentile(Latencies, 0.95),
              percentile(Latencies, 0.99), *std::max_element(Latencies.begin(), Latencies.end()));
  std::printf("server CPU time per change (user + system): %.2f ms\n", CpuPerChange);
  std::printf("server memory with %d files open: VmRSS %.1f MiB (peak %.1f MiB); after typing: VmRSS %.1f MiB (peak "
              "%.1f MiB)\n",
              Files, RssOpen / 1024.0, HwmOpen / 1024.0, RssEnd / 1024.0, HwmEnd / 1024.0);
  std::printf("server memory after closing them: VmRSS %.1f MiB\n", RssClosed / 1024.0);
  return 0;
}
