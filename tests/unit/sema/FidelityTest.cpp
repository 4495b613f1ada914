//===- FidelityTest.cpp - tessel against Triton 3.6, construct by construct -===//
/// \file
/// Kernels whose fate under the real Triton 3.6.0 was measured (compiled with
/// scripts/triton_oracle.py on an H200): the valid ones must check clean,
/// the rejected ones must give Triton's sentence. Each test names the rule of
/// Triton's source it follows (semantic.py, core.py, standard.py, math.py,
/// code_generator.py). Pointer parameters carry a type annotation where the
/// outcome depends on the element type, since tessel stays silent on unknown
/// dtypes.
//===----------------------------------------------------------------------===//
#include "SemaTestSupport.h"

using namespace tessel;
using namespace tessel::sema;
using namespace tessel::sema::test;

//===--- Valid kernels: tessel must stay silent ---------------------------===//

TEST(Fidelity, WhereSelectsBetweenPointers) {
  // semantic.where types x and y with binary_op_type_checking_impl(x, y,
  // True, True): two pointers of one type are fine; nothing adds them.
  expectClean(R"(
@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    p = tl.where(m, y_ptr + offs, y_ptr)
    tl.store(p, tl.load(x_ptr + offs, mask=m, other=0.0), mask=m)
)");
}

