#!/usr/bin/env python3
"""bench/corpus/figures.py - how many real kernels get figures with no launch spec (issue 28).

    bench/corpus/figures.py CORPUS_DIR [--tessel build/tools/tessel] [--set named|unseen|holdout|fresh|issue30|all]
                            [--repo SUBSTR] [--run N] [--out KERNELS.tsv] [--arch sm_90a] [--jobs N]

For every library of bench/corpus/pins.txt unpacked under CORPUS_DIR (see run.py), every Python file that
mentions triton is checked alone with `tessel check --jit --format=json FILE` from the library's root, as a user
would. The JSON report lists each kernel (helpers left out) under each of its autotune configs with its figures
(registers, spills, shared memory, occupancy) or why it has none. A kernel counts as having figures when its
first config that triton.autotune keeps has them (it skips a config needing more shared memory than a block can
have); the count of kernels whose figures come from a later config is printed.

--jobs N checks N files at once (each `tessel check --jit` also compiles on all cores; on a large machine, such
as the GPU box's 16 cores, a few files at once keep it busy through the files with one kernel). Prints per library: kernels, kernels with figures, of those how many rest on assumed values, error-level TS403
findings, TS403 notes; then the reasons kernels lack figures, grouped. With --run N, `tessel run FILE --kernel K
--cpu` runs the first N kernels of each library and counts those that ran (exit 0 or 1: the run happened, with
or without findings) against those that could not (a launch that cannot be planned, a lowering failure).
"""
import argparse
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run import libraries  # noqa: E402


def reason_class(text):
    """A short class for a reason a kernel has no figures."""
    t = text or ""
    rules = [
        (r"has errors", "front-end error in the kernel"),
        (r"no value can be assumed", "constexpr with no assumable value"),
        (r"no value for constexpr", "constexpr with no value"),
        (r"cannot run the launch", "host launch not plannable"),
        (r"helper called from other", "helper"),
        (r"an `if` on a constexpr whose value is unknown", "if on unknown constexpr"),
        (r"tensor descriptor|TensorDescriptor|make_tensor_descriptor", "tensor descriptors"),
        (r"Unsupported ptr type", "pointer type"),
        (r"unknown type", "value of unknown type"),
        (r"extern|libdevice|gdc_", "externs"),
        (r"not supported by tessel", "construct not lowered yet"),
        (r"could not compile|did not finish|crashed", "back-end failure"),
    ]
    for pat, name in rules:
        if re.search(pat, t):
            return name
    return "other: " + t[:90]


def kernels_checked(tessel, root, rel):
    """How many kernels the front tier checks in a file (its summary line), for a file whose JIT run
    timed out: they count as kernels without figures rather than vanish from the total."""
    try:
        p = subprocess.run([tessel, "check", rel], cwd=root, capture_output=True, text=True, timeout=120,
                           errors="replace")
    except subprocess.TimeoutExpired:
        return 0
    m = re.search(r"\((\d+) kernels? checked\)", p.stdout)
    return int(m.group(1)) if m else 0


def check_file(tessel, root, rel, arch):
    try:
        p = subprocess.run([tessel, "check", "--jit", "--format=json", "--arch=" + arch, rel], cwd=root,
                           capture_output=True, text=True, timeout=1800, errors="replace")
    except subprocess.TimeoutExpired:
        return None, "timeout"
    if p.returncode not in (0, 1):
        return None, f"exit {p.returncode}: {p.stderr.strip()[-200:]}"
    try:
        return json.loads(p.stdout), ""
    except json.JSONDecodeError as e:
        return None, f"bad JSON: {e}"


