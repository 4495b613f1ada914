"""Host TensorDescriptors on the GPU (tests/gpu/gpu_suite.py): on sm_90 tessel copies their blocks with the
tensor memory accelerator (compiler/codegen/lower/Tma.cpp, TMA rings in compiler/codegen/lower/Pipeline.cpp),
elsewhere through pointers; either way the outputs must equal the interpreter's."""
import triton
import triton.language as tl


# Blocks cut by both edges of the tensor (M 200, N 96): the copies' fill and the stores' clipping.
# tessel: launch M=[256, 200] N=[128, 96] x=fp16[M, N]:desc(64, 64) y=fp16[M, N]:out:desc(64, 64) \
#   grid=(cdiv(M, 64), cdiv(N, 64))
@triton.jit
def desc_copy_kernel(x, y, BLOCK_M: tl.constexpr = 64, BLOCK_N: tl.constexpr = 64):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    t = x.load([pm * BLOCK_M, pn * BLOCK_N])
    y.store([pm * BLOCK_M, pn * BLOCK_N], t * 2 + 1)


# padding="nan": the elements past the shape read as NaN.
# tessel: launch M=[100] N=[80] x=fp32[M, N]:desc(32, 32):nan y=fp32[M, N]:out:desc(32, 32) \
#   grid=(cdiv(M, 32), cdiv(N, 32))
@triton.jit
def desc_nan_kernel(x, y, BLOCK_M: tl.constexpr = 32, BLOCK_N: tl.constexpr = 32):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    t = x.load([pm * BLOCK_M, pn * BLOCK_N])
    t = tl.where(t != t, -1.0, t)
    y.store([pm * BLOCK_M, pn * BLOCK_N], t + 0.5)


# Device-side descriptors: on sm_90 each program builds their maps in global scratch (TensormapCreate.cpp);
# a row stride of 96 fp16 elements (192 bytes) and blocks cut by both edges.
# tessel: launch M=[256, 200] N=[128, 96] x=fp16[M, N] y=fp16[M, N]:out grid=(cdiv(M, 64), cdiv(N, 64))
@triton.jit
def device_desc_copy_kernel(x, y, M, N, BLOCK_M: tl.constexpr = 64, BLOCK_N: tl.constexpr = 64):
    xd = tl.make_tensor_descriptor(x, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    yd = tl.make_tensor_descriptor(y, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    t = xd.load([pm * BLOCK_M, pn * BLOCK_N])
    yd.store([pm * BLOCK_M, pn * BLOCK_N], t * 2 + 1)


# The same with padding="nan" in fp32, and a 2D grid over a 3D one's z (the scratch slot of program (x, y, z)).
# tessel: launch M=[100] N=[80] x=fp32[M, N] y=fp32[M, N]:out grid=(cdiv(M, 32), 1, cdiv(N, 32))
@triton.jit
def device_desc_nan_kernel(x, y, M, N, BLOCK_M: tl.constexpr = 32, BLOCK_N: tl.constexpr = 32):
    xd = tl.make_tensor_descriptor(x, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N],
                                   padding_option="nan")
    yd = tl.make_tensor_descriptor(y, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    pm = tl.program_id(0)
    pn = tl.program_id(2)
    t = xd.load([pm * BLOCK_M, pn * BLOCK_N])
    t = tl.where(t != t, -1.0, t)
    yd.store([pm * BLOCK_M, pn * BLOCK_N], t + 0.5)


# Attention's forward shape: q once (read by wgmma in place), k transposed and v in rings of num_stages.
# tessel: launch N_CTX=[256, 384] q_desc=fp16[N_CTX, 64]:desc(64, 64) k_desc=fp16[N_CTX, 64]:desc(64, 64) \
#   v_desc=fp16[N_CTX, 64]:desc(64, 64) o_desc=fp16[N_CTX, 64]:out:desc(64, 64) grid=(cdiv(N_CTX, 64),) num_stages=3
@triton.jit
def desc_attention_kernel(q_desc, k_desc, v_desc, o_desc, N_CTX, BLOCK_M: tl.constexpr = 64,
                          BLOCK_N: tl.constexpr = 64, HEAD_DIM: tl.constexpr = 64):
    off = tl.program_id(0) * BLOCK_M
    q = q_desc.load([off, 0])
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    offk = 0
    for start_n in tl.range(0, N_CTX, BLOCK_N):
        k = k_desc.load([offk, 0]).T
        qk = tl.dot(q, k) * 0.125
        p = tl.exp2(qk - tl.max(qk, 1)[:, None])
        l_i += tl.sum(p, 1)
        v = v_desc.load([offk, 0])
        acc = tl.dot(p.to(tl.float16), v, acc)
        offk += BLOCK_N
    o_desc.store([off, 0], (acc / l_i[:, None]).to(tl.float16))
