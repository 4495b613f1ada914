//===- Lowering.cpp - one kernel specialization to tile IR ----------------===//
/// \file
/// lowerKernel: runs KernelChecker over the kernel with an ir::Builder, so
/// the one walk that types the kernel (Triton's CodeGenerator) also emits
/// its tile IR, then verifies the result. Any problem (sema's errors, the
/// lowering's limits, a verifier failure) leaves no Function behind.
//===----------------------------------------------------------------------===//
#include "compiler/sema/Lowering.h"

#include "compiler/ir/Builder.h"
#include "compiler/ir/Verifier.h"
#include "compiler/sema/KernelChecker.h"

namespace tessel::sema {

static std::string describe(const LoweringRequest &R) {
  std::string Out;
  for (const auto &[Name, V] : R.Constexprs)
    Out += (Out.empty() ? "" : ", ") + Name + "=" + V.repr();
  Out += (Out.empty() ? "" : ", ") + std::string("num_warps=") + std::to_string(R.NumWarps) +
         ", num_stages=" + std::to_string(R.NumStages);
  return Out;
}

LoweredKernel lowerKernel(const ParsedFile &File, const ModuleInfo &Info, const LoweringRequest &Request,
                          const AnalyzeOptions &Opts) {
  LoweredKernel Out;
  auto It = Info.Jit.find(Request.Kernel);
  if (It == Info.Jit.end() || !It->second.Def) {
    Out.Problems.push_back(
        Problem{ProblemKind::UndefinedName, {}, "no @triton.jit function named `" + Request.Kernel + "`", {}, {}, {}});
    return Out;
  }
  const JitFunction &Fn = It->second;
  for (const ast::SyntaxError &E : File.module().SyntaxErrors)
    if (Fn.Def->Range.contains(E.Range) || Fn.Def->Range == E.Range)
      Out.Problems.push_back(Problem{ProblemKind::SyntaxError, E.Range, E.Message, {}, {}, {}});
  if (!Out.Problems.empty())
    return Out;

  Specialization Spec;
  Spec.Constexprs = Request.Constexprs;
  Spec.NumWarps = Request.NumWarps;
  Spec.NumStages = Request.NumStages;
  Spec.ArgTypes = Request.ArgTypes;
  Spec.EqualToOne = Request.EqualToOne;
  Spec.DescriptorBlocks = Request.DescriptorBlocks;
  Spec.Description = describe(Request);

  auto F = std::make_unique<ir::Function>(Request.Kernel);
  ir::Builder B(*F);
  KernelAnalysis Scratch;
  ProblemSink Sink;
  KernelChecker C(File, Info, Opts, Sink, Scratch);
  C.setBuilder(&B);
  C.checkKernel(Fn, Spec, inferParamKinds(*Fn.Def, Info));
  B.setInsertionPointToEnd(&F->body());
  B.ret(SourceRange{Fn.Def->Range.End, Fn.Def->Range.End});
  Out.Assumptions = C.assumptions();
  for (Problem &P : Sink.take()) {
    P.Specialization.clear(); // the request is the specialization
    Out.Problems.push_back(std::move(P));
  }
  if (!Out.Problems.empty())
    return Out;
  // A verifier failure is a tessel bug: reported at the op, never a crash.
  for (const ir::VerifierError &E : ir::verify(*F))
    Out.Problems.push_back(Problem{ProblemKind::UnsupportedConstruct,
                                   E.Loc,
                                   "internal error: the lowered tile IR does not verify: " + E.Message,
                                   {},
                                   {},
                                   {}});
  if (Out.Problems.empty())
    Out.Function = std::move(F);
  for (const MemoryAccess &A : Scratch.Accesses)
    Out.OwnAccesses.push_back(A.CallRange);
  return Out;
}

std::string specializationKey(const LoweringRequest &R) {
  std::string K = R.Kernel + "|" + std::to_string(R.NumWarps) + "|" + std::to_string(R.NumStages);
  for (const auto &[Name, V] : R.Constexprs)
    K += "|" + Name + "=" + V.repr();
  for (const auto &[Name, T] : R.ArgTypes)
    K += "|" + Name + ":" + T.str();
  for (const auto &[Name, Block] : R.DescriptorBlocks) {
    K += "|" + Name + ":tensordesc";
    for (int64_t D : Block)
      K += "," + std::to_string(D);
  }
  for (const std::string &Name : R.EqualToOne)
    K += "|" + Name + "==1";
  for (const std::string &Name : R.DivisibleBy16)
    K += "|" + Name + "%16";
  return K;
}

} // namespace tessel::sema
