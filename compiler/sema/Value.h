//===- Value.h - what an expression evaluates to inside a kernel -*- C++ -*-===//
/// \file
/// Triton's CodeGenerator turns every kernel expression into a `tensor` (a
/// scalar or a block with a type), a `constexpr` (a Python value known while
/// compiling), a tuple of those, or a reference to something callable. tessel
/// mirrors that: a Value is one of those kinds, plus Poison for an expression
/// that already produced an error (every check on Poison stays silent, so one
/// mistake gives one diagnostic, not a cascade).
///
/// Tensors also carry IndexFacts: how their elements vary along each axis,
/// which the masking checks read (see AxisIndex in Analysis.h).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SEMA_VALUE_H
#define TESSEL_COMPILER_SEMA_VALUE_H

#include "compiler/frontend/PyValue.h"
#include "compiler/sema/Analysis.h"
#include "compiler/types/Types.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessel::ir {
class Value;
}

namespace tessel::sema {

/// How a tensor's elements vary, for the structural masking check.
struct IndexFacts {
  /// One entry per axis of the tensor (empty for scalars).
  std::vector<AxisIndex> Axes;
  /// Parallel to Axes: for a Sliding axis, what makes it slide.
  std::vector<std::string> AxisCauses;
  /// A scalar derived from program_id or a loop variable.
  bool DynScalar = false;
  /// What makes it dynamic: "program_id(0)", "the loop variable `k`".
  std::string Cause;
  /// A DynScalar that moves by one (the index of `for i in range(n)`): added
  /// to an arange it is a window position, not a block start, and it slides
  /// only once scaled by a block (`i * BLOCK`).
  bool UnitStep = false;
  /// A DynScalar multiplied by a known constexpr (`pid * 64` -> 64); 0 when
  /// unknown. `pid * HQ + tl.arange(0, G)` with HQ > G picks one of disjoint
  /// windows (a row, a group) rather than sliding a block past the end.
  int64_t Scale = 0;
  /// A DynScalar reduced modulo or clamped (`pid % group_size_m`): bounded,
  /// so alone it slides nothing, but it still differs from program to
  /// program, so added to a DynScalar whose windows are wider than one
  /// (`first_pid_m + pid % group_size_m`, grouped ordering) it fills the
  /// gaps between them: the sum's scale is then unknown, not the windows'.
  bool WrappedDyn = false;
  /// For boolean tensors built from comparisons: per axis, whether some
  /// comparison term bounds an index varying along it.
  std::vector<bool> MaskBounds;
  /// For booleans built from comparisons: the dynamic scalars, by Cause, that
  /// some term compares (`s_idx < S`). A window they select, `s_idx * W +
  /// tl.arange(0, W)`, is bounded along the axis they slide, as a mask term
  /// comparing the offsets would bound it (and as `if pid_m * BLOCK_M >=
  /// bound: return` bounds the program id it scales).
  std::vector<std::string> BoundedScalars;
  /// A scalar kernel parameter as passed, unchanged: its name.
  std::string Param;
  /// `row * P` of a program-dependent row and a parameter P (flash
  /// attention's `off_hb * seqlen_q_rounded`), or a pointer offset by one:
  /// P. A window added to it slides within a row of P elements.
  std::string Pitch;
  /// Parallel to Axes (may be shorter: ""): for a Sliding axis whose window
  /// sits at `row * P`, P. The host may pad P to whole blocks
  /// (Specialization::PaddedRowPitches), and then the window never leaves
  /// its row.
  std::vector<std::string> AxisPitches;

  /// Gives Axes (and AxisCauses) Rank entries, new ones constant.
  void resize(size_t Rank) {
    Axes.resize(Rank, AxisIndex::None);
    AxisCauses.resize(Rank);
    AxisPitches.resize(Rank);
  }
  void setAxis(size_t I, AxisIndex A, std::string Why = {}) {
    Axes[I] = A;
    AxisCauses[I] = std::move(Why);
    if (I < AxisPitches.size())
      AxisPitches[I].clear();
  }
  const std::string &axisPitch(size_t I) const {
    static const std::string None;
    return I < AxisPitches.size() ? AxisPitches[I] : None;
  }
};

struct Value {
  enum class Kind {
    Poison,    ///< an error was already reported for this expression
    Tensor,    ///< scalar or block with a type
    Constexpr, ///< a compile-time Python value (maybe Unknown: an unknown constexpr)
    Tuple,     ///< a tuple of Values (returned by helpers, tl.split...)
    Method,    ///< `x.sum`, `x.to`: a tensor member function bound to Self
  };

