"""tessel's Triton bridge: runs one kernel through Triton on the inputs tessel wrote, for `tessel run --triton`.

    python3 triton_runner.py BATCH_DIR

tessel carries this file inside its binary (tools/CMakeLists.txt turns it into a C++ string), writes it to
BATCH_DIR's parent and runs it with `python3` (or $TESSEL_PYTHON). BATCH_DIR/manifest.json says what to run:

    {"file": "/abs/k.py", "path": ["/abs", "/project/root"], "kernel": "add_kernel", "iters": 20,
     "instances": [{"id": 0, "grid": [4, 1, 1], "num_warps": 4, "num_stages": 3, "num_ctas": 1,
                    "args": {"x": {"tensor": "in-0.npy", "dtype": "fp32", "shape": [1000], "strides": [1],
                                   "storage": 1000, "output": false},
                             "out": {"dtype": "fp32", "shape": [1000], "strides": [1], "storage": 1000,
                                     "output": true},
                             "n": {"int": 1000}, "BLOCK": {"int": 1024}}}]}

and this script answers in BATCH_DIR/results.json, rewritten after every instance so that a timeout or a
crash still leaves what was done:

    {"triton": "3.6.0", "torch": "2.11.0", "device": "NVIDIA H200", "fatal": null, "notes": [...],
     "instances": [{"id": 0, "ran": true, "error": null, "outputs": {"out": "out-0-out.npy"},
                    "shared": 0, "n_regs": 16, "n_spills": 0,
                    "time": {"runs": 20, "median": 0.0051, "min": 0.0049, "max": 0.0062}}]}

`fatal` (with `fatal_kind`: "import" for a missing torch, triton or numpy, "device" for no CUDA GPU, "load"
for a file Python cannot run, "kernel" for no such @triton.jit function) means no instance ran.

With `"torch": EXPR` in the manifest (`tessel run --reference`, the `torch=` of the kernel's `# tessel:
reference` directive), each instance also evaluates the PyTorch expression over its inputs (each tensor and
scalar by its argument name, and a `_ptr` name without the suffix too): the result (the first, for a tuple),
cast to the dtype of the instance's first output and of its size, is saved as `torch-ID.npy` and timed like a
launch, in the instance's `"torch": {"ran", "error", "name", "output", "time"}`. With `"launch_triton": false`
(no `--triton`) only that runs: triton need not be importable and the file is not loaded.

What it does, and why:

- The file is loaded as a module, statement by statement, as an import would run it, except for what a
  script does rather than defines: bare calls that are not on an imported module (`print(...)`,
  `benchmark.run(...)`, `test_layer_norm(...)`, as Triton's tutorials test and benchmark themselves at
  module level) and `if __name__ == "__main__":` blocks. tessel's launch decides what runs, and a
  benchmark can take minutes. A statement that raises is noted and the rest go on, so a demo that fails
  does not hide the kernel. A file inside a package (its folder has an `__init__.py`) runs with that
  package as its `__package__` and the folder above the top package on the path, so its relative imports
  (`from .utils import configs`) resolve as they do when the library imports it.
- `triton.autotune` and `triton.heuristics` wrappers are unwrapped to the inner JITFunction, so the config
  tessel chose is the one that runs; a heuristic fills only a parameter tessel's launch leaves out.
- Tensors are made from the .npy inputs (bf16 and fp8 arrive as their raw bits) as views of a flat storage
  with tessel's strides; outputs are poisoned (every byte 0xff, NaN for floats) before the launch, as
  tessel's GPU run does, so an element the kernel does not write cannot pass.
- The launch is `kernel[grid](**args, num_warps=..., num_stages=...)` with integers as Python ints, floats
  as Python floats and constexprs as keywords. Outputs are saved after the first launch (before timing,
  which launches again); the compiled kernel gives `metadata.shared`, `n_regs` and `n_spills`.
- Timing mirrors tessel's (compiler/runtime GpuSession::time): 3 warm-up launches, then `iters` launches
  each timed with CUDA events, the L2 flushed before each by filling a buffer of twice its size, and the
  median of the sorted times (the mean of the middle two for an even count).
"""
import ast
import json
import math
import os
import sys
import time
import traceback

