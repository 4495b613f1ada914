//===- TritonMessagesTest.cpp - one test per Triton compile error ---------===//
/// \file
/// Each test is a kernel that real Triton 3.6 rejects, with the sentence
/// Triton reports (shared/reference/triton-3.6-facts.md §2) and the token it
/// points at; a few show the same code that Triton accepts.
//===----------------------------------------------------------------------===//
#include "SemaTestSupport.h"

using namespace tessel;
using namespace tessel::sema;
using namespace tessel::sema::test;

TEST(TritonMessages, ShapeElementPowerOfTwo) {
  expectOne(R"(
@triton.jit
def k(X):
    z = tl.zeros((3, 4), dtype=tl.float32)
)",
            ProblemKind::BlockShape, "Shape element 0 must be a power of 2", "tl.zeros((3, 4), dtype=tl.float32)");
}

TEST(TritonMessages, NumelLimit) {
  expectOne(R"(
@triton.jit
def k(X):
    z = tl.zeros((2048, 1024), dtype=tl.float32)
)",
            ProblemKind::BlockShape, "numel (2097152) exceeds triton maximum tensor numel (1048576)",
            "tl.zeros((2048, 1024), dtype=tl.float32)");
}

TEST(TritonMessages, ArangeNeedsConstexpr) {
  expectOne(R"(
@triton.jit
def k(X, N):
    offs = tl.arange(0, N)
)",
            ProblemKind::ConstexprRequired, "arange's arguments must be of type tl.constexpr", "tl.arange(0, N)");
}

TEST(TritonMessages, ArangeLocalConstantIsNotConstexpr) {
  // triton#2604: visit_Assign turns a local `BLOCK = 1024` into an int32
  // tensor, so tl.arange rejects it (measured on Triton 3.6.0).
  expectOne(R"(
@triton.jit
def k(X):
    BLOCK = 1024
    offs = tl.arange(0, BLOCK)
)",
            ProblemKind::ConstexprRequired, "arange's arguments must be of type tl.constexpr", "tl.arange(0, BLOCK)");
}

TEST(TritonMessages, ArangeRangePowerOfTwo) {
  expectOne(R"(
@triton.jit
def k(X):
    offs = tl.arange(0, 100)
)",
            ProblemKind::ArangeRange, "arange's range must be a power of 2", "tl.arange(0, 100)");
}

TEST(TritonMessages, ArangeEndAfterStart) {
  expectOne(R"(
@triton.jit
def k(X):
    offs = tl.arange(16, 16)
)",
            ProblemKind::ArangeRange, "arange's end argument must be greater than the start argument",
            "tl.arange(16, 16)");
}

TEST(TritonMessages, ArangeFitsInt32) {
  expectOne(R"(
@triton.jit
def k(X):
    offs = tl.arange(0, 4294967296)
)",
            ProblemKind::ArangeRange, "arange must fit in int32", "tl.arange(0, 4294967296)");
}

TEST(TritonMessages, ArangeUnderConstexprParameter) {
  expectOne(R"(
@triton.jit
def k(X, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)

def launch(x):
    k[(1,)](x, BLOCK=48)
)",
            ProblemKind::ArangeRange, "arange's range must be a power of 2", "tl.arange(0, BLOCK)");
}

TEST(TritonMessages, ProgramIdAxis) {
  expectOne(R"(
@triton.jit
def k(X):
    pid = tl.program_id(3)
)",
            ProblemKind::ProgramIdAxis, "program_id axis must be 0, 1, or 2 but got 3", "tl.program_id(3)");
}

TEST(TritonMessages, IncompatibleDimensions) {
  expectOne(R"(
@triton.jit
def k(X):
    a = tl.arange(0, 32)
    b = tl.arange(0, 64)
    c = a + b
)",
            ProblemKind::ShapeMismatch, "Cannot make_shape_compatible: incompatible dimensions at index 0: 32 and 64",
            "a + b");
}

