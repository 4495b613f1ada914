//===- TritonCompileErrorsTest.cpp - Triton's own compile-error tests ----===//
/// \file
/// Triton's python/test/unit/language/test_compile_errors.py and the
/// compile-time cases of test_core.py, case by case, each asserting the
/// verdict real Triton 3.6.0 gave on an H200 (measured with
/// scripts/triton_compile_errors.py; the output is
/// tests/data/triton-3.6-compile-errors.txt): clean where Triton compiles,
/// and where Triton rejects, its sentence on the token its `at L:C` points
/// at (for an error inside a helper, the innermost frame, with Triton's
/// outer frames as related call sites). Each kernel keeps the construct,
/// signature and constexprs of the Triton test; the runtime signature
/// Triton's test passes is written as string annotations ("*fp32") and the
/// constexprs as a launch, since tessel says nothing where a type is
/// unknown. Test names follow the cases of the script.
//===----------------------------------------------------------------------===//
#include "SemaTestSupport.h"

using namespace tessel;
using namespace tessel::sema;
using namespace tessel::sema::test;

namespace {

/// Triton rejects the kernel: exactly one problem, whose message starts with
/// Triton's sentence, on the token Triton points at, and (for an error inside
/// a @jit helper) the call sites Triton reports as the outer frames.
void expectRejected(const std::string &Body, const std::string &Message, const std::string &At,
                    const std::vector<std::string> &CallSites = {}) {
  auto FA = analyze(Body);
  auto Ps = problems(Body);
  ASSERT_EQ(Ps.size(), 1u) << "problems:\n" << dump(Ps);
  EXPECT_EQ(Ps[0].Message.substr(0, Message.size()), Message) << dump(Ps);
  // Triton's excerpt shows the first line of the node it points at.
  EXPECT_EQ(Ps[0].Text.substr(0, Ps[0].Text.find('\n')), At) << dump(Ps);
  std::vector<std::string> Related;
  for (const RelatedLocation &R : FA->Problems[0].Related)
    Related.push_back(std::string(FA->File->text().slice(R.Range)));
  EXPECT_EQ(Related, CallSites) << dump(Ps);
}

} // namespace

TEST(TritonCompileErrors, ErrUndefinedVariable) {
  expectRejected(R"py(
@triton.jit
def err_undefined_variable():
    a += 1  # noqa: F821
)py",
                 "a is not defined", "a");
}

TEST(TritonCompileErrors, ErrInBinaryOperator) {
  expectRejected(R"py(
@triton.jit
def err_in_binary_operator():
    0 + "a"
)py",
                 "unsupported operand type(s) for +: 'int' and 'str'", "0 + \"a\"");
}

TEST(TritonCompileErrors, ErrStaticAssert) {
  expectRejected(R"py(
@triton.jit
def err_static_assert():
    tl.static_assert(isinstance(0, tl.tensor))
)py",
                 "", "tl.static_assert(isinstance(0, tl.tensor))");
}

TEST(TritonCompileErrors, ErrInUnaryOp) {
  expectRejected(R"py(
@triton.jit
def err_in_unary_op():
    not (0, 0)
)py",
                 "'__not__' is not in list", "not (0, 0)");
}

TEST(TritonCompileErrors, ErrInBinaryOp) {
  expectRejected(R"py(
@triton.jit
def err_in_binary_op():
    1.0 << 1
)py",
                 "unsupported operand type(s) for <<: 'float' and 'int'", "1.0 << 1");
}

TEST(TritonCompileErrors, ErrInNestedCall) {
  expectRejected(R"py(
@triton.jit
def nested_call():
    xyz  # noqa: F821

@triton.jit
def err_in_nested_call():
    # the comment puts the call on line 3, as in Triton's test
    nested_call()
)py",
                 "xyz is not defined", "xyz", {"nested_call()"});
}

TEST(TritonCompileErrors, ErrInBuiltin) {
  expectRejected(R"py(
@triton.jit
def err_in_builtin():
    tl.expand_dims(None, -1)
)py",
                 "cannot convert None of type <class 'NoneType'> to tensor", "tl.expand_dims(None, -1)");
}

TEST(TritonCompileErrors, TwoReturnsNoErr) {
  expectClean(R"py(
@triton.jit
def two_returns():
    return tl.arange(0, 4)
    return tl.arange(0, 8)

@triton.jit
def two_returns_no_err():
    a = two_returns()
    a + tl.arange(0, 4)
)py");
}

TEST(TritonCompileErrors, NotConstAnnotateNoErr) {
  expectClean(R"py(
@triton.jit
def not_const_annotate_no_err(N: int = 1):
    pass
)py");
}

TEST(TritonCompileErrors, ReturnsBranchedOnConstexpr0) {
  expectClean(R"py(
@triton.jit
def returns_branched_on_constexpr(N: tl.constexpr):
    if N == 0:
        return tl.arange(0, 4)
    else:
        return tl.arange(0, 8)

@triton.jit
def returns_branched_on_constexpr_0(N: tl.constexpr):
    a = returns_branched_on_constexpr(N)
    a + tl.arange(0, 4)

def launch():
    returns_branched_on_constexpr_0[(1,)](N=0)
)py");
}

TEST(TritonCompileErrors, ReturnsBranchedOnConstexpr1) {
  expectClean(R"py(
@triton.jit
def returns_branched_on_constexpr(N: tl.constexpr):
    if N == 0:
        return tl.arange(0, 4)
    else:
        return tl.arange(0, 8)

@triton.jit
def returns_branched_on_constexpr_1(N: tl.constexpr):
    a = returns_branched_on_constexpr(N)
    a + tl.arange(0, 8)

def launch():
    returns_branched_on_constexpr_1[(1,)](N=1)
)py");
}

TEST(TritonCompileErrors, ReturnsBranchedOnNonConstexpr) {
  expectRejected(R"py(
@triton.jit
def returns_branched_on_non_constexpr(N: int):
    if N == 0:
        return tl.arange(0, 4)
    else:
        return tl.arange(0, 8)

@triton.jit
def returns_branched_on_non_constexpr_kernel(N: int):
    returns_branched_on_non_constexpr(N)
)py",
                 "Inconsistent return types: <['4'], int32> and <['8'], int32>", "return tl.arange(0, 8)",
                 {"returns_branched_on_non_constexpr(N)"});
}

TEST(TritonCompileErrors, PowerOfTwoShapes) {
  expectRejected(R"py(
@triton.jit
def power_of_two_shapes():
    tl.arange(2, 7)
)py",
                 "arange's range must be a power of 2", "tl.arange(2, 7)");
}

TEST(TritonCompileErrors, PowerOfTwoShapes2) {
  expectRejected(R"py(
@triton.jit
def power_of_two_shapes_2():
    tl.full((33, ), 0, dtype=tl.int64)
)py",
                 "Shape element 0 must be a power of 2", "tl.full((33, ), 0, dtype=tl.int64)");
}

TEST(TritonCompileErrors, CapturedVarAccess) {
  // FIXME: a @jit function defined inside a host function is not checked.
  GTEST_SKIP() << "a @jit function defined inside a host function is not checked.";
  expectRejected(R"py(
def make_captured_var_access():
    CAPTURED = 42

    @triton.jit
    def captured_var_access():
        a = CAPTURED  # noqa: F841

    return captured_var_access
)py",
                 "Cannot access global variable CAPTURED from within @jit'ed function. Triton kernels can only access "
                 "global variables that are instanstiated as constexpr (`x = triton.language.constexpr(42)`). Note "
                 "that this is different from annotating a variable as constexpr (`x: triton.language.constexpr = "
                 "42`), which is not supported.  Alternatively, set the envvar TRITON_ALLOW_NON_CONSTEXPR_GLOBALS=1, "
                 "but we do not promise to support this forever.",
                 "CAPTURED");
}

TEST(TritonCompileErrors, GlobalVarAccess) {
  expectRejected(R"py(
GLOBAL = 42

@triton.jit
def global_var_access():
    a = GLOBAL  # noqa: F841
)py",
                 "Cannot access global variable GLOBAL from within @jit'ed function. Triton kernels can only access "
                 "global variables that are instanstiated as constexpr (`x = triton.language.constexpr(42)`). Note "
                 "that this is different from annotating a variable as constexpr (`x: triton.language.constexpr = "
                 "42`), which is not supported.  Alternatively, set the envvar TRITON_ALLOW_NON_CONSTEXPR_GLOBALS=1, "
                 "but we do not promise to support this forever.",
                 "GLOBAL");
}

TEST(TritonCompileErrors, ConstexprAnnotatedGlobalVarAccess) {
  expectRejected(R"py(
CONSTEXPR_ANNOTATED_GLOBAL: tl.constexpr = 42

@triton.jit
def constexpr_annotated_global_var_access():
    a = CONSTEXPR_ANNOTATED_GLOBAL  # noqa: F841
)py",
                 "Cannot access global variable CONSTEXPR_ANNOTATED_GLOBAL from within @jit'ed function. Triton "
                 "kernels can only access global variables that are instanstiated as constexpr (`x = "
                 "triton.language.constexpr(42)`). Note that this is different from annotating a variable as constexpr "
                 "(`x: triton.language.constexpr = 42`), which is not supported.  Alternatively, set the envvar "
                 "TRITON_ALLOW_NON_CONSTEXPR_GLOBALS=1, but we do not promise to support this forever.",
                 "CONSTEXPR_ANNOTATED_GLOBAL");
}

TEST(TritonCompileErrors, ConstexprGlobalVarAccess) {
  expectClean(R"py(
CONSTEXPR_GLOBAL = tl.constexpr(42)

@triton.jit
def constexpr_global_var_access():
    a = CONSTEXPR_GLOBAL  # noqa: F841
)py");
}

TEST(TritonCompileErrors, GlobalTypeAliasAccess) {
  expectClean(R"py(
TYPE_ALIAS = tl.pointer_type(tl.int32)

@triton.jit
def global_type_alias_access():
    a = TYPE_ALIAS  # noqa: F841
)py");
}

TEST(TritonCompileErrors, GlobalAccessInFnDefaultArg) {
  expectClean(R"py(
GLOBAL = 42

@triton.jit
def global_access_in_fn_default_arg(a: "i32"=GLOBAL):
    pass
)py");
}

