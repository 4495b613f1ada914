//===- ConfigListEditTest.cpp - rewriting an autotune configs=[...] list --===//
#include "diagnostics/ConfigListEdit.h"

#include "compiler/frontend/Discovery.h"
#include "compiler/frontend/Parser.h"

#include <gtest/gtest.h>

using namespace tessel;

namespace {

/// Text with the edit that keeps Keep of kernel k's configs applied, or "!" + why not.
std::string keep(const std::string &Source, const std::vector<size_t> &Keep) {
  auto File = ParsedFile::parse(std::make_shared<SourceText>(Source, "k.py"));
  ProblemSink Sink;
  ModuleInfo Info = discover(File->module(), Sink);
  const JitFunction *Fn = Info.jit("k");
  if (!Fn)
    return "!no kernel";
  std::string Why;
  std::optional<TextEdit> E = diag::configListEdit(File->text(), *Fn, Keep, Why);
  if (!E)
    return "!" + Why;
  return Source.substr(0, E->Range.Begin) + E->NewText + Source.substr(E->Range.End);
}

const char *Literal = R"(import triton
import triton.language as tl

@triton.autotune(configs=[
    triton.Config({"B": 32}, num_warps=2),
    triton.Config({"B": 64}, num_warps=4),  # the usual one
    triton.Config({"B": 128}, num_warps=8),
], key=["n"])
@triton.jit
def k(x, n, B: tl.constexpr):
    pass
)";

} // namespace

TEST(ConfigListEdit, KeepsTheChosenConfigsInTheirOrder) {
  std::string Out = keep(Literal, {0, 2});
  EXPECT_NE(Out.find(R"(configs=[
    triton.Config({"B": 32}, num_warps=2),
    triton.Config({"B": 128}, num_warps=8),
], key=["n"]))"),
            std::string::npos)
      << Out;
  EXPECT_EQ(Out.find("\"B\": 64"), std::string::npos);
}

TEST(ConfigListEdit, ReordersBestFirst) {
  std::string Out = keep(Literal, {2, 1});
  EXPECT_LT(Out.find("\"B\": 128"), Out.find("\"B\": 64")) << Out;
  EXPECT_EQ(Out.find("\"B\": 32"), std::string::npos);
}

TEST(ConfigListEdit, RefusesConfigsBuiltByCode) {
  std::string Out = keep(R"(import triton
import triton.language as tl

@triton.autotune(configs=[triton.Config({"B": b}) for b in (32, 64)], key=["n"])
@triton.jit
def k(x, n, B: tl.constexpr):
    pass
)",
                         {1});
  EXPECT_EQ(Out.rfind("!the configs are not written as a list", 0), 0u) << Out;
}

TEST(ConfigListEdit, RefusesAnEmptyOrRepeatedChoice) {
  EXPECT_EQ(keep(Literal, {}), "!no config to keep");
  EXPECT_EQ(keep(Literal, {1, 1}).substr(0, 9), "!config 1");
  EXPECT_EQ(keep(Literal, {7}).substr(0, 9), "!config 7");
}
