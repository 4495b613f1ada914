//===- PtxEmit.cpp - LLVM IR -> PTX with the NVPTX back end ---------------===//
/// \file
/// Target machine set-up as Triton's translate_to_asm does it (PIC, fp
/// fusion per option, NaNs assumed absent, traps on `unreachable`), but at
/// CodeGenOptLevel::Default where Triton asks for Aggressive: for NVPTX the
/// two differ only in the IR passes before instruction selection (GVN twice
/// where Default runs EarlyCSE), which the kernel pipeline has run already;
/// the PTX is byte-identical on 24 of the 25 sample kernels and configs
/// (fused softmax: same registers and SASS size) for 5-8 % less compile
/// time. Then libdevice linking, internalization, tessel's kernel
/// pipeline (KernelPipeline below, instead of O3) and the legacy code
/// generator pipeline that prints assembly.
//===----------------------------------------------------------------------===//
#include "compiler/backend/PtxEmit.h"

#include "compiler/backend/HoistConstantOffsets.h"
#include "compiler/backend/SinkUnpacks.h"

#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassTimingInfo.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Pass.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"

#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>

namespace tessel::backend {

static constexpr const char *Triple = "nvptx64-nvidia-cuda";

static double msSince(std::chrono::steady_clock::time_point T0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - T0).count();
}

static void initNvptx() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    // 32-bit shared / constant / local pointers, as Triton's backend sets
    // before any target machine exists (the data layout is computed from
    // it; codegen::NVPTXDataLayout spells the same layout).
    auto &Options = llvm::cl::getRegisteredOptions();
    if (auto It = Options.find("nvptx-short-ptr"); It != Options.end())
      static_cast<llvm::cl::opt<bool> *>(It->second)->setValue(true);
  });
}

static llvm::Expected<std::unique_ptr<llvm::TargetMachine>> makeTargetMachine(const PtxOptions &Opts) {
  initNvptx();
  std::string Err;
  const llvm::Target *T = llvm::TargetRegistry::lookupTarget(Triple, Err);
  if (!T)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "no NVPTX target in this LLVM: %s", Err.c_str());
  llvm::TargetOptions TO;
  TO.AllowFPOpFusion = Opts.FpFusion ? llvm::FPOpFusion::Fast : llvm::FPOpFusion::Strict;
  TO.UnsafeFPMath = false;
  TO.NoInfsFPMath = false;
  TO.NoNaNsFPMath = true;
  TO.TrapUnreachable = true;
  std::string Features = "+ptx" + std::to_string(std::min(Opts.PtxIsa, MaxLlvmPtxIsa));
  std::unique_ptr<llvm::TargetMachine> TM(T->createTargetMachine(
      Triple, Opts.Arch.name(), Features, TO, llvm::Reloc::PIC_, std::nullopt, llvm::CodeGenOptLevel::Default));
  if (!TM)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "cannot create the NVPTX target machine for %s",
                                   Opts.Arch.name().c_str());
  return TM;
}

/// The target machine for Opts, made once per thread and options: building
/// one (the subtarget and its lowering tables) is a measurable part of a
/// small kernel's compile. A TargetMachine is not safe to use from two
/// threads at once, hence one per thread; compiling through it leaves no
/// state that changes the next module's code (the same PTX, JitTest).
static llvm::Expected<llvm::TargetMachine *> targetMachine(const PtxOptions &Opts) {
  thread_local std::map<std::string, std::unique_ptr<llvm::TargetMachine>> Machines;
  std::string Key = Opts.Arch.name() + "/" + std::to_string(std::min(Opts.PtxIsa, MaxLlvmPtxIsa)) + "/" +
                    (Opts.FpFusion ? "fma" : "strict");
  auto &Slot = Machines[Key];
  if (!Slot) {
    auto TM = makeTargetMachine(Opts);
    if (!TM)
      return TM.takeError();
    Slot = std::move(*TM);
  }
  return Slot.get();
}

/// Is F a kernel entry: the ptx_kernel calling convention or a
/// `!nvvm.annotations` entry `{ptr @F, !"kernel", i32 1}`.
static std::set<const llvm::Function *> kernelsOf(const llvm::Module &M) {
  std::set<const llvm::Function *> Out;
  for (const llvm::Function &F : M)
    if (F.getCallingConv() == llvm::CallingConv::PTX_Kernel)
      Out.insert(&F);
  if (const llvm::NamedMDNode *A = M.getNamedMetadata("nvvm.annotations"))
    for (const llvm::MDNode *N : A->operands()) {
      if (N->getNumOperands() < 3)
        continue;
      auto *Fn = llvm::mdconst::dyn_extract_or_null<llvm::Function>(N->getOperand(0));
      auto *Key = llvm::dyn_cast_or_null<llvm::MDString>(N->getOperand(1).get());
      if (Fn && Key && Key->getString() == "kernel")
        Out.insert(Fn);
    }
  return Out;
}