TEST(TritonMessages, ReshapeNumel) {
  expectOne(R"(
@triton.jit
def k(X):
    a = tl.arange(0, 64)
    b = tl.reshape(a, (8, 16))
)",
            ProblemKind::ShapeMismatch, "reshape() cannot change total number of elements in tensor",
            "tl.reshape(a, (8, 16))");
}

TEST(TritonMessages, PointerPlusFloat) {
  expectOne(R"(
@triton.jit
def k(X: "*fp32"):
    p = X + 1.5
)",
            ProblemKind::InvalidOperands, "invalid operands of type pointer<fp32> and triton.language.float32",
            "X + 1.5");
}

TEST(TritonMessages, PointerPlusPointer) {
  expectOne(R"(
@triton.jit
def k(X: "*fp32"):
    p = X + X
)",
            ProblemKind::InvalidOperands, "cannot add pointers together", "X + X");
}

TEST(TritonMessages, UnsignedTensorNegativeScalar) {
  expectOne(R"(
@triton.jit
def k(X: "*fp32"):
    u = tl.arange(0, 16).to(tl.uint32)
    v = u + -1
)",
            ProblemKind::InvalidOperands,
            "Cannot perform a binary operation between an unsigned tensor and a negative scalar. Perform a explicit "
            "cast on one of them.",
            "u + -1");
}

TEST(TritonMessages, DivisionMixedSignedness) {
  expectOne(R"(
@triton.jit
def k(X):
    u = tl.arange(0, 16).to(tl.uint32)
    i = tl.arange(0, 16)
    v = u // i
)",
            ProblemKind::InvalidOperands,
            "Cannot use /, #, or % with triton.language.uint32 and triton.language.int32 because they have different "
            "signedness",
            "u // i");
}

TEST(TritonMessages, OtherWithoutMask) {
  expectOne(R"(
@triton.jit
def k(X: "*fp32"):
    x = tl.load(X + tl.arange(0, 16), other=0.0)
)",
            ProblemKind::LoadStore, "`other` cannot be provided without `mask`",
            "tl.load(X + tl.arange(0, 16), other=0.0)");
}

TEST(TritonMessages, LoadScalarPointerBlockMask) {
  expectOne(R"(
@triton.jit
def k(X: "*fp32"):
    x = tl.load(X, mask=tl.arange(0, 16) < 4)
)",
            ProblemKind::LoadStore, "Mask argument cannot be block type if pointer argument is not a block",
            "tl.load(X, mask=tl.arange(0, 16) < 4)");
}

TEST(TritonMessages, StoreNonPointer) {
  expectOne(R"(
@triton.jit
def k(X: "*fp32"):
    offs = tl.arange(0, 16)
    tl.store(offs, 1.0)
)",
            ProblemKind::LoadStore, "Unsupported ptr type <['16'], int32> in `tl.store`", "tl.store(offs, 1.0)");
}

TEST(TritonMessages, StoreScalarNonPointer) {
  expectOne(R"(
@triton.jit
def k(X: "*fp32", n: tl.int32):
    tl.store(n, 1.0)
)",
            ProblemKind::LoadStore, "Unsupported ptr type triton.language.int32 in `tl.store`", "tl.store(n, 1.0)");
}

TEST(TritonMessages, StoreBlockValueScalarPointer) {
  expectOne(R"(
@triton.jit
def k(X: "*fp32"):
    tl.store(X, tl.zeros((16,), dtype=tl.float32))
)",
            ProblemKind::LoadStore, "Value argument cannot be block type if pointer argument is not a block",
            "tl.store(X, tl.zeros((16,), dtype=tl.float32))");
}

TEST(TritonMessages, StoreMaskMustBeBool) {
  expectOne(R"(
@triton.jit
def k(X: "*fp32"):
    offs = tl.arange(0, 16)
    tl.store(X + offs, 1.0, mask=offs)
)",
            ProblemKind::LoadStore, "Mask must have boolean scalar type", "tl.store(X + offs, 1.0, mask=offs)");
}