# Triton's short dtype names (what tessel writes) -> torch dtype attribute names.
TORCH_DTYPES = {
    "fp64": "float64", "fp32": "float32", "fp16": "float16", "bf16": "bfloat16",
    "fp8e4nv": "float8_e4m3fn", "fp8e5": "float8_e5m2", "fp8e4b8": "float8_e4m3fnuz",
    "fp8e5b16": "float8_e5m2fnuz",
    "i1": "bool", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
    "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
}
# Dtypes NumPy has no type for arrive as raw bits; they are read as signed integers of their width (which
# torch has for every version) and viewed as the dtype.
RAW_BITS = {"bf16": "int16", "fp8e4nv": "int8", "fp8e5": "int8", "fp8e4b8": "int8", "fp8e5b16": "int8"}

WARM_UP = 3


class Results:
    """results.json, rewritten whole after every change (a timeout still leaves what was done)."""

    def __init__(self, batch):
        self.path = os.path.join(batch, "results.json")
        self.data = {"triton": None, "torch": None, "device": None, "fatal": None, "fatal_kind": None,
                     "notes": [], "instances": []}

    def save(self):
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.data, f)
        os.replace(tmp, self.path)

    def fatal(self, kind, message):
        self.data["fatal"], self.data["fatal_kind"] = message, kind
        self.save()


def one_line(text):
    lines = [l.strip() for l in str(text).strip().splitlines() if l.strip()]
    return lines[-1] if lines else ""


def import_environment(results, need_triton=True):
    """torch, triton (None when not needed) and numpy, or None after a fatal result saying which is missing."""
    try:
        import torch
        import numpy  # noqa: F401 - the .npy files
        triton = None
        if need_triton:
            import triton
    except Exception as e:  # noqa: BLE001 - ImportError, or a broken installation raising anything
        name = getattr(e, "name", None) or one_line(e)
        results.fatal("import", f"{sys.executable} cannot import {name}: {one_line(e)}")
        return None
    results.data["triton"] = triton.__version__ if triton else None
    results.data["torch"] = torch.__version__
    if not torch.cuda.is_available():
        results.fatal("device", f"torch {torch.__version__} sees no CUDA GPU (torch.cuda.is_available() is False)")
        return None
    results.data["device"] = torch.cuda.get_device_name(0)
    if triton is not None and hasattr(triton, "set_allocator"):
        # A kernel that makes tensor descriptors (tl.make_tensor_descriptor) needs global scratch, which Triton
        # asks of the allocator the program set; the files set theirs in host code the runner does not run
        # (tutorial 06's forward), so the runner sets the one they all write.
        triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
    return torch, triton


def demo_statement(node, own):
    """True for a top-level statement that is the script's own action rather than a definition: a bare call
    not on an imported module (`print(...)`, `benchmark.run(...)`, `test_layer_norm(...)`; but
    `sys.path.insert(...)` and `torch.manual_seed(...)` set things up and run) or an
    `if __name__ == "__main__":` block. Assignments always run: a kernel or a decorator may read what they
    bind (`configs = [triton.Config(...) for s in ([1] if is_hip() else [3, 4])]`)."""
    if isinstance(node, ast.If):
        test = ast.unparse(node.test)
        return "__name__" in test and "__main__" in test
    if not isinstance(node, ast.Expr) or not isinstance(node.value, ast.Call):
        return False
    root = node.value.func
    while isinstance(root, (ast.Attribute, ast.Call, ast.Subscript)):
        root = root.func if isinstance(root, ast.Call) else root.value
    return not (isinstance(root, ast.Name) and root.id in own["imported"])


