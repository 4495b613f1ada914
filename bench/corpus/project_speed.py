#!/usr/bin/env python3
# ===- bench/corpus/project_speed.py - a check of one file costs that file -===#
# Issue 30's speed bar, measured on real code: `tessel check FILE` in a
# 5,000-file project under 100 ms once the project's launch index is saved
# (compiler/project/LaunchIndexFile.h), and `tessel check DIR` on 1,000 files
# under 10 s on 2 cores.
#
# The project is one root (a pyproject.toml and a .git, as a user's clone)
# holding copies of real libraries unpacked under CORPUS (bench/corpus/
# pins.txt), largest first, until it holds at least --files Python files;
# it is made under a temporary folder and removed at the end. Every file
# with an `@triton.jit` function is a candidate; --sample of them (a fixed
# seed) are checked three ways, each in a fresh process with a fresh
# TESSEL_CACHE_DIR where it says so:
#   cold   no saved index (the run builds and saves it)
#   warm   the index saved by an earlier run (the bar: median and p90)
#   off    --no-cache (every run reads the whole tree: what it cost before)
# Then `tessel check DIR` over the first library holding >= 1,000 files.
#
#   bench/corpus/project_speed.py CORPUS --tessel build/tools/tessel [--files 5000] [--sample 30]
# ===-----------------------------------------------------------------------===#
import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

JIT = re.compile(r"^\s*@\s*(?:triton\s*\.\s*)?jit\b", re.M)


def py_files(d):
    return [p for p in d.rglob("*.py") if p.is_file() and "/." not in str(p.relative_to(d))]


def timed(cmd, env, cwd):
    t = time.perf_counter()
    r = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    dt = time.perf_counter() - t
    if r.returncode >= 128 or r.returncode < 0:
        sys.exit(f"project_speed.py: {' '.join(map(str, cmd))} crashed ({r.returncode})")
    return dt


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--tessel", default="build/tools/tessel")
    ap.add_argument("--files", type=int, default=5000)
    ap.add_argument("--sample", type=int, default=30)
    a = ap.parse_args()
    tessel = str(Path(a.tessel).resolve())
    libs = sorted((d for d in a.corpus.iterdir() if d.is_dir()), key=lambda d: -len(py_files(d)))
    work = Path(tempfile.mkdtemp(prefix="tessel-project-speed-"))
    try:
        root = work / "project"
        root.mkdir()
        (root / "pyproject.toml").write_text("[project]\nname = 'bench'\n")
        (root / ".git").mkdir()
        used, n = [], 0
        for lib in libs:
            if n >= a.files:
                break
            shutil.copytree(lib, root / lib.name, ignore=shutil.ignore_patterns(".git"))
            used.append(lib.name)
            n = len(py_files(root))
        # Out of the racy window (rows written within 3 s of the save are read again).
        old = time.time() - 3600
        for p in root.rglob("*"):
            os.utime(p, (old, old), follow_symlinks=False)
        cands = sorted(p for p in py_files(root) if JIT.search(p.read_text(errors="replace")))
        rng = random.Random(30)
        sample = rng.sample(cands, min(a.sample, len(cands)))
        env = dict(os.environ, TESSEL_CACHE_DIR=str(work / "cache"))
        cold, warm, off = [], [], []
        for i, p in enumerate(sample):
            rel = str(p.relative_to(root))
            shutil.rmtree(work / "cache", ignore_errors=True)
            cold.append(timed([tessel, "check", rel], env, root))
            warm.append(min(timed([tessel, "check", rel], env, root) for _ in range(3)))
            off.append(timed([tessel, "check", "--no-cache", rel], env, root))
        print(f"project: {n} Python files from {', '.join(used)}; {len(cands)} with @jit functions, {len(sample)} checked")
        print("| run | median | p90 | max |")
        print("|---|---|---|---|")
        for name, xs in (("cold (builds the index)", cold), ("warm (saved index)", warm), ("--no-cache", off)):
            xs = sorted(xs)
            p90 = xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))]
            print(f"| {name} | {statistics.median(xs) * 1000:.0f} ms | {p90 * 1000:.0f} ms | {xs[-1] * 1000:.0f} ms |")
        big = next((d for d in libs if len(py_files(d)) >= 1000), None)
        if big:
            nf = len(py_files(big))
            shutil.rmtree(work / "cache", ignore_errors=True)
            t = timed([tessel, "check", str(root / big.name)], env, root)
            print(f"check DIR: {big.name} ({nf} files) in {t:.1f} s on {os.cpu_count()} cores")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
