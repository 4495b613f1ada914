//===- Jit.cpp - one kernel module to PTX, cubin and resources ------------===//
/// \file
/// The stages in order, each timed, and the byte format of a CompiledKernel
/// (a version word, then length-prefixed fields in a fixed order).
//===----------------------------------------------------------------------===//
#include "compiler/backend/Jit.h"

#include "compiler/backend/PtxEmit.h"
#include "compiler/backend/Toolkit.h"
#include "compiler/support/ByteCodec.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Module.h"

#include <chrono>

namespace tessel::backend {

static double msSince(std::chrono::steady_clock::time_point T0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - T0).count();
}

std::string_view dotUnits(const CompiledKernel &K) {
  if (!K.FmaDot)
    return {};
  llvm::StringRef Ptx(K.Ptx);
  if (Ptx.contains("wgmma.mma_async"))
    return "wgmma";
  if (Ptx.contains("mma.sync"))
    return "mma.sync";
  return "FMA units";
}

bool spillsAreTritons(const CompiledKernel &K) {
  return !K.FmaDot || (dotUnits(K) == "wgmma" && K.DotAccumulatorRegs > 255);
}

bool parsePtxSignature(llvm::StringRef Ptx, CompiledKernel &Out) {
  size_t E = Ptx.find(".entry ");
  if (E == llvm::StringRef::npos)
    return false;
  size_t Open = Ptx.find('(', E);
  size_t Close = Ptx.find(')', Open);
  if (Open == llvm::StringRef::npos || Close == llvm::StringRef::npos)
    return false;
  Out.Entry = Ptx.substr(E + 7, Open - E - 7).trim().str();
  Out.Params.clear();
  llvm::SmallVector<llvm::StringRef, 16> Parts;
  Ptx.substr(Open + 1, Close - Open - 1).split(Parts, ',', -1, false);
  for (llvm::StringRef P : Parts) {
    P = P.trim();
    if (!P.consume_front(".param"))
      continue;
    P = P.trim();
    size_t Space = P.rfind(' ');
    if (Space == llvm::StringRef::npos)
      continue;
    Out.Params.push_back({P.substr(0, Space).trim().str(), P.substr(Space + 1).trim().str()});
  }
  // Directives between `)` and the body's `{`.
  size_t Body = Ptx.find('{', Close);
  llvm::StringRef Dirs = Ptx.substr(Close + 1, Body == llvm::StringRef::npos ? 0 : Body - Close - 1);
  auto Directive = [&](llvm::StringRef Name) -> std::optional<unsigned> {
    size_t At = Dirs.find(Name);
    if (At == llvm::StringRef::npos)
      return std::nullopt;
    llvm::StringRef Rest = Dirs.substr(At + Name.size()).ltrim();
    unsigned N = 0;
    if (Rest.consumeInteger(10, N))
      return std::nullopt;
    return N;
  };
  Out.ReqNtid = Directive(".reqntid");
  Out.MaxNReg = Directive(".maxnreg");
  return true;
}

llvm::Expected<CompiledKernel> compileModule(llvm::Module &M, const LaunchShape &Launch, const JitOptions &Opts) {
  const Toolkit &Tools = Opts.Assembler.Tools ? *Opts.Assembler.Tools : toolkit();
  CompiledKernel K;
  K.Arch = Opts.Arch;
  K.Launch = Launch;
  PtxOptions PO;
  PO.Arch = Opts.Arch;
  PO.PtxIsa = ptxIsaOf(Tools);
  PO.FpFusion = Opts.FpFusion;
  PO.Libdevice = Tools.Libdevice;
  PO.Pipeline = Opts.Pipeline;
  if (Opts.KeepLlvm)
    PO.OptimizedIr = &K.Llvm;
  PtxTimes PT;
  auto Ptx = emitPtx(M, PO, &PT);
  if (!Ptx)
    return Ptx.takeError();
  K.Ptx = std::move(*Ptx);
  K.Times = {{"link", PT.LinkMs}, {"optimize", PT.OptimizeMs}, {"codegen", PT.CodegenMs}};
  if (!parsePtxSignature(K.Ptx, K))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "the PTX has no kernel entry");
  if (!Opts.Assemble)
    return K;
  AssembleOptions AO = Opts.Assembler;
  AO.Arch = Opts.Arch;
  AO.Tools = &Tools;
  auto T0 = std::chrono::steady_clock::now();
  auto A = assemble(K.Ptx, AO);
  if (!A)
    return A.takeError();
  K.Times.push_back({"assemble", msSince(T0)});
  K.Cubin = std::move(A->Cubin);
  K.AssemblerLog = std::move(A->Log);
  K.Assembler = std::string(assemblerName(A->Used)) + " " + Tools.version();
  if (std::optional<ResourceUsage> U = parseAssemblerLog(K.AssemblerLog, K.Entry); U && U->Registers) {
    K.Resources = *U;
  } else {
    auto FromElf = readCubinResources(K.Cubin, K.Entry);
    if (!FromElf)
      return FromElf.takeError();
    K.Resources = *FromElf;
  }
  unsigned Threads = K.ReqNtid ? *K.ReqNtid : Launch.Threads;
  K.Occ = occupancy(K.Arch, Threads, K.Resources.Registers, K.sharedBytes());
  return K;
}

void adoptABI(CompiledKernel &K, const codegen::KernelABI &ABI) {
  K.SharedBuffers = ABI.SharedBuffers;
  K.Tma = ABI.Tma;
  K.GlobalScratchBytes = ABI.GlobalScratchBytes;
}

static constexpr uint32_t SerialVersion = 6;
static constexpr uint32_t None = ~0u;

