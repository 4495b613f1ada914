//===- GpuCheck.cpp - sample cubins on the GPU against the interpreter ----===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// For every kernel of samples/*.py and every autotune config: plan its
/// launch (as `tessel run` does), lower it, prepare the seeded inputs
/// (interp::prepareLaunch), run the interpreter for the reference, compile
/// the same Function through codegen and the backend to a cubin, run it on
/// the GPU with libcuda (dlopen'ed; Triton's launch: blockDim 32 x
/// num_warps, dynamic shared memory, two null scratch pointers) and compare
/// every output buffer element by element (floats within a relative 1e-2
/// for 16-bit types and 1e-4 otherwise, as the GPU's approximate exp/div
/// differ in the last bits). Prints one PASS/FAIL line per kernel and
/// config; exits 1 if any fails, 2 when there is no GPU.
//===----------------------------------------------------------------------===//
#include "compiler/backend/Jit.h"
#include "compiler/codegen/Codegen.h"
#include "compiler/frontend/Discovery.h"
#include "compiler/interp/Launch.h"
#include "compiler/sema/LaunchPlan.h"
#include "compiler/sema/Lowering.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <cmath>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

using namespace tessel;

namespace {

// The few driver API entry points, declared by hand so the build needs no
// CUDA headers.
using CUresult = int;
using CUdeviceptr = unsigned long long;
struct Driver {
  CUresult (*Init)(unsigned);
  CUresult (*DeviceGet)(int *, int);
  CUresult (*CtxCreate)(void **, unsigned, int);
  CUresult (*ModuleLoadData)(void **, const void *);
  CUresult (*ModuleGetFunction)(void **, void *, const char *);
  CUresult (*ModuleUnload)(void *);
  CUresult (*FuncSetAttribute)(void *, int, int);
  CUresult (*MemAlloc)(CUdeviceptr *, size_t);
  CUresult (*MemFree)(CUdeviceptr);
  CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*MemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*LaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void *,
                           void **, void **);
  CUresult (*CtxSynchronize)();
  void *Ctx = nullptr;

  bool load() {
    void *H = dlopen("libcuda.so.1", RTLD_NOW);
    if (!H)
      return false;
    auto Sym = [&](auto &Fn, const char *Name) {
      Fn = reinterpret_cast<std::remove_reference_t<decltype(Fn)>>(dlsym(H, Name));
      return Fn != nullptr;
    };
    bool Ok = Sym(Init, "cuInit") && Sym(DeviceGet, "cuDeviceGet") && Sym(CtxCreate, "cuCtxCreate_v2") &&
              Sym(ModuleLoadData, "cuModuleLoadData") && Sym(ModuleGetFunction, "cuModuleGetFunction") &&
              Sym(ModuleUnload, "cuModuleUnload") && Sym(FuncSetAttribute, "cuFuncSetAttribute") &&
              Sym(MemAlloc, "cuMemAlloc_v2") && Sym(MemFree, "cuMemFree_v2") && Sym(MemcpyHtoD, "cuMemcpyHtoD_v2") &&
              Sym(MemcpyDtoH, "cuMemcpyDtoH_v2") && Sym(LaunchKernel, "cuLaunchKernel") &&
              Sym(CtxSynchronize, "cuCtxSynchronize");
    int Dev = 0;
    return Ok && Init(0) == 0 && DeviceGet(&Dev, 0) == 0 && CtxCreate(&Ctx, 0, Dev) == 0;
  }
};

