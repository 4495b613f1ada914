//===- TorchModel.cpp - host tensors as a launch sees them ----------------===//
/// \file
/// Shapes follow PyTorch's rules: sizes given as varargs or one sequence,
/// `-1` inferred in `view`/`reshape`, contiguous row-major strides for new
/// tensors, `*_like` copying the shape (and dtype unless given), `t()` and
/// `transpose` swapping strides without copying. Default dtypes are
/// PyTorch's: float32 for floating factories, int64 for integer `arange`.
//===----------------------------------------------------------------------===//
#include "compiler/host/TorchModel.h"

#include "compiler/frontend/PyBuiltins.h"
#include "compiler/frontend/TorchDTypes.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace tessel::torchmodel {

using pybuiltins::intOf;
using pybuiltins::kwarg;
using torchdtypes::elementBytes;
using torchdtypes::torchDType;
using torchdtypes::tritonDType;

static std::vector<int64_t> contiguousStrides(const std::vector<int64_t> &Shape) {
  std::vector<int64_t> S(Shape.size(), 1);
  for (size_t I = Shape.size(); I-- > 1;)
    S[I - 1] = S[I] * std::max<int64_t>(Shape[I], 1);
  return S;
}

static std::optional<int64_t> numel(const std::vector<int64_t> &Shape) {
  int64_t N = 1;
  for (int64_t D : Shape) {
    if (D < 0 || (D && N > MaxElements / D))
      return std::nullopt;
    N *= D;
  }
  return N;
}

/// Sizes given as `f(2, 3)`, `f((2, 3))`, `f([2, 3])` or `f(size=(2, 3))`.
static std::optional<std::vector<int64_t>> sizesOf(const PyList &Args, const PyDict &Kwargs, size_t First = 0) {
  PyList Dims;
  if (const PyValue *Size = kwarg(Kwargs, "size"); Size && Args.size() == First) {
    if (!Size->isSequence())
      return std::nullopt;
    Dims = Size->elements();
  } else if (Args.size() == First + 1 && Args[First].isSequence()) {
    Dims = Args[First].elements();
  } else {
    Dims.assign(Args.begin() + static_cast<std::ptrdiff_t>(std::min(First, Args.size())), Args.end());
  }
  std::vector<int64_t> Out;
  for (const PyValue &D : Dims) {
    std::optional<int64_t> N = intOf(D);
    if (!N || *N < 0)
      return std::nullopt;
    Out.push_back(*N);
  }
  return Out;
}

/// DType "" (a dtype the host code computes from one tessel cannot know)
/// keeps the shape: a launch's plan assumes the element type alone.
static PyValue make(std::vector<int64_t> Shape, std::string DType, PyTensor::Fill Init, std::string Origin) {
  if (!numel(Shape))
    return PyValue();
  PyTensor T;
  T.Strides = contiguousStrides(Shape);
  T.Shape = std::move(Shape);
  T.DType = std::move(DType);
  T.Init = Init;
  T.Origin = std::move(Origin);
  return PyValue::tensor(std::move(T));
}

/// The `dtype=` keyword, Default when absent; "" when given but unknown.
static std::string dtypeArg(const PyDict &Kwargs, const std::string &Default) {
  const PyValue *D = kwarg(Kwargs, "dtype");
  return D && !D->isNone() ? tritonDType(*D) : Default;
}

static std::string callText(std::string_view Fn, const PyList &Args) {
  std::string S = "torch." + std::string(Fn) + "(";
  for (size_t I = 0; I < Args.size(); ++I)
    S += (I ? ", " : "") + Args[I].repr();
  return S + ")";
}

static PyTensor::Fill fillOf(std::string_view F) {
  if (F == "empty")
    return PyTensor::Fill::Empty;
  if (F == "zeros")
    return PyTensor::Fill::Zeros;
  if (F == "ones")
    return PyTensor::Fill::Ones;
  if (F == "rand")
    return PyTensor::Fill::Rand;
  if (F == "randn")
    return PyTensor::Fill::Randn;
  if (F == "full")
    return PyTensor::Fill::Full;
  return PyTensor::Fill::Unknown;
}

