#!/usr/bin/env python3
"""The Ninja gap, measured: every sample Triton kernel beside its CUDA C++ reference and PyTorch (issue 32).

    python3 bench/reference/gap_table.py TESSEL_BINARY [--iters 50] [--only NAME] [--json OUT]

For each case, `tessel run SAMPLE --kernel K --gpu --reference --iters N --format=json` runs tessel's code for
the Triton kernel and the sample's CUDA reference (samples/reference/*.cu, compiled in process by Clang, its
`# tessel: reference` directive giving block, grid and parameters) on the same inputs: the reference's outputs
are compared with the interpreter's (the directive's own small instances) or with tessel's GPU outputs (the
benchmark sizes, `--no-reference`), and both are timed alike (median of N, L2 flushed before each). PyTorch's
operation (the directive's `torch=`) runs here on tensors of the same shapes and dtypes, timed the same way
(CUDA events, L2 flushed, median). The table: each time, its fraction of the device's peak bandwidth (tessel's
measured ceiling; TFLOP/s for the matmul), registers, and the gaps: "Triton at 0.93x the CUDA reference" is the
reference's time over the Triton kernel's (above 1: the Triton kernel is faster); likewise against PyTorch. The
Triton kernel's time is Triton 3.6's own (the same sample module imported and launched with the same arguments
and meta-parameters, timed the same way) where triton is importable, else tessel's; "tessel vs Triton" is
Triton's time over tessel's for the same kernel (above 1: tessel's code is faster).

The long-row case is the textbook one: online_softmax.py at 4096 x 65536 fp32 (a 256 KiB row, more than an SM
holds on chip). Its rows add the bytes each implementation moves, as its algorithm reads and writes the tensor:
the online kernel and its CUDA reference read it twice and write it once (3 x 1 GiB); a max pass, a sum pass and
a normalise pass read it three times and write it once (4 x 1 GiB), PyTorch's cunn_SoftMaxForward when the row
does not fit its shared-memory path (an algorithmic count, not a profiler's: Nsight Compute's
dram__bytes_read.sum + dram__bytes_write.sum would confirm it).

Without a GPU (or torch) it says so in one line and exits 0: the figures need the GPU machine.
"""
import argparse
import ctypes
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
GiB = 1 << 30


class Case:
    """A sample kernel at one size: tessel's spec (None: the directive's instances), PyTorch's operation."""

    def __init__(self, name, sample, kernel, spec, torch_op, algo_bytes=None, torch_bytes=None, triton_op=None,
                 flops=None):
        self.name, self.sample, self.kernel, self.spec = name, sample, kernel, spec
        self.torch_op, self.algo_bytes, self.torch_bytes = torch_op, algo_bytes, torch_bytes
        # triton_op(torch, module) -> (launch, first CompiledKernel): the same kernel, the same launch, through
        # Triton 3.6's own compiler (the column tessel's figures are held to).
        self.triton_op, self.flops = triton_op, flops