TEST(Fidelity, IfOnOneElementBlock) {
  // code_generator.visit_If rejects only a block of more than one element; a
  // [1] block is unsplatted with a warning.
  expectClean(R"(
@triton.jit
def k(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    s = tl.sum(x, axis=0, keep_dims=True)
    if s > 0:
        x = x * 2.0
    tl.store(y_ptr + offs, x)
)");
}

TEST(Fidelity, LoopVariableTakesTheBoundsType) {
  // visit_For: the induction variable is integer_promote_impl of lb, ub and
  // step, so an int64 bound gives an int64 loop variable.
  expectClean(R"(
@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    n64 = n.to(tl.int64)
    last = n64 * 0
    for i in range(0, n64):
        last = i
    tl.store(y_ptr + last, 1.0)
)");
}

TEST(Fidelity, MaximumTurnsPythonScalarIntoTensor) {
  // core.maximum calls to_tensor on both operands before promotion, so 0.0
  // is an fp32 tensor and the result is fp32: tl.exp accepts it.
  expectClean(R"(
@triton.jit
def k(x_ptr: "*fp16", y_ptr: "*fp32", BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.exp(tl.maximum(x, 0.0)))
)");
}

TEST(Fidelity, MinimumPromotesBf16ToFp32) {
  // core.minimum applies _promote_bfloat16_to_float32 to both operands.
  expectClean(R"(
@triton.jit
def k(x_ptr: "*bf16", y_ptr: "*bf16", z_ptr: "*fp32", BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(z_ptr + offs, tl.exp(tl.minimum(x, y)))
)");
}

TEST(Fidelity, LocalNumberIsATensor) {
  // visit_Assign's _sanitize_value turns a constexpr number into a tensor:
  // `scale` is an fp32 scalar, so x * scale is fp32 and tl.exp accepts it.
  expectClean(R"(
@triton.jit
def k(x_ptr: "*fp16", y_ptr: "*fp32", BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    scale = 0.5
    tl.store(y_ptr + offs, tl.exp(x * scale))
)");
}

TEST(Fidelity, MaxOfFp16IsFp32) {
  // standard.max widens inputs narrower than 32 bits (floats to fp32).
  expectClean(R"(
@triton.jit
def k(x_ptr: "*fp16", y_ptr: "*fp32", BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = tl.max(tl.load(x_ptr + offs), axis=0)
    tl.store(y_ptr, tl.exp(m))
)");
}

TEST(Fidelity, CumsumOfBf16IsFp32) {
  // standard.cumsum applies _promote_bfloat16_to_float32.
  expectClean(R"(
@triton.jit
def k(x_ptr: "*bf16", y_ptr: "*fp32", BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.exp(tl.cumsum(tl.load(x_ptr + offs), axis=0)))
)");
}

TEST(Fidelity, Uint8PlusPythonIntStaysUint8) {
  // dtype.kind() orders bool < integer < fp, signed or not: an int scalar
  // does not promote a uint8 tensor, so the loop-carried type is stable.
  expectClean(R"(
@triton.jit
def k(x_ptr: "*u8", y_ptr: "*u8", n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.load(x_ptr + offs)
    for i in range(n):
        acc = acc + 1
    tl.store(y_ptr + offs, acc)
)");
}

TEST(Fidelity, WhereWithIntTensorAndFloatScalarIsFloat) {
  // where promotes x and y like a binary operation: int32 and 0.5 give fp32.
  expectClean(R"(
@triton.jit
def k(x_ptr: "*i32", y_ptr: "*fp32", BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.exp(tl.where(x > 0, x, 0.5)))
)");
}

TEST(Fidelity, CompareTurnsScalarIntoTensor) {
  // tensor.__gt__ calls to_tensor(other) first, so -1 is no Python scalar
  // there and the unsigned/negative check does not apply.
  expectClean(R"(
@triton.jit
def k(x_ptr: "*u32", y_ptr: "*i1", BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, x > -1)
)");
}

TEST(Fidelity, MinMaxBuiltinsOnConstexprsStayConstexpr) {
  // Measured: `min(BLOCK, 64)` of constexprs is a constexpr in Triton 3.6.
  expectClean(R"(
@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, min(BLOCK, 64))
    tl.store(x_ptr + offs, 1.0)
)");
}

TEST(Fidelity, NegativeStaticRangeStepAndTupleHelpers) {
  expectClean(R"(
@triton.jit
def _pair(x, y):
    return x + y, x * y

@triton.jit
def _scaled(x, scale=2.0, N: tl.constexpr = 4):
    return x * scale + N

@triton.jit
def k(x_ptr, y_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in tl.static_range(0, 8, 2):
        acc += tl.load(x_ptr + i * BLOCK + offs)
    for j in tl.static_range(4, 0, -1):
        acc += j
    s, p = _pair(acc, 2.0)
    tl.store(y_ptr + offs, s + p + _scaled(acc) + _scaled(acc, N=8))
)");
}

TEST(Fidelity, AnnotatedLocalConstexprStaysConstexpr) {
  expectClean(R"(
@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    B2: tl.constexpr = BLOCK * 2
    offs = tl.arange(0, B2)
    flag = True
    if flag:
        tl.store(x_ptr + offs, 1.0)
)");
}

//===--- Kernels Triton rejects: tessel gives Triton's sentence -----------===//

TEST(Fidelity, LocalCopyOfConstexprIsATensor) {
  expectOne(R"(
@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    n_iter = 4
    for i in tl.static_range(n_iter):
        tl.store(x_ptr + i, 1.0)
)",
            ProblemKind::ConstexprRequired, "int32[] used as tl.static_range start value is not a constexpr", "n_iter");
}

TEST(Fidelity, HelperReturnsConstexprAsTensor) {
  expectOne(R"(
@triton.jit
def _twice(BLOCK: tl.constexpr):
    return BLOCK * 2

@triton.jit
def k(x_ptr, BLOCK: tl.constexpr = 64):
    n = _twice(BLOCK)
    tl.store(x_ptr + tl.arange(0, n), 1.0)
)",
            ProblemKind::ConstexprRequired, "arange's arguments must be of type tl.constexpr", "tl.arange(0, n)");
}

TEST(Fidelity, SigmoidOfFp16) {
  // standard.sigmoid calls math.exp, which takes fp32 and fp64 only.
  expectOne(R"(
@triton.jit
def k(x_ptr: "*fp16", BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.sigmoid(tl.load(x_ptr + offs)))
)",
            ProblemKind::InvalidOperands, "Expected dtype ['fp32', 'fp64'] but got fp16",
            "tl.sigmoid(tl.load(x_ptr + offs))");
}

TEST(Fidelity, WhereKeepsFp16WithPythonZero) {
  expectOne(R"(
@triton.jit
def k(x_ptr: "*fp16", BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, tl.exp(tl.where(x > 0, x, 0.0)))
)",
            ProblemKind::InvalidOperands, "Expected dtype ['fp32', 'fp64'] but got fp16",
            "tl.exp(tl.where(x > 0, x, 0.0))");
}

TEST(Fidelity, FloorDivOfFloats) {
  expectOne(R"(
@triton.jit
def k(x_ptr: "*fp32", BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, x // 2.0)
)",
            ProblemKind::InvalidOperands, "unexpected type fp32", "x // 2.0");
}

TEST(Fidelity, ShiftOfFloat) {
  expectOne(R"(
@triton.jit
def k(x_ptr: "*fp32", BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, x << 2)
)",
            ProblemKind::InvalidOperands,
            "invalid operands of type triton.language.float32 and triton.language.float32", "x << 2");
}