std::string serialize(const CompiledKernel &K) {
  ByteWriter W;
  W.u32(SerialVersion);
  W.str(K.Entry);
  W.u32(K.Arch.Capability);
  W.u32(K.Arch.ArchSpecific);
  W.str(K.Llvm);
  W.str(K.Ptx);
  W.u32(uint32_t(K.Params.size()));
  for (const PtxParam &P : K.Params) {
    W.str(P.Type);
    W.str(P.Name);
  }
  W.u32(K.ReqNtid.value_or(None));
  W.u32(K.MaxNReg.value_or(None));
  W.str(K.Cubin);
  W.str(K.AssemblerLog);
  W.str(K.Assembler);
  W.u32(K.Launch.Threads);
  W.u32(K.Launch.DynamicShared);
  const ResourceUsage &R = K.Resources;
  for (uint32_t V :
       {R.Registers, R.SpillStores, R.SpillLoads, R.StackFrame, R.StaticShared, R.Barriers, uint32_t(R.HasSpillCounts)})
    W.u32(V);
  W.u32(K.Occ.BlocksPerSm);
  W.u32(K.Occ.WarpsPerSm);
  W.u32(K.Occ.MaxWarpsPerSm);
  W.u32(uint32_t(K.Occ.Limit));
  W.u32(K.FmaDot);
  W.u32(K.DotAccumulatorRegs);
  W.u32(uint32_t(K.SharedBuffers.size()));
  for (const codegen::SharedBuffer &B : K.SharedBuffers) {
    for (uint32_t V : {uint32_t(B.Kind), B.Stages, B.Where.Begin, B.Where.End, B.Begin, B.End})
      W.u32(V);
    W.str(std::to_string(B.Bytes));
    W.str(std::to_string(B.Offset));
    W.str(B.What);
  }
  W.u32(uint32_t(K.Tma.size()));
  for (const codegen::TmaDescriptorMeta &T : K.Tma) {
    for (uint32_t V : {T.Param, T.Rank, T.ElemBytes, T.ElemType, T.Swizzle, uint32_t(T.Box.size())})
      W.u32(V);
    for (uint32_t B : T.Box)
      W.u32(B);
  }
  W.u32(K.GlobalScratchBytes);
  return std::move(W.Out);
}

llvm::Expected<CompiledKernel> deserialize(llvm::StringRef Bytes) {
  ByteReader R(std::string_view(Bytes.data(), Bytes.size()));
  CompiledKernel K;
  if (R.u32() != SerialVersion)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "not a compiled kernel of this tessel version");
  K.Entry = R.str();
  K.Arch.Capability = R.u32();
  K.Arch.ArchSpecific = R.u32() != 0;
  K.Llvm = R.str();
  K.Ptx = R.str();
  uint32_t N = R.u32();
  for (uint32_t I = 0; I < N && I < 4096; ++I) {
    PtxParam P;
    P.Type = R.str();
    P.Name = R.str();
    K.Params.push_back(std::move(P));
  }
  if (uint32_t V = R.u32(); V != None)
    K.ReqNtid = V;
  if (uint32_t V = R.u32(); V != None)
    K.MaxNReg = V;
  K.Cubin = R.str();
  K.AssemblerLog = R.str();
  K.Assembler = R.str();
  K.Launch.Threads = R.u32();
  K.Launch.DynamicShared = R.u32();
  ResourceUsage &U = K.Resources;
  U.Registers = R.u32();
  U.SpillStores = R.u32();
  U.SpillLoads = R.u32();
  U.StackFrame = R.u32();
  U.StaticShared = R.u32();
  U.Barriers = R.u32();
  U.HasSpillCounts = R.u32() != 0;
  K.Occ.BlocksPerSm = R.u32();
  K.Occ.WarpsPerSm = R.u32();
  K.Occ.MaxWarpsPerSm = R.u32();
  uint32_t Limit = R.u32();
  K.Occ.Limit = Limit <= uint32_t(OccupancyLimit::DoesNotFit) ? OccupancyLimit(Limit) : OccupancyLimit::DoesNotFit;
  K.FmaDot = R.u32() != 0;
  K.DotAccumulatorRegs = R.u32();
  uint32_t NB = R.u32();
  for (uint32_t I = 0; I < NB && I < 4096; ++I) {
    codegen::SharedBuffer B;
    uint32_t Kind = R.u32();
    B.Kind = Kind <= uint32_t(codegen::SharedBufferKind::TensorMap) ? codegen::SharedBufferKind(Kind)
                                                                    : codegen::SharedBufferKind::LayoutConversion;
    B.Stages = R.u32();
    B.Where.Begin = R.u32();
    B.Where.End = R.u32();
    B.Begin = R.u32();
    B.End = R.u32();
    B.Bytes = std::strtoull(std::string(R.str()).c_str(), nullptr, 10);
    B.Offset = std::strtoull(std::string(R.str()).c_str(), nullptr, 10);
    B.What = R.str();
    K.SharedBuffers.push_back(std::move(B));
  }
  uint32_t NT = R.u32();
  for (uint32_t I = 0; I < NT && I < 4096; ++I) {
    codegen::TmaDescriptorMeta T;
    T.Param = R.u32();
    T.Rank = R.u32();
    T.ElemBytes = R.u32();
    T.ElemType = R.u32();
    T.Swizzle = R.u32();
    uint32_t Dims = R.u32();
    for (uint32_t D = 0; D < Dims && D < 8; ++D)
      T.Box.push_back(R.u32());
    if (Dims > 8 || T.Box.size() != T.Rank)
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "truncated or corrupt compiled kernel");
    K.Tma.push_back(std::move(T));
  }
  K.GlobalScratchBytes = R.u32();
  if (!R.done() || N > 4096 || NB > 4096 || NT > 4096)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "truncated or corrupt compiled kernel");
  return K;
}

} // namespace tessel::backend
