//===- LaunchSpec.h - how a kernel is launched, as the user states it -*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// A launch spec says everything a run of a kernel needs that the kernel's
/// source does not: sizes (symbolic, with one or more concrete instances),
/// the dtype, shape and strides of every tensor argument, scalar values,
/// constexprs, the grid as expressions over those, and num_warps /
/// num_stages. `tessel run`, the editor's Run action and the bounds prover
/// all read the same spec. The full grammar is in docs/launch-spec.md; in
/// short, a comment next to the kernel:
///
///   # tessel: launch n=[1000, 4096] x=fp32[n] y=fp32[n] out=fp32[n]:out
///   #   grid=(cdiv(n, BLOCK_SIZE),) BLOCK_SIZE=1024 num_warps=4
///
/// or the same text after `--spec` on the command line.
///
/// Parsing never fails: a malformed spec yields the entries that did parse
/// plus Problems of kind LaunchSpec at the exact range of the offending
/// text (ranges are byte offsets into the file, or into the command-line
/// string for `--spec`). Instantiation evaluates the expressions once per
/// combination of multi-valued entries.
///
/// This file knows no sema types: dtypes stay Triton's canonical short names
/// ("fp32", "i64", "fp8e4nv"), which the consumers map to their own types.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_FRONTEND_LAUNCHSPEC_H
#define TESSEL_COMPILER_FRONTEND_LAUNCHSPEC_H

#include "compiler/support/Problem.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::launch {

/// An expression of the spec language: numbers, names, + - * / // %, unary
/// minus, parentheses, calls of cdiv / min / max / next_power_of_2, tuples.
struct SpecExpr {
  enum class Kind { Int, Float, Bool, Str, Name, Neg, Add, Sub, Mul, Div, FloorDiv, Mod, Call, Tuple };
  Kind K = Kind::Int;
  SourceRange Range;
  int64_t Int = 0;
  double Float = 0;
  std::string Name; ///< Name: the name; Call: the callee; Str: the string's text
  std::vector<SpecExpr> Args;
};

/// How an input tensor is filled before a run (outputs start unwritten).
/// How an input tensor is filled. Randint: integers drawn from [Low, High)
/// (`torch.randint(low, high, size)`); its bounds are facts the bounds
/// prover may use for values loaded from the tensor.
enum class TensorInit { Rand, Randn, Zeros, Ones, Arange, Randint };

struct TensorSpec {
  std::string Name;
  SourceRange Range; ///< the whole `name=dtype[...]` entry
  std::string DType; ///< canonical: "fp32", "bf16", "i32", "u8", "fp8e4nv"...
  SourceRange DTypeRange;
  std::vector<SpecExpr> Dims;
  std::vector<SpecExpr> Strides; ///< empty: contiguous row-major
  bool IsOutput = false;         ///< `:out`: unwritten at start; reads of unwritten elements are reported
  TensorInit Init = TensorInit::Rand;
  int64_t Low = 0, High = 0; ///< `:randint(LOW, HIGH)`
  /// `:desc(BM, BK)`: the kernel receives a host TensorDescriptor of this
  /// tensor with that block shape (Triton's `tensordesc<fp16[BM, BK]>`);
  /// `:nan` pads its out-of-bounds elements with NaN instead of zeros.
  std::vector<SpecExpr> DescBlock;
  bool PadNan = false;
};

/// A size, scalar argument or constexpr: one value or a list of instances.
struct ValueSpec {
  std::string Name;
  SourceRange Range;
  std::vector<SpecExpr> Instances; ///< one unless written as a list `[a, b, ...]`
  bool IsList = false;
};

struct LaunchSpec {
  SourceRange Range;  ///< the spec text
  std::string Kernel; ///< `kernel=NAME`; empty: the kernel the directive precedes
  std::vector<ValueSpec> Values;
  std::vector<TensorSpec> Tensors;
  std::vector<SpecExpr> Grid; ///< empty: (1,)
  std::optional<SpecExpr> NumWarps, NumStages, NumCtas;

  const ValueSpec *value(std::string_view Name) const;
  const TensorSpec *tensor(std::string_view Name) const;
};

struct ParsedLaunchSpec {
  LaunchSpec Spec;
  std::vector<Problem> Problems;
};

