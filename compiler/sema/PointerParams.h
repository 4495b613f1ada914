//===- PointerParams.h - which kernel parameters are pointers ---*- C++ -*-===//
/// \file
/// A kernel's unannotated parameters receive tensors (pointers) or numbers
/// from the host, which the source does not say. Triton knows from the launch
/// arguments; tessel infers pointers from use: a parameter is a pointer when
/// it is the base (leftmost `+` operand, through local assignments) of a
/// tl.load / tl.store / atomic / make_block_ptr pointer argument, or when its
/// name says so (`x_ptr`, `OutPtr`). The element type stays unknown. A
/// parameter that takes part in offsets or loop bounds is an integer
/// (Triton types it int32 unless the host passes a larger value).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_SEMA_POINTERPARAMS_H
#define TESSEL_COMPILER_SEMA_POINTERPARAMS_H

#include "compiler/frontend/Discovery.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>

namespace tessel::sema {

std::set<std::string> inferPointerParams(const ast::FunctionDefStmt &Fn, const ModuleInfo &Info);

/// Parameters used as integers: inside the offset part of a pointer argument
/// (`x_ptr + row * stride`), or as a bound of range / tl.range /
/// tl.static_range. Pointers are never in this set.
std::set<std::string> inferIntParams(const ast::FunctionDefStmt &Fn, const ModuleInfo &Info,
                                     const std::set<std::string> &Pointers);

/// Both of the above: they depend on the kernel only, so a kernel checked
/// under several specializations infers them once.
struct ParamKinds {
  std::set<std::string> Pointers, Ints;
  /// Parameters used as tensor descriptors (`desc.load([m, k])`): a host
  /// TensorDescriptor or a tl.make_tensor_descriptor passed on.
  std::set<std::string> Descriptors;
  /// Of those, the rank the offsets of an access give (`desc.load([b, m,
  /// k])` is 3), where one is written as a list or tuple.
  std::map<std::string, size_t> DescriptorRanks;
  /// Parameters that size a tile (`tl.arange(0, BLOCK)`, `tl.zeros((BM,
  /// BN), ...)`): Python ints whatever their value.
  std::set<std::string> Sizes;
};
ParamKinds inferParamKinds(const ast::FunctionDefStmt &Fn, const ModuleInfo &Info);

/// Each argument of a call of the @jit helper Callee with the parameter it
/// binds: the positional ones up to the first `*args`, then the keywords.
void forEachBoundArgument(const ast::CallExpr &C, const ast::FunctionDefStmt &Callee,
                          const std::function<void(const std::string &Param, const ast::Expr *Arg)> &F);

/// A member of tl.tensor_descriptor: its methods (`load`, `store`, the
/// atomics, `gather`, `scatter`) and attributes (`block_shape`, `shape`,
/// `strides`). What marks a parameter as a descriptor, and what sema
/// accepts on one.
bool isTensorDescriptorMember(std::string_view Name);

} // namespace tessel::sema

#endif // TESSEL_COMPILER_SEMA_POINTERPARAMS_H
