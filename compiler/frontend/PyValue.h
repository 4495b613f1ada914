//===- PyValue.h - compile-time Python values -------------------*- C++ -*-===//
/// \file
/// The values of tessel's limited Python evaluation: module-level constants,
/// autotune configs, launch-site keywords, and (inside sema) the constexpr
/// part of kernel values. Anything the evaluator cannot know is Unknown, and
/// every consumer treats Unknown as "stay silent", never as a guess.
///
/// Values are immutable and cheap to copy (aggregates share their elements).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_FRONTEND_PYVALUE_H
#define TESSEL_COMPILER_FRONTEND_PYVALUE_H

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tessel {
namespace ast {
class FunctionDefStmt;
class LambdaExpr;
} // namespace ast

class PyValue;
struct PyDescriptor;
using PyList = std::vector<PyValue>;
using PyDict = std::vector<std::pair<PyValue, PyValue>>; ///< insertion order, as in Python

/// A host tensor as the host code in a file builds it (`torch.randn(M, N)`,
/// `torch.empty_like(x)`, `x.view(-1)`): what a launch needs to know of it,
/// never its contents.
struct PyTensor {
  /// How the host code filled it; Empty is an output the kernel writes.
  enum class Fill { Empty, Zeros, Ones, Rand, Randn, Arange, Full, Randint, Unknown };
  std::vector<int64_t> Shape;
  std::vector<int64_t> Strides; ///< in elements
  std::string DType;            ///< Triton's short name: "fp32", "fp16", "i64"...
  Fill Init = Fill::Unknown;
  int64_t Low = 0, High = 0; ///< Randint: values in [Low, High)
  /// Elements from the first element to the end of the allocation, for a
  /// view into a larger tensor (`base[:, :100]` reaches base's last element);
  /// 0: the span of Shape and Strides.
  int64_t Extent = 0;
  /// Where it was made, for the assumptions a derived launch lists:
  /// "torch.randn(1823, 781)".
  std::string Origin;
};

/// One entry of a host tensor's subscript: `i`, `lo:hi:step`, `None`, `...`.
struct TensorIndexPart {
  enum class Kind { Int, Slice, None, Ellipsis };
  Kind K = Kind::Int;
  int64_t Start = 0;                         ///< Int: the index (negative counts from the end)
  std::optional<int64_t> Lower, Upper, Step; ///< Slice: absent bounds take the defaults
};

/// A `triton.Config(...)` object.
struct PyConfig {
  PyDict Kwargs; ///< constexpr name -> value
  int64_t NumWarps = 4;
  int64_t NumStages = 3;
  int64_t NumCtas = 1;
  std::optional<int64_t> MaxNReg;
  /// `pre_hook=`: a function of the launch's arguments the autotuner calls
  /// before running this config (Function or Lambda; Unknown when none).
  std::shared_ptr<const PyValue> PreHook;
};

class PyValue {
public:
  enum class Kind {
    Unknown,
    None,
    Bool,
    Int,
    Float,
    Str,
    Tuple,
    List,
    Dict,
    /// A reference to something named by a qualified path: a module
    /// ("triton.language"), a library function ("triton.cdiv"), a dtype
    /// ("triton.language.float16").
    Qualified,
    Function, ///< a `def` in the user's file
    Lambda,
    Config,
    Tensor,     ///< a host tensor (PyTensor)
    Descriptor, ///< a host TensorDescriptor (PyDescriptor), shared by reference
  };

  PyValue() = default;
  static PyValue none() { return PyValue(Kind::None); }
  static PyValue boolean(bool B) {
    PyValue V(Kind::Bool);
    V.I = B;
    return V;
  }
  static PyValue integer(int64_t X) {
    PyValue V(Kind::Int);
    V.I = X;
    return V;
  }
  static PyValue floating(double X) {
    PyValue V(Kind::Float);
    V.F = X;
    return V;
  }
  static PyValue string(std::string S) {
    PyValue V(Kind::Str);
    V.S = std::make_shared<std::string>(std::move(S));
    return V;
  }
  static PyValue tuple(PyList Elts) { return aggregate(Kind::Tuple, std::move(Elts)); }
  static PyValue list(PyList Elts) { return aggregate(Kind::List, std::move(Elts)); }
  static PyValue dict(PyDict Items) {
    PyValue V(Kind::Dict);
    for (const auto &KV : Items)
      V.Nesting = std::max({V.Nesting, KV.first.Nesting + 1, KV.second.Nesting + 1});
    V.D = std::make_shared<PyDict>(std::move(Items));
    return V;
  }
  static PyValue qualified(std::string Path) {
    PyValue V(Kind::Qualified);
    V.S = std::make_shared<std::string>(std::move(Path));
    return V;
  }
  static PyValue function(const ast::FunctionDefStmt *Fn) {
    PyValue V(Kind::Function);
    V.Fn = Fn;
    return V;
  }
  static PyValue lambda(const ast::LambdaExpr *L) {
    PyValue V(Kind::Lambda);
    V.Lam = L;
    return V;
  }
  static PyValue config(PyConfig C) {
    PyValue V(Kind::Config);
    V.C = std::make_shared<PyConfig>(std::move(C));
    return V;
  }

  static PyValue tensor(PyTensor T) {
    PyValue V(Kind::Tensor);
    V.T = std::make_shared<PyTensor>(std::move(T));
    return V;
  }
  static PyValue descriptor(std::shared_ptr<PyDescriptor> D) {
    PyValue V(Kind::Descriptor);
    V.Desc = std::move(D);
    return V;
  }

  Kind kind() const { return K; }
  bool isUnknown() const { return K == Kind::Unknown; }
  bool isKnown() const { return K != Kind::Unknown; }
  bool isNone() const { return K == Kind::None; }
  bool isBool() const { return K == Kind::Bool; }
  bool isInt() const { return K == Kind::Int; }
  /// Python treats bool as an int subclass; so does this.
  bool isIntLike() const { return K == Kind::Int || K == Kind::Bool; }
  bool isFloat() const { return K == Kind::Float; }
  bool isNumber() const { return isIntLike() || isFloat(); }
  bool isStr() const { return K == Kind::Str; }
  bool isSequence() const { return K == Kind::Tuple || K == Kind::List; }

  bool asBool() const { return I != 0; }
  int64_t asInt() const { return I; }
  double asFloat() const { return K == Kind::Float ? F : static_cast<double>(I); }
  const std::string &asStr() const { return *S; }
  const std::string &qualifiedPath() const { return *S; }
  const PyList &elements() const { return *L; }
  const PyDict &items() const { return *D; }
  const ast::FunctionDefStmt *asFunction() const { return Fn; }
  const ast::LambdaExpr *asLambda() const { return Lam; }
  const PyConfig &asConfig() const { return *C; }
  bool isTensor() const { return K == Kind::Tensor; }
  const PyTensor &asTensor() const { return *T; }
  bool isDescriptor() const { return K == Kind::Descriptor; }
  /// Mutable: the one value with identity (PyDescriptor).
  PyDescriptor &asDescriptor() const { return *Desc; }

  /// How deeply aggregates nest inside this value (0 for scalars). repr,
  /// equals and destruction recurse this deep, so producers of values from
  /// user code (ConstEval) refuse to build very deep ones.
  int nesting() const { return Nesting; }

  /// Python truthiness; nullopt for Unknown and for values whose truth
  /// cannot be decided here.
  std::optional<bool> truthy() const;
  /// Python `repr`-like text: `1024`, `True`, `'tf32'`, `(16, 32)`, `triton.language.float16`.
  std::string repr() const;
  /// Python `==` for known values; nullopt when either side is Unknown.
  std::optional<bool> equals(const PyValue &O) const;
  /// Dict lookup by key (`==`), or nullptr.
  const PyValue *lookup(const PyValue &Key) const;
  /// Does this value, or one nested in it, name a function or lambda of the
  /// user's file (a pointer into one version's tree)? Such a value cannot be
  /// carried over to the next version of the file.
  bool refersToTree() const;

private:
  explicit PyValue(Kind K) : K(K) {}
  static PyValue aggregate(Kind K, PyList Elts) {
    PyValue V(K);
    for (const PyValue &E : Elts)
      V.Nesting = std::max(V.Nesting, E.Nesting + 1);
    V.L = std::make_shared<PyList>(std::move(Elts));
    return V;
  }

  Kind K = Kind::Unknown;
  int Nesting = 0;
  int64_t I = 0;
  double F = 0;
  std::shared_ptr<const std::string> S;
  std::shared_ptr<const PyList> L;
  std::shared_ptr<const PyDict> D;
  std::shared_ptr<const PyConfig> C;
  std::shared_ptr<const PyTensor> T;
  std::shared_ptr<PyDescriptor> Desc;
  const ast::FunctionDefStmt *Fn = nullptr;
  const ast::LambdaExpr *Lam = nullptr;
};

/// A host `triton.tools.tensor_descriptor.TensorDescriptor` (`from_tensor(t,
/// block_shape=[64, 64])`): a tensor seen through a shape and strides of
/// its own, and the block each access copies. Unlike every other value it
/// is a Python object with identity, shared rather than copied: an autotune
/// pre_hook's `nargs["a_desc"].block_shape = [BM, BK]` changes the
/// descriptor the launch then passes, as in Python (ConstEval's host mode
/// is its only writer).
struct PyDescriptor {
  PyTensor Base;
  PyValue Shape, Strides, BlockShape; ///< sequences of ints, or Unknown
  std::string Padding = "zero";       ///< "zero" or "nan"
};

/// Python's `repr` of a str (`'it\'s'` -> `"it's"`) and of a float
/// (`1e-06`, `100.0`, `inf`), shared by PyValue::repr and the AST dump.
std::string reprString(const std::string &S);
std::string reprFloat(double X);

} // namespace tessel

#endif // TESSEL_COMPILER_FRONTEND_PYVALUE_H
