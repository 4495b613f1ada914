#!/usr/bin/env python3
"""Issue 29's Triton bridge on a GPU: every sample and every tutorial config through `tessel run --triton`.

    python3 tests/gpu/triton_bridge.py BUNDLE --tutorials DIR [--out DIR] [--iters 20] [--budget 480]

BUNDLE is scripts/gpu_bundle.sh's tessel-gpu.tar.xz (or its unpacked folder), as for gpu_suite.py. Each
case is one `tessel run FILE --kernel K --gpu --triton --all-configs --iters N --format=json`:

- every kernel of samples/*.py that has a `# tessel: launch` directive, at the directive's sizes (tessel's
  GPU run checked against its interpreter, Triton's outputs against tessel's GPU outputs);
- Triton's tutorials 02 (fused softmax), 03 (matmul), 05 (layer norm forward) and 06 (attention forward)
  from DIR (they are not in the repository), under a `--spec` at the sizes their benchmarks use; matmul and
  attention at those sizes would take the interpreter minutes, so they run with `--no-reference`: Triton is
  compared with tessel's GPU run only.

The runner (tools/triton_runner.py inside tessel) imports each file, launches the @triton.jit function on
tessel's inputs, grid and config, and times it the way tessel times its own launches. The table printed
last has one row per instance and config: outputs equal (within the per-dtype tolerance), both median
times and their ratio, and shared memory, registers and spills, tessel / Triton. Triton refusing a config
(out of resource, a compile error) is shown as its verdict. Full JSON reports go to --out.

The tutorials run first. Cases stop being started once --budget seconds have passed (a device call is
limited), and one case may run 90 s past it; the table says which were skipped. Exit status 1 when some outputs differ or a case could not run at all.
"""
import argparse
import json
import os
import sys
import tarfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from gpu_suite import directive_kernels, gpu_absent, last_line  # noqa: E402

SAMPLES = ["vector_add", "fused_softmax", "layer_norm", "dropout", "matmul", "attention", "gather_histogram"]


def tutorial_cases():
    """(label, file name, kernel, spec, extra args) at the sizes of each tutorial's benchmark: Triton 3.6's
    tutorials (python/tutorials at the commit before "Advance version 3.6.0->3.7.0")."""
    out = []
    # 02: M = 4096 rows, N swept from 256 up; BLOCK_SIZE the next power of two, 8 warps and 4 stages as
    # softmax() chooses on a GPU with over 200 KB of shared memory. The kernel is persistent (a tl.range over
    # rows from program_id with step num_programs); softmax() launches NUM_SM * occupancy programs, here one
    # per row so that both compilers get the same grid whatever their occupancy.
    for n, block in ((1000, 1024), (4096, 4096)):
        out.append((f"02 softmax 4096x{n} fp32", "02-fused-softmax.py", "softmax_kernel",
                    f"n_rows=4096 n_cols={n} output_ptr=fp32[n_rows, n_cols]:out input_ptr=fp32[n_rows, n_cols] "
                    f"input_row_stride=n_cols output_row_stride=n_cols BLOCK_SIZE={block} num_stages=4 "
                    "grid=(n_rows,) num_warps=8", []))
    # 03: fp16 M = N = K = 4096; every autotune config of get_cuda_autotune_config(), ACTIVATION "".
    out.append(("03 matmul 4096^3 fp16", "03-matrix-multiplication.py", "matmul_kernel",
                "M=4096 N=4096 K=4096 a_ptr=fp16[M, K]:randn b_ptr=fp16[K, N]:randn c_ptr=fp16[M, N]:out "
                "stride_am=K stride_ak=1 stride_bk=N stride_bn=1 stride_cm=N stride_cn=1 ACTIVATION=\"\" "
                "grid=(cdiv(M, BLOCK_SIZE_M) * cdiv(N, BLOCK_SIZE_N),)", ["--no-reference"]))
    # 05: forward, M = 4096 rows of N = 4096 fp16; BLOCK_SIZE and warps as LayerNorm.forward chooses.
    out.append(("05 layer norm fwd 4096x4096 fp16", "05-layer-norm.py", "_layer_norm_fwd_fused",
                "rows=4096 N=4096 X=fp16[rows, N] Y=fp16[rows, N]:out W=fp16[N] B=fp16[N] Mean=fp32[rows]:out "
                "Rstd=fp32[rows]:out stride=N eps=1e-5 BLOCK_SIZE=4096 grid=(rows,) num_warps=8", []))
    # 06: forward, batch 4, 32 heads, head dim 64, N_CTX 4096, causal (STAGE 3) and not (STAGE 1). Without
    # host descriptors the kernel makes its own (tl.make_tensor_descriptor over the [Z*H*N_CTX, HEAD_DIM]
    # tensors), as the tutorial does on a GPU without them. Its configs are `list(filter(keep, configs))`
    # pruned by N_CTX and causality, which tessel's evaluator does not follow: on Hopper keep() drops 8-warp
    # configs of fewer than 128x128 elements, so BLOCK_M 64/128 x BLOCK_N 32/64 at 4 warps are spelled out,
    # one run per num_stages (a spec list cannot vary it); BLOCK_N 128 exceeds HEAD_DIM 64 (static_assert).
    # Two runs of each: with host TensorDescriptors, whose block shapes _host_descriptor_pre_hook sets from the
    # config (the tutorial's path on Hopper unless warp_specialize), and with plain tensors, from which the kernel
    # makes device-side descriptors (the tutorial's path on Hopper with warp_specialize; here without it, which
    # tessel does not do).
    blocks = {"q": "BLOCK_M, HEAD_DIM", "k": "BLOCK_N, HEAD_DIM", "v": "BLOCK_N, HEAD_DIM", "o": "BLOCK_M, HEAD_DIM"}
    for host in (True, False):
        s = "Z=4 H=32 N_CTX=4096 HEAD_DIM=64 sm_scale=1.3 M=fp32[Z*H, N_CTX]:out "
        for t in ("q", "k", "v", "o"):
            s += f"desc_{t}=fp16[Z*H*N_CTX, HEAD_DIM]:" + ("out" if t == "o" else "randn")
            s += f":desc({blocks[t]}) " if host else " "
        s += ("FP8_OUTPUT=0 warp_specialize=0 IS_HOPPER=1 "
              "BLOCK_M=[64, 128] BLOCK_N=[32, 64] STAGE=[1, 3] num_warps=4 grid=(cdiv(N_CTX, BLOCK_M), Z*H, 1)")
        kind = "host" if host else "device"
        for stages in (2, 3, 4):
            out.append((f"06 attention fwd 4x32x4096x64 fp16 {kind} descriptors s{stages}", "06-fused-attention.py",
                        "_attn_fwd", s + f" num_stages={stages}", ["--no-reference"]))
    return out


