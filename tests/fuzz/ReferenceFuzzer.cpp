//===- ReferenceFuzzer.cpp - libFuzzer target for CUDA references ---------===//
/// \file
/// The two inputs a CUDA reference brings (compiler/reference): the first
/// byte chooses. Even: a Python file whose `# tessel: reference` directives
/// are found and parsed (findReferenceDirectives); every range they give,
/// and every error's, must lie inside the file. Odd: the text of a `.cu`
/// file, read by Clang in process as `tessel compile --reference` and the
/// editor read one (readReference of `k`; bit 1 also generates the module,
/// as a compile does): Clang's diagnostics for whatever the bytes are, never
/// a crash, a hang or a sanitizer report, and an error or a kernel, never
/// neither without a diagnostic. Else the target traps.
//===----------------------------------------------------------------------===//
#include "fuzz/FuzzSupport.h"

#include "compiler/reference/CudaFrontend.h"
#include "compiler/reference/ReferenceDirective.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

using namespace tessel;
using namespace tessel::reference;

namespace {

void inside(const char *What, SourceRange R, size_t Size) {
  if (R.Begin > R.End || R.End > Size)
    fuzz::requireSame(What, "a range inside the file (" + std::to_string(Size) + " bytes)", fuzz::rangeText(R));
}

} // namespace

/// The PCHs of the inputs' preludes go to a folder of the campaign's own,
/// never into the user's cache.
extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  static char Dir[] = "/tmp/tessel-fuzz-reference-XXXXXX";
  if (!std::getenv("TESSEL_CACHE_DIR") && ::mkdtemp(Dir)) {
    ::setenv("TESSEL_CACHE_DIR", Dir, 1);
    std::atexit([] {
      std::error_code Ec;
      std::filesystem::remove_all(Dir, Ec);
    });
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size == 0)
    return 0;
  std::string Text(reinterpret_cast<const char *>(Data) + 1, Size - 1);
  if (!(Data[0] & 1)) {
    for (const ReferenceDirective &D : findReferenceDirectives(Text)) {
      inside("a directive's range", D.Range, Text.size());
      inside("a directive's target", D.TargetRange, Text.size());
      for (const ParamRename &R : D.Renames)
        inside("a rename's range", R.Range, Text.size());
      for (const DirectiveError &E : D.Errors)
        inside("a directive error's range", E.Range, Text.size());
    }
    return 0;
  }
  CudaOptions Opts;
  Opts.Arch = backend::GpuArch{90, true};
  Opts.Generate = (Data[0] & 2) != 0;
  Opts.Text = Text;
  ReferenceSource S = readReference("/fuzz/reference.cu", "k", "", Opts);
  if (!S.Kernel && S.Error.empty() && S.Diagnostics.empty())
    fuzz::requireSame("a reference that gives no kernel says why", "an error or a diagnostic", "neither");
  return 0;
}
