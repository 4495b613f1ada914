#!/usr/bin/env python3
"""Issue 29's figures bar: Triton 3.6's own shared memory, registers and out-of-resource verdicts for every
config its tutorials 02, 03, 05 and 06 compile at their benchmarks' sizes, against tessel's for the same
specialization.

    # on the GPU machine (triton, torch): run the tutorials' own host code, record every compile
    python3 bench/hopper/tutorial_figures.py capture TUTORIALS_DIR --out DIR [--budget 420]
    # anywhere tessel runs (no GPU needed): compile each recorded launch with tessel and compare
    python3 bench/hopper/tutorial_figures.py compare DIR/records.jsonl --tessel BIN [--tutorials DIR]

capture imports each tutorial as tessel's Triton runner does (tools/triton_runner.py: definitions run, the
script's own demo calls do not) and calls its host functions (softmax, matmul with autotuning, LayerNorm
forward and backward, attention forward and backward) at the sizes of its benchmark. JITFunction.run is
wrapped, so every compile the tutorial asks for is recorded whichever path reached it (autotuner,
warmup, plain launch): the kernel, its arguments (tensors by dtype and size, host TensorDescriptors by
shape, strides and block), constexprs, num_warps, num_stages, and Triton's `metadata.shared`, `n_regs`,
`n_spills`, or the OutOfResources it raised. Each compile's TTGIR and PTX are kept beside records.jsonl,
named by the kernel's hash, to read what Triton chose.

compare writes the same launch as a tessel launch spec and reads `tessel compile --emit report`.
bench/hopper/triton-3.6-tutorial-figures.jsonl is a capture on an H100 (triton 3.6.0, 2026-12-06, the
tutorials at the commit before "Advance version 3.6.0->3.7.0"): compare reads it by default, so the
figures can be checked on a machine without a GPU.
The table ends with the bar's counts: shared memory equal, registers within 10 %, verdicts equal.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


# ---------------------------------------------------------------------------------------------- capture
def describe(value):
    """A JSON-able record of one kernel argument."""
    import torch
    if isinstance(value, torch.Tensor):
        return {"tensor": str(value.dtype).replace("torch.", ""), "numel": value.numel(),
                "shape": list(value.shape), "strides": list(value.stride())}
    if type(value).__name__ == "TensorDescriptor":
        return {"descriptor": str(value.base.dtype).replace("torch.", ""), "numel": value.base.numel(),
                "shape": [int(s) for s in value.shape], "strides": [int(s) for s in value.strides],
                "block": [int(b) for b in value.block_shape]}
    if isinstance(value, (bool, int, float, str)) or value is None:
        return {"value": value}
    return {"value": repr(value)}


def capture(a):
    import torch
    import triton
    from triton.runtime.jit import JITFunction
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import triton_runner as R  # noqa: E402

    os.makedirs(os.path.join(a.out, "asm"), exist_ok=True)
    records = open(os.path.join(a.out, "records.jsonl"), "w")
    seen = set()
    state = {"case": ""}
    original = JITFunction.run

    def run(self, *args, grid, warmup, **kwargs):
        names = self.arg_names
        bound = dict(zip(names, args))
        bound.update({k: v for k, v in kwargs.items() if k in names})
        opts = {k: v for k, v in kwargs.items() if k not in names}
        rec = {"case": state["case"], "file": os.path.basename(self.fn.__code__.co_filename),
               "kernel": self.fn.__name__, "params": names,
               "args": {k: describe(v) for k, v in bound.items()},
               "num_warps": opts.get("num_warps", 4), "num_stages": opts.get("num_stages", 3)}
        try:
            kernel = original(self, *args, grid=grid, warmup=warmup, **kwargs)
        except Exception as e:  # noqa: BLE001 - OutOfResources, a compile error: Triton's verdict
            rec["error"] = f"{type(e).__name__}: {R.one_line(e)}"
            key = json.dumps([rec["kernel"], rec["args"], rec["num_warps"], rec["num_stages"]], sort_keys=True)
            if key not in seen:
                seen.add(key)
                records.write(json.dumps(rec) + "\n")
                records.flush()
            raise
        if kernel is not None and kernel.hash not in seen:
            seen.add(kernel.hash)
            kernel._init_handles()
            rec.update(hash=kernel.hash, shared=kernel.metadata.shared, regs=kernel.n_regs,
                       spills=kernel.n_spills, num_warps=kernel.metadata.num_warps,
                       num_stages=kernel.metadata.num_stages)
            for ir in ("ttgir", "ptx"):
                with open(os.path.join(a.out, "asm", f"{kernel.hash}.{ir}"), "w") as f:
                    f.write(kernel.asm[ir])
            records.write(json.dumps(rec) + "\n")
            records.flush()
        return kernel

    JITFunction.run = run
    results = R.Results(a.out)
    dev = "cuda"
    start = time.time()

    def load(name):
        return R.load_module(os.path.join(a.tutorials, name), [a.tutorials], results)

    def case(label, fn):
        if time.time() - start > a.budget:
            print(f"skipped (budget): {label}", flush=True)
            return
        state["case"] = label
        t0 = time.time()
        try:
            fn()
            torch.cuda.synchronize()
            print(f"ok {label} ({time.time() - t0:.0f} s)", flush=True)
        except Exception as e:  # noqa: BLE001 - one case's failure must not hide the others
            print(f"FAIL {label}: {type(e).__name__}: {R.one_line(e)}", flush=True)

    state["case"] = "02 the script's own run at import (1823x781)"
    m02 = load("02-fused-softmax.py")
    for n in (256, 512, 1024, 2048, 4096, 8192, 12672):  # one N per BLOCK_SIZE of the 128 * i sweep
        case(f"02 softmax 4096x{n}", lambda n=n: m02.softmax(torch.randn(4096, n, device=dev)))
    state["case"] = "05 at import"
    m05 = load("05-layer-norm.py")
    for n in (1024, 2048, 4096, 8192, 15872):  # one N per BLOCK_SIZE of the 512 * i sweep
        def ln(n=n):
            x = (-2.3 + 0.5 * torch.randn(4096, n, device=dev, dtype=torch.float16)).requires_grad_(True)
            w = torch.rand(n, device=dev, dtype=torch.float16, requires_grad=True)
            b = torch.rand(n, device=dev, dtype=torch.float16, requires_grad=True)
            y = m05.layer_norm(x, (n,), w, b, 1e-5)
            y.backward(0.1 * torch.randn_like(y))
        case(f"05 layer norm fwd+bwd 4096x{n} fp16", ln)
    state["case"] = "03 the script's own runs at import (512^3 fp16 and fp8)"
    m03 = load("03-matrix-multiplication.py")
    case("03 matmul 4096^3 fp16", lambda: m03.matmul(torch.randn(4096, 4096, device=dev, dtype=torch.float16),
                                                      torch.randn(4096, 4096, device=dev, dtype=torch.float16)))
    state["case"] = "06 at import"
    m06 = load("06-fused-attention.py")
    for hd in (64, 128):
        for causal in (False, True):
            def attn(hd=hd, causal=causal):
                q, k, v = (torch.randn(4, 32, 4096, hd, device=dev, dtype=torch.float16).requires_grad_()
                           for _ in range(3))
                o = m06.attention(q, k, v, causal, 0.5, False)
                o.backward(torch.randn_like(o))
            case(f"06 attention fwd+bwd 4x32x4096x{hd} fp16 causal={causal}", attn)

    def mm8():
        a8 = torch.randn(4096, 4096, device=dev, dtype=torch.float16).to(torch.float8_e5m2)
        b8 = torch.randn(4096, 4096, device=dev, dtype=torch.float16).T.to(torch.float8_e5m2)
        m03.matmul(a8, b8)
    case("03 matmul 4096^3 fp8", mm8)
    for hd in (64, 128):
        for causal in (False, True):
            def attn8(hd=hd, causal=causal):
                q, k = (torch.randn(4, 32, 4096, hd, device=dev, dtype=torch.float16).to(torch.float8_e5m2)
                        for _ in range(2))
                v = torch.randn(4, 32, 4096, hd, device=dev, dtype=torch.float16)
                v = v.permute(0, 1, 3, 2).contiguous().permute(0, 1, 3, 2).to(torch.float8_e5m2)
                m06.attention(q, k, v, causal, 0.5, False)
            case(f"06 attention fwd 4x32x4096x{hd} fp8 causal={causal}", attn8)
    records.close()
    print(f"captured in {time.time() - start:.0f} s; triton {triton.__version__}, {torch.cuda.get_device_name(0)}")


# ---------------------------------------------------------------------------------------------- compare
TESSEL_DTYPES = {"float16": "fp16", "bfloat16": "bf16", "float32": "fp32", "float64": "fp64", "int8": "i8",
                 "int16": "i16", "int32": "i32", "int64": "i64", "uint8": "u8", "bool": "i1",
                 "float8_e5m2": "fp8e5", "float8_e4m3fn": "fp8e4nv"}


def spec_of(rec):
    """The record's launch as a tessel launch spec (docs/launch-spec.md)."""
    parts = []
    for name in rec["params"]:
        arg = rec["args"].get(name)
        if arg is None:
            continue
        if "tensor" in arg:
            parts.append(f"{name}={TESSEL_DTYPES[arg['tensor']]}[{max(arg['numel'], 1)}]")
        elif "descriptor" in arg:
            # The spec's descriptor is over a tensor of the descriptor's shape (its strides row-major).
            dims = ", ".join(str(s) for s in arg["shape"])
            block = ", ".join(str(b) for b in arg["block"])
            parts.append(f"{name}={TESSEL_DTYPES[arg['descriptor']]}[{dims}]:desc({block})")
        else:
            v = arg["value"]
            if v is None:
                continue
            if isinstance(v, bool):
                v = int(v)
            if isinstance(v, str):
                v = json.dumps(v)
            parts.append(f"{name}={v}")
    # softmax_kernel takes num_stages as a constexpr parameter too: one entry says both.
    for option in ("num_warps", "num_stages"):
        if option not in rec["args"]:
            parts.append(f"{option}={rec[option]}")
    parts.append("grid=(1,)")
    return " ".join(parts)


