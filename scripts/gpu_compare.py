#!/usr/bin/env python3
"""tessel's generated code against triton 3.6 on the same kernels, sizes and configs, in one run.

    python3 scripts/gpu_compare.py TESSEL_BINARY [--iters 50] [--only NAME]

Each case is a sample kernel (samples/*.py, imported as a module so triton compiles exactly that
source) at a benchmark size: vector add 2^26 fp32, fused softmax 4096x1000 and 4096x4096 fp32, layer
norm forward 4096x4096 fp32, fp16 matmul 4096^3 and attention forward at the sample's own shape
(batch 2 x heads 4, n_ctx 1000, head dim 64, causal and not). triton's time is
`triton.testing.do_bench` (median); an autotuned kernel (matmul, attention) is tuned by triton.autotune
first. tessel's is `tessel run --gpu --iters N --format=json` with a `--spec` of the same sizes,
constexprs, grid and num_warps (median of N runs, L2 flushed before each); an autotuned kernel runs
with `--all-configs`, which times every config and keeps the fastest as triton.autotune does. The
memory-bound cases also run on tessel's CPU interpreter and every GPU output is compared with it (a
wrong result shows as `mismatch` instead of a time); matmul and attention at these sizes would take
the interpreter minutes, so they run with `--no-reference` (their correctness is the samples' own
directive instances, checked by tests/gpu/gpu_suite.py). Bandwidth counts every tensor's bytes once
(inputs read, outputs written); matmul and attention are given in TFLOP/s. `% peak` is tessel's
figure over the device's ceiling tessel measured (a copy kernel; fp16 mma.sync), the same for both.
"""
import argparse
import importlib.util
import json
import os
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


class Case:
    """One benchmark: the sample, tessel's spec and options, triton's launch, the work it does."""

    def __init__(self, name, sample, kernel, spec, launch, nbytes, flops=0, tuned=False):
        self.name, self.sample, self.kernel, self.spec = name, sample, kernel, spec
        self.launch, self.nbytes, self.flops, self.tuned = launch, nbytes, flops, tuned


