//===- CudaDriver.h - the CUDA driver API, opened at run time ---*- C++ -*-===//
/// \file
/// libcuda.so.1 through dlopen: tessel has no link-time dependency on the
/// driver, so the same binary runs on a machine without a GPU (where
/// `load` says why there is none) and on one with any driver recent enough
/// for the entry points below. Types come from the CUDA toolkit's cuda.h;
/// no function of it is called directly.
///
/// Only the runner process uses this layer (DESIGN.md: a GPU fault must not
/// take the language server down). A failed call becomes a DriverError that
/// names the call and the driver's own name and sentence for the error
/// (`cuModuleLoadData: CUDA_ERROR_INVALID_PTX: a PTX JIT compilation
/// failed`); callers add the kernel and the launch.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_RUNTIME_CUDADRIVER_H
#define TESSEL_COMPILER_RUNTIME_CUDADRIVER_H

#include <cuda.h>

#include <optional>
#include <string>

namespace tessel::runtime {

struct DriverError {
  std::string Call; ///< "cuLaunchKernel"
  CUresult Code = CUDA_SUCCESS;
  std::string Name;    ///< "CUDA_ERROR_ILLEGAL_ADDRESS"
  std::string Message; ///< the driver's sentence
  std::string Context; ///< what tessel was doing: "kernel add_kernel, grid (97, 1, 1)"

  /// `cuLaunchKernel: CUDA_ERROR_ILLEGAL_ADDRESS (an illegal memory access was encountered)`, then the context.
  std::string str() const;
  /// Faults that leave the context unusable (illegal address, trap, misaligned access...): the process that hit
  /// one must end before the GPU can be used again.
  bool isSticky() const;
};

/// The driver entry points tessel uses, resolved once per process.
struct CudaDriver {
  decltype(&::cuInit) Init = nullptr;
  decltype(&::cuDriverGetVersion) DriverGetVersion = nullptr;
  decltype(&::cuDeviceGetCount) DeviceGetCount = nullptr;
  decltype(&::cuDeviceGet) DeviceGet = nullptr;
  decltype(&::cuDeviceGetName) DeviceGetName = nullptr;
  decltype(&::cuDeviceGetAttribute) DeviceGetAttribute = nullptr;
  decltype(&::cuDeviceTotalMem) DeviceTotalMem = nullptr;
  decltype(&::cuDevicePrimaryCtxRetain) PrimaryCtxRetain = nullptr;
  decltype(&::cuDevicePrimaryCtxRelease) PrimaryCtxRelease = nullptr;
  decltype(&::cuCtxSetCurrent) CtxSetCurrent = nullptr;
  decltype(&::cuCtxSynchronize) CtxSynchronize = nullptr;
  decltype(&::cuModuleLoadDataEx) ModuleLoadDataEx = nullptr;
  decltype(&::cuModuleUnload) ModuleUnload = nullptr;
  decltype(&::cuModuleGetFunction) ModuleGetFunction = nullptr;
  decltype(&::cuFuncSetAttribute) FuncSetAttribute = nullptr;
  decltype(&::cuFuncGetAttribute) FuncGetAttribute = nullptr;
  decltype(&::cuLaunchKernel) LaunchKernel = nullptr;
  decltype(&::cuMemAlloc) MemAlloc = nullptr;
  decltype(&::cuMemFree) MemFree = nullptr;
  decltype(&::cuMemcpyHtoD) MemcpyHtoD = nullptr;
  decltype(&::cuMemcpyDtoH) MemcpyDtoH = nullptr;
  decltype(&::cuMemsetD8) MemsetD8 = nullptr;
  decltype(&::cuEventCreate) EventCreate = nullptr;
  decltype(&::cuEventDestroy) EventDestroy = nullptr;
  decltype(&::cuEventRecord) EventRecord = nullptr;
  decltype(&::cuEventQuery) EventQuery = nullptr;
  decltype(&::cuEventSynchronize) EventSynchronize = nullptr;
  decltype(&::cuEventElapsedTime) EventElapsedTime = nullptr;
  decltype(&::cuGetErrorName) GetErrorName = nullptr;
  decltype(&::cuGetErrorString) GetErrorString = nullptr;
  /// Optional (CUDA 12 drivers and later): null on an older driver, where a
  /// kernel taking tensor maps cannot be launched.
  decltype(&::cuTensorMapEncodeTiled) TensorMapEncodeTiled = nullptr;

  /// The process's driver, opened and initialised on first use (cuInit);
  /// nullptr when there is none, with the reason in Why ("libcuda.so.1
  /// cannot be loaded: ...", "cuInit: CUDA_ERROR_NO_DEVICE ...").
  static const CudaDriver *get(std::string &Why);

  /// nullopt when R is CUDA_SUCCESS, else the error of Call.
  std::optional<DriverError> check(CUresult R, const char *Call) const;
};

} // namespace tessel::runtime

#endif // TESSEL_COMPILER_RUNTIME_CUDADRIVER_H