TEST(TritonMessages, DotRanks) {
  expectOne(R"(
@triton.jit
def k(X: "*fp16"):
    a = tl.load(X + tl.arange(0, 16))
    c = tl.dot(a, a)
)",
            ProblemKind::Dot, "input and other must have equal ranks >= 2", "tl.dot(a, a)");
}

TEST(TritonMessages, DotReductionDims) {
  expectOne(R"(
@triton.jit
def k(X: "*fp16"):
    a = tl.zeros((32, 32), dtype=tl.float16)
    b = tl.zeros((64, 32), dtype=tl.float16)
    c = tl.dot(a, b)
)",
            ProblemKind::Dot, "input and other must have equal reduction dimensions", "tl.dot(a, b)");
}

TEST(TritonMessages, DotSameDtype) {
  expectOne(R"(
@triton.jit
def k(X):
    a = tl.zeros((32, 32), dtype=tl.float16)
    b = tl.zeros((32, 32), dtype=tl.float32)
    c = tl.dot(a, b)
)",
            ProblemKind::Dot, "Both operands must be same dtype. Got fp16 and fp32", "tl.dot(a, b)");
}

TEST(TritonMessages, DotMinimumK) {
  expectOne(R"(
@triton.jit
def k(X):
    a = tl.zeros((16, 8), dtype=tl.float16)
    b = tl.zeros((8, 16), dtype=tl.float16)
    c = tl.dot(a, b)
)",
            ProblemKind::Dot, "Input shapes should have M >= 1, N >= 1 and K >= 16", "tl.dot(a, b)");
}

TEST(TritonMessages, DotMinimumKEightBit) {
  expectOne(R"(
@triton.jit
def k(X):
    a = tl.zeros((16, 16), dtype=tl.int8)
    b = tl.zeros((16, 16), dtype=tl.int8)
    c = tl.dot(a, b)
)",
            ProblemKind::Dot, "Input shapes should have M >= 1, N >= 1 and K >= 32", "tl.dot(a, b)");
}

TEST(TritonMessages, DotSmallMAndNCompile) {
  expectClean(R"(
@triton.jit
def k(X):
    a = tl.zeros((1, 16), dtype=tl.float16)
    b = tl.zeros((16, 1), dtype=tl.float16)
    c = tl.dot(a, b)
)");
}

TEST(TritonMessages, ReturnsInArmsOfAnUndecidedConstexprIfNeedNotAgree) {
  // FlagGems' _get_iinfo_val: `dtype is tl.int64` is unknown in the front
  // tier; Triton compiles one arm, whose return alone decides the type.
  expectClean(R"(
MAX_I64 = tl.constexpr(9223372036854775807)
MAX_I32 = tl.constexpr(2147483647)

@triton.jit
def limit(dtype):
    if dtype is tl.int64:
        return MAX_I64
    else:
        return MAX_I32

@triton.jit
def k(X):
    x = tl.load(X + tl.arange(0, 16))
    tl.store(X + tl.arange(0, 16), tl.minimum(x, limit(X.dtype.element_ty)))
)");
}

TEST(TritonMessages, UnsupportedLambda) {
  expectOne(R"(
@triton.jit
def k(X):
    f = lambda v: v + 1
)",
            ProblemKind::UnsupportedConstruct, "unsupported AST node type: Lambda", "lambda v: v + 1");
}

TEST(TritonMessages, UnsupportedBreak) {
  expectOne(R"(
@triton.jit
def k(X, n):
    for i in range(0, n):
        break
)",
            ProblemKind::UnsupportedConstruct, "unsupported AST node type: Break", "break");
}

TEST(TritonMessages, UnsupportedRaise) {
  expectOne(R"(
@triton.jit
def k(X):
    raise ValueError("no")
)",
            ProblemKind::UnsupportedConstruct, "unsupported AST node type: Raise", "raise");
}

TEST(TritonMessages, NestedFunction) {
  expectOne(R"(
@triton.jit
def k(X):
    def inner(v):
        return v
)",
            ProblemKind::UnsupportedConstruct, "nested function definition is not supported.", "def");
}

