//===- BuiltinDocs.cpp - documentation of the tl.* builtins ---------------===//
/// \file
/// The table itself. Signatures follow Triton 3.6's `core.py`, `standard.py`,
/// `math.py` and `random.py`; "constexpr" in a description means Triton needs
/// a compile-time value there and rejects a runtime tensor.
//===----------------------------------------------------------------------===//
#include "lsp/features/BuiltinDocs.h"

#include <algorithm>

namespace tessel::lsp {

using K = BuiltinKind;

static std::vector<BuiltinDoc> makeTable() {
  std::vector<BuiltinDoc> T = {
      // Program model and shape creation.
      {"program_id", K::Function, "program_id(axis)",
       "The index of the current program (block) along launch-grid `axis`. `axis` must be a constexpr 0, 1 or 2. "
       "Returns an `int32` scalar."},
      {"num_programs", K::Function, "num_programs(axis)",
       "The number of programs launched along grid `axis` (constexpr 0, 1 or 2). Returns an `int32` scalar."},
      {"arange", K::Function, "arange(start, end)",
       "A 1-D tile of consecutive `int32` values `[start, end)`. Both bounds are constexpr; `end - start` must be a "
       "power of two and `start < end`."},
      {"full", K::Function, "full(shape, value, dtype)",
       "A tile of constexpr `shape` filled with `value`, of constexpr `dtype`. Every dimension must be a power of "
       "two."},
      {"zeros", K::Function, "zeros(shape, dtype)",
       "A tile of constexpr `shape` and `dtype` filled with zeros; the usual way to start an accumulator."},
      {"zeros_like", K::Function, "zeros_like(input)", "A tile of zeros with the shape and dtype of `input`."},
      {"broadcast", K::Function, "broadcast(input, other)",
       "Broadcasts `input` and `other` against each other with the usual rules and returns both."},
      {"broadcast_to", K::Function, "broadcast_to(input, *shape)",
       "Broadcasts `input` to the constexpr `shape`. Dimensions of size 1 are stretched."},
      // Shape manipulation.
      {"reshape", K::Function, "reshape(input, *shape, can_reorder=False)",
       "Reshapes `input` to constexpr `shape` with the same number of elements. `can_reorder=True` lets the "
       "compiler permute elements for a cheaper layout."},
      {"view", K::Function, "view(input, *shape)",
       "Deprecated: a reshape that may reorder elements. Use `reshape` instead."},
      {"trans", K::Function, "trans(input, *dims)",
       "Permutes the dimensions of `input`; with no `dims`, swaps the two dimensions of a 2-D tile (also `x.T`)."},
      {"permute", K::Function, "permute(input, *dims)",
       "Permutes the dimensions of `input` in the constexpr order `dims`."},
      {"expand_dims", K::Function, "expand_dims(input, axis)",
       "Inserts a dimension of size 1 at constexpr `axis` (also written `x[:, None]`)."},
      {"cat", K::Function, "cat(input, other, can_reorder=False)",
       "Concatenates two 1-D tiles. Triton requires `can_reorder=True`: the element order is not preserved."},
      {"join", K::Function, "join(a, b)", "Stacks two tiles of the same shape along a new last dimension of size 2."},
      {"split", K::Function, "split(a)",
       "Splits a tile whose last dimension is 2 into two tiles; the inverse of `join`."},
      {"interleave", K::Function, "interleave(a, b)",
       "Interleaves the elements of two tiles along their last dimension."},
      {"ravel", K::Function, "ravel(x, can_reorder=False)", "Flattens `x` into a 1-D tile."},
      {"item", K::Function, "item(input)", "The single element of a one-element tile, as a scalar."},
      {"flip", K::Function, "flip(x, dim=None)", "Reverses `x` along dimension `dim` (the last one by default)."},
      // Casts.
      {"cast", K::Function, "cast(input, dtype, fp_downcast_rounding=None, bitcast=False)",
       "Converts `input` to constexpr `dtype` (also `x.to(dtype)`). `fp_downcast_rounding` is `'rtne'` or `'rtz'` "
       "for float narrowing; `bitcast=True` reinterprets bits between types of the same width."},
      // Matrix multiply.
      {"dot", K::Function,
       "dot(input, other, acc=None, input_precision=None, allow_tf32=None, max_num_imprecise_acc=None, "
       "out_dtype=float32)",
       "Matrix product of two 2-D (or batched 3-D) tiles, accumulated into `acc` when given. Every dimension must "
       "be at least 16. `input_precision` is `'tf32'`, `'tf32x3'` or `'ieee'` for fp32 inputs."},
      {"dot_scaled", K::Function,
       "dot_scaled(lhs, lhs_scale, lhs_format, rhs, rhs_scale, rhs_format, acc=None, fast_math=False, "
       "lhs_k_pack=True, rhs_k_pack=True, out_dtype=float32)",
       "Matrix product of block-scaled low-precision operands (microscaling formats such as `e2m1`, `e4m3`)."},
      // Memory.
      {"load", K::Function,
       "load(pointer, mask=None, other=None, boundary_check=(), padding_option='', cache_modifier='', "
       "eviction_policy='', volatile=False)",
       "Loads a tile from memory at `pointer` (a pointer or a tile of pointers). Lanes where `mask` is false are not "
       "read and take `other`; every lane that can run past the end of the buffer needs a mask. With a block "
       "pointer, use `boundary_check` instead."},
      {"store", K::Function,
       "store(pointer, value, mask=None, boundary_check=(), cache_modifier='', eviction_policy='')",
       "Stores `value` at `pointer`. Lanes where `mask` is false are not written; a store whose offsets can run past "
       "the end of the buffer needs a mask."},
      {"make_block_ptr", K::Function, "make_block_ptr(base, shape, strides, offsets, block_shape, order)",
       "A pointer to a block of a 2-D (or N-D) tensor: `block_shape` and `order` are constexpr. Load and store it "
       "with `boundary_check` to stay in bounds."},
      {"advance", K::Function, "advance(base, offsets)",
       "A block pointer moved by `offsets`. The result must be used: `advance` does not modify `base`."},
      {"make_tensor_descriptor", K::Function,
       "make_tensor_descriptor(base, shape, strides, block_shape, padding_option='zero')",
       "A tensor descriptor (TMA on Hopper) over a global tensor; load and store blocks with `desc.load(offsets)`."},
      {"load_tensor_descriptor", K::Function, "load_tensor_descriptor(desc, offsets)",
       "Loads the block at `offsets` through a tensor descriptor."},
      {"store_tensor_descriptor", K::Function, "store_tensor_descriptor(desc, offsets, value)",
       "Stores `value` as the block at `offsets` through a tensor descriptor."},
      // Atomics.
      {"atomic_add", K::Function, "atomic_add(pointer, val, mask=None, sem=None, scope=None)",
       "Atomically adds `val` at `pointer` and returns the old values. `sem` is `acquire`, `release`, `acq_rel` or "
       "`relaxed`; `scope` is `gpu`, `cta` or `sys`."},
      {"atomic_max", K::Function, "atomic_max(pointer, val, mask=None, sem=None, scope=None)",
       "Atomically stores the maximum of the old value and `val`; returns the old values."},
      {"atomic_min", K::Function, "atomic_min(pointer, val, mask=None, sem=None, scope=None)",
       "Atomically stores the minimum of the old value and `val`; returns the old values."},
      {"atomic_and", K::Function, "atomic_and(pointer, val, mask=None, sem=None, scope=None)",
       "Atomic bitwise and; returns the old values."},
      {"atomic_or", K::Function, "atomic_or(pointer, val, mask=None, sem=None, scope=None)",
       "Atomic bitwise or; returns the old values."},
      {"atomic_xor", K::Function, "atomic_xor(pointer, val, mask=None, sem=None, scope=None)",
       "Atomic bitwise exclusive or; returns the old values."},
      {"atomic_xchg", K::Function, "atomic_xchg(pointer, val, mask=None, sem=None, scope=None)",
       "Atomically replaces the value at `pointer` by `val`; returns the old values."},
      {"atomic_cas", K::Function, "atomic_cas(pointer, cmp, val, sem=None, scope=None)",
       "Compare-and-swap: stores `val` where the current value equals `cmp`; returns the old values."},
      // Elementwise.
      {"where", K::Function, "where(condition, x, y)",
       "Elementwise select: `x` where `condition` is true, `y` elsewhere. Both sides are evaluated: a `tl.load` "
       "inside `where` still needs its own mask."},
      {"minimum", K::Function, "minimum(x, y, propagate_nan=PropagateNan.NONE)", "Elementwise minimum of two tiles."},
      {"maximum", K::Function, "maximum(x, y, propagate_nan=PropagateNan.NONE)", "Elementwise maximum of two tiles."},
      {"clamp", K::Function, "clamp(x, min, max, propagate_nan=PropagateNan.NONE)",
       "Clamps `x` elementwise into `[min, max]`."},
      {"abs", K::Function, "abs(x)", "Elementwise absolute value."},
      {"exp", K::Function, "exp(x)", "Elementwise `e**x`. fp32 or fp64 only: cast half types first."},
      {"exp2", K::Function, "exp2(x)", "Elementwise `2**x`. fp32 or fp64 only."},
      {"log", K::Function, "log(x)", "Elementwise natural logarithm. fp32 or fp64 only."},
      {"log2", K::Function, "log2(x)", "Elementwise base-2 logarithm. fp32 or fp64 only."},
      {"sqrt", K::Function, "sqrt(x)", "Elementwise square root (fast approximation). fp32 or fp64 only."},
      {"sqrt_rn", K::Function, "sqrt_rn(x)", "Elementwise square root, rounded to nearest. fp32 only."},
      {"rsqrt", K::Function, "rsqrt(x)", "Elementwise reciprocal square root. fp32 or fp64 only."},
      {"sin", K::Function, "sin(x)", "Elementwise sine. fp32 or fp64 only."},
      {"cos", K::Function, "cos(x)", "Elementwise cosine. fp32 or fp64 only."},
      {"erf", K::Function, "erf(x)", "Elementwise error function. fp32 or fp64 only."},
      {"floor", K::Function, "floor(x)", "Elementwise floor. fp32 or fp64 only."},
      {"ceil", K::Function, "ceil(x)", "Elementwise ceiling. fp32 or fp64 only."},
      {"fma", K::Function, "fma(x, y, z)", "Elementwise fused multiply-add `x * y + z` with a single rounding."},
      {"fdiv", K::Function, "fdiv(x, y, ieee_rounding=False)",
       "Elementwise float division; fast approximate unless `ieee_rounding=True`."},
      {"div_rn", K::Function, "div_rn(x, y)", "Elementwise fp32 division rounded to nearest."},
      {"umulhi", K::Function, "umulhi(x, y)", "The high 32 (or 64) bits of the product of two integer tiles."},
      {"sigmoid", K::Function, "sigmoid(x)", "Elementwise `1 / (1 + exp(-x))`."},
      {"softmax", K::Function, "softmax(x, dim=None, keep_dims=False, ieee_rounding=False)",
       "Softmax of `x` along `dim` (the last dimension by default), computed in a numerically stable way."},
      {"cdiv", K::Function, "cdiv(x, div)", "Ceiling division `(x + div - 1) // div`."},
      // Reductions and scans.
      {"sum", K::Function, "sum(input, axis=None, keep_dims=False, dtype=None)",
       "Sum of `input` along `axis` (all elements when None). Integers narrower than 32 bits are summed as 32-bit."},
      {"max", K::Function,
       "max(input, axis=None, return_indices=False, return_indices_tie_break_left=True, keep_dims=False)",
       "Maximum of `input` along `axis`; with `return_indices=True` also the index of the maximum."},
      {"min", K::Function,
       "min(input, axis=None, return_indices=False, return_indices_tie_break_left=True, keep_dims=False)",
       "Minimum of `input` along `axis`; with `return_indices=True` also the index of the minimum."},
      {"argmax", K::Function, "argmax(input, axis, tie_break_left=True, keep_dims=False)",
       "Index of the maximum of `input` along `axis`."},
      {"argmin", K::Function, "argmin(input, axis, tie_break_left=True, keep_dims=False)",
       "Index of the minimum of `input` along `axis`."},
      {"xor_sum", K::Function, "xor_sum(input, axis=None, keep_dims=False)",
       "Bitwise exclusive-or reduction of an integer tile along `axis`."},
      {"reduce_or", K::Function, "reduce_or(input, axis, keep_dims=False)",
       "Bitwise or reduction of an integer tile along `axis`."},
      {"reduce", K::Function, "reduce(input, axis, combine_fn, keep_dims=False)",
       "Reduces `input` along constexpr `axis` with `combine_fn`, a `@triton.jit` function of two values."},
      {"associative_scan", K::Function, "associative_scan(input, axis, combine_fn, reverse=False)",
       "Inclusive scan of `input` along `axis` with an associative `@triton.jit` `combine_fn`."},
      {"cumsum", K::Function, "cumsum(input, axis=0, reverse=False, dtype=None)",
       "Inclusive cumulative sum along `axis`."},
      {"cumprod", K::Function, "cumprod(input, axis=0, reverse=False)", "Inclusive cumulative product along `axis`."},
      {"histogram", K::Function, "histogram(input, num_bins, mask=None)",
       "Counts the values of an integer tile into constexpr `num_bins` bins."},
      {"gather", K::Function, "gather(src, index, axis)", "Gathers elements of `src` along `axis` at `index`."},
      {"sort", K::Function, "sort(x, dim=None, descending=0)", "Sorts `x` along constexpr `dim` (bitonic sort)."},
      {"topk", K::Function, "topk(x, k, dim=None)", "The `k` largest values of `x` along `dim`."},
      {"map_elementwise", K::Function, "map_elementwise(scalar_fn, *args, pack=1)",
       "Applies a scalar `@triton.jit` function elementwise over tiles."},
      // Random numbers.
      {"rand", K::Function, "rand(seed, offset, n_rounds=10)",
       "Uniform random fp32 values in [0, 1) from Philox, one per element of `offset`; same seed and offset give "
       "the same values."},
      {"randn", K::Function, "randn(seed, offset, n_rounds=10)",
       "Standard normal random fp32 values from Philox (Box-Muller), one per element of `offset`."},
      {"randint", K::Function, "randint(seed, offset, n_rounds=10)",
       "Random `uint32` values from Philox, one per element of `offset`."},
      {"randint4x", K::Function, "randint4x(seed, offset, n_rounds=10)",
       "Four independent random `uint32` tiles from one Philox call."},
      {"rand4x", K::Function, "rand4x(seed, offset, n_rounds=10)", "Four independent uniform fp32 tiles."},
      {"randn4x", K::Function, "randn4x(seed, offset, n_rounds=10)", "Four independent standard normal fp32 tiles."},
      {"philox", K::Function, "philox(seed, c0, c1, c2, c3, n_rounds=10)",
       "The raw Philox 4x32 generator: four counters in, four random words out."},
      // Hints and debugging.
      {"multiple_of", K::Function, "multiple_of(input, values)",
       "Tells the compiler every element of `input` is a multiple of constexpr `values`; enables vectorized access."},
      {"max_contiguous", K::Function, "max_contiguous(input, values)",
       "Tells the compiler the first `values` elements of `input` are contiguous; enables vectorized access."},
      {"max_constancy", K::Function, "max_constancy(input, values)",
       "Tells the compiler runs of `values` elements of `input` are equal."},
      {"assume", K::Function, "assume(cond)", "Lets the compiler assume `cond` holds."},
      {"debug_barrier", K::Function, "debug_barrier()", "Synchronizes all threads of the program (a block barrier)."},
      {"static_assert", K::Function, "static_assert(cond, msg='')",
       "Fails compilation with `msg` when the constexpr `cond` is false."},
      {"static_print", K::Function, "static_print(*values)", "Prints constexpr values at compile time."},
      {"device_print", K::Function, "device_print(prefix, *args, hex=False)",
       "Prints values from the GPU at run time, prefixed by the constexpr string `prefix`."},
      {"device_assert", K::Function, "device_assert(cond, msg='', mask=None)",
       "Checks `cond` at run time (only when the kernel is compiled with debug enabled)."},
      {"inline_asm_elementwise", K::Function, "inline_asm_elementwise(asm, constraints, args, dtype, is_pure, pack)",
       "Runs inline PTX elementwise over `args`; every argument but `args` is constexpr."},
      // Loop iterators and types.
      {"range", K::Class,
       "range(arg1, arg2=None, step=None, num_stages=None, loop_unroll_factor=None, disallow_acc_multi_buffer=False, "
       "flatten=False, warp_specialize=False, disable_licm=False)",
       "A loop iterator like Python's `range` whose bounds may be runtime values, with compiler hints: "
       "`num_stages` pipelines the loop's loads, `loop_unroll_factor` unrolls it."},
      {"static_range", K::Class, "static_range(arg1, arg2=None, step=None)",
       "A loop over constexpr bounds that is fully unrolled at compile time."},
      {"constexpr", K::Class, "constexpr",
       "Marks a parameter (`BLOCK: tl.constexpr`) or global (`X = tl.constexpr(4)`) as a compile-time constant: "
       "each distinct value compiles a separate kernel, and it may be used where Triton needs a constant (shapes, "
       "`arange` bounds, `num_stages`)."},
      {"tensor", K::Class, "tensor", "The type of every tile value inside a kernel."},
      {"PropagateNan", K::Class, "PropagateNan", "How `minimum`/`maximum`/`clamp` treat NaN: `NONE` or `ALL`."},
  };
  static constexpr std::string_view DTypes[] = {"int1",       "int8",       "int16",      "int32",    "int64",
                                                "uint8",      "uint16",     "uint32",     "uint64",   "float16",
                                                "bfloat16",   "float32",    "float64",    "float8e5", "float8e5b16",
                                                "float8e4nv", "float8e4b8", "float8e4b15"};
  for (std::string_view D : DTypes)
    T.push_back({D, K::DType, D, "A Triton element type, usable as `dtype=` of `zeros`, `full`, `cast` and `x.to()`."});
  T.push_back({"TRITON_MAX_TENSOR_NUMEL", K::Constant, "TRITON_MAX_TENSOR_NUMEL",
               "The largest number of elements a tile may have (1048576)."});
  std::sort(T.begin(), T.end(), [](const BuiltinDoc &A, const BuiltinDoc &B) { return A.Name < B.Name; });
  return T;
}

const std::vector<BuiltinDoc> &builtinDocs() {
  static const std::vector<BuiltinDoc> Table = makeTable();
  return Table;
}

const BuiltinDoc *findBuiltin(std::string_view Name) {
  // `tl.math.exp` and `tl.extra.cuda...` spell math functions under a module.
  if (Name.substr(0, 5) == "math.")
    Name.remove_prefix(5);
  const auto &T = builtinDocs();
  auto It =
      std::lower_bound(T.begin(), T.end(), Name, [](const BuiltinDoc &D, std::string_view N) { return D.Name < N; });
  return It != T.end() && It->Name == Name ? &*It : nullptr;
}

} // namespace tessel::lsp
