#!/usr/bin/env python3
"""Compile every kernel of the given files with the real Triton and print what Triton says.

tessel reimplements Triton's front end; this script is the reference it is compared with. It
needs triton 3.6, torch and (for register and shared-memory figures) a GPU, so it runs on a GPU
machine, never in tessel's own test suite.

For each FILE it imports the file as a module (files that do not parse are skipped), finds every
`@triton.jit` function (also under `@triton.autotune` / `@triton.heuristics`) that no other @jit
function of the file calls, and compiles it with
`triton.compile(triton.compiler.ASTSource(fn, signature, constexprs), options=...)` once per
specialization:

* every `triton.Config` of its `@triton.autotune` (constexprs and num_warps / num_stages / ...),
  crossed with
* every `# oracle: NAME=VALUE, ...` comment line in the comment block right above the kernel's
  decorators (one line per specialization), or the entries of ORACLE_TABLE below for files that
  should stay free of such comments; with neither, parameter defaults only.

An oracle value is a Python literal (`BLOCK=128`, `ACT="relu"`, `CAUSAL=True`) for a constexpr
parameter; a Triton type string (`x_ptr=*fp16`, `eps=fp32`, `n=i64`) for a runtime parameter;
or a compile option (`num_warps=8`, `num_stages=2`, `num_ctas`, `maxnreg`). `# oracle: skip`
skips the kernel. Runtime parameters default to `*fp32` when their name contains `ptr`, `i32`
otherwise.

Each compile prints `file:line:col: kernel [specialization]: ...` with the absolute line of the
error in the file (Triton's `at L:C` line is relative to the `def` line; its column is 0-based,
printed here 1-based like tessel's text output) and then the `__cause__` chain (an error inside a
called @jit helper is reported by Triton at the call site with no message; the cause has it).
Compiled kernels print shared memory, registers and spills (registers and the shared-memory limit
check need a GPU: they come from loading the cubin). A compact table closes the run; `--json`
writes every record for a machine comparison with `tessel check --format=json`.

    python3 scripts/triton_oracle.py samples/*.py samples/bugs/*.py --reference samples/triton-3.6-oracle.txt
    python3 scripts/triton_oracle.py --docs docs/diagnostics.md samples/vector_add.py

`--docs` also compiles every **Bad** / **Fixed** example of docs/diagnostics.md and checks that
the Bad examples of Triton's compile errors fail and that every Fixed example compiles.
"""
import argparse
import ast
import importlib.util
import inspect
import json
import os
import re
import sys
import traceback

# Specializations for files that carry no `# oracle:` comments (the tutorial-class samples stay
# exactly as a user would write them). Keyed by file name, then kernel name; each string is one
# specialization in the `# oracle:` syntax.
ORACLE_TABLE = {
    "vector_add.py": {"vector_add_kernel": ["BLOCK_SIZE=1024, num_warps=4"]},
    "fused_softmax.py": {
        "fused_softmax_kernel": [
            "BLOCK_SIZE=1024, NUM_STAGES=3, num_warps=4",
            "BLOCK_SIZE=4096, NUM_STAGES=2, num_warps=8",
        ]
    },
    "layer_norm.py": {
        "layer_norm_fwd_kernel": [
            "x_ptr=*fp16, y_ptr=*fp16, weight_ptr=*fp16, bias_ptr=*fp16, eps=fp32, BLOCK_SIZE=1024, num_warps=8"
        ]
    },
    "matmul.py": {
        "matmul_kernel": [
            'a_ptr=*fp16, b_ptr=*fp16, c_ptr=*fp16, ACTIVATION="leaky_relu"',
            'a_ptr=*fp16, b_ptr=*fp16, c_ptr=*fp16, ACTIVATION=""',
        ]
    },
    "dropout.py": {"seeded_dropout_kernel": ["p=fp32, BLOCK_SIZE=1024, num_warps=4"]},
    "attention.py": {
        "attn_fwd_kernel": [
            "q_ptr=*fp16, k_ptr=*fp16, v_ptr=*fp16, o_ptr=*fp16, sm_scale=fp32, HEAD_DIM=64, CAUSAL=False",
            "q_ptr=*fp16, k_ptr=*fp16, v_ptr=*fp16, o_ptr=*fp16, sm_scale=fp32, HEAD_DIM=64, CAUSAL=True",
        ]
    },
}

