//===- DeviceModel.cpp - the GPU host code asks about ---------------------===//
/// \file
/// The figures are those `cudaGetDeviceProperties` and Triton's
/// `get_device_properties` report on the reference parts (CUDA 12-13).
//===----------------------------------------------------------------------===//
#include "compiler/host/DeviceModel.h"

#include <atomic>

namespace tessel::devicemodel {

static const Device Hopper{90,       "NVIDIA H100 80GB HBM3", 132,     232448,  233472, 65536, 2048,
                           52428800, int64_t(85) << 30,       1980000, 2619000, 5120};
static const Device Ampere{80,       "NVIDIA A100-SXM4-80GB", 108,     166912,  167936, 65536, 2048,
                           41943040, int64_t(80) << 30,       1410000, 1593000, 5120};

static std::atomic<unsigned> Target{90};

const Device &targetDevice() { return Target.load() >= 90 ? Hopper : Ampere; }

void setTargetCapability(unsigned Capability) { Target.store(Capability); }

static PyValue str(const char *S) { return PyValue::string(S); }

std::optional<PyValue> callDevice(const std::string &Path, const PyList &Args) {
  const Device &D = targetDevice();
  // Triton's driver: a dict of what its launcher needs.
  if (Path == "triton.runtime.driver.active.utils.get_device_properties" ||
      Path == "triton.runtime.driver.utils.get_device_properties") {
    PyDict Props;
    auto Put = [&Props](const char *K, int64_t V) { Props.emplace_back(str(K), PyValue::integer(V)); };
    Put("max_shared_mem", D.MaxSharedPerBlock);
    Put("max_num_regs", D.RegistersPerSm);
    Put("multiprocessor_count", D.SmCount);
    Put("warpSize", 32);
    Put("sm_clock_rate", D.SmClockKHz);
    Put("mem_clock_rate", D.MemClockKHz);
    Put("mem_bus_width", D.MemBusWidth);
    return PyValue::dict(std::move(Props));
  }
  if (Path == "triton.runtime.driver.active.get_current_device" || Path == "torch.cuda.current_device")
    return PyValue::integer(0);
  if (Path == "torch.cuda.is_available")
    return PyValue::boolean(true);
  if (Path == "torch.cuda.device_count")
    return PyValue::integer(1);
  if (Path == "torch.cuda.get_device_capability")
    return PyValue::tuple({PyValue::integer(D.Capability / 10), PyValue::integer(D.Capability % 10)});
  if (Path == "torch.cuda.get_device_name")
    return str(D.Name);
  if (Path == "torch.cuda.get_device_properties")
    return PyValue::qualified(TorchProperties);
  (void)Args;
  return std::nullopt;
}

PyValue torchPropertiesAttribute(const std::string &Attr) {
  const Device &D = targetDevice();
  if (Attr == "multi_processor_count")
    return PyValue::integer(D.SmCount);
  if (Attr == "shared_memory_per_block_optin")
    return PyValue::integer(D.MaxSharedPerBlock);
  if (Attr == "shared_memory_per_multiprocessor")
    return PyValue::integer(D.SharedPerSm);
  if (Attr == "shared_memory_per_block")
    return PyValue::integer(49152);
  if (Attr == "regs_per_multiprocessor")
    return PyValue::integer(D.RegistersPerSm);
  if (Attr == "max_threads_per_multi_processor")
    return PyValue::integer(D.MaxThreadsPerSm);
  if (Attr == "warp_size")
    return PyValue::integer(32);
  if (Attr == "L2_cache_size")
    return PyValue::integer(D.L2Bytes);
  if (Attr == "total_memory")
    return PyValue::integer(D.TotalMemory);
  if (Attr == "major" || Attr == "minor")
    return PyValue::integer(Attr == "major" ? D.Capability / 10 : D.Capability % 10);
  if (Attr == "name")
    return str(D.Name);
  return PyValue();
}

} // namespace tessel::devicemodel
