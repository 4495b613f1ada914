//===- CudaReferenceRun.cpp - `tessel run --gpu --reference` --------------===//
/// \file
/// Only the outputs a non-const pointer parameter of the reference receives
/// are compared: a launch's output the reference does not write is listed as
/// not compared rather than reported as a mismatch of poisoned memory.
//===----------------------------------------------------------------------===//
#include "tools/CudaReferenceRun.h"

#include "compiler/reference/ParameterMap.h"

#include <set>
#include <sstream>

namespace tessel::tools {

bool CudaReferenceRun::prepare(const ParsedFile &File, const ModuleInfo &Info, const std::string &Path,
                               const std::string &Kernel, RunReport &Report) {
  if (Prepared) // --all-configs prepares once per config: the reference is the same
    return Compiled && Compiled->Kernel;
  Prepared = true;
  std::string Error;
  Target = findCudaReference(File, Info, Path, Kernel, Error);
  if (!Target) {
    Report.CudaReferenceError = Error;
    return false;
  }
  Report.CudaReference = Target->Label;
  std::optional<backend::GpuArch> Arch = Gpu.arch();
  if (!Arch) {
    Report.CudaReferenceError = Gpu.unavailable();
    return false;
  }
  reference::ReferenceCompileOptions O;
  O.Arch = *Arch;
  Compiled = reference::compileReference(Target->Path, Target->Directive.Function, Target->Directive.TemplateArgs, O);
  for (const reference::ClangDiagnostic &D : Compiled->Source.Diagnostics)
    Report.CudaReferenceDiagnostics.push_back(reference::formatDiagnostic(D));
  if (!Compiled->Kernel) {
    Report.CudaReferenceError = Target->Label + ": " + Compiled->Error;
    return false;
  }
  return true;
}

CudaReferenceInstance CudaReferenceRun::run(const launch::ConcreteLaunch &L, const interp::PreparedLaunch &P,
                                            const interp::Memory &Inputs, const interp::Memory *Interpreter,
                                            const GpuOutputBytes *TesselGpu, size_t Iters) {
  CudaReferenceInstance Out;
  if (!Compiled || !Compiled->Kernel || !Compiled->Source.Kernel) {
    Out.Error = "the reference did not compile";
    return Out;
  }
  const reference::ReferenceDirective &D = Target->Directive;
  reference::ParameterMap M = reference::mapParameters(*Compiled->Source.Kernel, D, L);
  if (!M.Error.empty()) {
    Out.Error = M.Error;
    return Out;
  }
  reference::Dims3 Grid = reference::evaluateDims(D.Grid, L, "grid");
  reference::Dims3 Block = reference::evaluateDims(D.Block, L, "block");
  if (!Grid.Error.empty() || !Block.Error.empty()) {
    Out.Error = Grid.Error.empty() ? Block.Error : Grid.Error;
    return Out;
  }
  Out.Grid = Grid.D;
  Out.Block = Block.D;
  std::vector<interp::ArgValue> Args;
  std::vector<std::string> Names;
  std::set<uint32_t> Compare;
  const std::vector<reference::CudaParam> &Params = Compiled->Source.Kernel->Params;
  for (size_t I = 0; I < M.Args.size(); ++I) {
    const reference::Binding &B = M.Args[I];
    Names.push_back(B.Param);
    if (B.K == reference::Binding::Kind::Int) {
      Args.push_back(interp::ArgValue::integer(B.Int));
      continue;
    }
    if (B.K == reference::Binding::Kind::Float) {
      Args.push_back(interp::ArgValue::floating(B.Float));
      continue;
    }
    uint32_t Id = P.buffer(L.Tensors[B.Tensor].Name);
    if (Id == 0 && B.Tensor < P.Buffers.size())
      Id = P.Buffers[B.Tensor].second;
    if (Id == 0) {
      Out.Error = "tensor '" + B.Source + "' has no buffer in this instance";
      return Out;
    }
    Args.push_back(interp::ArgValue::pointer(Id));
    if (!Params[I].ConstPointee && Inputs.buffer(Id).IsOutput)
      Compare.insert(Id);
  }
  Out.NotCompared = M.UnwrittenOutputs;
  // What the outputs are compared with: the interpreter's memory, else a copy of the inputs
  // holding tessel's GPU outputs (every element counts: no written flags).
  std::optional<interp::Memory> FromGpu;
  const interp::Memory *Expected = Interpreter;
  Out.Against = "the interpreter";
  if (!Expected && TesselGpu) {
    FromGpu = Inputs;
    for (const auto &[Id, Bytes] : *TesselGpu) {
      FromGpu->buffer(Id).Bytes = Bytes;
      FromGpu->buffer(Id).Written.clear();
    }
    Expected = &*FromGpu;
    Out.Against = "tessel's GPU run";
  }
  if (!Expected)
    Out.Against.clear();
  std::array<unsigned, 3> G{}, B{};
  for (size_t I = 0; I < 3; ++I) {
    G[I] = static_cast<unsigned>(Out.Grid[I]);
    B[I] = static_cast<unsigned>(Out.Block[I]);
  }
  Out.Run = Gpu.runCompiled("cuda-reference|" + Target->Label, *Compiled->Kernel, G, B, Inputs, Args, Names, Compare,
                            Expected, Iters);
  return Out;
}

} // namespace tessel::tools