std::optional<PyValue> callTorch(const std::string &Path, const PyList &Args, const PyDict &Kwargs) {
  if (Path.rfind("torch.", 0) != 0)
    return std::nullopt;
  std::string_view F = std::string_view(Path).substr(6);
  // torch.library's wrappers hand the kernel back to be launched under
  // torch.compile (`wrap_triton(kernel)[grid](...)`); run eagerly, the same
  // launch of the same kernel.
  if ((F == "library.wrap_triton" || F == "library.capture_triton" || F == "_library.triton.wrap_triton" ||
       F == "_library.triton.capture_triton" || F == "_library.capture_triton") &&
      Args.size() == 1 && Kwargs.empty())
    return Args[0];
  if (F == "empty" || F == "zeros" || F == "ones" || F == "rand" || F == "randn") {
    std::optional<std::vector<int64_t>> Shape = sizesOf(Args, Kwargs);
    if (!Shape)
      return PyValue();
    return make(std::move(*Shape), dtypeArg(Kwargs, "fp32"), fillOf(F), callText(F, Args));
  }
  if (F == "full") {
    if (Args.size() < 2 || !Args[0].isSequence())
      return PyValue();
    std::optional<std::vector<int64_t>> Shape = sizesOf({Args[0]}, {});
    if (!Shape)
      return PyValue();
    std::string Default = Args[1].isFloat() ? "fp32" : Args[1].isBool() ? "i1" : Args[1].isInt() ? "i64" : "";
    return make(std::move(*Shape), dtypeArg(Kwargs, Default), PyTensor::Fill::Full, callText(F, Args));
  }
  if (F == "empty_like" || F == "zeros_like" || F == "ones_like" || F == "rand_like" || F == "randn_like" ||
      F == "full_like") {
    if (Args.empty() || !Args[0].isTensor())
      return PyValue();
    const PyTensor &Src = Args[0].asTensor();
    std::string_view Base = F.substr(0, F.size() - 5);
    return make(Src.Shape, dtypeArg(Kwargs, Src.DType), fillOf(Base), "torch." + std::string(F) + "(...)");
  }
  if (F == "randint") {
    // randint(high, size) or randint(low, high, size); `size=` as a keyword.
    std::vector<PyValue> Pos = Args;
    if (const PyValue *Size = kwarg(Kwargs, "size"))
      Pos.push_back(*Size);
    if (Pos.size() < 2 || Pos.size() > 3 || !Pos.back().isSequence())
      return PyValue();
    std::optional<int64_t> Lo = Pos.size() == 3 ? intOf(Pos[0]) : std::optional<int64_t>(0);
    std::optional<int64_t> Hi = intOf(Pos[Pos.size() - 2]);
    std::optional<std::vector<int64_t>> Shape = sizesOf({Pos.back()}, {});
    if (!Lo || !Hi || *Lo >= *Hi || !Shape)
      return PyValue();
    PyValue Out = make(std::move(*Shape), dtypeArg(Kwargs, "i64"), PyTensor::Fill::Randint, callText(F, Args));
    if (Out.isTensor()) {
      PyTensor T = Out.asTensor();
      T.Low = *Lo;
      T.High = *Hi;
      return PyValue::tensor(std::move(T));
    }
    return Out;
  }
  if (F == "arange") {
    PyList Bounds = Args;
    bool AnyFloat = std::any_of(Bounds.begin(), Bounds.end(), [](const PyValue &V) { return V.isFloat(); });
    if (Bounds.empty() || Bounds.size() > 3 || AnyFloat)
      return PyValue();
    int64_t Lo = 0, Hi = 0, Step = 1;
    std::optional<int64_t> A = intOf(Bounds[0]), B = Bounds.size() > 1 ? intOf(Bounds[1]) : std::optional<int64_t>(0),
                           C = Bounds.size() > 2 ? intOf(Bounds[2]) : std::optional<int64_t>(1);
    if (!A || !B || !C || *C == 0)
      return PyValue();
    if (Bounds.size() == 1) {
      Hi = *A;
    } else {
      Lo = *A;
      Hi = *B;
      Step = *C;
    }
    int64_t N = Step > 0 ? (Hi - Lo + Step - 1) / Step : (Lo - Hi - Step - 1) / -Step;
    return make({std::max<int64_t>(N, 0)}, dtypeArg(Kwargs, "i64"), PyTensor::Fill::Arange, callText(F, Args));
  }
  return std::nullopt;
}