OPTION_NAMES = ("num_warps", "num_stages", "num_ctas", "maxnreg", "enable_fp_fusion")
TYPE_RE = re.compile(r"^\*?k?(fp8e4nv|fp8e4b8|fp8e5|fp8e5b16|fp8e4b15|fp16|bf16|fp32|fp64|i1|i8|i16|i32|i64|u1|u8|u16|u32|u64)$")
ITEM_RE = re.compile(r"""(\w+)\s*=\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^,\s]+)""")
WRAPPED_RE = re.compile(r"""^(\w+)\((['"])(.*)\2\)$""", re.S)


def parse_spec(text):
    """`BLOCK=128, x_ptr=*fp16, ACT="relu"` -> {"BLOCK": 128, "x_ptr": "*fp16", "ACT": "relu"}."""
    spec = {}
    for name, raw in ITEM_RE.findall(text):
        if TYPE_RE.match(raw):
            spec[name] = TypeString(raw)
            continue
        try:
            spec[name] = ast.literal_eval(raw)
        except (ValueError, SyntaxError):
            spec[name] = raw
    return spec


class TypeString(str):
    """A Triton type for a runtime parameter, as opposed to a string constexpr value."""


def unwrap_message(msg):
    """`ValueError('text')` (how Triton's visitor wraps some errors) -> `text`."""
    if msg is None:
        return ""
    m = WRAPPED_RE.match(msg.strip())
    return m.group(3) if m else msg.strip()


class FileInfo:
    """Where each top-level function of a file starts, and its `# oracle:` lines."""

    def __init__(self, path, text):
        self.path = path
        self.lines = text.splitlines()
        self.def_line = {}  # name -> 1-based line of `def`
        self.oracle = {}  # name -> list of spec strings ("skip" allowed)
        tree = ast.parse(text, path)
        for node in tree.body:
            if not isinstance(node, ast.FunctionDef):
                continue
            self.def_line[node.name] = node.lineno
            first = min([d.lineno for d in node.decorator_list] + [node.lineno])
            specs = []
            i = first - 2
            while i >= 0 and self.lines[i].lstrip().startswith("#"):
                m = re.match(r"\s*#\s*oracle:\s*(.*)$", self.lines[i])
                if m:
                    specs.append(m.group(1).strip())
                i -= 1
            self.oracle[node.name] = list(reversed(specs))


def import_triton():
    try:
        import triton  # noqa: F401
        import triton.language  # noqa: F401
        from triton.runtime.autotuner import Autotuner, Heuristics
        from triton.runtime.jit import JITFunction
    except Exception as e:  # the whole run is pointless without triton
        sys.exit(f"triton_oracle: cannot import triton ({e}); run this where triton 3.6 is installed")
    return triton, JITFunction, Autotuner, Heuristics


def unwrap_kernel(obj, JITFunction, Autotuner, Heuristics):
    """-> (JITFunction, autotune configs or None, heuristic names) or None."""
    configs, heuristics = None, []
    for _ in range(4):
        if isinstance(obj, Autotuner):
            configs = list(obj.configs)
            obj = obj.fn
        elif isinstance(obj, Heuristics):
            heuristics += list(obj.values.keys())
            obj = obj.fn
        else:
            break
    if isinstance(obj, JITFunction):
        return obj, configs, heuristics
    return None


def is_constexpr_param(param):
    ann = param.annotation
    if ann is inspect.Parameter.empty:
        return False
    return "constexpr" in (ann if isinstance(ann, str) else repr(ann))


def runtime_type(name, value):
    if isinstance(value, TypeString):
        return str(value), None
    if isinstance(value, bool):
        return "u1", None
    if isinstance(value, int):
        if value == 1:
            return "constexpr", 1  # Triton specializes ints equal to 1
        return ("i32" if -(2**31) <= value < 2**31 else "i64"), None
    if isinstance(value, float):
        return "fp32", None
    return ("*fp32" if "ptr" in name.lower() else "i32"), None


def build(fn, spec):
    """-> (signature, constexprs, options, description) or raise KeyError for a missing value."""
    params = list(inspect.signature(fn.fn).parameters.values())
    signature, constexprs, options = {}, {}, {}
    for key in OPTION_NAMES:
        if key in spec:
            options[key] = spec[key]
    for idx, p in enumerate(params):
        if is_constexpr_param(p):
            if p.name in spec:
                value = spec[p.name]
            elif p.default is not inspect.Parameter.empty:
                value = p.default
            else:
                raise KeyError(p.name)
            signature[p.name] = "constexpr"
            constexprs[(idx,)] = value
            continue
        ty, const = runtime_type(p.name, spec.get(p.name))
        signature[p.name] = ty
        if ty == "constexpr":
            constexprs[(idx,)] = const
    shown = ", ".join(f"{k}={v}" for k, v in spec.items() if not isinstance(v, TypeString))
    return signature, constexprs, options, shown


