//===- Sanitize.h - one launch under compute-sanitizer memcheck -*- C++ -*-===//
/// \file
/// `tessel run --gpu --sanitize`: every instance is run once more, alone, in a
/// child `tessel run ... --instance N` under `compute-sanitizer --tool
/// memcheck`, so the sanitizer sees exactly that launch and a fault it
/// provokes ends only the child. The kernel is compiled with line tables
/// (the PTX carries `.loc`, the cubin -lineinfo), so each report names a line
/// of the file; parseSanitizerOutput groups the reports by kind, kernel and
/// line.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_SANITIZE_H
#define TESSEL_TOOLS_SANITIZE_H

#include "tools/RunReport.h"

#include <string>
#include <vector>

namespace tessel::tools {

/// compute-sanitizer's path, or "" with Searched saying where it looked.
std::string findComputeSanitizer(std::string &Searched);

/// The reports in compute-sanitizer's output (its `=========` lines); Ran is
/// false, with Error, when the output has no ERROR SUMMARY (the tool could
/// not run: "Device not supported", a missing driver).
SanitizerReport parseSanitizerOutput(const std::string &Output);

/// Runs Command (argv of `tessel run` for one instance) under Sanitizer,
/// with a limit of TimeoutSeconds.
SanitizerReport runUnderSanitizer(const std::string &Sanitizer, const std::vector<std::string> &Command,
                                  unsigned TimeoutSeconds = 600);

} // namespace tessel::tools

#endif // TESSEL_TOOLS_SANITIZE_H
