//===- RepresentativeValuesTest.cpp - values assumed where none is known -===//
/// \file
/// The uses RepresentativeValues reads, each on the shape real libraries
/// write it in: block sizes of 1-D and 2-D tiles, flags, modes compared with
/// strings, dtypes, loop counts, constexprs passed to @jit helpers, index
/// pointers, half-precision inputs, and innermost against outer strides.
//===----------------------------------------------------------------------===//
#include "compiler/sema/RepresentativeValues.h"

#include "compiler/frontend/Discovery.h"
#include "compiler/frontend/Parser.h"
#include "compiler/sema/PointerParams.h"

#include <gtest/gtest.h>

#include <memory>

using namespace tessel;
using namespace tessel::sema;

namespace {

struct Source {
  std::shared_ptr<const ParsedFile> File;
  ModuleInfo Info;
  explicit Source(const std::string &Body) {
    File = ParsedFile::parse(
        std::make_shared<SourceText>("import triton\nimport triton.language as tl\n\n" + Body, "test.py"));
    ProblemSink Sink;
    Info = discover(File->module(), Sink);
  }
  const JitFunction &fn(const std::string &Name) const { return *Info.jit(Name); }
};

TEST(RepresentativeValues, BlockSizesFollowTheTilesRank) {
  Source S(R"(
@triton.jit
def rows(x_ptr, n, BLOCK_SIZE: tl.constexpr):
    offs = tl.arange(0, BLOCK_SIZE)
    tl.store(x_ptr + offs, 1.0, mask=offs < n)

@triton.jit
def tiles(a_ptr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    offs = tl.arange(0, BLOCK_M)[:, None] * BLOCK_N + tl.arange(0, BLOCK_N)[None, :]
    tl.store(a_ptr + offs, acc)
)");
  auto Rows = representativeConstexprs(S.fn("rows"), S.Info);
  EXPECT_EQ(Rows.at("BLOCK_SIZE").Value.asInt(), 1024);
  EXPECT_EQ(Rows.at("BLOCK_SIZE").Why, "sizes a block of a 1-D tile");
  EXPECT_EQ(representativeConstexprs(S.fn("tiles"), S.Info).at("BLOCK_M").Why, "sizes a block of a 2-D tile");
  auto Tiles = representativeConstexprs(S.fn("tiles"), S.Info);
  EXPECT_EQ(Tiles.at("BLOCK_M").Value.asInt(), 64);
  EXPECT_EQ(Tiles.at("BLOCK_N").Value.asInt(), 64);
}

TEST(RepresentativeValues, FlagsModesDtypesAndLoopCounts) {
  Source S(R"(
@triton.jit
def k(x_ptr, HAS_BIAS: tl.constexpr, ACT: tl.constexpr, OUT_DTYPE: tl.constexpr, STAGES: tl.constexpr,
      GROUP_M: tl.constexpr, W: tl.constexpr, UNUSED: tl.constexpr, FN: tl.constexpr):
    x = tl.load(x_ptr)
    if HAS_BIAS:
        x += 1
    if ACT == "gelu":
        x = x * 0.5
    for i in tl.static_range(STAGES):
        x += i
    pid = tl.program_id(0) // GROUP_M
    if W is not None:
        x += FN(x)
    tl.store(x_ptr + pid, x.to(OUT_DTYPE))
)");
  auto V = representativeConstexprs(S.fn("k"), S.Info);
  EXPECT_EQ(V.at("HAS_BIAS").Value.asBool(), false);
  EXPECT_EQ(V.at("ACT").Value.asStr(), "gelu");
  EXPECT_EQ(V.at("OUT_DTYPE").Value.qualifiedPath(), "triton.language.float32");
  EXPECT_EQ(V.at("STAGES").Value.asInt(), 4);
  EXPECT_EQ(V.at("GROUP_M").Value.asInt(), 8);
  EXPECT_TRUE(V.at("W").Value.isNone());
  EXPECT_EQ(V.at("UNUSED").Value.asInt(), 0);
  // A function passed as a constexpr has no representative value: the plan says so.
  EXPECT_TRUE(V.at("FN").Value.isUnknown());
  EXPECT_NE(V.at("FN").Why.find("called"), std::string::npos);
}

TEST(RepresentativeValues, APipelineDepthIsTritonsDefault) {
  // lmdeploy's AWQ linear: `tl.range(..., num_stages=NUM_STAGES)`. A depth
  // of 16 (any other passed-on value) would plan 16 buffers.
  Source S(R"(
@triton.jit
def k(x_ptr, n, NUM_STAGES: tl.constexpr):
    acc = 0.0
    for i in tl.range(0, n, num_stages=NUM_STAGES):
        acc += tl.load(x_ptr + i)
    tl.store(x_ptr, acc)
)");
  auto V = representativeConstexprs(S.fn("k"), S.Info);
  EXPECT_EQ(V.at("NUM_STAGES").Value.asInt(), 3);
  EXPECT_EQ(V.at("NUM_STAGES").Why, "a loop's num_stages (Triton's default)");
}

TEST(RepresentativeValues, UsesInsideJitHelpersCount) {
  Source S(R"(
@triton.jit
def _row(x_ptr, row, B: tl.constexpr):
    offs = tl.arange(0, B)
    return tl.load(x_ptr + row + offs)

@triton.jit
def k(x_ptr, y_ptr, BLOCK: tl.constexpr, MODE: tl.constexpr):
    x = _row(x_ptr, tl.program_id(0), BLOCK)
    y = _helper_mode(x, mode=MODE)
    tl.store(y_ptr + tl.arange(0, BLOCK), y)

@triton.jit
def _helper_mode(x, mode: tl.constexpr):
    if mode == 2:
        return x * 2
    return x
)");
  auto V = representativeConstexprs(S.fn("k"), S.Info);
  EXPECT_EQ(V.at("BLOCK").Value.asInt(), 1024);
  EXPECT_EQ(V.at("MODE").Value.asInt(), 2);
  EXPECT_EQ(V.at("MODE").Why, "the first value it is compared with");
}

TEST(RepresentativeValues, PointerDtypesFromEvidence) {
  Source S(R"(
@triton.jit
def k(idx_ptr, x_ptr, out_ptr, h_ptr, acc_ptr, stride):
    pid = tl.program_id(0)
    row = tl.load(idx_ptr + pid)
    x = tl.load(x_ptr + row * stride + tl.arange(0, 16)).to(tl.float32)
    tl.store(out_ptr + tl.arange(0, 16), x.to(tl.bfloat16))
    g = tl.load(h_ptr + tl.arange(0, 16))
    tl.atomic_add(acc_ptr + pid, tl.sum(g))
)");
  const auto &Fn = *S.fn("k").Def;
  auto P = representativePointers(Fn, S.Info, inferPointerParams(Fn, S.Info));
  EXPECT_EQ(P.at("idx_ptr").Scalar, ScalarKind::I64);
  EXPECT_EQ(P.at("x_ptr").Scalar, ScalarKind::FP16);
  EXPECT_EQ(P.at("out_ptr").Scalar, ScalarKind::BF16);
  EXPECT_EQ(P.at("h_ptr").Scalar, ScalarKind::FP32);
  EXPECT_EQ(P.at("acc_ptr").Scalar, ScalarKind::FP32);
  EXPECT_EQ(P.at("h_ptr").Why, "no evidence of its element type");
}

TEST(RepresentativeValues, TablesOfAddressesHoldInt64) {
  // vllm's KV-cache gather and block tables: per-layer base pointers loaded
  // from a table and cast to pointers, here and in a helper.
  Source S(R"(
@triton.jit
def _load_ptr(ptr_to_ptr, elem_dtype):
    ptr = tl.load(ptr_to_ptr)
    ptr = tl.cast(ptr, tl.pointer_type(elem_dtype))
    return tl.multiple_of(ptr, 16)

@triton.jit
def k(src_ptr, cache_ptrs_ptr, tables_ptr, out_ptr, layer):
    cache = tl.cast(tl.load(cache_ptrs_ptr + layer), src_ptr.dtype)
    table = _load_ptr(tables_ptr + layer, tl.int32)
    offs = tl.arange(0, 16)
    tl.store(cache + offs, tl.load(src_ptr + offs))
    tl.store(out_ptr + offs, tl.load(table + offs))
)");
  const auto &Fn = *S.fn("k").Def;
  auto P = representativePointers(Fn, S.Info, inferPointerParams(Fn, S.Info));
  EXPECT_EQ(P.at("cache_ptrs_ptr").Scalar, ScalarKind::I64);
  EXPECT_EQ(P.at("cache_ptrs_ptr").Why, "its values are addresses, cast to pointers");
  EXPECT_EQ(P.at("tables_ptr").Scalar, ScalarKind::I64);
  EXPECT_EQ(P.at("tables_ptr").Why, "its values are addresses, cast to pointers (in _load_ptr())");
  EXPECT_EQ(P.at("src_ptr").Scalar, ScalarKind::FP32);
}

TEST(RepresentativeValues, SeedsPositionsAndArgmaxes) {
  // vllm's samplers: a per-request seed and a position loaded and passed to
  // the random family (directly and through a helper); an offset made from
  // the argmax of loaded maxima is a position, not their values.
  Source S(R"(
@triton.jit
def rand64(seed, offset):
    lo, hi, _, _ = tl.randint4x(seed, offset)
    return lo

@triton.jit
def k(seed_ptr, pos_ptr, seed2_ptr, max_ptr, arg_ptr, out_ptr):
    pid = tl.program_id(0)
    seed = tl.load(seed_ptr + pid)
    pos = tl.load(pos_ptr + pid)
    u = tl.rand(seed, pos + tl.arange(0, 16))
    s2 = tl.load(seed2_ptr + pid)
    r = rand64(s2, pos)
    maxes = tl.load(max_ptr + tl.arange(0, 16))
    best = tl.argmax(maxes, axis=0)
    a = tl.load(arg_ptr + best)
    tl.store(out_ptr + tl.arange(0, 16), u + a + r)
)");
  const auto &Fn = *S.fn("k").Def;
  auto P = representativePointers(Fn, S.Info, inferPointerParams(Fn, S.Info));
  EXPECT_EQ(P.at("seed_ptr").Scalar, ScalarKind::I64);
  EXPECT_EQ(P.at("seed_ptr").Why, "its values seed random numbers");
  EXPECT_EQ(P.at("seed2_ptr").Scalar, ScalarKind::I64);
  EXPECT_EQ(P.at("pos_ptr").Scalar, ScalarKind::I32);
  EXPECT_EQ(P.at("pos_ptr").Why, "its values are the offsets of random numbers");
  EXPECT_EQ(P.at("max_ptr").Scalar, ScalarKind::FP32);
  EXPECT_EQ(P.at("max_ptr").Why, "no evidence of its element type");
}

TEST(RepresentativeValues, ValuesAHelperLoadsAndReturnsAreTheKernels) {
  // vllm's attention helpers load a sequence's start and length and return
  // them; the kernel offsets and bounds by them. An index loaded in two loops
  // from two tables types both. `//` of a loaded value is integer evidence.
  Source S(R"(
@triton.jit
def resolve(starts_ptr, lens_ptr, i):
    start = tl.load(starts_ptr + i)
    n = tl.load(lens_ptr + i)
    return start, n

@triton.jit
def k(q_ptr, starts_ptr, lens_ptr, a_idx_ptr, b_idx_ptr, blocks_ptr, out_ptr, BLOCK: tl.constexpr):
    start, n = resolve(starts_ptr, lens_ptr, tl.program_id(0))
    offs = tl.arange(0, BLOCK)
    q = tl.load(q_ptr + start + offs, mask=offs < n)
    for i in range(2):
        slot = tl.load(a_idx_ptr + i)
        tl.store(out_ptr + slot, q)
    for i in range(2):
        slot = tl.load(b_idx_ptr + i)
        tl.store(out_ptr + slot, q)
    nb = tl.load(blocks_ptr) // BLOCK
    tl.store(out_ptr + offs, q + nb)
)");
  const auto &Fn = *S.fn("k").Def;
  auto P = representativePointers(Fn, S.Info, inferPointerParams(Fn, S.Info));
  EXPECT_EQ(P.at("starts_ptr").Scalar, ScalarKind::I64);
  EXPECT_EQ(P.at("lens_ptr").Scalar, ScalarKind::I32);
  EXPECT_EQ(P.at("lens_ptr").Why, "its values bound loops or are compared with index tiles");
  EXPECT_EQ(P.at("a_idx_ptr").Scalar, ScalarKind::I64);
  EXPECT_EQ(P.at("b_idx_ptr").Scalar, ScalarKind::I64);
  EXPECT_EQ(P.at("blocks_ptr").Scalar, ScalarKind::I32);
  EXPECT_EQ(P.at("blocks_ptr").Why, "its values are shifted, combined bitwise or floor-divided");
  EXPECT_EQ(P.at("q_ptr").Why, "no evidence of its element type");
}

TEST(RepresentativeValues, OffsetsBuiltForAnotherHelperToLoad) {
  // vllm's LoRA expand: the helper builds `b_ptr` from strides and a column
  // bound it is handed, loaded or not by SAME_STRIDE, and passes b_ptr on to
  // a helper that loads; `curr_N` is `N` or a load, by a constexpr.
  Source S(R"(
@triton.jit
def mm(b_ptr, BLOCK: tl.constexpr):
    return tl.load(b_ptr)

@triton.jit
def expand(lora_index, lora_ptr, N, ls_ptr, SAME_STRIDE: tl.constexpr, BLOCK: tl.constexpr):
    if SAME_STRIDE:
        stride = ls_ptr
    else:
        stride = tl.load(ls_ptr)
    rbn = tl.arange(0, BLOCK) % N
    b_ptr = lora_ptr + stride * lora_index + rbn[None, :]
    return mm(b_ptr, BLOCK)

@triton.jit
def k(lora_ptr, ids_ptr, hs_ptr, ls_ptr, out_ptr, N, SAME_STRIDE: tl.constexpr, BLOCK: tl.constexpr):
    lora_id = tl.load(ids_ptr + tl.program_id(1))
    curr_N = N if SAME_STRIDE else tl.load(hs_ptr + tl.program_id(2))
    acc = expand(lora_id, lora_ptr, curr_N, ls_ptr, SAME_STRIDE, BLOCK)
    tl.store(out_ptr + tl.arange(0, BLOCK)[None, :], acc)
)");
  const auto &Fn = *S.fn("k").Def;
  auto P = representativePointers(Fn, S.Info, inferPointerParams(Fn, S.Info));
  EXPECT_EQ(P.at("ls_ptr").Scalar, ScalarKind::I64);
  EXPECT_EQ(P.at("ls_ptr").Why, "its values are offsets of other pointers (in expand())");
  EXPECT_EQ(P.at("ids_ptr").Scalar, ScalarKind::I64);
  EXPECT_EQ(P.at("hs_ptr").Scalar, ScalarKind::I64);
  EXPECT_EQ(P.at("lora_ptr").Why, "no evidence of its element type");
}

TEST(RepresentativeValues, InnermostStridesMultiplyTheLastAxis) {
  Source S(R"(
@triton.jit
def k(a_ptr, b_ptr, c_ptr, stride_am, stride_ak, stride_b, row_stride, col_stride, stride_cm, stride_cn,
      BLOCK: tl.constexpr):
    offs_m = tl.arange(0, BLOCK)
    offs_k = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak)
    cols = tl.arange(0, BLOCK)
    b = tl.load(b_ptr + tl.program_id(0) * row_stride + cols * col_stride)
    p = tl.make_block_ptr(c_ptr, shape=(BLOCK, BLOCK), strides=(stride_cm, stride_cn), offsets=(0, 0),
                          block_shape=(BLOCK, BLOCK), order=(1, 0))
    tl.store(a_ptr + tl.program_id(0) * stride_b, tl.sum(b))
)");
  std::set<std::string> Names{"stride_am",  "stride_ak", "stride_b", "row_stride",
                              "col_stride", "stride_cm", "stride_cn"};
  std::set<std::string> Inner = innermostStrides(*S.fn("k").Def, S.Info, Names);
  EXPECT_EQ(Inner, (std::set<std::string>{"stride_ak", "col_stride", "stride_cn"}));
}

TEST(RepresentativeValues, AnAdvanceByABlockSizeDoesNotMakeAStrideOuter) {
  // mamba's _bmm_chunk_fwd_kernel: `a_ptrs += BLOCK_SIZE_K * stride_ak` moves
  // along the axis stride_ak strides, the innermost one of the load; a row
  // index times a stride (`pid * stride_am`) still says outer.
  Source S(R"(
@triton.jit
def k(a_ptr, b_ptr, stride_am, stride_ak, stride_bk, stride_bn, K, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr,
      SPLIT_K: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + tl.program_id(1) * stride_bn
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptrs)
        b = tl.load(b_ptrs)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * SPLIT_K * stride_bk
)");
  std::set<std::string> Names{"stride_am", "stride_ak", "stride_bk", "stride_bn"};
  EXPECT_EQ(innermostStrides(*S.fn("k").Def, S.Info, Names), (std::set<std::string>{"stride_ak"}));
}

} // namespace
