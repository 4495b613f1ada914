//===- TritonReport.h - `--triton`'s part of a run report, as text or JSON -*- C++ -*-===//
/// \file
/// RunReport.cpp's renderers call these for what `tessel run --triton` adds.
/// Text, per instance (stable; tests read it):
///
///     triton: ran, compared with tessel's GPU run
///       out: 1000 elements match (max abs error 0, max rel error 0)
///       time: tessel 0.0051 ms, triton 0.0049 ms: tessel at 0.96x Triton's speed
///       figures     smem  regs  spills
///         tessel       0    16       0
///         triton       0    16       0
///
/// or, when Triton refuses the instance, its verdict beside tessel's:
///
///     triton: out of resource: shared memory, Required: 262144, Hardware limit: 232448
///       tessel: ran on the GPU with 196608 B shared
///
/// and once per run a summary line (`triton 3.6.0 on NVIDIA H200: 4 instances
/// ran, 4 match tessel, 0 differ; 1 refused by Triton`) or the one line saying
/// why Triton could not run at all.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_TRITONREPORT_H
#define TESSEL_TOOLS_TRITONREPORT_H

#include "tools/RunReport.h"

#include <nlohmann/json.hpp>
#include <ostream>

namespace tessel::tools {

void renderTritonInstanceText(std::ostream &OS, const InstanceReport &I);
/// The summary line(s) after the instances; nothing without --triton.
void renderTritonSummaryText(std::ostream &OS, const RunReport &R);

nlohmann::json tritonInstanceJson(const InstanceReport &I);
/// The run's `triton` object: version, device, error, notes.
nlohmann::json tritonRunJson(const RunReport &R);

} // namespace tessel::tools

#endif // TESSEL_TOOLS_TRITONREPORT_H