def enclosing_package(path):
    """(dotted package of a file inside a regular package, the folder its top package sits in), or ("", "")
    for a file whose folder has no __init__.py."""
    parts, folder = [], os.path.dirname(os.path.abspath(path))
    while os.path.isfile(os.path.join(folder, "__init__.py")) and os.path.basename(folder).isidentifier():
        parts.append(os.path.basename(folder))
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return ".".join(reversed(parts)), (folder if parts else "")


def load_module(path, search, results):
    """The user's file as a module (see the file comment), or None after a fatal result."""
    import types
    for d in reversed(search):
        if d and d not in sys.path:
            sys.path.insert(0, d)
    try:
        with open(path, encoding="utf-8") as f:
            source = f.read()
        tree = ast.parse(source, filename=path)
    except (OSError, SyntaxError, ValueError) as e:
        results.fatal("load", f"Python cannot read {path}: {type(e).__name__}: {one_line(e)}")
        return None
    stem = os.path.splitext(os.path.basename(path))[0]
    package, root = enclosing_package(path)
    if package:
        # `from .utils import configs` resolves against __package__, importing the package from the folder
        # above it as `import attorch` would. The module itself is not registered under its dotted name: the
        # package's __init__ may import it, and must get a whole module (a real import of the file), not this
        # one half-run.
        if root not in sys.path:
            sys.path.insert(0, root)
        name = "__tessel_kernel_module__"
    else:
        name = stem if stem.isidentifier() and stem not in sys.modules else "__tessel_kernel_module__"
    module = types.ModuleType(name)
    module.__file__ = path
    module.__package__ = package
    sys.modules[name] = module
    own = {"imported": set()}
    skipped = 0
    for node in tree.body:
        if demo_statement(node, own):
            skipped += 1
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                own["imported"].add((alias.asname or alias.name).split(".")[0])
        code = compile(ast.Module(body=[node], type_ignores=[]), path, "exec")
        try:
            exec(code, module.__dict__)
        except Exception as e:  # noqa: BLE001 - one failing statement must not hide the kernel
            results.data["notes"].append(f"{os.path.basename(path)}:{node.lineno}: the statement raised "
                                         f"{type(e).__name__}: {one_line(e)}")
    if skipped:
        results.data["notes"].append(f"{skipped} top-level statement(s) that act rather than define (bare calls, "
                                     "a __main__ block) not run")
    return module


def find_kernel(module, name, triton, results):
    """(JITFunction, [Heuristics wrappers, outermost first]) or None after a fatal result."""
    from triton.runtime.jit import JITFunction
    fn = getattr(module, name, None)
    if fn is None:
        results.fatal("kernel", f"{module.__file__} has no `{name}` when Python runs it")
        return None
    heuristics = []
    while not isinstance(fn, JITFunction):
        inner = getattr(fn, "fn", None)
        if inner is None:
            results.fatal("kernel", f"`{name}` is a {type(fn).__name__}, not a @triton.jit function")
            return None
        if type(fn).__name__ == "Heuristics":
            heuristics.append(fn)
        fn = inner
    return fn, heuristics


def make_tensor(torch, np, batch, spec):
    dtype = spec["dtype"]
    if dtype not in TORCH_DTYPES or not hasattr(torch, TORCH_DTYPES[dtype]):
        raise TypeError(f"torch {torch.__version__} has no dtype for {dtype}")
    td = getattr(torch, TORCH_DTYPES[dtype])
    if spec.get("tensor"):
        a = np.load(os.path.join(batch, spec["tensor"]))
        if dtype in RAW_BITS:
            a = a.view(RAW_BITS[dtype])
        base = torch.from_numpy(np.ascontiguousarray(a).reshape(-1)).to("cuda")
        if dtype in RAW_BITS:
            base = base.view(td)
    else:
        base = torch.empty(max(spec["storage"], 1), dtype=td, device="cuda")
    if spec.get("output"):
        base.view(torch.uint8).fill_(0xFF)  # poisoned, as tessel's GPU run does
    return base, torch.as_strided(base, spec["shape"], spec["strides"])


