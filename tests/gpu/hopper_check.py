#!/usr/bin/env python3
"""Issue 29 on the H200: tessel's figures and results beside triton 3.6's, in one run, short table last.

    python3 tests/gpu/hopper_check.py TESSEL [--kernels bench/hopper/kernels.py] [--quick]

For every config of bench/hopper/kernels.py's tutorial-shaped kernels (tutorial 03's CUDA configs for the
matmul, fp16 and bf16; tutorial 05's layer norm and tutorial 02's softmax at their benchmark sizes and
host-chosen launch parameters):

- triton compiles and launches the kernel (its `metadata.shared`, `n_regs`, `n_spills`; an out-of-resource
  refusal is recorded with its Required figure), and its output is compared with torch;
- tessel compiles the same source under a `--spec` of the same sizes, constexprs and options, for sm_90a,
  twice for the matmul: with TESSEL_WGMMA=0 (mma.sync) and TESSEL_WGMMA=1 (wgmma, the default); its cubin is
  loaded and launched here through the CUDA driver (ctypes) on the same torch tensors, and compared with
  torch the same way (relative Frobenius error against an fp32/fp64 reference; fp16/bf16 operands pass
  under 1e-2, fp32 under 1e-5);
- the matmul is also timed at 4096^3 (median of CUDA-event timings, L2 not flushed, the same for both).

Needs a GPU, torch and triton. Exit status 1 when an output is wrong.
"""
import argparse
import ctypes
import importlib.util
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


class Driver:
    """The few driver calls a launch needs, on torch's current context."""

    def __init__(self):
        self.cu = ctypes.CDLL("libcuda.so.1")

    def check(self, rc, what):
        if rc != 0:
            raise RuntimeError(f"{what}: CUDA error {rc}")

    def load(self, cubin, name, shared):
        mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
        data = open(cubin, "rb").read()
        self.check(self.cu.cuModuleLoadData(ctypes.byref(mod), data), "cuModuleLoadData")
        self.check(self.cu.cuModuleGetFunction(ctypes.byref(fn), mod, name.encode()), "cuModuleGetFunction")
        if shared > 49152:
            # CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
            self.check(self.cu.cuFuncSetAttribute(fn, 8, ctypes.c_int(shared)), "cuFuncSetAttribute")
        return fn

    def launch(self, fn, grid, threads, shared, args):
        holders = []
        for a in args + [None, None]:  # the two scratch pointers, null
            if a is None:
                holders.append(ctypes.c_uint64(0))
            elif hasattr(a, "data_ptr"):
                holders.append(ctypes.c_uint64(a.data_ptr()))
            elif isinstance(a, float):
                holders.append(ctypes.c_float(a))
            else:
                holders.append(ctypes.c_int32(a))
        ptrs = (ctypes.c_void_p * len(holders))(*[ctypes.cast(ctypes.byref(h), ctypes.c_void_p) for h in holders])
        g = list(grid) + [1] * (3 - len(grid))
        self.check(self.cu.cuLaunchKernel(fn, g[0], g[1], g[2], threads, 1, 1, shared, None, ptrs, None),
                   "cuLaunchKernel")


def tessel_compile(tessel, kernels, kernel, spec, out_dir, tag, wgmma):
    """(cubin path, report dict) of one tessel compile, or (None, {error})."""
    env = dict(os.environ)
    env["TESSEL_WGMMA"] = "1" if wgmma else "0"
    cubin = os.path.join(out_dir, f"{tag}.cubin")
    base = [tessel, "compile", kernels, "--kernel", kernel, "--spec", spec, "--arch", "sm_90a"]
    p = subprocess.run(base + ["--emit", "cubin", "-o", cubin], capture_output=True, text=True, env=env, timeout=300)
    if p.returncode != 0:
        return None, {"error": (p.stderr.strip().splitlines() or ["compile failed"])[-1][:150]}
    r = subprocess.run(base + ["--emit", "report"], capture_output=True, text=True, env=env, timeout=300)
    rep = {}
    for key, pat in (("regs", r"registers\s+(\d+)"), ("spill", r"spills\s+(\d+) bytes stored"),
                     ("shared", r"\((\d+) dynamic\)")):
        m = re.search(pat, r.stdout)
        rep[key] = int(m.group(1)) if m else None
    rep["wgmma_in_sass"] = None
    return cubin, rep


def rel_err(out, ref):
    import torch
    out, ref = out.double(), ref.double()
    if not torch.isfinite(out).all():
        return float("inf")
    return float((out - ref).norm() / ref.norm().clamp_min(1e-30))


