"""Real out-of-bounds bugs of issue 30, each reduced from the library code where it was confirmed.

Each kernel below reads or writes past its tensor when launched by the wrapper below it, which calls
it as the library did; compute-sanitizer reports the invalid accesses of each under Triton 3.6 (the
`__main__` block runs them all: `compute-sanitizer python3 issue30_real_bugs.py`). tessel must
report each at its line: the bounds prover (`tessel check --prove`, the editor's default) reads the
launch this file's own code makes (`__main__`), with the shapes, strides, views and contents the host
code gives its tensors.
"""
import torch
import triton
import triton.language as tl


# Grouped ordering (tutorial 03's pid_m / pid_n through GROUP_M) under a cdiv grid: the load is
# masked, the store of the tail tiles is not.
@triton.jit
def grouped_copy_kernel(x_ptr, out_ptr, M, N, stride_m, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                        GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m
    pid_n = (pid % num_pid_in_group) // group_size_m
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * stride_m + rn[None, :], mask=mask)
    tl.store(out_ptr + rm[:, None] * stride_m + rn[None, :], x)
  # ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[TS203]: tl.store can go out of bounds: out_ptr[60000] written by program 3, lane 512, with M = 200, N = 300, stride_m = 300 (out_ptr has 60000 elements)


def grouped_copy(x):
    M, N = x.shape
    out = torch.empty_like(x)
    grid = (triton.cdiv(M, 64) * triton.cdiv(N, 64),)
    grouped_copy_kernel[grid](x, out, M, N, x.stride(0), BLOCK_M=64, BLOCK_N=64, GROUP_M=8)
    return out


# A constant offset under a plain grid of one program: `+ 1000` reads past a 1024-element tensor.
@triton.jit
def offset_load_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs + 1000)
      # ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[TS203]: tl.load can go out of bounds: x_ptr[2016] read by program 0, lane 1016 (x_ptr has 1024 elements)
    tl.store(out_ptr + offs, x)


def offset_load():
    x = torch.randn(1024, device="cuda")
    out = torch.empty(1024, device="cuda")
    offset_load_kernel[(1,)](x, out, BLOCK=1024)
    return out


# A 16-wide load of an 8-element table the host code builds with torch.arange(8).
@triton.jit
def table_kernel(table_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(table_ptr + offs))
                           # ^^^^^^^^^^^^^^^^^^^^^^^^^ error[TS203]: tl.load can go out of bounds: table_ptr[8] read by program 0, lane 8 (table_ptr has 8 elements)


def table():
    t = torch.arange(8, device="cuda", dtype=torch.float32)
    out = torch.empty(16, device="cuda")
    table_kernel[(1,)](t, out, BLOCK=16)
    return out


