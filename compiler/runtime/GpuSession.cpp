//===- GpuSession.cpp - one GPU, its memory, modules and launches ---------===//
/// \file
/// Launches are waited for by polling an event against a deadline rather
/// than with cuCtxSynchronize, which has no timeout: a kernel that never
/// ends becomes a "hung" report instead of a runner that never answers.
//===----------------------------------------------------------------------===//
#include "compiler/runtime/GpuSession.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <thread>

namespace tessel::runtime {

KernelArg KernelArg::f32(float V) {
  uint32_t B;
  std::memcpy(&B, &V, sizeof B);
  return {Kind::F32, B, {}};
}

KernelArg KernelArg::f64(double V) {
  uint64_t B;
  std::memcpy(&B, &V, sizeof B);
  return {Kind::F64, B, {}};
}

std::string DeviceInfo::str() const {
  char Mem[32];
  std::snprintf(Mem, sizeof Mem, "%.1f GiB", static_cast<double>(GlobalBytes) / (1024.0 * 1024 * 1024));
  return Name + " (sm_" + std::to_string(Major) + std::to_string(Minor) + ", " + std::to_string(SMs) + " SMs, " + Mem +
         "), driver " + std::to_string(DriverVersion / 1000) + "." + std::to_string(DriverVersion % 1000 / 10);
}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&O) noexcept {
  if (this != &O) {
    if (Ptr && S && !S->Broken)
      S->D->MemFree(Ptr);
    S = O.S;
    Ptr = O.Ptr;
    Size = O.Size;
    O.Ptr = 0;
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer() {
  if (Ptr && S && !S->Broken) // a broken context is torn down with the process
    S->D->MemFree(Ptr);
}

Result<std::unique_ptr<GpuSession>> GpuSession::open(int Ordinal) {
  std::string Why;
  const CudaDriver *D = CudaDriver::get(Why);
  if (!D) {
    DriverError E;
    E.Message = Why;
    return E;
  }
  std::unique_ptr<GpuSession> S(new GpuSession());
  S->D = D;
  auto Fail = [](DriverError E) -> Result<std::unique_ptr<GpuSession>> { return E; };
  if (auto E = D->check(D->DeviceGet(&S->Device, Ordinal), "cuDeviceGet"))
    return Fail(*E);
  if (auto E = D->check(D->PrimaryCtxRetain(&S->Context, S->Device), "cuDevicePrimaryCtxRetain"))
    return Fail(*E);
  if (auto E = D->check(D->CtxSetCurrent(S->Context), "cuCtxSetCurrent"))
    return Fail(*E);
  DeviceInfo &I = S->Info;
  I.Ordinal = Ordinal;
  char Name[256] = {};
  D->DeviceGetName(Name, sizeof Name - 1, S->Device);
  I.Name = Name;
  auto Attr = [&](CUdevice_attribute A) {
    int V = 0;
    D->DeviceGetAttribute(&V, A, S->Device);
    return V;
  };
  I.Major = Attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  I.Minor = Attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  I.SMs = Attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  I.SharedPerBlockOptin = Attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  I.SharedPerSM = Attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
  I.RegistersPerSM = Attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
  I.MaxThreadsPerSM = Attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
  I.L2Bytes = Attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  size_t Total = 0;
  D->DeviceTotalMem(&Total, S->Device);
  I.GlobalBytes = Total;
  D->DriverGetVersion(&I.DriverVersion);
  return S;
}

GpuSession::~GpuSession() {
  // After a fault or a hang the context is dead or busy: the process's exit
  // tears it down; releasing it here could wait on the hung kernel.
  if (Broken)
    return;
  FlushBuffer = DeviceBuffer();
  if (Context)
    D->PrimaryCtxRelease(Device);
}

std::optional<DriverError> GpuSession::failed(std::optional<DriverError> E) {
  if (E && E->isSticky())
    Broken = true;
  return E;
}

static DriverError brokenError() {
  DriverError E;
  E.Message = "an earlier fault left this GPU context unusable; the run must start in a new process";
  return E;
}

Result<DeviceBuffer> GpuSession::allocate(size_t Bytes) {
  if (Broken)
    return brokenError();
  DeviceBuffer B;
  B.S = this;
  B.Size = Bytes;
  if (auto E = failed(D->check(D->MemAlloc(&B.Ptr, std::max<size_t>(Bytes, 1)), "cuMemAlloc"))) {
    E->Context = std::to_string(Bytes) + " bytes";
    return *E;
  }
  return B;
}

std::optional<DriverError> GpuSession::upload(const DeviceBuffer &B, const void *Host, size_t Bytes) {
  if (Broken)
    return brokenError();
  return failed(D->check(D->MemcpyHtoD(B.Ptr, Host, std::min(Bytes, B.Size)), "cuMemcpyHtoD"));
}

std::optional<DriverError> GpuSession::download(const DeviceBuffer &B, void *Host, size_t Bytes) {
  if (Broken)
    return brokenError();
  return failed(D->check(D->MemcpyDtoH(Host, B.Ptr, std::min(Bytes, B.Size)), "cuMemcpyDtoH"));
}

std::optional<DriverError> GpuSession::fill(const DeviceBuffer &B, uint8_t Byte) {
  if (Broken)
    return brokenError();
  return failed(D->check(D->MemsetD8(B.Ptr, Byte, B.Size), "cuMemsetD8"));
}

Result<LoadedKernel> GpuSession::load(const std::string &Image, const std::string &Entry) {
  if (Broken)
    return brokenError();
  LoadedKernel K;
  K.Name = Entry;
  // The JIT's log says why PTX was rejected; a cubin has none.
  char Log[8192] = {};
  CUjit_option Opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *Values[] = {Log, reinterpret_cast<void *>(static_cast<uintptr_t>(sizeof Log - 1))};
  std::string Data = Image;
  Data.push_back('\0'); // PTX text must end with a NUL; a cubin ignores the extra byte
  if (auto E = failed(D->check(D->ModuleLoadDataEx(&K.Module, Data.data(), 2, Opts, Values), "cuModuleLoadData"))) {
    if (Log[0])
      E->Message += ": " + std::string(Log);
    return *E;
  }
  if (auto E = failed(D->check(D->ModuleGetFunction(&K.Function, K.Module, Entry.c_str()), "cuModuleGetFunction"))) {
    E->Context = "kernel " + Entry;
    D->ModuleUnload(K.Module);
    return *E;
  }
  D->FuncGetAttribute(&K.Registers, CU_FUNC_ATTRIBUTE_NUM_REGS, K.Function);
  D->FuncGetAttribute(&K.LocalBytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, K.Function);
  D->FuncGetAttribute(&K.StaticShared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, K.Function);
  D->FuncGetAttribute(&K.MaxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, K.Function);
  return K;
}

void GpuSession::unload(LoadedKernel &K) {
  if (K.Module && !Broken)
    D->ModuleUnload(K.Module);
  K.Module = nullptr;
  K.Function = nullptr;
}

std::string GpuSession::describe(const LoadedKernel &K, const LaunchConfig &C) const {
  std::string Threads = C.Block[0] ? "block (" + std::to_string(C.Block[0]) + ", " + std::to_string(C.Block[1]) + ", " +
                                         std::to_string(C.Block[2]) + ")"
                                   : std::to_string(32 * C.NumWarps) + " threads";
  return "kernel " + K.Name + ", grid (" + std::to_string(C.Grid[0]) + ", " + std::to_string(C.Grid[1]) + ", " +
         std::to_string(C.Grid[2]) + "), " + Threads + ", " + std::to_string(C.SharedBytes) + " bytes of shared memory";
}

std::optional<DriverError> GpuSession::enqueue(const LoadedKernel &K, const LaunchConfig &C) {
  if (Broken)
    return brokenError();
  if (C.SharedBytes > 48 * 1024) {
    if (auto E = failed(D->check(D->FuncSetAttribute(K.Function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                     static_cast<int>(C.SharedBytes)),
                                 "cuFuncSetAttribute"))) {
      E->Context = describe(K, C);
      return E;
    }
  }
  // Values live in Storage (tensor maps in Maps); the driver reads them through Params.
  std::vector<uint64_t> Storage(C.Args.size() + 2, 0);
  std::vector<CUtensorMap> Maps(C.Args.size());
  std::vector<void *> Params;
  for (size_t I = 0; I < C.Args.size(); ++I) {
    if (C.Args[I].K == KernelArg::Kind::TensorMap && C.Args[I].Map.size() * 8 == sizeof(CUtensorMap)) {
      std::memcpy(&Maps[I], C.Args[I].Map.data(), sizeof(CUtensorMap));
      Params.push_back(&Maps[I]);
      continue;
    }
    Storage[I] = C.Args[I].Bits;
    Params.push_back(&Storage[I]);
  }
  // Triton 3.6's global and profile scratch pointers: NULL when unused.
  Storage[C.Args.size()] = C.GlobalScratch;
  Params.push_back(&Storage[C.Args.size()]);
  Params.push_back(&Storage[C.Args.size() + 1]);
  std::array<unsigned, 3> Block = C.Block[0] ? C.Block : std::array<unsigned, 3>{32 * C.NumWarps, 1, 1};
  auto E = failed(D->check(D->LaunchKernel(K.Function, C.Grid[0], C.Grid[1], C.Grid[2], Block[0], Block[1], Block[2],
                                           C.SharedBytes, nullptr, Params.data(), nullptr),
                           "cuLaunchKernel"));
  if (E)
    E->Context = describe(K, C);
  return E;
}

Result<KernelArg> GpuSession::tensorMap(CUdeviceptr Base, const TensorMapSpec &S) const {
  size_t Rank = S.Shape.size();
  if (!D->TensorMapEncodeTiled) {
    DriverError E;
    E.Call = "cuTensorMapEncodeTiled";
    E.Message = "this GPU driver has no tensor maps (a CUDA 12 driver or later is needed)";
    return E;
  }
  if (Rank < 1 || Rank > 5 || S.Strides.size() != Rank || S.Box.size() != Rank) {
    DriverError E;
    E.Call = "cuTensorMapEncodeTiled";
    E.Message = "a tensor map of rank " + std::to_string(Rank) + " with " + std::to_string(S.Strides.size()) +
                " strides and a box of rank " + std::to_string(S.Box.size());
    return E;
  }
  // The driver's order is innermost first; its strides are in bytes and
  // leave out the innermost dimension's.
  std::array<cuuint64_t, 5> Dims{}, Strides{};
  std::array<cuuint32_t, 5> Box{}, ElementStrides{1, 1, 1, 1, 1};
  for (size_t I = 0; I < Rank; ++I) {
    Dims[I] = S.Shape[Rank - 1 - I];
    Box[I] = S.Box[Rank - 1 - I];
  }
  for (size_t I = 0; I + 1 < Rank; ++I)
    Strides[I] = S.Strides[Rank - 2 - I] * S.ElemBytes;
  CUtensorMap Map;
  // A map the driver refuses is the launch's error, not the session's: no failed().
  auto E = D->check(
      D->TensorMapEncodeTiled(
          &Map, static_cast<CUtensorMapDataType>(S.ElemType), static_cast<cuuint32_t>(Rank),
          reinterpret_cast<void *>(Base), Dims.data(), Strides.data(), Box.data(), ElementStrides.data(),
          CU_TENSOR_MAP_INTERLEAVE_NONE, static_cast<CUtensorMapSwizzle>(S.Swizzle), CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
          S.FillNan ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
      "cuTensorMapEncodeTiled");
  if (E)
    return *E;
  KernelArg A;
  A.K = KernelArg::Kind::TensorMap;
  A.Map.resize(sizeof(CUtensorMap) / 8);
  std::memcpy(A.Map.data(), &Map, sizeof(CUtensorMap));
  return A;
}

std::optional<DriverError> GpuSession::wait(CUevent Done, std::chrono::milliseconds Limit, const LoadedKernel &K,
                                            const LaunchConfig &C) {
  auto Deadline = std::chrono::steady_clock::now() + Limit;
  auto Pause = std::chrono::microseconds(20);
  while (true) {
    CUresult R = D->EventQuery(Done);
    if (R != CUDA_ERROR_NOT_READY) {
      auto E = failed(D->check(R, "cuEventQuery"));
      if (E) {
        E->Call = "kernel execution"; // the fault is the kernel's, seen at the event after it
        E->Context = describe(K, C);
      }
      return E;
    }
    if (std::chrono::steady_clock::now() > Deadline) {
      Broken = true;
      DriverError E;
      E.Call = "kernel execution";
      E.Code = CUDA_ERROR_LAUNCH_TIMEOUT;
      E.Name = "hung";
      E.Message = "still running after " + std::to_string(Limit.count()) + " ms (the watchdog's limit)";
      E.Context = describe(K, C);
      return E;
    }
    std::this_thread::sleep_for(Pause);
    Pause = std::min(Pause * 2, std::chrono::microseconds(2000));
  }
}

/// An event created for one wait and destroyed after it.
namespace {
struct Event {
  const CudaDriver *D;
  CUevent E = nullptr;
  explicit Event(const CudaDriver *D, unsigned Flags = CU_EVENT_DEFAULT) : D(D) { D->EventCreate(&E, Flags); }
  ~Event() {
    if (E)
      D->EventDestroy(E);
  }
};
} // namespace

std::optional<DriverError> GpuSession::launch(const LoadedKernel &K, const LaunchConfig &C) {
  if (auto E = enqueue(K, C))
    return E;
  Event Done(D, CU_EVENT_DISABLE_TIMING);
  if (auto E = failed(D->check(D->EventRecord(Done.E, nullptr), "cuEventRecord")))
    return E;
  return wait(Done.E, C.Watchdog, K, C);
}

Result<Timing> GpuSession::time(const LoadedKernel &K, const LaunchConfig &C, size_t Runs, size_t WarmUp) {
  for (size_t I = 0; I < WarmUp; ++I)
    if (auto E = launch(K, C))
      return *E;
  if (!FlushBuffer.ptr()) {
    Result<DeviceBuffer> B = allocate(static_cast<size_t>(std::max(Info.L2Bytes, 1 << 20)) * 2);
    if (auto *E = std::get_if<DriverError>(&B))
      return *E;
    FlushBuffer = std::move(std::get<DeviceBuffer>(B));
  }
  std::vector<double> Ms;
  Event Start(D), Stop(D);
  for (size_t I = 0; I < Runs; ++I) {
    if (auto E = fill(FlushBuffer, static_cast<uint8_t>(I)))
      return *E;
    if (auto E = failed(D->check(D->EventRecord(Start.E, nullptr), "cuEventRecord")))
      return *E;
    if (auto E = enqueue(K, C))
      return *E;
    if (auto E = failed(D->check(D->EventRecord(Stop.E, nullptr), "cuEventRecord")))
      return *E;
    if (auto E = wait(Stop.E, C.Watchdog, K, C))
      return *E;
    float T = 0;
    if (auto E = failed(D->check(D->EventElapsedTime(&T, Start.E, Stop.E), "cuEventElapsedTime")))
      return *E;
    Ms.push_back(T);
  }
  Timing Out;
  Out.Runs = Ms.size();
  if (Ms.empty())
    return Out;
  std::sort(Ms.begin(), Ms.end());
  Out.Min = Ms.front();
  Out.Max = Ms.back();
  Out.Median = Ms.size() % 2 ? Ms[Ms.size() / 2] : (Ms[Ms.size() / 2 - 1] + Ms[Ms.size() / 2]) / 2;
  return Out;
}

} // namespace tessel::runtime