TEST(Fidelity, PointerComparison) {
  expectOne(R"(
@triton.jit
def k(x_ptr: "*fp32", n, BLOCK: tl.constexpr):
    p = x_ptr + tl.arange(0, BLOCK)
    m = p < x_ptr + n
    tl.store(p, 1.0, mask=m)
)",
            ProblemKind::InvalidOperands, "invalid operands of type pointer<fp32> and pointer<fp32>", "p < x_ptr + n");
}

TEST(Fidelity, InvertOfFloat) {
  expectOne(R"(
@triton.jit
def k(x_ptr: "*fp32", BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, ~x)
)",
            ProblemKind::InvalidOperands, "wrong type argument to unary invert (triton.language.float32)", "~x");
}

TEST(Fidelity, FdivOfIntegers) {
  expectOne(R"(
@triton.jit
def k(x_ptr: "*i32", BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, tl.fdiv(x, x))
)",
            ProblemKind::InvalidOperands, "both operands of fdiv must have floating scalar type", "tl.fdiv(x, x)");
}

TEST(Fidelity, ClampOfIntegers) {
  expectOne(R"(
@triton.jit
def k(x_ptr: "*i32", BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, tl.clamp(x, 0, 10))
)",
            ProblemKind::InvalidOperands, "Unexpected dtype int32. Only floating point clamp is supported",
            "tl.clamp(x, 0, 10)");
}

TEST(Fidelity, UmulhiOfInt8) {
  expectOne(R"(
@triton.jit
def k(x_ptr: "*i32", BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs).to(tl.int8)
    tl.store(x_ptr + offs, tl.umulhi(x, x))
)",
            ProblemKind::InvalidOperands, "Expected dtype ['int32', 'int64', 'uint32', 'uint64'] but got int8",
            "tl.umulhi(x, x)");
}

TEST(Fidelity, MaxOfFp16ChangesLoopCarriedType) {
  expectOne(R"(
@triton.jit
def k(x_ptr: "*fp16", n, BLOCK: tl.constexpr = 64):
    offs = tl.arange(0, BLOCK)
    m = tl.full((BLOCK,), float("-inf"), tl.float16)
    for i in range(n):
        x = tl.load(x_ptr + offs[:, None] * BLOCK + offs[None, :])
        m = tl.maximum(m, tl.max(x, axis=1))
    tl.store(x_ptr + offs, m)
)",
            ProblemKind::ControlFlowType, "Loop-carried variable m has initial type <['", "for");
}

TEST(Fidelity, SumOfBoolIsUint32) {
  expectOne(R"(
@triton.jit
def k(x_ptr: "*fp32", y_ptr: "*i32", n, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    c = tl.zeros((), tl.int32)
    for i in range(n):
        c = tl.sum(x > 0, axis=0)
    tl.store(y_ptr, c)
)",
            ProblemKind::ControlFlowType,
            "Loop-carried variable c has initial type int32 but is re-assigned to uint32 in loop!", "for");
}

TEST(Fidelity, BitcastAndRoundingThatTritonAccepts) {
  expectClean(R"(
@triton.jit
def k(x_ptr: "*fp32", y_ptr: "*fp16", BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    bits = x.to(tl.int32, bitcast=True)
    x = (bits & 0x7FFFFFFF).to(tl.float32, bitcast=True)
    tl.store(y_ptr + offs, x.to(tl.float16, fp_downcast_rounding="rtz"))
)");
}

TEST(Fidelity, ADefaultThatCallsItsOwnFunctionEndsWithoutRecursingForever) {
  // The edits fuzzer's crash-41ba4f3a: a damaged file whose helper's default calls the helper. Python
  // evaluates a default where the function is defined, before the function exists; the checker
  // evaluates it at each call, which called the helper again, whose default... until the stack ran out.
  expectClean(R"(
@triton.jit
def f(x, y=f(1).T):
    return x

@triton.jit
def k(x_ptr: "*fp32"):
    tl.store(x_ptr, f(tl.load(x_ptr)))
)");
}

TEST(Fidelity, BitcastChangesSize) {
  expectOne(R"(
@triton.jit
def k(x_ptr: "*fp32", BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, x.to(tl.float16, bitcast=True))
)",
            ProblemKind::InvalidOperands, "Cannot bitcast data-type of size 32 to data-type of size 16",
            "x.to(tl.float16, bitcast=True)");
}

