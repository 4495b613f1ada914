//===- ParameterMap.cpp - a launch's tensors and scalars onto CUDA parameters ---===//
/// \file
/// The rules: a pointer takes a tensor whose dtype is its pointee's (a
/// `const` pointer may take an output too, read as the kernel's input); an
/// integer parameter takes an integer value, a floating-point one any number.
/// A Triton kernel's `_ptr` suffix is the common difference of names, so
/// `x` finds `x_ptr` when the launch has no `x`.
//===----------------------------------------------------------------------===//

#include "compiler/reference/ParameterMap.h"

namespace tessel::reference {

static bool isIntDType(const std::string &D) { return !D.empty() && (D[0] == 'i' || D[0] == 'u'); }
static bool isFloatDType(const std::string &D) { return D == "fp32" || D == "fp64" || D == "fp16" || D == "bf16"; }

static std::string describeParam(const CudaKernel &K, const CudaParam &P) {
  return "reference parameter '" + P.Name + "' (" + P.Type + ") of " + K.Name;
}

ParameterMap mapParameters(const CudaKernel &K, const ReferenceDirective &D, const launch::ConcreteLaunch &L) {
  ParameterMap Out;
  std::vector<bool> Taken(L.Tensors.size(), false);
  for (const CudaParam &P : K.Params) {
    std::string Name = D.launchNameOf(P.Name);
    bool Renamed = Name != P.Name;
    const launch::ConcreteTensor *T = nullptr;
    size_t Index = 0;
    for (size_t I = 0; I < L.Tensors.size(); ++I)
      if (L.Tensors[I].Name == Name || (!Renamed && !T && L.Tensors[I].Name == Name + "_ptr")) {
        T = &L.Tensors[I];
        Index = I;
        if (L.Tensors[I].Name == Name)
          break;
      }
    const launch::ConcreteValue *V = L.value(Name);
    std::string Fix = " (name it in the directive: " + P.Name + "=NAME)";
    if (P.Pointer) {
      if (!T) {
        Out.Error = describeParam(K, P) + " has no tensor named '" + Name + "' in the launch" + Fix;
        return Out;
      }
      if (P.DType.empty() || P.DType != T->DType) {
        Out.Error = describeParam(K, P) + " points to " + (P.DType.empty() ? "a type tessel cannot map" : P.DType) +
                    ", but tensor '" + T->Name + "' is " + T->DType;
        return Out;
      }
      Taken[Index] = Taken[Index] || !P.ConstPointee;
      Out.Args.push_back({Binding::Kind::Tensor, P.Name, T->Name, Index, P.DType, 0, 0});
      continue;
    }
    if (!V) {
      Out.Error = describeParam(K, P) + " has no size or scalar named '" + Name + "' in the launch" + Fix;
      return Out;
    }
    if (V->IsStr) {
      Out.Error = describeParam(K, P) + " is given '" + Name + "', a string";
      return Out;
    }
    if (isIntDType(P.DType)) {
      if (V->IsFloat) {
        Out.Error = describeParam(K, P) + " is an integer, but '" + Name + "' is a float";
        return Out;
      }
      Out.Args.push_back({Binding::Kind::Int, P.Name, Name, 0, P.DType, V->Int, 0});
      continue;
    }
    if (isFloatDType(P.DType)) {
      Out.Args.push_back(
          {Binding::Kind::Float, P.Name, Name, 0, P.DType, 0, V->IsFloat ? V->Float : static_cast<double>(V->Int)});
      continue;
    }
    Out.Error = describeParam(K, P) + " has a type tessel cannot pass from a launch";
    return Out;
  }
  for (size_t I = 0; I < L.Tensors.size(); ++I)
    if (L.Tensors[I].IsOutput && !Taken[I])
      Out.UnwrittenOutputs.push_back(L.Tensors[I].Name);
  return Out;
}

} // namespace tessel::reference