std::string readFile(const std::filesystem::path &P) {
  std::ifstream In(P);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

/// Compares buffer Got with Want; empty when they agree.
std::string compare(const interp::Memory &Ref, uint32_t Id, const std::vector<uint8_t> &Got) {
  const interp::Buffer &B = Ref.buffer(Id);
  interp::Memory M = Ref;
  M.buffer(Id).Bytes = Got;
  bool Narrow = B.Elem == ScalarKind::FP16 || B.Elem == ScalarKind::BF16 || isFP8(B.Elem);
  double Tol = Narrow ? 1e-2 : 1e-4;
  int64_t Bad = 0, First = -1;
  for (int64_t I = 0; I < B.numElements(); ++I) {
    bool Same;
    if (isFloat(B.Elem)) {
      double W = Ref.readFloat(Id, I), G = M.readFloat(Id, I);
      Same = (std::isnan(W) && std::isnan(G)) || std::fabs(W - G) <= Tol * std::max(1.0, std::fabs(W));
    } else {
      Same = Ref.readInt(Id, I) == M.readInt(Id, I);
    }
    if (!Same && Bad++ == 0)
      First = I;
  }
  if (!Bad)
    return "";
  std::ostringstream OS;
  OS << B.Name << ": " << Bad << " of " << B.numElements() << " elements differ, first at " << First << " (want "
     << (isFloat(B.Elem) ? Ref.readFloat(Id, First) : static_cast<double>(Ref.readInt(Id, First))) << ", got "
     << (isFloat(B.Elem) ? M.readFloat(Id, First) : static_cast<double>(M.readInt(Id, First))) << ")";
  return OS.str();
}

/// Runs one planned launch on the GPU; empty on agreement, else why not.
std::string checkLaunch(Driver &D, const ir::Function &F, const sema::PlannedLaunch &PL, unsigned Arch,
                        std::optional<int> MaxNReg) {
  interp::PreparedLaunch P = interp::prepareLaunch(F, PL.Launch, 0);
  if (!P.Errors.empty())
    return "prepare: " + P.Errors.front();
  interp::Memory Input = P.Mem, Ref = P.Mem;
  interp::run(F, Ref, P.Args, P.Opts);

  llvm::LLVMContext Ctx;
  codegen::CodegenOptions Opts;
  Opts.Arch = static_cast<int>(Arch);
  Opts.NumWarps = static_cast<int>(PL.Request.NumWarps);
  Opts.MaxNReg = MaxNReg;
  Opts.DivisibleBy16 = codegen::defaultDivisibility(F);
  for (size_t I = 0; I < F.params().size(); ++I)
    if (P.Args[I].K == interp::ArgValue::Kind::Int && P.Args[I].Int % 16 == 0)
      Opts.DivisibleBy16.insert(F.params()[I]->name());
  codegen::CodegenResult R = codegen::emitLLVM(F, Opts, Ctx);
  if (!R.Module)
    return "codegen: " + R.Problems.front().Message;
  backend::JitOptions JO;
  JO.Arch = backend::GpuArch{Arch, Arch >= 90};
  JO.Assembler.Arch = JO.Arch;
  auto K = backend::compileModule(*R.Module, {R.ABI.ThreadsPerBlock, R.ABI.SharedBytes}, JO);
  if (!K)
    return "backend: " + llvm::toString(K.takeError());

  void *Mod = nullptr, *Fn = nullptr;
  if (D.ModuleLoadData(&Mod, K->Cubin.data()) || D.ModuleGetFunction(&Fn, Mod, R.ABI.EntryName.c_str()))
    return "cuModuleLoadData / cuModuleGetFunction failed";
  if (R.ABI.SharedBytes > 49152)
    D.FuncSetAttribute(Fn, 8 /*MAX_DYNAMIC_SHARED_SIZE_BYTES*/, static_cast<int>(R.ABI.SharedBytes));
  std::vector<CUdeviceptr> Dev(Input.size() + 1, 0);
  for (uint32_t Id = 1; Id <= Input.size(); ++Id) {
    const auto &Bytes = Input.buffer(Id).Bytes;
    D.MemAlloc(&Dev[Id], std::max<size_t>(16, Bytes.size()));
    D.MemcpyHtoD(Dev[Id], Bytes.data(), Bytes.size());
  }
  // Argument storage by the PTX parameter type.
  std::vector<std::array<uint8_t, 8>> Store(F.params().size() + 2);
  std::vector<void *> Params;
  for (size_t I = 0; I < Store.size(); ++I) {
    Store[I].fill(0);
    if (I < F.params().size()) {
      const interp::ArgValue &A = P.Args[I];
      const std::string &T = R.ABI.ParamTypes[I];
      if (A.K == interp::ArgValue::Kind::Pointer) {
        CUdeviceptr Ptr = Dev[A.BufferId];
        std::memcpy(Store[I].data(), &Ptr, 8);
      } else if (T == ".f32") {
        float V = static_cast<float>(A.K == interp::ArgValue::Kind::Float ? A.Float : static_cast<double>(A.Int));
        std::memcpy(Store[I].data(), &V, 4);
      } else if (T == ".f64") {
        double V = A.K == interp::ArgValue::Kind::Float ? A.Float : static_cast<double>(A.Int);
        std::memcpy(Store[I].data(), &V, 8);
      } else {
        int64_t V = A.Int;
        std::memcpy(Store[I].data(), &V, 8); // little endian: the low bytes serve .u8/.u32
      }
    }
    Params.push_back(Store[I].data());
  }
  const auto &G = P.Opts.Grid;
  std::string Err;
  if (D.LaunchKernel(Fn, static_cast<unsigned>(G[0]), static_cast<unsigned>(G[1]), static_cast<unsigned>(G[2]),
                     R.ABI.ThreadsPerBlock, 1, 1, R.ABI.SharedBytes, nullptr, Params.data(), nullptr) ||
      D.CtxSynchronize())
    Err = "launch failed";
  for (uint32_t Id = 1; Id <= Input.size() && Err.empty(); ++Id) {
    if (!Ref.buffer(Id).IsOutput)
      continue;
    std::vector<uint8_t> Got(Ref.buffer(Id).Bytes.size());
    D.MemcpyDtoH(Got.data(), Dev[Id], Got.size());
    Err = compare(Ref, Id, Got);
  }
  for (uint32_t Id = 1; Id <= Input.size(); ++Id)
    D.MemFree(Dev[Id]);
  D.ModuleUnload(Mod);
  return Err;
}

} // namespace

