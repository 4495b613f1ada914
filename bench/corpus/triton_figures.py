#!/usr/bin/env python3
"""bench/corpus/triton_figures.py - tessel's figures for real kernels against triton 3.6's, same specialization.

    python3 bench/corpus/triton_figures.py PACK_DIR --tessel T [--arch sm_90a] [--out FILE.tsv] [--jobs N]

PACK_DIR is runs.py --pack's folder (KERNELS.tsv and each library's files). On a machine with a GPU,
triton 3.6 and torch: for every kernel, `tessel compile FILE --kernel K --emit report` with no spec gives
tessel's registers and shared memory and, in its `//` lines, every value the derived launch assumed
(constexprs, tensor dtypes and shapes, scalars, num_warps/num_stages). The kernel's file is then reduced
to what triton needs to compile it alone (imports of triton and math, module-level constants, the @jit
and @tl.constexpr functions, without autotune/heuristics/library decorators) and the kernel is warmed up
with triton under those same values (`JITFunction.warmup`, grid (1,)): its `n_regs`, `n_spills` and
`metadata.shared` are Triton's figures for the same specialization. A kernel whose file needs other
modules of its library (imported helpers) cannot be compiled alone and is listed as such.

--bridge compares through tessel's Triton bridge instead: `tessel run FILE --kernel K --gpu --triton
--no-reference --instance 0` from the library's root, which imports the kernel's real file (its library's
modules found from the root), launches it through Triton on tessel's inputs and compares every output with
tessel's GPU run; the figures are the two compilers' for the first instance of tessel's derived launch.
--jobs runs that many kernels (or, without --bridge, tessel compiles) at once.
"""
import argparse
import ast
import concurrent.futures
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile

KEEP_IMPORTS = ("triton", "math")


def reduced_source(path):
    tree = ast.parse(open(path).read())
    body = []
    for node in tree.body:
        if isinstance(node, ast.Import) and all(a.name.split(".")[0] in KEEP_IMPORTS for a in node.names):
            body.append(node)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] in KEEP_IMPORTS:
            body.append(node)
        elif isinstance(node, ast.FunctionDef):
            decos = [ast.unparse(d) for d in node.decorator_list]
            jit = [d for d, s in zip(node.decorator_list, decos) if re.search(r"(^|\.)jit\b", s)]
            cexpr = [d for d, s in zip(node.decorator_list, decos) if s.endswith("constexpr")
                     or s.endswith("constexpr_function")]
            if jit or cexpr:
                node.decorator_list = jit[-1:] or cexpr[-1:]
                body.append(node)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            body.append(node)
    out = []
    for node in body:
        src = ast.unparse(node)
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            # A constant that needs the library fails alone; the kernels that read it then fail too.
            src = "try:\n" + "\n".join("    " + l for l in src.splitlines()) + "\nexcept Exception:\n    pass"
        out.append(src)
    return "import triton\nimport triton.language as tl\n" + "\n\n".join(out) + "\n"


def tessel_report(tessel, root, rel, kernel, arch):
    p = subprocess.run([tessel, "compile", rel, "--kernel", kernel, "--emit", "report", "--arch", arch], cwd=root,
                       capture_output=True, text=True, timeout=600)
    text = p.stdout + p.stderr
    assumed = [l[3:] for l in text.splitlines() if l.startswith("// ")]
    regs = re.search(r"registers\s+(\d+)", text)
    smem = re.search(r"shared memory\s+(\d+)", text)
    spills = re.search(r"spills\s+(\d+) bytes stored", text)
    if not regs:
        return None, assumed, text.strip().splitlines()[-1:] or ["no report"]
    return {"regs": int(regs.group(1)), "smem": int(smem.group(1)) if smem else 0,
            "spills": int(spills.group(1)) if spills else 0}, assumed, None