static PyValue shapeTuple(const std::vector<int64_t> &Shape) {
  PyList L;
  for (int64_t D : Shape)
    L.push_back(PyValue::integer(D));
  return PyValue::tuple(std::move(L));
}

static PyValue withLayout(const PyTensor &Src, std::vector<int64_t> Shape, std::vector<int64_t> Strides) {
  PyTensor T = Src;
  T.Shape = std::move(Shape);
  T.Strides = std::move(Strides);
  return PyValue::tensor(std::move(T));
}

/// A tensor that is a fresh copy: its own allocation, no larger than itself.
static PyValue copied(PyValue V) {
  if (!V.isTensor())
    return V;
  PyTensor T = V.asTensor();
  T.Extent = 0;
  return PyValue::tensor(std::move(T));
}

static PyValue transposed(const PyTensor &T, int64_t A, int64_t B) {
  int64_t N = static_cast<int64_t>(T.Shape.size());
  if (A < 0)
    A += N;
  if (B < 0)
    B += N;
  if (A < 0 || B < 0 || A >= N || B >= N)
    return PyValue();
  std::vector<int64_t> Shape = T.Shape, Strides = T.Strides;
  std::swap(Shape[static_cast<size_t>(A)], Shape[static_cast<size_t>(B)]);
  std::swap(Strides[static_cast<size_t>(A)], Strides[static_cast<size_t>(B)]);
  return withLayout(T, std::move(Shape), std::move(Strides));
}

static bool isContiguous(const PyTensor &T) { return T.Strides == contiguousStrides(T.Shape); }

PyValue tensorAttribute(const PyTensor &T, const std::string &Attr) {
  if (Attr == "shape")
    return shapeTuple(T.Shape);
  if (Attr == "dtype")
    return torchDType(T.DType);
  if (Attr == "ndim")
    return PyValue::integer(static_cast<int64_t>(T.Shape.size()));
  if (Attr == "data")
    return PyValue::tensor(T);
  if (Attr == "is_cuda")
    return PyValue::boolean(true);
  if ((Attr == "T" || Attr == "mT") && T.Shape.size() >= 2)
    return transposed(T, -2, -1);
  return PyValue();
}

/// The shape `view`/`reshape` ask for, with one `-1` inferred.
static std::optional<std::vector<int64_t>> viewShape(const PyTensor &T, const PyList &Args) {
  PyList Dims = Args.size() == 1 && Args[0].isSequence() ? Args[0].elements() : Args;
  std::optional<int64_t> Total = numel(T.Shape);
  if (!Total)
    return std::nullopt;
  std::vector<int64_t> Out;
  int64_t Known = 1;
  std::optional<size_t> Infer;
  for (const PyValue &D : Dims) {
    std::optional<int64_t> N = intOf(D);
    if (!N || *N < -1)
      return std::nullopt;
    if (*N == -1) {
      if (Infer)
        return std::nullopt;
      Infer = Out.size();
    } else {
      Known *= *N;
    }
    Out.push_back(*N);
  }
  if (Infer) {
    if (Known == 0 || *Total % Known)
      return std::nullopt;
    Out[*Infer] = *Total / Known;
  } else if (Known != *Total) {
    return std::nullopt;
  }
  return Out;
}

