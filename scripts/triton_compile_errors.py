#!/usr/bin/env python3
"""Triton's own compile-error tests, case by case, with the verdict and wording of the installed Triton.

tests/unit/sema/TritonCompileErrorsTest.cpp reproduces every case of Triton's
`python/test/unit/language/test_compile_errors.py` and the compile-time cases of
`python/test/unit/language/test_core.py` (those that expect CompilationError or another
compile-time exception, and a set that must compile where a checker might object). Each case here
is the same construct with the same signature and constexprs as Triton's test, written as a real
function of this module so that `inspect` (and so Triton) can read its source; cases that need a
nested function or a captured local keep that shape. Each is compiled with
`triton.compile(triton.compiler.ASTSource(fn, signature, constexprs))` (plus compile options where
the test passes them) for the current GPU, and one line per case is printed:

    NAME | ok
    NAME | CompilationError at 2:4 `0 + "a"` | msg: ... | cause: ValueError: ... | warn: UserWarning: ...

`at L:C` is Triton's position: L counts from the `def` line (1), C is 0-based; the text in
backquotes is the source of the AST node Triton points at. `msg` is the CompilationError's own
sentence (the last part of `str(e)`, whose first line is `at L:C:`); each `cause:` is one link of
the `__cause__` chain, with its own position when it is a CompilationError and `str(cause)` (newlines
as \\n) otherwise. A table closes the run. It needs triton 3.6 and a GPU (the dot-size and fp8 rules
depend on the target), so it runs on a GPU machine, never in tessel's test suite:

    python3 scripts/triton_compile_errors.py > tests/data/triton-3.6-compile-errors.txt
"""
import ast
import datetime
import inspect
import sys
import textwrap
import warnings

import triton
import triton.language as tl
from triton.language.extra import libdevice

CASES = []  # (name, jit function, signature, constexprs, options)


def case(name, signature=None, constexprs=None, options=None):
    """Registers the decorated @jit function as case NAME (several cases may share one function)."""

    def register(fn):
        CASES.append((name, fn, signature or {}, constexprs or {}, options or {}))
        return fn

    return register


def also(name, fn, signature=None, constexprs=None, options=None):
    CASES.append((name, fn, signature or {}, constexprs or {}, options or {}))


# ---------------------------------------------------------------------------------------------
# test_compile_errors.py
# ---------------------------------------------------------------------------------------------


@case("err_undefined_variable")
@triton.jit
def err_undefined_variable():
    a += 1  # noqa: F821


@case("err_in_binary_operator")
@triton.jit
def err_in_binary_operator():
    0 + "a"


@case("err_static_assert")
@triton.jit
def err_static_assert():
    tl.static_assert(isinstance(0, tl.tensor))


@case("err_in_unary_op")
@triton.jit
def err_in_unary_op():
    not (0, 0)


@case("err_in_binary_op")
@triton.jit
def err_in_binary_op():
    1.0 << 1


@triton.jit
def nested_call():
    xyz  # noqa: F821


@case("err_in_nested_call")
@triton.jit
def err_in_nested_call():
    # the comment puts the call on line 3, as in Triton's test
    nested_call()


@case("err_in_builtin")
@triton.jit
def err_in_builtin():
    tl.expand_dims(None, -1)


@triton.jit
def two_returns():
    return tl.arange(0, 4)
    return tl.arange(0, 8)


@case("two_returns_no_err")
@triton.jit
def two_returns_no_err():
    a = two_returns()
    a + tl.arange(0, 4)


@case("not_const_annotate_no_err", {"N": "i32"})
@triton.jit
def not_const_annotate_no_err(N: int = 1):
    pass


@triton.jit
def returns_branched_on_constexpr(N: tl.constexpr):
    if N == 0:
        return tl.arange(0, 4)
    else:
        return tl.arange(0, 8)


@case("returns_branched_on_constexpr_0", {"N": "constexpr"}, {"N": 0})
@triton.jit
def returns_branched_on_constexpr_0(N: tl.constexpr):
    a = returns_branched_on_constexpr(N)
    a + tl.arange(0, 4)


@case("returns_branched_on_constexpr_1", {"N": "constexpr"}, {"N": 1})
@triton.jit
def returns_branched_on_constexpr_1(N: tl.constexpr):
    a = returns_branched_on_constexpr(N)
    a + tl.arange(0, 8)


@triton.jit
def returns_branched_on_non_constexpr(N: int):
    if N == 0:
        return tl.arange(0, 4)
    else:
        return tl.arange(0, 8)


@case("returns_branched_on_non_constexpr", {"N": "i32"})
@triton.jit
def returns_branched_on_non_constexpr_kernel(N: int):
    returns_branched_on_non_constexpr(N)


@case("power_of_two_shapes")
@triton.jit
def power_of_two_shapes():
    tl.arange(2, 7)


@case("power_of_two_shapes_2")
@triton.jit
def power_of_two_shapes_2():
    tl.full((33, ), 0, dtype=tl.int64)


def make_captured_var_access():
    CAPTURED = 42

    @triton.jit
    def captured_var_access():
        a = CAPTURED  # noqa: F841

    return captured_var_access


also("captured_var_access", make_captured_var_access())

GLOBAL = 42


@case("global_var_access")
@triton.jit
def global_var_access():
    a = GLOBAL  # noqa: F841


CONSTEXPR_ANNOTATED_GLOBAL: tl.constexpr = 42


@case("constexpr_annotated_global_var_access")
@triton.jit
def constexpr_annotated_global_var_access():
    a = CONSTEXPR_ANNOTATED_GLOBAL  # noqa: F841


CONSTEXPR_GLOBAL = tl.constexpr(42)


@case("constexpr_global_var_access")
@triton.jit
def constexpr_global_var_access():
    a = CONSTEXPR_GLOBAL  # noqa: F841


TYPE_ALIAS = tl.pointer_type(tl.int32)


@case("global_type_alias_access")
@triton.jit
def global_type_alias_access():
    a = TYPE_ALIAS  # noqa: F841


@case("global_access_in_fn_default_arg", {"a": "i32"})
@triton.jit
def global_access_in_fn_default_arg(a=GLOBAL):
    pass


@case("defaults_assign_no_err", {"a": "i32", "B": "constexpr"}, {"B": ""})
@triton.jit
def defaults_assign_no_err(a=1, B: tl.constexpr = ""):
    pass


@case("where_warning")
@triton.jit
def where_warning():
    a = tl.full((64, ), 0, tl.uint32)
    b = tl.full((64, ), 1, tl.float32)
    c = tl.full((64, ), 2, tl.float32)
    tl.where(a, b, c)


@triton.jit
def fp8_support(dtype: tl.constexpr):
    _ = tl.full((256, ), 0.0, dtype)


for _name in ("float8e5", "float8e5b16", "float8e4nv", "float8e4b8", "float8e4b15"):
    also(f"fp8_support_{_name}", fp8_support, {"dtype": "constexpr"}, {"dtype": getattr(tl, _name)})


@triton.jit
def min_dot_size(dtype: tl.constexpr):
    SIZE: tl.constexpr = 8
    a = tl.full((SIZE, SIZE), 0.0, dtype)
    b = tl.full((SIZE, SIZE), 0.0, dtype)
    tl.dot(a, b)


for _name in ("float8e5", "int8", "float16"):
    also(f"min_dot_size_{_name}", min_dot_size, {"dtype": "constexpr"}, {"dtype": getattr(tl, _name)})


@case("max_num_imprecise_acc_limit")
@triton.jit
def max_num_imprecise_acc_limit():
    SIZE: tl.constexpr = 64
    a = tl.full((SIZE, SIZE), 0.0, tl.float8e5)
    b = tl.full((SIZE, SIZE), 0.0, tl.float8e5)
    tl.dot(a, b, max_num_imprecise_acc=128)


# ---------------------------------------------------------------------------------------------
# test_core.py: cases that Triton rejects at compile time
# ---------------------------------------------------------------------------------------------


@case("scalar_overflow")
@triton.jit
def scalar_overflow():
    huge_int: tl.constexpr = 0xFFFFFFFFFFFFFF
    x = tl.full((), 32, dtype=tl.int32)
    y = x + huge_int  # noqa: F841