TEST(TritonMessages, ChainedComparison) {
  expectOne(R"(
@triton.jit
def k(X, n):
    offs = tl.arange(0, 16)
    m = 0 < offs < n
)",
            ProblemKind::UnsupportedConstruct, "simultaneous multiple comparison is not supported", "0 < offs < n");
}

TEST(TritonMessages, SetItem) {
  expectOne(R"(
@triton.jit
def k(X):
    a = tl.zeros((16,), dtype=tl.float32)
    a[0] = 1.0
)",
            ProblemKind::UnsupportedConstruct, "__setitem__ is not supported in triton", "a[0]");
}

TEST(TritonMessages, ReturnInLoop) {
  expectOne(R"(
@triton.jit
def helper(n):
    for i in range(0, n):
        return i
    return 0

@triton.jit
def k(X, n):
    v = helper(n)
)",
            ProblemKind::ReturnInLoop, "Cannot have `return` statements inside `while` or `for` statements in triton.",
            "return");
}

TEST(TritonMessages, ForIteratorKind) {
  expectOne(R"(
@triton.jit
def k(X):
    for i in [1, 2, 3]:
        pass
)",
            ProblemKind::UnsupportedConstruct, "Only `range` and `static_range` iterators are currently supported",
            "[1, 2, 3]");
}

TEST(TritonMessages, ForBoundsInts) {
  expectOne(R"(
@triton.jit
def k(X, n):
    for i in range(0, 1.5):
        pass
)",
            ProblemKind::InvalidOperands, "For loop bounds and step must all be ints, are (int32, fp32, int32)",
            "range(0, 1.5)");
}

TEST(TritonMessages, BlockTruthValue) {
  expectOne(R"(
@triton.jit
def k(X):
    offs = tl.arange(0, 16)
    if offs > 3:
        pass
)",
            ProblemKind::InvalidOperands, "Boolean value of Tensor with more than one value is ambiguous", "offs > 3");
}

TEST(TritonMessages, MismatchedIfElseType) {
  expectOne(R"(
@triton.jit
def k(X, n):
    if n > 0:
        a = 1
    else:
        a = 1.0
)",
            ProblemKind::ControlFlowType, "Mismatched type for a between then block (int32) and else block (fp32)",
            "if");
}

TEST(TritonMessages, LoopCarriedType) {
  expectOne(R"(
@triton.jit
def k(X, n):
    a = 0
    for i in range(0, n):
        a = a + 1.0
)",
            ProblemKind::ControlFlowType,
            "Loop-carried variable a has initial type int32 but is re-assigned to fp32 in loop! Please make sure "
            "that the type stays consistent.",
            "for");
}

TEST(TritonMessages, StaticAssertUndecidable) {
  expectOne(R"(
@triton.jit
def k(X, n):
    tl.static_assert(n > 0)
)",
            ProblemKind::StaticAssert,
            "Assertion condition could not be determined at compile-time. Make sure that it depends only on "
            "`constexpr` values",
            "tl.static_assert(n > 0)");
}

TEST(TritonMessages, StaticAssertFails) {
  expectOne(R"(
@triton.jit
def k(X, BLOCK: tl.constexpr = 32):
    tl.static_assert(BLOCK >= 64, "BLOCK must be at least 64")
)",
            ProblemKind::StaticAssert, "BLOCK must be at least 64",
            "tl.static_assert(BLOCK >= 64, \"BLOCK must be at least 64\")");
}

TEST(TritonMessages, ConstexprReassigned) {
  expectOne(R"(
@triton.jit
def k(X):
    C: tl.constexpr = 1
    C: tl.constexpr = 2
)",
            ProblemKind::ConstexprReassigned, "C is already defined. constexpr cannot be reassigned.",
            "C: tl.constexpr = 2");
}

TEST(TritonMessages, PowOnTensor) {
  expectOne(R"(
@triton.jit
def k(X):
    x = tl.arange(0, 16)
    y = x ** 2
)",
            ProblemKind::NoAttribute, "'tensor' object has no attribute '__pow__'", "x ** 2");
}