TEST(TritonCompileErrors, DefaultsAssignNoErr) {
  expectClean(R"py(
@triton.jit
def defaults_assign_no_err(a: "i32"=1, B: tl.constexpr = ""):
    pass

def launch(a):
    defaults_assign_no_err[(1,)](a, B='')
)py");
}

TEST(TritonCompileErrors, WhereWarning) {
  // Triton compiles it and warns: tl.where with a non-boolean condition is deprecated and will error out in a future
  // triton release. Got uint32
  expectClean(R"py(
@triton.jit
def where_warning():
    a = tl.full((64, ), 0, tl.uint32)
    b = tl.full((64, ), 1, tl.float32)
    c = tl.full((64, ), 2, tl.float32)
    tl.where(a, b, c)
)py");
}

TEST(TritonCompileErrors, Fp8SupportFloat8e5) {
  expectClean(R"py(
@triton.jit
def fp8_support(dtype: tl.constexpr):
    _ = tl.full((256, ), 0.0, dtype)

def launch():
    fp8_support[(1,)](dtype=tl.float8e5)
)py");
}

TEST(TritonCompileErrors, Fp8SupportFloat8e5b16) {
  expectRejected(
      R"py(
@triton.jit
def fp8_support(dtype: tl.constexpr):
    _ = tl.full((256, ), 0.0, dtype)

def launch():
    fp8_support[(1,)](dtype=tl.float8e5b16)
)py",
      "type fp8e5b16 not supported in this architecture. The supported fp8 dtypes are ('fp8e4b15', 'fp8e4nv', 'fp8e5')",
      "tl.full((256, ), 0.0, dtype)");
}

TEST(TritonCompileErrors, Fp8SupportFloat8e4nv) {
  expectClean(R"py(
@triton.jit
def fp8_support(dtype: tl.constexpr):
    _ = tl.full((256, ), 0.0, dtype)

def launch():
    fp8_support[(1,)](dtype=tl.float8e4nv)
)py");
}

TEST(TritonCompileErrors, Fp8SupportFloat8e4b8) {
  expectRejected(
      R"py(
@triton.jit
def fp8_support(dtype: tl.constexpr):
    _ = tl.full((256, ), 0.0, dtype)

def launch():
    fp8_support[(1,)](dtype=tl.float8e4b8)
)py",
      "type fp8e4b8 not supported in this architecture. The supported fp8 dtypes are ('fp8e4b15', 'fp8e4nv', 'fp8e5')",
      "tl.full((256, ), 0.0, dtype)");
}

TEST(TritonCompileErrors, Fp8SupportFloat8e4b15) {
  expectClean(R"py(
@triton.jit
def fp8_support(dtype: tl.constexpr):
    _ = tl.full((256, ), 0.0, dtype)

def launch():
    fp8_support[(1,)](dtype=tl.float8e4b15)
)py");
}

TEST(TritonCompileErrors, MinDotSizeFloat8e5) {
  expectRejected(R"py(
@triton.jit
def min_dot_size(dtype: tl.constexpr):
    SIZE: tl.constexpr = 8
    a = tl.full((SIZE, SIZE), 0.0, dtype)
    b = tl.full((SIZE, SIZE), 0.0, dtype)
    tl.dot(a, b)

def launch():
    min_dot_size[(1,)](dtype=tl.float8e5)
)py",
                 "Input shapes should have M >= 1, N >= 1 and K >= 32", "tl.dot(a, b)");
}

TEST(TritonCompileErrors, MinDotSizeInt8) {
  expectRejected(R"py(
@triton.jit
def min_dot_size(dtype: tl.constexpr):
    SIZE: tl.constexpr = 8
    a = tl.full((SIZE, SIZE), 0.0, dtype)
    b = tl.full((SIZE, SIZE), 0.0, dtype)
    tl.dot(a, b)

def launch():
    min_dot_size[(1,)](dtype=tl.int8)
)py",
                 "Input shapes should have M >= 1, N >= 1 and K >= 32", "tl.dot(a, b)");
}

TEST(TritonCompileErrors, MinDotSizeFloat16) {
  expectRejected(R"py(
@triton.jit
def min_dot_size(dtype: tl.constexpr):
    SIZE: tl.constexpr = 8
    a = tl.full((SIZE, SIZE), 0.0, dtype)
    b = tl.full((SIZE, SIZE), 0.0, dtype)
    tl.dot(a, b)

def launch():
    min_dot_size[(1,)](dtype=tl.float16)
)py",
                 "Input shapes should have M >= 1, N >= 1 and K >= 16", "tl.dot(a, b)");
}

TEST(TritonCompileErrors, MaxNumImpreciseAccLimit) {
  expectRejected(R"py(
@triton.jit
def max_num_imprecise_acc_limit():
    SIZE: tl.constexpr = 64
    a = tl.full((SIZE, SIZE), 0.0, tl.float8e5)
    b = tl.full((SIZE, SIZE), 0.0, tl.float8e5)
    tl.dot(a, b, max_num_imprecise_acc=128)
)py",
                 "max_num_imprecise_acc (128) must be <= K (64)", "tl.dot(a, b, max_num_imprecise_acc=128)");
}

TEST(TritonCompileErrors, ScalarOverflow) {
  expectRejected(R"py(
@triton.jit
def scalar_overflow():
    huge_int: tl.constexpr = 0xFFFFFFFFFFFFFF
    x = tl.full((), 32, dtype=tl.int32)
    y = x + huge_int  # noqa: F841
)py",
                 "Scalar 72057594037927935 is out of range for type int32", "x + huge_int");
}

TEST(TritonCompileErrors, BinOpDivInt32Uint32) {
  expectRejected(
      R"py(
@triton.jit
def bin_op_div(Z: "*fp32", X: "*i32", Y: "*u32", SIZE: tl.constexpr):
    off = tl.arange(0, SIZE)
    x = tl.load(X + off)
    y = tl.load(Y + off)
    z = x / y
    tl.store(Z + off, z)

def launch(Z, X, Y):
    bin_op_div[(1,)](Z, X, Y, SIZE=128)
)py",
      "Cannot use /, #, or % with triton.language.int32 and triton.language.uint32 because they have different "
      "signedness;this is unlikely to result in a useful answer. Cast them to the same signedness.",
      "x / y");
}

TEST(TritonCompileErrors, BinOpModInt16Uint64) {
  expectRejected(
      R"py(
@triton.jit
def bin_op_mod(Z: "*i64", X: "*i16", Y: "*u64", SIZE: tl.constexpr):
    off = tl.arange(0, SIZE)
    x = tl.load(X + off)
    y = tl.load(Y + off)
    z = x % y
    tl.store(Z + off, z)

def launch(Z, X, Y):
    bin_op_mod[(1,)](Z, X, Y, SIZE=128)
)py",
      "Cannot use /, #, or % with triton.language.int16 and triton.language.uint64 because they have different "
      "signedness;this is unlikely to result in a useful answer. Cast them to the same signedness.",
      "x % y");
}

TEST(TritonCompileErrors, BinOpModUint8Int8) {
  expectRejected(
      R"py(
@triton.jit
def bin_op_mod(Z: "*u8", X: "*u8", Y: "*i8", SIZE: tl.constexpr):
    off = tl.arange(0, SIZE)
    x = tl.load(X + off)
    y = tl.load(Y + off)
    z = x % y
    tl.store(Z + off, z)

def launch(Z, X, Y):
    bin_op_mod[(1,)](Z, X, Y, SIZE=128)
)py",
      "Cannot use /, #, or % with triton.language.uint8 and triton.language.int8 because they have different "
      "signedness;this is unlikely to result in a useful answer. Cast them to the same signedness.",
      "x % y");
}

TEST(TritonCompileErrors, BitwiseOpFloat32Int32) {
  expectRejected(R"py(
@triton.jit
def bitwise_and(Z: "*fp32", X: "*fp32", Y: "*i32", SIZE: tl.constexpr):
    off = tl.arange(0, SIZE)
    x = tl.load(X + off)
    y = tl.load(Y + off)
    z = x & y
    tl.store(Z + off, z)

def launch(Z, X, Y):
    bitwise_and[(1,)](Z, X, Y, SIZE=128)
)py",
                 "invalid operands of type triton.language.float32 and triton.language.float32", "x & y");
}

TEST(TritonCompileErrors, BitwiseOpBfloat16Bfloat16) {
  expectRejected(R"py(
@triton.jit
def bitwise_xor(Z: "*bf16", X: "*bf16", Y: "*bf16", SIZE: tl.constexpr):
    off = tl.arange(0, SIZE)
    x = tl.load(X + off)
    y = tl.load(Y + off)
    z = x ^ y
    tl.store(Z + off, z)

def launch(Z, X, Y):
    bitwise_xor[(1,)](Z, X, Y, SIZE=128)
)py",
                 "invalid operands of type triton.language.bfloat16 and triton.language.bfloat16", "x ^ y");
}

TEST(TritonCompileErrors, BitwiseOpInt32Uint8) {
  expectClean(R"py(
@triton.jit
def bitwise_and(Z: "*i32", X: "*i32", Y: "*u8", SIZE: tl.constexpr):
    off = tl.arange(0, SIZE)
    x = tl.load(X + off)
    y = tl.load(Y + off)
    z = x & y
    tl.store(Z + off, z)

def launch(Z, X, Y):
    bitwise_and[(1,)](Z, X, Y, SIZE=128)
)py");
}

TEST(TritonCompileErrors, InvalidSlice) {
  // Triton's sentence goes on with the slice object's address.
  expectRejected(R"py(
@triton.jit
def invalid_slice(dst: "*fp32"):
    dst[10:]
)py",
                 "unsupported tensor index: <triton.language.core.slice object", "dst[10:]");
}

TEST(TritonCompileErrors, ExpandDimsOutOfRange1) {
  expectRejected(R"py(
@triton.jit
def dim_out_of_range1(dummy: "*fp32", N: tl.constexpr):
    offset1 = tl.arange(0, N)

    t = tl.expand_dims(offset1, -2)
    t = tl.expand_dims(offset1, -3)  # noqa: F841

def launch(dummy):
    dim_out_of_range1[(1,)](dummy, N=32)
)py",
                 "invalid axis -3. Expected -2 <= axis < 2", "tl.expand_dims(offset1, -3)");
}

