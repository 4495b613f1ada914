//===- TensorDescriptorModel.cpp - host TensorDescriptors -----------------===//
#include "compiler/host/TensorDescriptorModel.h"

#include "compiler/frontend/PyBuiltins.h"

#include <memory>

namespace tessel::descriptormodel {

static constexpr const char *Class = "triton.tools.tensor_descriptor.TensorDescriptor";

std::optional<std::vector<int64_t>> intsOf(const PyValue &V) {
  if (!V.isSequence())
    return std::nullopt;
  std::vector<int64_t> Out;
  for (const PyValue &E : V.elements()) {
    if (!E.isIntLike())
      return std::nullopt;
    Out.push_back(E.asInt());
  }
  return Out;
}

/// A field as the model keeps it: a list of ints, or Unknown.
static PyValue intList(const PyValue &V) {
  std::optional<std::vector<int64_t>> Ints = intsOf(V);
  if (!Ints)
    return PyValue();
  PyList L;
  for (int64_t I : *Ints)
    L.push_back(PyValue::integer(I));
  return PyValue::list(std::move(L));
}

/// Argument I by position, else by keyword, else Default (null: required).
static const PyValue *arg(const PyList &Args, const PyDict &Kwargs, size_t I, const char *Name,
                          const PyValue *Default = nullptr) {
  if (I < Args.size())
    return &Args[I];
  if (const PyValue *K = pybuiltins::kwarg(Kwargs, Name))
    return K;
  return Default;
}

static std::optional<PyValue> make(const PyValue &Base, const PyValue &Shape, const PyValue &Strides,
                                   const PyValue &Block, const PyValue &Padding) {
  if (!Base.isTensor())
    return PyValue();
  auto D = std::make_shared<PyDescriptor>();
  D->Base = Base.asTensor();
  D->Shape = intList(Shape);
  D->Strides = intList(Strides);
  D->BlockShape = intList(Block);
  if (Padding.isStr())
    D->Padding = Padding.asStr();
  else if (!Padding.isNone())
    return PyValue();
  std::optional<std::vector<int64_t>> S = intsOf(D->Shape), St = intsOf(D->Strides), B = intsOf(D->BlockShape);
  if (S && B && S->size() != B->size() && D->Base.DType.empty() && !B->empty()) {
    // A tensor of a made-up call (no dtype): its rank is tessel's guess, the
    // block's is the code's. Seen with the block's rank: the trailing sizes.
    std::vector<int64_t> Shape(B->size(), 1);
    for (size_t I = 0; I < B->size() && I < S->size(); ++I)
      Shape[B->size() - 1 - I] = (*S)[S->size() - 1 - I];
    PyTensor Re = D->Base;
    Re.Shape = Shape;
    Re.Strides.assign(Shape.size(), 1);
    for (size_t I = Shape.size(); I-- > 1;)
      Re.Strides[I - 1] = Re.Strides[I] * Shape[I];
    Re.Extent = 0;
    D->Base = Re;
    PyList L, Ls;
    for (size_t I = 0; I < Shape.size(); ++I) {
      L.push_back(PyValue::integer(Re.Shape[I]));
      Ls.push_back(PyValue::integer(Re.Strides[I]));
    }
    D->Shape = PyValue::list(std::move(L));
    D->Strides = PyValue::list(std::move(Ls));
    S = Re.Shape;
    St = Re.Strides;
  }
  // __post_init__'s assertions: a failing one raises, which ends the path.
  if ((S && St && S->size() != St->size()) || (S && B && S->size() != B->size()) ||
      (S && (S->empty() || S->size() > 5)))
    return PyValue();
  if ((St && !St->empty() && St->back() != 1) || (D->Padding != "zero" && D->Padding != "nan"))
    return PyValue();
  return PyValue::descriptor(std::move(D));
}

std::optional<PyValue> callDescriptor(const std::string &Path, const PyList &Args, const PyDict &Kwargs) {
  static const PyValue Zero = PyValue::string("zero");
  if (Path == std::string(Class) + ".from_tensor") {
    const PyValue *T = arg(Args, Kwargs, 0, "tensor"), *Block = arg(Args, Kwargs, 1, "block_shape");
    const PyValue *Padding = arg(Args, Kwargs, 2, "padding", &Zero);
    if (!T || !Block)
      return PyValue();
    if (!T->isTensor())
      return PyValue();
    const PyTensor &X = T->asTensor();
    PyList Shape, Strides;
    for (int64_t N : X.Shape)
      Shape.push_back(PyValue::integer(N));
    for (int64_t N : X.Strides)
      Strides.push_back(PyValue::integer(N));
    return make(*T, PyValue::list(std::move(Shape)), PyValue::list(std::move(Strides)), *Block, *Padding);
  }
  if (Path == Class) {
    const PyValue *Base = arg(Args, Kwargs, 0, "base"), *Shape = arg(Args, Kwargs, 1, "shape");
    const PyValue *Strides = arg(Args, Kwargs, 2, "strides"), *Block = arg(Args, Kwargs, 3, "block_shape");
    const PyValue *Padding = arg(Args, Kwargs, 4, "padding", &Zero);
    if (!Base || !Shape || !Strides || !Block)
      return PyValue();
    return make(*Base, *Shape, *Strides, *Block, *Padding);
  }
  return std::nullopt;
}

std::optional<PyValue> descriptorAttribute(const PyDescriptor &D, const std::string &Attr) {
  if (Attr == "base")
    return PyValue::tensor(D.Base);
  if (Attr == "shape")
    return D.Shape;
  if (Attr == "strides")
    return D.Strides;
  if (Attr == "block_shape")
    return D.BlockShape;
  if (Attr == "padding")
    return PyValue::string(D.Padding);
  return std::nullopt;
}

bool setDescriptorAttribute(PyDescriptor &D, const std::string &Attr, const PyValue &V) {
  PyValue *Field = Attr == "shape"         ? &D.Shape
                   : Attr == "strides"     ? &D.Strides
                   : Attr == "block_shape" ? &D.BlockShape
                                           : nullptr;
  if (Field) {
    *Field = intList(V);
    return true;
  }
  if (Attr == "padding" && V.isStr()) {
    D.Padding = V.asStr();
    return true;
  }
  return false;
}

} // namespace tessel::descriptormodel
