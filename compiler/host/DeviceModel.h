//===- DeviceModel.h - the GPU host code asks about -------------*- C++ -*-===//
/// \file
/// Host code sizes launches from the device it runs on: Triton's fused
/// softmax tutorial reads `driver.active.utils.get_device_properties(0)`
/// for the SM count, the register file and the shared memory, libraries
/// read `torch.cuda.get_device_properties(0).multi_processor_count` for
/// persistent grids, and `torch.cuda.get_device_capability()` to pick
/// paths. tessel compiles for one target (sm_90 unless told otherwise), so
/// these have one answer: the properties of the reference GPU of that
/// architecture (an H100/H200-class SXM part for sm_90, an A100 for sm_80),
/// as the CUDA driver reports them. ConstEval answers them in host mode only.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_HOST_DEVICEMODEL_H
#define TESSEL_COMPILER_HOST_DEVICEMODEL_H

#include "compiler/frontend/PyValue.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tessel::devicemodel {

struct Device {
  unsigned Capability;       ///< 90, 80
  const char *Name;          ///< torch's get_device_name
  int64_t SmCount;           ///< multiprocessor_count
  int64_t MaxSharedPerBlock; ///< opt-in bytes per block (Triton's max_shared_mem)
  int64_t SharedPerSm;       ///< bytes per multiprocessor
  int64_t RegistersPerSm;    ///< 32-bit registers (max_num_regs)
  int64_t MaxThreadsPerSm;
  int64_t L2Bytes;
  int64_t TotalMemory; ///< bytes
  int64_t SmClockKHz, MemClockKHz, MemBusWidth;
};

/// The device host code sees: the reference GPU of the target architecture.
const Device &targetDevice();
/// Sets the target (a capability such as 90 or 80) for this process: the
/// check's or run's `--arch`, before any host code is evaluated.
void setTargetCapability(unsigned Capability);

/// A call of a device query (`torch.cuda.get_device_properties`,
/// `driver.active.utils.get_device_properties`, `torch.cuda.current_device`,
/// `torch.cuda.get_device_capability`...) with its value, or nullopt when
/// Path is no such function.
std::optional<PyValue> callDevice(const std::string &Path, const PyList &Args);

/// The value torch's device-properties object stands for (a Qualified path)
/// and its attributes (`multi_processor_count`, `shared_memory_per_block_optin`...).
inline constexpr const char TorchProperties[] = "torch.cuda.get_device_properties()";
PyValue torchPropertiesAttribute(const std::string &Attr);

} // namespace tessel::devicemodel

#endif // TESSEL_COMPILER_HOST_DEVICEMODEL_H