@triton.jit
def bin_op_div(Z, X, Y, SIZE: tl.constexpr):
    off = tl.arange(0, SIZE)
    x = tl.load(X + off)
    y = tl.load(Y + off)
    z = x / y
    tl.store(Z + off, z)


@triton.jit
def bin_op_mod(Z, X, Y, SIZE: tl.constexpr):
    off = tl.arange(0, SIZE)
    x = tl.load(X + off)
    y = tl.load(Y + off)
    z = x % y
    tl.store(Z + off, z)


also("bin_op_div_int32_uint32", bin_op_div, {"Z": "*fp32", "X": "*i32", "Y": "*u32", "SIZE": "constexpr"},
     {"SIZE": 128})
also("bin_op_mod_int16_uint64", bin_op_mod, {"Z": "*i64", "X": "*i16", "Y": "*u64", "SIZE": "constexpr"},
     {"SIZE": 128})
also("bin_op_mod_uint8_int8", bin_op_mod, {"Z": "*u8", "X": "*u8", "Y": "*i8", "SIZE": "constexpr"}, {"SIZE": 128})


@triton.jit
def bitwise_and(Z, X, Y, SIZE: tl.constexpr):
    off = tl.arange(0, SIZE)
    x = tl.load(X + off)
    y = tl.load(Y + off)
    z = x & y
    tl.store(Z + off, z)


@triton.jit
def bitwise_xor(Z, X, Y, SIZE: tl.constexpr):
    off = tl.arange(0, SIZE)
    x = tl.load(X + off)
    y = tl.load(Y + off)
    z = x ^ y
    tl.store(Z + off, z)


also("bitwise_op_float32_int32", bitwise_and, {"Z": "*fp32", "X": "*fp32", "Y": "*i32", "SIZE": "constexpr"},
     {"SIZE": 128})
also("bitwise_op_bfloat16_bfloat16", bitwise_xor, {"Z": "*bf16", "X": "*bf16", "Y": "*bf16", "SIZE": "constexpr"},
     {"SIZE": 128})
also("bitwise_op_int32_uint8", bitwise_and, {"Z": "*i32", "X": "*i32", "Y": "*u8", "SIZE": "constexpr"},
     {"SIZE": 128})


@case("invalid_slice", {"dst": "*fp32"})
@triton.jit
def invalid_slice(dst):
    dst[10:]


@case("expand_dims_out_of_range1", {"dummy": "*fp32", "N": "constexpr"}, {"N": 32})
@triton.jit
def dim_out_of_range1(dummy, N: tl.constexpr):
    offset1 = tl.arange(0, N)

    t = tl.expand_dims(offset1, -2)
    t = tl.expand_dims(offset1, -3)  # noqa: F841


@case("expand_dims_out_of_range2", {"dummy": "*fp32", "N": "constexpr"}, {"N": 32})
@triton.jit
def dim_out_of_range2(dummy, N: tl.constexpr):
    offset1 = tl.arange(0, N)

    t = tl.expand_dims(offset1, 1)
    t = tl.expand_dims(offset1, 2)  # noqa: F841


@case("expand_dims_out_of_range3", {"dummy": "*fp32", "N": "constexpr"}, {"N": 32})
@triton.jit
def dim_out_of_range3(dummy, N: tl.constexpr):
    offset1 = tl.arange(0, 1)
    scalar = tl.sum(offset1)

    t = tl.expand_dims(scalar, 1)  # noqa: F841


@case("expand_dims_duplicate_dim1", {"dummy": "*fp32", "N": "constexpr"}, {"N": 32})
@triton.jit
def duplicate_dim1(dummy, N: tl.constexpr):
    offset1 = tl.arange(0, N)

    t = tl.expand_dims(offset1, (0, 0))  # noqa: F841


@case("expand_dims_duplicate_dim2", {"dummy": "*fp32", "N": "constexpr"}, {"N": 32})
@triton.jit
def duplicate_dim2(dummy, N: tl.constexpr):
    offset1 = tl.arange(0, N)

    t = tl.expand_dims(offset1, (0, -3))  # noqa: F841


@case("invalid_pid_axis", {"dst": "*fp32"})
@triton.jit
def invalid_pid_axis(dst):
    pid = tl.program_id(20)  # noqa: F841


@case("index1d_match", {"Z": "*i32", "X": "*i32", "SIZE": "constexpr"}, {"SIZE": 32})
@triton.jit
def index1d_match(Z, X, SIZE: tl.constexpr):
    m = tl.arange(0, SIZE)  # noqa: F841
    n = tl.arange(0, SIZE)  # noqa: F841
    x = tl.load(X + tl.arange(0, 32)[:] * 1)
    z = x[None, :]
    tl.store(Z + tl.arange(0, 32)[None, :] * 1 + tl.arange(0, 32)[:, None] * 32, z)


@case("index1d_dim_mismatch", {"Z": "*i32", "X": "*i32", "SIZE": "constexpr"}, {"SIZE": 32})
@triton.jit
def index1d_dim_mismatch(Z, X, SIZE: tl.constexpr):
    m = tl.arange(0, SIZE)  # noqa: F841
    n = tl.arange(0, SIZE)  # noqa: F841
    x = tl.load(X + tl.arange(0, 32)[:] * 1)
    z = x[None, :]
    tl.store(Z + tl.arange(0, 64)[None, :] * 1 + tl.arange(0, 64)[:, None] * 64, z)


@case("index1d_rank_mismatch", {"Z": "*i32", "X": "*i32", "SIZE": "constexpr"}, {"SIZE": 32})
@triton.jit
def index1d_rank_mismatch(Z, X, SIZE: tl.constexpr):
    m = tl.arange(0, SIZE)  # noqa: F841
    n = tl.arange(0, SIZE)  # noqa: F841
    x = tl.load(X + tl.arange(0, 32)[:] * 1)
    z = x[None, :]
    tl.store(Z + tl.arange(0, 32)[None, None, :] * 1 + tl.arange(0, 32)[None, :, None] * 32 +
             tl.arange(0, 32)[:, None, None] * 1024, z)


@triton.jit
def reduce_axis(X, Z, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, AXIS: tl.constexpr):
    range_m = tl.arange(0, BLOCK_M)
    range_n = tl.arange(0, BLOCK_N)
    x = tl.load(X + range_m[:, None] * BLOCK_N + range_n[None, :])
    z = tl.sum(x, axis=AXIS, keep_dims=False)
    tl.store(Z, z)


for _axis in (2, 3):
    also(f"reduce_invalid_axis_{_axis}", reduce_axis, {
        "X": "*fp32", "Z": "*fp32", "BLOCK_M": "constexpr", "BLOCK_N": "constexpr", "AXIS": "constexpr"
    }, {"BLOCK_M": 32, "BLOCK_N": 32, "AXIS": _axis})


@triton.jit
def pass_const(a, b, choose_b):
    if choose_b:
        return b
    else:
        return a


CONST_SIG = {"in_ptr": "*kfp32", "out": "*fp32", "c_out": "*kfp32", "choose_const": "i1", "n_elems": "i32",
             "BLOCK_SIZE": "constexpr"}
CONSTEXPR_SIG = dict(CONST_SIG, choose_const="constexpr")


