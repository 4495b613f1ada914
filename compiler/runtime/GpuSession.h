//===- GpuSession.h - one GPU, its memory, modules and launches -*- C++ -*-===//
/// \file
/// What `tessel run --gpu`'s runner does with a device: the primary context
/// of one GPU, device buffers, modules loaded from a cubin (or PTX, which
/// the driver compiles), and launches with Triton's ABI: the kernel's own
/// parameters in order, then the two scratch pointers Triton 3.6 appends
/// (global and profile scratch, NULL when their size is 0), blockDim
/// 32 x num_warps, dynamic shared memory only (raised past 48 KB with
/// cuFuncSetAttribute).
///
/// Faults stay in the process: a launch that hits an illegal address, a
/// trap (`device_assert`) or a misaligned access returns a sticky
/// DriverError, after which this session refuses further work; a kernel
/// that runs past the watchdog is reported as hung. Either way the caller
/// (a runner subprocess) ends, and the next run starts clean.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_RUNTIME_GPUSESSION_H
#define TESSEL_COMPILER_RUNTIME_GPUSESSION_H

#include "compiler/runtime/CudaDriver.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace tessel::runtime {

struct DeviceInfo {
  int Ordinal = 0;
  std::string Name;
  int Major = 0, Minor = 0; ///< compute capability
  int SMs = 0;
  int SharedPerBlockOptin = 0; ///< bytes a block may ask for (cuFuncSetAttribute)
  int SharedPerSM = 0;
  int RegistersPerSM = 0;
  int MaxThreadsPerSM = 0;
  int L2Bytes = 0;
  uint64_t GlobalBytes = 0;
  int DriverVersion = 0; ///< 13000 for CUDA 13.0
  /// "NVIDIA H200 (sm_90, 132 SMs, 139.8 GiB), driver 13.0".
  std::string str() const;
};

/// One argument as the kernel's PTX parameter receives it.
struct KernelArg {
  enum class Kind { Pointer, I32, I64, F32, F64, TensorMap };
  Kind K = Kind::Pointer;
  uint64_t Bits = 0; ///< the value's bytes, little end first
  /// A TensorMap's 128 bytes (a CUtensorMap, passed by value).
  std::vector<uint64_t> Map;

  static KernelArg pointer(CUdeviceptr P) { return {Kind::Pointer, static_cast<uint64_t>(P), {}}; }
  static KernelArg i32(int32_t V) { return {Kind::I32, static_cast<uint32_t>(V), {}}; }
  static KernelArg i64(int64_t V) { return {Kind::I64, static_cast<uint64_t>(V), {}}; }
  static KernelArg f32(float V);
  static KernelArg f64(double V);
};

/// A tiled tensor map (cuTensorMapEncodeTiled) over a device tensor, as
/// Triton's fill_tma_descriptor_tiled makes one: every list outermost
/// dimension first, shape and strides in elements (the last stride is 1).
struct TensorMapSpec {
  unsigned ElemType = 0; ///< CUtensorMapDataType
  unsigned ElemBytes = 2;
  unsigned Swizzle = 0; ///< CUtensorMapSwizzle
  bool FillNan = false; ///< out-of-bounds elements read as NaN, else zero
  std::vector<uint64_t> Shape, Strides;
  std::vector<uint32_t> Box;
};

struct LaunchConfig {
  std::array<unsigned, 3> Grid = {1, 1, 1};
  unsigned NumWarps = 4;
  /// A CUDA C++ kernel's block (compiler/reference); {0, 0, 0}: Triton's, 32 x NumWarps threads in x.
  std::array<unsigned, 3> Block = {0, 0, 0};
  unsigned SharedBytes = 0;
  /// The kernel's own arguments; the two scratch pointers are added (the driver reads only the
  /// parameters a kernel has, so a kernel without them ignores them).
  std::vector<KernelArg> Args;
  /// The `global_scratch` pointer (codegen::KernelABI::GlobalScratchBytes per program); 0: NULL.
  CUdeviceptr GlobalScratch = 0;
  /// How long the kernel may run before it is reported hung.
  std::chrono::milliseconds Watchdog{10000};
};