TEST(TritonMessages, UnsupportedTensorIndex) {
  expectOne(R"(
@triton.jit
def k(X):
    x = tl.arange(0, 16)
    y = x[1]
)",
            ProblemKind::TensorIndex, "unsupported tensor index: constexpr[1]", "x[1]");
}

TEST(TritonMessages, NonConstexprGlobal) {
  expectOne(R"(
SCALE = 2.0

@triton.jit
def k(X):
    y = SCALE
)",
            ProblemKind::GlobalAccess, "Cannot access global variable SCALE from within @jit'ed function.", "SCALE");
}

TEST(TritonMessages, AnnotatedGlobalIsNotConstexpr) {
  expectOne(R"(
SCALE: tl.constexpr = 2

@triton.jit
def k(X):
    y = SCALE
)",
            ProblemKind::GlobalAccess, "Cannot access global variable SCALE from within @jit'ed function.", "SCALE");
}

TEST(TritonMessages, ConstexprGlobal) {
  expectClean(R"(
BLOCK = tl.constexpr(128)

@triton.jit
def k(X):
    offs = tl.arange(0, BLOCK)
)");
}

TEST(TritonMessages, PlainPythonCall) {
  expectOne(R"(
def helper(x):
    return x

@triton.jit
def k(X):
    y = helper(1)
)",
            ProblemKind::NonJitCall, "Unsupported function referenced: <function helper>", "helper(1)");
}

TEST(TritonMessages, UndefinedName) {
  expectOne(R"(
@triton.jit
def k(X):
    y = undefined_thing + 1
)",
            ProblemKind::UndefinedName, "undefined_thing is not defined", "undefined_thing");
}

TEST(TritonMessages, MathFloatOnly) {
  expectOne(R"(
@triton.jit
def k(X):
    y = tl.exp(tl.arange(0, 16))
)",
            ProblemKind::InvalidOperands, "Expected dtype ['fp32', 'fp64'] but got int32", "tl.exp(tl.arange(0, 16))");
}

TEST(TritonMessages, ErrorInHelperPointsIntoHelper) {
  auto FA = analyze(R"(
@triton.jit
def helper(x):
    return tl.zeros((3, 4), dtype=tl.float32)

@triton.jit
def k(X):
    y = helper(1)
)");
  ASSERT_EQ(FA->Problems.size(), 1u);
  const Problem &P = FA->Problems[0];
  EXPECT_EQ(P.Message, "Shape element 0 must be a power of 2");
  EXPECT_EQ(FA->File->text().slice(P.Range), "tl.zeros((3, 4), dtype=tl.float32)");
  ASSERT_EQ(P.Related.size(), 1u);
  EXPECT_EQ(FA->File->text().slice(P.Related[0].Range), "helper(1)");
}

TEST(TritonMessages, ConstexprIfTakesOneBranch) {
  // Triton only compiles the branch a constexpr condition selects.
  expectClean(R"(
@triton.jit
def k(X, ACT: tl.constexpr = "relu"):
    x = tl.arange(0, 16)
    if ACT == "relu":
        x = tl.maximum(x, 0)
    else:
        y = tl.arange(0, 100)
)");
}

TEST(TritonMessages, OneErrorPerMistake) {
  auto Ps = problems(R"(
@triton.jit
def k(X):
    a = tl.arange(0, 100)
    b = a + 1
    c = b * 2
)");
  EXPECT_EQ(Ps.size(), 1u) << dump(Ps);
}

TEST(MaskFacts, EachAxisKnowsWhatMakesItSlide) {
  auto FA = analyze(R"(
@triton.jit
def k(x_ptr, M, N, stride, BM: tl.constexpr = 32, BN: tl.constexpr = 32):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    for start in range(0, N, BN):
        cols = start + tl.arange(0, BN)
        t = tl.load(x_ptr + rows[:, None] * stride + cols[None, :], mask=rows[:, None] < M)
)");
  ASSERT_EQ(FA->Kernels.size(), 1u);
  ASSERT_EQ(FA->Kernels[0].Accesses.size(), 1u);
  const MemoryAccess &A = FA->Kernels[0].Accesses[0];
  ASSERT_EQ(A.PointerAxes.size(), 2u);
  EXPECT_EQ(A.PointerAxes[0], AxisIndex::Sliding);
  EXPECT_EQ(A.PointerAxes[1], AxisIndex::Sliding);
  EXPECT_EQ(A.SlidingCause[0], "program_id(0)");
  EXPECT_EQ(A.SlidingCause[1], "the loop variable `start`");
  EXPECT_TRUE(A.HasMask);
  EXPECT_EQ(A.MaskBounds, (std::vector<bool>{true, false}));
}

