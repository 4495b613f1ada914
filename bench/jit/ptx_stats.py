#!/usr/bin/env python3
"""The generated code of `bench_jit --dump-ptx DIR`, counted, to compare two code generator versions.

    python3 bench/jit/ptx_stats.py [--arch sm_90] [--ptxas PATH] DIR [DIR2]

For every DIR/*.ptx: PTX instructions (lines ending in `;` inside the body, directives and labels left
out), global vector loads `ld.global.v4` / all `ld.global`, `st.global`, `mma.sync`, `cp.async` copies,
`ldmatrix`, `ld.local` / `st.local`, then ptxas (`-v`, the arch given) for registers, spill bytes and the
SASS size in instructions (the cubin's `.text.KERNEL` section / 16 bytes, read with readelf). With DIR2
each row shows DIR's figure and DIR2's as `a / b`, and the rows where anything but the PTX instruction
count differs are marked with `*`.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

COUNTS = [
    ("ptx instrs", None),
    ("ld.global.v4", re.compile(r"\bld\.global(\.[a-z0-9_:]+)*\.v4\.")),
    ("ld.global", re.compile(r"\bld\.global\.")),
    ("st.global", re.compile(r"\bst\.global\.")),
    ("mma", re.compile(r"\bmma\.sync\.")),
    ("cp.async", re.compile(r"\bcp\.async\.c[ag]\.")),
    ("ldmatrix", re.compile(r"\bldmatrix\.")),
    ("ld/st.local", re.compile(r"\b(ld|st)\.local\.")),
]


def ptx_counts(text):
    out = {name: 0 for name, _ in COUNTS}
    body = False
    for line in text.splitlines():
        s = line.strip()
        if s.startswith(".entry") or s.startswith(".visible .entry"):
            body = True
        if not body or not s or s.startswith("//") or s.startswith("."):
            continue
        if s.endswith(";"):
            out["ptx instrs"] += 1
        for name, rx in COUNTS[1:]:
            if rx.search(s):
                out[name] += 1
    return out


def assemble(path, arch, ptxas):
    with tempfile.TemporaryDirectory() as tmp:
        cubin = os.path.join(tmp, "k.cubin")
        r = subprocess.run([ptxas, f"-arch={arch}", "-v", "-o", cubin, path], capture_output=True, text=True)
        if r.returncode != 0:
            return {"regs": "ptxas failed", "spill": "", "sass": ""}
        log = r.stdout + r.stderr
        regs = re.search(r"Used (\d+) registers", log)
        spills = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", log)
        sections = subprocess.run(["readelf", "-S", "-W", cubin], capture_output=True, text=True).stdout
        sass = 0
        for line in sections.splitlines():
            m = re.search(r"\]\s+\.text\.\S+\s+\S+\s+\S+\s+\S+\s+([0-9a-f]+)", line)
            if m:
                sass += int(m.group(1), 16) // 16
        return {"regs": int(regs.group(1)) if regs else 0,
                "spill": f"{spills.group(1)}/{spills.group(2)}" if spills else "0/0", "sass": sass}


def stats(directory, arch, ptxas):
    out = {}
    for name in sorted(os.listdir(directory)):
        if name.endswith(".ptx"):
            path = os.path.join(directory, name)
            with open(path) as f:
                row = ptx_counts(f.read())
            row.update(assemble(path, arch, ptxas))
            out[name[:-4]] = row
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--ptxas", default="ptxas")
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    if len(a.dirs) > 2:
        sys.exit("at most two folders")
    tables = [stats(d, a.arch, a.ptxas) for d in a.dirs]
    cols = [name for name, _ in COUNTS] + ["regs", "spill", "sass"]
    print("| kernel | " + " | ".join(cols) + " |")
    print("|---" * (len(cols) + 1) + "|")
    for key in sorted(set().union(*tables)):
        rows = [t.get(key) for t in tables]
        if len(rows) == 1:
            cells = [str(rows[0][c]) for c in cols]
            mark = ""
        elif None in rows:
            cells = ["only in one folder"] + [""] * (len(cols) - 1)
            mark = "*"
        else:
            cells = [str(rows[0][c]) if rows[0][c] == rows[1][c] else f"{rows[0][c]} / {rows[1][c]}" for c in cols]
            mark = "*" if any(rows[0][c] != rows[1][c] for c in cols[1:]) else ""
        print(f"| {key}{mark} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