def cases():
    out = []
    n = 1 << 26
    out.append(Case("vector add 2^26 fp32", "vector_add.py", "vector_add_kernel",
                    f"n_elements={n} x=fp32[n_elements] y=fp32[n_elements] out=fp32[n_elements]:out "
                    "BLOCK_SIZE=1024 grid=(cdiv(n_elements, BLOCK_SIZE),) num_warps=4",
                    lambda t: (lambda x, y: lambda: x + y)(t.rand(n, device="cuda"), t.rand(n, device="cuda")),
                    3 * n * 4, 3 * n * 4,
                    lambda t, m: (lambda x, y, o: launch(m.vector_add_kernel, ((n + 1023) // 1024,),
                                                         (x, y, o, n), dict(BLOCK_SIZE=1024, num_warps=4)))(
                        t.rand(n, device="cuda"), t.rand(n, device="cuda"), t.empty(n, device="cuda"))))
    for rows, cols in ((4096, 1000), (4096, 4096)):
        block = 1024 if cols <= 1024 else 1 << (cols - 1).bit_length()
        items = (cols + 255) // 256
        # The reference's ITEMS (columns per thread) is part of its directive: 4 covers the sample's
        # 1024 columns; wider rows are the online softmax case's.
        if items > 4:
            continue
        out.append(Case(f"fused softmax {rows}x{cols} fp16", "fused_softmax.py", "fused_softmax_kernel",
                        f"rows={rows} cols={cols} in=fp16[rows, cols] out=fp16[rows, cols]:out in_row_stride=cols "
                        f"out_row_stride=cols n_rows=rows n_cols=cols BLOCK_SIZE={block} NUM_STAGES=3 "
                        f"grid=(min(rows, 528),) num_warps=4",
                        lambda t, r=rows, c=cols: (lambda x: lambda: t.softmax(x.float(), -1).half())(
                            t.randn(r, c, device="cuda", dtype=t.float16)),
                        2 * rows * cols * 2, None,
                        lambda t, m, r=rows, c=cols, b=block: (lambda x, y: launch(
                            m.fused_softmax_kernel, (min(r, 528),), (y, x, c, c, r, c),
                            dict(BLOCK_SIZE=b, NUM_STAGES=3, num_warps=4)))(
                            t.randn(r, c, device="cuda", dtype=t.float16), t.empty(r, c, device="cuda",
                                                                                    dtype=t.float16))))
    out.append(Case("layer norm 4096x3000 fp32", "layer_norm.py", "layer_norm_fwd_kernel",
                    "rows=4096 n_cols=3000 x=fp32[rows, n_cols] y=fp32[rows, n_cols]:out weight=fp32[n_cols] "
                    "bias=fp32[n_cols] mean=fp32[rows]:out rstd=fp32[rows]:out row_stride=n_cols eps=1e-5 "
                    "BLOCK_SIZE=1024 grid=(rows,) num_warps=8",
                    lambda t: (lambda x, w, b: lambda: t.nn.functional.layer_norm(x, (3000,), w, b, 1e-5))(
                        t.randn(4096, 3000, device="cuda"), t.rand(3000, device="cuda"), t.rand(3000, device="cuda")),
                    2 * 4096 * 3000 * 4, None,
                    lambda t, m: (lambda x, y, w, b, mu, rs: launch(
                        m.layer_norm_fwd_kernel, (4096,), (x, y, w, b, mu, rs, 3000, 3000, 1e-5),
                        dict(BLOCK_SIZE=1024, num_warps=8)))(
                        t.randn(4096, 3000, device="cuda"), t.empty(4096, 3000, device="cuda"),
                        t.rand(3000, device="cuda"), t.rand(3000, device="cuda"), t.empty(4096, device="cuda"),
                        t.empty(4096, device="cuda"))))
    m = 4096
    out.append(Case(f"matmul {m}^3 fp16", "matmul.py", "matmul_kernel",
                    f"M={m} N={m} K={m} a=fp16[M, K] b=fp16[K, N] c=fp16[M, N]:out stride_am=K stride_ak=1 "
                    "stride_bk=N stride_bn=1 stride_cm=N stride_cn=1 grid=(cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N),)",
                    lambda t: (lambda a, b: lambda: a @ b)(t.randn(m, m, device="cuda", dtype=t.float16),
                                                            t.randn(m, m, device="cuda", dtype=t.float16)),
                    3 * m * m * 2, None, lambda t, mod: matmul_config0(t, mod, m), 2 * m ** 3))
    rows, cols = 4096, 65536
    size = rows * cols * 4
    out.append(Case(f"online softmax {rows}x{cols} fp32", "online_softmax.py", "online_softmax_kernel",
                    f"rows={rows} n_cols={cols} x=fp32[rows, n_cols] y=fp32[rows, n_cols]:out BLOCK_SIZE=1024 "
                    "grid=(rows,) num_warps=8",
                    lambda t: (lambda x: lambda: t.softmax(x, -1))(t.randn(rows, cols, device="cuda")),
                    3 * size, 4 * size,
                    lambda t, m: (lambda x, y: launch(m.online_softmax_kernel, (rows,), (y, x, cols),
                                                      dict(BLOCK_SIZE=1024, num_warps=8)))(
                        t.randn(rows, cols, device="cuda"), t.empty(rows, cols, device="cuda"))))
    # The directives' own small instances: outputs against the interpreter.
    for sample, kernel in (("vector_add.py", "vector_add_kernel"), ("fused_softmax.py", "fused_softmax_kernel"),
                           ("layer_norm.py", "layer_norm_fwd_kernel"), ("matmul.py", "matmul_kernel"),
                           ("online_softmax.py", "online_softmax_kernel")):
        out.append(Case(f"{sample} directive instances", sample, kernel, None, None))
    return out


def launch(kernel, grid, args, kwargs):
    """One launch through Triton (compiling it), and the closure that repeats it for the timer."""
    compiled = kernel[grid](*args, **kwargs)
    return (lambda: kernel[grid](*args, **kwargs)), compiled


def matmul_config0(t, mod, m):
    """matmul.py's kernel at its first autotune config (tessel's `--config 0`), ACTIVATION as its launch site."""
    cfg = mod.get_autotune_configs()[0]
    a = t.randn(m, m, device="cuda", dtype=t.float16)
    b = t.randn(m, m, device="cuda", dtype=t.float16)
    c = t.empty(m, m, device="cuda", dtype=t.float16)
    bm, bn = cfg.kwargs["BLOCK_M"], cfg.kwargs["BLOCK_N"]
    grid = (((m + bm - 1) // bm) * ((m + bn - 1) // bn),)
    return launch(mod.matmul_kernel.fn, grid, (a, b, c, m, m, m, m, 1, m, 1, m, 1),
                  dict(cfg.kwargs, ACTIVATION="", num_warps=cfg.num_warps, num_stages=cfg.num_stages))


def load_sample(sample):
    import importlib.util
    spec = importlib.util.spec_from_file_location("sample_" + sample[:-3], os.path.join(ROOT, "samples", sample))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def time_triton(torch, case, iters):
    """Triton 3.6 on the same kernel and launch: (median ms, registers, shared bytes) or an error line."""
    try:
        fn, compiled = case.triton_op(torch, load_sample(case.sample))
        torch.cuda.synchronize()
        return time_torch(torch, fn, iters), getattr(compiled, "n_regs", None), compiled.metadata.shared, None
    except Exception as e:  # noqa: BLE001 - one case's failure is a line in the table, not the end of it
        return None, None, None, f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"


def ms(x):
    return f"{x:.4g}" if x else "-"


def gpu_present():
    try:
        ctypes.CDLL("libcuda.so.1")
        return True
    except OSError:
        return False


def time_torch(torch, fn, iters):
    """As tessel times a launch (GpuSession::time): 3 warm-ups, L2 flushed before each timed run, median."""
    for _ in range(3):
        fn()
    l2 = getattr(torch.cuda.get_device_properties(0), "L2_cache_size", 1 << 26)
    flush = torch.empty(2 * max(l2, 1 << 20), dtype=torch.uint8, device="cuda")
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    ms = []
    for i in range(iters):
        flush.fill_(i & 0xFF)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        ms.append(start.elapsed_time(stop))
    ms.sort()
    return ms[len(ms) // 2]


def run_tessel(tessel, case, iters):
    cmd = [tessel, "run", os.path.join(ROOT, "samples", case.sample), "--kernel", case.kernel, "--gpu",
           "--reference", "--iters", str(iters), "--format=json"]
    if case.spec:
        cmd += ["--spec", case.spec, "--no-reference"]
        if case.kernel == "matmul_kernel":
            cmd += ["--config", "0"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    try:
        return json.loads(p.stdout), p.stderr
    except json.JSONDecodeError:
        return None, (p.stderr or p.stdout).strip().splitlines()[-1:] or ["no output"]


def pct(part, whole):
    return f"{100 * part / whole:.0f}%" if part and whole else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("tessel")
    ap.add_argument("--iters", type=int, default=50)
    ap.add_argument("--only", default="")
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    if not gpu_present():
        print("gap_table: no GPU (libcuda.so.1 cannot be loaded): nothing measured; run it on the GPU machine")
        return 0
    try:
        import torch
    except ImportError:
        torch = None
    rows, records = [], []
    print("| case | instance | outputs | tessel ms | % peak | regs | Triton 3.6 ms | regs | tessel vs Triton "
          "| CUDA ref ms | % peak | regs | Triton kernel vs CUDA ref | PyTorch ms | Triton kernel vs PyTorch "
          "| bytes (kernel / ref / torch) |")
    print("|:---|:---|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---|")
    for case in cases():
        if args.only and args.only not in case.name:
            continue
        report, err = run_tessel(args.tessel, case, args.iters)
        if report is None:
            print(f"| {case.name} | - | tessel run failed: {err} |" + " |" * 13)
            continue
        torch_ms = tri_ms = tri_regs = tri_err = None
        if torch is not None and case.torch_op is not None:
            torch_ms = time_torch(torch, case.torch_op(torch), args.iters)
        if torch is not None and case.triton_op is not None:
            tri_ms, tri_regs, _, tri_err = time_triton(torch, case, args.iters)
        for inst in report.get("instances", []):
            g = inst.get("gpu") or {}
            ref = (inst.get("cudaReference") or {})
            rg = ref.get("gpu") or {}
            gt, rt = g.get("time") or {}, rg.get("time") or {}
            outs = [o for o in g.get("outputs", [])] + [o for o in rg.get("outputs", [])]
            bad = [o["name"] for o in outs if o.get("mismatches")]
            verdict = ref.get("error") or rg.get("error") or ("differ: " + ", ".join(bad) if bad else
                                                              f"equal (ref vs {ref.get('against') or '-'})")
            t_ms, r_ms = gt.get("medianMillis"), rt.get("medianMillis")
            # The gaps are of the Triton kernel: Triton's own time where it ran, else tessel's.
            k_ms = tri_ms or t_ms
            gap = f"{r_ms / k_ms:.2f}x" if k_ms and r_ms else "-"
            tgap = f"{torch_ms / k_ms:.2f}x" if k_ms and torch_ms else "-"
            vs_tri = f"{tri_ms / t_ms:.2f}x" if t_ms and tri_ms else (tri_err or "-")
            nbytes = "-"
            if case.algo_bytes:
                nbytes = f"{case.algo_bytes / GiB:.2f} / {case.algo_bytes / GiB:.2f} / " \
                         f"{(case.torch_bytes or case.algo_bytes) / GiB:.2f} GiB"
            peak_t = pct(gt.get('gbPerSecond'), gt.get('peakGbPerSecond'))
            peak_r = pct(rt.get('gbPerSecond'), rt.get('peakGbPerSecond'))
            if case.flops:  # compute-bound: TFLOP/s rather than a fraction of the bandwidth
                peak_t = f"{case.flops / t_ms / 1e9:.0f} TFLOP/s" if t_ms else "-"
                peak_r = f"{case.flops / r_ms / 1e9:.0f} TFLOP/s" if r_ms else "-"
                nbytes += f"; Triton {case.flops / tri_ms / 1e9:.0f}, PyTorch {case.flops / torch_ms / 1e9:.0f} " \
                          "TFLOP/s" if tri_ms and torch_ms else ""
            print(f"| {case.name} | {inst.get('label') or '-'} | {verdict} | {ms(t_ms)} | {peak_t} | "
                  f"{g.get('registers', '-')} | {ms(tri_ms)} | {tri_regs or '-'} | {vs_tri} | {ms(r_ms)} | {peak_r} | "
                  f"{rg.get('registers', '-')} | {gap} | {ms(torch_ms)} | {tgap} | {nbytes} |")
            records.append({"case": case.name, "instance": inst.get("label"), "tessel_ms": t_ms, "reference_ms": r_ms,
                            "triton_ms": tri_ms, "triton_regs": tri_regs, "triton_error": tri_err,
                            "torch_ms": torch_ms, "verdict": verdict, "tessel_gbps": gt.get("gbPerSecond"),
                            "reference_gbps": rt.get("gbPerSecond"), "peak_gbps": gt.get("peakGbPerSecond")})
    if args.json:
        with open(args.json, "w") as f:
            json.dump(records, f, indent=1)
    if torch is None:
        print("(PyTorch columns empty: torch is not importable here)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
