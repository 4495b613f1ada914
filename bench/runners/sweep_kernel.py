# The sweep bench/runners/run.sh spreads over 1, 2 and 4 workers: 16 autotune
# configs (BLOCK x num_warps) times 8 launch shapes, 128 `tessel run`s of a
# scaled add, each a tenth of a second or so in the interpreter.
import triton
import triton.language as tl


def sweep_configs():
    return [triton.Config({"BLOCK": block}, num_warps=warps) for block in (256, 512, 1024, 2048)
            for warps in (1, 2, 4, 8)]


# tessel: launch n=[600000, 700000, 800000, 900000, 1000000, 1100000, 1200000, 1300000] \
#   x=fp32[n] y=fp32[n] out=fp32[n]:out alpha=0.5 grid=(cdiv(n, BLOCK),)
@triton.autotune(configs=sweep_configs(), key=["n"])
@triton.jit
def scaled_add(x_ptr, y_ptr, out_ptr, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, alpha * x + y, mask=mask)
