//===- CudaDriver.cpp - the CUDA driver API, opened at run time -----------===//
/// \file
/// Each entry point is looked up under the versioned name cuda.h maps it to
/// (`cuMemAlloc_v2`) and then its plain name, so that an older driver that
/// lacks a `_v2` still loads. A missing entry point is a clear "driver too
/// old" reason, never a crash at the first call.
//===----------------------------------------------------------------------===//
#include "compiler/runtime/CudaDriver.h"

#include <dlfcn.h>

#include <initializer_list>
#include <mutex>

namespace tessel::runtime {

std::string DriverError::str() const {
  // No call failed (no driver, a broken session): the reason alone.
  if (Call.empty())
    return Message + (Context.empty() ? "" : "; " + Context);
  std::string S = Call + ": " + (Name.empty() ? "error " + std::to_string(static_cast<int>(Code)) : Name);
  if (!Message.empty())
    S += " (" + Message + ")";
  if (!Context.empty())
    S += "; " + Context;
  return S;
}

bool DriverError::isSticky() const {
  switch (Code) {
  case CUDA_ERROR_ILLEGAL_ADDRESS:
  case CUDA_ERROR_ILLEGAL_INSTRUCTION:
  case CUDA_ERROR_MISALIGNED_ADDRESS:
  case CUDA_ERROR_INVALID_ADDRESS_SPACE:
  case CUDA_ERROR_INVALID_PC:
  case CUDA_ERROR_HARDWARE_STACK_ERROR:
  case CUDA_ERROR_ASSERT:
  case CUDA_ERROR_LAUNCH_FAILED:
  case CUDA_ERROR_LAUNCH_TIMEOUT:
  case CUDA_ERROR_ECC_UNCORRECTABLE:
    return true;
  default:
    return false;
  }
}

std::optional<DriverError> CudaDriver::check(CUresult R, const char *Call) const {
  if (R == CUDA_SUCCESS)
    return std::nullopt;
  DriverError E;
  E.Call = Call;
  E.Code = R;
  const char *Text = nullptr;
  if (GetErrorName && GetErrorName(R, &Text) == CUDA_SUCCESS && Text)
    E.Name = Text;
  Text = nullptr;
  if (GetErrorString && GetErrorString(R, &Text) == CUDA_SUCCESS && Text)
    E.Message = Text;
  return E;
}

/// Resolves Slot from the first of Names the library has.
template <class Fn> static bool resolve(void *Lib, Fn &Slot, std::initializer_list<const char *> Names) {
  for (const char *N : Names)
    if (void *P = dlsym(Lib, N)) {
      Slot = reinterpret_cast<Fn>(P);
      return true;
    }
  return false;
}

static const CudaDriver *open(std::string &Why) {
  void *Lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!Lib) {
    const char *E = dlerror();
    Why = "no GPU driver: libcuda.so.1 cannot be loaded (" + std::string(E ? E : "not found") + ")";
    return nullptr;
  }
  static CudaDriver D;
  bool Ok = true;
  std::string Missing;
  auto Need = [&](auto &Slot, std::initializer_list<const char *> Names) {
    if (!resolve(Lib, Slot, Names)) {
      Ok = false;
      Missing += (Missing.empty() ? "" : ", ") + std::string(*Names.begin());
    }
  };
  Need(D.Init, {"cuInit"});
  Need(D.DriverGetVersion, {"cuDriverGetVersion"});
  Need(D.DeviceGetCount, {"cuDeviceGetCount"});
  Need(D.DeviceGet, {"cuDeviceGet"});
  Need(D.DeviceGetName, {"cuDeviceGetName"});
  Need(D.DeviceGetAttribute, {"cuDeviceGetAttribute"});
  Need(D.DeviceTotalMem, {"cuDeviceTotalMem_v2", "cuDeviceTotalMem"});
  Need(D.PrimaryCtxRetain, {"cuDevicePrimaryCtxRetain"});
  Need(D.PrimaryCtxRelease, {"cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"});
  Need(D.CtxSetCurrent, {"cuCtxSetCurrent"});
  Need(D.CtxSynchronize, {"cuCtxSynchronize"});
  Need(D.ModuleLoadDataEx, {"cuModuleLoadDataEx"});
  Need(D.ModuleUnload, {"cuModuleUnload"});
  Need(D.ModuleGetFunction, {"cuModuleGetFunction"});
  Need(D.FuncSetAttribute, {"cuFuncSetAttribute"});
  Need(D.FuncGetAttribute, {"cuFuncGetAttribute"});
  Need(D.LaunchKernel, {"cuLaunchKernel"});
  Need(D.MemAlloc, {"cuMemAlloc_v2"});
  Need(D.MemFree, {"cuMemFree_v2"});
  Need(D.MemcpyHtoD, {"cuMemcpyHtoD_v2"});
  Need(D.MemcpyDtoH, {"cuMemcpyDtoH_v2"});
  Need(D.MemsetD8, {"cuMemsetD8_v2"});
  Need(D.EventCreate, {"cuEventCreate"});
  Need(D.EventDestroy, {"cuEventDestroy_v2", "cuEventDestroy"});
  Need(D.EventRecord, {"cuEventRecord"});
  Need(D.EventQuery, {"cuEventQuery"});
  Need(D.EventSynchronize, {"cuEventSynchronize"});
  Need(D.EventElapsedTime, {"cuEventElapsedTime_v2", "cuEventElapsedTime"});
  Need(D.GetErrorName, {"cuGetErrorName"});
  Need(D.GetErrorString, {"cuGetErrorString"});
  resolve(Lib, D.TensorMapEncodeTiled, {"cuTensorMapEncodeTiled"});
  if (!Ok) {
    Why = "the GPU driver is too old for tessel: libcuda.so.1 lacks " + Missing;
    return nullptr;
  }
  if (std::optional<DriverError> E = D.check(D.Init(0), "cuInit")) {
    Why = "no usable GPU: " + E->str();
    return nullptr;
  }
  int Count = 0;
  if (std::optional<DriverError> E = D.check(D.DeviceGetCount(&Count), "cuDeviceGetCount")) {
    Why = "no usable GPU: " + E->str();
    return nullptr;
  }
  if (Count == 0) {
    Why = "no GPU: the driver reports no CUDA device";
    return nullptr;
  }
  return &D;
}

const CudaDriver *CudaDriver::get(std::string &Why) {
  static std::once_flag Once;
  static const CudaDriver *Driver = nullptr;
  static std::string Reason;
  std::call_once(Once, [] { Driver = open(Reason); });
  Why = Reason;
  return Driver;
}

} // namespace tessel::runtime