TEST(Fidelity, RoundingModeOnNonTruncatingCast) {
  expectOne(R"(
@triton.jit
def k(x_ptr: "*fp32", BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, x.to(tl.int32, fp_downcast_rounding="rtz"))
)",
            ProblemKind::InvalidOperands,
            "fp_downcast_rounding should be set only for truncating fp conversions. Source scalar type is fp32 and "
            "destination type is int32",
            "x.to(tl.int32, fp_downcast_rounding=\"rtz\")");
}

TEST(Fidelity, BlockPointerStoreNeedsSameElementType) {
  // semantic._store_block_pointer asserts the element types match.
  expectOne(R"(
@triton.jit
def k(c_ptr: "*fp16", M, N, BM: tl.constexpr, BN: tl.constexpr):
    c_bp = tl.make_block_ptr(base=c_ptr, shape=(M, N), strides=(N, 1), offsets=(0, 0),
                             block_shape=(BM, BN), order=(1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    tl.store(c_bp, acc, boundary_check=(0, 1))
)",
            ProblemKind::LoadStore, "Block element type(fp16) and value element type(fp32) mismatch",
            "tl.store(c_bp, acc, boundary_check=(0, 1))");
}

TEST(Fidelity, BlockPointerLoopAsInTheTutorials) {
  expectClean(R"(
@triton.jit
def k(a_ptr: "*fp16", b_ptr: "*fp16", c_ptr: "*fp16", M, N, K,
      BM: tl.constexpr = 64, BN: tl.constexpr = 64, BK: tl.constexpr = 32):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_bp = tl.make_block_ptr(base=a_ptr, shape=(M, K), strides=(K, 1), offsets=(pid_m * BM, 0),
                             block_shape=(BM, BK), order=(1, 0))
    b_bp = tl.make_block_ptr(base=b_ptr, shape=(K, N), strides=(N, 1), offsets=(0, pid_n * BN),
                             block_shape=(BK, BN), order=(1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_bp, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_bp, boundary_check=(0, 1))
        acc += tl.dot(a, b)
        a_bp = tl.advance(a_bp, (0, BK))
        b_bp = tl.advance(b_bp, (BK, 0))
    c_bp = tl.make_block_ptr(base=c_ptr, shape=(M, N), strides=(N, 1), offsets=(pid_m * BM, pid_n * BN),
                             block_shape=(BM, BN), order=(1, 0))
    tl.store(c_bp, acc.to(tl.float16), boundary_check=(0, 1))
)");
}

TEST(Fidelity, BooleanOperatorOnIntTensors) {
  // `x and x` is tensor.logical_and, which bitcasts int32 to int1.
  expectOne(R"(
@triton.jit
def k(x_ptr: "*i32", BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, x and x)
)",
            ProblemKind::InvalidOperands, "Cannot bitcast data-type of size 32 to data-type of size 1", "x and x");
}

TEST(Fidelity, BooleanOperatorsOnComparisons) {
  expectClean(R"(
@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    if pid > 0 and n > 0:
        tl.store(x_ptr + offs, 1.0, mask=(offs < n) & (offs >= 0))
)");
}

TEST(Fidelity, ExpandDimsAxisOutOfRange) {
  expectOne(R"(
@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    y = tl.expand_dims(x, 3)
)",
            ProblemKind::ShapeMismatch, "invalid axis 3. Expected -2 <= axis < 2", "tl.expand_dims(x, 3)");
}