def tessel_figures(tessel, path, rec, arch, assembler=None):
    p = subprocess.run([tessel, "compile", path, "--kernel", rec["kernel"], "--spec", spec_of(rec), "--arch", arch,
                        "--emit", "report", "--color=never"] + (["--assembler", assembler] if assembler else []), capture_output=True, text=True, timeout=300)
    text = p.stdout + p.stderr
    fig = {}
    m = re.search(r"registers\s+(\d+)", text)
    if m:
        fig["regs"] = int(m.group(1))
    m = re.search(r"spills\s+(\d+) bytes stored", text)
    if m:
        fig["spills"] = int(m.group(1)) // 4
    m = re.search(r"shared memory\s+(\d+) bytes", text)
    if m:
        fig["shared"] = int(m.group(1))
    if "does not fit on an SM" in text:
        fig["required"] = fig.get("shared")
    if "static assertion failed" in text:
        fig["static_assert"] = True
    elif "regs" not in fig:
        fig["error"] = next((ln.strip() for ln in text.splitlines() if "error" in ln), text.strip()[-160:])
    return fig


def short_config(rec):
    keep = []
    for name in rec["params"]:
        arg = rec["args"].get(name, {})
        v = arg.get("value")
        if name.isupper() or name.startswith("BLOCK") or name in ("STAGE",):
            if v is not None and not isinstance(v, str):
                keep.append(f"{name}={int(v) if isinstance(v, bool) else v}")
    return " ".join(keep) + f" w{rec['num_warps']} s{rec['num_stages']}"