def host_descriptor(tensor, desc):
    """The host TensorDescriptor a `:desc(...)` tensor is launched as (triton.tools.tensor_descriptor)."""
    from triton.tools.tensor_descriptor import TensorDescriptor
    return TensorDescriptor(tensor, list(tensor.shape), list(tensor.stride()), list(desc["block"]),
                            padding=desc.get("padding", "zero"))


def scalar(spec):
    for key in ("int", "float", "bool", "str"):
        if key in spec:
            return spec[key]
    if "none" in spec:
        return None
    if "qualified" in spec:  # a dtype or another module member the file passes: triton.language.float16
        import importlib
        parts = spec["qualified"].split(".")
        for cut in range(len(parts) - 1, 0, -1):
            try:
                value = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            for name in parts[cut:]:
                value = getattr(value, name)
            return value
    raise ValueError(f"an argument of no known kind: {spec}")


def save_npy(np, torch, path, base, dtype):
    """The flat storage, as tessel's --save writes it (raw bits for dtypes NumPy lacks)."""
    t = base.detach().cpu()
    if dtype in RAW_BITS:
        t = t.view(getattr(torch, RAW_BITS[dtype]))
    a = t.numpy()
    if dtype in RAW_BITS:
        a = a.view("<u2" if dtype == "bf16" else "|u1")
    np.save(path, a)


def verdict(e):
    """Triton's verdict on an instance, as one line."""
    name = type(e).__name__
    text = str(e)
    if name == "OutOfResources":
        return text.split(". Reducing")[0].strip()  # "out of resource: shared memory, Required: N, Hardware limit: M"
    if name == "CompileFailure":
        return text
    if name in ("CompilationError", "CompileTimeAssertionFailure", "UnsupportedLanguageConstruct"):
        first = text.strip().splitlines()[0] if text.strip() else ""
        where = f" ({first.rstrip(':')} of the kernel)" if first.startswith("at ") else ""
        return f"compile error{where}: {one_line(text)}"
    return f"{name}: {one_line(text)}"


class CompileFailure(Exception):
    """A compile error with the line Triton's C++ passes wrote to stderr (`PassManager::run failed` says
    only that one failed)."""


class CapturedStderr:
    """File descriptor 2 redirected into a temporary file for a block (MLIR's diagnostics bypass
    sys.stderr), and given back to the process's stderr after it."""

    def __enter__(self):
        import tempfile
        self.file = tempfile.TemporaryFile(mode="w+b")
        sys.stderr.flush()
        self.saved = os.dup(2)
        os.dup2(self.file.fileno(), 2)
        return self

    def __exit__(self, *exc):
        sys.stderr.flush()
        os.dup2(self.saved, 2)
        os.close(self.saved)
        self.file.seek(0)
        self.text = self.file.read().decode("utf-8", "replace")
        self.file.close()
        sys.stderr.write(self.text)  # still in the runner's stderr, for whoever reads it
        return False

    def first_error(self):
        """The first `error:` line written so far (`loc(...): error: failed to legalize ...`), shortened."""
        sys.stderr.flush()
        self.file.flush()
        self.file.seek(0)
        for line in self.file.read().decode("utf-8", "replace").splitlines():
            if "error:" in line:
                return line[line.index("error:"):].strip()[:200]
        return ""