TEST(Fidelity, PermuteDimsLength) {
  expectOne(R"(
@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs[:, None] * BLOCK + offs[None, :])
    y = tl.permute(x, (1, 0, 2))
)",
            ProblemKind::ShapeMismatch, "permute dims must have the same length as input shape",
            "tl.permute(x, (1, 0, 2))");
}

TEST(Fidelity, PermuteDimsNotAPermutation) {
  expectOne(R"(
@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs[:, None] * BLOCK + offs[None, :])
    y = tl.permute(x, (1, 1))
)",
            ProblemKind::ShapeMismatch,
            "permute dims must be a permutation of 0, 1, ..., n-1, but were ['constexpr[1]', 'constexpr[1]']",
            "tl.permute(x, (1, 1))");
}

TEST(Fidelity, AtomicElementTypes) {
  expectOne(R"(
@triton.jit
def k(x_ptr: "*fp16", BLOCK: tl.constexpr):
    tl.atomic_max(x_ptr + tl.arange(0, BLOCK), 1.0)
)",
            ProblemKind::LoadStore, "atomic_max does not support fp16",
            "tl.atomic_max(x_ptr + tl.arange(0, BLOCK), 1.0)");
  expectOne(R"(
@triton.jit
def k(x_ptr: "*fp16", BLOCK: tl.constexpr):
    tl.atomic_xchg(x_ptr + tl.arange(0, BLOCK), 1.0)
)",
            ProblemKind::LoadStore, "atomic_xchg does not support fp16",
            "tl.atomic_xchg(x_ptr + tl.arange(0, BLOCK), 1.0)");
  expectOne(R"(
@triton.jit
def k(x_ptr: "*i8", BLOCK: tl.constexpr):
    tl.atomic_add(x_ptr + tl.arange(0, BLOCK), 1)
)",
            ProblemKind::LoadStore, "atomic_add does not support int8",
            "tl.atomic_add(x_ptr + tl.arange(0, BLOCK), 1)");
  expectClean(R"(
@triton.jit
def k(x_ptr: "*fp16", lock_ptr: "*i32", BLOCK: tl.constexpr):
    while tl.atomic_cas(lock_ptr, 0, 1) == 1:
        pass
    tl.atomic_add(x_ptr + tl.arange(0, BLOCK), 1.0)
    tl.atomic_xchg(lock_ptr, 0)
)");
}

TEST(Fidelity, TernaryWithDynamicConditionNeedsOneType) {
  expectOne(R"(
@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    v = 1.0 if n > 0 else 2
    tl.store(x_ptr + tl.arange(0, BLOCK), v)
)",
            ProblemKind::ControlFlowType,
            "Ternary expression with dynamic condition has inconsistent types fp32 and int32", "1.0 if n > 0 else 2");
}

TEST(Fidelity, LocalShapeTupleHoldsTensors) {
  expectOne(R"(
@triton.jit
def k(x_ptr, BLOCK: tl.constexpr = 64):
    shape = (BLOCK, BLOCK)
    z = tl.zeros(shape, tl.float32)
)",
            ProblemKind::ConstexprRequired,
            "Shape element 0 must have type `constexpr[int]`, got `constexpr[<class 'triton.language.core.tensor'>]`",
            "shape");
}

TEST(Fidelity, LocalZeroAccumulatorInLoops) {
  // `acc = 0` is an int32 tensor: a dynamic loop cannot turn it into a block,
  // an unrolled static_range can.
  expectOne(R"(
@triton.jit
def k(x_ptr: "*fp32", n, BLOCK: tl.constexpr = 64):
    offs = tl.arange(0, BLOCK)
    acc = 0
    for i in range(n):
        acc += tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, acc)
)",
            ProblemKind::ControlFlowType, "Loop-carried variable acc has initial type int32 but is re-assigned to <[",
            "for");
  expectClean(R"(
@triton.jit
def k(x_ptr, BLOCK: tl.constexpr = 64):
    offs = tl.arange(0, BLOCK)
    acc = 0
    for i in tl.static_range(4):
        acc += tl.load(x_ptr + offs + i)
    n = tl.minimum(BLOCK, 32)
    tl.store(x_ptr + offs, acc + n)
)");
}