/// Parses spec text (what follows `launch` in a directive, or a `--spec`
/// argument). Text[0] sits at byte offset Base of the file; continuation
/// sequences (a backslash, a newline, then `#`) count as blanks, so the text
/// of a multi-line directive can be passed as it stands in the file.
ParsedLaunchSpec parseLaunchSpec(std::string_view Text, uint32_t Base = 0);

/// A `# tessel: launch ...` comment found in a file.
struct LaunchDirective {
  SourceRange Range; ///< from `#` to the end of the last continued line
  SourceRange Body;  ///< the spec text after `launch`
};

/// Every launch directive of a file, in order. A directive applies to the
/// first kernel defined below it unless it names one with `kernel=`.
std::vector<LaunchDirective> findLaunchDirectives(std::string_view Source);

/// One concrete launch: every expression evaluated.
struct ConcreteValue {
  std::string Name;
  bool IsFloat = false;
  bool IsBool = false;
  int64_t Int = 0;
  double Float = 0;
  bool IsStr = false; ///< a string constexpr (`ACTIVATION="leaky_relu"`)
  std::string Str;
};

struct ConcreteTensor {
  std::string Name;
  std::string DType;
  std::vector<int64_t> Shape;
  std::vector<int64_t> Strides; ///< in elements
  int64_t StorageElements = 0;  ///< 1 + the largest offset any index reaches (0 when empty)
  bool IsOutput = false;
  TensorInit Init = TensorInit::Rand;
  int64_t Low = 0, High = 0; ///< Randint: values in [Low, High)
  /// Non-empty: a host TensorDescriptor of the tensor with this block shape
  /// (TensorSpec::DescBlock); its expanded parameters are in the launch's
  /// Values (addDescriptorValues).
  std::vector<int64_t> DescBlock;
  bool PadNan = false;
};

struct ConcreteLaunch {
  std::string Label; ///< the multi-valued entries of this instance: "n=1000, BLOCK=128"; "" when none
  std::vector<ConcreteValue> Values;
  std::vector<ConcreteTensor> Tensors;
  std::array<int64_t, 3> Grid = {1, 1, 1};
  int64_t NumWarps = 4, NumStages = 3, NumCtas = 1;

  const ConcreteValue *value(std::string_view Name) const;
};

/// The kernel parameters a host TensorDescriptor argument expands to, in
/// Triton's order when its descriptors are not lowered to TMA
/// (backends/driver.py `_expand_descriptor` without tensordesc metadata, with
/// RewriteTensorDescriptorToPointer's names): NAME (the base pointer),
/// NAME.shape.D and NAME.stride.D (i64), NAME.padding and
/// NAME.roundF32ToTF32 (i1), then the shape again as i32 (NAME.shape_i32.D)
/// and the strides as i64 (NAME.stride_i64.D), which `desc.shape` and
/// `desc.strides` read.
struct DescriptorParam {
  std::string Name;
  enum class Kind { Base, Shape, Stride, Padding, RoundF32ToTF32, ShapeI32, StrideI64 } K = Kind::Base;
  size_t Dim = 0;
};
std::vector<DescriptorParam> descriptorParams(const std::string &Name, size_t Rank);

/// Adds to L.Values the scalar parameters of each descriptor tensor of L
/// (those of descriptorParams but the base), unless already there.
void addDescriptorValues(ConcreteLaunch &L);

/// 1 + the largest element offset a tensor of Shape and Strides (in
/// elements) reaches; 0 when a dimension is 0; -1 when it does not fit in
/// 64 bits.
int64_t storageElements(const std::vector<int64_t> &Shape, const std::vector<int64_t> &Strides);

/// One launch per combination of the list-valued entries (in the order the
/// entries appear, the last varying fastest), capped at MaxInstances.
/// Evaluation problems (unknown names, cycles, division by zero, negative
/// sizes) are reported at the expression's range and drop that instance.
std::vector<ConcreteLaunch> instantiate(const LaunchSpec &Spec, ProblemSink &Problems, size_t MaxInstances = 64);

/// Canonical Triton short name of a dtype spelling ("f32", "float32",
/// "fp32" -> "fp32"; "bool" -> "i1"), or empty when unknown.
std::string canonicalDType(std::string_view Spelling);

} // namespace tessel::launch

#endif // TESSEL_COMPILER_FRONTEND_LAUNCHSPEC_H