def tally(per_file, rec, before, after):
    """Counts one compile of rec's file: [compiles, smem equal, regs within 10 %, verdict equal]."""
    c = per_file.setdefault(rec["file"], [0, 0, 0, 0])
    c[0] += 1
    for i in range(3):
        c[i + 1] += after[i] - before[i]


def compare(a):
    recs = [json.loads(line) for line in open(a.records)]
    head = ("case", "kernel", "config", "smem tessel / Triton", "regs tessel / Triton", "spills t / T", "verdict")
    rows, smem_ok, regs_ok, verdict_ok, n = [], 0, 0, 0, 0
    per_file = {}
    for rec in recs:
        path = os.path.join(a.tutorials, rec["file"])
        t = tessel_figures(a.tessel, path, rec, a.arch, a.assembler)
        n += 1
        before = (smem_ok, regs_ok, verdict_ok)
        if "error" in rec:
            req = re.search(r"Required: (\d+)", rec["error"])
            if req:
                ok = t.get("required") == int(req.group(1))
            else:
                ok = "CompileTimeAssertionFailure" in rec["error"] and t.get("static_assert", False)
            verdict_ok += ok
            smem_ok += ok
            regs_ok += ok
            rows.append((rec["case"], rec["kernel"], short_config(rec), f"{t.get('required', t.get('shared', '-'))} / "
                         f"{req.group(1) if req else '-'}", "-", "-",
                         ("equal: " if ok else "DIFFERS: ") + rec["error"][:60]))
            tally(per_file, rec, before, (smem_ok, regs_ok, verdict_ok))
            continue
        if "error" in t or "static_assert" in t:
            t.setdefault("error", "static assertion failed")
            rows.append((rec["case"], rec["kernel"], short_config(rec), f"- / {rec['shared']}", f"- / {rec['regs']}",
                         "-", "tessel: " + t["error"][:80]))
            tally(per_file, rec, before, (smem_ok, regs_ok, verdict_ok))
            continue
        s_eq = t.get("shared") == rec["shared"]
        r_ok = abs(t["regs"] - rec["regs"]) <= 0.10 * rec["regs"]
        v_ok = "required" not in t
        smem_ok += s_eq
        regs_ok += r_ok
        verdict_ok += v_ok
        rows.append((rec["case"], rec["kernel"], short_config(rec),
                     f"{t.get('shared')} / {rec['shared']}" + ("" if s_eq else " **"),
                     f"{t['regs']} / {rec['regs']}" + ("" if r_ok else " **"),
                     f"{t.get('spills', 0)} / {rec['spills']}",
                     "fits, both" if v_ok else f"tessel: Required {t['required']}"))
        tally(per_file, rec, before, (smem_ok, regs_ok, verdict_ok))
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join(":---" for _ in head) + "|")
    for r in rows:
        print("| " + " | ".join(str(x) for x in r) + " |")
    print(f"\n{n} compiles: shared memory equal {smem_ok}, registers within 10 % {regs_ok}, "
          f"verdict equal {verdict_ok} (** marks a figure outside the bar)\n")
    print("| tutorial file | compiles | shared memory equal | registers within 10 % | verdict equal |")
    print("|:---|---:|---:|---:|---:|")
    for f, c in sorted(per_file.items()):
        print(f"| {f} | {c[0]} | {c[1]} | {c[2]} | {c[3]} |")


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("capture")
    c.add_argument("tutorials")
    c.add_argument("--out", default=os.environ.get("OUT") or "/tmp/tutorial-figures")
    c.add_argument("--budget", type=float, default=420, help="start no case after this many seconds")
    d = sub.add_parser("compare")
    d.add_argument("records", nargs="?", default=os.path.join(HERE, "triton-3.6-tutorial-figures.jsonl"))
    d.add_argument("--tessel", default=os.path.join(ROOT, "build", "tools", "tessel"))
    d.add_argument("--tutorials", default=os.path.join(ROOT, ".gpu", "tutorials"))
    d.add_argument("--arch", default="sm_90a")
    d.add_argument("--assembler", choices=("nvjitlink", "ptxas"), help="tessel's PTX assembler (default: tessel's)")
    a = ap.parse_args()
    return capture(a) if a.cmd == "capture" else compare(a)


if __name__ == "__main__":
    sys.exit(main() or 0)