TEST(TritonCompileErrors, ExpandDimsOutOfRange2) {
  expectRejected(R"py(
@triton.jit
def dim_out_of_range2(dummy: "*fp32", N: tl.constexpr):
    offset1 = tl.arange(0, N)

    t = tl.expand_dims(offset1, 1)
    t = tl.expand_dims(offset1, 2)  # noqa: F841

def launch(dummy):
    dim_out_of_range2[(1,)](dummy, N=32)
)py",
                 "invalid axis 2. Expected -2 <= axis < 2", "tl.expand_dims(offset1, 2)");
}

TEST(TritonCompileErrors, ExpandDimsOutOfRange3) {
  expectRejected(R"py(
@triton.jit
def dim_out_of_range3(dummy: "*fp32", N: tl.constexpr):
    offset1 = tl.arange(0, 1)
    scalar = tl.sum(offset1)

    t = tl.expand_dims(scalar, 1)  # noqa: F841

def launch(dummy):
    dim_out_of_range3[(1,)](dummy, N=32)
)py",
                 "invalid axis 1. Expected -1 <= axis < 1", "tl.expand_dims(scalar, 1)");
}

TEST(TritonCompileErrors, ExpandDimsDuplicateDim1) {
  expectRejected(R"py(
@triton.jit
def duplicate_dim1(dummy: "*fp32", N: tl.constexpr):
    offset1 = tl.arange(0, N)

    t = tl.expand_dims(offset1, (0, 0))  # noqa: F841

def launch(dummy):
    duplicate_dim1[(1,)](dummy, N=32)
)py",
                 "expand_dims received duplicate axes, normalized axes = [0, 0]", "tl.expand_dims(offset1, (0, 0))");
}

TEST(TritonCompileErrors, ExpandDimsDuplicateDim2) {
  expectRejected(R"py(
@triton.jit
def duplicate_dim2(dummy: "*fp32", N: tl.constexpr):
    offset1 = tl.arange(0, N)

    t = tl.expand_dims(offset1, (0, -3))  # noqa: F841

def launch(dummy):
    duplicate_dim2[(1,)](dummy, N=32)
)py",
                 "expand_dims received duplicate axes, normalized axes = [0, 0]", "tl.expand_dims(offset1, (0, -3))");
}

TEST(TritonCompileErrors, InvalidPidAxis) {
  expectRejected(R"py(
@triton.jit
def invalid_pid_axis(dst: "*fp32"):
    pid = tl.program_id(20)  # noqa: F841
)py",
                 "program_id axis must be 0, 1, or 2 but got 20", "tl.program_id(20)");
}

TEST(TritonCompileErrors, Index1dMatch) {
  expectClean(R"py(
@triton.jit
def index1d_match(Z: "*i32", X: "*i32", SIZE: tl.constexpr):
    m = tl.arange(0, SIZE)  # noqa: F841
    n = tl.arange(0, SIZE)  # noqa: F841
    x = tl.load(X + tl.arange(0, 32)[:] * 1)
    z = x[None, :]
    tl.store(Z + tl.arange(0, 32)[None, :] * 1 + tl.arange(0, 32)[:, None] * 32, z)

def launch(Z, X):
    index1d_match[(1,)](Z, X, SIZE=32)
)py");
}

TEST(TritonCompileErrors, Index1dDimMismatch) {
  expectRejected(R"py(
@triton.jit
def index1d_dim_mismatch(Z: "*i32", X: "*i32", SIZE: tl.constexpr):
    m = tl.arange(0, SIZE)  # noqa: F841
    n = tl.arange(0, SIZE)  # noqa: F841
    x = tl.load(X + tl.arange(0, 32)[:] * 1)
    z = x[None, :]
    tl.store(Z + tl.arange(0, 64)[None, :] * 1 + tl.arange(0, 64)[:, None] * 64, z)

def launch(Z, X):
    index1d_dim_mismatch[(1,)](Z, X, SIZE=32)
)py",
                 "Cannot make_shape_compatible: incompatible dimensions at index 1: 64 and 32",
                 "tl.store(Z + tl.arange(0, 64)[None, :] * 1 + tl.arange(0, 64)[:, None] * 64, z)");
}

TEST(TritonCompileErrors, Index1dRankMismatch) {
  expectClean(R"py(
@triton.jit
def index1d_rank_mismatch(Z: "*i32", X: "*i32", SIZE: tl.constexpr):
    m = tl.arange(0, SIZE)  # noqa: F841
    n = tl.arange(0, SIZE)  # noqa: F841
    x = tl.load(X + tl.arange(0, 32)[:] * 1)
    z = x[None, :]
    tl.store(Z + tl.arange(0, 32)[None, None, :] * 1 + tl.arange(0, 32)[None, :, None] * 32 +
             tl.arange(0, 32)[:, None, None] * 1024, z)

def launch(Z, X):
    index1d_rank_mismatch[(1,)](Z, X, SIZE=32)
)py");
}

TEST(TritonCompileErrors, ReduceInvalidAxis2) {
  expectRejected(R"py(
@triton.jit
def reduce_axis(X: "*fp32", Z: "*fp32", BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, AXIS: tl.constexpr):
    range_m = tl.arange(0, BLOCK_M)
    range_n = tl.arange(0, BLOCK_N)
    x = tl.load(X + range_m[:, None] * BLOCK_N + range_n[None, :])
    z = tl.sum(x, axis=AXIS, keep_dims=False)
    tl.store(Z, z)

def launch(X, Z):
    reduce_axis[(1,)](X, Z, BLOCK_M=32, BLOCK_N=32, AXIS=2)
)py",
                 "invalid axis 2. Expected -2 <= axis < 2", "tl.sum(x, axis=AXIS, keep_dims=False)");
}

TEST(TritonCompileErrors, ReduceInvalidAxis3) {
  expectRejected(R"py(
@triton.jit
def reduce_axis(X: "*fp32", Z: "*fp32", BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, AXIS: tl.constexpr):
    range_m = tl.arange(0, BLOCK_M)
    range_n = tl.arange(0, BLOCK_N)
    x = tl.load(X + range_m[:, None] * BLOCK_N + range_n[None, :])
    z = tl.sum(x, axis=AXIS, keep_dims=False)
    tl.store(Z, z)

def launch(X, Z):
    reduce_axis[(1,)](X, Z, BLOCK_M=32, BLOCK_N=32, AXIS=3)
)py",
                 "invalid axis 3. Expected -2 <= axis < 2", "tl.sum(x, axis=AXIS, keep_dims=False)");
}

TEST(TritonCompileErrors, ConstDirectChooseConst) {
  expectRejected(R"py(
@triton.jit(do_not_specialize=["choose_const"])
def const_direct_const(in_ptr: tl.const, out: "*fp32", c_out: tl.const, choose_const: "i1", n_elems: tl.int32,
                       BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elems
    val = tl.load(in_ptr + offsets, mask=mask)
    final_out = c_out
    tl.store(final_out + offsets, val, mask=mask)

def launch(in_ptr, out, c_out, choose_const, n_elems):
    const_direct_const[(1,)](in_ptr, out, c_out, choose_const, n_elems, BLOCK_SIZE=128)
)py",
                 "Cannot store to a constant pointer", "tl.store(final_out + offsets, val, mask=mask)");
}

