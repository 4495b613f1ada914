//===- IndexFuzzer.cpp - libFuzzer target for the saved launch index ------===//
/// \file
/// The bytes are a launch index file as `tessel check` finds it in the
/// user's cache (compiler/project/LaunchIndexFile.h): truncated by a full
/// disk, damaged, written by another version or by anyone. Also fed with
/// its checksum made right, so the decoder's checks past the checksum are
/// reached: the first byte of the input chooses (odd: made right), the
/// rest is the file. decode() must refuse
/// or accept without a crash, an over-read or a huge allocation; what it
/// accepts must be self-consistent (every posting's row exists, names are
/// sorted, each name finds its own postings), and encoding it again must
/// decode to the same index, else the target traps.
//===----------------------------------------------------------------------===//
#include "fuzz/FuzzSupport.h"

#include "compiler/project/FileSet.h"
#include "compiler/project/LaunchIndexFile.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace tessel;
using namespace tessel::project;

namespace {

std::string describe(const LaunchIndexFile &F) {
  std::string S = F.Root + " @" + std::to_string(F.WrittenNs) + "\n";
  for (const IndexRow &R : F.Rows)
    S += R.Path + " " + std::to_string(R.Size) + " " + std::to_string(R.MtimeNs) + " " + std::to_string(R.Hash) + "\n";
  for (size_t I = 0; I < F.nameCount(); ++I) {
    S += std::string(F.name(I)) + ":";
    for (const IndexPosting &P : F.postingsAt(I))
      S += " " + std::to_string(P.Row) + "/" + std::to_string(P.Marks);
    S += "\n";
  }
  return S;
}

void check(const LaunchIndexFile &F) {
  std::map<std::string, std::vector<IndexPosting>> Names;
  for (size_t I = 0; I < F.nameCount(); ++I) {
    if (I && !(F.name(I - 1) < F.name(I)))
      fuzz::requireSame("names sorted", std::string(F.name(I - 1)) + " < " + std::string(F.name(I)), "not");
    auto Own = F.postings(F.name(I));
    fuzz::requireSame("a name finds its postings", std::to_string(F.postingsAt(I).size()), std::to_string(Own.size()));
    for (const IndexPosting &P : Own)
      if (P.Row >= F.Rows.size() || !P.Marks)
        fuzz::requireSame("a posting names a row", "row < " + std::to_string(F.Rows.size()), std::to_string(P.Row));
    Names.emplace(std::string(F.name(I)), std::vector<IndexPosting>(Own.begin(), Own.end()));
  }
  std::optional<LaunchIndexFile> Again =
      LaunchIndexFile::decode(LaunchIndexFile::encode(F.Root, F.WrittenNs, F.Rows, Names));
  fuzz::requireSame("an accepted index encodes and decodes to itself", describe(F),
                    Again ? describe(*Again) : std::string("(refused)"));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size == 0)
    return 0;
  std::string Bytes(reinterpret_cast<const char *>(Data) + 1, Size - 1);
  if ((Data[0] & 1) && Bytes.size() >= 16) {
    // Past the checksum: make it right for whatever body follows.
    uint64_t Sum = contentHash(std::string_view(Bytes).substr(16));
    for (int I = 0; I < 8; ++I)
      Bytes[8 + I] = static_cast<char>(Sum >> (8 * I));
  }
  if (std::optional<LaunchIndexFile> F = LaunchIndexFile::decode(Bytes))
    check(*F);
  return 0;
}
