//===- Robustness.cpp - broken input never crashes or hangs the checker ---===//
/// \file
/// Feeds damaged versions of every sample through the same in-process path
/// the CLI and the server use (ParsedFile::parse + diag::checkFile): every
/// prefix at ~200 cut points (most land mid-token), the file with one line
/// deleted, seeded random byte mutations, and duplicated / reordered halves.
/// Broken code is the normal case while a user types, so the only acceptable
/// outcome is a report. A crash fails the test (the input is left in
/// robustness-last-input.py for reproduction); an input that takes longer
/// than the per-input limit fails it too, and a watchdog ends a hang.
///
///   robustness SAMPLES_DIR [--limit-ms=2000] [--seed=N]
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Parser.h"
#include "diagnostics/Check.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace tessel;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

struct Variant {
  std::string Name;
  std::string Text;
};

/// Sets of characters that steer mutations towards Python's structure.
constexpr std::string_view Interesting = "()[]{}:,.=+-*/%<>!@#'\"\\\n\t \r0123456789abcxyz_";

} // namespace

static std::vector<std::string> splitLines(const std::string &Text) {
  std::vector<std::string> Lines;
  std::string Cur;
  for (char C : Text) {
    Cur += C;
    if (C == '\n') {
      Lines.push_back(std::move(Cur));
      Cur.clear();
    }
  }
  if (!Cur.empty())
    Lines.push_back(std::move(Cur));
  return Lines;
}

static std::vector<Variant> variantsOf(const std::string &Text, uint32_t Seed) {
  std::vector<Variant> Out;
  // Prefixes: ~200 cut points spread over the file, plus the very ends.
  size_t Cuts = std::min<size_t>(200, Text.size());
  for (size_t I = 0; I <= Cuts; ++I) {
    size_t At = Cuts ? Text.size() * I / Cuts : 0;
    Out.push_back({"prefix " + std::to_string(At), Text.substr(0, At)});
  }
  // Each line deleted in turn (at most ~150 of them, evenly spread).
  std::vector<std::string> Lines = splitLines(Text);
  size_t Step = std::max<size_t>(1, Lines.size() / 150);
  for (size_t L = 0; L < Lines.size(); L += Step) {
    std::string T;
    for (size_t J = 0; J < Lines.size(); ++J)
      if (J != L)
        T += Lines[J];
    Out.push_back({"line " + std::to_string(L + 1) + " deleted", std::move(T)});
  }
  // Seeded byte mutations: overwrite, insert or delete 1-4 bytes.
  std::mt19937 Rng(Seed);
  for (int I = 0; I < 150 && !Text.empty(); ++I) {
    std::string T = Text;
    int Edits = 1 + static_cast<int>(Rng() % 4);
    for (int E = 0; E < Edits && !T.empty(); ++E) {
      size_t Pos = Rng() % T.size();
      char C = Rng() % 4 == 0 ? static_cast<char>(Rng() % 256) : Interesting[Rng() % Interesting.size()];
      switch (Rng() % 3) {
      case 0:
        T[Pos] = C;
        break;
      case 1:
        T.insert(T.begin() + static_cast<std::ptrdiff_t>(Pos), C);
        break;
      default:
        T.erase(Pos, 1);
      }
    }
    Out.push_back({"mutation " + std::to_string(I) + " (seed " + std::to_string(Seed) + ")", std::move(T)});
  }
  // Duplicated and reordered: repeated definitions, code before imports.
  Out.push_back({"duplicated", Text + Text});
  Out.push_back({"halves swapped", Text.substr(Text.size() / 2) + Text.substr(0, Text.size() / 2)});
  Out.push_back({"middle duplicated", Text.substr(0, Text.size() * 3 / 4) + Text.substr(Text.size() / 4)});
  // Indentation damage: every line indented one more level.
  std::string Indented;
  for (const std::string &L : Lines)
    Indented += "    " + L;
  Out.push_back({"all indented", std::move(Indented)});
  return Out;
}

int main(int Argc, char **Argv) {
  if (Argc < 2) {
    std::cerr << "usage: robustness SAMPLES_DIR [--limit-ms=2000] [--seed=N]\n";
    return 2;
  }
  fs::path Root = Argv[1];
  long LimitMs = 2000;
  uint32_t Seed = 20261129;
  for (int I = 2; I < Argc; ++I) {
    std::string_view A = Argv[I];
    if (A.rfind("--limit-ms=", 0) == 0)
      LimitMs = std::atol(Argv[I] + 11);
    else if (A.rfind("--seed=", 0) == 0)
      Seed = static_cast<uint32_t>(std::strtoul(Argv[I] + 7, nullptr, 10));
  }

  std::vector<fs::path> Samples;
  std::error_code EC;
  for (auto It = fs::recursive_directory_iterator(Root, EC); !EC && It != fs::recursive_directory_iterator();
       It.increment(EC))
    if (It->is_regular_file() && It->path().extension() == ".py")
      Samples.push_back(It->path());
  std::sort(Samples.begin(), Samples.end());
  if (Samples.empty()) {
    std::cerr << "robustness: no samples under " << Root << "\n";
    return 2;
  }

  // The watchdog ends a hang well before ctest's timeout, naming the input.
  std::atomic<long> Started{-1};
  std::atomic<bool> Done{false};
  std::thread Watchdog([&] {
    while (!Done) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      long S = Started.load();
      long Now = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now().time_since_epoch()).count();
      if (S >= 0 && Now - S > 10 * LimitMs) {
        std::fprintf(stderr, "robustness: HANG on an input (see robustness-last-input.py)\n");
        std::_Exit(1);
      }
    }
  });

  size_t Inputs = 0, Slow = 0;
  double Worst = 0;
  std::string WorstName;
  for (const fs::path &P : Samples) {
    std::ifstream In(P, std::ios::binary);
    std::stringstream SS;
    SS << In.rdbuf();
    for (Variant &V : variantsOf(SS.str(), Seed)) {
      std::string Name = P.string() + ": " + V.Name;
      // Left behind on a crash so the input can be replayed with `tessel check`.
      std::ofstream("robustness-last-input.py", std::ios::binary | std::ios::trunc) << V.Text;
      auto T0 = Clock::now();
      Started = std::chrono::duration_cast<std::chrono::milliseconds>(T0.time_since_epoch()).count();
      auto Text = std::make_shared<SourceText>(std::move(V.Text), P.string());
      diag::FileReport R = diag::checkFile(ParsedFile::parse(std::move(Text)));
      double Ms = std::chrono::duration<double, std::milli>(Clock::now() - T0).count();
      Started = -1;
      ++Inputs;
      if (Ms > Worst)
        Worst = Ms, WorstName = Name;
      if (Ms > static_cast<double>(LimitMs)) {
        std::cerr << "robustness: SLOW " << Ms << " ms (limit " << LimitMs << " ms): " << Name << "\n";
        ++Slow;
      }
      (void)R;
    }
  }
  Done = true;
  Watchdog.join();
  std::remove("robustness-last-input.py");
  std::cout << "robustness: " << Inputs << " inputs from " << Samples.size() << " samples, slowest " << Worst << " ms ("
            << WorstName << ")\n";
  return Slow ? 1 : 0;
}
