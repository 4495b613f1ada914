#!/usr/bin/env python3
"""bench/corpus/runs.py - `tessel run` on real kernels with no launch spec (issue 28).

    bench/corpus/runs.py CORPUS_DIR KERNELS.tsv [--tessel T] [--gpu] [--per-library N] [--jobs J]
                         [--out RESULTS.tsv] [--pack DIR]

KERNELS.tsv is figures.py's --out (repo, file, kernel, figures or `-` and why not); helpers are not in it.
Every kernel is run as a user would, from its library's root with nothing but the file:
`tessel run FILE --kernel K --format=json` (the CPU interpreter), or with --gpu `tessel run ... --gpu`,
which also compiles it for the GPU, runs it there on the same inputs and compares every output with the
interpreter's. A kernel counts as run when one instance of its planned launch ran to its outputs (with
or without findings); on the GPU, as matching when every output of every instance agrees (an output holding
values atomics returned excepted: tessel marks it order-dependent). A kernel whose outputs differ after the
interpreter found out-of-bounds accesses is counted apart: those reads see memory the two runs do not share.

--per-library N takes the first N kernels of each library that have figures (for the GPU, whose time is
short); --pack DIR copies the Python files of the libraries of the kernels chosen (each up to
--pack-file-limit bytes), under DIR/<owner+name>/ with an empty .git (a user's clone: the kernel's file
imports its package as it does there), with KERNELS.tsv of the kernels, so a device call can carry them.

Prints per library: kernels tried, run, failed; with --gpu: matching, differing, GPU errors; then the
reasons runs failed, grouped.
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor


def read_kernels(path, with_figures_only):
    out = []
    for line in open(path):
        parts = line.rstrip("\n").split("\t")
        if len(parts) < 4:
            continue
        repo, rel, kernel, figures = parts[:4]
        if with_figures_only and figures == "-":
            continue
        out.append((repo, rel, kernel))
    return out


def reason(text):
    t = re.sub(r"\d+", "N", text or "")
    return t[:100]


def run_one(tessel, root, rel, kernel, gpu, timeout):
    cmd = [tessel, "run", rel, "--kernel", kernel, "--format=json"] + (["--gpu"] if gpu else ["--cpu"])
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, cwd=root, capture_output=True, text=True, timeout=timeout, errors="replace")
    except subprocess.TimeoutExpired:
        return {"ran": False, "why": f"timeout ({timeout} s)", "s": timeout}
    s = time.perf_counter() - t0
    try:
        j = json.loads(p.stdout)
    except json.JSONDecodeError:
        tail = (p.stderr or p.stdout).strip().splitlines()[-1:] or [f"exit {p.returncode}"]
        return {"ran": False, "why": tail[0][:160], "s": s}
    insts = j.get("instances") or []
    ran = [i for i in insts if not i.get("error") and i.get("outputs")]
    r = {"ran": bool(ran), "s": s, "instances": len(insts), "findings": sum(len(i["diagnostics"]) for i in ran),
         "assumed": len(j.get("assumptions") or [])}
    if not ran:
        why = j.get("notRun") or next((i.get("error") for i in insts if i.get("error")), None)
        if not why:
            diags = (j.get("diagnostics") or []) + (j.get("specDiagnostics") or [])
            why = diags[0]["message"] if diags else f"exit {p.returncode}, no instance ran"
        r["why"] = str(why)[:160]
    if gpu and ran:
        g = [i.get("gpu") for i in ran]
        errs = [x["error"] for x in g if x and x.get("error")]
        # An output holding what atomics returned differs by the programs' order (tessel says so).
        def wrong(o):
            return o["mismatches"] and not o.get("orderDependent")
        differ = [x for x in g if x and not x.get("error") and any(wrong(o) for o in x["outputs"])]
        # Out-of-bounds reads under the planned launch read memory the two runs do not share.
        r["oob"] = any(d.get("code") == "TS301" for i in ran for d in i.get("diagnostics", []))
        r["gpu_error"] = errs[0][:160] if errs else ""
        r["gpu_ran"] = sum(1 for x in g if x and x.get("ran"))
        r["differ"] = bool(differ)
        r["registers"] = next((x.get("registers") for x in g if x and x.get("ran")), None)
        r["match"] = not errs and not differ and r["gpu_ran"] == len(ran)
        if differ:
            o = next(o for o in differ[0]["outputs"] if wrong(o))
            r["why"] = f"{o['name']}: {o['mismatches']} of {o['compared']} differ (max rel {o['maxRelError']})"
        elif errs:
            r["why"] = "GPU: " + errs[0][:150]
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("kernels")
    ap.add_argument("--tessel", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                                     "build", "tools", "tessel"))
    ap.add_argument("--gpu", action="store_true")
    ap.add_argument("--per-library", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--out", default=None)
    ap.add_argument("--pack", default=None)
    ap.add_argument("--pack-file-limit", type=int, default=512 * 1024,
                    help="with --pack, the largest Python file of a library copied (bytes)")
    a = ap.parse_args()
    tessel = os.path.abspath(a.tessel)
    kernels = read_kernels(a.kernels, a.per_library > 0)
    if a.per_library:
        taken = collections.Counter()
        chosen = []
        for k in kernels:
            if taken[k[0]] < a.per_library:
                taken[k[0]] += 1
                chosen.append(k)
        kernels = chosen
    if a.pack:
        # The library's other Python files travel too: a kernel file imports its own package (Liger's
        # `tanh` comes from liger_kernel.ops.utils' version check, xformers' `rsqrt` from
        # xformers.triton.importing), and Triton sees the names only when those imports resolve.
        for repo in sorted(set(k[0] for k in kernels)):
            src_root = os.path.join(a.corpus, repo.replace("/", "+"))
            dst_root = os.path.join(a.pack, repo.replace("/", "+"))
            os.makedirs(os.path.join(dst_root, ".git"), exist_ok=True)
            for d, dirs, files in os.walk(src_root, followlinks=True):
                dirs[:] = [x for x in dirs if x != ".git"]
                for f in files:
                    src = os.path.join(d, f)
                    if f.endswith(".py") and os.path.getsize(src) <= a.pack_file_limit:
                        dst = os.path.join(dst_root, os.path.relpath(src, src_root))
                        os.makedirs(os.path.dirname(dst), exist_ok=True)
                        shutil.copyfile(src, dst)
        with open(os.path.join(a.pack, "KERNELS.tsv"), "w") as f:
            for repo, rel, kernel in kernels:
                f.write(f"{repo}\t{rel}\t{kernel}\t+\n")
        print(f"packed {len(kernels)} kernels of {len(set(k[0] for k in kernels))} libraries into {a.pack}")
        return 0

    def job(k):
        repo, rel, kernel = k
        return k, run_one(tessel, os.path.join(a.corpus, repo.replace("/", "+")), rel, kernel, a.gpu, a.timeout)

    with ThreadPoolExecutor(max_workers=a.jobs) as ex:
        results = list(ex.map(job, kernels))
    by_lib = collections.OrderedDict()
    why = collections.Counter()
    lines = []
    for (repo, rel, kernel), r in results:
        c = by_lib.setdefault(repo, collections.Counter())
        c["tried"] += 1
        c["ran"] += r["ran"]
        c["s"] += r["s"]
        if a.gpu and r["ran"]:
            c["match"] += r.get("match", False)
            c["differ"] += r.get("differ", False) and not r.get("oob")
            c["differ_oob"] += r.get("differ", False) and r.get("oob", False)
            c["gpu_error"] += bool(r.get("gpu_error"))
        if not r["ran"] or (a.gpu and not r.get("match")):
            why[reason(r.get("why", ""))] += 1
        state = ("match" if r.get("match") else ("differ-oob" if r.get("oob") else "differ") if r.get("differ")
                 else "gpu-error" if r.get("gpu_error")
                 else "ran") if r["ran"] else "not-run"
        lines.append(f"{repo}\t{rel}\t{kernel}\t{state}\t{r.get('registers') or ''}\t{r['s']:.1f}\t"
                     f"{r.get('why', '')}")
    if a.out:
        with open(a.out, "w") as f:
            f.write("\n".join(lines) + "\n")
    total = collections.Counter()
    head = "| library | kernels | run | % |" + (" match the interpreter | differ | differ after out-of-bounds reads |"
                                            " GPU errors |" if a.gpu else "")
    print(head + " s |")
    print("|:---|---:|---:|---:|" + ("---:|---:|---:|---:|" if a.gpu else "") + "---:|")
    for repo, c in list(by_lib.items()) + [("total", None)]:
        c = c or total
        if repo != "total":
            total.update(c)
        pct = 100.0 * c["ran"] / max(c["tried"], 1)
        gpu = f" {c['match']} | {c['differ']} | {c['differ_oob']} | {c['gpu_error']} |" if a.gpu else ""
        print(f"| {repo} | {c['tried']} | {c['ran']} | {pct:.1f} |{gpu} {c['s']:.0f} |")
    if why:
        print()
        print("| why a kernel did not run" + (" or match" if a.gpu else "") + " | kernels |")
        print("|:---|---:|")
        for w, n in why.most_common(25):
            print(f"| {w} | {n} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