def error_chain(exc):
    """The exception and its __cause__ / __context__ chain, outermost first."""
    chain, seen = [], set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        chain.append(exc)
        exc = exc.__cause__ or (exc.__context__ if not exc.__suppress_context__ else None)
    return chain


def locate(exc, src_index):
    """(file, absolute line, 1-based column) of a CompilationError, or None."""
    node = getattr(exc, "node", None)
    if node is None or not hasattr(node, "lineno"):
        return None
    src = getattr(exc, "src", None)
    where = src_index.get(src)
    if where is None and isinstance(src, str):
        m = re.match(r"\s*def\s+(\w+)", src)
        where = src_index.get(("name", m.group(1))) if m else None
    if where is None:
        return ("<triton library>", node.lineno, node.col_offset + 1)
    path, def_line = where
    return (path, def_line + node.lineno - 1, node.col_offset + 1)


def compile_one(triton, fn, spec, target, src_index, file_path, def_line):
    record = {"file": file_path, "kernel": fn.__name__, "spec": "", "status": "", "line": def_line, "col": 1,
              "message": "", "causes": [], "shared": None, "n_regs": None, "n_spills": None}
    try:
        signature, constexprs, options, shown = build(fn, spec)
    except KeyError as missing:
        record.update(spec=", ".join(f"{k}={v}" for k, v in spec.items()), status="skipped",
                      message=f"no value for constexpr {missing.args[0]} (add an `# oracle:` comment)")
        return record
    record["spec"] = shown
    try:
        src = triton.compiler.ASTSource(fn=fn, signature=signature, constexprs=constexprs)
        kernel = triton.compile(src, target=target, options=options or None)
    except Exception as e:  # one failing kernel must not stop the rest
        chain = error_chain(e)
        record["status"] = type(e).__name__
        outer = locate(chain[0], src_index)
        if outer:
            record["file"], record["line"], record["col"] = outer
        for cause in chain:
            loc = locate(cause, src_index)
            msg = getattr(cause, "error_message", None)
            if msg is None and not hasattr(cause, "node"):
                msg = str(cause)
            record["causes"].append({"type": type(cause).__name__, "where": loc, "message": msg or ""})
        # The reported message is the innermost non-empty one, unwrapped from `ValueError('...')`.
        for cause in reversed(record["causes"]):
            if cause["message"]:
                record["message"] = unwrap_message(cause["message"])
                break
        return record
    record["status"] = "ok"
    record["shared"] = getattr(kernel.metadata, "shared", None)
    if not has_gpu():
        return record
    try:
        kernel._init_handles()  # loads the cubin: registers, spills, the shared-memory limit
        record["n_regs"] = getattr(kernel, "n_regs", None)
        record["n_spills"] = getattr(kernel, "n_spills", None)
    except Exception as e:
        record["status"] = type(e).__name__
        record["message"] = str(e)
    return record


def has_gpu():
    try:
        import torch
        return torch.cuda.is_available()
    except Exception:
        return False


def kernels_of(module, text, JITFunction, Autotuner, Heuristics):
    """The @jit functions of a module in source order, minus helpers called by other @jit functions."""
    found = []
    for name, obj in vars(module).items():
        k = unwrap_kernel(obj, JITFunction, Autotuner, Heuristics)
        if k is not None and getattr(k[0].fn, "__module__", None) == module.__name__:
            found.append((name, k))
    sources = {name: jit_source(k[0]) for name, k in found}
    kernels = []
    for name, k in found:
        called = any(re.search(rf"\b{re.escape(name)}\s*\(", src) for other, src in sources.items() if other != name)
        if not called:
            kernels.append((name, k))
    return kernels, found


def jit_source(fn):
    """A JITFunction's source from its `def` line on (the text Triton's line numbers count from)."""
    src = getattr(fn, "src", None) or getattr(fn, "_src", None)
    return src if isinstance(src, str) else inspect.getsource(fn.fn)