PyValue tensorMethod(const PyTensor &T, const std::string &Name, const PyList &Args, const PyDict &Kwargs) {
  auto Dim = [&](size_t I) -> std::optional<size_t> {
    std::optional<int64_t> D = I < Args.size() ? intOf(Args[I]) : std::nullopt;
    int64_t N = static_cast<int64_t>(T.Shape.size());
    if (!D || *D < -N || *D >= N)
      return std::nullopt;
    return static_cast<size_t>(*D < 0 ? *D + N : *D);
  };
  if (Name == "stride" || Name == "size") {
    const std::vector<int64_t> &V = Name == "stride" ? T.Strides : T.Shape;
    if (Args.empty())
      return shapeTuple(V);
    std::optional<size_t> D = Dim(0);
    return D ? PyValue::integer(V[*D]) : PyValue();
  }
  if (Name == "numel" || Name == "nelement") {
    std::optional<int64_t> N = numel(T.Shape);
    return N ? PyValue::integer(*N) : PyValue();
  }
  if (Name == "dim" || Name == "ndimension")
    return PyValue::integer(static_cast<int64_t>(T.Shape.size()));
  if (Name == "element_size") {
    int B = elementBytes(T.DType);
    return B ? PyValue::integer(B) : PyValue();
  }
  if (Name == "is_contiguous")
    return PyValue::boolean(isContiguous(T));
  if (Name == "contiguous" || Name == "clone") {
    if (Name == "contiguous" && isContiguous(T))
      return PyValue::tensor(T); // the same tensor
    PyValue Out = withLayout(T, T.Shape, contiguousStrides(T.Shape));
    return copied(Out);
  }
  if (Name == "cuda" || Name == "cpu" || Name == "detach" || Name == "requires_grad_" || Name == "float" ||
      Name == "half" || Name == "bfloat16" || Name == "double" || Name == "int" || Name == "long" || Name == "bool") {
    PyTensor Out = T;
    if (Name == "float")
      Out.DType = "fp32";
    else if (Name == "half")
      Out.DType = "fp16";
    else if (Name == "bfloat16")
      Out.DType = "bf16";
    else if (Name == "double")
      Out.DType = "fp64";
    else if (Name == "int")
      Out.DType = "i32";
    else if (Name == "long")
      Out.DType = "i64";
    else if (Name == "bool")
      Out.DType = "i1";
    if (Out.DType != T.DType)
      Out.Extent = 0; // a converted copy
    return PyValue::tensor(std::move(Out));
  }
  // In-place fills keep the tensor and say how it is filled.
  if (Name == "normal_" || Name == "uniform_" || Name == "zero_" || Name == "fill_" || Name == "random_") {
    PyTensor Out = T;
    Out.Init = Name == "normal_"    ? PyTensor::Fill::Randn
               : Name == "uniform_" ? PyTensor::Fill::Rand
               : Name == "zero_"    ? PyTensor::Fill::Zeros
               : Name == "fill_"    ? PyTensor::Fill::Full
                                    : PyTensor::Fill::Unknown;
    return PyValue::tensor(std::move(Out));
  }
  if (Name == "to" || Name == "type") {
    PyTensor Out = T;
    const PyValue *D = kwarg(Kwargs, "dtype");
    for (const PyValue &A : Args)
      if (!tritonDType(A).empty())
        D = &A;
    if (D) {
      Out.DType = tritonDType(*D);
      if (Out.DType.empty())
        return PyValue();
      if (Out.DType != T.DType) {
        Out.Strides = contiguousStrides(Out.Shape); // a converted copy is contiguous
        Out.Extent = 0;
      }
    }
    return PyValue::tensor(std::move(Out));
  }
  if (Name == "view" || Name == "reshape") {
    if (Args.size() == 1 && !tritonDType(Args[0]).empty())
      return PyValue(); // view(dtype) reinterprets the bytes
    if (Name == "view" && !isContiguous(T))
      return PyValue();
    std::optional<std::vector<int64_t>> Shape = viewShape(T, Args);
    if (!Shape)
      return PyValue();
    std::vector<int64_t> Strides = contiguousStrides(*Shape);
    PyValue Out = withLayout(T, std::move(*Shape), std::move(Strides));
    return isContiguous(T) ? Out : copied(Out); // reshape copies what view cannot see
  }
  if (Name == "flatten" && Args.empty()) {
    std::optional<int64_t> N = numel(T.Shape);
    return N && isContiguous(T) ? withLayout(T, {*N}, {1}) : PyValue();
  }
  if (Name == "t" && T.Shape.size() <= 2)
    return T.Shape.size() < 2 ? PyValue::tensor(T) : transposed(T, 0, 1);
  if (Name == "transpose" && Args.size() == 2) {
    std::optional<size_t> A = Dim(0), B = Dim(1);
    return A && B ? transposed(T, static_cast<int64_t>(*A), static_cast<int64_t>(*B)) : PyValue();
  }
  if (Name == "unsqueeze" && Args.size() == 1) {
    std::optional<int64_t> D = intOf(Args[0]);
    int64_t N = static_cast<int64_t>(T.Shape.size());
    if (!D || *D < -N - 1 || *D > N)
      return PyValue();
    size_t At = static_cast<size_t>(*D < 0 ? *D + N + 1 : *D);
    std::vector<int64_t> Shape = T.Shape, Strides = T.Strides;
    int64_t S = At < Strides.size() ? Strides[At] * std::max<int64_t>(Shape[At], 1) : 1;
    Shape.insert(Shape.begin() + static_cast<std::ptrdiff_t>(At), 1);
    Strides.insert(Strides.begin() + static_cast<std::ptrdiff_t>(At), S);
    return withLayout(T, std::move(Shape), std::move(Strides));
  }
  if (Name == "new_empty" || Name == "new_zeros" || Name == "new_ones") {
    std::optional<std::vector<int64_t>> Shape = sizesOf(Args, Kwargs);
    if (!Shape)
      return PyValue();
    return make(std::move(*Shape), dtypeArg(Kwargs, T.DType), fillOf(std::string_view(Name).substr(4)),
                "new_" + Name.substr(4) + "(...)");
  }
  return PyValue();
}