/// Median, spread and count of timed runs, in milliseconds.
struct Timing {
  double Median = 0, Min = 0, Max = 0;
  size_t Runs = 0;
};

class GpuSession;

/// Device memory, freed with its session's context.
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  DeviceBuffer(DeviceBuffer &&O) noexcept : S(O.S), Ptr(O.Ptr), Size(O.Size) { O.Ptr = 0; }
  DeviceBuffer &operator=(DeviceBuffer &&O) noexcept;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer();
  CUdeviceptr ptr() const { return Ptr; }
  size_t size() const { return Size; }

private:
  friend class GpuSession;
  const GpuSession *S = nullptr;
  CUdeviceptr Ptr = 0;
  size_t Size = 0;
};

struct LoadedKernel {
  CUmodule Module = nullptr;
  CUfunction Function = nullptr;
  std::string Name;
  int Registers = 0;    ///< CU_FUNC_ATTRIBUTE_NUM_REGS
  int LocalBytes = 0;   ///< per thread (spills and stack)
  int StaticShared = 0; ///< bytes of static shared memory (0 in Triton's ABI)
  int MaxThreads = 0;   ///< per block, as the cubin allows
};

template <class T> using Result = std::variant<T, DriverError>;

class GpuSession {
public:
  /// Opens the primary context of GPU Ordinal; a DriverError (or a reason
  /// with no driver) when there is none.
  static Result<std::unique_ptr<GpuSession>> open(int Ordinal = 0);
  ~GpuSession();
  GpuSession(const GpuSession &) = delete;
  GpuSession &operator=(const GpuSession &) = delete;

  const DeviceInfo &device() const { return Info; }
  /// A sticky fault happened: nothing more can run in this process.
  bool broken() const { return Broken; }

  Result<DeviceBuffer> allocate(size_t Bytes);
  std::optional<DriverError> upload(const DeviceBuffer &B, const void *Host, size_t Bytes);
  std::optional<DriverError> download(const DeviceBuffer &B, void *Host, size_t Bytes);
  std::optional<DriverError> fill(const DeviceBuffer &B, uint8_t Byte);

  /// A module from a cubin image or PTX text (NUL-terminated), and its
  /// kernel named Entry. The driver's JIT log is in the error's Message.
  Result<LoadedKernel> load(const std::string &Image, const std::string &Entry);
  /// The tensor map S describes over the tensor at Base, as a kernel argument.
  Result<KernelArg> tensorMap(CUdeviceptr Base, const TensorMapSpec &S) const;
  void unload(LoadedKernel &K);

  /// One launch, waited for under the watchdog.
  std::optional<DriverError> launch(const LoadedKernel &K, const LaunchConfig &C);
  /// Warm-up launches, then Runs timed with events, the L2 cache flushed
  /// before each so every run reads from DRAM.
  Result<Timing> time(const LoadedKernel &K, const LaunchConfig &C, size_t Runs, size_t WarmUp = 3);

private:
  GpuSession() = default;
  std::optional<DriverError> enqueue(const LoadedKernel &K, const LaunchConfig &C);
  std::optional<DriverError> wait(CUevent Done, std::chrono::milliseconds Limit, const LoadedKernel &K,
                                  const LaunchConfig &C);
  std::optional<DriverError> failed(std::optional<DriverError> E);
  std::string describe(const LoadedKernel &K, const LaunchConfig &C) const;

  friend class DeviceBuffer;
  const CudaDriver *D = nullptr;
  CUdevice Device = 0;
  CUcontext Context = nullptr;
  DeviceInfo Info;
  DeviceBuffer FlushBuffer; ///< twice the L2, written between timed runs
  bool Broken = false;
};

} // namespace tessel::runtime

#endif // TESSEL_COMPILER_RUNTIME_GPUSESSION_H