def run_file(path, triton, JITFunction, Autotuner, Heuristics, target, records, verbose):
    rel = os.path.relpath(path)
    text = open(path, encoding="utf-8").read()
    try:
        info = FileInfo(rel, text)
    except SyntaxError as e:
        print(f"{rel}:{e.lineno}:{e.offset or 0}: skipped: the file does not parse ({e.msg})")
        records.append({"file": rel, "kernel": "-", "spec": "", "status": "skipped", "line": e.lineno or 0,
                        "col": e.offset or 0, "message": f"syntax error: {e.msg}", "causes": [],
                        "shared": None, "n_regs": None, "n_spills": None})
        return
    mod_name = "oracle_" + re.sub(r"\W", "_", rel)
    spec_obj = importlib.util.spec_from_file_location(mod_name, os.path.abspath(path))
    module = importlib.util.module_from_spec(spec_obj)
    sys.modules[mod_name] = module
    try:
        spec_obj.loader.exec_module(module)
    except Exception as e:
        print(f"{rel}:1:1: skipped: importing the file raised {type(e).__name__}: {e}")
        records.append({"file": rel, "kernel": "-", "spec": "", "status": "import-error", "line": 1, "col": 1,
                        "message": f"{type(e).__name__}: {e}", "causes": [], "shared": None, "n_regs": None,
                        "n_spills": None})
        return
    kernels, all_jit = kernels_of(module, text, JITFunction, Autotuner, Heuristics)
    src_index = {}
    for name, (fn, _, _) in all_jit:
        if name in info.def_line:
            src_index[jit_source(fn)] = (rel, info.def_line[name])
            src_index[("name", name)] = (rel, info.def_line[name])
    table = ORACLE_TABLE.get(os.path.basename(path), {})
    for name, (fn, configs, heuristics) in kernels:
        lines = info.oracle.get(name) or table.get(name) or [""]
        if any(line.strip() == "skip" for line in lines):
            print(f"{rel}:{info.def_line.get(name, 1)}:1: {name}: skipped (# oracle: skip)")
            continue
        for line in lines:
            base = parse_spec(line)
            for config in (configs or [None]):
                spec = dict(base)
                if config is not None:
                    spec = {**config.kwargs, **spec}
                    for opt in OPTION_NAMES:
                        value = getattr(config, opt, None)
                        if value is not None and opt not in base:
                            spec[opt] = value
                rec = compile_one(triton, fn, spec, target, src_index, rel, info.def_line.get(name, 1))
                records.append(rec)
                print_record(rec, verbose)


def format_record(rec):
    """The record's lines: `file:line:col: kernel [spec]: result`, then one per cause."""
    if rec["kernel"] == "-":
        return [f"{rec['file']}:{rec['line']}:{rec['col']}: skipped: {rec['message']}"]
    head = f"{rec['file']}:{rec['line']}:{rec['col']}: {rec['kernel']} [{rec['spec']}]"
    if rec["status"] == "ok":
        return [f"{head}: ok shared={rec['shared']} n_regs={rec['n_regs']} n_spills={rec['n_spills']}"]
    lines = [f"{head}: {rec['status']}: {rec['message']}"]
    for cause in rec["causes"]:
        where = cause["where"]
        at = f"{where[0]}:{where[1]}:{where[2]}" if where else "-"
        first = cause["message"].strip().splitlines()[0] if cause["message"].strip() else "(no message)"
        lines.append(f"    {cause['type']} at {at}: {first}")
    return lines


def print_record(rec, verbose):
    for line in format_record(rec):
        print(line)
    if verbose and rec["causes"]:
        for cause in rec["causes"]:
            print(cause["message"])


REFERENCE_HEADER = """# What triton {version} says about every kernel of the files below, as printed by
#   python3 scripts/triton_oracle.py --reference THIS_FILE {files}   ({count} files)
# file:line:col is the absolute position (column 1-based) of Triton's error; `ok` lines give
# shared memory bytes, registers and spills of the compiled kernel (registers need a GPU). The
# indented lines are the __cause__ chain. Function addresses are blanked. Regenerate after
# changing a sample.
"""


def write_reference(path, records, triton_version, files):
    with open(path, "w", encoding="utf-8") as out:
        shown = " ".join(files) if len(files) <= 3 else f"{files[0]} ... {files[-1]}"
        out.write(REFERENCE_HEADER.format(version=triton_version, files=shown, count=len(files)) + "\n")
        for rec in records:
            for line in format_record(rec):
                out.write(re.sub(r" at 0x[0-9a-f]+>", " at 0x...>", line) + "\n")


