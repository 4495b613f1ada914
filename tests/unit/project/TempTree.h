//===- TempTree.h - small file trees for project-model tests ----*- C++ -*-===//
/// \file
/// Each test writes the few files it needs under a fresh temporary directory
/// (removed at the end), so resolution is tested on real disk layouts: package
/// chains, `src/` layouts, toml settings.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TESTS_UNIT_PROJECT_TEMPTREE_H
#define TESSEL_TESTS_UNIT_PROJECT_TEMPTREE_H

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace tessel::testing {

class TempTree {
public:
  TempTree() {
    std::random_device Rd;
    Root = (std::filesystem::temp_directory_path() / ("tessel-project-" + std::to_string(Rd()))).string();
    std::filesystem::create_directories(Root);
  }
  ~TempTree() {
    std::error_code EC;
    std::filesystem::remove_all(Root, EC);
  }
  TempTree(const TempTree &) = delete;
  TempTree &operator=(const TempTree &) = delete;

  /// Writes Text to Rel (directories made as needed); returns the absolute path.
  std::string write(const std::string &Rel, const std::string &Text) {
    std::filesystem::path P = std::filesystem::path(Root) / Rel;
    std::filesystem::create_directories(P.parent_path());
    std::ofstream(P) << Text;
    return P.string();
  }
  std::string path(const std::string &Rel) const { return (std::filesystem::path(Root) / Rel).string(); }

  std::string Root;
};

} // namespace tessel::testing

#endif // TESSEL_TESTS_UNIT_PROJECT_TEMPTREE_H