def cases(sms=132):
    out = []
    n = 1 << 26
    out.append(Case("vector add 2^26 fp32", "vector_add.py", "vector_add_kernel",
                    f"n_elements={n} x=fp32[n_elements] y=fp32[n_elements] out=fp32[n_elements]:out BLOCK_SIZE=1024 "
                    "grid=(cdiv(n_elements, BLOCK_SIZE),) num_warps=4",
                    lambda torch, triton, m: (lambda x, y, o: lambda: m.vector_add_kernel[(triton.cdiv(n, 1024),)](
                        x, y, o, n, BLOCK_SIZE=1024, num_warps=4))(
                            torch.rand(n, device="cuda"), torch.rand(n, device="cuda"), torch.empty(n, device="cuda")),
                    3 * n * 4))
    # The sample's own host function's choices: 4 programs per SM, BLOCK 1024 and 4 warps up to 1024
    # columns, else the next power of 2, 2 stages and 8 warps from 4096.
    for rows, cols in ((4096, 1000), (4096, 4096)):
        block = 1024 if cols <= 1024 else 1 << (cols - 1).bit_length()
        stages = 3 if cols <= 1024 else 2
        warps = 8 if block >= 4096 else 4
        progs = min(rows, 4 * sms)
        out.append(Case(f"softmax {rows}x{cols} fp32", "fused_softmax.py", "fused_softmax_kernel",
                        f"rows={rows} cols={cols} in=fp32[rows, cols] out=fp32[rows, cols]:out in_row_stride=cols "
                        f"out_row_stride=cols n_rows=rows n_cols=cols BLOCK_SIZE={block} NUM_STAGES={stages} "
                        f"grid=({progs},) num_warps={warps}",
                        (lambda rows, cols, block, stages, warps, progs: lambda torch, triton, m: (
                            lambda x, o: lambda: m.fused_softmax_kernel[(progs,)](
                                o, x, cols, cols, rows, cols, BLOCK_SIZE=block, NUM_STAGES=stages, num_warps=warps))(
                                    torch.randn(rows, cols, device="cuda"), torch.empty(rows, cols, device="cuda")))(
                                        rows, cols, block, stages, warps, progs),
                        2 * rows * cols * 4))
    rows = cols = 4096
    out.append(Case("layer norm fwd 4096x4096 fp32", "layer_norm.py", "layer_norm_fwd_kernel",
                    f"rows={rows} n_cols={cols} x=fp32[rows, n_cols] y=fp32[rows, n_cols]:out weight=fp32[n_cols] "
                    "bias=fp32[n_cols] mean=fp32[rows]:out rstd=fp32[rows]:out row_stride=n_cols eps=1e-5 "
                    "BLOCK_SIZE=1024 grid=(rows,) num_warps=8",
                    lambda torch, triton, m: (lambda x, y, w, b, mu, rs: lambda: m.layer_norm_fwd_kernel[(rows,)](
                        x, y, w, b, mu, rs, cols, cols, 1e-5, BLOCK_SIZE=1024, num_warps=8))(
                            torch.randn(rows, cols, device="cuda"), torch.empty(rows, cols, device="cuda"),
                            torch.rand(cols, device="cuda"), torch.rand(cols, device="cuda"),
                            torch.empty(rows, device="cuda"), torch.empty(rows, device="cuda")),
                    (2 * rows * cols + 2 * cols + 2 * rows) * 4))
    s = 4096
    out.append(Case("matmul 4096^3 fp16 (autotuned)", "matmul.py", "matmul_kernel",
                    f"M={s} N={s} K={s} a=fp16[M, K] b=fp16[K, N] c=fp16[M, N]:out stride_am=K stride_ak=1 "
                    "stride_bk=N stride_bn=1 stride_cm=N stride_cn=1 ACTIVATION=\"leaky_relu\" "
                    "grid=(cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N),)",
                    lambda torch, triton, m: (lambda a, b: lambda: m.matmul(a, b, "leaky_relu"))(
                        torch.randn(s, s, device="cuda", dtype=torch.float16),
                        torch.randn(s, s, device="cuda", dtype=torch.float16)),
                    3 * s * s * 2, 2 * s * s * s, tuned=True))
    bh, ctx, d = 8, 1000, 64  # the sample's __main__ shape (2, 4, 1000, 64)
    for causal in (False, True):
        # Causal attention does about half the work (the blocks above the diagonal are skipped).
        flops = 4 * bh * ctx * ctx * d // (2 if causal else 1)
        out.append(Case(f"attention fwd 2x4x1000x64 fp16{' causal' if causal else ''} (autotuned)", "attention.py",
                        "attn_fwd_kernel",
                        f"heads={bh} n_ctx={ctx} HEAD_DIM={d} CAUSAL={causal} q=fp16[heads, n_ctx, HEAD_DIM] "
                        "k=fp16[heads, n_ctx, HEAD_DIM] v=fp16[heads, n_ctx, HEAD_DIM] o=fp16[heads, n_ctx, HEAD_DIM]:out "
                        "lse=fp32[heads, n_ctx]:out stride_qh=n_ctx*HEAD_DIM stride_qm=HEAD_DIM "
                        "stride_kh=n_ctx*HEAD_DIM stride_kn=HEAD_DIM stride_vh=n_ctx*HEAD_DIM stride_vn=HEAD_DIM "
                        "stride_oh=n_ctx*HEAD_DIM stride_om=HEAD_DIM sm_scale=0.125 grid=(cdiv(n_ctx, BLOCK_M), heads)",
                        (lambda causal: lambda torch, triton, m: (lambda q, k, v: lambda: m.attention(
                            q, k, v, causal, 0.125))(*(torch.randn(2, 4, ctx, d, device="cuda", dtype=torch.float16)
                                                      for _ in range(3))))(causal),
                        4 * bh * ctx * d * 2 + bh * ctx * 4, flops, tuned=True))
    return out


