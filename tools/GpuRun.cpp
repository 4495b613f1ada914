//===- GpuRun.cpp - one lowered instance on the GPU, checked against the CPU ===//
/// \file
/// Integer arguments follow the PTX parameter the code generator declared
/// (`.u32` / `.u64`), pointers get the device address of their buffer, and
/// the 16-divisibility the kernel is compiled under is the launch's own:
/// every buffer starts 256-byte aligned, and an integer is divisible when
/// its value is (Triton's "D" specialization key).
//===----------------------------------------------------------------------===//
#include "tools/GpuRun.h"

#include "compiler/backend/Jit.h"
#include "compiler/backend/Occupancy.h"
#include "compiler/codegen/Codegen.h"
#include "compiler/ir/TypeUtils.h"
#if TESSEL_HAVE_GPU_RUNTIME
#include "compiler/runtime/DevicePeak.h"
#include "compiler/runtime/GpuSession.h"
#include "tools/AtomicOrder.h"
#endif

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <tuple>
#include <unistd.h>

namespace tessel::tools {

#if TESSEL_HAVE_GPU_RUNTIME
using runtime::DriverError;
using runtime::GpuSession;

struct GpuRunner::Impl {
  std::unique_ptr<GpuSession> Session;
  std::map<std::string, backend::CompiledKernel> Compiled;
  std::map<std::string, std::string> CompileErrors;
  std::map<std::string, runtime::LoadedKernel> Loaded;
  std::optional<PeakFigures> Peak;
  /// The floor of the float tolerance of the next execute: set for a kernel
  /// whose fp8 dots run on Hopper's wgmma (fp8Tolerance).
  double MinTolerance = 0;