def print_table(records):
    rows = [("file:line:col", "kernel", "specialization", "result", "shared", "regs", "spills", "message")]
    for r in records:
        msg = r["message"].strip().splitlines()[0] if r["message"].strip() else ""
        rows.append((f"{r['file']}:{r['line']}:{r['col']}", r["kernel"], r["spec"][:40], r["status"],
                     "" if r["shared"] is None else str(r["shared"]), "" if r["n_regs"] is None else str(r["n_regs"]),
                     "" if r["n_spills"] is None else str(r["n_spills"]), msg[:70]))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    print()
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row[:-1], widths)) + "  " + row[-1])
    ok = sum(r["status"] == "ok" for r in records)
    print(f"\n{len(records)} compiles: {ok} ok, {len(records) - ok} not ok")


def extract_doc_examples(doc_path, out_dir):
    """Writes each **Bad** / **Fixed** block of docs/diagnostics.md to OUT_DIR/tsNNN_bad.py etc.

    Each block gets the two usual imports, and `# oracle: BLOCK=128` above every @triton.jit so
    that the examples' BLOCK parameters have a value. Returns {path: (code, "bad" | "fixed")}.
    """
    text = open(doc_path, encoding="utf-8").read()
    examples = {}
    for section in re.split(r"^## ", text, flags=re.M):
        m = re.match(r"(TS\d+) ", section)
        if not m:
            continue
        for kind in ("Bad", "Fixed"):
            block = re.search(r"\*\*" + kind + r"\*\*\n+```python\n(.*?)\n```", section, re.S)
            if not block:
                continue
            body = re.sub(r"^@triton\.jit", "# oracle: BLOCK=128\n@triton.jit", block.group(1), flags=re.M)
            path = os.path.join(out_dir, f"{m.group(1).lower()}_{kind.lower()}.py")
            with open(path, "w", encoding="utf-8") as out:
                out.write("import triton\nimport triton.language as tl\n\n\n" + body + "\n")
            examples[os.path.relpath(path)] = (m.group(1), kind.lower())
    return examples


def print_doc_verdicts(examples, records):
    """Bad examples of Triton's own errors must fail and every Fixed example must compile."""
    print("\ndocs/diagnostics.md examples:")
    for path, (code, kind) in sorted(examples.items(), key=lambda kv: kv[1]):
        results = [r for r in records if r["file"] == path]
        statuses = sorted({r["status"] for r in results}) or ["no kernel"]
        failed = any(s not in ("ok", "no kernel") for s in statuses)
        # Host-only (TS120), runtime bugs Triton compiles (TS201, TS202) and unparsable (TS001)
        # examples say nothing about Triton's errors.
        expect_failure = kind == "bad" and code not in ("TS001", "TS120", "TS201", "TS202")
        verdict = "as expected" if (failed == expect_failure or (kind == "bad" and not expect_failure)) else "UNEXPECTED"
        message = next((r["message"] for r in results if r["message"]), "")
        print(f"  {code} {kind:5} {','.join(statuses):30} {verdict:12} {message.splitlines()[0][:80] if message else ''}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--arch", type=int, default=None,
                    help="compile for this compute capability (e.g. 90) instead of the current GPU")
    ap.add_argument("--json", help="write every record to this file")
    ap.add_argument("--verbose", action="store_true", help="print Triton's full messages with their excerpts")
    ap.add_argument("--reference", metavar="FILE",
                    help="write the per-kernel lines (without the table) to FILE, e.g. samples/triton-3.6-oracle.txt")
    ap.add_argument("--docs", metavar="DIAGNOSTICS_MD",
                    help="also compile the Bad/Fixed examples of docs/diagnostics.md and check each verdict")
    args = ap.parse_args()

    triton, JITFunction, Autotuner, Heuristics = import_triton()
    target = None
    if args.arch is not None:
        from triton.backends.compiler import GPUTarget
        target = GPUTarget("cuda", args.arch, 32)
    print(f"triton {triton.__version__}", flush=True)

    files, examples = list(args.files), {}
    if args.docs:
        import tempfile
        doc_dir = tempfile.mkdtemp(prefix="oracle-docs-")
        examples = extract_doc_examples(args.docs, doc_dir)
        files += sorted(examples)

    records = []
    for path in files:
        try:
            run_file(path, triton, JITFunction, Autotuner, Heuristics, target, records, args.verbose)
        except Exception:  # a bug here must not hide the other files
            print(f"{path}: oracle failure:\n{traceback.format_exc()}")
        sys.stdout.flush()
    print_table(records)
    if examples:
        print_doc_verdicts(examples, records)
    if args.reference:
        write_reference(args.reference, [r for r in records if r["file"] not in examples], triton.__version__,
                        args.files)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(records, out, indent=1, default=str)


if __name__ == "__main__":
    main()