def run_tessel(binary, case, iters, out_dir=None):
    """{ms, config, peak_gbps, peak_tflops, error} from one `tessel run --gpu` of the case."""
    path = os.path.join(ROOT, "samples", case.sample)
    cmd = [binary, "run", path, "--kernel", case.kernel, "--gpu", "--iters", str(iters), "--spec", case.spec,
           "--format=json"]
    if case.tuned:
        cmd += ["--all-configs", "--no-reference"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return {"error": "timed out after 600 s"}
    if out_dir:
        slug = "".join(c if c.isalnum() else "-" for c in case.name)
        with open(os.path.join(out_dir, f"tessel-{slug}.json"), "w") as f:
            f.write(p.stdout + p.stderr)
    try:
        report = json.loads(p.stdout)
    except ValueError:
        return {"error": (p.stderr.strip().splitlines() or ["no output"])[-1][:160]}
    best = None
    for inst in report.get("instances", []):
        g = inst.get("gpu") or {}
        if g.get("error"):
            return {"error": g["error"][:160]}
        if any(o.get("mismatches") for o in g.get("outputs", [])):
            return {"error": "mismatch"}
        t = g.get("time")
        if t and (best is None or t["medianMillis"] < best["ms"]):
            best = {"ms": t["medianMillis"], "config": inst.get("configText"),
                    "peak_gbps": t.get("peakGbPerSecond"), "peak_tflops": t.get("peakTflopsPerSecond")}
    if best is None:
        errs = [d.get("message", "") for d in report.get("diagnostics", [])] + [i.get("error") or "" for i in
                                                                                report.get("instances", [])]
        return {"error": ("; ".join(e for e in errs if e) or "no time")[:160]}
    return best


def bench_triton(case, torch, triton):
    mod, _ = load_sample(case.sample)
    try:
        fn = case.launch(torch, triton, mod)
        fn()  # compiles, and autotunes where the kernel is autotuned
        torch.cuda.synchronize()
        return {"ms": triton.testing.do_bench(fn, return_mode="median")}
    except Exception as e:  # noqa: BLE001 - report and go on
        return {"error": f"{type(e).__name__}: {e}"[:160]}


def rate(case, ms):
    if not ms:
        return None
    return case.flops / ms / 1e9 if case.flops else case.nbytes / ms / 1e6


def table(rows):
    """Markdown rows: case, triton, tessel, % of peak, ratio."""
    lines = ["| case | triton 3.6 | tessel | tessel % of peak | tessel / triton |", "|:---|---:|---:|---:|---:|"]
    for case, t, s in rows:
        unit = "TFLOP/s" if case.flops else "GB/s"

        def cell(r):
            return f"{r['ms']:.4f} ms, {rate(case, r['ms']):.0f} {unit}" if r.get("ms") else r.get("error", "-")
        peak = s.get("peak_tflops") if case.flops else s.get("peak_gbps")
        pct = f"{100 * rate(case, s['ms']) / peak:.0f}% of {peak:.0f} {unit}" if s.get("ms") and peak else "-"
        ratio = f"{t['ms'] / s['ms']:.2f}x" if t.get("ms") and s.get("ms") else "-"
        tcell = cell(s) + (f" [{s['config']}]" if s.get("config") else "")
        lines.append(f"| {case.name} | {cell(t)} | {tcell} | {pct} | {ratio} |")
    return "\n".join(lines)


def compare(tessel, iters=50, only=None, out_dir=None):
    import torch
    import triton
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    rows = []
    for case in cases(sms):
        if only and only not in case.name:
            continue
        t = bench_triton(case, torch, triton)
        s = run_tessel(os.path.abspath(tessel), case, iters, out_dir)
        rows.append((case, t, s))
        print(f"  {case.name}: triton {t.get('ms', t.get('error'))}, tessel {s.get('ms', s.get('error'))}",
              flush=True)
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tessel")
    ap.add_argument("--iters", type=int, default=50)
    ap.add_argument("--only")
    a = ap.parse_args()
    print(table(compare(a.tessel, a.iters, a.only)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