def time_launch(torch, launch, iters, l2_bytes):
    for _ in range(WARM_UP):
        launch()
    flush = torch.empty(max(l2_bytes, 1 << 20) * 2, dtype=torch.uint8, device="cuda")
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    ms = []
    for i in range(iters):
        flush.fill_(i & 0xFF)
        start.record()
        launch()
        stop.record()
        stop.synchronize()
        ms.append(start.elapsed_time(stop))
    ms.sort()
    n = len(ms)
    median = ms[n // 2] if n % 2 else (ms[n // 2 - 1] + ms[n // 2]) / 2
    return {"runs": n, "median": median, "min": ms[0], "max": ms[-1]}


def bind_shadowed_options(arg_names, args, options):
    """(positional values, keyword arguments, launch options) for `jit[grid](*positional, **args, **options)`.

    A kernel may name a parameter after a launch option (tutorial 02's and Liger's `num_stages: tl.constexpr`,
    `num_warps: tl.constexpr`). Triton reads its options from the launch's keywords, so a keyword binds the
    parameter and sets the option too, and passing it twice is a TypeError ("got multiple values"); passed
    by position, as `kernel[grid](..., num_stages, num_warps)` does, it binds the parameter only and the option
    keeps Triton's default. Where the parameter's value is the option tessel compiled with, the keyword says
    both. Where they differ (tessel's launch left the option at its default), the parameters up to the last
    such one go by position, so that Triton compiles with the options tessel did."""
    unshadowed = {k: v for k, v in options.items() if k not in args}
    differ = [k for k in options if k in args and args[k] != options[k]]
    last = max((arg_names.index(k) for k in differ), default=-1)
    if last < 0 or any(n not in args for n in arg_names[:last + 1]):
        return [], args, unshadowed
    positional = [args[n] for n in arg_names[:last + 1]]
    rest = {k: v for k, v in args.items() if k not in arg_names[:last + 1]}
    return positional, rest, unshadowed


def run_instance(torch, triton, np, batch, jit, heuristics, inst, iters, out):
    args, bases = {}, {}
    for name, spec in inst["args"].items():
        if name not in jit.arg_names:
            continue  # a spec value the kernel does not take (a size its grid used)
        if "dtype" in spec:
            bases[name], args[name] = make_tensor(torch, np, batch, spec)
            if spec.get("descriptor"):
                args[name] = host_descriptor(args[name], spec["descriptor"])
        else:
            args[name] = scalar(spec)
    for h in heuristics:
        for name, fill in h.values.items():
            if name not in args:
                args[name] = fill(dict(args))  # as Heuristics.run: every argument by name
    grid = tuple(inst["grid"])
    options = {"num_warps": inst["num_warps"], "num_stages": inst["num_stages"]}
    if inst.get("num_ctas", 1) != 1:
        options["num_ctas"] = inst["num_ctas"]
    positional, args, options = bind_shadowed_options(jit.arg_names, args, options)
    launch = lambda: jit[grid](*positional, **args, **options)  # noqa: E731
    with CapturedStderr() as err:  # the first launch compiles: MLIR and ptxas write their errors to fd 2
        try:
            kernel = launch()
            torch.cuda.synchronize()
        except Exception as e:  # noqa: BLE001 - re-raised with the compiler's own line when it has one
            detail = err.first_error()
            if detail and detail not in str(e):
                raise CompileFailure(f"{verdict(e)}: {detail}") from e
            raise
    meta = getattr(kernel, "metadata", None)
    out["shared"] = getattr(meta, "shared", None)
    out["n_regs"] = getattr(kernel, "n_regs", None)
    out["n_spills"] = getattr(kernel, "n_spills", None)
    out["outputs"] = {}
    for name, spec in inst["args"].items():
        if name in bases and spec.get("output"):
            file = f"out-{inst['id']}-{name}.npy"
            save_npy(np, torch, os.path.join(batch, file), bases[name], spec["dtype"])
            out["outputs"][name] = file
    out["ran"] = True
    if iters > 0:
        l2 = getattr(torch.cuda.get_device_properties(0), "L2_cache_size", 0)
        out["time"] = time_launch(torch, launch, iters, l2)


def run_torch(torch, np, batch, inst, expr, iters):
    """The directive's PyTorch expression on the instance's inputs, saved and timed (see the opening comment)."""
    out = {"ran": False, "error": None}
    names, first_output = {"torch": torch, "math": math}, None
    for name, spec in inst["args"].items():
        if "dtype" in spec:
            if spec.get("output"):
                first_output = first_output or (name, spec)
                continue
            value = make_tensor(torch, np, batch, spec)[1]
        else:
            value = scalar(spec)
        names[name] = value
        if name.endswith("_ptr"):
            names.setdefault(name[:-4], value)
    if first_output is None:
        out["error"] = "the launch has no output to compare PyTorch's result with"
        return out
    name, spec = first_output
    code = compile(expr, "<tessel: reference torch=>", "eval")
    result = eval(code, names)  # noqa: S307 - the user's own directive, as its file's code is run
    if isinstance(result, (tuple, list)):
        result = result[0]
    result = result.to(getattr(torch, TORCH_DTYPES[spec["dtype"]])).contiguous().reshape(-1)
    elements = math.prod(spec["shape"])
    if result.numel() != elements or spec["storage"] != elements:
        out["error"] = (f"PyTorch's result has {result.numel()} elements; output {name} has {elements}"
                        + ("" if spec["storage"] == elements else " in a strided layout"))
        return out
    file = f"torch-{inst['id']}.npy"
    save_npy(np, torch, os.path.join(batch, file), result, spec["dtype"])
    out.update({"ran": True, "name": name, "output": file})
    if iters > 0:
        l2 = getattr(torch.cuda.get_device_properties(0), "L2_cache_size", 0)
        out["time"] = time_launch(torch, lambda: eval(code, names), iters, l2)  # noqa: S307
    return out


def main():
    if len(sys.argv) != 2:
        print("usage: triton_runner.py BATCH_DIR", file=sys.stderr)
        return 2
    batch = sys.argv[1]
    results = Results(batch)
    with open(os.path.join(batch, "manifest.json")) as f:
        manifest = json.load(f)
    launch_triton = manifest.get("launch_triton", True)
    torch_expr = manifest.get("torch")
    env = import_environment(results, launch_triton)
    if env is None:
        return 0
    torch, triton = env
    import numpy as np
    jit, heuristics = None, []
    if launch_triton:
        module = load_module(manifest["file"], manifest.get("path", []), results)
        if module is None:
            return 0
        found = find_kernel(module, manifest["kernel"], triton, results)
        if found is None:
            return 0
        jit, heuristics = found
    broken = ""
    for inst in manifest["instances"]:
        out = {"id": inst["id"], "ran": False, "error": None}
        results.data["instances"].append(out)
        if broken:
            out["error"] = f"not run: an earlier instance left the GPU unusable ({broken})"
            results.save()
            continue
        started = time.time()
        try:
            if jit is not None:
                run_instance(torch, triton, np, batch, jit, heuristics, inst, manifest.get("iters", 0), out)
        except Exception as e:  # noqa: BLE001 - Triton's verdict on this instance, the next ones still run
            out["ran"] = False
            out["error"] = verdict(e)
            out["traceback"] = traceback.format_exc(limit=4)
            # A fault poisons the CUDA context: every later launch would fail with the same error.
            if "CUDA error" in str(e) or "Triton Error [CUDA]" in str(e) or type(e).__name__ == "AcceleratorError":
                broken = one_line(e)
        if torch_expr and not broken:
            try:
                out["torch"] = run_torch(torch, np, batch, inst, torch_expr, manifest.get("iters", 0))
            except Exception as e:  # noqa: BLE001 - the expression's own error, for this instance
                out["torch"] = {"ran": False, "error": f"{type(e).__name__}: {one_line(e)}"}
        out["seconds"] = round(time.time() - started, 3)
        results.save()
    results.save()
    return 0


if __name__ == "__main__":
    sys.exit(main())