TEST(Fidelity, PythonIntOutOfRangeForTheTensorType) {
  // binary_op_type_checking_impl: an int scalar does not promote an int32
  // tensor, and 0xFFFFFFFF does not fit int32.
  expectOne(R"(
@triton.jit
def k(x_ptr: "*i32", BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, x & 0xFFFFFFFF)
)",
            ProblemKind::InvalidOperands, "Scalar 4294967295 is out of range for type int32", "x & 0xFFFFFFFF");
  expectClean(R"(
@triton.jit
def k(x_ptr: "*u32", BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    h = tl.load(x_ptr + offs) * 2654435761
    tl.store(x_ptr + offs, h ^ (h >> 16))
)");
}

TEST(Fidelity, LocalStringCannotBeATensor) {
  expectOne(R"(
@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    name = "relu"
    tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)
)",
            ProblemKind::InvalidOperands, "cannot convert relu of type <class 'str'> to tensor", "name = \"relu\"");
}

TEST(Fidelity, StaticPrintTakesPrintKeywords) {
  expectClean(R"(
@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    tl.static_print("BLOCK", BLOCK, sep=" = ")
)");
}

TEST(Fidelity, InvalidRoundingMode) {
  expectOne(R"(
@triton.jit
def k(x_ptr: "*fp32", BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, x.to(tl.float16, fp_downcast_rounding="rtp"))
)",
            ProblemKind::InvalidOperands, "Invalid rounding mode: rtp. Supported rounding modes are 'rtne' and 'rtz'.",
            "x.to(tl.float16, fp_downcast_rounding=\"rtp\")");
}

TEST(Fidelity, TinyFloatLiteralIsFp64) {
  // to_tensor_type: a float outside fp32's normal range is fp64, so an int
  // tensor times 1e-40 is fp64.
  expectOne(R"(
@triton.jit
def k(x_ptr: "*i32", y_ptr: "*fp32", n, BLOCK: tl.constexpr = 64):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    acc = tl.zeros((BLOCK,), tl.float32)
    for i in range(n):
        acc = acc + x * 1e-40
    tl.store(y_ptr + offs, acc)
)",
            ProblemKind::ControlFlowType,
            "Loop-carried variable acc has initial type <['64'], fp32> but is re-assigned to <['64'], fp64> in loop!",
            "for");
}

TEST(Fidelity, BlockPointerStoreWithMask) {
  // _store_block_pointer reuses the load's sentence.
  expectOne(R"(
@triton.jit
def k(x_ptr: "*fp32", n, BLOCK: tl.constexpr):
    bp = tl.make_block_ptr(base=x_ptr, shape=(n,), strides=(1,), offsets=(0,), block_shape=(BLOCK,), order=(0,))
    tl.store(bp, tl.zeros((BLOCK,), tl.float32), mask=tl.arange(0, BLOCK) < n)
)",
            ProblemKind::LoadStore, "`mask` and `other` arguments cannot be specified for loading block pointers",
            "tl.store(bp, tl.zeros((BLOCK,), tl.float32), mask=tl.arange(0, BLOCK) < n)");
}

TEST(Fidelity, PaddingOptionOnTensorOfPointers) {
  expectOne(R"(
@triton.jit
def k(x_ptr: "*fp32", BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, padding_option="zero")
)",
            ProblemKind::LoadStore,
            "`padding_option` or `boundary_check` argument is not supported for loading a tensor ofpointers or "
            "loading a scalar. Because the compiler does not know the boundary; please use block pointers (defined "
            "by `make_block_ptr`) instead",
            "tl.load(x_ptr + offs, padding_option=\"zero\")");
}

