//===- GpuPeak.cpp - the device's ceilings, measured once and cached ------===//
/// \file
/// One line per device: KEY, tab, copy GB/s, tab, mma TFLOP/s. A line that
/// does not parse is ignored (and dropped at the next write): a damaged
/// cache only costs a measurement.
//===----------------------------------------------------------------------===//
#include "tools/GpuPeak.h"

#include "compiler/support/CacheDirectory.h"

#include <cstdlib>
#include <sstream>

namespace tessel::tools {

std::string peakCachePath() { return userCacheDirectory("gpu-peak.tsv"); }

/// KEY and figures of one line, or nullopt.
static std::optional<std::pair<std::string, PeakFigures>> parseLine(const std::string &Line) {
  size_t T1 = Line.find('\t');
  if (T1 == std::string::npos)
    return std::nullopt;
  size_t T2 = Line.find('\t', T1 + 1);
  if (T2 == std::string::npos)
    return std::nullopt;
  PeakFigures P;
  char *End = nullptr;
  std::string A = Line.substr(T1 + 1, T2 - T1 - 1), B = Line.substr(T2 + 1);
  P.CopyGBps = std::strtod(A.c_str(), &End);
  if (End == A.c_str() || *End)
    return std::nullopt;
  P.MmaTflops = std::strtod(B.c_str(), &End);
  if (End == B.c_str() || *End || P.CopyGBps <= 0 || P.MmaTflops < 0)
    return std::nullopt;
  return std::make_pair(Line.substr(0, T1), P);
}

std::optional<PeakFigures> findPeak(const std::string &FileText, const std::string &DeviceKey) {
  std::istringstream In(FileText);
  std::string Line;
  while (std::getline(In, Line))
    if (auto E = parseLine(Line); E && E->first == DeviceKey)
      return E->second;
  return std::nullopt;
}

std::string withPeak(const std::string &FileText, const std::string &DeviceKey, const PeakFigures &P) {
  std::istringstream In(FileText);
  std::ostringstream Out;
  std::string Line;
  while (std::getline(In, Line))
    if (auto E = parseLine(Line); E && E->first != DeviceKey)
      Out << Line << '\n';
  Out.precision(6);
  Out << DeviceKey << '\t' << P.CopyGBps << '\t' << P.MmaTflops << '\n';
  return Out.str();
}

} // namespace tessel::tools
