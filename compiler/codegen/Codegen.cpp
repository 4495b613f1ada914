//===- Codegen.cpp - tile IR to LLVM IR for NVPTX -------------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// emitLLVM: builds the kernel with Triton's ABI (Codegen.h), runs the
/// analyses (AxisInfo, layout assignment), lowers the body through the
/// lowering families and verifies the module. A module LLVM's verifier
/// rejects is a tessel bug; it is reported as a Problem at the kernel, never
/// handed on.
//===----------------------------------------------------------------------===//
#include "compiler/codegen/Codegen.h"

#include "compiler/codegen/AxisInfo.h"
#include "compiler/codegen/LayoutAssignment.h"
#include "compiler/codegen/Pipeliner.h"
#include "compiler/codegen/TmaDescriptors.h"
#include "compiler/codegen/lower/LoweringContext.h"
#include "compiler/ir/Ops.h"

#include "compiler/support/SourceText.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DIBuilder.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdlib>
#include <string_view>

namespace tessel::codegen {

bool rangeLoadPipeliningFromEnv() {
  static const bool On = [] {
    const char *V = std::getenv("TESSEL_PIPELINE_TL_RANGE");
    return !(V && std::string_view(V) == "0");
  }();
  return On;
}

bool wgmmaFromEnv() {
  static const bool On = [] {
    const char *V = std::getenv("TESSEL_WGMMA");
    return !(V && std::string_view(V) == "0");
  }();
  return On;
}

unsigned wgmmaPendingsFromEnv() {
  static const unsigned N = [] {
    const char *V = std::getenv("TESSEL_WGMMA_PENDING");
    if (!V || !*V)
      return 1u;
    return std::string_view(V) == "0" ? 0u : 1u;
  }();
  return N;
}

bool wgmmaChainFromEnv() {
  static const bool On = [] {
    const char *V = std::getenv("TESSEL_WGMMA_CHAIN");
    return !(V && std::string_view(V) == "0");
  }();
  return On;
}

bool tritonEpilogueFromEnv() {
  static const bool On = [] {
    const char *V = std::getenv("TESSEL_TRITON_EPILOGUE");
    return !(V && std::string_view(V) == "0");
  }();
  return On;
}

std::set<std::string> defaultDivisibility(const ir::Function &F) {
  std::set<std::string> D;
  for (const ir::Value *P : F.params())
    if (P->type().Elem.isPointer())
      D.insert(P->name());
  return D;
}

/// PTX's spelling of a parameter of element type E (facts §4).
static std::string ptxParamType(ElemType E) {
  if (E.isPointer())
    return ".u64 .ptr .global";
  switch (E.Scalar) {
  case ScalarKind::I1:
  case ScalarKind::I8:
  case ScalarKind::U8:
    return ".u8";
  case ScalarKind::I16:
  case ScalarKind::U16:
  case ScalarKind::FP16:
  case ScalarKind::BF16:
    return ".u16";
  case ScalarKind::I64:
  case ScalarKind::U64:
    return ".u64";
  case ScalarKind::FP32:
    return ".f32";
  case ScalarKind::FP64:
    return ".f64";
  default:
    return ".u32";
  }
}

static void annotate(llvm::Module &M, llvm::Function &K, const char *Key, int Value) {
  llvm::LLVMContext &Ctx = M.getContext();
  llvm::Metadata *MD[] = {llvm::ValueAsMetadata::get(&K), llvm::MDString::get(Ctx, Key),
                          llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(Ctx), Value))};
  M.getOrInsertNamedMetadata("nvvm.annotations")->addOperand(llvm::MDNode::get(Ctx, MD));
}

