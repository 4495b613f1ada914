//===- PhiloxTritonTest.cpp - tl.rand/randn/randint against real Triton ---===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The interpreter's random numbers must be the ones Triton's kernels draw,
/// bit for bit, so a dropout mask in `tessel run` is the mask the GPU uses.
/// tests/data/philox-triton-3.6.txt holds values printed by real Triton 3.6.0
/// on an H200 (scripts/triton_philox.py) for 32- and 64-bit seeds and small,
/// large and negative int32 offsets. rand and randint must match exactly;
/// randn goes through the GPU's log and cos, which are not correctly rounded,
/// so it is compared to a few ulps.
//===----------------------------------------------------------------------===//

#include "TestKernels.h"

#include "compiler/interp/Interpreter.h"
#include "compiler/ir/Verifier.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

using namespace tessel;
using namespace tessel::interp;
using namespace tessel::testkernels;

namespace {

struct TritonDraw {
  uint64_t Seed = 0;
  int32_t Offset = 0;
  double Rand = 0, Randn = 0;
  uint32_t Randint = 0;
  std::array<uint32_t, 4> Randint4x = {};
};

/// Parses `seed=S offset=O rand=HEX randn=HEX randint=U randint4x=...` lines.
std::vector<TritonDraw> readDraws() {
  std::ifstream In(TESSEL_SOURCE_DIR "/tests/data/philox-triton-3.6.txt");
  std::vector<TritonDraw> Draws;
  std::string Line;
  while (std::getline(In, Line)) {
    if (Line.empty() || Line[0] == '#')
      continue;
    TritonDraw D;
    std::istringstream Fields(Line);
    std::string Field;
    while (Fields >> Field) {
      size_t Eq = Field.find('=');
      std::string Key = Field.substr(0, Eq), Val = Field.substr(Eq + 1);
      if (Key == "seed")
        D.Seed = std::strtoull(Val.c_str(), nullptr, 10);
      else if (Key == "offset")
        D.Offset = static_cast<int32_t>(std::strtoll(Val.c_str(), nullptr, 10));
      else if (Key == "rand")
        D.Rand = std::strtod(Val.c_str(), nullptr); // C++17 strtod reads float.hex()
      else if (Key == "randn")
        D.Randn = std::strtod(Val.c_str(), nullptr);
      else if (Key == "randint")
        D.Randint = static_cast<uint32_t>(std::strtoull(Val.c_str(), nullptr, 10));
      else if (Key == "randint4x") {
        std::istringstream Words(Val);
        std::string W;
        for (size_t I = 0; I < 4 && std::getline(Words, W, ','); ++I)
          D.Randint4x[I] = static_cast<uint32_t>(std::strtoull(W.c_str(), nullptr, 10));
      }
    }
    Draws.push_back(D);
  }
  return Draws;
}

/// One program loading N offsets and storing tl.rand / tl.randn / tl.randint
/// of (seed, offsets), with the seed typed as Triton types an int argument:
/// i32 when it fits, i64 otherwise.
struct RandomKernel {
  ir::Function F{"philox"};
  RandomKernel(int64_t N, ScalarKind SeedKind) {
    Builder B(F);
    Value *OffsPtr = F.addParam(ptrType(ScalarKind::I32), "offs");
    Value *RandPtr = F.addParam(ptrType(ScalarKind::FP32), "rand");
    Value *RandnPtr = F.addParam(ptrType(ScalarKind::FP32), "randn");
    Value *RandintPtr = F.addParam(ptrType(ScalarKind::U32), "randint");
    Value *Seed = F.addParam(scalarType(SeedKind), "seed");
    Value *Idx = B.arange(at(1, 2), 0, N);
    auto At = [&](Value *Ptr) { return B.addPtr(at(3, 4), B.splat(at(3, 4), Ptr, {N}), Idx); };
    Value *Offs = B.load(at(5, 6), At(OffsPtr));
    B.store(at(7, 8), At(RandPtr), B.random(at(9, 10), OpKind::Rand, Seed, Offs));
    B.store(at(11, 12), At(RandnPtr), B.random(at(13, 14), OpKind::Randn, Seed, Offs));
    B.store(at(15, 16), At(RandintPtr), B.random(at(17, 18), OpKind::Randint, Seed, Offs));
    B.ret({});
  }
};

/// One program storing the four words of tl.randint4x(seed, offsets): the
/// IR's Philox with the counter (offset, 0, 0, 0), one op per word.
struct Randint4xKernel {
  ir::Function F{"philox4x"};
  Randint4xKernel(int64_t N, ScalarKind SeedKind) {
    Builder B(F);
    Value *OffsPtr = F.addParam(ptrType(ScalarKind::I32), "offs");
    std::array<Value *, 4> Out;
    for (int W = 0; W < 4; ++W)
      Out[W] = F.addParam(ptrType(ScalarKind::U32), "w" + std::to_string(W));
    Value *Seed = F.addParam(scalarType(SeedKind), "seed");
    Value *Idx = B.arange(at(1, 2), 0, N);
    auto At = [&](Value *Ptr) { return B.addPtr(at(3, 4), B.splat(at(3, 4), Ptr, {N}), Idx); };
    Value *Offs = B.load(at(5, 6), At(OffsPtr));
    Value *Zero = B.constantInt(at(7, 8), 0, Offs->type());
    for (int W = 0; W < 4; ++W)
      B.store(at(9, 10), At(Out[W]), B.philox(at(11, 12), Seed, {Offs, Zero, Zero, Zero}, 10, W));
    B.ret({});
  }
};

double ulpDistance(float A, float B) {
  return std::fabs(static_cast<double>(A) - static_cast<double>(B)) /
         static_cast<double>(std::nextafter(std::fabs(B), std::numeric_limits<float>::infinity()) - std::fabs(B));
}

TEST(PhiloxTriton, DataFileIsThere) {
  std::vector<TritonDraw> Draws = readDraws();
  // 8 seeds x 32 offsets, as scripts/triton_philox.py prints them.
  ASSERT_EQ(Draws.size(), 256u);
}

TEST(PhiloxTriton, RandRandnRandintMatchTriton) {
  std::vector<TritonDraw> Draws = readDraws();
  ASSERT_FALSE(Draws.empty());
  size_t Checked = 0;
  for (size_t Begin = 0; Begin < Draws.size();) {
    size_t End = Begin;
    while (End < Draws.size() && Draws[End].Seed == Draws[Begin].Seed)
      ++End;
    const int64_t N = 32;
    ASSERT_EQ(End - Begin, static_cast<size_t>(N));
    const uint64_t Seed = Draws[Begin].Seed;
    const bool Fits32 = Seed <= static_cast<uint64_t>(std::numeric_limits<int32_t>::max());
    RandomKernel K(N, Fits32 ? ScalarKind::I32 : ScalarKind::I64);
    ASSERT_TRUE(ir::verify(K.F).empty());
    Memory Mem;
    uint32_t Offs = Mem.addBuffer("offs", ScalarKind::I32, N);
    uint32_t Rand = Mem.addBuffer("rand", ScalarKind::FP32, N, true);
    uint32_t Randn = Mem.addBuffer("randn", ScalarKind::FP32, N, true);
    uint32_t Randint = Mem.addBuffer("randint", ScalarKind::U32, N, true);
    for (int64_t I = 0; I < N; ++I)
      Mem.writeInt(Offs, I, Draws[Begin + I].Offset);
    ASSERT_TRUE(run(K.F, Mem,
                    {ArgValue::pointer(Offs), ArgValue::pointer(Rand), ArgValue::pointer(Randn),
                     ArgValue::pointer(Randint), ArgValue::integer(static_cast<int64_t>(Seed))})
                    .Completed);
    for (int64_t I = 0; I < N; ++I) {
      const TritonDraw &D = Draws[Begin + I];
      SCOPED_TRACE("seed=" + std::to_string(D.Seed) + " offset=" + std::to_string(D.Offset));
      EXPECT_EQ(static_cast<uint32_t>(Mem.readInt(Randint, I)), D.Randint);
      EXPECT_EQ(Mem.readFloat(Rand, I), D.Rand);
      EXPECT_LE(ulpDistance(static_cast<float>(Mem.readFloat(Randn, I)), static_cast<float>(D.Randn)), 4.0)
          << Mem.readFloat(Randn, I) << " vs " << D.Randn;
      ++Checked;
    }
    Begin = End;
  }
  EXPECT_EQ(Checked, Draws.size());
}

TEST(PhiloxTriton, Randint4xWordsMatchTriton) {
  // tl.philox / tl.randint4x: all four output words, against Triton's.
  std::vector<TritonDraw> Draws = readDraws();
  ASSERT_FALSE(Draws.empty());
  const int64_t N = 32;
  for (size_t Begin = 0; Begin + N <= Draws.size(); Begin += N) {
    const uint64_t Seed = Draws[Begin].Seed;
    const bool Fits32 = Seed <= static_cast<uint64_t>(std::numeric_limits<int32_t>::max());
    Randint4xKernel K(N, Fits32 ? ScalarKind::I32 : ScalarKind::I64);
    ASSERT_TRUE(ir::verify(K.F).empty());
    Memory Mem;
    uint32_t Offs = Mem.addBuffer("offs", ScalarKind::I32, N);
    std::array<uint32_t, 4> Words;
    for (int W = 0; W < 4; ++W)
      Words[W] = Mem.addBuffer("w" + std::to_string(W), ScalarKind::U32, N, true);
    for (int64_t I = 0; I < N; ++I)
      Mem.writeInt(Offs, I, Draws[Begin + I].Offset);
    std::vector<ArgValue> Args = {ArgValue::pointer(Offs)};
    for (uint32_t W : Words)
      Args.push_back(ArgValue::pointer(W));
    Args.push_back(ArgValue::integer(static_cast<int64_t>(Seed)));
    ASSERT_TRUE(run(K.F, Mem, Args).Completed);
    for (int64_t I = 0; I < N; ++I)
      for (int W = 0; W < 4; ++W)
        EXPECT_EQ(static_cast<uint32_t>(Mem.readInt(Words[W], I)), Draws[Begin + I].Randint4x[W])
            << "seed=" << Seed << " offset=" << Draws[Begin + I].Offset << " word " << W;
  }
}

} // namespace
