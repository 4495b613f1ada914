//===- TritonBridgeTest.cpp - tessel's side of `--triton`, with a stand-in runner ===//
/// \file
/// TritonBatch against a stand-in for Python and tools/triton_runner.py (a
/// small script set as TESSEL_PYTHON that answers as the runner would): what
/// the manifest says, how Triton's outputs are compared with tessel's GPU run
/// and with its interpreter when both ran, and the one line for a runner
/// that writes nothing. Triton itself is tests/gpu/triton_bridge.py's.
//===----------------------------------------------------------------------===//
#include "tools/TritonBridge.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>

using namespace tessel;
namespace fs = std::filesystem;

namespace {

/// Answers for one instance with output `o` = [1, 2, 3, 4] (fp32), after
/// checking the manifest; a manifest it does not expect is a fatal result.
const char *StandIn = R"PY(#!/usr/bin/env python3
import json, os, struct, sys
batch = sys.argv[2]
m = json.load(open(os.path.join(batch, "manifest.json")))
a = m["instances"][0]["args"]
ok = (m["kernel"] == "k" and m["iters"] == 7 and m["instances"][0]["grid"] == [2, 1, 1]
      and a["n"] == {"int": 4} and a["ACT"] == {"none": True} and a["o"]["output"] is True
      and os.path.exists(os.path.join(batch, a["x"]["tensor"])) and "tensor" not in a["o"])
d = "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }"
d += " " * ((64 - (10 + len(d) + 1) % 64) % 64) + "\n"
with open(os.path.join(batch, "o.npy"), "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(d)) + d.encode() + struct.pack("<4f", 1, 2, 3, 4))
r = {"triton": "3.6.0", "device": "stand-in", "fatal": None if ok else "unexpected manifest " + json.dumps(m),
     "instances": [{"id": 0, "ran": True, "outputs": {"o": "o.npy"}, "shared": 512, "n_regs": 20, "n_spills": 1,
                    "time": {"runs": 7, "median": 0.5, "min": 0.4, "max": 0.6}}]}
json.dump(r, open(os.path.join(batch, "results.json"), "w"))
)PY";

struct StandInRunner {
  fs::path Dir = fs::temp_directory_path() / ("tessel-bridge-test-" + std::to_string(::getpid()));
  explicit StandInRunner(const char *Script) {
    fs::create_directories(Dir);
    std::ofstream(Dir / "python") << Script;
    ::chmod((Dir / "python").c_str(), 0755);
    ::setenv("TESSEL_PYTHON", (Dir / "python").c_str(), 1);
  }
  ~StandInRunner() {
    ::unsetenv("TESSEL_PYTHON");
    std::error_code EC;
    fs::remove_all(Dir, EC);
  }
};

void setFloats(interp::Memory &M, uint32_t Id, std::vector<double> V) {
  for (size_t I = 0; I < V.size(); ++I)
    M.writeFloat(Id, static_cast<int64_t>(I), V[I]);
}

/// One launch of kernel k(x, o, n, ACT): x an input, o the output.
struct OneLaunch {
  launch::ConcreteLaunch L;
  interp::PreparedLaunch P;
  OneLaunch() {
    L.Grid = {2, 1, 1};
    L.Tensors = {{"x", "fp32", {4}, {1}, 4, false, launch::TensorInit::Rand},
                 {"o", "fp32", {4}, {1}, 4, true, launch::TensorInit::Rand}};
    launch::ConcreteValue N;
    N.Name = "n";
    N.Int = 4;
    L.Values = {N};
    uint32_t X = P.Mem.addBuffer("x", ScalarKind::FP32, 4);
    uint32_t O = P.Mem.addBuffer("o", ScalarKind::FP32, 4, true);
    setFloats(P.Mem, X, {0.5, 1, 1.5, 2});
    P.Buffers = {{"x", X}, {"o", O}};
  }
};

TEST(TritonBridge, ComparedWithTesselsGpuRunAndWithItsInterpreter) {
  StandInRunner Runner(StandIn);
  std::string Why;
  tools::TritonBatchOptions Opts;
  Opts.Python = tools::findPython(Why);
  ASSERT_FALSE(Opts.Python.empty()) << Why;
  Opts.File = "/nowhere/k.py";
  Opts.Kernel = "k";
  Opts.Iters = 7;
  tools::TritonBatch Batch(Opts);
  ASSERT_EQ(Batch.unavailable(), "");

  OneLaunch One;
  interp::Memory Interpreted = One.P.Mem; // the interpreter's o: [1, 2, 3, 5], every element written
  setFloats(Interpreted, 2, {1, 2, 3, 5});
  Interpreted.buffer(2).Written.assign(16, 1);
  interp::Memory GpuMem = One.P.Mem; // tessel's GPU run's o: [1, 2, 3, 4]
  setFloats(GpuMem, 2, {1, 2, 3, 4});
  tools::GpuOutputBytes Gpu = {{2, GpuMem.buffer(2).Bytes}};

  tools::RunReport Report;
  tools::InstanceReport &I = Report.Instances.emplace_back();
  I.Triton.emplace();
  std::map<std::string, PyValue> Constexprs = {{"ACT", PyValue::none()}};
  ASSERT_TRUE(Batch.add(One.L, Constexprs, One.P, One.P.Mem, tools::TritonReference{&Interpreted, &Gpu}, *I.Triton));
  Batch.run(Report);

  EXPECT_EQ(Report.TritonError, "");
  EXPECT_EQ(Report.TritonVersion, "3.6.0");
  const tools::TritonInstanceReport &T = *I.Triton;
  EXPECT_TRUE(T.Ran) << T.Error;
  EXPECT_EQ(T.Against, "tessel's GPU run");
  ASSERT_EQ(T.Outputs.size(), 1u);
  EXPECT_EQ(T.Outputs[0].Name, "o");
  EXPECT_EQ(T.Outputs[0].Compared, 4);
  EXPECT_EQ(T.Outputs[0].Mismatches, 0);
  ASSERT_EQ(T.InterpreterOutputs.size(), 1u);
  EXPECT_EQ(T.InterpreterOutputs[0].Mismatches, 1);
  EXPECT_EQ(T.InterpreterOutputs[0].FirstMismatch, 3);
  EXPECT_EQ(T.InterpreterOutputs[0].Got, 4);
  EXPECT_EQ(T.mismatches(), 0u);
  EXPECT_EQ(T.SharedBytes, 512);
  EXPECT_EQ(T.Registers, 20);
  EXPECT_EQ(T.Spills, 1);
  EXPECT_EQ(T.TimedRuns, 7u);
  EXPECT_DOUBLE_EQ(T.MedianMs, 0.5);
}

TEST(TritonBridge, SlotsAnAtomicReturnedDifferByOrderNotByResult) {
  // Triton's run and tessel's hand out an MoE router's slots in their own
  // programs' order: the output differs, the instance does not disagree.
  tools::TritonInstanceReport T;
  tools::GpuComparison Slots;
  Slots.Name = "LocalPos";
  Slots.Compared = 100;
  Slots.Mismatches = 90;
  Slots.FromAtomic = SourceRange{10, 20};
  T.Outputs.push_back(Slots);
  EXPECT_EQ(T.mismatches(), 0u);
  Slots.FromAtomic.reset();
  T.Outputs.push_back(Slots);
  EXPECT_EQ(T.mismatches(), 1u);
}

TEST(TritonBridge, ARunnerThatWritesNothingIsOneLine) {
  StandInRunner Runner("#!/bin/sh\necho 'Traceback: ImportError: libcuda.so.1' >&2\nexit 1\n");
  std::string Why;
  tools::TritonBatchOptions Opts;
  Opts.Python = tools::findPython(Why);
  Opts.File = "/nowhere/k.py";
  Opts.Kernel = "k";
  tools::TritonBatch Batch(Opts);
  OneLaunch One;
  tools::RunReport Report;
  tools::InstanceReport &I = Report.Instances.emplace_back();
  I.Triton.emplace();
  ASSERT_TRUE(Batch.add(One.L, {}, One.P, One.P.Mem, tools::TritonReference{&One.P.Mem, nullptr}, *I.Triton));
  Batch.run(Report);
  EXPECT_EQ(Report.TritonError, "the Triton runner exited with code 1: Traceback: ImportError: libcuda.so.1");
  EXPECT_FALSE(I.Triton); // the run's one line says it; no instance repeats it
  EXPECT_EQ(Report.errors(), 1u);
}

} // namespace
