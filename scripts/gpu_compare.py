#!/usr/bin/env python3
"""tessel's generated code against triton 3.6 on the same kernels, sizes and configs, in one run.

    python3 scripts/gpu_compare.py TESSEL_BINARY [--iters 50] [--only NAME]

Each case is a sample kernel (samples/*.py, imported as a module so triton compiles exactly that
source) at a benchmark size. triton's time is `triton.testing.do_bench` (median); tessel's is
`tessel run --gpu --iters N` with a `--spec` of the same sizes, constexprs, grid and num_warps
(median of N runs, L2 flushed before each). Bandwidth counts every tensor's bytes once (inputs read,
outputs written); matmul is given in TFLOP/s. The table printed last is what bench/RESULTS.md
records. Needs a GPU, torch and triton; tessel's run also checks its outputs against its CPU
interpreter, so a wrong result shows as `mismatch` instead of a time.
"""
import argparse
import importlib.util
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def load_sample(name):
    path = os.path.join(ROOT, "samples", name)
    spec = importlib.util.spec_from_file_location(name[:-3], path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod, path


def cases():
    """(name, sample, kernel, tessel spec, triton launch(torch, triton, mod), bytes, flops)."""
    out = []
    n = 1 << 26
    out.append(("vector add 2^26 fp32", "vector_add.py", "vector_add_kernel",
                f"n_elements={n} x=fp32[n_elements] y=fp32[n_elements] out=fp32[n_elements]:out BLOCK_SIZE=1024 "
                "grid=(cdiv(n_elements, BLOCK_SIZE),) num_warps=4",
                lambda torch, triton, m: (lambda x, y, o: lambda: m.vector_add_kernel[(triton.cdiv(n, 1024),)](
                    x, y, o, n, BLOCK_SIZE=1024, num_warps=4))(
                        torch.rand(n, device="cuda"), torch.rand(n, device="cuda"), torch.empty(n, device="cuda")),
                3 * n * 4, 0))
    for rows, cols, block, warps in ((4096, 1000, 1024, 4), (4096, 4096, 4096, 8)):
        progs = min(rows, 4 * 132)
        out.append((f"softmax {rows}x{cols} fp32", "fused_softmax.py", "fused_softmax_kernel",
                    f"rows={rows} cols={cols} in=fp32[rows, cols] out=fp32[rows, cols]:out in_row_stride=cols "
                    f"out_row_stride=cols n_rows=rows n_cols=cols BLOCK_SIZE={block} NUM_STAGES=3 grid=({progs},) "
                    f"num_warps={warps}",
                    (lambda rows, cols, block, warps, progs: lambda torch, triton, m: (
                        lambda x, o: lambda: m.fused_softmax_kernel[(progs,)](
                            o, x, cols, cols, rows, cols, BLOCK_SIZE=block, NUM_STAGES=3, num_warps=warps))(
                                torch.randn(rows, cols, device="cuda"), torch.empty(rows, cols, device="cuda")))(
                                    rows, cols, block, warps, progs),
                    2 * rows * cols * 4, 0))
    rows = cols = 4096
    out.append(("layer norm 4096x4096 fp32", "layer_norm.py", "layer_norm_fwd_kernel",
                f"rows={rows} n_cols={cols} x=fp32[rows, n_cols] y=fp32[rows, n_cols]:out weight=fp32[n_cols] "
                "bias=fp32[n_cols] mean=fp32[rows]:out rstd=fp32[rows]:out row_stride=n_cols eps=1e-5 "
                "BLOCK_SIZE=1024 grid=(rows,) num_warps=8",
                lambda torch, triton, m: (lambda x, y, w, b, mu, rs: lambda: m.layer_norm_fwd_kernel[(rows,)](
                    x, y, w, b, mu, rs, cols, cols, 1e-5, BLOCK_SIZE=1024, num_warps=8))(
                        torch.randn(rows, cols, device="cuda"), torch.empty(rows, cols, device="cuda"),
                        torch.rand(cols, device="cuda"), torch.rand(cols, device="cuda"),
                        torch.empty(rows, device="cuda"), torch.empty(rows, device="cuda")),
                (2 * rows * cols + 2 * cols + 2 * rows) * 4, 0))
    return out


def run_tessel(binary, sample_path, kernel, spec, iters):
    p = subprocess.run([binary, "run", sample_path, "--kernel", kernel, "--gpu", "--iters", str(iters), "--spec",
                        spec], capture_output=True, text=True, timeout=600)
    text = p.stdout + p.stderr
    if "differ from the interpreter" in text:
        return None, "mismatch"
    m = re.search(r"time: median ([0-9.e+-]+) ms", text)
    if not m:
        tail = [l for l in text.splitlines() if "error" in l][:2]
        return None, "; ".join(tail)[:160] or "no time"
    return float(m.group(1)), ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tessel")
    ap.add_argument("--iters", type=int, default=50)
    ap.add_argument("--only")
    a = ap.parse_args()
    import torch
    import triton
    rows = []
    for name, sample, kernel, spec, launch, nbytes, flops in cases():
        if a.only and a.only not in name:
            continue
        mod, path = load_sample(sample)
        try:
            fn = launch(torch, triton, mod)
            fn()
            t_ms = triton.testing.do_bench(fn, return_mode="median")
            t_err = ""
        except Exception as e:  # noqa: BLE001 - report and go on
            t_ms, t_err = None, f"{type(e).__name__}: {e}"[:160]
        s_ms, s_err = run_tessel(os.path.abspath(a.tessel), path, kernel, spec, a.iters)
        rows.append((name, t_ms, t_err, s_ms, s_err, nbytes, flops))
    print("| case | triton 3.6 ms | triton GB/s | tessel ms | tessel GB/s | speed (triton ms / tessel ms) |")
    print("|:---|---:|---:|---:|---:|---:|")
    for name, t_ms, t_err, s_ms, s_err, nbytes, flops in rows:
        def rate(ms):
            return f"{nbytes / ms / 1e6:.0f}" if ms else "-"
        ratio = f"{t_ms / s_ms:.2f}x" if t_ms and s_ms else "-"
        print(f"| {name} | {f'{t_ms:.4f}' if t_ms else t_err} | {rate(t_ms)} | "
              f"{f'{s_ms:.4f}' if s_ms else s_err} | {rate(s_ms)} | {ratio} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
