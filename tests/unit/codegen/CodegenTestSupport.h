//===- CodegenTestSupport.h - source -> LLVM IR -> PTX for tests -*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The whole JIT path as the tests drive it: a snippet or a sample file is
/// lowered (sema::lowerKernel), generated (codegen::emitLLVM), verified,
/// and compiled by the backend to PTX (and a cubin through ptxas when
/// asked). Every stage's failure is kept as text for the assertion message.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TESTS_UNIT_CODEGEN_CODEGENTESTSUPPORT_H
#define TESSEL_TESTS_UNIT_CODEGEN_CODEGENTESTSUPPORT_H

#include "compiler/backend/Jit.h"
#include "compiler/backend/Target.h"
#include "compiler/backend/Toolkit.h"
#include "compiler/codegen/Codegen.h"
#include "compiler/frontend/Discovery.h"
#include "compiler/ir/Ops.h"
#include "compiler/sema/LaunchPlan.h"
#include "compiler/sema/Lowering.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <map>
#include <llvm/Support/raw_ostream.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

namespace tessel::codegen::test {

struct Compiled {
  std::string Error; ///< the first failure, empty on success
  std::string Llvm;  ///< the module as generated (before the backend's passes)
  std::string Ptx;
  KernelABI ABI;
  backend::CompiledKernel Kernel;
};

inline std::string problemsText(const ParsedFile &File, const std::vector<Problem> &Ps) {
  std::string S;
  for (const Problem &P : Ps)
    S += "`" + std::string(File.text().slice(P.Range)) + "`: " + P.Message + "\n";
  return S;
}

/// A request for Kernel on Warps warps and Stages stages: each constexpr of
/// Ints at its value, each argument of Args of its type (pointers `{E, 1}`).
inline sema::LoweringRequest kernelRequest(const std::string &Kernel, unsigned Warps, unsigned Stages,
                                           const std::map<std::string, int64_t> &Ints,
                                           const std::map<std::string, ElemType> &Args) {
  sema::LoweringRequest R;
  R.Kernel = Kernel;
  R.NumWarps = Warps;
  R.NumStages = Stages;
  for (const auto &[Name, V] : Ints)
    R.Constexprs[Name] = PyValue::integer(V);
  for (const auto &[Name, T] : Args)
    R.ArgTypes[Name] = T;
  return R;
}

/// Lowers, generates and compiles Request.Kernel of File. Wgmma: for sm_90a
/// with CodegenOptions::Wgmma (else sm_Arch without it, whatever the
/// environment says); TritonEpilogue: CodegenOptions::TritonEpilogue.
inline Compiled compileRequest(const ParsedFile &File, const ModuleInfo &Info, const sema::LoweringRequest &Request,
                               unsigned Arch = 90, bool Assemble = false, std::optional<int> MaxNReg = {},
                               bool PipelineRangeLoads = true, bool Wgmma = false, bool TritonEpilogue = true) {
  Compiled Out;
  sema::LoweredKernel L = sema::lowerKernel(File, Info, Request);
  if (!L.Function) {
    Out.Error = "lowering: " + problemsText(File, L.Problems);
    return Out;
  }
  llvm::LLVMContext Ctx;
  CodegenOptions Opts;
  Opts.Arch = static_cast<int>(Arch);
  Opts.NumWarps = static_cast<int>(Request.NumWarps);
  Opts.NumStages = static_cast<int>(Request.NumStages);
  Opts.DivisibleBy16 = defaultDivisibility(*L.Function);
  for (const ir::Value *P : L.Function->params())
    if (!P->type().Elem.isPointer() && Request.ArgTypes.count(P->name()))
      Opts.DivisibleBy16.insert(P->name()); // the tests' sizes are multiples of 16
  Opts.MaxNReg = MaxNReg;
  Opts.PipelineRangeLoads = PipelineRangeLoads;
  Opts.ArchSpecific = Wgmma;
  Opts.Wgmma = Wgmma;
  Opts.TritonEpilogue = TritonEpilogue;
  Opts.Source = &File.text();
  Opts.PtxIsa = backend::ptxIsaOf(backend::toolkit());
  CodegenResult R = emitLLVM(*L.Function, Opts, Ctx);
  Out.ABI = R.ABI;
  if (!R.Module) {
    Out.Error = "codegen: " + problemsText(File, R.Problems);
    return Out;
  }
  llvm::raw_string_ostream OS(Out.Llvm);
  R.Module->print(OS, nullptr);
  backend::JitOptions JO;
  JO.Arch = backend::GpuArch{Arch, Wgmma};
  JO.Assemble = Assemble;
  JO.Assembler.Arch = JO.Arch;
  JO.Assembler.Use = backend::AssemblerKind::Ptxas;
  backend::LaunchShape Shape{R.ABI.ThreadsPerBlock, R.ABI.SharedBytes};
  llvm::Expected<backend::CompiledKernel> K = backend::compileModule(*R.Module, Shape, JO);
  if (!K) {
    Out.Error = "backend: " + llvm::toString(K.takeError());
    return Out;
  }
  Out.Kernel = std::move(*K);
  Out.Ptx = Out.Kernel.Ptx;
  // TESSEL_CODEGEN_DUMP=DIR keeps the module and the PTX for reading.
  if (const char *Dir = std::getenv("TESSEL_CODEGEN_DUMP")) {
    std::string Base = std::string(Dir) + "/" + Request.Kernel + "_sm" + std::to_string(Arch);
    std::ofstream(Base + ".ll") << Out.Llvm;
    std::ofstream(Base + ".ptx") << Out.Ptx;
  }
  return Out;
}

struct SnippetKernel {
  std::shared_ptr<const ParsedFile> File;
  ModuleInfo Info;
};

inline SnippetKernel parseSnippet(const std::string &Body) {
  SnippetKernel S;
  S.File = ParsedFile::parse(
      std::make_shared<SourceText>("import triton\nimport triton.language as tl\n\n" + Body, "test.py"));
  ProblemSink Sink;
  S.Info = discover(S.File->module(), Sink);
  return S;
}

/// A file of the repository (Path relative to its root, e.g.
/// "samples/matmul.py"), parsed and discovered.
inline SnippetKernel parseRepoFile(const std::string &Path) {
  std::string Full = std::string(TESSEL_SOURCE_DIR) + "/" + Path;
  std::ifstream In(Full);
  std::stringstream Text;
  Text << In.rdbuf();
  SnippetKernel S;
  S.File = ParsedFile::parse(std::make_shared<SourceText>(Text.str(), Full));
  ProblemSink Sink;
  S.Info = discover(S.File->module(), Sink);
  return S;
}

/// Number of lines of Text matching the regular expression Re.
inline int countMatches(const std::string &Text, const std::string &Re) {
  std::regex R(Re);
  return static_cast<int>(std::distance(std::sregex_iterator(Text.begin(), Text.end(), R), std::sregex_iterator()));
}

} // namespace tessel::codegen::test

#endif // TESSEL_TESTS_UNIT_CODEGEN_CODEGENTESTSUPPORT_H
