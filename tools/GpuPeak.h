//===- GpuPeak.h - the device's ceilings, measured once and cached -*- C++ -*-===//
/// \file
/// runtime::measurePeak on first use per device, then a line of
/// `gpu-peak.tsv` in the user's cache (support/CacheDirectory.h:
/// `~/.cache/tessel/gpu-peak.tsv`): the device's name, compute
/// capability, SM count and driver version, then the copy bandwidth and the
/// mma.sync rate. Another driver or board is another key and is measured
/// afresh; `TESSEL_REMEASURE_PEAK=1` measures again and replaces the line.
/// The file is written through a temporary and a rename, so two runs at once
/// never leave half a line.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_GPUPEAK_H
#define TESSEL_TOOLS_GPUPEAK_H

#include <optional>
#include <string>

namespace tessel::tools {

struct PeakFigures {
  double CopyGBps = 0;
  double MmaTflops = 0;
  std::string Source; ///< "measured now (...)" or "cached in PATH"
  /// sm_90's wgmma rates (0 elsewhere): fp16 (and bf16), fp8.
  double WgmmaF16Tflops = 0, WgmmaFp8Tflops = 0;
};

/// The tensor-core ceiling for a kernel's dots and the instruction it was
/// measured with: wgmma on sm_90 (fp8's rate where every dot takes fp8
/// operands), mma.sync elsewhere, as Triton's dots lower.
std::pair<double, std::string> tensorCeiling(const PeakFigures &P, bool Fp8Dots);

/// The cache file's path ("" when neither a cache variable nor HOME is set).
std::string peakCachePath();

/// The figures for DeviceKey in the cache file Path's text, if present.
std::optional<PeakFigures> findPeak(const std::string &FileText, const std::string &DeviceKey);
/// FileText with DeviceKey's line replaced by (or extended with) P.
std::string withPeak(const std::string &FileText, const std::string &DeviceKey, const PeakFigures &P);

} // namespace tessel::tools

#endif // TESSEL_TOOLS_GPUPEAK_H