TEST(MaskFacts, ModuloWrapsTheIndex) {
  auto FA = analyze(R"(
@triton.jit
def k(x_ptr, M, BM: tl.constexpr = 32):
    rows = (tl.program_id(0) * BM + tl.arange(0, BM)) % M
    t = tl.load(x_ptr + rows)
)");
  ASSERT_EQ(FA->Kernels[0].Accesses.size(), 1u);
  EXPECT_EQ(FA->Kernels[0].Accesses[0].PointerAxes[0], AxisIndex::Wrapped);
}

// semantic.make_tensor_descriptor's own checks, in its words (the block
// count one counts the strides, as Triton's message does).
TEST(TritonMessages, MakeTensorDescriptorChecksRankStridesAndBase) {
  expectOne(R"(
@triton.jit
def k(p: "*fp16"):
    d = tl.make_tensor_descriptor(p, [8, 8], [8], [8, 8])
)",
            ProblemKind::InvalidOperands, "Expected 2 strides but got 1",
            "tl.make_tensor_descriptor(p, [8, 8], [8], [8, 8])");
  expectOne(R"(
@triton.jit
def k(p: "*fp16"):
    d = tl.make_tensor_descriptor(p, [8, 8], [8, 1], [8])
)",
            ProblemKind::InvalidOperands, "Expected block_shape to have 2 dimensions but got 2",
            "tl.make_tensor_descriptor(p, [8, 8], [8, 1], [8])");
  expectOne(R"(
@triton.jit
def k(p: "*fp16"):
    d = tl.make_tensor_descriptor(p, [64, 64], [1, 64], [16, 16])
)",
            ProblemKind::InvalidOperands, "Tensor descriptor last dim must be 1 but got 64",
            "tl.make_tensor_descriptor(p, [64, 64], [1, 64], [16, 16])");
  expectOne(R"(
@triton.jit
def k(p: "*i32"):
    d = tl.make_tensor_descriptor(p, [64], [1], [16], padding_option="nan")
)",
            ProblemKind::InvalidOperands, "Padding option `nan` is not supported for integer blocks",
            "tl.make_tensor_descriptor(p, [64], [1], [16], padding_option=\"nan\")");
  // A number where the base pointer goes: `assert isinstance(base.dtype, tl.pointer_type)`.
  expectOne(R"(
@triton.jit
def k(n: tl.int32):
    d = tl.make_tensor_descriptor(n, [64], [1], [16])
)",
            ProblemKind::InvalidOperands, "AssertionError()", "tl.make_tensor_descriptor(n, [64], [1], [16])");
}

// standard.flip compares its `dim` (default None) with -len(x.shape): Triton
// 3.6 on an H100 fails there with Python's TypeError; the dimension must be
// given.
TEST(TritonMessages, FlipNeedsADimension) {
  expectOne(R"(
@triton.jit
def k(X):
    x = tl.load(X + tl.arange(0, 64))
    tl.store(X + tl.arange(0, 64), tl.flip(x))
)",
            ProblemKind::InvalidOperands, "'<=' not supported between instances of 'int' and 'NoneType'", "tl.flip(x)");
  expectClean(R"(
@triton.jit
def k(X):
    x = tl.load(X + tl.arange(0, 64))
    tl.store(X + tl.arange(0, 64), tl.flip(x, 0))
)");
}