/// libdevice's bytes, read once per process.
static llvm::Expected<llvm::MemoryBufferRef> libdeviceBuffer(const std::string &Path) {
  static std::mutex Mu;
  static std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> Loaded;
  std::lock_guard<std::mutex> Lock(Mu);
  auto &Slot = Loaded[Path];
  if (!Slot) {
    auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!Buf)
      return llvm::createStringError(Buf.getError(), "cannot read libdevice %s: %s", Path.c_str(),
                                     Buf.getError().message().c_str());
    Slot = std::move(*Buf);
  }
  return Slot->getMemBufferRef();
}

/// The middle end for one kernel module, in place of O3. The module comes
/// from codegen already in final shape: one kernel, straight-line per
/// register, loops only where the source has them, no allocas, vectors
/// chosen by AxisInfo; ptxas optimizes the PTX again. What it needs is what
/// O3 would find: libdevice's reflect calls folded and its functions inlined,
/// the thread-id ranges (so `tid & mask` folds), one round of
/// simplification (InstCombine, reassociation, CSE/GVN, DCE) and the loop
/// canonicalization that keeps loop-carried values few (rotation, LICM,
/// induction variables), and one pass of tessel's own between the two
/// InstCombines: HoistConstantOffsets, which LLVM 19 lacks and Triton's
/// newer LLVM does itself (its header says why). O3 runs InstCombine eight times, the CGSCC inliner
/// with function simplification per SCC, IPSCCP, lazy-value-info passes,
/// loop unswitching, unrolling and both vectorizers: about twice the time
/// for the same code here (bench/RESULTS.md, section "jitspeed": the same
/// SASS size on every sample but one attention config, +8 of 1208
/// instructions; registers the same or fewer but two attention configs,
/// +1 and +3).
/// ADCE runs first as well: codegen emits every register of a pointer tile
/// that a loop advances (a matmul's a_ptrs and b_ptrs: 192 loop-carried
/// pointers per thread at 128x256x128), where the copies read only the
/// vectors' first elements; the dead ones are cycles through the loop's
/// phis, which only ADCE removes, and each InstCombine, CSE and GVN paid
/// for them (InstCombine 9 -> 5 ms there, the same PTX on every compile of
/// the tutorials; bench/RESULTS.md).
/// Last, SinkUnpacks moves the unpacking of packed loads next to its use,
/// as the NVPTX back end schedules in source order (its header says why).
/// Spelled as text because NVVMReflect and NVVMIntrRange are reachable only
/// through the target's pass-name callbacks. `instcombine`'s textual default
/// aborts the process when one iteration does not reach a fixpoint;
/// `no-verify-fixpoint` is what the default pipelines use.
static constexpr const char *KernelPipeline =
    "function(nvvm-reflect,nvvm-intr-range),"
    "cgscc(inline),globaldce,"
    "function(sroa,adce,early-cse<memssa>,instcombine<no-verify-fixpoint>,simplifycfg,tessel-hoist-constant-offsets,"
    "reassociate,"
    "loop-mssa(loop-rotate,licm),loop(indvars),gvn,instcombine<no-verify-fixpoint>,adce,simplifycfg,"
    "tessel-sink-unpacks)";

llvm::Expected<LlvmPipeline> llvmPipelineFromEnv() {
  static const std::string Value = [] {
    const char *V = std::getenv("TESSEL_LLVM_PIPELINE");
    return std::string(V ? V : "");
  }();
  if (Value.empty() || Value == "kernel")
    return LlvmPipeline::Kernel;
  if (Value == "o3")
    return LlvmPipeline::O3;
  if (Value == "none")
    return LlvmPipeline::None;
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "TESSEL_LLVM_PIPELINE=%s: expected kernel, o3 or none",
                                 Value.c_str());
}

const char *llvmPipelineName(LlvmPipeline P) {
  switch (P) {
  case LlvmPipeline::Kernel:
    return "kernel";
  case LlvmPipeline::O3:
    return "o3";
  case LlvmPipeline::None:
    return "none";
  }
  return "kernel";
}