int64_t reach(const PyTensor &T) {
  int64_t Span = 1;
  for (size_t I = 0; I < T.Shape.size(); ++I) {
    if (T.Shape[I] == 0)
      return T.Extent;
    Span += (T.Shape[I] - 1) * (I < T.Strides.size() ? T.Strides[I] : 0);
  }
  return std::max(Span, T.Extent);
}

PyValue tensorIndex(const PyTensor &T, const std::vector<TensorIndexPart> &Parts) {
  size_t Consumed = 0;
  for (const TensorIndexPart &P : Parts)
    Consumed += P.K == TensorIndexPart::Kind::Int || P.K == TensorIndexPart::Kind::Slice;
  if (Consumed > T.Shape.size() || std::count_if(Parts.begin(), Parts.end(), [](const TensorIndexPart &P) {
                                     return P.K == TensorIndexPart::Kind::Ellipsis;
                                   }) > 1)
    return PyValue();
  PyTensor Out = T;
  Out.Shape.clear();
  Out.Strides.clear();
  int64_t Offset = 0;
  size_t Dim = 0;
  for (const TensorIndexPart &P : Parts) {
    switch (P.K) {
    case TensorIndexPart::Kind::None:
      Out.Shape.push_back(1);
      Out.Strides.push_back(Dim < T.Strides.size() ? T.Strides[Dim] * std::max<int64_t>(T.Shape[Dim], 1) : 1);
      break;
    case TensorIndexPart::Kind::Ellipsis:
      for (size_t Keep = T.Shape.size() - Consumed; Keep > 0; --Keep, ++Dim) {
        Out.Shape.push_back(T.Shape[Dim]);
        Out.Strides.push_back(T.Strides[Dim]);
      }
      break;
    case TensorIndexPart::Kind::Int: {
      int64_t N = T.Shape[Dim], I = P.Start < 0 ? P.Start + N : P.Start;
      if (I < 0 || I >= N)
        return PyValue(); // IndexError in PyTorch
      Offset += I * T.Strides[Dim];
      ++Dim;
      break;
    }
    case TensorIndexPart::Kind::Slice: {
      // PyTorch takes positive steps only.
      int64_t Step = P.Step.value_or(1);
      if (Step <= 0)
        return PyValue();
      pybuiltins::SliceBounds B = pybuiltins::adjustSlice(T.Shape[Dim], P.Lower, P.Upper, Step);
      Offset += B.Length ? B.Start * T.Strides[Dim] : 0;
      Out.Shape.push_back(B.Length);
      Out.Strides.push_back(T.Strides[Dim] * Step);
      ++Dim;
      break;
    }
    }
  }
  for (; Dim < T.Shape.size(); ++Dim) {
    Out.Shape.push_back(T.Shape[Dim]);
    Out.Strides.push_back(T.Strides[Dim]);
  }
  Out.Extent = std::max<int64_t>(reach(T) - Offset, 0);
  return PyValue::tensor(std::move(Out));
}