TEST(TritonCompileErrors, ConstDirectChooseOut) {
  expectClean(R"py(
@triton.jit(do_not_specialize=["choose_const"])
def const_direct_out(in_ptr: tl.const, out: "*fp32", c_out: tl.const, choose_const: "i1", n_elems: tl.int32,
                     BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elems
    val = tl.load(in_ptr + offsets, mask=mask)
    final_out = out
    tl.store(final_out + offsets, val, mask=mask)

def launch(in_ptr, out, c_out, choose_const, n_elems):
    const_direct_out[(1,)](in_ptr, out, c_out, choose_const, n_elems, BLOCK_SIZE=128)
)py");
}

TEST(TritonCompileErrors, ConstCallDynamic) {
  // `tl.const` with Triton's signature types ("*kfp32"): the sentence names them.
  expectRejected(R"py(
@triton.jit
def pass_const(a, b, choose_b):
    if choose_b:
        return b
    else:
        return a

@triton.jit(do_not_specialize=["choose_const"])
def const_call(in_ptr: "*kfp32", out: "*fp32", c_out: "*kfp32", choose_const: "i1", n_elems: tl.int32, BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elems
    val = tl.load(in_ptr + offsets, mask=mask)
    final_out = pass_const(out, c_out, choose_const)
    tl.store(final_out + offsets, val, mask=mask)

def launch(in_ptr, out, c_out, choose_const, n_elems):
    const_call[(1,)](in_ptr, out, c_out, choose_const, n_elems, BLOCK_SIZE=128)
)py",
                 "Inconsistent return types: const_pointer<fp32> and pointer<fp32>", "return a",
                 {"pass_const(out, c_out, choose_const)"});
}

TEST(TritonCompileErrors, ConstTernaryDynamic) {
  // `tl.const` with Triton's signature types ("*kfp32"): the sentence names them.
  expectRejected(
      R"py(
@triton.jit(do_not_specialize=["choose_const"])
def const_ternary(in_ptr: "*kfp32", out: "*fp32", c_out: "*kfp32", choose_const: "i1", n_elems: tl.int32,
                  BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elems
    val = tl.load(in_ptr + offsets, mask=mask)
    final_out = c_out if choose_const else out
    tl.store(final_out + offsets, val, mask=mask)

def launch(in_ptr, out, c_out, choose_const, n_elems):
    const_ternary[(1,)](in_ptr, out, c_out, choose_const, n_elems, BLOCK_SIZE=128)
)py",
      "Ternary expression with dynamic condition has inconsistent types const_pointer<fp32> and pointer<fp32>",
      "c_out if choose_const else out");
}

TEST(TritonCompileErrors, ConstIfDynamic) {
  // `tl.const` with Triton's signature types ("*kfp32"): the sentence names them.
  // Triton points at the `if` statement (5:4), tessel at its keyword there.
  expectRejected(
      R"py(
@triton.jit(do_not_specialize=["choose_const"])
def const_if(in_ptr: "*kfp32", out: "*fp32", c_out: "*kfp32", choose_const: "i1", n_elems: tl.int32, BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elems
    val = tl.load(in_ptr + offsets, mask=mask)
    if choose_const:
        final_out = c_out
    else:
        final_out = out
    tl.store(final_out + offsets, val, mask=mask)

def launch(in_ptr, out, c_out, choose_const, n_elems):
    const_if[(1,)](in_ptr, out, c_out, choose_const, n_elems, BLOCK_SIZE=128)
)py",
      "Mismatched type for final_out between then block (const_pointer<fp32>) and else block (pointer<fp32>)", "if");
}

TEST(TritonCompileErrors, ConstConstexprCallChooseConst) {
  expectRejected(R"py(
@triton.jit
def pass_const(a, b, choose_b):
    if choose_b:
        return b
    else:
        return a

@triton.jit
def const_constexpr_call(in_ptr: tl.const, out: "*fp32", c_out: tl.const, choose_const: tl.constexpr, n_elems: tl.int32,
                         BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elems
    val = tl.load(in_ptr + offsets, mask=mask)
    final_out = pass_const(out, c_out, choose_const)
    tl.store(final_out + offsets, val, mask=mask)

def launch(in_ptr, out, c_out, n_elems):
    const_constexpr_call[(1,)](in_ptr, out, c_out, n_elems, choose_const=True, BLOCK_SIZE=128)
)py",
                 "Cannot store to a constant pointer", "tl.store(final_out + offsets, val, mask=mask)");
}

TEST(TritonCompileErrors, ConstConstexprCallChooseOut) {
  expectClean(R"py(
@triton.jit
def pass_const(a, b, choose_b):
    if choose_b:
        return b
    else:
        return a

@triton.jit
def const_constexpr_call(in_ptr: tl.const, out: "*fp32", c_out: tl.const, choose_const: tl.constexpr, n_elems: tl.int32,
                         BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elems
    val = tl.load(in_ptr + offsets, mask=mask)
    final_out = pass_const(out, c_out, choose_const)
    tl.store(final_out + offsets, val, mask=mask)

def launch(in_ptr, out, c_out, n_elems):
    const_constexpr_call[(1,)](in_ptr, out, c_out, n_elems, choose_const=False, BLOCK_SIZE=128)
)py");
}

TEST(TritonCompileErrors, ConstConstexprIfChooseConst) {
  expectRejected(R"py(
@triton.jit
def const_constexpr_if(in_ptr: tl.const, out: "*fp32", c_out: tl.const, choose_const: tl.constexpr, n_elems: tl.int32,
                       BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elems
    val = tl.load(in_ptr + offsets, mask=mask)
    if choose_const:
        final_out = c_out
    else:
        final_out = out
    tl.store(final_out + offsets, val, mask=mask)

def launch(in_ptr, out, c_out, n_elems):
    const_constexpr_if[(1,)](in_ptr, out, c_out, n_elems, choose_const=True, BLOCK_SIZE=128)
)py",
                 "Cannot store to a constant pointer", "tl.store(final_out + offsets, val, mask=mask)");
}

TEST(TritonCompileErrors, ConstConstexprIfChooseOut) {
  expectClean(R"py(
@triton.jit
def const_constexpr_if(in_ptr: tl.const, out: "*fp32", c_out: tl.const, choose_const: tl.constexpr, n_elems: tl.int32,
                       BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elems
    val = tl.load(in_ptr + offsets, mask=mask)
    if choose_const:
        final_out = c_out
    else:
        final_out = out
    tl.store(final_out + offsets, val, mask=mask)

def launch(in_ptr, out, c_out, n_elems):
    const_constexpr_if[(1,)](in_ptr, out, c_out, n_elems, choose_const=False, BLOCK_SIZE=128)
)py");
}

TEST(TritonCompileErrors, ReshapeErr) {
  expectRejected(R"py(
@triton.jit
def reshape_err():
    x = tl.arange(0, 8 * 8)
    y = tl.reshape(x, (8 * 4, ))  # noqa: F841
)py",
                 "reshape() cannot change total number of elements in tensor", "tl.reshape(x, (8 * 4, ))");
}

TEST(TritonCompileErrors, TmaLoadBlockShapeErr) {
  expectRejected(R"py(
@triton.jit
def tma_load_block_shape_err(ptr: "*i32"):
    desc = tl.make_tensor_descriptor(ptr, [128, 128], [128, 1], [1, 2])
    desc.load([0, 0])
)py",
                 "Descriptor block shape must have at least 16 bytes in the last dimension, but got 2 * 4 = 8 bytes",
                 "tl.make_tensor_descriptor(ptr, [128, 128], [128, 1], [1, 2])");
}

TEST(TritonCompileErrors, TmaStoreBlockShapeErr) {
  expectRejected(R"py(
@triton.jit
def tma_store_block_shape_err(ptr: "*i16"):
    desc = tl.make_tensor_descriptor(ptr, [128, 128], [128, 1], [8, 4])
    desc.store([0, 0], tl.zeros([8, 4], dtype=tl.int16))
)py",
                 "Descriptor block shape must have at least 16 bytes in the last dimension, but got 4 * 2 = 8 bytes",
                 "tl.make_tensor_descriptor(ptr, [128, 128], [128, 1], [8, 4])");
}

TEST(TritonCompileErrors, CallInline) {
  expectClean(R"py(
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
def call_kernel(ptr: "*fp32", n_elements: "i32", num1: "i32", num2: "i32", type: tl.constexpr):
    vecmul_kernel(ptr, n_elements, num1, type)
    vecmul_kernel(ptr, n_elements, num2, type)

def launch(ptr, n_elements, num1, num2):
    call_kernel[(1,)](ptr, n_elements, num1, num2, type='inline')
)py");
}

TEST(TritonCompileErrors, CallNoinline) {
  expectRejected(R"py(
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
def call_kernel(ptr: "*fp32", n_elements: "i32", num1: "i32", num2: "i32", type: tl.constexpr):
    vecmul_kernel(ptr, n_elements, num1, type)
    vecmul_kernel(ptr, n_elements, num2, type)

def launch(ptr, n_elements, num1, num2):
    call_kernel[(1,)](ptr, n_elements, num1, num2, type='noinline')
)py",
                 "Function val_multiplier_noinline is marked noinline, but was called with non-scalar argument "
                 "val:fp32[constexpr[128]]",
                 "val_multiplier_noinline(vec, i)", {"vecmul_kernel(ptr, n_elements, num1, type)"});
}

TEST(TritonCompileErrors, NumWarpsPow23) {
  // Triton raises this AssertionError from the compile options, before any source
  // position; tessel points at the launch option that sets it.
  expectRejected(R"py(
@triton.jit
def num_warps_pow2(dst: "*fp32"):
    pass

def launch(dst):
    num_warps_pow2[(1,)](dst, num_warps=3)
)py",
                 "num_warps must be a power of 2", "num_warps=3");
}

TEST(TritonCompileErrors, NumWarpsPow22) {
  expectClean(R"py(
@triton.jit
def num_warps_pow2(dst: "*fp32"):
    pass

def launch(dst):
    num_warps_pow2[(1,)](dst, num_warps=2)
)py");
}

TEST(TritonCompileErrors, SliceKernel) {
  expectClean(R"py(
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

def launch():
    slice_kernel[(1,)](XBLOCK=32)
)py");
}

TEST(TritonCompileErrors, ExpandDimsKernel) {
  expectClean(R"py(
@triton.jit
def expand_dims_kernel(dummy: "*fp32", N: tl.constexpr):
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

def launch(dummy):
    expand_dims_kernel[(1,)](dummy, N=32)
)py");
}

TEST(TritonCompileErrors, ShapesAsParams) {
  // Triton compiles it and warns: view is deprecated, please use reshape with can_reorder being true.
  expectClean(R"py(
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
)py");
}

TEST(TritonCompileErrors, WhereScalarCondition) {
  expectClean(R"py(
@triton.jit
def where_scalar_condition(a_ptr: "*fp32", out_ptr: "*fp32", BLOCK_SIZE: tl.constexpr):
    xoffsets = tl.arange(0, BLOCK_SIZE)[:, None]
    yoffsets = tl.arange(0, BLOCK_SIZE)[None, :]
    mask = False
    vals = tl.load(a_ptr + yoffsets + BLOCK_SIZE * xoffsets)
    res = tl.where(mask, vals, 0.)
    tl.store(out_ptr + yoffsets + BLOCK_SIZE * xoffsets, res)

def launch(a_ptr, out_ptr):
    where_scalar_condition[(1,)](a_ptr, out_ptr, BLOCK_SIZE=32)
)py");
}