def event_time(fn, iters=20):
    import torch
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        fn()
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e))
    times.sort()
    return times[len(times) // 2]


MATMUL_CONFIGS = [  # tutorial 03's get_cuda_autotune_config: BM, BN, BK, stages, warps
    (128, 256, 64, 3, 8), (64, 256, 32, 4, 4), (128, 128, 32, 4, 4), (128, 64, 32, 4, 4),
    (64, 128, 32, 4, 4), (128, 32, 32, 4, 4), (64, 32, 32, 5, 2), (32, 64, 32, 5, 2),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tessel")
    ap.add_argument("--kernels", default=os.path.join(ROOT, "bench", "hopper", "kernels.py"))
    ap.add_argument("--quick", action="store_true", help="fp16 matmul only, no timing")
    ap.add_argument("--samples", default=os.path.join(ROOT, "samples"))
    ap.add_argument("--part", choices=["base", "wgmma"], default="base",
                    help="base: every case, the mma.sync build of the matmul launched (the wgmma build only "
                         "compiled, for its figures); wgmma: the matmuls with the wgmma build launched, and the "
                         "samples' directives through `tessel run --gpu`. Two processes, so that a fault of one "
                         "path cannot take the other's results with it")
    args = ap.parse_args()
    import torch
    import triton
    spec_ = importlib.util.spec_from_file_location("kernels", args.kernels)
    K = importlib.util.module_from_spec(spec_)
    spec_.loader.exec_module(K)
    drv = Driver()
    torch.manual_seed(0)
    out_dir = tempfile.mkdtemp()
    rows, failed = [], False

    def row(name, tri, variants, err_t, errs, times=""):
        cell = lambda r: (f"{r.get('shared')}/{r.get('regs')}" if r and "error" not in r else
                          (r or {}).get("error", "-"))
        rows.append(f"| {name} | {tri} | " + " | ".join(cell(v) for v in variants) + f" | {err_t} | {errs} | {times} |")

    # Matmul: tutorial 03's configs at M = N = K = 512 (the facts' sizes), and at 300 x 200 x 72 (tails
    # masked, strides not multiples of 16: neither side pipelines), for figures and correctness.
    dtypes = [torch.float16] if args.quick else [torch.float16, torch.bfloat16]
    for dt in dtypes:
        tname = "fp16" if dt == torch.float16 else "bf16"
        for mm, nn, kk in ((512, 512, 512), (300, 200, 72)):
            a = torch.randn(mm, kk, device="cuda", dtype=dt)
            b = torch.randn(kk, nn, device="cuda", dtype=dt)
            ref = (a.double() @ b.double())
            for bm, bn, bk, st, w in MATMUL_CONFIGS:
                name = f"matmul {tname} {mm}x{nn}x{kk} {bm}x{bn}x{bk} s{st} w{w}"
                grid = (triton.cdiv(mm, bm) * triton.cdiv(nn, bn),)
                c = torch.full((mm, nn), float("nan"), device="cuda", dtype=torch.float16)
                try:
                    k = K.matmul_tiles[grid](a, b, c, mm, nn, kk, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                             c.stride(0), c.stride(1), BM=bm, BN=bn, BK=bk, GROUP=8, num_warps=w,
                                             num_stages=st)
                    torch.cuda.synchronize()
                    tri = f"{k.metadata.shared}/{k.n_regs}" + (f" ({k.n_spills} spills)" if k.n_spills else "")
                    err_t = f"{rel_err(c, ref):.1e}"
                except Exception as e:  # noqa: BLE001 - triton's out-of-resource verdict is a figure
                    m = re.search(r"Required: (\d+)", str(e))
                    tri, err_t = (f"OOR {m.group(1)}" if m else type(e).__name__), "-"
                spec = (f"M={mm} N={nn} K={kk} a={tname}[M, K] b={tname}[K, N] c=fp16[M, N]:out stride_am=K "
                        f"stride_ak=1 stride_bk=N stride_bn=1 stride_cm=N stride_cn=1 BM={bm} BN={bn} BK={bk} "
                        f"GROUP=8 grid=(cdiv(M, BM) * cdiv(N, BN),) num_warps={w} num_stages={st}")
                variants, errs = [], []
                for wg in (False, True):
                    tag = f"mm_{tname}_{mm}_{bm}_{bn}_{bk}_{st}_{w}_{int(wg)}"
                    cubin, rep = tessel_compile(args.tessel, args.kernels, "matmul_tiles", spec, out_dir, tag, wg)
                    variants.append(rep)
                    if wg != (args.part == "wgmma"):
                        errs.append("not run")
                        continue
                    if not cubin or rep.get("shared") is None or rep["shared"] > 232448:
                        errs.append("OOR" if rep.get("shared") else "-")
                        continue
                    c2 = torch.full((mm, nn), float("nan"), device="cuda", dtype=torch.float16)
                    try:
                        fn = drv.load(cubin, "matmul_tiles", rep["shared"])
                        drv.launch(fn, grid, 32 * w, rep["shared"],
                                   [a, b, c2, mm, nn, kk, a.stride(0), b.stride(0), c2.stride(0)])
                        torch.cuda.synchronize()
                        e = rel_err(c2, ref)
                        errs.append(f"{e:.1e}")
                        failed |= not (e < 1e-2)
                    except Exception as ex:  # noqa: BLE001
                        errs.append(f"launch: {ex}"[:60])
                        failed = True
                row(name, tri, variants, err_t, " / ".join(errs))

    # Matmul speed at 4096^3 fp16, the configs that fit.
    if not args.quick:
        s = 4096
        a = torch.randn(s, s, device="cuda", dtype=torch.float16)
        b = torch.randn(s, s, device="cuda", dtype=torch.float16)
        for bm, bn, bk, st, w in MATMUL_CONFIGS[:6]:
            grid = (triton.cdiv(s, bm) * triton.cdiv(s, bn),)
            c = torch.empty((s, s), device="cuda", dtype=torch.float16)
            launch_t = lambda: K.matmul_tiles[grid](a, b, c, s, s, s, s, 1, s, 1, s, 1, BM=bm, BN=bn, BK=bk,
                                                    GROUP=8, num_warps=w, num_stages=st)
            tms = [event_time(launch_t)]
            spec = (f"M={s} N={s} K={s} a=fp16[M, K] b=fp16[K, N] c=fp16[M, N]:out stride_am=K stride_ak=1 "
                    f"stride_bk=N stride_bn=1 stride_cm=N stride_cn=1 BM={bm} BN={bn} BK={bk} GROUP=8 "
                    f"grid=(cdiv(M, BM) * cdiv(N, BN),) num_warps={w} num_stages={st}")
            for wg in (False, True):
                tag = f"big_{bm}_{bn}_{bk}_{st}_{w}_{int(wg)}"
                cubin, rep = tessel_compile(args.tessel, args.kernels, "matmul_tiles", spec, out_dir, tag, wg)
                if not cubin or wg != (args.part == "wgmma"):
                    tms.append(None)
                    continue
                fn = drv.load(cubin, "matmul_tiles", rep["shared"])
                tms.append(event_time(lambda: drv.launch(fn, grid, 32 * w, rep["shared"],
                                                         [a, b, c, s, s, s, s, s, s])))
            tf = lambda t: f"{2 * s ** 3 / t / 1e9:.0f}" if t else "-"
            rows.append(f"| matmul fp16 4096^3 {bm}x{bn}x{bk} s{st} w{w} | TFLOP/s triton {tf(tms[0])} | "
                        f"tessel mma.sync {tf(tms[1])} | tessel wgmma {tf(tms[2])} | | | |")

    # Layer norm (tutorial 05): 4096 rows, fp16, BLOCK = next_pow2(N) (at most 32768 / 2 bytes),
    # warps = min(max(BLOCK // 256, 1), 8).
    for n in ([] if args.part == "wgmma" else [4096] if args.quick else [1024, 2048, 4096, 8192, 15872]):
        m = 4096
        block = min(65536 // 2, triton.next_power_of_2(n))
        w = min(max(block // 256, 1), 8)
        x = torch.randn(m, n, device="cuda", dtype=torch.float16)
        wt = torch.rand(n, device="cuda", dtype=torch.float16)
        bs = torch.randn(n, device="cuda", dtype=torch.float16)
        ref = torch.nn.functional.layer_norm(x.float(), (n,), wt.float(), bs.float(), 1e-5)
        y = torch.full_like(x, float("nan"))
        mu = torch.empty(m, device="cuda")
        rs = torch.empty(m, device="cuda")
        k = K.layer_norm_rows[(m,)](x, y, wt, bs, mu, rs, x.stride(0), n, 1e-5, BLOCK_SIZE=block, num_warps=w)
        torch.cuda.synchronize()
        tri = f"{k.metadata.shared}/{k.n_regs}"
        err_t = f"{rel_err(y, ref):.1e}"
        spec = (f"rows={m} N={n} x=fp16[rows, N] y=fp16[rows, N]:out w=fp16[N] b=fp16[N] "
                f"mean=fp32[rows]:out rstd=fp32[rows]:out stride=N eps=1e-5 BLOCK_SIZE={block} "
                f"grid=(rows,) num_warps={w}")
        cubin, rep = tessel_compile(args.tessel, args.kernels, "layer_norm_rows", spec, out_dir, f"ln_{n}", False)
        errs = "-"
        if cubin:
            y2 = torch.full_like(x, float("nan"))
            fn = drv.load(cubin, "layer_norm_rows", rep["shared"])
            drv.launch(fn, (m,), 32 * w, rep["shared"], [x, y2, wt, bs, mu, rs, x.stride(0), n, 1e-5])
            torch.cuda.synchronize()
            e = rel_err(y2, ref)
            errs = f"{e:.1e}"
            failed |= not (e < 1e-2)
            t_tri = event_time(lambda: K.layer_norm_rows[(m,)](x, y, wt, bs, mu, rs, x.stride(0), n, 1e-5,
                                                               BLOCK_SIZE=block, num_warps=w))
            t_tes = event_time(lambda: drv.launch(fn, (m,), 32 * w, rep["shared"],
                                                  [x, y2, wt, bs, mu, rs, x.stride(0), n, 1e-5]))
            times = f"{t_tri * 1e3:.0f} / {t_tes * 1e3:.0f} us"
        row(f"layer norm fp16 4096x{n} BLOCK {block} w{w}", tri, [rep], err_t, errs, times if cubin else "")

    # Softmax (tutorial 02): fp32, BLOCK = next_pow2(N), 8 warps, 4 stages (the H200 has more than
    # 200000 bytes of shared memory), a persistent grid.
    for n in ([] if args.part == "wgmma" else [4096] if args.quick else [1024, 4096]):
        m = 4096
        block = triton.next_power_of_2(n)
        w, st, progs = 8, 4, min(4096, 132 * 4)
        x = torch.randn(m, n, device="cuda")
        ref = torch.softmax(x.double(), dim=1)
        y = torch.full_like(x, float("nan"))
        k = K.softmax_rows[(progs,)](y, x, x.stride(0), y.stride(0), m, n, BLOCK_SIZE=block, STAGES=st, num_warps=w)
        torch.cuda.synchronize()
        tri = f"{k.metadata.shared}/{k.n_regs}"
        err_t = f"{rel_err(y, ref):.1e}"
        spec = (f"rows={m} cols={n} in=fp32[rows, cols] out=fp32[rows, cols]:out in_stride=cols "
                f"out_stride=cols n_rows=rows n_cols=cols BLOCK_SIZE={block} STAGES={st} grid=({progs},) "
                f"num_warps={w}")
        cubin, rep = tessel_compile(args.tessel, args.kernels, "softmax_rows", spec, out_dir, f"sm_{n}", False)
        errs = "-"
        if cubin:
            y2 = torch.full_like(x, float("nan"))
            fn = drv.load(cubin, "softmax_rows", rep["shared"])
            drv.launch(fn, (progs,), 32 * w, rep["shared"], [y2, x, x.stride(0), y2.stride(0), m, n])
            torch.cuda.synchronize()
            e = rel_err(y2, ref)
            errs = f"{e:.1e}"
            failed |= not (e < 1e-5)
        row(f"softmax fp32 4096x{n} BLOCK {block} w{w} s{st}", tri, [rep], err_t, errs)

    # The samples' own launch directives through `tessel run --gpu` (tessel's GPU result against its CPU
    # interpreter, every config and instance), built as this part builds dots.
    if args.part == "wgmma":
        import json
        env = dict(os.environ, TESSEL_WGMMA="1")
        for sample, kernel in (("matmul.py", "matmul_kernel"), ("attention.py", "attn_fwd_kernel")):
            p = subprocess.run([args.tessel, "run", os.path.join(args.samples, sample), "--kernel", kernel, "--gpu",
                                "--all-configs", "--format=json"], capture_output=True, text=True, env=env,
                               timeout=400)
            try:
                rep = json.loads(p.stdout)
            except ValueError:
                rows.append(f"| tessel run {sample} (wgmma) | | no report: {p.stderr.strip()[-120:]} | | | | |")
                failed = True
                continue
            ok = bad = 0
            for inst in rep.get("instances", []):
                g = inst.get("gpu") or {}
                wrong = g.get("error") or any(o.get("mismatches") for o in g.get("outputs", []))
                bad += bool(wrong)
                ok += not wrong
            failed |= bad > 0 or ok == 0
            rows.append(f"| tessel run {sample} --gpu --all-configs (wgmma) | | {ok} instances equal the "
                        f"interpreter, {bad} not | | | | |")

    print("\n| case | triton shared/regs | tessel shared/regs (default; wgmma) | | triton err | tessel err | time |")
    print("|:---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(r)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
