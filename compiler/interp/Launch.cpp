//===- Launch.cpp - a launch spec instance as interpreter inputs ----------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Parameter matching and input generation. Every input is filled from one
/// std::mt19937_64 stream in spec order, so adding an output entry never
/// changes the data of the inputs before it.
//===----------------------------------------------------------------------===//
#include "compiler/interp/Launch.h"

#include "compiler/ir/TypeUtils.h"

#include <algorithm>
#include <random>

namespace tessel::interp {

uint32_t PreparedLaunch::buffer(std::string_view Name) const {
  for (const auto &[N, Id] : Buffers)
    if (N == Name)
      return Id;
  return 0;
}

/// Fills every element of an input buffer as its init flag says: floats in
/// [0, 1) or N(0, 1), integers in [0, 128) or [-64, 64), bools 0/1;
/// randint draws integers from [T.Low, T.High) whatever the dtype.
static void fillInput(Memory &Mem, uint32_t Id, const launch::ConcreteTensor &T, std::mt19937_64 &Rng) {
  const launch::TensorInit Init = T.Init;
  const Buffer &B = Mem.buffer(Id);
  const bool Float = ir::isFloatScalar(B.Elem);
  const bool Bool = B.Elem == ScalarKind::I1;
  std::uniform_real_distribution<double> Uniform(0.0, 1.0);
  std::normal_distribution<double> Normal(0.0, 1.0);
  const int64_t N = B.numElements();
  for (int64_t I = 0; I < N; ++I) {
    double V = 0;
    switch (Init) {
    case launch::TensorInit::Zeros:
      V = 0;
      break;
    case launch::TensorInit::Ones:
      V = 1;
      break;
    case launch::TensorInit::Arange:
      V = static_cast<double>(I);
      break;
    case launch::TensorInit::Rand:
      V = Bool ? static_cast<double>(Rng() & 1) : Float ? Uniform(Rng) : static_cast<double>(Rng() % 128);
      break;
    case launch::TensorInit::Randint:
      V = static_cast<double>(
          T.Low + static_cast<int64_t>(Rng() % static_cast<uint64_t>(std::max<int64_t>(T.High - T.Low, 1))));
      break;
    case launch::TensorInit::Randn:
      V = Bool    ? static_cast<double>(Rng() & 1)
          : Float ? Normal(Rng)
                  : static_cast<double>(static_cast<int64_t>(Rng() % 128) - 64);
      break;
    }
    if (Float)
      Mem.writeFloat(Id, I, V);
    else
      Mem.writeInt(Id, I, static_cast<int64_t>(V));
  }
}

PreparedLaunch prepareLaunch(const ir::Function &F, const launch::ConcreteLaunch &L, uint64_t Seed) {
  PreparedLaunch P;
  std::mt19937_64 Rng(Seed);
  for (const launch::ConcreteTensor &T : L.Tensors) {
    std::optional<ScalarKind> K = ir::scalarFromName(T.DType);
    if (!K) {
      P.Errors.push_back("tensor '" + T.Name + "' has dtype " + T.DType + ", which the interpreter does not know");
      continue;
    }
    uint32_t Id = P.Mem.addBuffer(T.Name, *K, T.StorageElements, T.IsOutput);
    if (!T.IsOutput)
      fillInput(P.Mem, Id, T, Rng);
    P.Buffers.emplace_back(T.Name, Id);
  }
  for (const ir::Value *Param : F.params()) {
    const std::string &Name = Param->name();
    const ElemType &E = Param->type().Elem;
    if (E.isPointer()) {
      uint32_t Id = P.buffer(Name);
      if (!Id) {
        P.Errors.push_back("no tensor for pointer parameter '" + Name + "' in the launch spec");
        continue;
      }
      ScalarKind Spec = P.Mem.buffer(Id).Elem;
      if (E.PointerDepth == 1 && Spec != E.Scalar)
        P.Errors.push_back("tensor '" + Name + "' is " + std::string(ir::scalarName(Spec)) +
                           " in the launch spec but the kernel was specialized for *" +
                           std::string(ir::scalarName(E.Scalar)));
      P.Args.push_back(ArgValue::pointer(Id));
      continue;
    }
    const launch::ConcreteValue *V = L.value(Name);
    if (!V) {
      P.Errors.push_back("no value for parameter '" + Name + "' in the launch spec");
      continue;
    }
    P.Args.push_back(V->IsFloat ? ArgValue::floating(V->Float) : ArgValue::integer(V->Int));
  }
  P.Opts.Grid = L.Grid;
  return P;
}

} // namespace tessel::interp