TEST(TritonCompileErrors, StoreConstantValue) {
  expectClean(R"py(
@triton.jit
def store_constant(output_ptr: "*i32", n_elements: "i32", BLOCK_SIZE: tl.constexpr, CONSTANT_FIELD: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    if CONSTANT_FIELD == "value":
        value = 1
        output = tl.full([BLOCK_SIZE], value=value, dtype=value.dtype)
        mask = offsets < n_elements
    elif CONSTANT_FIELD == "mask":
        output = offsets < n_elements
        mask = False
    tl.store(output_ptr + offsets, output, mask=mask)

def launch(output_ptr, n_elements):
    store_constant[(1,)](output_ptr, n_elements, BLOCK_SIZE=128, CONSTANT_FIELD='value')
)py");
}

TEST(TritonCompileErrors, StoreConstantMask) {
  expectClean(R"py(
@triton.jit
def store_constant(output_ptr: "*i32", n_elements: "i32", BLOCK_SIZE: tl.constexpr, CONSTANT_FIELD: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    if CONSTANT_FIELD == "value":
        value = 1
        output = tl.full([BLOCK_SIZE], value=value, dtype=value.dtype)
        mask = offsets < n_elements
    elif CONSTANT_FIELD == "mask":
        output = offsets < n_elements
        mask = False
    tl.store(output_ptr + offsets, output, mask=mask)

def launch(output_ptr, n_elements):
    store_constant[(1,)](output_ptr, n_elements, BLOCK_SIZE=128, CONSTANT_FIELD='mask')
)py");
}

TEST(TritonCompileErrors, JoinScalars) {
  expectClean(R"py(
@triton.jit
def join_scalars(X: "*i32", Y: "*i32", Z: "*i32"):
    x = tl.load(X)
    y = tl.load(Y)
    z = tl.join(x, y)
    tl.static_assert(z.shape == [2])
    tl.store(Z + tl.arange(0, 2), z)
)py");
}

TEST(TritonCompileErrors, InterleaveScalars) {
  expectClean(R"py(
@triton.jit
def interleave_scalars(X: "i32", Y: "i32", Z: "*fp32"):
    z = tl.interleave(X, Y)
    tl.static_assert(z.shape == [tl.constexpr(2)])
    tl.store(Z + tl.arange(0, 2), z)
)py");
}

TEST(TritonCompileErrors, SplitToScalar) {
  expectClean(R"py(
@triton.jit
def split_to_scalar(X: "*i64", Z1: "*i64", Z2: "*i64"):
    offs = tl.arange(0, 2)
    x = tl.load(X + offs)
    z1, z2 = tl.split(x)
    tl.static_assert(isinstance(z1, tl.tensor))
    tl.static_assert(isinstance(z2, tl.tensor))
    tl.static_assert(z1.shape == [])
    tl.static_assert(z2.shape == [])
    tl.store(Z1, z1)
    tl.store(Z2, z2)
)py");
}

TEST(TritonCompileErrors, Default) {
  expectClean(R"py(
@triton.jit
def _impl(value=10):
    return value

@triton.jit
def default_kernel(ret0: "*i32", ret1: "*i32", value: "i32"=3):
    tl.store(ret0, _impl())
    tl.store(ret1, _impl(value))
)py");
}

TEST(TritonCompileErrors, ConstexprLiteral1e50) {
  expectClean(R"py(
@triton.jit
def constexpr_literal_1e50(out_ptr: "*fp32"):
    val = 1e+50
    tl.store(out_ptr.to(tl.pointer_type(val.dtype)), val)
)py");
}

TEST(TritonCompileErrors, ConstexprLiteral240) {
  expectClean(R"py(
@triton.jit
def constexpr_literal_2_40(out_ptr: "*fp32"):
    val = 1099511627776
    tl.store(out_ptr.to(tl.pointer_type(val.dtype)), val)
)py");
}

TEST(TritonCompileErrors, ConstexprLiteralNan) {
  expectClean(R"py(
@triton.jit
def constexpr_literal_nan(out_ptr: "*fp32"):
    val = float("nan")
    tl.store(out_ptr.to(tl.pointer_type(val.dtype)), val)
)py");
}

TEST(TritonCompileErrors, IfIf) {
  expectClean(R"py(
@triton.jit
def if_kernel(Cond: "*i32", XTrue: "*fp32", XFalse: "*fp32", Ret: "*fp32", IfType: tl.constexpr, BoolVar: tl.constexpr, StaticValue: tl.constexpr):
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

def launch(Cond, XTrue, XFalse, Ret):
    if_kernel[(1,)](Cond, XTrue, XFalse, Ret, IfType='if', BoolVar=True, StaticValue=1)
)py");
}

TEST(TritonCompileErrors, IfIfAndDynamic) {
  expectClean(R"py(
@triton.jit
def if_kernel(Cond: "*i32", XTrue: "*fp32", XFalse: "*fp32", Ret: "*fp32", IfType: tl.constexpr, BoolVar: tl.constexpr, StaticValue: tl.constexpr):
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

def launch(Cond, XTrue, XFalse, Ret):
    if_kernel[(1,)](Cond, XTrue, XFalse, Ret, IfType='if_and_dynamic', BoolVar=True, StaticValue=1)
)py");
}

TEST(TritonCompileErrors, IfIfExpStatic) {
  expectClean(R"py(
@triton.jit
def if_kernel(Cond: "*i32", XTrue: "*fp32", XFalse: "*fp32", Ret: "*fp32", IfType: tl.constexpr, BoolVar: tl.constexpr, StaticValue: tl.constexpr):
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

def launch(Cond, XTrue, XFalse, Ret):
    if_kernel[(1,)](Cond, XTrue, XFalse, Ret, IfType='if_exp_static', BoolVar=True, StaticValue=1)
)py");
}

TEST(TritonCompileErrors, IfIfExpDynamic) {
  expectClean(R"py(
@triton.jit
def if_kernel(Cond: "*i32", XTrue: "*fp32", XFalse: "*fp32", Ret: "*fp32", IfType: tl.constexpr, BoolVar: tl.constexpr, StaticValue: tl.constexpr):
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

def launch(Cond, XTrue, XFalse, Ret):
    if_kernel[(1,)](Cond, XTrue, XFalse, Ret, IfType='if_exp_dynamic', BoolVar=True, StaticValue=1)
)py");
}

TEST(TritonCompileErrors, IfIfExpDynamicConstexpr) {
  expectClean(R"py(
@triton.jit
def if_kernel(Cond: "*i32", XTrue: "*fp32", XFalse: "*fp32", Ret: "*fp32", IfType: tl.constexpr, BoolVar: tl.constexpr, StaticValue: tl.constexpr):
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

def launch(Cond, XTrue, XFalse, Ret):
    if_kernel[(1,)](Cond, XTrue, XFalse, Ret, IfType='if_exp_dynamic_constexpr', BoolVar=True, StaticValue=1)
)py");
}

TEST(TritonCompileErrors, IfIfExpDynamicVoid) {
  expectClean(R"py(
@triton.jit
def if_kernel(Cond: "*i32", XTrue: "*fp32", XFalse: "*fp32", Ret: "*fp32", IfType: tl.constexpr, BoolVar: tl.constexpr, StaticValue: tl.constexpr):
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

def launch(Cond, XTrue, XFalse, Ret):
    if_kernel[(1,)](Cond, XTrue, XFalse, Ret, IfType='if_exp_dynamic_void', BoolVar=True, StaticValue=1)
)py");
}

TEST(TritonCompileErrors, IfIfAndStatic) {
  expectClean(R"py(
@triton.jit
def if_kernel(Cond: "*i32", XTrue: "*fp32", XFalse: "*fp32", Ret: "*fp32", IfType: tl.constexpr, BoolVar: tl.constexpr, StaticValue: tl.constexpr):
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

def launch(Cond, XTrue, XFalse, Ret):
    if_kernel[(1,)](Cond, XTrue, XFalse, Ret, IfType='if_and_static', BoolVar=True, StaticValue=1)
)py");
}

TEST(TritonCompileErrors, IfReturnDynamic) {
  expectClean(R"py(
@triton.jit
def if_return(ExitEarly: "*i32", Out: "*i32", cond: tl.constexpr, mode: tl.constexpr):
    if mode == "dynamic":
        if tl.load(ExitEarly):
            tl.store(Out, 0)
            return
    else:
        if cond:
            tl.store(Out, 0)
            return
    tl.store(Out, 1)

def launch(ExitEarly, Out):
    if_return[(1,)](ExitEarly, Out, cond=True, mode='dynamic')
)py");
}

TEST(TritonCompileErrors, IfReturnStatic) {
  expectClean(R"py(
@triton.jit
def if_return(ExitEarly: "*i32", Out: "*i32", cond: tl.constexpr, mode: tl.constexpr):
    if mode == "dynamic":
        if tl.load(ExitEarly):
            tl.store(Out, 0)
            return
    else:
        if cond:
            tl.store(Out, 0)
            return
    tl.store(Out, 1)

def launch(ExitEarly, Out):
    if_return[(1,)](ExitEarly, Out, cond=True, mode='static')
)py");
}

TEST(TritonCompileErrors, IfCallAttribute) {
  expectClean(R"py(
@triton.jit
def add_fn(x):
    return x + 1

@triton.jit
def add_fn_expr(Out, x):
    tl.store(Out, x)

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
def add_fn_static_cond(x, cond: tl.constexpr):
    if cond == "":
        return x
    else:
        return x + 1

@triton.jit
def if_call(Out: "*i32", call_type: tl.constexpr):
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

def launch(Out):
    if_call[(1,)](Out, call_type='attribute')
)py");
}

TEST(TritonCompileErrors, IfCallAttributeJit) {
  expectClean(R"py(
@triton.jit
def add_fn(x):
    return x + 1

@triton.jit
def add_fn_expr(Out, x):
    tl.store(Out, x)

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
def add_fn_static_cond(x, cond: tl.constexpr):
    if cond == "":
        return x
    else:
        return x + 1

@triton.jit
def if_call(Out: "*i32", call_type: tl.constexpr):
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

def launch(Out):
    if_call[(1,)](Out, call_type='attribute_jit')
)py");
}

TEST(TritonCompileErrors, IfCallJit) {
  expectClean(R"py(
@triton.jit
def add_fn(x):
    return x + 1

@triton.jit
def add_fn_expr(Out, x):
    tl.store(Out, x)

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
def add_fn_static_cond(x, cond: tl.constexpr):
    if cond == "":
        return x
    else:
        return x + 1

@triton.jit
def if_call(Out: "*i32", call_type: tl.constexpr):
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

def launch(Out):
    if_call[(1,)](Out, call_type='jit')
)py");
}

TEST(TritonCompileErrors, IfCallJitIf) {
  expectClean(R"py(
@triton.jit
def add_fn(x):
    return x + 1

@triton.jit
def add_fn_expr(Out, x):
    tl.store(Out, x)

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
def add_fn_static_cond(x, cond: tl.constexpr):
    if cond == "":
        return x
    else:
        return x + 1

@triton.jit
def if_call(Out: "*i32", call_type: tl.constexpr):
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

def launch(Out):
    if_call[(1,)](Out, call_type='jit_if')
)py");
}

TEST(TritonCompileErrors, IfCallJitExpr) {
  expectClean(R"py(
@triton.jit
def add_fn(x):
    return x + 1

@triton.jit
def add_fn_expr(Out, x):
    tl.store(Out, x)

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
def add_fn_static_cond(x, cond: tl.constexpr):
    if cond == "":
        return x
    else:
        return x + 1

@triton.jit
def if_call(Out: "*i32", call_type: tl.constexpr):
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

def launch(Out):
    if_call[(1,)](Out, call_type='jit_expr')
)py");
}

TEST(TritonCompileErrors, IfCallJitStaticCond) {
  expectClean(R"py(
@triton.jit
def add_fn(x):
    return x + 1

@triton.jit
def add_fn_expr(Out, x):
    tl.store(Out, x)

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
def add_fn_static_cond(x, cond: tl.constexpr):
    if cond == "":
        return x
    else:
        return x + 1

@triton.jit
def if_call(Out: "*i32", call_type: tl.constexpr):
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

def launch(Out):
    if_call[(1,)](Out, call_type='jit_static_cond')
)py");
}

TEST(TritonCompileErrors, IfCallJitNoinline) {
  expectClean(R"py(
@triton.jit
def add_fn(x):
    return x + 1

@triton.jit
def add_fn_expr(Out, x):
    tl.store(Out, x)

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
def add_fn_static_cond(x, cond: tl.constexpr):
    if cond == "":
        return x
    else:
        return x + 1

@triton.jit
def if_call(Out: "*i32", call_type: tl.constexpr):
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

def launch(Out):
    if_call[(1,)](Out, call_type='jit_noinline')
)py");
}

TEST(TritonCompileErrors, IfCallJitExtern) {
  expectClean(R"py(
@triton.jit
def add_fn(x):
    return x + 1

@triton.jit
def add_fn_expr(Out, x):
    tl.store(Out, x)

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
def add_fn_static_cond(x, cond: tl.constexpr):
    if cond == "":
        return x
    else:
        return x + 1

@triton.jit
def if_call(Out: "*i32", call_type: tl.constexpr):
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

def launch(Out):
    if_call[(1,)](Out, call_type='jit_extern')
)py");
}

TEST(TritonCompileErrors, NestedIfElseReturn) {
  expectClean(R"py(
@triton.jit
def nested_if_else_return(Cond1: "*i32", Cond2: "*i32", Cond3: "*i32", Val1: "*i32", Val2: "*i32", Val3: "*i32", Out: "*i32"):
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
)py");
}

TEST(TritonCompileErrors, ConstexprIfReturn1) {
  expectClean(R"py(
@triton.jit
def constexpr_if_return(Semaphore: "*i32", Out: "*i32", total: tl.constexpr):
    if total == 1:
        tl.store(Out, tl.program_id(0))
        return

    prev = tl.atomic_add(Semaphore, 1)
    if prev + 1 != total:
        return

    tl.store(Out, tl.program_id(0) + prev)

def launch(Semaphore, Out):
    constexpr_if_return[(1,)](Semaphore, Out, total=1)
)py");
}

TEST(TritonCompileErrors, ConstexprIfReturn4) {
  expectClean(R"py(
@triton.jit
def constexpr_if_return(Semaphore: "*i32", Out: "*i32", total: tl.constexpr):
    if total == 1:
        tl.store(Out, tl.program_id(0))
        return

    prev = tl.atomic_add(Semaphore, 1)
    if prev + 1 != total:
        return

    tl.store(Out, tl.program_id(0) + prev)

def launch(Semaphore, Out):
    constexpr_if_return[(1,)](Semaphore, Out, total=4)
)py");
}

TEST(TritonCompileErrors, PoisonReturn) {
  expectClean(R"py(
@triton.jit
def return_poison(x):
    a = False
    if a:
        return x

@triton.jit
def poison_return(Out: "*i32"):
    tl.store(Out, return_poison(0))
)py");
}

TEST(TritonCompileErrors, NumThreads) {
  expectClean(R"py(
@triton.jit
def num_threads(Out: "*i32"):
    num_threads: tl.constexpr = tl.extra.cuda.num_threads()
    offs = tl.arange(0, num_threads)
    tl.store(Out + offs, 1)

def launch(Out):
    num_threads[(1,)](Out, num_warps=8)
)py");
}

TEST(TritonCompileErrors, DtypeStaticAsserts) {
  expectClean(R"py(
@triton.jit
def dtype_static_asserts(X: "*i32"):
    dtype_x: tl.constexpr = X.dtype.element_ty
    tl.static_assert(dtype_x == tl.int32)
    tl.static_assert(dtype_x == tl.constexpr(tl.int32))
    tl.static_assert(dtype_x == tl.int8 or (dtype_x == tl.int16 or dtype_x == tl.int32))
)py");
}

TEST(TritonCompileErrors, JitFunctionArg) {
  expectClean(R"py(
@triton.jit
def apply_binary_op(x, combine_op):
    return combine_op(x, x)

@triton.jit
def mul_jit_function(x, y):
    return x * y

@triton.jit
def square_kernel_jit_function(in_ptr: "*fp32", out_ptr: "*fp32", BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    in_data = tl.load(in_ptr + offsets)
    out_data = apply_binary_op(in_data, mul_jit_function)  # a JITFunction passed to another
    tl.store(out_ptr + offsets, out_data)

def launch(in_ptr, out_ptr):
    square_kernel_jit_function[(1,)](in_ptr, out_ptr, BLOCK_SIZE=16)
)py");
}

TEST(TritonCompileErrors, DtypeTensor) {
  expectClean(R"py(
@triton.jit
def dtype_tensor_kernel(dtype: tl.constexpr):
    tensor = tl.zeros((1, ), dtype)  # noqa: F841

def launch():
    dtype_tensor_kernel[(1,)](dtype=tl.float16)
)py");
}

TEST(TritonCompileErrors, TlRangeOptionNone) {
  expectClean(R"py(
@triton.jit
def tl_range_option_none(ub: "i32"):
    for i in tl.range(0, ub, num_stages=None, loop_unroll_factor=None):
        print("i", i)
)py");
}

TEST(TritonCompileErrors, StaticRange) {
  expectClean(R"py(
@triton.jit
def static_range(Z: "*i32", N: tl.constexpr, step: tl.constexpr):
    acc = 0
    for i in tl.static_range(0, N, step=step):
        acc += i
    tl.store(Z, acc)

def launch(Z):
    static_range[(1,)](Z, N=100, step=7)
)py");
}

TEST(TritonCompileErrors, TempVarInLoop) {
  expectClean(R"py(
@triton.jit
def temp_var_in_loop(Z: "*i32", N: tl.constexpr, BLOCK: tl.constexpr):
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

def launch(Z):
    temp_var_in_loop[(1,)](Z, N=10, BLOCK=32)
)py");
}

TEST(TritonCompileErrors, TuplesWithFn) {
  expectClean(R"py(
@triton.jit
def tuples_fn(a, b):
    return a + b, \
        a - b, \
        a * b

@triton.jit
def tuples_with_fn(X: "*fp32", Y: "*fp32", A: "*fp32", B: "*fp32", C: "*fp32"):
    x = tl.load(X)
    y = tl.load(Y)
    a, b, c = tuples_fn(x, y)
    tl.store(A, a)
    tl.store(B, b)
    tl.store(C, c)
)py");
}

TEST(TritonCompileErrors, NoinlineDynamic) {
  expectClean(R"py(
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

@triton.jit
def noinline_dynamic(X: "*fp32", Y: "*fp32", Z: "*fp32"):
    x = tl.load(X)
    y = tl.load(Y)
    noinline_dynamic_fn(x, y, Z)
)py");
}

TEST(TritonCompileErrors, NoinlineMultiValues) {
  expectClean(R"py(
@triton.jit(noinline=True)
def noinline_call_multi_values_fn(x, y):
    return x + 1, y + 2

@triton.jit(noinline=True)
def noinline_multi_values_fn(x, y, Z):
    x, y = noinline_call_multi_values_fn(x, y)
    z = x + y
    tl.store(Z, z)

@triton.jit
def noinline_multi_values(X: "*fp32", Y: "*fp32", Z: "*fp32"):
    x = tl.load(X)
    y = tl.load(Y)
    noinline_multi_values_fn(x, y, Z)
)py");
}

TEST(TritonCompileErrors, SumDtypeInt1None) {
  expectClean(R"py(
@triton.jit
def sum_dtype(out_ptr: "*i32", init: "i32", in_dtype: tl.constexpr, out_dtype: tl.constexpr):
    x = tl.full((32, 32), init, dtype=in_dtype)
    x = tl.sum(x, dtype=out_dtype)
    tl.store(out_ptr, x.to(tl.int32))

def launch(out_ptr, init):
    sum_dtype[(1,)](out_ptr, init, in_dtype=tl.int1, out_dtype=None)
)py");
}

TEST(TritonCompileErrors, SumDtypeInt8Int8) {
  expectClean(R"py(
@triton.jit
def sum_dtype(out_ptr: "*i32", init: "i32", in_dtype: tl.constexpr, out_dtype: tl.constexpr):
    x = tl.full((32, 32), init, dtype=in_dtype)
    x = tl.sum(x, dtype=out_dtype)
    tl.store(out_ptr, x.to(tl.int32))

def launch(out_ptr, init):
    sum_dtype[(1,)](out_ptr, init, in_dtype=tl.int8, out_dtype=tl.int8)
)py");
}

TEST(TritonCompileErrors, BinOpConstexprFloatMod) {
  expectClean(R"py(
@triton.jit
def bin_op_constexpr_float_mod(Z: "*fp32", X: "*fp32", Y: "*fp32"):
    x = tl.load(X)  # noqa: F841
    y = tl.load(Y)
    z = 3.14 % y
    tl.store(Z, z)
)py");
}

TEST(TritonCompileErrors, BinOpConstexprShift) {
  expectClean(R"py(
@triton.jit
def bin_op_constexpr_shift(Z: "*i32", X: "*i32", Y: "*i32"):
    x = tl.load(X)
    y = tl.load(Y)  # noqa: F841
    z = x << 4
    tl.store(Z, z)
)py");
}

TEST(TritonCompileErrors, ConstexprScalarShape) {
  expectClean(R"py(
@triton.jit
def constexpr_scalar_shape(X: "*i32", s: "i32"):
    off = tl.arange(0, 256)
    val = off % (256 // s)
    tl.store(X + off, val)
)py");
}

TEST(TritonCompileErrors, MaskedLoadScalar) {
  expectClean(R"py(
@triton.jit
def masked_load_scalar(in_ptr: "*fp32", out_ptr: "*fp32", size: tl.constexpr, mask: tl.constexpr, other: tl.constexpr):
    offsets = tl.arange(0, size)
    x = tl.load(in_ptr + offsets, mask=mask, other=other)
    tl.store(out_ptr + offsets, x)

def launch(in_ptr, out_ptr):
    masked_load_scalar[(1,)](in_ptr, out_ptr, size=128, mask=True, other=0)
)py");
}

TEST(TritonCompileErrors, Aliasing) {
  expectClean(R"py(
@triton.jit
def aliasing_kernel(buffer: "*fp32", buffer2: "*fp32"):
    triton.language.store(buffer, 1)
)py");
}

TEST(TritonCompileErrors, Histogram) {
  expectClean(R"py(
@triton.jit
def histogram_kernel(x_ptr: "*i32", z_ptr: "*i32", M: tl.constexpr, N: tl.constexpr):
    offset1 = tl.arange(0, M)
    offset2 = tl.arange(0, N)
    x = tl.load(x_ptr + offset1)
    z = tl.histogram(x, N)
    bias = tl.full([M, N], 1, dtype=tl.int32)
    biased = z + bias  # noqa: F841
    tl.store(z_ptr + offset2, z)

def launch(x_ptr, z_ptr):
    histogram_kernel[(1,)](x_ptr, z_ptr, M=1024, N=8)
)py");
}

TEST(TritonCompileErrors, Scan2dCummax) {
  expectClean(R"py(
@triton.jit
def cummax(v0, i0, v1, i1):
    gt = v0 > v1
    return tl.where(gt, v0, v1), tl.where(gt, i0, i1)

@triton.jit
def scan2d_cummax(X: "*fp32", Y: "*fp32", Z: "*i64", BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, AXIS: tl.constexpr):
    range_m = tl.arange(0, BLOCK_M)
    range_n = tl.arange(0, BLOCK_N)
    x = tl.load(X + range_m[:, None] * BLOCK_N + range_n[None, :])
    y = tl.load(Y + range_m[:, None] * BLOCK_N + range_n[None, :])  # noqa: F841
    _, z = tl.associative_scan((x, tl.broadcast_to(range_n[None, :].to(tl.int64), [BLOCK_M, BLOCK_N])), axis=1,
                               combine_fn=cummax, reverse=False)
    tl.store(Z + range_m[:, None] * BLOCK_N + range_n[None, :], z)

def launch(X, Y, Z):
    scan2d_cummax[(1,)](X, Y, Z, BLOCK_M=32, BLOCK_N=16, AXIS=1)
)py");
}

TEST(TritonCompileErrors, GenericReduction) {
  expectClean(R"py(
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

@triton.jit
def var_mean_kernel(X: "*fp32", out_mean: "*fp32", out_var: "*fp32", BLOCK: tl.constexpr):
    xindex = tl.arange(0, BLOCK)
    x = tl.load(X + xindex)
    mean = x
    m2 = tl.zeros_like(x)
    weight = tl.full(x.shape, 1, x.dtype)
    (mean, m2, weight) = tl.reduce((mean, m2, weight), 0, _welford_combine)
    tl.store(out_mean, mean)
    tl.store(out_var, m2 / weight)

def launch(X, out_mean, out_var):
    var_mean_kernel[(1,)](X, out_mean, out_var, BLOCK=512)
)py");
}

TEST(TritonCompileErrors, AtomicRmwSem) {
  expectClean(R"py(
@triton.jit
def atomic_rmw_sem(X: "*fp32", Z: "*fp32"):
    pid = tl.program_id(0)
    x = tl.load(X + pid)
    old = tl.atomic_add(Z, x, sem="acquire")
    tl.static_assert(old.dtype == x.dtype)
)py");
}

TEST(TritonCompileErrors, TensorAtomicCas) {
  expectClean(R"py(
@triton.jit
def tensor_atomic_cas(X: "*i64", BLOCK_SIZE: tl.constexpr, sem: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    t1 = tl.full((BLOCK_SIZE, ), 0, dtype=tl.int64)
    t2 = tl.full((BLOCK_SIZE, ), 2, dtype=tl.int64)
    tl.atomic_cas(X + offsets, t1, t2, sem=sem)

def launch(X):
    tensor_atomic_cas[(1,)](X, BLOCK_SIZE=4, sem='acq_rel')
)py");
}

TEST(TritonCompileErrors, SerializedAdd) {
  expectClean(R"py(
@triton.jit
def serialized_add(data: "*fp32", Lock: "*i32", SEM: tl.constexpr):
    ptrs = data + tl.arange(0, 128)
    while tl.atomic_cas(Lock, 0, 1, SEM) == 1:
        pass

    tl.store(ptrs, tl.load(ptrs) + 1.0)
    tl.debug_barrier()
    tl.atomic_xchg(Lock, 0)

def launch(data, Lock):
    serialized_add[(1,)](data, Lock, SEM=None)
)py");
}

TEST(TritonCompileErrors, CastFloat32Int32Bitcast0) {
  expectClean(R"py(
@triton.jit
def cast_kernel(X: "*fp32", Z: "*i32", TO_TYPE: tl.constexpr, BITCAST: tl.constexpr, SIZE: tl.constexpr, ARG_HASH: tl.constexpr):
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

def launch(X, Z):
    cast_kernel[(1,)](X, Z, TO_TYPE=tl.int32, BITCAST=True, SIZE=1024, ARG_HASH=0)
)py");
}

TEST(TritonCompileErrors, CastFloat32Int32Bitcast1) {
  expectClean(R"py(
@triton.jit
def cast_kernel(X: "*fp32", Z: "*i32", TO_TYPE: tl.constexpr, BITCAST: tl.constexpr, SIZE: tl.constexpr, ARG_HASH: tl.constexpr):
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

def launch(X, Z):
    cast_kernel[(1,)](X, Z, TO_TYPE=tl.int32, BITCAST=True, SIZE=1024, ARG_HASH=1)
)py");
}

TEST(TritonCompileErrors, CastFloat32Int32Bitcast2) {
  expectClean(R"py(
@triton.jit
def cast_kernel(X: "*fp32", Z: "*i32", TO_TYPE: tl.constexpr, BITCAST: tl.constexpr, SIZE: tl.constexpr, ARG_HASH: tl.constexpr):
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

def launch(X, Z):
    cast_kernel[(1,)](X, Z, TO_TYPE=tl.int32, BITCAST=True, SIZE=1024, ARG_HASH=2)
)py");
}

TEST(TritonCompileErrors, CastFloat32Int32Bitcast3) {
  expectClean(R"py(
@triton.jit
def cast_kernel(X: "*fp32", Z: "*i32", TO_TYPE: tl.constexpr, BITCAST: tl.constexpr, SIZE: tl.constexpr, ARG_HASH: tl.constexpr):
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

def launch(X, Z):
    cast_kernel[(1,)](X, Z, TO_TYPE=tl.int32, BITCAST=True, SIZE=1024, ARG_HASH=3)
)py");
}

TEST(TritonCompileErrors, TransReshape) {
  expectClean(R"py(
@triton.jit
def trans_reshape(in_base_ptr: "*i32", out_base_ptr: "*i32", IN_SHAPE0: tl.constexpr, IN_SHAPE1: tl.constexpr):

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

def launch(in_base_ptr, out_base_ptr):
    trans_reshape[(1,)](in_base_ptr, out_base_ptr, IN_SHAPE0=32, IN_SHAPE1=32)
)py");
}

TEST(TritonCompileErrors, PropagateNanMinimum) {
  expectClean(R"py(
@triton.jit
def propagate_nan(A: "*fp32", B: "*fp32", C: "*fp32", propagate_nan: tl.constexpr, func: tl.constexpr):
    if func == 'clamp':
        tl.store(
            C,
            getattr(tl, func)(tl.load(A), -tl.load(B), tl.load(B),
                              propagate_nan=getattr(tl.PropagateNan, propagate_nan)))
    else:
        tl.store(C, getattr(tl, func)(tl.load(A), tl.load(B), propagate_nan=getattr(tl.PropagateNan, propagate_nan)))

def launch(A, B, C):
    propagate_nan[(1,)](A, B, C, propagate_nan='ALL', func='minimum')
)py");
}

TEST(TritonCompileErrors, PropagateNanClamp) {
  expectClean(R"py(
@triton.jit
def propagate_nan(A: "*fp32", B: "*fp32", C: "*fp32", propagate_nan: tl.constexpr, func: tl.constexpr):
    if func == 'clamp':
        tl.store(
            C,
            getattr(tl, func)(tl.load(A), -tl.load(B), tl.load(B),
                              propagate_nan=getattr(tl.PropagateNan, propagate_nan)))
    else:
        tl.store(C, getattr(tl, func)(tl.load(A), tl.load(B), propagate_nan=getattr(tl.PropagateNan, propagate_nan)))

def launch(A, B, C):
    propagate_nan[(1,)](A, B, C, propagate_nan='ALL', func='clamp')
)py");
}

TEST(TritonCompileErrors, SideEffectfulReduction) {
  expectClean(R"py(
@triton.jit
def sanitize_add(a, b):
    a64 = a.to(tl.int64)
    b64 = b.to(tl.int64)
    r64 = a64 + b64
    tl.device_assert((r64 >= -2**31) & (r64 <= 2**31 - 1))
    return a + b

@triton.jit(debug=True)
def sanitize_sum_kernel(Z: "*i32", X: "*i32", BLOCK: tl.constexpr):
    vals = tl.load(X + tl.arange(0, BLOCK))
    z = tl.reduce(vals, 0, sanitize_add)
    tl.store(Z, z)

def launch(Z, X):
    sanitize_sum_kernel[(1,)](Z, X, BLOCK=512)
)py");
}

TEST(TritonCompileErrors, Gather) {
  expectClean(R"py(
@triton.jit
def gather_test_kernel(src_ptr: "*fp32", idx_ptr: "*i64", out_ptr: "*fp32", axis: tl.constexpr, src_dim0: tl.constexpr, src_dim1: tl.constexpr,
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

def launch(src_ptr, idx_ptr, out_ptr):
    gather_test_kernel[(1,)](src_ptr, idx_ptr, out_ptr, axis=0, src_dim0=4, src_dim1=4, src_stride0=4, src_stride1=1, idx_dim0=8, idx_dim1=4, idx_stride0=4, idx_stride1=1, out_dim0=8, out_dim1=4, out_stride0=4, out_stride1=1)
)py");
}

TEST(TritonCompileErrors, CatCanReorder) {
  expectClean(R"py(
@triton.jit
def cat_can_reorder(X: "*i32", Y: "*i32", Z: "*i32", N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    z = tl.cat(x, y, can_reorder=True)
    tl.store(Z + tl.arange(0, 2 * N), z)

def launch(X, Y, Z):
    cat_can_reorder[(1,)](X, Y, Z, N=128)
)py");
}

TEST(TritonCompileErrors, Split) {
  expectClean(R"py(
@triton.jit
def split_kernel(X: "*i32", Z1: "*i32", Z2: "*i32", N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    x1 = tl.reshape(x, (N // 2, 2))
    z1, z2 = tl.split(x1)
    tl.store(Z1 + tl.arange(0, N // 2), z1)
    tl.store(Z2 + tl.arange(0, N // 2), z2)

def launch(X, Z1, Z2):
    split_kernel[(1,)](X, Z1, Z2, N=256)
)py");
}

TEST(TritonCompileErrors, JoinWithMma) {
  expectClean(R"py(
@triton.jit
def join_with_mma(X: "*fp32", Z: "*fp32"):
    x = tl.load(X + 16 * tl.arange(0, 32)[:, None] + tl.arange(0, 16)[None, :])  # (32,16)
    x2 = tl.join(x, 2 * x)  # (32,16,2)
    x3 = tl.reshape(x2, (32, 32))
    z = tl.dot(x3, x3)  # (32,32)
    tl.store(Z + 32 * tl.arange(0, 32)[:, None] + tl.arange(0, 32)[None, :], z)
)py");
}

TEST(TritonCompileErrors, DotWithoutLoad) {
  expectClean(R"py(
@triton.jit
def dot_without_load(out: "*fp16"):
    a = tl.full((32, 32), 1.0, tl.float16)
    b = tl.full((32, 32), 1.0, tl.float16)
    c = tl.dot(a, b)
    out_ptr = out + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :]
    tl.store(out_ptr, c)
)py");
}

TEST(TritonCompileErrors, InlineAsmMultipleOutputs) {
  expectClean(R"py(
@triton.jit
def inline_asm_multiple_outputs(A: "*u32", B: "*u32", C: "*u32", D: "*u32", BLOCK: tl.constexpr):
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

def launch(A, B, C, D):
    inline_asm_multiple_outputs[(1,)](A, B, C, D, BLOCK=512)
)py");
}

TEST(TritonCompileErrors, ForIvNegativeStep) {
  expectClean(R"py(
@triton.jit
def for_iv(Out: "*i64", lo: "i64", hi: "i64", iv: tl.constexpr):
    acc = 0
    acc = acc.to(tl.int64)
    for i in range(lo, hi, iv):
        acc += i
    tl.store(Out, acc)

def launch(Out, lo, hi):
    for_iv[(1,)](Out, lo, hi, iv=-2)
)py");
}

TEST(TritonCompileErrors, While) {
  expectClean(R"py(
@triton.jit
def while_kernel(InitI: "*i32", Bound: "*i32", CutOff: "*i32", OutI: "*i32", OutInitI: "*i32", OutJ: "*i32"):
    init_i = tl.load(InitI)
    curr_i = init_i
    j = 0
    while j < tl.load(Bound):
        curr_i = curr_i + (j == tl.load(CutOff))
        j += 1
        tl.store(OutInitI, init_i)
    tl.store(OutI, curr_i)
    tl.store(OutJ, j)
)py");
}

TEST(TritonCompileErrors, UnrollAttr) {
  expectClean(R"py(
@triton.jit
def unroll_attr(dst: "*fp32", unroll_factor: tl.constexpr):
    pid = tl.program_id(axis=0)
    for i in tl.range(0, 10, loop_unroll_factor=unroll_factor):
        tl.atomic_add(dst + pid, i + pid)

def launch(dst):
    unroll_attr[(1,)](dst, unroll_factor=4)
)py");
}

TEST(TritonCompileErrors, PreciseMath) {
  expectClean(R"py(
@triton.jit
def precise_math(X: "*fp32", Y: "*fp32", OUT: "*fp32", OUT_REF: "*fp32", BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    y = tl.load(Y + tl.arange(0, BLOCK))
    prec = tl.math.div_rn(x, y)
    ref = (x.to(tl.float64) / y.to(tl.float64)).to(tl.float32)
    tl.store(OUT + tl.arange(0, BLOCK), prec)
    tl.store(OUT_REF + tl.arange(0, BLOCK), ref)

def launch(X, Y, OUT, OUT_REF):
    precise_math[(1,)](X, Y, OUT, OUT_REF, BLOCK=128)
)py");
}

TEST(TritonCompileErrors, MathExternLibdevice) {
  expectClean(R"py(
from triton.language.extra import libdevice

@triton.jit
def math_extern_libdevice(x_ptr: "*fp32", y_ptr: "*fp32", n_elements: "i32", BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = libdevice.tanh(x)
    tl.store(y_ptr + offsets, y, mask=mask)

def launch(x_ptr, y_ptr, n_elements):
    math_extern_libdevice[(1,)](x_ptr, y_ptr, n_elements, BLOCK_SIZE=128)
)py");
}

TEST(TritonCompileErrors, LoadScalarWithMask) {
  expectClean(R"py(
@triton.jit
def load_scalar_with_mask(Input: "*i32", Index: "*i32", Out: "*i32", N: int):
    index = tl.load(Index)
    scalar = tl.load(Input + index, mask=index < N, other=0)
    tl.store(Out, scalar, mask=index < N)
)py");
}

TEST(TritonCompileErrors, PtxCast) {
  expectClean(R"py(
@triton.jit
def ptx_cast(in_ptr0: "*fp32", out_ptr2: "*fp32", xnumel: "i32", rnumel: "i32", dtype: tl.constexpr, XBLOCK: tl.constexpr, RBLOCK: tl.constexpr):
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

def launch(in_ptr0, out_ptr2, xnumel, rnumel):
    ptx_cast[(1,)](in_ptr0, out_ptr2, xnumel, rnumel, dtype=tl.float32, XBLOCK=1, RBLOCK=256, num_warps=2)
)py");
}

TEST(TritonCompileErrors, Reduce1dWithIndices) {
  expectClean(R"py(
@triton.jit
def reduce1d_with_indices(X: "*fp32", Z: "*fp32", BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    z, _ = tl.max(x, axis=0, return_indices=True)
    tl.store(Z, z)

def launch(X, Z):
    reduce1d_with_indices[(1,)](X, Z, BLOCK=128)
)py");
}

TEST(TritonCompileErrors, Reduce1dArgminTieBreak) {
  expectClean(R"py(
@triton.jit
def reduce1d_argmin_tie_break(X: "*fp32", Z: "*i32", BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    z = tl.argmin(x, axis=0, tie_break_left=True)
    tl.store(Z, z)

def launch(X, Z):
    reduce1d_argmin_tie_break[(1,)](X, Z, BLOCK=128)
)py");
}

TEST(TritonCompileErrors, Transpose) {
  expectClean(R"py(
@triton.jit
def transpose_kernel(Z: "*fp32", X: "*fp32", SIZE: tl.constexpr):
    off = tl.arange(0, SIZE)
    off2d = off[None, :] + (tl.arange(0, 2) * SIZE)[:, None]
    x = tl.load(X + off2d)
    z = x.T
    tl.store(Z + off2d.T, z)

def launch(Z, X):
    transpose_kernel[(1,)](Z, X, SIZE=128)
)py");
}

TEST(TritonCompileErrors, VectorizationHints) {
  expectClean(R"py(
@triton.jit
def vectorization_hints(dst: "*fp32", src: "*fp32", off: "*i32", N: "i32", BLOCK_SIZE: tl.constexpr, HINT: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    offsets = offsets + tl.load(off)
    if HINT:
        tl.max_contiguous(tl.multiple_of(offsets, 1024), 1024)
    x = tl.load(src + offsets, mask=offsets < N)
    tl.store(dst + offsets, x, mask=offsets < N)

def launch(dst, src, off, N):
    vectorization_hints[(1,)](dst, src, off, N, BLOCK_SIZE=1024, HINT=True)
)py");
}

TEST(TritonCompileErrors, Assume) {
  expectClean(R"py(
@triton.jit
def assume_kernel(out_ptr: "*fp32", N: tl.constexpr, BLOCK_N: tl.constexpr):
    current_size = N - tl.program_id(0) * BLOCK_N
    tl.assume(current_size >= BLOCK_N)
    if current_size >= 128:
        tl.store(out_ptr + tl.program_id(0), current_size)
    else:
        tl.store(out_ptr + tl.program_id(0), current_size + 101024)

def launch(out_ptr):
    assume_kernel[(1,)](out_ptr, N=1024, BLOCK_N=128)
)py");
}

TEST(TritonCompileErrors, LoadCacheModifier) {
  expectClean(R"py(
@triton.jit
def load_cache_modifier(dst: "*fp32", src: "*fp32", CACHE: tl.constexpr):
    offsets = tl.arange(0, 128)
    x = tl.load(src + offsets, cache_modifier=CACHE)
    tl.store(dst + offsets, x)

def launch(dst, src):
    load_cache_modifier[(1,)](dst, src, CACHE='.cg')
)py");
}

TEST(TritonCompileErrors, StoreEvictionPolicy) {
  expectClean(R"py(
@triton.jit
def store_eviction_policy(dst: "*fp32", src: "*fp32", POLICY: tl.constexpr):
    offsets = tl.arange(0, 128)
    x = tl.load(src + offsets)
    tl.store(dst + offsets, x, eviction_policy=POLICY)

def launch(dst, src):
    store_eviction_policy[(1,)](dst, src, POLICY='evict_last')
)py");
}