def run_tessel(tessel, args, log, timeout):
    import subprocess
    try:
        p = subprocess.run([tessel, "run"] + args + ["--format=json"], capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, None, f"timed out after {timeout} s"
    with open(log, "w") as f:
        f.write(p.stdout + "\n--- stderr\n" + p.stderr)
    try:
        return p.returncode, json.loads(p.stdout), p.stderr
    except ValueError:
        return p.returncode, None, p.stderr


def pair(a, b):
    f = lambda v: "-" if v is None else str(v)  # noqa: E731
    return f"{f(a)} / {f(b)}"


def ms(v):
    return "-" if not v else f"{v:.4g}"


def rows_of(label, report):
    """One table row per instance: (case, config, equal, tessel ms, triton ms, ratio, smem, regs, spills)."""
    rows = []
    for inst in report["instances"]:
        t = inst.get("triton") or {}
        g = inst.get("gpu") or {}
        cfg = inst.get("configText") or ""
        where = ", ".join(x for x in (inst.get("label"), cfg) if x)
        fig = t.get("figures") or {}
        tes, tri = fig.get("tessel") or {}, fig.get("triton") or {}
        tessel_ms = (g.get("time") or {}).get("medianMillis")
        triton_ms = (t.get("time") or {}).get("medianMillis")
        if t.get("ran"):
            outs = t.get("outputs") or []
            bad = [o for o in outs if o["mismatches"]]
            if not t.get("against"):
                equal = "not compared"
            elif t.get("compareError"):
                equal = "no: " + t["compareError"][:60]
            elif bad:
                equal = "no: " + ", ".join(f"{o['name']} {o['mismatches']}/{o['compared']}" for o in bad)
                # Against the interpreter too (when tessel's GPU run was the reference): who Triton sides with.
                interp = t.get("againstInterpreter") or []
                if interp:
                    equal += " (vs tessel's interpreter: " + ", ".join(
                        f"{o['name']} {o['mismatches']}/{o['compared']}" for o in interp) + ")"
            else:
                equal = "yes" if outs else "no outputs"
        else:
            equal = "triton: " + (t.get("error") or "not run")[:90]
        if g.get("error"):
            equal += f"; tessel GPU: {g['error'][:70]}"
        ratio = f"{triton_ms / tessel_ms:.2f}x" if tessel_ms and triton_ms else "-"
        rows.append((label, where, equal, ms(tessel_ms), ms(triton_ms), ratio,
                     pair(tes.get("sharedBytes"), tri.get("sharedBytes")),
                     pair(tes.get("registers"), tri.get("registers")),
                     pair(tes.get("spills"), tri.get("spills"))))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bundle", help="tessel-gpu.tar.xz or its unpacked folder")
    ap.add_argument("--tutorials", required=True, help="folder holding Triton's tutorials (02-fused-softmax.py, ...)")
    ap.add_argument("--out", default=os.environ.get("OUT") or "/tmp/tessel-triton-bridge")
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--budget", type=float, default=480, help="start no case after this many seconds")
    ap.add_argument("--only", default="", help="run only cases whose label contains this")
    a = ap.parse_args()
    why = gpu_absent()
    if why:
        print(f"triton_bridge: no GPU on this machine ({why}); nothing to run")
        return 0
    os.makedirs(a.out, exist_ok=True)
    bin_dir = a.bundle
    if bin_dir.endswith(".tar.xz"):
        with tarfile.open(bin_dir) as tar:
            try:
                tar.extractall(a.out, filter="data")
            except TypeError:
                tar.extractall(a.out)
        bin_dir = os.path.join(a.out, "tessel-gpu")
    tessel = os.path.join(os.path.abspath(bin_dir), "tessel")
    os.environ["LD_LIBRARY_PATH"] = os.path.join(os.path.abspath(bin_dir), "lib") + (
        ":" + os.environ["LD_LIBRARY_PATH"] if os.environ.get("LD_LIBRARY_PATH") else "")
    os.environ.setdefault("TESSEL_CACHE_DIR", os.path.join(a.out, "cache"))
    os.environ.setdefault("TESSEL_PYTHON", sys.executable)

    # The tutorials first: their table is what issue 29 asks for, and the budget may end the samples.
    cases = []
    for label, name, kernel, spec, extra in tutorial_cases():
        cases.append((label, [os.path.join(a.tutorials, name), "--kernel", kernel, "--spec", spec] + extra))
    for s in SAMPLES:
        path = os.path.join(ROOT, "samples", f"{s}.py")
        for k in directive_kernels(path):
            cases.append((f"sample {s}:{k}", [path, "--kernel", k]))
    start = time.time()
    rows, problems = [], []
    for label, args in cases:
        if a.only and a.only not in label:
            continue
        left = a.budget - (time.time() - start)
        if left <= 0:
            rows.append((label, "", "skipped: time budget spent", "-", "-", "-", "-", "-", "-"))
            continue
        t0 = time.time()
        log = os.path.join(a.out, "run-" + "".join(c if c.isalnum() else "_" for c in label) + ".json")
        rc, report, err = run_tessel(tessel, args + ["--gpu", "--triton", "--all-configs", "--iters", str(a.iters)],
                                     log, timeout=max(60, min(300, left + 90)))
        took = time.time() - t0
        if report is None:
            rows.append((label, "", f"tessel exit {rc}: {last_line(err)[:100]}", "-", "-", "-", "-", "-", "-"))
            problems.append(label)
            print(f"FAIL {label}: exit {rc}: {last_line(err)}", flush=True)
            continue
        tri = report.get("triton") or {}
        if tri.get("error"):
            problems.append(label)
            rows.append((label, "", "triton: " + tri["error"][:120], "-", "-", "-", "-", "-", "-"))
        r = rows_of(label, report)
        rows += r
        differ = sum(1 for x in r if x[2].startswith("no"))
        if differ:
            problems.append(label)
        print(f"{'ok  ' if not differ and not tri.get('error') else 'FAIL'} {label}: {len(r)} instance(s), "
              f"{differ} differ, triton {tri.get('version')}, {took:.0f} s", flush=True)

    head = ("case", "instance / config", "outputs equal?", "tessel ms", "triton ms", "tessel speed vs triton",
            "smem t / T", "regs t / T", "spills t / T")
    print(f"\n## tessel run --triton: {len(rows)} rows, {len(problems)} case(s) with a problem, "
          f"{time.time() - start:.0f} s\n")
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join(":---" for _ in head) + "|")
    for r in rows:
        print("| " + " | ".join(r) + " |")
    with open(os.path.join(a.out, "table.md"), "w") as f:
        f.write("| " + " | ".join(head) + " |\n" + "".join("| " + " | ".join(r) + " |\n" for r in rows))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