def run_kernel(tessel, root, rel, kernel):
    try:
        p = subprocess.run([tessel, "run", rel, "--kernel", kernel, "--cpu"], cwd=root, capture_output=True,
                           text=True, timeout=120, errors="replace")
    except subprocess.TimeoutExpired:
        return "timeout", ""
    tail = (p.stdout + p.stderr).strip().splitlines()[-3:]
    return p.returncode, " | ".join(tail)[:200]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("--tessel", default=os.path.join(HERE, "..", "..", "build", "tools", "tessel"))
    ap.add_argument("--set", choices=["named", "unseen", "holdout", "fresh", "issue30", "all"], default="all")
    ap.add_argument("--repo", default=None)
    ap.add_argument("--skip-repo", default=None, help="leave out the libraries whose name holds this")
    ap.add_argument("--run", type=int, default=0, help="run the first N kernels of each library on the CPU")
    ap.add_argument("--out", default=None, help="one line per kernel: repo, file, kernel, figures or reason")
    ap.add_argument("--arch", default="sm_90a")
    ap.add_argument("--jobs", type=int, default=1, help="files checked at once")
    a = ap.parse_args()
    tessel = os.path.abspath(a.tessel)
    rows, reasons, out_lines, run_fail = [], collections.Counter(), [], collections.Counter()
    totals = collections.Counter()
    for repo, which, root, files, _ in libraries(a.corpus, a.set, a.repo):
        if a.skip_repo and a.skip_repo.lower() in repo.lower():
            continue
        c = collections.Counter()
        t0 = time.perf_counter()
        to_run = []
        with concurrent.futures.ThreadPoolExecutor(max(a.jobs, 1)) as pool:
            checked = list(pool.map(lambda f: check_file(tessel, root, f[0], a.arch), files))
        for (rel, _), (report, err) in zip(files, checked):
            if report is None:
                c["tool_failures"] += 1
                n = kernels_checked(tessel, root, rel) if err == "timeout" else 0
                c["kernels"] += n
                reasons["tessel failed on the file: " + err[:60]] += max(n, 1)
                continue
            for f in report:
                for d in f.get("diagnostics", []):
                    if d.get("code") == "TS403":
                        c["ts403_error" if d.get("severity") == 1 else "ts403_note"] += 1
                # A kernel's figures are those of its first config that triton.autotune keeps: it skips a
                # config that needs more shared memory than a block can have (OutOfResources).
                configs = {}
                for k in f.get("kernels", []):
                    configs.setdefault((k["kernel"], k["line"]), []).append(k)
                first = {}
                for key, ks in configs.items():
                    kept = [k for k in ks if "more than the GPU has" not in k.get("unavailable", "")]
                    first[key] = kept[0] if kept else ks[0]
                    if kept and kept[0] is not ks[0]:
                        c["after_skipped"] += 1
                for (name, line), k in first.items():
                    c["kernels"] += 1
                    if "figures" in k:
                        c["figures"] += 1
                        if k.get("representative"):
                            c["assumed"] += 1
                        fig = k["figures"]
                        out_lines.append(f"{repo}\t{rel}\t{name}\t{fig['registers']} regs, {fig['shared_bytes']} B smem")
                        to_run.append((rel, name))
                    else:
                        why = reason_class(k.get("unavailable", ""))
                        reasons[why] += 1
                        out_lines.append(f"{repo}\t{rel}\t{name}\t-\t{k.get('unavailable', '')[:200]}")
                        if "helper" not in why:
                            to_run.append((rel, name))
        for rel, name in to_run[:a.run]:
            rc, tail = run_kernel(tessel, root, rel, name)
            c["runs"] += 1
            if rc in (0, 1):
                c["ran"] += 1
            else:
                run_fail[tail[:100]] += 1
        c["s"] = time.perf_counter() - t0
        rows.append((repo, which, c))
        totals.update(c)
    if a.out:
        with open(a.out, "w") as f:
            f.write("\n".join(out_lines) + "\n")
    print("| library | set | kernels | with figures | % | of them assumed | TS403 errors | TS403 notes |"
          + (" runs | ran |" if a.run else "") + " s |")
    print("|:---|:---|---:|---:|---:|---:|---:|---:|" + ("---:|---:|" if a.run else "") + "---:|")
    for repo, which, c in rows + [("total", "", totals)]:
        pct = 100.0 * c["figures"] / max(c["kernels"], 1)
        run = f" {c['runs']} | {c['ran']} |" if a.run else ""
        print(f"| {repo} | {which} | {c['kernels']} | {c['figures']} | {pct:.1f} | {c['assumed']} | "
              f"{c['ts403_error']} | {c['ts403_note']} |{run} {c['s']:.0f} |")
    print()
    print(f"kernels whose figures are a later config's (config #0 needs more shared memory than a block has): "
          f"{totals['after_skipped']}")
    print()
    print("| why no figures | kernels |")
    print("|:---|---:|")
    for why, n in reasons.most_common():
        print(f"| {why} | {n} |")
    if run_fail:
        print()
        print("| why a CPU run failed | kernels |")
        print("|:---|---:|")
        for why, n in run_fail.most_common(20):
            print(f"| {why} | {n} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