// semantic.gather's assertions, in its order and with its words: the last
// names the gather axis, not the mismatched dimension (Triton 3.6's text).
TEST(TritonMessages, GatherChecks) {
  expectOne(R"(
@triton.jit
def k(X):
    x = tl.load(X + tl.arange(0, 64))
    tl.store(X + tl.arange(0, 64), tl.gather(x, x, 0))
)",
            ProblemKind::InvalidOperands, "index must be an integer tensor", "tl.gather(x, x, 0)");
  expectOne(R"(
@triton.jit
def k(X):
    x = tl.load(X + tl.arange(0, 64))
    i = tl.arange(0, 8)[:, None] + tl.arange(0, 8)[None, :]
    tl.store(X + tl.arange(0, 64), tl.gather(x, i, 0).reshape(64))
)",
            ProblemKind::ShapeMismatch, "source and index tensors must have the same rank", "tl.gather(x, i, 0)");
  expectOne(R"(
@triton.jit
def k(X):
    x = tl.load(X + tl.arange(0, 64))
    tl.store(X + tl.arange(0, 64), x.gather(tl.arange(0, 64), 1))
)",
            ProblemKind::ShapeMismatch, "gather axis 1 must be < source rank (1)", "x.gather(tl.arange(0, 64), 1)");
  expectOne(R"(
@triton.jit
def k(X):
    x = tl.load(X + tl.arange(0, 8)[:, None] * 16 + tl.arange(0, 16)[None, :])
    i = tl.zeros([4, 4], dtype=tl.int32)
    tl.store(X + tl.arange(0, 4)[:, None] * 4 + tl.arange(0, 4)[None, :], tl.gather(x, i, 1))
)",
            ProblemKind::ShapeMismatch, "index dim 1 must match the corresponding source dim", "tl.gather(x, i, 1)");
  expectClean(R"(
@triton.jit
def k(X, I):
    x = tl.load(X + tl.arange(0, 8)[:, None] * 16 + tl.arange(0, 16)[None, :])
    i = tl.load(I + tl.arange(0, 8)[:, None] * 4 + tl.arange(0, 4)[None, :])
    tl.store(X + tl.arange(0, 8)[:, None] * 4 + tl.arange(0, 4)[None, :], tl.gather(x, i.to(tl.int32), axis=1))
)");
}

// semantic.histogram and block_type's validation of num_bins.
TEST(TritonMessages, HistogramChecks) {
  expectOne(R"(
@triton.jit
def k(X):
    x = tl.load(X + tl.arange(0, 8)[:, None] * 8 + tl.arange(0, 8)[None, :]).to(tl.int32)
    tl.store(X + tl.arange(0, 16), tl.histogram(x, 16))
)",
            ProblemKind::ShapeMismatch, "histogram only supports 1D input", "tl.histogram(x, 16)");
  expectOne(R"(
@triton.jit
def k(X: "*fp32"):
    x = tl.load(X + tl.arange(0, 64))
    tl.store(X + tl.arange(0, 16), tl.histogram(x, 16))
)",
            ProblemKind::InvalidOperands, "histogram only supports integer input", "tl.histogram(x, 16)");
  expectOne(R"(
@triton.jit
def k(X: "*i32"):
    x = tl.load(X + tl.arange(0, 64))
    tl.store(X + tl.arange(0, 16), tl.histogram(x, 16, mask=x))
)",
            ProblemKind::InvalidOperands, "Mask must have boolean scalar type", "tl.histogram(x, 16, mask=x)");
  expectOne(R"(
@triton.jit
def k(X: "*i32"):
    x = tl.load(X + tl.arange(0, 64))
    tl.store(X + tl.arange(0, 16), tl.histogram(x, 12))
)",
            ProblemKind::BlockShape, "Shape element 0 must be a power of 2", "tl.histogram(x, 12)");
  expectClean(R"(
@triton.jit
def k(X: "*i32", H: "*i32"):
    x = tl.load(X + tl.arange(0, 64))
    tl.store(H + tl.arange(0, 16), x.histogram(16))
    tl.store(H + tl.arange(0, 16), tl.histogram(x, 16, mask=x > 2))
)");
}