# An index loaded from memory whose values the host fills (torch.randint(0, 8)): `idx + 1` reaches
# the table's ninth element whenever an index is 7.
@triton.jit
def gather_kernel(table_ptr, idx_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    idx = tl.load(idx_ptr + offs, mask=m, other=0)
    v = tl.load(table_ptr + idx + 1, mask=m)
      # ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[TS203]: tl.load can go out of bounds: table_ptr[8] read by program 1, lane 240, where idx_ptr[496] = 7, with n = 1000 (table_ptr has 8 elements)
    tl.store(out_ptr + offs, v, mask=m)


def gather(n=1000):
    t = torch.randn(8, device="cuda")
    idx = torch.randint(0, 8, (n,), device="cuda", dtype=torch.int32)
    out = torch.empty(n, device="cuda")
    gather_kernel[(triton.cdiv(n, 256),)](t, idx, out, n, BLOCK=256)
    return out


# The control: the same gather without the `+ 1` stays inside the table for every index randint makes.
@triton.jit
def gather_in_bounds_kernel(table_ptr, idx_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    idx = tl.load(idx_ptr + offs, mask=m, other=0)
    tl.store(out_ptr + offs, tl.load(table_ptr + idx, mask=m), mask=m)


def gather_in_bounds(n=1000):
    t = torch.randn(8, device="cuda")
    idx = torch.randint(0, 8, (n,), device="cuda", dtype=torch.int32)
    out = torch.empty(n, device="cuda")
    gather_in_bounds_kernel[(triton.cdiv(n, 256),)](t, idx, out, n, BLOCK=256)
    return out


# The other control (lightllm's embedding): indices from torch.randint(0, 151645) into a table the
# host makes too large to model (151645 x 4096). The indices' range is a fact, the table's size is
# not, so nothing can be concluded from the two together: no finding.
@triton.jit
def embedding_kernel(weight, input_ids, out, n_ctx, stride_w, hidden: tl.constexpr, BLOCK_D: tl.constexpr):
    row = tl.program_id(0)
    offs_d = tl.arange(0, BLOCK_D)
    token = tl.load(input_ids + row)
    vec = tl.load(weight + token * stride_w + offs_d, mask=offs_d < hidden, other=0.0)
    tl.store(out + row * hidden + offs_d, vec, mask=offs_d < hidden)


def embedding(n_ctx=1024):
    weight = torch.randn(151645, 4096, device="cuda")
    ids = torch.randint(0, 151645, (n_ctx,), device="cuda")
    out = torch.empty(n_ctx, 4096, device="cuda")
    embedding_kernel[(n_ctx,)](weight, ids, out, n_ctx, weight.stride(0), hidden=4096, BLOCK_D=4096)
    return out


# A mask right for the row stride but not for the view's length: `base[:, 28:]` starts 28 elements
# into its base, so the last row's 128 columns run 28 elements past the allocation.
@triton.jit
def view_copy_kernel(x_ptr, out_ptr, n_cols, stride_row, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride_row + cols, mask=cols < stride_row)
      # ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[TS203]: tl.load can go out of bounds: x_ptr[8176] read by program 63, lane 112, with n_cols = 100, stride_row = 128 (x_ptr has 8164 elements)
    tl.store(out_ptr + row * n_cols + cols, x, mask=cols < n_cols)


def view_copy():
    base = torch.randn(64, 128, device="cuda")
    x = base[:, 28:]
    out = torch.empty(64, 100, device="cuda")
    view_copy_kernel[(64,)](x, out, x.shape[1], x.stride(0), BLOCK=128)
    return out


# A GEMV that never checks out_features (gemlite): 1000 rows under blocks of 1024 read and
# atomically write past w, the scales (inside a constexpr branch) and out.
@triton.jit
def gemv_kernel(w_ptr, x_ptr, s_ptr, out_ptr, in_features, out_features, HAS_SCALE: tl.constexpr,
                BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_n = tl.program_id(0)
    pid_k = tl.program_id(1)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    w = tl.load(w_ptr + rn[:, None] * in_features + rk[None, :])
      # ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[TS203]: tl.load can go out of bounds: w_ptr[4096000] read by program (0, 0, 0), lane 64000, with in_features = 4096, out_features = 1000 (w_ptr has 4096000 elements)
    x = tl.load(x_ptr + rk)
    acc = tl.sum(w * x[None, :], axis=1)
    if HAS_SCALE:
        acc = acc * tl.load(s_ptr + rn)
                  # ^^^^^^^^^^^^^^^^^^^ error[TS203]: tl.load can go out of bounds: s_ptr[1000] read by program (0, 0, 0), lane 1000, with in_features = 4096, out_features = 1000 (s_ptr has 1000 elements)
    tl.atomic_add(out_ptr + rn, acc)
  # ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[TS203]: tl.atomic_add can go out of bounds: out_ptr[1000] updated by program (0, 0, 0), lane 1000, with in_features = 4096, out_features = 1000 (out_ptr has 1000 elements)


def gemv(x, w, scales):
    out_features, in_features = w.shape
    out = torch.zeros(out_features, device=x.device, dtype=torch.float32)
    grid = (triton.cdiv(out_features, 1024), triton.cdiv(in_features, 64))
    gemv_kernel[grid](w, x, scales, out, in_features, out_features, HAS_SCALE=True, BLOCK_N=1024, BLOCK_K=64)
    return out


if __name__ == "__main__":
    x = torch.randn(200, 300, device="cuda")
    grouped_copy(x)
    offset_load()
    table()
    gather()
    gather_in_bounds()
    embedding()
    view_copy()
    gemv(torch.randn(4096, device="cuda"), torch.randn(1000, 4096, device="cuda"), torch.randn(1000, device="cuda"))
