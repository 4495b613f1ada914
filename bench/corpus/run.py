#!/usr/bin/env python3
"""bench/corpus/run.py - tessel check over real kernel libraries, as a user would run it.

    bench/corpus/run.py CORPUS_DIR [--tessel build/tools/tessel] [--mode file|tree] [--out FINDINGS.tsv]
                        [--set named|unseen|all] [--repo SUBSTR] [--no-exclude]

CORPUS_DIR holds one folder per library of bench/corpus/pins.txt, named owner+name (unpacked from a git
mirror at the pinned commit; this script downloads nothing). pins.txt's `exclude` lines name folders of
code written for another Triton (vendor forks); their files are neither checked nor counted unless
--no-exclude is given. In `file` mode every Python file that mentions triton is checked alone with `tessel check FILE`, run from the library's root, so imports resolve the way they
would for a user opening that file; in `tree` mode the library is checked in one `tessel check DIR`.

Prints, per library and in total: files, @jit functions (a decorator count, the stable denominator),
kernels tessel checked, error- and warning-level findings, crashes and time, and (file mode) the files with
@jit functions that check as "0 kernels checked" with no TS123 note saying why (`silent`; --list-silent
prints them); then findings per code, and
errors and warnings per 100 @jit functions with the findings bench/corpus/verdicts.tsv marks right
(real bugs, code for an older Triton) left out. Every finding goes to --out as TSV for review.
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FINDING = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning|information|hint): "
                     r"(?P<msg>.*?)(?: \[under (?P<spec>.*?)\])?(?: \[(?P<code>TS\d+)\])?$")
SUMMARY = re.compile(r"\((\d+) kernels? checked\)")
JIT_DECORATOR = re.compile(r"^\s*@\s*(?:triton\s*\.\s*)?jit\b", re.M)


def read_pins():
    """-> (pins [(repo, commit, set)], exclusions {repo: [path part]})."""
    pins, exclusions = [], collections.defaultdict(list)
    with open(os.path.join(HERE, "pins.txt")) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if len(line) >= 3 and line[0] == "exclude":
                exclusions[line[1]].append(line[2])
            elif len(line) >= 3:
                pins.append((line[0], line[1], line[2]))
    return pins, exclusions


def excluded(rel, parts):
    """A path under an excluded prefix (`a/b/`), or holding an excluded part (`/x/`) anywhere."""
    rel = rel.replace(os.sep, "/")
    return any(rel.startswith(p) or (p.startswith("/") and p in "/" + rel) for p in parts)


def read_verdicts():
    """(repo, path, line, code) -> (verdict, note); verdict is `right` or `false`."""
    verdicts = {}
    path = os.path.join(HERE, "verdicts.tsv")
    if not os.path.exists(path):
        return verdicts
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cols = line.rstrip("\n").split("\t")
            if len(cols) >= 5:
                verdicts[(cols[0], cols[1], cols[2], cols[3])] = (cols[4], cols[5] if len(cols) > 5 else "")
    return verdicts


def code_only(text):
    """text with its string literals blanked: a docstring's example `@triton.jit` is no kernel. Text Python
    cannot tokenize is returned as it is."""
    import io
    import tokenize
    lines = text.splitlines(keepends=True)
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return text
    for t in tokens:
        if t.type != tokenize.STRING:
            continue
        (r0, c0), (r1, c1) = t.start, t.end
        for r in range(r0, r1 + 1):
            line = lines[r - 1]
            a = c0 if r == r0 else 0
            b = c1 if r == r1 else len(line.rstrip("\n"))
            lines[r - 1] = line[:a] + " " * (b - a) + line[b:]
    return "".join(lines)


def triton_files(root, parts=()):
    out = []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            p = os.path.join(d, name)
            try:
                with open(p, encoding="utf-8", errors="replace") as f:
                    text = f.read()
            except OSError:
                continue
            if "triton" in text and not excluded(os.path.relpath(p, root), parts):
                out.append((os.path.relpath(p, root), len(JIT_DECORATOR.findall(code_only(text)))))
    return out


def libraries(corpus, which="all", repo=None, no_exclude=False):
    """(repo, set, root, [(path, @jit count)]) for each library of pins.txt unpacked under corpus, in pin order,
    keeping those of set `which` whose name holds `repo`; a missing folder is said on stderr and skipped."""
    pins, exclusions = read_pins()
    if no_exclude:
        exclusions = {}
    for name, _commit, kind in pins:
        if which != "all" and kind != which:
            continue
        if repo and repo.lower() not in name.lower():
            continue
        root = os.path.join(corpus, name.replace("/", "+"))
        if not os.path.isdir(root):
            print(f"skip {name}: {root} not found", file=sys.stderr)
            continue
        yield name, kind, root, triton_files(root, exclusions.get(name, ())), exclusions.get(name, ())


def run_check(tessel, cwd, args):
    t0 = time.perf_counter()
    try:
        p = subprocess.run([tessel, "check", "--color=never", *args], cwd=cwd, capture_output=True, text=True,
                           timeout=120, errors="replace")
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        rc, out, err = "timeout", "", ""
    return rc, out, err, time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("--tessel", default=os.path.join(HERE, "..", "..", "build", "tools", "tessel"))
    ap.add_argument("--mode", choices=["file", "tree"], default="file")
    ap.add_argument("--out", default=None)
    ap.add_argument("--set", choices=["named", "unseen", "holdout", "fresh", "issue30", "all"], default="all")
    ap.add_argument("--list-silent", action="store_true", help="print the silent files (see above)")
    ap.add_argument("--repo", default=None)
    ap.add_argument("--no-exclude", action="store_true",
                    help="also check the folders pins.txt excludes (code for other Tritons)")
    a = ap.parse_args()
    tessel = os.path.abspath(a.tessel)
    verdicts = read_verdicts()
    rows, per_code, findings = [], collections.Counter(), []
    crashes = []
    totals = collections.Counter()
    for repo, which, root, files, excluded_parts in libraries(a.corpus, a.set, a.repo, a.no_exclude):
        c = collections.Counter(files=len(files), jit=sum(n for _, n in files))
        t0 = time.perf_counter()
        outputs = []
        if a.mode == "file":
            for rel, n_jit in files:
                rc, out, err, _ = run_check(tessel, root, [rel])
                outputs.append((rel, rc, out, err))
                m = SUMMARY.search(out)
                if n_jit and m and int(m.group(1)) == 0 and "[TS123]" not in out:
                    c["silent"] += 1
                    if a.list_silent:
                        print(f"silent: {repo}:{rel} ({n_jit} @jit)", file=sys.stderr)
        else:
            rc, out, err, _ = run_check(tessel, a.corpus, [repo.replace("/", "+")])
            outputs.append((repo, rc, out, err))
        c["ms"] = (time.perf_counter() - t0) * 1000
        for rel, rc, out, err in outputs:
            if rc not in (0, 1, 2):
                c["crash"] += 1
                crashes.append(f"{repo}:{rel}: exit {rc}: {err.strip()[-300:]}")
            for line in out.splitlines():
                m = SUMMARY.search(line)
                if m and not FINDING.match(line):
                    c["kernels"] += int(m.group(1))
                    continue
                m = FINDING.match(line)
                if not m or m.group("sev") not in ("error", "warning"):
                    continue
                path = m.group("path")
                if a.mode == "tree":
                    path = os.path.relpath(os.path.join(a.corpus, path), root)
                    if excluded(path, excluded_parts):
                        continue
                code = m.group("code") or "?"
                key = (repo, path, m.group("line"), code)
                verdict = verdicts.get(key, ("unreviewed", ""))[0]
                sev = m.group("sev")
                c[sev] += 1
                if verdict != "right":
                    c["false_" + sev] += 1
                per_code[(code, sev, verdict == "right")] += 1
                findings.append((repo, path, m.group("line"), code, sev, verdict, m.group("msg")))
        rows.append((repo, which, c))
        totals.update(c)
    if a.out:
        with open(a.out, "w") as f:
            f.write("# repo\tpath\tline\tcode\tseverity\tverdict\tmessage\n")
            for r in findings:
                f.write("\t".join(r) + "\n")
    print("| library | set | files | @jit | kernels | errors | warnings | not right: err | warn | silent | crashes | ms |")
    print("|:---|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for repo, which, c in rows + [("total", "", totals)]:
        print(f"| {repo} | {which} | {c['files']} | {c['jit']} | {c['kernels']} | {c['error']} | {c['warning']} | "
              f"{c['false_error']} | {c['false_warning']} | {c['silent']} | {c['crash']} | {c['ms']:.0f} |")
    print()
    print("| code | severity | right | count |")
    print("|:---|:---|:---|---:|")
    for (code, sev, right), n in sorted(per_code.items(), key=lambda kv: -kv[1]):
        print(f"| {code} | {sev} | {'yes' if right else 'no'} | {n} |")
    jit = max(totals["jit"], 1)
    print()
    print(f"per 100 @jit functions: {100 * totals['false_error'] / jit:.1f} errors and "
          f"{100 * totals['false_warning'] / jit:.1f} warnings not marked right "
          f"({totals['error']} errors, {totals['warning']} warnings in all; {totals['crash']} crashes)")
    for line in crashes:
        print("crash:", line)
    return 1 if totals["crash"] else 0


if __name__ == "__main__":
    sys.exit(main())