@triton.jit(do_not_specialize=["choose_const"])
def const_direct_const(in_ptr: tl.const, out, c_out: tl.const, choose_const, n_elems: tl.int32,
                       BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elems
    val = tl.load(in_ptr + offsets, mask=mask)
    final_out = c_out
    tl.store(final_out + offsets, val, mask=mask)


@triton.jit(do_not_specialize=["choose_const"])
def const_direct_out(in_ptr: tl.const, out, c_out: tl.const, choose_const, n_elems: tl.int32,
                     BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elems
    val = tl.load(in_ptr + offsets, mask=mask)
    final_out = out
    tl.store(final_out + offsets, val, mask=mask)


@triton.jit(do_not_specialize=["choose_const"])
def const_call(in_ptr: tl.const, out, c_out: tl.const, choose_const, n_elems: tl.int32, BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elems
    val = tl.load(in_ptr + offsets, mask=mask)
    final_out = pass_const(out, c_out, choose_const)
    tl.store(final_out + offsets, val, mask=mask)


@triton.jit(do_not_specialize=["choose_const"])
def const_ternary(in_ptr: tl.const, out, c_out: tl.const, choose_const, n_elems: tl.int32,
                  BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elems
    val = tl.load(in_ptr + offsets, mask=mask)
    final_out = c_out if choose_const else out
    tl.store(final_out + offsets, val, mask=mask)


@triton.jit(do_not_specialize=["choose_const"])
def const_if(in_ptr: tl.const, out, c_out: tl.const, choose_const, n_elems: tl.int32, BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elems
    val = tl.load(in_ptr + offsets, mask=mask)
    if choose_const:
        final_out = c_out
    else:
        final_out = out
    tl.store(final_out + offsets, val, mask=mask)


@triton.jit
def const_constexpr_call(in_ptr: tl.const, out, c_out: tl.const, choose_const: tl.constexpr, n_elems: tl.int32,
                         BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elems
    val = tl.load(in_ptr + offsets, mask=mask)
    final_out = pass_const(out, c_out, choose_const)
    tl.store(final_out + offsets, val, mask=mask)


@triton.jit
def const_constexpr_if(in_ptr: tl.const, out, c_out: tl.const, choose_const: tl.constexpr, n_elems: tl.int32,
                       BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elems
    val = tl.load(in_ptr + offsets, mask=mask)
    if choose_const:
        final_out = c_out
    else:
        final_out = out
    tl.store(final_out + offsets, val, mask=mask)


also("const_direct_choose_const", const_direct_const, CONST_SIG, {"BLOCK_SIZE": 128})
also("const_direct_choose_out", const_direct_out, CONST_SIG, {"BLOCK_SIZE": 128})
also("const_call_dynamic", const_call, CONST_SIG, {"BLOCK_SIZE": 128})
also("const_ternary_dynamic", const_ternary, CONST_SIG, {"BLOCK_SIZE": 128})
also("const_if_dynamic", const_if, CONST_SIG, {"BLOCK_SIZE": 128})
also("const_constexpr_call_choose_const", const_constexpr_call, CONSTEXPR_SIG, {"choose_const": True,
                                                                                "BLOCK_SIZE": 128})
also("const_constexpr_call_choose_out", const_constexpr_call, CONSTEXPR_SIG, {"choose_const": False,
                                                                              "BLOCK_SIZE": 128})
also("const_constexpr_if_choose_const", const_constexpr_if, CONSTEXPR_SIG, {"choose_const": True, "BLOCK_SIZE": 128})
also("const_constexpr_if_choose_out", const_constexpr_if, CONSTEXPR_SIG, {"choose_const": False, "BLOCK_SIZE": 128})


@case("reshape_err")
@triton.jit
def reshape_err():
    x = tl.arange(0, 8 * 8)
    y = tl.reshape(x, (8 * 4, ))  # noqa: F841


@case("tma_load_block_shape_err", {"ptr": "*i32"})
@triton.jit
def tma_load_block_shape_err(ptr):
    desc = tl.make_tensor_descriptor(ptr, [128, 128], [128, 1], [1, 2])
    desc.load([0, 0])


@case("tma_store_block_shape_err", {"ptr": "*i16"})
@triton.jit
def tma_store_block_shape_err(ptr):
    desc = tl.make_tensor_descriptor(ptr, [128, 128], [128, 1], [8, 4])
    desc.store([0, 0], tl.zeros([8, 4], dtype=tl.int16))


@triton.jit
def val_multiplier(val, i):
    return val * i


@triton.jit(noinline=True)
def val_multiplier_noinline(val, i):
    return val * i


@triton.jit
def vecmul_kernel(ptr, n_elements, rep, type: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * 128 + tl.arange(0, 128)
    mask = offsets < n_elements
    vec = tl.load(ptr + offsets, mask=mask)
    for i in range(1, rep):
        if type == "inline":
            vec = val_multiplier(vec, i)
        else:
            vec = val_multiplier_noinline(vec, i)
    tl.store(ptr + offsets, vec, mask=mask)


@triton.jit
def call_kernel(ptr, n_elements, num1, num2, type: tl.constexpr):
    vecmul_kernel(ptr, n_elements, num1, type)
    vecmul_kernel(ptr, n_elements, num2, type)


CALL_SIG = {"ptr": "*fp32", "n_elements": "i32", "num1": "i32", "num2": "i32", "type": "constexpr"}
also("call_inline", call_kernel, CALL_SIG, {"type": "inline"})
also("call_noinline", call_kernel, CALL_SIG, {"type": "noinline"})


@triton.jit
def num_warps_pow2(dst):
    pass


also("num_warps_pow2_3", num_warps_pow2, {"dst": "*fp32"}, {}, {"num_warps": 3})
also("num_warps_pow2_2", num_warps_pow2, {"dst": "*fp32"}, {}, {"num_warps": 2})

# ---------------------------------------------------------------------------------------------
# test_core.py: kernels Triton compiles, where a checker might object
# ---------------------------------------------------------------------------------------------


@case("slice_kernel", {"XBLOCK": "constexpr"}, {"XBLOCK": 32})
@triton.jit
def slice_kernel(XBLOCK: tl.constexpr):
    data = tl.arange(0, XBLOCK)
    tl.static_assert(data.shape == [XBLOCK])

    t = data[None, :]
    tl.static_assert(t.shape == [1, XBLOCK])

    t = data[None, :, None]
    tl.static_assert(t.shape == [1, XBLOCK, 1])

    scalar = tl.full([], 1, tl.int32)
    tl.static_assert(scalar.shape == [])

    t = scalar[None]
    tl.static_assert(t.shape == [1])

    t = scalar[None, None]
    tl.static_assert(t.shape == [1, 1])


@case("expand_dims_kernel", {"dummy": "*fp32", "N": "constexpr"}, {"N": 32})
@triton.jit
def expand_dims_kernel(dummy, N: tl.constexpr):
    offset1 = tl.arange(0, N)

    t = tl.expand_dims(offset1, 0)
    tl.static_assert(t.shape == [1, N])

    t = tl.expand_dims(offset1, 1)
    tl.static_assert(t.shape == [N, 1])

    t = tl.expand_dims(offset1, -1)
    tl.static_assert(t.shape == [N, 1])

    t = tl.expand_dims(offset1, -2)
    tl.static_assert(t.shape == [1, N])

    t = tl.expand_dims(offset1, (0, -1))
    tl.static_assert(t.shape == [1, N, 1])

    t = tl.expand_dims(offset1, (0, 1, 3))
    tl.static_assert(t.shape == [1, 1, N, 1])

    t = tl.expand_dims(offset1, (-4, 2, -1))
    tl.static_assert(t.shape == [1, N, 1, 1])

    t = tl.expand_dims(offset1, (3, 1, 2))
    tl.static_assert(t.shape == [N, 1, 1, 1])

    scalar = tl.sum(offset1)
    tl.static_assert(scalar.shape == [])
    t = tl.expand_dims(scalar, 0)
    tl.static_assert(t.shape == [1])

    t = tl.expand_dims(scalar, -1)
    tl.static_assert(t.shape == [1])

    t = tl.expand_dims(N, -1)
    tl.static_assert(t.shape == [1])


@case("shapes_as_params")
@triton.jit
def shapes_as_params():
    a = tl.arange(0, 32).expand_dims(-1).broadcast_to(32, 32)
    tl.static_assert(a.shape == [tl.constexpr(32), tl.constexpr(32)])

    a = tl.arange(0, 32).reshape(4, 8).permute(1, 0)
    tl.static_assert(a.shape == [tl.constexpr(8), tl.constexpr(4)])

    a = tl.arange(0, 32).reshape(4, 8).trans()
    tl.static_assert(a.shape == [tl.constexpr(8), tl.constexpr(4)])

    a = tl.arange(0, 32).reshape(4, 8).reshape(32)
    tl.static_assert(a.shape == [tl.constexpr(32)])

    a = tl.arange(0, 64).reshape(2, 4, 8).trans(2, 1, 0)
    tl.static_assert(a.shape == [tl.constexpr(8), tl.constexpr(4), tl.constexpr(2)])

    a = tl.arange(0, 64).reshape(2, 4, 8).trans((2, 1, 0))
    tl.static_assert(a.shape == [tl.constexpr(8), tl.constexpr(4), tl.constexpr(2)])

    a = tl.arange(0, 64).view(2, 4, 8)
    tl.static_assert(a.shape == [tl.constexpr(2), tl.constexpr(4), tl.constexpr(8)])


@case("where_scalar_condition", {"a_ptr": "*fp32", "out_ptr": "*fp32", "BLOCK_SIZE": "constexpr"},
      {"BLOCK_SIZE": 32})
@triton.jit
def where_scalar_condition(a_ptr, out_ptr, BLOCK_SIZE: tl.constexpr):
    xoffsets = tl.arange(0, BLOCK_SIZE)[:, None]
    yoffsets = tl.arange(0, BLOCK_SIZE)[None, :]
    mask = False
    vals = tl.load(a_ptr + yoffsets + BLOCK_SIZE * xoffsets)
    res = tl.where(mask, vals, 0.)
    tl.store(out_ptr + yoffsets + BLOCK_SIZE * xoffsets, res)


@triton.jit
def store_constant(output_ptr, n_elements, BLOCK_SIZE: tl.constexpr, CONSTANT_FIELD: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    if CONSTANT_FIELD == "value":
        value = 1
        output = tl.full([BLOCK_SIZE], value=value, dtype=value.dtype)
        mask = offsets < n_elements
    elif CONSTANT_FIELD == "mask":
        output = offsets < n_elements
        mask = False
    tl.store(output_ptr + offsets, output, mask=mask)


STORE_CONSTANT_SIG = {"output_ptr": "*i32", "n_elements": "i32", "BLOCK_SIZE": "constexpr",
                      "CONSTANT_FIELD": "constexpr"}
also("store_constant_value", store_constant, STORE_CONSTANT_SIG, {"BLOCK_SIZE": 128, "CONSTANT_FIELD": "value"})
also("store_constant_mask", store_constant, STORE_CONSTANT_SIG, {"BLOCK_SIZE": 128, "CONSTANT_FIELD": "mask"})


@case("join_scalars", {"X": "*i32", "Y": "*i32", "Z": "*i32"})
@triton.jit
def join_scalars(X, Y, Z):
    x = tl.load(X)
    y = tl.load(Y)
    z = tl.join(x, y)
    tl.static_assert(z.shape == [2])
    tl.store(Z + tl.arange(0, 2), z)


@case("interleave_scalars", {"X": "i32", "Y": "i32", "Z": "*fp32"})
@triton.jit
def interleave_scalars(X, Y, Z):
    z = tl.interleave(X, Y)
    tl.static_assert(z.shape == [tl.constexpr(2)])
    tl.store(Z + tl.arange(0, 2), z)


@case("split_to_scalar", {"X": "*i64", "Z1": "*i64", "Z2": "*i64"})
@triton.jit
def split_to_scalar(X, Z1, Z2):
    offs = tl.arange(0, 2)
    x = tl.load(X + offs)
    z1, z2 = tl.split(x)
    tl.static_assert(isinstance(z1, tl.tensor))
    tl.static_assert(isinstance(z2, tl.tensor))
    tl.static_assert(z1.shape == [])
    tl.static_assert(z2.shape == [])
    tl.store(Z1, z1)
    tl.store(Z2, z2)


@triton.jit
def _impl(value=10):
    return value


@case("default", {"ret0": "*i32", "ret1": "*i32", "value": "i32"})
@triton.jit
def default_kernel(ret0, ret1, value=3):
    tl.store(ret0, _impl())
    tl.store(ret1, _impl(value))


@case("constexpr_literal_1e50", {"out_ptr": "*fp32"})
@triton.jit
def constexpr_literal_1e50(out_ptr):
    val = 1e+50
    tl.store(out_ptr.to(tl.pointer_type(val.dtype)), val)


@case("constexpr_literal_2_40", {"out_ptr": "*fp32"})
@triton.jit
def constexpr_literal_2_40(out_ptr):
    val = 1099511627776
    tl.store(out_ptr.to(tl.pointer_type(val.dtype)), val)


@case("constexpr_literal_nan", {"out_ptr": "*fp32"})
@triton.jit
def constexpr_literal_nan(out_ptr):
    val = float("nan")
    tl.store(out_ptr.to(tl.pointer_type(val.dtype)), val)


@triton.jit
def if_kernel(Cond, XTrue, XFalse, Ret, IfType: tl.constexpr, BoolVar: tl.constexpr, StaticValue: tl.constexpr):
    pid = tl.program_id(0)
    cond = tl.load(Cond)  # noqa: F841
    if IfType == "if":
        if pid % 2 == 0:  # eq
            tl.store(Ret, tl.load(XTrue))
        elif 1 == pid % 2:  # req
            tl.store(Ret, tl.load(XFalse))
    elif IfType == "if_exp_dynamic":
        val = tl.load(XTrue) if pid % 2 == 0 else tl.load(XFalse)
        tl.store(Ret, val)
    elif IfType == "if_exp_dynamic_constexpr":
        val = 3.14 if pid % 2 == 0 else tl.load(XFalse)
        tl.store(Ret, val)
    elif IfType == "if_exp_dynamic_void":
        tl.store(Ret, tl.load(XTrue)) if pid % 2 == 0 else tl.store(Ret, tl.load(XFalse))
    elif IfType == "if_exp_static":
        tl.store(Ret, tl.load(XTrue)) if BoolVar else tl.store(Ret, tl.load(XFalse))
    elif IfType == "if_and_dynamic":
        if BoolVar and (1 != pid % 2 and pid % 2 != 1):  # rne and ne
            tl.store(Ret, tl.load(XTrue))
        else:
            tl.store(Ret, tl.load(XFalse))
    elif IfType == "if_and_static":
        if StaticValue != 0 and StaticValue != 0:
            tl.store(Ret, tl.load(XTrue))
        else:
            tl.store(Ret, tl.load(XFalse))


IF_SIG = {"Cond": "*i32", "XTrue": "*fp32", "XFalse": "*fp32", "Ret": "*fp32", "IfType": "constexpr",
          "BoolVar": "constexpr", "StaticValue": "constexpr"}
for _if_type in ("if", "if_and_dynamic", "if_exp_static", "if_exp_dynamic", "if_exp_dynamic_constexpr",
                 "if_exp_dynamic_void", "if_and_static"):
    also(f"if_{_if_type}", if_kernel, IF_SIG, {"IfType": _if_type, "BoolVar": True, "StaticValue": 1})


@triton.jit
def if_return(ExitEarly, Out, cond: tl.constexpr, mode: tl.constexpr):
    if mode == "dynamic":
        if tl.load(ExitEarly):
            tl.store(Out, 0)
            return
    else:
        if cond:
            tl.store(Out, 0)
            return
    tl.store(Out, 1)


for _mode in ("dynamic", "static"):
    also(f"if_return_{_mode}", if_return, {"ExitEarly": "*i32", "Out": "*i32", "cond": "constexpr",
                                           "mode": "constexpr"}, {"cond": True, "mode": _mode})


@triton.jit
def add_fn(x):
    return x + 1


@triton.jit(noinline=True)
def add_fn_noinline(x):
    return x + 1


@triton.jit
def add_fn_return(x, pid):
    if pid == 0:
        return x + 1
    else:
        return x + 2


@triton.jit
def add_fn_expr(Out, x):
    tl.store(Out, x)


@triton.jit
def add_fn_static_cond(x, cond: tl.constexpr):
    if cond == "":
        return x
    else:
        return x + 1


@triton.jit
def if_call(Out, call_type: tl.constexpr):
    pid = tl.program_id(0)
    o = tl.load(Out)
    if call_type == "attribute":
        # call attribute
        if pid == 0:
            a = o
            a = a.to(tl.int32).to(tl.int32) + 1
            o = a
    elif call_type == "attribute_jit":
        # call attribute and jit function
        if pid == 0:
            a = o
            a = tl.load(Out + add_fn(a) - 1).to(tl.int32) + 1
            o = a
    elif call_type == "jit":
        if pid == 0:
            # regular function call
            a = o
            a = add_fn(a)
            o = a
    elif call_type == "jit_if":
        # function without end_if block
        if pid == 0:
            a = o
            a = add_fn_return(a, pid)
            o = a
    elif call_type == "jit_if_exp":
        # ifexp expression
        if pid == 0:
            a = o
            a = add_fn(a) if pid == 0 else add_fn_return(a, pid)
            o = a
    elif call_type == "jit_expr":
        # call without return
        if pid == 0:
            a = o + 1
            add_fn_expr(Out, a)
            o = a
    elif call_type == "jit_static_cond":
        if pid == 0:
            a = o + 1
            add_fn_static_cond(o, call_type)
            o = a
    elif call_type == "jit_noinline":
        if pid == 0:
            a = o + 1
            add_fn_noinline(a)
            o = a
    elif call_type == "jit_extern":
        if pid == 0:
            a = o + 1
            tl.cdiv(a, a)
            o = a

    tl.store(Out, o)


for _call_type in ("attribute", "attribute_jit", "jit", "jit_if", "jit_expr", "jit_static_cond", "jit_noinline",
                   "jit_extern"):
    also(f"if_call_{_call_type}", if_call, {"Out": "*i32", "call_type": "constexpr"}, {"call_type": _call_type})


@case("nested_if_else_return", {"Cond1": "*i32", "Cond2": "*i32", "Cond3": "*i32", "Val1": "*i32", "Val2": "*i32",
                                "Val3": "*i32", "Out": "*i32"})
@triton.jit
def nested_if_else_return(Cond1, Cond2, Cond3, Val1, Val2, Val3, Out):
    val = 0
    if tl.load(Cond1):
        if tl.load(Cond2):
            val = tl.load(Val1)
        else:
            return
    else:
        if tl.load(Cond3):
            val = tl.load(Val2)
        else:
            val = tl.load(Val3)
    tl.store(Out, val)


@triton.jit
def constexpr_if_return(Semaphore, Out, total: tl.constexpr):
    if total == 1:
        tl.store(Out, tl.program_id(0))
        return

    prev = tl.atomic_add(Semaphore, 1)
    if prev + 1 != total:
        return

    tl.store(Out, tl.program_id(0) + prev)


for _total in (1, 4):
    also(f"constexpr_if_return_{_total}", constexpr_if_return, {"Semaphore": "*i32", "Out": "*i32",
                                                                 "total": "constexpr"}, {"total": _total})


@triton.jit
def return_poison(x):
    a = False
    if a:
        return x


@case("poison_return", {"Out": "*i32"})
@triton.jit
def poison_return(Out):
    tl.store(Out, return_poison(0))


@case("num_threads", {"Out": "*i32"}, {}, {"num_warps": 8})
@triton.jit
def num_threads(Out):
    num_threads: tl.constexpr = tl.extra.cuda.num_threads()
    offs = tl.arange(0, num_threads)
    tl.store(Out + offs, 1)


@case("dtype_static_asserts", {"X": "*i32"})
@triton.jit
def dtype_static_asserts(X):
    dtype_x: tl.constexpr = X.dtype.element_ty
    tl.static_assert(dtype_x == tl.int32)
    tl.static_assert(dtype_x == tl.constexpr(tl.int32))
    tl.static_assert(dtype_x == tl.int8 or (dtype_x == tl.int16 or dtype_x == tl.int32))


@triton.jit
def mul_jit_function(x, y):
    return x * y


@triton.jit
def apply_binary_op(x, combine_op):
    return combine_op(x, x)


@case("jit_function_arg", {"in_ptr": "*fp32", "out_ptr": "*fp32", "BLOCK_SIZE": "constexpr"}, {"BLOCK_SIZE": 16})
@triton.jit
def square_kernel_jit_function(in_ptr, out_ptr, BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    in_data = tl.load(in_ptr + offsets)
    out_data = apply_binary_op(in_data, mul_jit_function)  # a JITFunction passed to another
    tl.store(out_ptr + offsets, out_data)


@case("dtype_tensor", {"dtype": "constexpr"}, {"dtype": tl.float16})
@triton.jit
def dtype_tensor_kernel(dtype: tl.constexpr):
    tensor = tl.zeros((1, ), dtype)  # noqa: F841


@case("tl_range_option_none", {"ub": "i32"})
@triton.jit
def tl_range_option_none(ub):
    for i in tl.range(0, ub, num_stages=None, loop_unroll_factor=None):
        print("i", i)


@case("static_range", {"Z": "*i32", "N": "constexpr", "step": "constexpr"}, {"N": 100, "step": 7})
@triton.jit
def static_range(Z, N: tl.constexpr, step: tl.constexpr):
    acc = 0
    for i in tl.static_range(0, N, step=step):
        acc += i
    tl.store(Z, acc)


@case("temp_var_in_loop", {"Z": "*i32", "N": "constexpr", "BLOCK": "constexpr"}, {"N": 10, "BLOCK": 32})
@triton.jit
def temp_var_in_loop(Z, N: tl.constexpr, BLOCK: tl.constexpr):
    acc = tl.full((BLOCK, ), 0, dtype=tl.int32)
    for i in range(N):
        if i == 0:
            temp = tl.full((BLOCK, ), 2, dtype=tl.int32)
            acc = temp
        else:
            acc += tl.full((BLOCK, ), 1, dtype=tl.int32)
        temp = tl.full((BLOCK, ), 1, dtype=tl.int32)
        acc += temp
    z = Z + tl.arange(0, BLOCK)
    tl.store(z, acc)


@triton.jit
def tuples_fn(a, b):
    return a + b, \
        a - b, \
        a * b


@case("tuples_with_fn", {"X": "*fp32", "Y": "*fp32", "A": "*fp32", "B": "*fp32", "C": "*fp32"})
@triton.jit
def tuples_with_fn(X, Y, A, B, C):
    x = tl.load(X)
    y = tl.load(Y)
    a, b, c = tuples_fn(x, y)
    tl.store(A, a)
    tl.store(B, b)
    tl.store(C, c)


@triton.jit(noinline=True)
def noinline_call_graph_fn1(x):
    return x + 1


@triton.jit(noinline=True)
def noinline_call_graph_fn2(y):
    return y + 2


@triton.jit(noinline=True)
def noinline_dynamic_fn(x, y, Z):
    if x >= 1:
        x = noinline_call_graph_fn1(x)
    else:
        x = noinline_call_graph_fn2(x)
    if y >= 2:
        y = noinline_call_graph_fn2(y)
    else:
        y = noinline_call_graph_fn1(y)
    z = x + y
    tl.store(Z, z)


@triton.jit(noinline=True)
def noinline_call_multi_values_fn(x, y):
    return x + 1, y + 2


@triton.jit(noinline=True)
def noinline_multi_values_fn(x, y, Z):
    x, y = noinline_call_multi_values_fn(x, y)
    z = x + y
    tl.store(Z, z)


@case("noinline_dynamic", {"X": "*fp32", "Y": "*fp32", "Z": "*fp32"})
@triton.jit
def noinline_dynamic(X, Y, Z):
    x = tl.load(X)
    y = tl.load(Y)
    noinline_dynamic_fn(x, y, Z)


@case("noinline_multi_values", {"X": "*fp32", "Y": "*fp32", "Z": "*fp32"})
@triton.jit
def noinline_multi_values(X, Y, Z):
    x = tl.load(X)
    y = tl.load(Y)
    noinline_multi_values_fn(x, y, Z)


@case("sum_dtype_int1_none", {"out_ptr": "*i32", "init": "i32", "in_dtype": "constexpr", "out_dtype": "constexpr"},
      {"in_dtype": tl.int1, "out_dtype": None})
@triton.jit
def sum_dtype(out_ptr, init, in_dtype: tl.constexpr, out_dtype: tl.constexpr):
    x = tl.full((32, 32), init, dtype=in_dtype)
    x = tl.sum(x, dtype=out_dtype)
    tl.store(out_ptr, x.to(tl.int32))


also("sum_dtype_int8_int8", sum_dtype, {"out_ptr": "*i32", "init": "i32", "in_dtype": "constexpr",
                                        "out_dtype": "constexpr"}, {"in_dtype": tl.int8, "out_dtype": tl.int8})


@case("bin_op_constexpr_float_mod", {"Z": "*fp32", "X": "*fp32", "Y": "*fp32"})
@triton.jit
def bin_op_constexpr_float_mod(Z, X, Y):
    x = tl.load(X)  # noqa: F841
    y = tl.load(Y)
    z = 3.14 % y
    tl.store(Z, z)


@case("bin_op_constexpr_shift", {"Z": "*i32", "X": "*i32", "Y": "*i32"})
@triton.jit
def bin_op_constexpr_shift(Z, X, Y):
    x = tl.load(X)
    y = tl.load(Y)  # noqa: F841
    z = x << 4
    tl.store(Z, z)


@case("constexpr_scalar_shape", {"X": "*i32", "s": "i32"})
@triton.jit
def constexpr_scalar_shape(X, s):
    off = tl.arange(0, 256)
    val = off % (256 // s)
    tl.store(X + off, val)


@case("masked_load_scalar", {"in_ptr": "*fp32", "out_ptr": "*fp32", "size": "constexpr", "mask": "constexpr",
                             "other": "constexpr"}, {"size": 128, "mask": True, "other": 0})
@triton.jit
def masked_load_scalar(in_ptr, out_ptr, size: tl.constexpr, mask: tl.constexpr, other: tl.constexpr):
    offsets = tl.arange(0, size)
    x = tl.load(in_ptr + offsets, mask=mask, other=other)
    tl.store(out_ptr + offsets, x)


@case("aliasing", {"buffer": "*fp32", "buffer2": "*fp32"})
@triton.jit
def aliasing_kernel(buffer, buffer2):
    triton.language.store(buffer, 1)


@case("histogram", {"x_ptr": "*i32", "z_ptr": "*i32", "M": "constexpr", "N": "constexpr"}, {"M": 1024, "N": 8})
@triton.jit
def histogram_kernel(x_ptr, z_ptr, M: tl.constexpr, N: tl.constexpr):
    offset1 = tl.arange(0, M)
    offset2 = tl.arange(0, N)
    x = tl.load(x_ptr + offset1)
    z = tl.histogram(x, N)
    bias = tl.full([M, N], 1, dtype=tl.int32)
    biased = z + bias  # noqa: F841
    tl.store(z_ptr + offset2, z)


@triton.jit
def cummax(v0, i0, v1, i1):
    gt = v0 > v1
    return tl.where(gt, v0, v1), tl.where(gt, i0, i1)


@case("scan2d_cummax", {"X": "*fp32", "Y": "*fp32", "Z": "*i64", "BLOCK_M": "constexpr", "BLOCK_N": "constexpr",
                        "AXIS": "constexpr"}, {"BLOCK_M": 32, "BLOCK_N": 16, "AXIS": 1})
@triton.jit
def scan2d_cummax(X, Y, Z, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, AXIS: tl.constexpr):
    range_m = tl.arange(0, BLOCK_M)
    range_n = tl.arange(0, BLOCK_N)
    x = tl.load(X + range_m[:, None] * BLOCK_N + range_n[None, :])
    y = tl.load(Y + range_m[:, None] * BLOCK_N + range_n[None, :])  # noqa: F841
    _, z = tl.associative_scan((x, tl.broadcast_to(range_n[None, :].to(tl.int64), [BLOCK_M, BLOCK_N])), axis=1,
                               combine_fn=cummax, reverse=False)
    tl.store(Z + range_m[:, None] * BLOCK_N + range_n[None, :], z)


@triton.jit
def _welford_combine(mean_1, m2_1, weight_1, mean_2, m2_2, weight_2):
    delta = mean_2 - mean_1
    new_weight = weight_1 + weight_2
    w2_over_w = weight_2 / new_weight
    return (
        mean_1 + delta * w2_over_w,
        m2_1 + m2_2 + delta * delta * weight_1 * w2_over_w,
        new_weight,
    )


@case("generic_reduction", {"X": "*fp32", "out_mean": "*fp32", "out_var": "*fp32", "BLOCK": "constexpr"},
      {"BLOCK": 512})
@triton.jit
def var_mean_kernel(X, out_mean, out_var, BLOCK: tl.constexpr):
    xindex = tl.arange(0, BLOCK)
    x = tl.load(X + xindex)
    mean = x
    m2 = tl.zeros_like(x)
    weight = tl.full(x.shape, 1, x.dtype)
    (mean, m2, weight) = tl.reduce((mean, m2, weight), 0, _welford_combine)
    tl.store(out_mean, mean)
    tl.store(out_var, m2 / weight)


@case("atomic_rmw_sem", {"X": "*fp32", "Z": "*fp32"})
@triton.jit
def atomic_rmw_sem(X, Z):
    pid = tl.program_id(0)
    x = tl.load(X + pid)
    old = tl.atomic_add(Z, x, sem="acquire")
    tl.static_assert(old.dtype == x.dtype)


@case("tensor_atomic_cas", {"X": "*i64", "BLOCK_SIZE": "constexpr", "sem": "constexpr"},
      {"BLOCK_SIZE": 4, "sem": "acq_rel"})
@triton.jit
def tensor_atomic_cas(X, BLOCK_SIZE: tl.constexpr, sem: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    t1 = tl.full((BLOCK_SIZE, ), 0, dtype=tl.int64)
    t2 = tl.full((BLOCK_SIZE, ), 2, dtype=tl.int64)
    tl.atomic_cas(X + offsets, t1, t2, sem=sem)


@case("serialized_add", {"data": "*fp32", "Lock": "*i32", "SEM": "constexpr"}, {"SEM": None})
@triton.jit
def serialized_add(data, Lock, SEM: tl.constexpr):
    ptrs = data + tl.arange(0, 128)
    while tl.atomic_cas(Lock, 0, 1, SEM) == 1:
        pass

    tl.store(ptrs, tl.load(ptrs) + 1.0)
    tl.debug_barrier()
    tl.atomic_xchg(Lock, 0)


@triton.jit
def cast_kernel(X, Z, TO_TYPE: tl.constexpr, BITCAST: tl.constexpr, SIZE: tl.constexpr, ARG_HASH: tl.constexpr):
    x_ptr = X + tl.arange(0, SIZE)
    z_ptr = Z + tl.arange(0, SIZE)
    x = tl.load(x_ptr)

    if ARG_HASH % 4 == 0:
        z = x.to(Z.dtype.element_ty, bitcast=BITCAST)
    elif ARG_HASH % 4 == 1:
        z = x.cast(Z.dtype.element_ty, bitcast=BITCAST)
    elif ARG_HASH % 4 == 2:
        z = tl.cast(x, Z.dtype.element_ty, bitcast=BITCAST)
    else:
        z = tl.cast(x, TO_TYPE, bitcast=BITCAST)

    tl.store(z_ptr, z)


for _hash in range(4):
    also(f"cast_float32_int32_bitcast_{_hash}", cast_kernel, {
        "X": "*fp32", "Z": "*i32", "TO_TYPE": "constexpr", "BITCAST": "constexpr", "SIZE": "constexpr",
        "ARG_HASH": "constexpr"
    }, {"TO_TYPE": tl.int32, "BITCAST": True, "SIZE": 1024, "ARG_HASH": _hash})


@case("trans_reshape", {"in_base_ptr": "*i32", "out_base_ptr": "*i32", "IN_SHAPE0": "constexpr",
                        "IN_SHAPE1": "constexpr"}, {"IN_SHAPE0": 32, "IN_SHAPE1": 32})
@triton.jit
def trans_reshape(in_base_ptr, out_base_ptr, IN_SHAPE0: tl.constexpr, IN_SHAPE1: tl.constexpr):

    in_block_ptr = tl.make_block_ptr(
        base=in_base_ptr,
        shape=(IN_SHAPE0, IN_SHAPE1),
        strides=(IN_SHAPE1, 1),
        offsets=(0, 0),
        block_shape=(IN_SHAPE0, IN_SHAPE1),
        order=(1, 0),
    )
    x = tl.load(in_block_ptr)
    x = tl.reshape(x, (32, 4, 4, 2))
    x = tl.permute(x, (1, 2, 3, 0))
    x = tl.reshape(x, (IN_SHAPE0 * IN_SHAPE1, ))
    tl.store(out_base_ptr + tl.arange(0, IN_SHAPE0 * IN_SHAPE1), x)


@triton.jit
def propagate_nan(A, B, C, propagate_nan: tl.constexpr, func: tl.constexpr):
    if func == 'clamp':
        tl.store(
            C,
            getattr(tl, func)(tl.load(A), -tl.load(B), tl.load(B),
                              propagate_nan=getattr(tl.PropagateNan, propagate_nan)))
    else:
        tl.store(C, getattr(tl, func)(tl.load(A), tl.load(B), propagate_nan=getattr(tl.PropagateNan, propagate_nan)))


for _func in ("minimum", "clamp"):
    also(f"propagate_nan_{_func}", propagate_nan, {"A": "*fp32", "B": "*fp32", "C": "*fp32",
                                                   "propagate_nan": "constexpr", "func": "constexpr"},
         {"propagate_nan": "ALL", "func": _func})


@triton.jit
def sanitize_add(a, b):
    a64 = a.to(tl.int64)
    b64 = b.to(tl.int64)
    r64 = a64 + b64
    tl.device_assert((r64 >= -2**31) & (r64 <= 2**31 - 1))
    return a + b


@case("side_effectful_reduction", {"Z": "*i32", "X": "*i32", "BLOCK": "constexpr"}, {"BLOCK": 512})
@triton.jit(debug=True)
def sanitize_sum_kernel(Z, X, BLOCK: tl.constexpr):
    vals = tl.load(X + tl.arange(0, BLOCK))
    z = tl.reduce(vals, 0, sanitize_add)
    tl.store(Z, z)


@case("gather", {"src_ptr": "*fp32", "idx_ptr": "*i64", "out_ptr": "*fp32", **{
    n: "constexpr"
    for n in ("axis", "src_dim0", "src_dim1", "src_stride0", "src_stride1", "idx_dim0", "idx_dim1", "idx_stride0",
              "idx_stride1", "out_dim0", "out_dim1", "out_stride0", "out_stride1")
}}, {
    "axis": 0, "src_dim0": 4, "src_dim1": 4, "src_stride0": 4, "src_stride1": 1, "idx_dim0": 8, "idx_dim1": 4,
    "idx_stride0": 4, "idx_stride1": 1, "out_dim0": 8, "out_dim1": 4, "out_stride0": 4, "out_stride1": 1
})
@triton.jit
def gather_test_kernel(src_ptr, idx_ptr, out_ptr, axis: tl.constexpr, src_dim0: tl.constexpr, src_dim1: tl.constexpr,
                       src_stride0: tl.constexpr, src_stride1: tl.constexpr, idx_dim0: tl.constexpr,
                       idx_dim1: tl.constexpr, idx_stride0: tl.constexpr, idx_stride1: tl.constexpr,
                       out_dim0: tl.constexpr, out_dim1: tl.constexpr, out_stride0: tl.constexpr,
                       out_stride1: tl.constexpr):
    src_offs = (tl.arange(0, src_dim0)[:, None] * src_stride0 + tl.arange(0, src_dim1)[None, :] * src_stride1)
    src = tl.load(src_ptr + src_offs)

    idx_offs = (tl.arange(0, idx_dim0)[:, None] * idx_stride0 + tl.arange(0, idx_dim1)[None, :] * idx_stride1)
    idx = tl.load(idx_ptr + idx_offs)

    out = tl.gather(src, idx, axis)

    out_offs = (tl.arange(0, out_dim0)[:, None] * out_stride0 + tl.arange(0, out_dim1)[None, :] * out_stride1)
    tl.store(out_ptr + out_offs, out)


@case("cat_can_reorder", {"X": "*i32", "Y": "*i32", "Z": "*i32", "N": "constexpr"}, {"N": 128})
@triton.jit
def cat_can_reorder(X, Y, Z, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    z = tl.cat(x, y, can_reorder=True)
    tl.store(Z + tl.arange(0, 2 * N), z)


@case("split", {"X": "*i32", "Z1": "*i32", "Z2": "*i32", "N": "constexpr"}, {"N": 256})
@triton.jit
def split_kernel(X, Z1, Z2, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    x1 = tl.reshape(x, (N // 2, 2))
    z1, z2 = tl.split(x1)
    tl.store(Z1 + tl.arange(0, N // 2), z1)
    tl.store(Z2 + tl.arange(0, N // 2), z2)


@case("join_with_mma", {"X": "*fp32", "Z": "*fp32"})
@triton.jit
def join_with_mma(X, Z):
    x = tl.load(X + 16 * tl.arange(0, 32)[:, None] + tl.arange(0, 16)[None, :])  # (32,16)
    x2 = tl.join(x, 2 * x)  # (32,16,2)
    x3 = tl.reshape(x2, (32, 32))
    z = tl.dot(x3, x3)  # (32,32)
    tl.store(Z + 32 * tl.arange(0, 32)[:, None] + tl.arange(0, 32)[None, :], z)


@case("dot_without_load", {"out": "*fp16"})
@triton.jit
def dot_without_load(out):
    a = tl.full((32, 32), 1.0, tl.float16)
    b = tl.full((32, 32), 1.0, tl.float16)
    c = tl.dot(a, b)
    out_ptr = out + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :]
    tl.store(out_ptr, c)


@case("inline_asm_multiple_outputs", {"A": "*u32", "B": "*u32", "C": "*u32", "D": "*u32", "BLOCK": "constexpr"},
      {"BLOCK": 512})
@triton.jit
def inline_asm_multiple_outputs(A, B, C, D, BLOCK: tl.constexpr):
    a = tl.load(A + tl.arange(0, BLOCK))
    b = tl.load(B + tl.arange(0, BLOCK))
    (c, d) = tl.inline_asm_elementwise(
        asm="""
        sub.u32 $0, $2, $3;
        sub.u32 $1, $3, $2;
        """,
        constraints=("=r,=r,"
                     "r,r"),
        args=[a, b],
        dtype=(tl.uint32, tl.uint32),
        is_pure=True,
        pack=1,
    )
    tl.store(C + tl.arange(0, BLOCK), c)
    tl.store(D + tl.arange(0, BLOCK), d)


@case("for_iv_negative_step", {"Out": "*i64", "lo": "i64", "hi": "i64", "iv": "constexpr"}, {"iv": -2})
@triton.jit
def for_iv(Out, lo, hi, iv: tl.constexpr):
    acc = 0
    acc = acc.to(tl.int64)
    for i in range(lo, hi, iv):
        acc += i
    tl.store(Out, acc)


@case("while", {"InitI": "*i32", "Bound": "*i32", "CutOff": "*i32", "OutI": "*i32", "OutInitI": "*i32",
                "OutJ": "*i32"})
@triton.jit
def while_kernel(InitI, Bound, CutOff, OutI, OutInitI, OutJ):
    init_i = tl.load(InitI)
    curr_i = init_i
    j = 0
    while j < tl.load(Bound):
        curr_i = curr_i + (j == tl.load(CutOff))
        j += 1
        tl.store(OutInitI, init_i)
    tl.store(OutI, curr_i)
    tl.store(OutJ, j)


@case("unroll_attr", {"dst": "*fp32", "unroll_factor": "constexpr"}, {"unroll_factor": 4})
@triton.jit
def unroll_attr(dst, unroll_factor: tl.constexpr):
    pid = tl.program_id(axis=0)
    for i in tl.range(0, 10, loop_unroll_factor=unroll_factor):
        tl.atomic_add(dst + pid, i + pid)


@case("precise_math", {"X": "*fp32", "Y": "*fp32", "OUT": "*fp32", "OUT_REF": "*fp32", "BLOCK": "constexpr"},
      {"BLOCK": 128})
@triton.jit
def precise_math(X, Y, OUT, OUT_REF, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    y = tl.load(Y + tl.arange(0, BLOCK))
    prec = tl.math.div_rn(x, y)
    ref = (x.to(tl.float64) / y.to(tl.float64)).to(tl.float32)
    tl.store(OUT + tl.arange(0, BLOCK), prec)
    tl.store(OUT_REF + tl.arange(0, BLOCK), ref)


@case("math_extern_libdevice", {"x_ptr": "*fp32", "y_ptr": "*fp32", "n_elements": "i32", "BLOCK_SIZE": "constexpr"},
      {"BLOCK_SIZE": 128})
@triton.jit
def math_extern_libdevice(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = libdevice.tanh(x)
    tl.store(y_ptr + offsets, y, mask=mask)


@case("load_scalar_with_mask", {"Input": "*i32", "Index": "*i32", "Out": "*i32", "N": "i32"})
@triton.jit
def load_scalar_with_mask(Input, Index, Out, N: int):
    index = tl.load(Index)
    scalar = tl.load(Input + index, mask=index < N, other=0)
    tl.store(Out, scalar, mask=index < N)


@case("ptx_cast", {"in_ptr0": "*fp32", "out_ptr2": "*fp32", "xnumel": "i32", "rnumel": "i32", "dtype": "constexpr",
                   "XBLOCK": "constexpr", "RBLOCK": "constexpr"}, {"dtype": tl.float32, "XBLOCK": 1, "RBLOCK": 256},
      {"num_warps": 2})
@triton.jit
def ptx_cast(in_ptr0, out_ptr2, xnumel, rnumel, dtype: tl.constexpr, XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rbase = tl.arange(0, RBLOCK)[None, :]
    x0 = xindex
    _tmp4 = (tl.zeros([XBLOCK, RBLOCK], dtype) - 10000).to(dtype)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = rindex < rnumel
        r1 = rindex
        tmp0 = tl.load(in_ptr0 + (r1 + (197 * x0)), rmask & xmask).to(dtype)
        tmp1 = 2
        tmp2 = tmp0 * tmp1
        tmp3 = tmp2.to(dtype)
        tmp5 = _tmp4 < tmp3
        _tmp4 = tl.where(rmask & xmask & tmp5, tmp3, _tmp4)
        tl.store(out_ptr2 + (r1 + (197 * x0) + tl.zeros([XBLOCK, RBLOCK], tl.int32)), _tmp4, rmask & xmask)


@case("reduce1d_with_indices", {"X": "*fp32", "Z": "*fp32", "BLOCK": "constexpr"}, {"BLOCK": 128})
@triton.jit
def reduce1d_with_indices(X, Z, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    z, _ = tl.max(x, axis=0, return_indices=True)
    tl.store(Z, z)


@case("reduce1d_argmin_tie_break", {"X": "*fp32", "Z": "*i32", "BLOCK": "constexpr"}, {"BLOCK": 128})
@triton.jit
def reduce1d_argmin_tie_break(X, Z, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    z = tl.argmin(x, axis=0, tie_break_left=True)
    tl.store(Z, z)


@case("transpose", {"Z": "*fp32", "X": "*fp32", "SIZE": "constexpr"}, {"SIZE": 128})
@triton.jit
def transpose_kernel(Z, X, SIZE: tl.constexpr):
    off = tl.arange(0, SIZE)
    off2d = off[None, :] + (tl.arange(0, 2) * SIZE)[:, None]
    x = tl.load(X + off2d)
    z = x.T
    tl.store(Z + off2d.T, z)


@case("vectorization_hints", {"dst": "*fp32", "src": "*fp32", "off": "*i32", "N": "i32", "BLOCK_SIZE": "constexpr",
                              "HINT": "constexpr"}, {"BLOCK_SIZE": 1024, "HINT": True})
@triton.jit
def vectorization_hints(dst, src, off, N, BLOCK_SIZE: tl.constexpr, HINT: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    offsets = offsets + tl.load(off)
    if HINT:
        tl.max_contiguous(tl.multiple_of(offsets, 1024), 1024)
    x = tl.load(src + offsets, mask=offsets < N)
    tl.store(dst + offsets, x, mask=offsets < N)


@case("assume", {"out_ptr": "*fp32", "N": "constexpr", "BLOCK_N": "constexpr"}, {"N": 1024, "BLOCK_N": 128})
@triton.jit
def assume_kernel(out_ptr, N: tl.constexpr, BLOCK_N: tl.constexpr):
    current_size = N - tl.program_id(0) * BLOCK_N
    tl.assume(current_size >= BLOCK_N)
    if current_size >= 128:
        tl.store(out_ptr + tl.program_id(0), current_size)
    else:
        tl.store(out_ptr + tl.program_id(0), current_size + 101024)


@case("load_cache_modifier", {"dst": "*fp32", "src": "*fp32", "CACHE": "constexpr"}, {"CACHE": ".cg"})
@triton.jit
def load_cache_modifier(dst, src, CACHE: tl.constexpr):
    offsets = tl.arange(0, 128)
    x = tl.load(src + offsets, cache_modifier=CACHE)
    tl.store(dst + offsets, x)


@case("store_eviction_policy", {"dst": "*fp32", "src": "*fp32", "POLICY": "constexpr"}, {"POLICY": "evict_last"})
@triton.jit
def store_eviction_policy(dst, src, POLICY: tl.constexpr):
    offsets = tl.arange(0, 128)
    x = tl.load(src + offsets)
    tl.store(dst + offsets, x, eviction_policy=POLICY)

# ---------------------------------------------------------------------------------------------


def one_line(text):
    return str(text).strip().replace("\n", "\\n")


def segment(exc):
    """The source text of the AST node a CompilationError points at (its first line only)."""
    node, src = getattr(exc, "node", None), getattr(exc, "src", None)
    if node is None or not hasattr(node, "lineno") or not isinstance(src, str):
        return None
    try:
        text = ast.get_source_segment(textwrap.dedent(src), node) or ""
    except Exception:
        text = ""
    return text.splitlines()[0] if text else ""


def position(exc):
    node = getattr(exc, "node", None)
    if node is None or not hasattr(node, "lineno"):
        return None
    return f"{node.lineno}:{node.col_offset}"


def describe(exc):
    """`Type at L:C `text`` for a CompilationError, `Type` otherwise."""
    where = position(exc)
    if where is None:
        return type(exc).__name__
    return f"{type(exc).__name__} at {where} `{segment(exc)}`"


def compile_case(name, fn, signature, constexprs, options):
    """-> (the case's line, its table row)."""
    fields = [name]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            src = triton.compiler.ASTSource(fn=fn, signature=signature, constexprs=constexprs)
            triton.compile(src, options=options or None)
            fields.append("ok")
            verdict, message = "ok", ""
        except Exception as e:
            fields.append(describe(e))
            fields.append("str: " + one_line(str(e).splitlines()[0] if str(e) else ""))
            own = getattr(e, "error_message", None)
            if own:
                fields.append("msg: " + one_line(own))
            seen, cause = {id(e)}, e.__cause__
            while cause is not None and id(cause) not in seen:
                seen.add(id(cause))
                if position(cause) is not None:
                    fields.append(f"cause: {describe(cause)}: " + one_line(getattr(cause, "error_message", "") or ""))
                else:
                    fields.append(f"cause: {type(cause).__name__}: " + one_line(str(cause)))
                cause = cause.__cause__
            verdict = type(e).__name__
            innermost = [f for f in fields if f.startswith(("msg: ", "cause: "))]
            message = innermost[-1] if innermost else ""
    for w in caught:
        if issubclass(w.category, UserWarning):
            fields.append(f"warn: {w.category.__name__}: " + one_line(w.message))
    return " | ".join(fields), (name, verdict, message)


def run_cases(indices):
    """Compiles CASES[i] for each i (in a worker process: compiles are independent and slow)."""
    out = []
    for i in indices:
        name, fn, signature, constexprs, options = CASES[i]
        try:
            out.append(compile_case(name, fn, signature, constexprs, options))
        except Exception as e:  # a bug here must not hide the other cases
            out.append((f"{name} | script failure: {type(e).__name__}: {one_line(e)}", (name, "script-failure", "")))
    return out


def main():
    import concurrent.futures
    import multiprocessing
    import os

    print(f"# triton {triton.__version__}, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, "
          f"{len(CASES)} cases", flush=True)
    workers = max(1, min(12, (os.cpu_count() or 2) - 2))
    chunks = [list(range(i, len(CASES), workers)) for i in range(workers)]
    results = [None] * len(CASES)
    # spawn, not fork: each worker imports this module afresh, so no CUDA state is shared.
    ctx = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        for chunk, out in zip(chunks, pool.map(run_cases, chunks)):
            for i, item in zip(chunk, out):
                results[i] = item
    for line, _ in results:
        print(line)
    rows = [row for _, row in results]
    print()
    width = max(len(r[0]) for r in rows)
    for name, verdict, message in rows:
        print(f"{name.ljust(width)}  {verdict:22}  {message[:120]}")
    ok = sum(r[1] == "ok" for r in rows)
    print(f"\n{len(rows)} cases: {ok} compile, {len(rows) - ok} rejected")


if __name__ == "__main__":
    sys.exit(main())
