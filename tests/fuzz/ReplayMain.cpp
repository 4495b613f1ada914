//===- ReplayMain.cpp - replays fuzz inputs without libFuzzer -------------===//
/// \file
/// A main for the fuzz targets in the normal build (any compiler, no
/// sanitizer needed): runs LLVMFuzzerTestOneInput once on every file named
/// on the command line or found in a folder named there, as libFuzzer does
/// when given files. ctest replays tests/fuzz/regressions/TARGET/ with it,
/// so every finding stays fixed in CI's GCC build; an input that fails
/// traps or crashes, and ctest reports the test as failed.
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size);
/// Called once before any input, as libFuzzer does, by the targets that define it.
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int *Argc, char ***Argv);

int main(int Argc, char **Argv) {
  if (LLVMFuzzerInitialize)
    LLVMFuzzerInitialize(&Argc, &Argv);
  std::vector<std::filesystem::path> Files;
  for (int I = 1; I < Argc; ++I) {
    std::filesystem::path P(Argv[I]);
    if (std::filesystem::is_directory(P)) {
      for (const auto &E : std::filesystem::directory_iterator(P))
        if (E.is_regular_file() && E.path().filename().string()[0] != '.')
          Files.push_back(E.path());
    } else if (std::filesystem::exists(P)) {
      Files.push_back(P);
    } else {
      std::fprintf(stderr, "replay: no such file or folder: %s\n", Argv[I]);
      return 2;
    }
  }
  std::sort(Files.begin(), Files.end());
  for (const auto &P : Files) {
    std::ifstream In(P, std::ios::binary);
    std::stringstream SS;
    SS << In.rdbuf();
    std::string Bytes = SS.str();
    std::fprintf(stderr, "replay: %s (%zu bytes)\n", P.c_str(), Bytes.size());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(Bytes.data()), Bytes.size());
  }
  std::printf("replayed %zu inputs\n", Files.size());
  return 0;
}