  Kind K = Kind::Poison;
  TileType Type; ///< Tensor
  PyValue Const; ///< Constexpr
  /// A Constexpr whose value is unknown but is a Python int (a parameter that
  /// sizes a tile, ParamKinds::Sizes): it types as a Python int would
  /// (int32 beside an int32 tensor), so hover and hints say `[BLOCK] int32`
  /// instead of `?` where the dtype does not depend on the value.
  bool IntLike = false;
  std::vector<Value> Elts; ///< Tuple
  std::shared_ptr<const Value> Self;
  std::string MethodName; ///< Method
  IndexFacts Facts;       ///< Tensor
  /// A block pointer from tl.make_block_ptr / tl.advance: Type is the scalar
  /// pointer and BlockShape the shape a load through it produces.
  bool IsBlockPtr = false;
  std::vector<int64_t> BlockShape;
  /// A tensor descriptor (tl.make_tensor_descriptor): also IsBlockPtr, with
  /// BlockShape its block, but without offsets of its own: each desc.load /
  /// desc.store names them, and every dimension is bounds-checked (padding
  /// with zeros, or NaNs where PadNan).
  bool IsDescriptor = false;
  bool PadNan = false;
  /// Per dimension of Type.Shape, the constexpr that sizes it where its
  /// value is unknown ("BLOCK_M"), else "": what hover and inlay hints show
  /// instead of `?`. Valid only with as many entries as Type.Shape has (an
  /// op that changes the shape without saying how drops them).
  std::vector<std::string> DimNames;
  /// A tl.load's result, as the load produced it (any operation on it gives
  /// a new Value without the flag): read by tl.dot's DotFact.
  bool Loaded = false;
  /// While lowering (the checker has an ir::Builder): the tile IR value a
  /// Tensor evaluates to, of exactly Type (a block pointer's base). Null in a
  /// diagnostics-only run.
  ir::Value *IR = nullptr;
  /// While lowering a block pointer: its shape and strides (i64 scalars, one
  /// per dimension each), then its offsets (i32), as tl.make_block_ptr
  /// converts them; a descriptor's stop after the strides.
  std::vector<ir::Value *> BlockParts;
  /// While lowering a host TensorDescriptor parameter: its `padding` (i1,
  /// NaN over zeros), then the shape (i32) and strides (i64) that
  /// `desc.shape` / `desc.strides` read (launch::descriptorParams). Empty
  /// for a tl.make_tensor_descriptor, whose padding is a constexpr.
  std::vector<ir::Value *> HostDescParts;
  /// While lowering a tl.make_tensor_descriptor: the ir::MakeTensorDescOp
  /// that its accesses name (ir::DescriptorAccess).
  ir::Value *DeviceDesc = nullptr;

  static Value poison() { return Value(); }
  static Value tensor(TileType T, IndexFacts F = {}, ir::Value *IR = nullptr) {
    Value V;
    V.K = Kind::Tensor;
    V.Type = std::move(T);
    V.Facts = std::move(F);
    V.Facts.resize(V.Type.Shape.size());
    V.IR = IR;
    return V;
  }
  static Value constant(PyValue P) {
    Value V;
    V.K = Kind::Constexpr;
    V.Const = std::move(P);
    return V;
  }
  static Value tuple(std::vector<Value> Elts) {
    Value V;
    V.K = Kind::Tuple;
    V.Elts = std::move(Elts);
    return V;
  }
  static Value method(Value Self, std::string Name) {
    Value V;
    V.K = Kind::Method;
    V.Self = std::make_shared<const Value>(std::move(Self));
    V.MethodName = std::move(Name);
    return V;
  }

  bool isPoison() const { return K == Kind::Poison; }
  bool isTensor() const { return K == Kind::Tensor; }
  bool isConstexpr() const { return K == Kind::Constexpr; }
  bool isBlock() const { return isTensor() && Type.isBlock(); }
  /// A constexpr whose value is known.
  bool isKnownConstexpr() const { return isConstexpr() && Const.isKnown(); }
  /// A constexpr naming a triton.language dtype.
  bool isDtype() const;
  /// That dtype's scalar kind; nullopt for anything else.
  std::optional<ScalarKind> dtypeKind() const;
  /// Short description for messages: the Triton type, or `constexpr[16]`.
  std::string describe() const;
};

} // namespace tessel::sema

#endif // TESSEL_COMPILER_SEMA_VALUE_H
