//===- LoweringSamplesTest.cpp - every sample lowers and verifies --------===//
/// \file
/// Every kernel of every tutorial sample, under every specialization its
/// file reveals (Specializations.cpp), lowers to tile IR that verifies;
/// a specialization that leaves a constexpr unknown is a Problem, never a
/// crash. Argument dtypes are those the samples' host code passes.
//===----------------------------------------------------------------------===//
#include "LoweringTestSupport.h"

#include "compiler/sema/PointerParams.h"
#include "compiler/sema/Specializations.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace tessel::sema::test {
namespace {

std::string readSample(const std::string &Name) {
  std::ifstream In(std::string(TESSEL_SOURCE_DIR) + "/samples/" + Name);
  std::stringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

/// The dtypes the samples' host functions launch with.
ElemType argType(const std::string &Sample, const std::string &Param, bool Pointer) {
  if (Pointer) {
    bool Half = (Sample == "matmul.py" || Sample == "attention.py") && Param != "lse_ptr";
    return ptrTo(Half ? ScalarKind::FP16 : ScalarKind::FP32);
  }
  if (Param == "p" || Param == "eps" || Param == "sm_scale")
    return scalar(ScalarKind::FP32);
  return scalar(ScalarKind::I32);
}

TEST(LoweringSamples, EverySpecializationLowersAndVerifies) {
  int Lowered = 0;
  for (const auto &Entry : std::filesystem::directory_iterator(std::string(TESSEL_SOURCE_DIR) + "/samples")) {
    if (Entry.path().extension() != ".py")
      continue;
    std::string Name = Entry.path().filename().string();
    std::string Source = readSample(Name);
    auto File = ParsedFile::parse(std::make_shared<SourceText>(Source, Name));
    ProblemSink Sink;
    ModuleInfo Info = discover(File->module(), Sink);
    for (const std::string &Kernel : Info.Order) {
      const JitFunction &Fn = Info.Jit.at(Kernel);
      if (!Fn.IsKernel || !Fn.Def)
        continue;
      std::set<std::string> Pointers = inferPointerParams(*Fn.Def, Info);
      for (const Specialization &S : specializationsOf(Fn, 64)) {
        LoweringRequest R;
        R.Kernel = Kernel;
        R.Constexprs = S.Constexprs;
        R.NumWarps = S.NumWarps;
        R.NumStages = S.NumStages;
        bool Unknown = false;
        for (const auto &[K, V] : S.Constexprs)
          Unknown |= V.isUnknown();
        for (const ast::Param &P : Fn.Def->Params) {
          bool Constexpr = P.Annotation &&
                           std::string(File->text().slice(P.Annotation->Range)).find("constexpr") != std::string::npos;
          if (Constexpr)
            Unknown |= !S.Constexprs.count(P.Name) && !P.Default;
          else if (!S.Constexprs.count(P.Name))
            R.ArgTypes[P.Name] = argType(Name, P.Name, Pointers.count(P.Name) > 0);
        }
        LoweredKernel L = lowerKernel(*File, Info, R);
        std::string Where = Name + " " + Kernel + " [" + S.Description + "]";
        if (Unknown) {
          EXPECT_FALSE(L.Function) << Where;
          ASSERT_FALSE(L.Problems.empty()) << Where;
          continue;
        }
        std::string Problems;
        for (const Problem &P : L.Problems)
          Problems += "  `" + std::string(File->text().slice(P.Range)) + "`: " + P.Message + "\n";
        EXPECT_TRUE(L.Function) << Where << "\n" << Problems;
        EXPECT_TRUE(L.Problems.empty()) << Where << "\n" << Problems;
        Lowered += L.Function != nullptr;
      }
    }
  }
  EXPECT_GE(Lowered, 10);
}

} // namespace
} // namespace tessel::sema::test