CodegenResult emitLLVM(const ir::Function &F, const CodegenOptions &Opts, llvm::LLVMContext &Ctx) {
  CodegenResult Res;
  auto M = std::make_unique<llvm::Module>(F.name(), Ctx);
  M->setTargetTriple(NVPTXTriple);
  M->setDataLayout(NVPTXDataLayout);
  SourceRange KernelRange = F.body().ops().empty() ? SourceRange{} : F.body().ops().front()->loc();
  if (Opts.NumWarps < 1 || (Opts.NumWarps & (Opts.NumWarps - 1)) || Opts.NumWarps > 32) {
    Res.Problems.push_back({ProblemKind::UnsupportedConstruct,
                            KernelRange,
                            "num_warps=" + std::to_string(Opts.NumWarps) + " is not a power of two from 1 to 32",
                            {},
                            {},
                            {}});
    return Res;
  }
  if (Opts.NumCTAs != 1) {
    Res.Problems.push_back({ProblemKind::UnsupportedConstruct,
                            KernelRange,
                            "num_ctas other than 1 is not supported by tessel's code generator yet",
                            {},
                            {},
                            {}});
    return Res;
  }

  // The ABI: the Function's parameters, then the two scratch pointers; a
  // descriptor copied by TMA is its 128-byte map instead of its base, and
  // the parameters tmaDroppedParams counts are not passed.
  llvm::IRBuilder<> TB(Ctx);
  std::vector<llvm::Type *> ParamTys;
  KernelABI &ABI = Res.ABI;
  ABI.EntryName = F.name();
  ABI.ThreadsPerBlock = 32u * static_cast<unsigned>(Opts.NumWarps);
  auto *GlobalPtr = llvm::PointerType::get(Ctx, 1);
  TmaDescriptorPlan TmaPlans = planTmaDescriptors(F, Opts.Arch);
  const std::map<unsigned, TmaPlan> &Tma = TmaPlans.Params;
  ABI.GlobalScratchBytes = globalScratchBytes(TmaPlans);
  std::vector<int> ArgOf(F.params().size(), -1); // each IR parameter's LLVM argument
  for (unsigned I = 0; I < F.params().size(); ++I) {
    ElemType E = F.params()[I]->type().Elem;
    ArgOf[I] = static_cast<int>(ParamTys.size());
    if (auto T = Tma.find(I); T != Tma.end()) {
      ParamTys.push_back(llvm::PointerType::get(Ctx, 0));
      ABI.ParamTypes.push_back(".align 64 .b8 [128]");
      ABI.Tma.push_back(T->second.Meta);
      unsigned Dropped = tmaDroppedParams(T->second.Meta.Rank);
      for (unsigned D = 1; D <= Dropped; ++D)
        ArgOf[I + D] = -1;
      I += Dropped;
      continue;
    }
    ParamTys.push_back(registerType(Ctx, E));
    ABI.ParamTypes.push_back(ptxParamType(E));
  }
  ParamTys.push_back(GlobalPtr);
  ParamTys.push_back(GlobalPtr);
  ABI.ParamTypes.push_back(ptxParamType(ElemType{ScalarKind::I8, 1}));
  ABI.ParamTypes.push_back(ptxParamType(ElemType{ScalarKind::I8, 1}));

  AxisInfoAnalysis AI(F, Opts.DivisibleBy16);
  std::set<const ir::Value *> TmaBases;
  for (const auto &[I, T] : Tma)
    TmaBases.insert(F.params()[I]);
  for (const auto &[M, T] : TmaPlans.Created)
    TmaBases.insert(M->result());
  LayoutPlan Plan = assignLayouts(F, static_cast<unsigned>(Opts.NumWarps), AI, Opts.Arch,
                                  Opts.Wgmma && Opts.ArchSpecific, std::move(TmaBases), !Opts.TritonEpilogue);

  auto *FT = llvm::FunctionType::get(TB.getVoidTy(), ParamTys, false);
  llvm::Function *K = llvm::Function::Create(FT, llvm::GlobalValue::ExternalLinkage, F.name(), *M);
  for (size_t I = 0; I < F.params().size(); ++I)
    if (ArgOf[I] >= 0)
      K->getArg(static_cast<unsigned>(ArgOf[I]))->setName(F.params()[I]->name());
  K->getArg(static_cast<unsigned>(ParamTys.size() - 2))->setName("global_scratch");
  K->getArg(static_cast<unsigned>(ParamTys.size() - 1))->setName("profile_scratch");
  annotate(*M, *K, "kernel", 1);
  if (!Tma.empty()) {
    // The maps stay in the parameter space (NVVM's grid_constant): the copies
    // read them by address, which a copy into local memory would not serve.
    std::vector<llvm::Metadata *> Indices;
    for (const auto &[I, T] : Tma) {
      llvm::Argument *A = K->getArg(static_cast<unsigned>(ArgOf[I]));
      A->addAttr(llvm::Attribute::getWithByValType(Ctx, llvm::ArrayType::get(TB.getInt8Ty(), 128)));
      A->addAttr(llvm::Attribute::getWithAlignment(Ctx, llvm::Align(64)));
      A->addAttr(llvm::Attribute::NoCapture);
      A->addAttr(llvm::Attribute::ReadOnly);
      Indices.push_back(llvm::ConstantAsMetadata::get(TB.getInt32(static_cast<uint32_t>(ArgOf[I] + 1))));
    }
    llvm::Metadata *MD[] = {llvm::ValueAsMetadata::get(K), llvm::MDString::get(Ctx, "grid_constant"),
                            llvm::MDNode::get(Ctx, Indices)};
    M->getOrInsertNamedMetadata("nvvm.annotations")->addOperand(llvm::MDNode::get(Ctx, MD));
  }
  annotate(*M, *K, "reqntidx", static_cast<int>(ABI.ThreadsPerBlock));
  if (Opts.MaxNReg)
    annotate(*M, *K, "maxnreg", *Opts.MaxNReg);

  LoweringContext C(F, Opts, *M, *K, Plan, AI);
  PipelinePlan Pipelines =
      planPipelines(F, Plan, static_cast<unsigned>(Opts.NumWarps), Opts.NumStages, Opts.Arch, Opts.PipelineRangeLoads);
  C.Pipelines = &Pipelines;
  C.DescriptorPlan = &TmaPlans;
  for (size_t I = 0; I < F.params().size(); ++I)
    if (ArgOf[I] >= 0)
      C.set(F.params()[I], C.scalarTile(K->getArg(static_cast<unsigned>(ArgOf[I]))));
  for (const auto &[I, T] : Tma) {
    // The pointer form of the descriptor's accesses is dead code once they
    // are copies (Tma.cpp); its parameters get the values they stand for
    // where the launch passes them (shape and strides), else stand-ins.
    unsigned R = T.Meta.Rank;
    llvm::Argument *Map = K->getArg(static_cast<unsigned>(ArgOf[I]));
    C.TmaDescriptors[F.params()[I]] = {T.Layout, {T.Meta.Box[0], T.Meta.Box[1]}, Map};
    C.set(F.params()[I], C.scalarTile(llvm::PoisonValue::get(GlobalPtr)));
    llvm::IRBuilder<> EB(C.prologue());
    for (unsigned D = 0; D < R; ++D) {
      llvm::Value *ShapeI32 = K->getArg(static_cast<unsigned>(ArgOf[I + 2 * R + 3 + D]));
      C.set(F.params()[I + 1 + D], C.scalarTile(EB.CreateSExt(ShapeI32, EB.getInt64Ty())));
      C.set(F.params()[I + 1 + R + D], C.scalarTile(K->getArg(static_cast<unsigned>(ArgOf[I + 3 * R + 3 + D]))));
    }
    C.set(F.params()[I + 2 * R + 1], C.scalarTile(EB.getFalse()));
    C.set(F.params()[I + 2 * R + 2], C.scalarTile(EB.getFalse()));
  }
  std::unique_ptr<llvm::DIBuilder> DIB;
  if (Opts.Source) {
    // Line tables only (Triton's -lineinfo): a compile unit, the kernel's
    // subprogram, and a location per op (LoweringContext::lowerOp).
    DIB = std::make_unique<llvm::DIBuilder>(*M);
    std::string Path = Opts.Source->path().empty() ? "kernel.py" : Opts.Source->path();
    size_t Slash = Path.rfind('/');
    llvm::DIFile *File = Slash == std::string::npos ? DIB->createFile(Path, ".")
                                                    : DIB->createFile(Path.substr(Slash + 1), Path.substr(0, Slash));
    DIB->createCompileUnit(llvm::dwarf::DW_LANG_Python, File, "tessel", true, "", 0, "",
                           llvm::DICompileUnit::LineTablesOnly);
    unsigned Line = Opts.Source->lineCol(KernelRange.Begin).Line + 1;
    llvm::DISubprogram *SP = DIB->createFunction(File, F.name(), F.name(), File, Line,
                                                 DIB->createSubroutineType(DIB->getOrCreateTypeArray({})), Line,
                                                 llvm::DINode::FlagZero, llvm::DISubprogram::SPFlagDefinition);
    K->setSubprogram(SP);
    M->addModuleFlag(llvm::Module::Warning, "Debug Info Version", llvm::DEBUG_METADATA_VERSION);
    M->addModuleFlag(llvm::Module::Max, "Dwarf Version", 4);
    C.setDebugScope(SP, Opts.Source);
  }
  llvm::BasicBlock *Body = llvm::BasicBlock::Create(Ctx, "body", K);
  C.B.SetInsertPoint(Body);
  C.lowerBlock(F.body());
  C.finishLoops();
  C.B.CreateRetVoid();
  llvm::IRBuilder<>(C.prologue()).CreateBr(Body);
  ABI.SharedBytes = static_cast<unsigned>(C.finishShared());
  for (const SharedBuffer &Buf : C.sharedPlan().buffers())
    ABI.SharedBuffers.push_back(Buf);
  if (DIB)
    DIB->finalize();

  Res.Problems = std::move(C.Problems);
  if (!Res.Problems.empty())
    return Res;
  std::string Err;
  llvm::raw_string_ostream OS(Err);
  if (llvm::verifyModule(*M, &OS)) {
    Res.Problems.push_back(
        {ProblemKind::UnsupportedConstruct,
         KernelRange,
         "tessel's code generator built an invalid LLVM module (a tessel bug): " + Err.substr(0, 400),
         {},
         {},
         {}});
    return Res;
  }
  Res.Module = std::move(M);
  return Res;
}

} // namespace tessel::codegen