static bool isFloatDType(const std::string &D) { return D.rfind("fp", 0) == 0 || D == "bf16"; }

/// PyTorch's promotion of two tensor dtypes: the wider float wins over any
/// integer; among floats or among integers, the wider one.
static std::string promote(const std::string &A, const std::string &B) {
  if (A == B)
    return A;
  bool FA = isFloatDType(A), FB = isFloatDType(B);
  if (FA != FB)
    return FA ? A : B;
  if (A == "i1")
    return B;
  if (B == "i1")
    return A;
  int BA = elementBytes(A), BB = elementBytes(B);
  if (BA != BB)
    return BA > BB ? A : B;
  return FA ? "fp32" : ""; // fp16 with bf16 gives fp32; mixed signedness is left unknown
}

PyValue elementwise(const PyValue &A, const PyValue &B, bool TrueDivision) {
  const PyTensor *TA = A.isTensor() ? &A.asTensor() : nullptr, *TB = B.isTensor() ? &B.asTensor() : nullptr;
  std::vector<int64_t> Shape;
  std::string DType;
  if (TA && TB) {
    size_t N = std::max(TA->Shape.size(), TB->Shape.size());
    Shape.assign(N, 1);
    for (size_t I = 0; I < N; ++I) {
      int64_t X = I + TA->Shape.size() >= N ? TA->Shape[I + TA->Shape.size() - N] : 1;
      int64_t Y = I + TB->Shape.size() >= N ? TB->Shape[I + TB->Shape.size() - N] : 1;
      if (X != Y && X != 1 && Y != 1)
        return PyValue();
      Shape[I] = X == 1 ? Y : X;
    }
    DType = promote(TA->DType, TB->DType);
  } else {
    const PyTensor &T = TA ? *TA : *TB;
    const PyValue &Scalar = TA ? B : A;
    if (!Scalar.isNumber())
      return PyValue();
    Shape = T.Shape;
    DType = T.DType;
    if (Scalar.isFloat() && !isFloatDType(DType))
      DType = "fp32";
  }
  if (TrueDivision && !isFloatDType(DType))
    DType = "fp32";
  return make(std::move(Shape), std::move(DType), PyTensor::Fill::Unknown, "");
}

} // namespace tessel::torchmodel