  /// K loaded under Key (once); null with R.Error on failure.
  const runtime::LoadedKernel *load(const std::string &Key, const backend::CompiledKernel &K, GpuInstanceReport &R);
  /// Launches LK (compiled as K) with C's shape on Inputs and Args, compares the outputs Compare
  /// names (all when null) with Reference, keeps them in Keep, times Iters runs: R's figures.
  void execute(GpuRunner &Runner, const backend::CompiledKernel &K, const runtime::LoadedKernel &LK,
               runtime::LaunchConfig C, const interp::Memory &Inputs, const std::vector<interp::ArgValue> &Args,
               const std::vector<std::string> &ArgNames, const interp::Memory *Reference,
               const std::set<uint32_t> *Compare, GpuOutputBytes *Keep, size_t Iters, uint64_t DotFlops,
               GpuInstanceReport &R);
};

GpuRunner::GpuRunner() : I(std::make_unique<Impl>()) {
  auto S = GpuSession::open(0);
  if (auto *E = std::get_if<DriverError>(&S)) {
    Why = E->str();
    return;
  }
  I->Session = std::move(std::get<std::unique_ptr<GpuSession>>(S));
}

GpuRunner::~GpuRunner() = default;

std::string GpuRunner::device() const { return I->Session ? I->Session->device().str() : std::string(); }
#else
struct GpuRunner::Impl {};
GpuRunner::GpuRunner() : Why("tessel was built without its GPU runtime (cuda.h was not found at build time)") {}
GpuRunner::~GpuRunner() = default;
std::string GpuRunner::device() const { return {}; }
GpuInstanceReport GpuRunner::run(const std::string &, const ir::Function &, const launch::ConcreteLaunch &,
                                 const interp::Memory &, const std::vector<interp::ArgValue> &, const interp::Memory *,
                                 size_t, const SourceText *, uint64_t, GpuOutputBytes *) {
  GpuInstanceReport R;
  R.Error = Why;
  return R;
}
PeakFigures GpuRunner::peak() { return PeakFigures{0, 0, Why}; }
std::optional<backend::GpuArch> GpuRunner::arch() const { return std::nullopt; }
GpuInstanceReport GpuRunner::runCompiled(const std::string &, const backend::CompiledKernel &,
                                         const std::array<unsigned, 3> &, const std::array<unsigned, 3> &,
                                         const interp::Memory &, const std::vector<interp::ArgValue> &,
                                         const std::vector<std::string> &, const std::set<uint32_t> &,
                                         const interp::Memory *, size_t) {
  GpuInstanceReport R;
  R.Error = Why;
  return R;
}
#endif

double gpuTolerance(ScalarKind K) {
  switch (K) {
  case ScalarKind::FP64:
    return 1e-9;
  case ScalarKind::FP32:
    return 1e-4; // exp/log on the GPU use the fast approximations Triton uses
  case ScalarKind::FP16:
    return 2e-3;
  case ScalarKind::BF16:
    return 1.6e-2;
  case ScalarKind::FP8E4NV:
  case ScalarKind::FP8E4B8:
  case ScalarKind::FP8E4B15:
  case ScalarKind::FP8E5:
  case ScalarKind::FP8E5B16:
    return 0.125;
  default:
    return 0;
  }
}

#if TESSEL_HAVE_GPU_RUNTIME
/// The divisibility this launch has (see the file comment).
static std::set<std::string> launchDivisibility(const ir::Function &F, const std::vector<interp::ArgValue> &Args) {
  std::set<std::string> D;
  for (size_t I = 0; I < F.params().size() && I < Args.size(); ++I) {
    const ir::Value *P = F.params()[I];
    const interp::ArgValue &A = Args[I];
    if (A.K == interp::ArgValue::Kind::Pointer || (A.K == interp::ArgValue::Kind::Int && A.Int % 16 == 0))
      D.insert(P->name());
  }
  return D;
}

/// The kernel argument for one PTX parameter.
static std::optional<runtime::KernelArg> kernelArg(const std::string &PtxType, const interp::ArgValue &A,
                                                   const std::vector<runtime::DeviceBuffer> &Buffers) {
  using runtime::KernelArg;
  if (A.K == interp::ArgValue::Kind::Pointer) {
    if (A.BufferId == 0 || A.BufferId > Buffers.size())
      return std::nullopt;
    return KernelArg::pointer(Buffers[A.BufferId - 1].ptr());
  }
  if (PtxType.find(".f32") != std::string::npos)
    return KernelArg::f32(static_cast<float>(A.K == interp::ArgValue::Kind::Float ? A.Float : A.Int));
  if (PtxType.find(".f64") != std::string::npos)
    return KernelArg::f64(A.K == interp::ArgValue::Kind::Float ? A.Float : static_cast<double>(A.Int));
  if (A.K == interp::ArgValue::Kind::Float)
    return std::nullopt;
  if (PtxType.find("64") != std::string::npos)
    return KernelArg::i64(A.Int);
  return KernelArg::i32(static_cast<int32_t>(A.Int)); // .u32 .s32 .u16 .u8: the low bits
}

/// The tensor map of descriptor T, whose base is argument P of Args (its
/// shape, strides and padding follow it, launch::descriptorParams), over
/// the base's buffer; a line saying why not.
static std::variant<runtime::KernelArg, std::string> tensorMapArg(const GpuSession &S,
                                                                  const codegen::TmaDescriptorMeta &T,
                                                                  const std::vector<interp::ArgValue> &Args, size_t P,
                                                                  const std::vector<runtime::DeviceBuffer> &Buffers) {
  size_t Rank = T.Rank;
  if (P + 2 * Rank + 1 >= Args.size() || Args[P].K != interp::ArgValue::Kind::Pointer || Args[P].BufferId == 0 ||
      Args[P].BufferId > Buffers.size())
    return std::string("its base is not a tensor of this launch");
  runtime::TensorMapSpec M;
  M.ElemType = T.ElemType;
  M.ElemBytes = T.ElemBytes;
  M.Swizzle = T.Swizzle;
  M.Box = T.Box;
  for (size_t D = 0; D < Rank; ++D) {
    M.Shape.push_back(static_cast<uint64_t>(Args[P + 1 + D].Int));
    M.Strides.push_back(static_cast<uint64_t>(Args[P + 1 + Rank + D].Int));
  }
  M.FillNan = Args[P + 2 * Rank + 1].Int != 0;
  // A pointer argument starts at its buffer's first element (ArgValue).
  CUdeviceptr Base = Buffers[Args[P].BufferId - 1].ptr();
  auto A = S.tensorMap(Base, M);
  if (auto *E = std::get_if<DriverError>(&A))
    return E->str();
  return std::get<runtime::KernelArg>(A);
}

#endif // TESSEL_HAVE_GPU_RUNTIME

GpuComparison compareOutput(const interp::Buffer &Ref, const interp::Memory &RefMem, uint32_t Id,
                            const std::vector<uint8_t> &GpuBytes, double MinTolerance) {
  GpuComparison C;
  C.Name = Ref.Name;
  C.DType = std::string(shortName(Ref.Elem));
  interp::Memory Got;
  uint32_t G = Got.addBuffer(Ref.Name, Ref.Elem, Ref.numElements());
  Got.buffer(G).Bytes = GpuBytes;
  double Tol = gpuTolerance(Ref.Elem);
  bool IsFloat = Tol > 0;
  Tol = IsFloat ? std::max(Tol, MinTolerance) : Tol;
  int64_t EB = Ref.elementBytes();
  // The absolute part scales with the output's root mean square: a sum of
  // 1024 products of magnitude 30 that cancels to 0.001 carries the
  // reassociation error of its terms (the GPU adds them in another order),
  // not of its result. Outputs of magnitude 1 or less keep t.
  double SumSquares = 0;
  int64_t Finite = 0;
  if (IsFloat)
    for (int64_t E = 0; E < Ref.numElements(); ++E) {
      if (!Ref.Written.empty() && !Ref.Written[static_cast<size_t>(E * EB)])
        continue;
      double X = RefMem.readFloat(Id, E);
      if (std::isfinite(X)) {
        SumSquares += X * X;
        ++Finite;
      }
    }
  double AbsTol = Tol * std::max(1.0, Finite ? std::sqrt(SumSquares / static_cast<double>(Finite)) : 0.0);
  for (int64_t E = 0; E < Ref.numElements(); ++E) {
    if (!Ref.Written.empty() && !Ref.Written[static_cast<size_t>(E * EB)])
      continue; // the interpreter did not write it: no reference
    ++C.Compared;
    double X = IsFloat ? RefMem.readFloat(Id, E) : static_cast<double>(RefMem.readInt(Id, E));
    double Y = IsFloat ? Got.readFloat(G, E) : static_cast<double>(Got.readInt(G, E));
    bool Same = std::isnan(X) ? std::isnan(Y) : X == Y;
    double Abs = std::fabs(X - Y);
    double Rel = X != 0 ? Abs / std::fabs(X) : Abs;
    if (!Same && std::isfinite(Abs)) {
      C.MaxAbs = std::max(C.MaxAbs, Abs);
      C.MaxRel = std::max(C.MaxRel, Rel);
    }
    bool Ok = Same || (IsFloat && std::isfinite(Abs) && Abs <= AbsTol + Tol * std::fabs(X));
    if (Ok)
      continue;
    if (C.Mismatches++ == 0) {
      C.FirstMismatch = E;
      C.Expected = X;
      C.Got = Y;
    }
  }
  return C;
}

#if TESSEL_HAVE_GPU_RUNTIME
/// What identifies a device's ceilings: the board, its SM count and the
/// driver (a new driver can change clocks); tabs and newlines cannot occur.
static std::string deviceKey(const runtime::DeviceInfo &D) {
  std::string K = D.Name + "|sm_" + std::to_string(D.Major) + std::to_string(D.Minor) + "|" + std::to_string(D.SMs) +
                  " SMs|" + std::to_string(D.GlobalBytes >> 20) + " MiB|driver " + std::to_string(D.DriverVersion);
  for (char &C : K)
    if (C == '\t' || C == '\n' || C == '\r')
      C = ' ';
  return K;
}

PeakFigures GpuRunner::peak() {
  if (I->Peak)
    return *I->Peak;
  if (!I->Session || I->Session->broken())
    return PeakFigures{0, 0, "no usable GPU session"};
  std::string Key = deviceKey(I->Session->device());
  std::string Path = peakCachePath();
  std::string Old;
  const char *Again = std::getenv("TESSEL_REMEASURE_PEAK");
  if (!Path.empty()) {
    std::ifstream In(Path);
    std::stringstream SS;
    SS << In.rdbuf();
    Old = SS.str();
    if (!(Again && *Again == '1'))
      if (std::optional<PeakFigures> P = findPeak(Old, Key)) {
        P->Source = "cached in " + Path;
        return *(I->Peak = *P);
      }
  }
  auto M = runtime::measurePeak(*I->Session);
  if (auto *E = std::get_if<DriverError>(&M))
    return *(I->Peak = PeakFigures{0, 0, "the peak could not be measured: " + E->str()});
  const runtime::DevicePeak &D = std::get<runtime::DevicePeak>(M);
  PeakFigures P{D.CopyGBps, D.MmaTflops, "measured now (" + D.Method + ")", D.WgmmaF16Tflops, D.WgmmaFp8Tflops};
  if (!Path.empty()) {
    std::error_code EC;
    std::filesystem::create_directories(std::filesystem::path(Path).parent_path(), EC);
    std::string Tmp = Path + ".tmp" + std::to_string(::getpid());
    {
      std::ofstream Out(Tmp);
      Out << withPeak(Old, Key, P);
    }
    std::filesystem::rename(Tmp, Path, EC);
    if (EC)
      std::filesystem::remove(Tmp, EC);
    else
      P.Source += ", cached in " + Path;
  }
  return *(I->Peak = P);
}

/// Whether B holds a tl.dot taking 8-bit float operands (Some), and only
/// such dots (Only).
struct Fp8Dots {
  bool Some = false, Only = false;
};
static Fp8Dots fp8Dots(const ir::Block &B) {
  bool Any = false, All = true, One = false;
  std::function<void(const ir::Block &)> Walk = [&](const ir::Block &Blk) {
    for (const auto &O : Blk.ops()) {
      if (const auto *D = ir::dyn_cast<ir::DotOp>(O.get())) {
        bool Fp8 = bitWidth(D->a()->type().Elem.Scalar) == 8 && isFloat(D->a()->type().Elem.Scalar);
        Any = true;
        All = All && Fp8;
        One = One || Fp8;
      }
      for (const auto &R : O->regions())
        Walk(*R);
    }
  };
  Walk(B);
  return {One, Any && All};
}

GpuInstanceReport GpuRunner::run(const std::string &Key, const ir::Function &F, const launch::ConcreteLaunch &L,
                                 const interp::Memory &Inputs, const std::vector<interp::ArgValue> &Args,
                                 const interp::Memory *Reference, size_t Iters, const SourceText *Source,
                                 uint64_t DotFlops, GpuOutputBytes *Keep) {
  GpuInstanceReport R;
  if (!I->Session) {
    R.Error = Why;
    return R;
  }
  GpuSession &S = *I->Session;
  if (S.broken()) {
    R.Error = "not run: an earlier instance left the GPU unusable in this process";
    return R;
  }
  const runtime::DeviceInfo &Dev = S.device();
  // Compile once per specialization and divisibility.
  std::set<std::string> Divisible = launchDivisibility(F, Args);
  std::string CompileKey = Key;
  for (const std::string &D : Divisible)
    CompileKey += "|D:" + D;
  if (auto E = I->CompileErrors.find(CompileKey); E != I->CompileErrors.end()) {
    R.Error = E->second;
    return R;
  }
  auto Start = std::chrono::steady_clock::now();
  auto It = I->Compiled.find(CompileKey);
  if (It == I->Compiled.end()) {
    codegen::CodegenOptions CO;
    CO.Arch = Dev.Major * 10 + Dev.Minor;
    CO.ArchSpecific = CO.Arch == 90; // sm_90a on Hopper, as Triton's sm_arch_from_capability
    CO.NumWarps = static_cast<int>(L.NumWarps);
    CO.NumStages = static_cast<int>(L.NumStages);
    CO.DivisibleBy16 = Divisible;
    CO.PtxIsa = backend::ptxIsaOf(backend::toolkit());
    CO.Source = Source; // `.loc` lines: compute-sanitizer's reports name them
    llvm::LLVMContext Ctx;
    codegen::CodegenResult CG = codegen::emitLLVM(F, CO, Ctx);
    std::string Failure;
    if (!CG.Module) {
      Failure = "the code generator cannot compile this kernel yet";
      for (const Problem &P : CG.Problems)
        Failure += "; " + P.Message;
    } else {
      backend::JitOptions JO;
      JO.Arch = backend::GpuArch{static_cast<unsigned>(CO.Arch), CO.ArchSpecific};
      backend::LaunchShape Shape{CG.ABI.ThreadsPerBlock, CG.ABI.SharedBytes};
      llvm::Expected<backend::CompiledKernel> K = backend::compileModule(*CG.Module, Shape, JO);
      if (!K) {
        Failure = "compiling for " + JO.Arch.name() + " failed: " + llvm::toString(K.takeError());
      } else {
        backend::adoptABI(*K, CG.ABI);
        It = I->Compiled.emplace(CompileKey, std::move(*K)).first;
      }
    }
    if (!Failure.empty()) {
      I->CompileErrors[CompileKey] = Failure;
      R.Error = Failure;
      return R;
    }
  }
  const backend::CompiledKernel &K = It->second;
  const runtime::LoadedKernel *LK = I->load(CompileKey, K, R);
  if (!LK)
    return R;
  R.CompileMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
  runtime::LaunchConfig C;
  for (size_t D = 0; D < 3; ++D)
    C.Grid[D] = static_cast<unsigned>(L.Grid[D]);
  C.NumWarps = K.Launch.Threads / 32;
  std::vector<std::string> Names;
  for (const ir::Value *P : F.params())
    Names.push_back(P->name());
  // Hopper's wgmma adds fp8 products with fewer bits than fp32 (Triton
  // keeps them so on sm_90: max_num_imprecise_acc 2^30), where the
  // interpreter adds exactly.
  I->MinTolerance = I->Session->device().Major == 9 && fp8Dots(F.body()).Some ? Fp8WgmmaTolerance : 0;
  I->execute(*this, K, *LK, C, Inputs, Args, Names, Reference, nullptr, Keep, Iters, DotFlops, R);
  I->MinTolerance = 0;
  if (R.TimedRuns && DotFlops && fp8Dots(F.body()).Only)
    std::tie(R.PeakTflops, R.PeakTflopsInstruction) = tensorCeiling(peak(), true);
  std::map<std::string, SourceRange> Ordered = atomicOrderedOutputs(F);
  for (GpuComparison &O : R.Outputs)
    if (auto At = Ordered.find(O.Name); At != Ordered.end())
      O.FromAtomic = At->second;
  return R;
}

std::optional<backend::GpuArch> GpuRunner::arch() const {
  if (!I->Session)
    return std::nullopt;
  const runtime::DeviceInfo &Dev = I->Session->device();
  unsigned Cap = static_cast<unsigned>(Dev.Major * 10 + Dev.Minor);
  return backend::GpuArch{Cap, Cap == 90}; // sm_90a on Hopper, as run() compiles
}

GpuInstanceReport GpuRunner::runCompiled(const std::string &Key, const backend::CompiledKernel &K,
                                         const std::array<unsigned, 3> &Grid, const std::array<unsigned, 3> &Block,
                                         const interp::Memory &Inputs, const std::vector<interp::ArgValue> &Args,
                                         const std::vector<std::string> &ArgNames, const std::set<uint32_t> &Compare,
                                         const interp::Memory *Expected, size_t Iters) {
  GpuInstanceReport R;
  if (!I->Session) {
    R.Error = Why;
    return R;
  }
  if (I->Session->broken()) {
    R.Error = "not run: an earlier launch left the GPU unusable in this process";
    return R;
  }
  const runtime::LoadedKernel *LK = I->load(Key, K, R);
  if (!LK)
    return R;
  runtime::LaunchConfig C;
  C.Grid = Grid;
  C.Block = Block;
  I->execute(*this, K, *LK, C, Inputs, Args, ArgNames, Expected, &Compare, nullptr, Iters, 0, R);
  return R;
}

const runtime::LoadedKernel *GpuRunner::Impl::load(const std::string &Key, const backend::CompiledKernel &K,
                                                   GpuInstanceReport &R) {
  auto LoadedIt = Loaded.find(Key);
  if (LoadedIt == Loaded.end()) {
    auto L = Session->load(K.Cubin, K.Entry);
    if (auto *E = std::get_if<DriverError>(&L)) {
      R.Error = E->str();
      return nullptr;
    }
    LoadedIt = Loaded.emplace(Key, std::get<runtime::LoadedKernel>(L)).first;
  }
  return &LoadedIt->second;
}

void GpuRunner::Impl::execute(GpuRunner &Runner, const backend::CompiledKernel &K, const runtime::LoadedKernel &LK,
                              runtime::LaunchConfig C, const interp::Memory &Inputs,
                              const std::vector<interp::ArgValue> &Args, const std::vector<std::string> &ArgNames,
                              const interp::Memory *Reference, const std::set<uint32_t> *Compare, GpuOutputBytes *Keep,
                              size_t Iters, uint64_t DotFlops, GpuInstanceReport &R) {
  GpuSession &S = *Session;
  R.Assembler = K.Assembler;
  R.Registers = LK.Registers;
  R.LocalBytes = LK.LocalBytes;
  R.SharedBytes = K.sharedBytes();
  R.Threads = C.Block[0] ? C.Block[0] * C.Block[1] * C.Block[2] : K.Launch.Threads;
  // Triton refuses such a launch before the driver sees it, against this device's opt-in limit; the
  // driver's own answer (cuFuncSetAttribute: CUDA_ERROR_INVALID_VALUE) would name neither figure.
  if (int Limit = S.device().SharedPerBlockOptin; Limit > 0 && R.SharedBytes > uint64_t(Limit)) {
    R.Error = backend::sharedMemoryOutOfResource(R.SharedBytes, uint64_t(Limit));
    return;
  }

  // Buffers: inputs as prepared, outputs poisoned (all ones: NaN for floats)
  // so that an element the kernel failed to write cannot pass.
  std::vector<runtime::DeviceBuffer> Buffers;
  for (uint32_t Id = 1; Id <= Inputs.size(); ++Id) {
    const interp::Buffer &B = Inputs.buffer(Id);
    auto D = S.allocate(B.Bytes.size());
    if (auto *E = std::get_if<DriverError>(&D)) {
      R.Error = E->str();
      return;
    }
    Buffers.push_back(std::move(std::get<runtime::DeviceBuffer>(D)));
    auto E = B.IsOutput ? S.fill(Buffers.back(), 0xff) : S.upload(Buffers.back(), B.Bytes.data(), B.Bytes.size());
    if (E) {
      R.Error = E->str();
      return;
    }
    R.TensorBytes += B.Bytes.size();
  }
  C.SharedBytes = K.Launch.DynamicShared;
  // The tensor maps the kernel builds (tl.make_tensor_descriptor on sm_90): each program writes its own.
  std::optional<runtime::DeviceBuffer> Scratch;
  if (K.GlobalScratchBytes) {
    size_t Programs = size_t(C.Grid[0]) * C.Grid[1] * C.Grid[2];
    auto D = S.allocate(Programs * K.GlobalScratchBytes);
    if (auto *E = std::get_if<DriverError>(&D)) {
      R.Error = "the kernel's global scratch (" + std::to_string(K.GlobalScratchBytes) +
                " bytes per program) cannot be allocated: " + E->str();
      return;
    }
    Scratch = std::move(std::get<runtime::DeviceBuffer>(D));
    C.GlobalScratch = Scratch->ptr();
  }
  // The PTX parameters are the function's, then the two scratch pointers the session adds; a
  // descriptor taken as a tensor map is one parameter for the function's first few (KernelABI::Tma).
  for (size_t P = 0, Ptx = 0; P < Args.size(); ++P, ++Ptx) {
    std::string Type = Ptx < K.Params.size() ? K.Params[Ptx].Type : "";
    std::string Name = P < ArgNames.size() ? ArgNames[P] : std::string("?");
    auto Map =
        std::find_if(K.Tma.begin(), K.Tma.end(), [&](const codegen::TmaDescriptorMeta &T) { return T.Param == P; });
    if (Map != K.Tma.end()) {
      auto A = tensorMapArg(S, *Map, Args, P, Buffers);
      if (auto *E = std::get_if<std::string>(&A)) {
        R.Error = "the tensor map of descriptor `" + Name + "` cannot be made: " + *E;
        return;
      }
      C.Args.push_back(std::get<runtime::KernelArg>(A));
      P += codegen::tmaDroppedParams(Map->Rank);
      continue;
    }
    std::optional<runtime::KernelArg> A = kernelArg(Type, Args[P], Buffers);
    if (!A) {
      R.Error = "argument " + std::to_string(P) + " (" + Name + ") cannot be passed as `" + Type + "`";
      return;
    }
    C.Args.push_back(*A);
  }
  if (auto E = S.launch(LK, C)) {
    R.Error = E->str();
    return;
  }
  R.Ran = true;
  for (uint32_t Id = 1; Id <= Inputs.size(); ++Id) {
    if (!Reference && !Keep)
      break;
    if (!Inputs.buffer(Id).IsOutput || (Compare && !Compare->count(Id)))
      continue;
    std::vector<uint8_t> Bytes(Inputs.buffer(Id).Bytes.size());
    if (auto E = S.download(Buffers[Id - 1], Bytes.data(), Bytes.size())) {
      R.Error = E->str();
      R.Ran = false;
      return;
    }
    if (Reference)
      R.Outputs.push_back(compareOutput(Reference->buffer(Id), *Reference, Id, Bytes, MinTolerance));
    if (Keep)
      (*Keep)[Id] = std::move(Bytes);
  }
  if (Iters > 0) {
    auto T = S.time(LK, C, Iters);
    if (auto *E = std::get_if<DriverError>(&T)) {
      R.Error = "timing: " + E->str();
      return;
    }
    const runtime::Timing &Tm = std::get<runtime::Timing>(T);
    R.TimedRuns = Tm.Runs;
    R.MedianMs = Tm.Median;
    R.MinMs = Tm.Min;
    R.MaxMs = Tm.Max;
    R.GBps = Tm.Median > 0 ? static_cast<double>(R.TensorBytes) / (Tm.Median * 1e6) : 0;
    R.DotFlops = DotFlops;
    R.Tflops = Tm.Median > 0 ? static_cast<double>(DotFlops) / (Tm.Median * 1e9) : 0;
    PeakFigures P = Runner.peak();
    R.PeakGBps = P.CopyGBps;
    std::tie(R.PeakTflops, R.PeakTflopsInstruction) = tensorCeiling(P, false);
    R.PeakSource = P.Source;
  }
}

#endif // TESSEL_HAVE_GPU_RUNTIME

} // namespace tessel::tools