TEST(Fidelity, DotAccumulatorMustMatchOutDtype) {
  // Measured: int8 operands with an int32 accumulator fail semantic.dot's
  // assertion unless out_dtype=tl.int32 is passed (the assertion has no text).
  expectOne(R"(
@triton.jit
def k(a_ptr: "*i8", b_ptr: "*i8", c_ptr: "*i32"):
    r = tl.arange(0, 32)
    a = tl.load(a_ptr + r[:, None] * 32 + r[None, :])
    b = tl.load(b_ptr + r[:, None] * 32 + r[None, :])
    acc = tl.zeros((32, 32), dtype=tl.int32)
    acc = tl.dot(a, b, acc)
)",
            ProblemKind::Dot, "the accumulator's element type int32 must equal out_dtype (fp32)", "tl.dot(a, b, acc)");
  expectClean(R"(
@triton.jit
def k(a_ptr: "*i8", b_ptr: "*i8", c_ptr: "*i32", h_ptr: "*fp16"):
    r = tl.arange(0, 32)
    a = tl.load(a_ptr + r[:, None] * 32 + r[None, :])
    b = tl.load(b_ptr + r[:, None] * 32 + r[None, :])
    acc = tl.zeros((32, 32), dtype=tl.int32)
    acc = tl.dot(a, b, acc, out_dtype=tl.int32)
    tl.store(c_ptr + r[:, None] * 32 + r[None, :], acc)
    h = tl.load(h_ptr + r[:, None] * 32 + r[None, :])
    c = tl.dot(h, h, out_dtype=tl.float16)
    c = tl.dot(h, h, c, out_dtype=tl.float16)
    tl.store(h_ptr + r[:, None] * 32 + r[None, :], c)
)");
}

TEST(Fidelity, ConstexprCallAssignedIsATensor) {
  expectOne(R"(
@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    n = tl.constexpr(16)
    tl.store(x_ptr + tl.arange(0, n), 1.0)
)",
            ProblemKind::ConstexprRequired, "arange's arguments must be of type tl.constexpr", "tl.arange(0, n)");
}

TEST(Fidelity, PythonBuiltinsOutsideTritonsNamespace) {
  // CodeGenerator.builtin_namespace holds len, list, range, float, int,
  // isinstance, getattr, hasattr, print, min and max only.
  expectOne(R"(
@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.store(x_ptr + tl.arange(0, BLOCK), abs(x))
)",
            ProblemKind::UndefinedName, "abs is not defined", "abs");
  expectOne(R"(
@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    f = bool(BLOCK)
)",
            ProblemKind::UndefinedName, "bool is not defined", "bool");
}

TEST(Fidelity, LenOfTensor) {
  expectOne(R"(
@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    n = len(x)
)",
            ProblemKind::BadCall, "object of type 'tensor' has no len()", "len(x)");
  expectClean(R"(
@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.static_assert(len(x.shape) == 1)
    acc = tl.zeros((BLOCK,), tl.float32)
    for i in range(n, 0, -1):
        acc += i
    tl.store(x_ptr + tl.arange(0, BLOCK), acc + x)
)");
}

TEST(Fidelity, UnsignedDivisionByPythonInt) {
  // The int scalar does not take part in the promotion (same kind), so no
  // signedness error: `x_u32 // 2` and `x_u8 % 3` keep their type.
  expectClean(R"(
@triton.jit
def k(x_ptr: "*u32", y_ptr: "*u8", n, BLOCK: tl.constexpr = 64):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    for i in range(n):
        x = x // 2
        y = y % 3
    tl.store(x_ptr + offs, x)
    tl.store(y_ptr + offs, y)
)");
}

TEST(Fidelity, ConstexprStringComparedInIf) {
  expectClean(R"(
@triton.jit
def k(x_ptr: "*fp32", BLOCK: tl.constexpr = 64, ACT: tl.constexpr = "relu"):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, cache_modifier=".cg", eviction_policy="evict_first")
    if ACT == "relu":
        x = tl.maximum(x, 0.0)
    elif ACT == "gelu":
        x = x * 0.5
    tl.store(x_ptr + offs, x, cache_modifier=".cs")
)");
}

TEST(Fidelity, UnknownCacheModifier) {
  // semantic._str_to_load_cache_modifier (measured).
  expectOne(R"(
@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK), cache_modifier=".cs")
)",
            ProblemKind::LoadStore, "Cache modifier .cs not supported",
            "tl.load(x_ptr + tl.arange(0, BLOCK), cache_modifier=\".cs\")");
}

TEST(Fidelity, AtomicArgumentsWording) {
  // semantic.atom_red_typechecking_impl and _str_to_sem (measured).
  expectOne(R"(
@triton.jit
def k(x_ptr, n: tl.int32, BLOCK: tl.constexpr):
    tl.atomic_add(n, 1)
)",
            ProblemKind::LoadStore, "Pointer argument of store instruction is triton.language.int32",
            "tl.atomic_add(n, 1)");
  expectOne(R"(
@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    tl.atomic_add(x_ptr, 1, sem="seq_cst")
)",
            ProblemKind::LoadStore, "Memory semantic seq_cst not supported",
            "tl.atomic_add(x_ptr, 1, sem=\"seq_cst\")");
  expectClean(R"(
@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    tl.atomic_add(x_ptr + tl.arange(0, BLOCK), 1, sem="relaxed", scope="cta")
)");
}

