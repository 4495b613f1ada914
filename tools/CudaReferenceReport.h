//===- CudaReferenceReport.h - `--reference`'s part of a run report -*- C++ -*-===//
/// \file
/// RunReport.cpp's renderers call these for what `tessel run --gpu
/// --reference` adds. Text, per instance:
///
///     cuda reference softmax_ref.cu::softmax_rows<__half, 256, 4>: grid (37, 1, 1), block (256, 1, 1),
///         32 registers, 0 local bytes, 32 B shared, nvJitLink 13.0
///       out_ptr: 28897 elements match the interpreter (max abs error 0, max rel error 0)
///       time: median 0.0051 ms ..., 120 GB/s (3% of the device's 4000 GB/s)
///       gap: Triton kernel at 0.93x the CUDA reference (tessel 0.0055 ms, reference 0.0051 ms)
///
/// The gap is the reference's median time over tessel's: above 1 the Triton
/// kernel is the faster.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_CUDAREFERENCEREPORT_H
#define TESSEL_TOOLS_CUDAREFERENCEREPORT_H

#include "tools/RunReport.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>

namespace tessel::tools {

/// Did the reference fail to run, or differ from what it was compared with?
bool cudaReferenceFailed(const CudaReferenceInstance &C);
/// The reference's median time over tessel's GPU median; nullopt unless both were timed.
std::optional<double> cudaReferenceGap(const InstanceReport &I);

void renderCudaReferenceText(std::ostream &OS, const RunReport &R, const InstanceReport &I);
/// Once per run: Clang's diagnostics of the reference and why it could not run; nothing without --reference.
void renderCudaReferenceSummaryText(std::ostream &OS, const RunReport &R);
nlohmann::json cudaReferenceInstanceJson(const InstanceReport &I);
/// The run's `cudaReference` object: label, error, Clang's diagnostics.
nlohmann::json cudaReferenceRunJson(const RunReport &R);

} // namespace tessel::tools

#endif // TESSEL_TOOLS_CUDAREFERENCEREPORT_H
