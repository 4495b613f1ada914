#!/usr/bin/env python3
"""`tessel tune --gpu` against triton.autotune on the same GPU, in one run (issue 33's H200 bar).

For every launch shape of the kernel (the sample's `# tessel: launch` lists, or --spec), tessel tune
times every autotune config on the GPU (through the runners given: local by default, `ssh://localhost`
too where the machine has an ssh server and a key for it), then Triton's own autotuner runs the same
kernel on the same shapes (the sample's host wrapper, fresh fp16 inputs) and its `best_config` is read.
Prints, per shape, both choices, both medians and, where they differ, how far tessel's pick is from
Triton's under Triton's own timings (`configs_timings`): a pick within a few percent is timing noise,
not a wrong choice.

    python3 bench/runners/gpu_tune_vs_triton.py --tessel build/tools/tessel \\
        [--runner local] [--runner 'ssh://localhost?tessel=/abs/tessel'] [--spec 'M=[...] ...'] [--no-reference]

Needs python3 with torch and triton on a CUDA GPU. Exit 0 when every shape got a choice from both.
"""
import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def tessel_tune(args, runner):
    cmd = [args.tessel, "tune", args.file, "--kernel", args.kernel, "--gpu", "--iters", str(args.iters),
           "--format=json"]
    if runner:
        cmd += ["--runner", runner]
    if args.spec:
        cmd += ["--spec", args.spec]
    if args.no_reference:
        cmd.append("--no-reference")
    start = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    took = time.monotonic() - start
    if not p.stdout.strip():
        sys.exit(f"tessel tune failed (exit {p.returncode}): {p.stderr}")
    report = json.loads(p.stdout)
    print(f"tessel tune over {runner or 'the default runner'}: {took:.1f} s; {p.stderr.strip().splitlines()[-1]}")
    return report


def shape_of(label):
    return {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", label)}


def triton_choices(args, labels, rounds):
    """Triton's autotuner on every shape, `rounds` times (its cache cleared between): per shape, the config
    of each round and the per-config medians of the first round. Triton picking differently from itself on
    the same shape is the noise floor of "the same best config"."""
    import torch  # noqa: F401 (the sample needs it)
    spec = importlib.util.spec_from_file_location("tuned_sample", args.file)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    tuner = getattr(mod, args.kernel)
    wrapper = getattr(mod, args.wrapper)
    out = []
    for label in labels:
        s = shape_of(label)
        a = torch.randn(s["M"], s["K"], device="cuda", dtype=torch.float16)
        b = torch.randn(s["K"], s["N"], device="cuda", dtype=torch.float16)
        picks, medians = [], {}
        for r in range(rounds):
            tuner.cache.clear()
            wrapper(a, b)
            torch.cuda.synchronize()
            best = tuner.best_config
            picks.append(next(i for i, c in enumerate(tuner.configs) if c is best or str(c) == str(best)))
            timings = dict(getattr(tuner, "configs_timings", None) or {})
            for i, c in enumerate(tuner.configs):
                t = timings.get(c)
                if t is not None:
                    t = t[0] if isinstance(t, (list, tuple)) else float(t)
                    medians.setdefault(i, []).append(t)
        # Each config's time: the median over the rounds.
        out.append((picks, {i: sorted(v)[len(v) // 2] for i, v in medians.items()}))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tessel", default=os.path.join(ROOT, "build", "tools", "tessel"))
    ap.add_argument("--file", default=os.path.join(ROOT, "samples", "matmul.py"))
    ap.add_argument("--kernel", default="matmul_kernel")
    ap.add_argument("--wrapper", default="matmul", help="the sample's host function f(a, b) that launches it")
    ap.add_argument("--runner", action="append", default=[], help="repeatable; default: local")
    ap.add_argument("--spec", help="launch spec text replacing the sample's shapes (M, N, K lists)")
    ap.add_argument("--iters", type=int, default=50)
    ap.add_argument("--no-reference", action="store_true", help="large shapes: GPU runs unchecked")
    ap.add_argument("--triton-rounds", type=int, default=3, help="Triton's autotune this many times per shape")
    args = ap.parse_args()
    args.tessel = os.path.abspath(args.tessel)

    reports = [(r, tessel_tune(args, r)) for r in (args.runner or ["local"])]
    labels = reports[0][1]["instances"]
    triton = triton_choices(args, labels, args.triton_rounds)
    ok = True
    for runner, report in reports:
        agree = near = steady = 0
        print(f"\n== {runner}: {len(report['configs'])} configs x {len(labels)} shapes, complete={report['complete']}; "
              f"Triton's autotune {args.triton_rounds} times per shape")
        for i, label in enumerate(labels):
            best = report["best"][i]
            picks, t_medians = triton[i]
            t_index = max(set(picks), key=picks.count)  # Triton's most frequent choice
            steady += len(set(picks)) == 1
            costs = [c[i]["cost"] for c in report["cells"]]
            cells = " ".join(f"{c:.4f}" if c is not None else "-" for c in costs)
            tcells = " ".join(f"{t_medians[k]:.4f}" if k in t_medians else "-" for k in range(len(costs)))
            print(f"  {label}\n    tessel ms per config: {cells}\n    Triton ms per config: {tcells}")
            if best is None:
                ok = False
                print(f"    tessel has no choice ({report['cells'][0][i]})")
                continue
            same = best["config"] == t_index
            agree += same
            ratio = (t_medians[best["config"]] / t_medians[t_index]
                     if best["config"] in t_medians and t_index in t_medians else float("nan"))
            # Within noise: Triton itself picked tessel's config in some round, or it times within 3 % of
            # Triton's pick by Triton's own timings.
            close = same or best["config"] in picks or ratio <= 1.03
            near += close
            print(f"    tessel #{best['config']}  Triton #{t_index} (rounds: {' '.join(map(str, picks))})  "
                  f"{'same' if same else 'within noise' if close else 'DIFFERENT'}"
                  + ("" if same else f"; tessel's pick at {ratio:.3f}x Triton's best by Triton's timing"))
        print(f"  agreement: {agree} of {len(labels)} shapes the same; {near} of {len(labels)} the same or within "
              f"Triton's own noise; Triton agreed with itself on {steady} of {len(labels)}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
