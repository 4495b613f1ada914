//===- FrontEndFuzzer.cpp - libFuzzer target for the front end -----------===//
/// \file
/// The bytes are a Python file, checked as `tessel check` and the language
/// server check one: ParsedFile::parse, then diag::checkFile (discovery,
/// sema under every specialization, the checks). Then the reuse path: a
/// second check with the first one's analysis as the previous version's
/// (what the language server does after an edit that touched no kernel)
/// must give exactly the findings of the fresh one, else the target traps.
/// Edits that do touch kernels are EditsFuzzer's. The checks must never
/// crash, hang or trip a sanitizer, whatever the bytes.
//===----------------------------------------------------------------------===//
#include "fuzz/FuzzSupport.h"

#include "diagnostics/Check.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace tessel;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  auto File = ParsedFile::parse(std::make_shared<SourceText>(std::string(reinterpret_cast<const char *>(Data), Size)));
  diag::CheckOptions Opts;
  diag::FileReport Fresh = diag::checkFile(File, Opts);
  diag::FileReport Reused = diag::checkFile(File, Opts, Fresh.Analysis.get());
  fuzz::requireSame("a check with the previous analysis differs from a fresh one", fuzz::findingsText(Fresh.Findings),
                    fuzz::findingsText(Reused.Findings));
  return 0;
}
