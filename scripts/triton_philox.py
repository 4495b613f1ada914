#!/usr/bin/env python3
"""Print what the real Triton's tl.rand / tl.randn / tl.randint / tl.randint4x return.

tessel's interpreter must give bit-identical random numbers (issue 3). This script is the
reference: it runs one kernel on the GPU with triton 3.6 and torch for a few seeds (32- and
64-bit) and offsets (small, large, negative) and prints one line per value:

    seed=123 offset=7 rand=0x1.8f6c2p-2 randn=-0x1.2d0a4p+0 randint=3210987654 randint4x=a,b,c,d

Floats are printed with float.hex so the comparison is exact. The output is committed as
tests/data/philox-triton-3.6.txt; the interpreter's test reads it.

    python3 scripts/triton_philox.py > tests/data/philox-triton-3.6.txt
"""
import torch
import triton
import triton.language as tl

OFFSETS = list(range(16)) + [100, 1000, 4095, 4096, 65535, 65536, 1 << 20, (1 << 31) - 1,
                              -1, -2, -1000, -(1 << 31), 123456789, 987654321, 31337, 2024]
SEEDS = [0, 1, 42, 123, 0x7FFFFFFF, 0x12345678, (1 << 32) + 7, 0xDEADBEEFCAFE]


@triton.jit
def philox_kernel(offs_ptr, rand_ptr, randn_ptr, randint_ptr, r4_ptr, seed, N: tl.constexpr):
    idx = tl.arange(0, N)
    offs = tl.load(offs_ptr + idx)
    tl.store(rand_ptr + idx, tl.rand(seed, offs))
    tl.store(randn_ptr + idx, tl.randn(seed, offs))
    tl.store(randint_ptr + idx, tl.randint(seed, offs))
    a, b, c, d = tl.randint4x(seed, offs)
    tl.store(r4_ptr + idx * 4 + 0, a)
    tl.store(r4_ptr + idx * 4 + 1, b)
    tl.store(r4_ptr + idx * 4 + 2, c)
    tl.store(r4_ptr + idx * 4 + 3, d)


def main():
    n = len(OFFSETS)
    offs = torch.tensor(OFFSETS, dtype=torch.int32, device="cuda")
    print(f"# triton {triton.__version__}, torch {torch.__version__}, {torch.cuda.get_device_name()}")
    for seed in SEEDS:
        rand = torch.empty(n, dtype=torch.float32, device="cuda")
        randn = torch.empty(n, dtype=torch.float32, device="cuda")
        randint = torch.empty(n, dtype=torch.int32, device="cuda")
        r4 = torch.empty(4 * n, dtype=torch.int32, device="cuda")
        philox_kernel[(1,)](offs, rand, randn, randint, r4, seed, N=n)
        torch.cuda.synchronize()
        for i, o in enumerate(OFFSETS):
            words = ",".join(str(int(w) & 0xFFFFFFFF) for w in r4[4 * i:4 * i + 4].tolist())
            print(f"seed={seed} offset={o} rand={float(rand[i]).hex()} randn={float(randn[i]).hex()} "
                  f"randint={int(randint[i]) & 0xFFFFFFFF} randint4x={words}")


if __name__ == "__main__":
    main()