static bool callsLibdevice(const llvm::Module &M) {
  for (const llvm::Function &F : M)
    if (F.isDeclaration() && F.getName().starts_with("__nv_"))
      return true;
  return false;
}

llvm::Error prepareModule(llvm::Module &M, const PtxOptions &Opts) {
  auto TM = targetMachine(Opts);
  if (!TM)
    return TM.takeError();
  M.setTargetTriple(Triple);
  M.setDataLayout((*TM)->createDataLayout());
  return llvm::Error::success();
}

static llvm::Error linkAndOptimize(llvm::Module &M, llvm::TargetMachine &TM, const PtxOptions &Opts, PtxTimes *Times) {
  auto T0 = std::chrono::steady_clock::now();
  M.setTargetTriple(Triple);
  M.setDataLayout(TM.createDataLayout());
  if (callsLibdevice(M)) {
    if (Opts.Libdevice.empty())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "the kernel calls libdevice math functions, but libdevice.10.bc was not found "
                                     "(set CUDA_HOME to the CUDA toolkit)");
    auto Buf = libdeviceBuffer(Opts.Libdevice);
    if (!Buf)
      return Buf.takeError();
    auto Lib = llvm::getLazyBitcodeModule(*Buf, M.getContext());
    if (!Lib)
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "cannot read libdevice %s: %s",
                                     Opts.Libdevice.c_str(), llvm::toString(Lib.takeError()).c_str());
    (*Lib)->setTargetTriple(M.getTargetTriple());
    (*Lib)->setDataLayout(M.getDataLayout());
    if (llvm::Linker::linkModules(M, std::move(*Lib), llvm::Linker::Flags::LinkOnlyNeeded))
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "cannot link libdevice into the kernel");
  }
  // Everything but the kernels becomes internal: the inliner and global DCE
  // then keep only what a kernel reaches (libdevice is ~500 functions).
  std::set<const llvm::Function *> Kernels = kernelsOf(M);
  if (Kernels.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "the module has no kernel entry");
  for (llvm::Function &F : M)
    if (!F.isDeclaration() && !Kernels.count(&F))
      F.setLinkage(llvm::GlobalValue::InternalLinkage);
  for (llvm::GlobalVariable &G : M.globals())
    if (!G.isDeclaration() && !G.hasLocalLinkage())
      G.setLinkage(llvm::GlobalValue::InternalLinkage);
  // A module from Clang's CUDA front end (compiler/reference) states its own
  // flush-to-zero choice (-fgpu-flush-denormals-to-zero, off by default as in
  // nvcc); a second flag of the same name would make the module invalid.
  if (!M.getModuleFlag("nvvm-reflect-ftz"))
    M.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", 1);
  std::string Broken;
  llvm::raw_string_ostream BrokenOS(Broken);
  if (llvm::verifyModule(M, &BrokenOS))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "invalid LLVM IR (a tessel bug): %s",
                                   Broken.c_str());
  if (Times)
    Times->LinkMs = msSince(T0);
  LlvmPipeline Pipeline = LlvmPipeline::Kernel;
  if (Opts.Pipeline) {
    Pipeline = *Opts.Pipeline;
  } else {
    auto P = llvmPipelineFromEnv();
    if (!P)
      return P.takeError();
    Pipeline = *P;
  }
  if (!Opts.Optimize || Pipeline == LlvmPipeline::None)
    return llvm::Error::success();
  auto T1 = std::chrono::steady_clock::now();
  llvm::LoopAnalysisManager LAM;
  llvm::FunctionAnalysisManager FAM;
  llvm::CGSCCAnalysisManager CGAM;
  llvm::ModuleAnalysisManager MAM;
  // `-time-passes` (llvm::TimePassesIsEnabled, bench_jit --time-passes)
  // needs the standard instrumentations; without it they cost a little on
  // every pass and are left out.
  llvm::PassInstrumentationCallbacks PIC;
  std::optional<llvm::StandardInstrumentations> SI;
  if (llvm::TimePassesIsEnabled) {
    SI.emplace(M.getContext(), /*DebugLogging=*/false);
    SI->registerCallbacks(PIC, &MAM);
  }
  llvm::PassBuilder PB(&TM, llvm::PipelineTuningOptions(), std::nullopt, SI ? &PIC : nullptr);
  PB.registerPipelineParsingCallback(
      [](llvm::StringRef Name, llvm::FunctionPassManager &FPM, llvm::ArrayRef<llvm::PassBuilder::PipelineElement>) {
        if (Name == "tessel-hoist-constant-offsets") {
          FPM.addPass(HoistConstantOffsetsPass());
          return true;
        }
        if (Name == "tessel-sink-unpacks") {
          FPM.addPass(SinkUnpacksPass());
          return true;
        }
        return false;
      });
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  llvm::ModulePassManager MPM;
  if (Pipeline == LlvmPipeline::O3)
    MPM = PB.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  else if (llvm::Error E = PB.parsePassPipeline(MPM, KernelPipeline))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "tessel's pass pipeline is not LLVM 19's: %s",
                                   llvm::toString(std::move(E)).c_str());
  MPM.run(M, MAM);
  if (Times)
    Times->OptimizeMs = msSince(T1);
  return llvm::Error::success();
}