int main(int Argc, char **Argv) {
  unsigned Arch = backend::localGpuCapability().value_or(90);
  std::vector<std::string> Only;
  for (int I = 1; I < Argc; ++I) {
    if (std::string(Argv[I]) == "--arch" && I + 1 < Argc)
      Arch = static_cast<unsigned>(std::stoi(Argv[++I]));
    else
      Only.push_back(Argv[I]);
  }
  Driver D;
  if (!D.load()) {
    std::cerr << "gpu_codegen_check: no GPU (libcuda.so.1 or a device is missing)\n";
    return 2;
  }
  int Failed = 0;
  for (const auto &E : std::filesystem::directory_iterator(std::string(TESSEL_SOURCE_DIR) + "/samples")) {
    if (E.path().extension() != ".py")
      continue;
    if (!Only.empty() && std::find(Only.begin(), Only.end(), E.path().filename().string()) == Only.end())
      continue;
    auto File = ParsedFile::parse(std::make_shared<SourceText>(readFile(E.path()), E.path().string()));
    ProblemSink Sink;
    ModuleInfo Info = discover(File->module(), Sink);
    for (const std::string &Name : Info.Order) {
      const JitFunction &Fn = Info.Jit.at(Name);
      if (!Fn.IsKernel)
        continue;
      for (size_t C = 0; C < std::max<size_t>(1, Fn.Configs.size()); ++C) {
        sema::LaunchPlanOptions PO;
        if (!Fn.Configs.empty())
          PO.Config = C;
        sema::LaunchPlan Plan = sema::planLaunch(*File, Info, Name, PO);
        std::string Label = E.path().filename().string() + " " + Name + " config " + std::to_string(C);
        if (Plan.Launches.empty()) {
          std::cout << "SKIP " << Label << ": no launch\n";
          continue;
        }
        const sema::PlannedLaunch &PL = Plan.Launches.front();
        sema::LoweredKernel L = sema::lowerKernel(*File, Info, PL.Request);
        std::optional<int> MaxNReg;
        if (C < Fn.Configs.size() && Fn.Configs[C].Config.MaxNReg)
          MaxNReg = static_cast<int>(*Fn.Configs[C].Config.MaxNReg);
        std::string Err = L.Function ? checkLaunch(D, *L.Function, PL, Arch, MaxNReg) : "does not lower";
        std::cout << (Err.empty() ? "PASS " : "FAIL ") << Label << (Err.empty() ? "" : ": " + Err) << "\n";
        Failed += !Err.empty();
      }
    }
  }
  return Failed ? 1 : 0;
}