def bridge_figures(tessel, root, rel, kernel, timeout=300):
    """Both compilers' figures for the first instance of tessel's derived launch, through `tessel run --gpu
    --triton` (the bridge imports the kernel's real file from its library's root and launches the @triton.jit
    function on tessel's inputs): (ours, theirs, note)."""
    cmd = [tessel, "run", rel, "--kernel", kernel, "--gpu", "--triton", "--no-reference", "--instance", "0",
           "--format=json"]
    try:
        p = subprocess.run(cmd, cwd=root, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, None, f"timed out after {timeout} s"
    try:
        report = json.loads(p.stdout)
    except ValueError:
        return None, None, ((p.stderr.strip().splitlines() or ["no report"])[-1])[:140]
    inst = (report.get("instances") or [None])[0]
    if not inst:
        errs = report.get("errors") or report.get("notRun") or ["no instance ran"]
        return None, None, str(errs[0])[:140]
    tri = inst.get("triton") or {}
    figs = tri.get("figures") or {}

    def norm(f):
        if not f or f.get("registers") is None:
            return None
        return {"regs": f["registers"], "smem": f.get("sharedBytes") or 0, "spills": f.get("spills") or 0}
    outs = tri.get("outputs") or []
    differ = sum(1 for o in outs if o.get("mismatches"))
    # A file Triton could not load or run fails every instance: the run's own triton section says why.
    run_tri = report.get("triton") or {}
    run_note = run_tri.get("error") or "; ".join(run_tri.get("notes") or [])
    note = (tri.get("error") or inst.get("error") or (f"triton: {run_note}" if not figs and run_note else "") or
            (f"{differ} of {len(outs)} outputs differ" if differ else f"outputs equal ({len(outs)})" if outs else "") or
            ("" if figs else "no figures in the report: " + json.dumps(inst)[:300]))
    return norm(figs.get("tessel")), norm(figs.get("triton")), str(note)[:140]


def parse_value(text, tl):
    t = text.strip()
    if re.fullmatch(r"-?\d+", t):
        return int(t)
    if re.fullmatch(r"-?[\d.]+(e-?\d+)?|-?inf|nan", t):
        return float(t)
    if t in ("True", "False", "None"):
        return {"True": True, "False": False, "None": None}[t]
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "'\"":
        return t[1:-1]
    m = re.fullmatch(r"(?:triton\.language|tl)\.(\w+)", t)
    if m:
        return getattr(tl, m.group(1))
    raise ValueError(t)


TORCH_DTYPES = {"fp32": "float32", "fp16": "float16", "bf16": "bfloat16", "fp64": "float64", "i8": "int8",
                "i16": "int16", "i32": "int32", "i64": "int64", "u8": "uint8", "i1": "bool", "int8": "int8",
                "int16": "int16", "int32": "int32", "int64": "int64", "uint8": "uint8", "float32": "float32",
                "float16": "float16", "bfloat16": "bfloat16", "fp8e4nv": "float8_e4m3fn", "fp8e5": "float8_e5m2"}


def triton_figures(fn, assumed, torch, tl):
    values, options = {}, {"num_warps": 4, "num_stages": 3}
    for line in assumed:
        # The autotune config tessel compiled under (its config 0): its constexprs and launch options.
        m = re.match(r"autotune config \d+: triton\.Config\((\{.*?\})(.*)\)\s*$", line)
        if m:
            values.update(ast.literal_eval(m.group(1)))
            for k, v in re.findall(r"(num_warps|num_stages)=(\d+)", m.group(2)):
                options[k] = int(v)
            continue
        m = re.match(r"(\w+)=(\w+)\[([\d, ]*)\]", line)
        if m and m.group(2) in TORCH_DTYPES:
            shape = [int(x) for x in m.group(3).split(",") if x.strip()]
            dtype = getattr(torch, TORCH_DTYPES[m.group(2)])
            values[m.group(1)] = torch.zeros(shape, dtype=dtype, device="cuda")
            continue
        m = re.match(r"(\w+)=(\S+?)(?:\s|$)", line)
        if not m or m.group(1) == "grid":
            continue
        try:
            v = parse_value(m.group(2), tl)
        except (ValueError, AttributeError):
            continue
        if m.group(1) in ("num_warps", "num_stages"):
            options[m.group(1)] = v
        values[m.group(1)] = v
    params = fn.arg_names
    args = {p: values[p] for p in params if p in values}
    missing = [p for p in params if p not in args]
    if missing:
        return None, "no value for " + ", ".join(missing)
    for k in ("num_warps", "num_stages"):
        if k in args:  # a parameter shadowing the launch option: the option's value
            options.pop(k, None)
    compiled = fn.warmup(grid=(1,), **args, **options)
    if hasattr(compiled, "_init_handles"):
        compiled._init_handles()
    return {"regs": compiled.n_regs, "smem": compiled.metadata.shared, "spills": compiled.n_spills}, None


def reduced_rows(a, entries):
    """Each kernel's file reduced to what triton needs, warmed up under tessel's assumed values."""
    import torch
    import triton  # noqa: F401 - triton.language needs the package initialised
    import triton.language as tl
    rows = []
    tmp = tempfile.mkdtemp()
    # tessel's compiles are separate processes: they run --jobs at once, ahead of Triton's (one process).
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        reports = list(pool.map(lambda e: tessel_report(os.path.abspath(a.tessel),
                                                        os.path.join(a.pack, e[0].replace("/", "+")), e[1], e[2],
                                                        a.arch), entries))
    for n, ((repo, rel, kernel), (ours, assumed, why)) in enumerate(zip(entries, reports)):
        root = os.path.join(a.pack, repo.replace("/", "+"))
        theirs, err = None, ""
        try:
            path = os.path.join(tmp, f"k{n}.py")
            open(path, "w").write(reduced_source(os.path.join(root, rel)))
            spec = importlib.util.spec_from_file_location(f"k{n}", path)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            theirs, err = triton_figures(getattr(mod, kernel), assumed, torch, tl)
        except Exception as e:  # a kernel triton cannot compile alone: listed, not fatal
            err = f"{type(e).__name__}: {str(e).strip().splitlines()[-1] if str(e).strip() else ''}"[:140]
        rows.append((repo, rel, kernel, ours, theirs, ((why or [""])[0] if not ours else err) or ""))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pack")
    ap.add_argument("--tessel", required=True)
    ap.add_argument("--arch", default="sm_90a")
    ap.add_argument("--out", default=None)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="tessel compiles at once")
    ap.add_argument("--timeout", type=int, default=300, help="seconds for one kernel's bridge run")
    ap.add_argument("--bridge", action="store_true",
                    help="through `tessel run --gpu --triton` on the real files (outputs compared too)")
    a = ap.parse_args()
    entries = [line.rstrip("\n").split("\t")[:3] for line in open(os.path.join(a.pack, "KERNELS.tsv"))]
    if a.bridge:
        found = {}
        with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
            futures = {pool.submit(bridge_figures, os.path.abspath(a.tessel),
                                   os.path.join(a.pack, e[0].replace("/", "+")), e[1], e[2], a.timeout): n
                       for n, e in enumerate(entries)}
            # Each kernel on stderr as it finishes: a run cut short still leaves what it measured.
            for f in concurrent.futures.as_completed(futures):
                n = futures[f]
                found[n] = f.result()
                print("\t".join(str(x) for x in (*entries[n], *found[n])), file=sys.stderr, flush=True)
        rows = [(*entries[n], *found[n]) for n in range(len(entries))]
    else:
        rows = reduced_rows(a, entries)
    lines = ["| library | kernel | tessel regs | triton regs | tessel smem | triton smem | note |",
             "|:---|:---|---:|---:|---:|---:|:---|"]
    tsv = []
    for repo, rel, kernel, ours, theirs, note in rows:
        o = ours or {}
        t = theirs or {}
        lines.append(f"| {repo} | {kernel} | {o.get('regs', '-')} | {t.get('regs', '-')} | {o.get('smem', '-')} | "
                     f"{t.get('smem', '-')} | {note[:80]} |")
        tsv.append("\t".join(str(x) for x in (repo, rel, kernel, o.get("regs", ""), t.get("regs", ""),
                                                 o.get("smem", ""), t.get("smem", ""), note)))
    both = [(o, t) for _, _, _, o, t, _ in rows if o and t]
    same_smem = sum(1 for o, t in both if o["smem"] == t["smem"])
    within = sum(1 for o, t in both if abs(o["regs"] - t["regs"]) <= max(8, 0.1 * t["regs"]))
    lines.append("")
    lines.append(f"compared {len(both)} of {len(rows)} kernels: shared memory equal in {same_smem}, registers within "
                 f"10 % (or 8) in {within}" +
                 (f", outputs equal in {sum(1 for r in rows if r[5].startswith('outputs equal'))}" if a.bridge else ""))
    print("\n".join(lines))
    if a.out:
        open(a.out, "w").write("\n".join(tsv) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