TEST(Fidelity, LoopVariableNameReused) {
  // The loop variable replaces an earlier value of its name (visit_For sets
  // it before collecting live-ins), whatever that value's type was.
  expectClean(R"(
@triton.jit
def k(x_ptr: "*fp32", n, BLOCK: tl.constexpr = 64):
    offs = tl.arange(0, BLOCK)
    i = tl.load(x_ptr + offs)
    for i in range(n):
        tl.store(x_ptr + i, 1.0)
    for i in range(0, n.to(tl.int64)):
        tl.store(x_ptr + i, 2.0)
)");
}

TEST(Fidelity, FmaPromotesPythonNumbersLikeTensors) {
  // math.fma calls to_tensor on x, y and z before legalizing their types.
  expectClean(R"(
@triton.jit
def k(x_ptr: "*fp16", y_ptr: "*fp32", BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(y_ptr + offs, tl.exp(tl.fma(x, 2.0, 1.0)))
)");
}

TEST(Fidelity, CdivOfConstexprsIsATensor) {
  // standard.cdiv is @jit: its constexpr result decays at the return.
  expectOne(R"(
@triton.jit
def k(x_ptr, BLOCK: tl.constexpr = 64):
    offs = tl.arange(0, tl.cdiv(BLOCK, 16))
)",
            ProblemKind::ConstexprRequired, "arange's arguments must be of type tl.constexpr",
            "tl.arange(0, tl.cdiv(BLOCK, 16))");
}

TEST(Fidelity, DotOperandAndOutDtypeRules) {
  // semantic.dot (source-read): uint8 operands fail "only int8 supported!",
  // and out_dtype cannot be bfloat16.
  expectOne(R"(
@triton.jit
def k(a_ptr: "*u8"):
    r = tl.arange(0, 32)
    a = tl.load(a_ptr + r[:, None] * 32 + r[None, :])
    c = tl.dot(a, a)
)",
            ProblemKind::Dot, "only int8 supported!", "tl.dot(a, a)");
  expectOne(R"(
@triton.jit
def k(a_ptr: "*fp16"):
    r = tl.arange(0, 32)
    a = tl.load(a_ptr + r[:, None] * 32 + r[None, :])
    c = tl.dot(a, a, out_dtype=tl.bfloat16)
)",
            ProblemKind::Dot, "out_dtype=bfloat16 is unsupported. Please use out_dtype=float32/float16",
            "tl.dot(a, a, out_dtype=tl.bfloat16)");
}

TEST(Fidelity, ConstexprAnnotatedTensorIsUsableAsOperand) {
  // visit_AnnAssign wraps a tensor in constexpr without a check, and tensor
  // operators unwrap it again (source-read; the measured tutorial-06 pattern
  // passes tensors to constexpr parameters the same way).
  expectClean(R"(
@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    offs: tl.constexpr = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, 1.0)
)");
}

TEST(Fidelity, BranchRedefinesLiveInWithAnotherType) {
  // visit_then_else_blocks (source-read): a live-in tensor keeps its type in
  // both branches, even when the two branches agree with each other.
  expectOne(R"(
@triton.jit
def k(X, n):
    a = 0
    if n > 0:
        a = 1.0
    else:
        a = 2.0
)",
            ProblemKind::ControlFlowType,
            "initial value for `a` is of type int32[], but the then block redefines it as fp32[]", "if");
  expectClean(R"(
@triton.jit
def k(X, n):
    a = 0
    if n > 0:
        a = 1
    b = a + 1
)");
}

TEST(Fidelity, TupleWithUnknownConstexprStaysSilent) {
  // BLOCK is unknown here: tessel does not guess which element Triton would
  // name first.
  expectClean(R"(
@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    shape = (BLOCK, 2)
    z = tl.zeros(shape, tl.float32)
)");
}