llvm::Error optimizeModule(llvm::Module &M, const PtxOptions &Opts, PtxTimes *Times) {
  auto TM = targetMachine(Opts);
  if (!TM)
    return TM.takeError();
  return linkAndOptimize(M, **TM, Opts, Times);
}

llvm::Expected<std::string> emitPtx(llvm::Module &M, const PtxOptions &Opts, PtxTimes *Times) {
  auto TM = targetMachine(Opts);
  if (!TM)
    return TM.takeError();
  if (llvm::Error E = linkAndOptimize(M, **TM, Opts, Times))
    return E;
  if (Opts.OptimizedIr) {
    llvm::raw_string_ostream OS(*Opts.OptimizedIr);
    M.print(OS, nullptr);
  }
  auto T0 = std::chrono::steady_clock::now();
  llvm::SmallString<0> Buf;
  {
    llvm::raw_svector_ostream OS(Buf);
    llvm::legacy::PassManager PM;
    if ((*TM)->addPassesToEmitFile(PM, OS, nullptr, llvm::CodeGenFileType::AssemblyFile))
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "the NVPTX target cannot print assembly");
    PM.run(M);
  }
  if (Times)
    Times->CodegenMs = msSince(T0);
  return fixupPtx(std::string(Buf.str()), Opts.PtxIsa, M);
}

/// Replaces the line starting at Pos (up to its newline) with Line.
static size_t replaceLine(std::string &S, size_t Pos, const std::string &Line) {
  size_t End = S.find('\n', Pos);
  if (End == std::string::npos)
    End = S.size();
  S.replace(Pos, End - Pos, Line);
  return Pos + Line.size();
}

std::string fixupPtx(std::string Ptx, unsigned PtxIsa, const llvm::Module &M) {
  if (size_t V = Ptx.find("\n.version "); V != std::string::npos)
    replaceLine(Ptx, V + 1, ".version " + std::to_string(PtxIsa / 10) + "." + std::to_string(PtxIsa % 10));
  // `.target sm_90a, debug` keeps ptxas from optimizing; Triton drops it.
  if (size_t T = Ptx.find("\n.target "); T != std::string::npos) {
    size_t End = Ptx.find('\n', T + 1);
    std::string Line = Ptx.substr(T + 1, End - T - 1);
    if (size_t D = Line.find(", debug"); D != std::string::npos) {
      Line.erase(D, 7);
      replaceLine(Ptx, T + 1, Line);
    }
  }
  for (const llvm::Function *F : kernelsOf(M)) {
    std::string Entry = ".entry " + F->getName().str() + "(";
    size_t Pos = Ptx.find(Entry);
    if (Pos == std::string::npos)
      continue;
    size_t Close = Ptx.find(')', Pos);
    for (unsigned I = 0; I < F->arg_size(); ++I) {
      auto *PT = llvm::dyn_cast<llvm::PointerType>(F->getArg(I)->getType());
      if (!PT || PT->getAddressSpace() != 1)
        continue;
      std::string Param = ".param .u64 " + F->getName().str() + "_param_" + std::to_string(I);
      size_t P = Ptx.find(Param, Pos);
      if (P == std::string::npos || P > Close)
        continue;
      // `_param_1` must not match inside `_param_10`.
      char After = P + Param.size() < Ptx.size() ? Ptx[P + Param.size()] : '\n';
      if (std::isdigit(static_cast<unsigned char>(After)))
        continue;
      std::string Align = std::to_string(F->getParamAlign(I).valueOrOne().value());
      std::string Insert = ".ptr .global .align " + Align + " ";
      Ptx.insert(P + std::string(".param .u64 ").size(), Insert);
      Close += Insert.size();
    }
  }
  return Ptx;
}

} // namespace tessel::backend
