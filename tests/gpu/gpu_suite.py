#!/usr/bin/env python3
"""Everything of tessel's GPU path that only a GPU can show, in one call, with a short table last.

    python3 tests/gpu/gpu_suite.py BUNDLE [--out DIR] [--iters 50] [--skip-triton]

BUNDLE is scripts/gpu_bundle.sh's tessel-gpu.tar.xz (unpacked into --out), or a folder holding
`tessel`, `unit_runtime` and lib/ as that archive does: nothing is built on the GPU machine. Steps:

1. the runtime's own tests (unit_runtime: driver, faults, watchdog, timing, the peak kernels);
2. tests/gpu/load_cubins.py: every sample cubin of every config and instance loads, and the driver's
   register count is the report's;
3. every tutorial sample kernel, every autotune config and every instance of its launch directive
   through `tessel run --gpu --all-configs` (tessel's code on the GPU against its CPU interpreter;
   the fastest config per instance is named), and the TS304 sample (its racing kernel must differ, its
   twin must not);
4. every masking-bug sample kernel (samples/bugs/ts201, ts202, ts203, ts301) with `--gpu --sanitize`:
   the lines of the interpreter's TS301 findings against the lines compute-sanitizer names;
5. tests/gpu/dot_dtypes.py: tl.dot on tensor cores for fp32 (tf32, tf32x3, ieee), int8, fp8 and an
   fp16 out_dtype, each launch directive through `tessel run --gpu` against the interpreter
   (tolerances in that file); tests/gpu/tensor_descriptors.py the same way: host TensorDescriptors,
   copied by TMA on sm_90 (partial blocks, NaN padding, attention's rings); a matmul whose 393216 bytes of
   shared memory no GPU has, refused before the launch in Triton's words ("out of resource: shared memory,
   Required: 393216, Hardware limit: ...");
6. scripts/gpu_compare.py: vector add 2^26, softmax 4096x1000 and 4096x4096, layer norm 4096x4096,
   matmul 4096^3 fp16 and attention, tessel against triton 3.6, with % of the device's peak.
7. every sample with a CUDA C++ reference (`# tessel: reference`) through `tessel run --gpu --reference`:
   the reference's outputs against the interpreter's, and the gap (bench/reference/gap_table.py has the
   benchmark sizes and PyTorch).

Without a GPU it prints one line saying so and exits 0. Exit status 1 when a check fails. Logs and the
JSON reports go to --out (default $OUT, else /tmp/tessel-gpu-suite).
"""
import argparse
import ctypes
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

# The samples whose `# tessel: reference` directives name CUDA C++ references (samples/reference/).
REFERENCES = [("vector_add.py", "vector_add_kernel"), ("fused_softmax.py", "fused_softmax_kernel"),
              ("layer_norm.py", "layer_norm_fwd_kernel"), ("matmul.py", "matmul_kernel"),
              ("online_softmax.py", "online_softmax_kernel")]
TUTORIALS = ["vector_add", "fused_softmax", "layer_norm", "dropout", "matmul", "attention", "gather_histogram"]
MASKING_BUGS = ["ts201_unmasked_axis", "ts202_load_guarded_by_where", "ts203_out_of_bounds_lane",
                "ts301_out_of_bounds_access"]


def gpu_absent():
    """Why there is no GPU ("" when there is one)."""
    try:
        cu = ctypes.CDLL("libcuda.so.1")
    except OSError as e:
        return f"libcuda.so.1 cannot be loaded ({e})"
    if cu.cuInit(0) != 0:
        return "cuInit failed"
    n = ctypes.c_int()
    if cu.cuDeviceGetCount(ctypes.byref(n)) != 0 or n.value == 0:
        return "the driver reports no CUDA device"
    return ""


def directive_kernels(path):
    text = open(path).read()
    return [m.group(1) for m in re.finditer(r"^# tessel: launch.*?^def (\w+)\(", text, re.M | re.S)]


def tessel_json(binary, args, log):
    """(exit code, parsed JSON report or None, stderr) of one `tessel run ... --format=json`."""
    try:
        p = subprocess.run([binary, "run"] + args + ["--format=json"], capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return 124, None, "timed out after 600 s"
    with open(log, "w") as f:
        f.write(p.stdout + "\n--- stderr\n" + p.stderr)
    try:
        return p.returncode, json.loads(p.stdout), p.stderr
    except ValueError:
        return p.returncode, None, p.stderr


def last_line(text):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return lines[-1][:200] if lines else ""


class Suite:
    def __init__(self, bin_dir, out):
        self.tessel = os.path.join(bin_dir, "tessel")
        self.bin_dir, self.out = bin_dir, out
        self.rows, self.failed = [], 0

    def row(self, check, result, ok=True):
        self.rows.append((check, result, ok))
        self.failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {check}: {result}", flush=True)

    def unit_runtime(self):
        # One process per test, as ctest runs them: a sticky fault (the
        # illegal-address and watchdog tests) leaves that process's context
        # unusable by design, so the tests after it in one process would fail.
        exe = os.path.join(self.bin_dir, "unit_runtime")
        listing = subprocess.run([exe, "--gtest_list_tests"], capture_output=True, text=True, timeout=60).stdout
        tests, suite = [], ""
        for line in listing.splitlines():
            if not line.startswith(" ") and line.endswith("."):
                suite = line
            elif line.startswith("  ") and suite:
                tests.append(suite + line.split()[0])
        log = os.path.join(self.out, "unit_runtime.log")
        passed, skipped, failed, out = 0, 0, [], ""
        for t in tests:
            p = subprocess.run([exe, "--gtest_filter=" + t], capture_output=True, text=True, timeout=300)
            out += p.stdout + p.stderr
            if p.returncode != 0:
                failed.append(t)
            elif "[  SKIPPED ]" in p.stdout:
                skipped += 1
            else:
                passed += 1
        open(log, "w").write(out)
        peak = re.search(r"copy (\d+) GB/s, mma.sync fp16 ([0-9.]+) TFLOP/s, wgmma fp16 ([0-9.]+), fp8 ([0-9.]+)", out)
        extra = (f"; device peak: copy {peak.group(1)} GB/s, mma.sync fp16 {peak.group(2)}, wgmma fp16 "
                 f"{peak.group(3)}, wgmma fp8 {peak.group(4)} TFLOP/s" if peak else "")
        summary = f"{passed} passed, {skipped} skipped, {len(failed)} failed{': ' + ', '.join(failed) if failed else ''}"
        self.row("unit_runtime", summary + extra, not failed and passed > 0)

    def references(self):
        """Every sample with a CUDA reference (issue 32): its directive instances through `tessel run --gpu
        --reference`, the reference compiled in process by Clang; its outputs must match the interpreter's and
        both are timed (bench/reference/gap_table.py gives the benchmark sizes and PyTorch)."""
        for sample, kernel in REFERENCES:
            rc, j, err = tessel_json(self.tessel, [os.path.join(ROOT, "samples", sample), "--kernel", kernel,
                                                   "--gpu", "--reference", "--iters", "10"],
                                     os.path.join(self.out, f"reference-{kernel}.json"))
            if j is None:
                self.row(f"{kernel} beside its CUDA reference", f"exit {rc}: {last_line(err)}", False)
                continue
            run = j.get("cudaReference") or {}
            if run.get("error"):
                self.row(f"{kernel} beside its CUDA reference", run["error"], False)
                continue
            bad, gaps = [], []
            for i in j["instances"]:
                ref = i.get("cudaReference") or {}
                g = ref.get("gpu") or {}
                if ref.get("error") or g.get("error") or any(o.get("mismatches") for o in g.get("outputs", [])):
                    bad.append(i.get("label") or "-")
                if ref.get("gap"):
                    gaps.append(f"{ref['gap']:.2f}x")
            self.row(f"{kernel} beside its CUDA reference",
                     f"{len(j['instances'])} instances, outputs equal in {len(j['instances']) - len(bad)}"
                     + (f" (differ or failed: {', '.join(bad)})" if bad else "")
                     + (f"; Triton kernel at {', '.join(gaps)} the reference" if gaps else ""), not bad)

    def load_cubins(self):
        p = subprocess.run([sys.executable, os.path.join(ROOT, "tests/gpu/load_cubins.py"), "--tessel", self.tessel],
                           capture_output=True, text=True, timeout=900)
        open(os.path.join(self.out, "load_cubins.log"), "w").write(p.stdout + p.stderr)
        self.row("load_cubins.py", last_line(p.stdout), p.returncode == 0)

    def samples(self):
        files = [f"samples/{s}.py" for s in TUTORIALS] + ["samples/bugs/ts304_gpu_result_mismatch.py"]
        for rel in files:
            for kernel in directive_kernels(os.path.join(ROOT, rel)):
                rc, j, err = tessel_json(self.tessel, [os.path.join(ROOT, rel), "--kernel", kernel, "--gpu",
                                                       "--all-configs", "--iters", "10"],
                                         os.path.join(self.out, f"run-{kernel}.json"))
                if j is None:
                    self.row(f"{kernel} (all configs)", f"exit {rc}: {last_line(err)}", False)
                    continue
                insts = j["instances"]
                gpu_err = [i["gpu"]["error"] for i in insts if i.get("gpu") and i["gpu"].get("error")]
                no_gpu = [i for i in insts if not i.get("gpu")]
                differ = sum(1 for i in insts if i.get("gpu") and any(o["mismatches"] for o in i["gpu"]["outputs"]))
                configs = j.get("configsRun") or 1
                fastest = "; ".join(f"{f['label'] or 'fastest'}: config {f['config']}" for f in j.get("fastest", []))
                expect_differ = kernel == "last_wins_kernel"  # the TS304 sample's race
                ok = not gpu_err and not no_gpu and ((differ > 0) if expect_differ else differ == 0)
                result = (f"{configs} config(s) x {len(insts) // configs} instance(s): "
                          f"{len(insts) - differ - len(gpu_err) - len(no_gpu)} match the interpreter, {differ} differ"
                          f"{' (expected: a race)' if expect_differ else ''}, {len(gpu_err)} GPU errors"
                          f"{', ' + str(len(no_gpu)) + ' not run on the GPU' if no_gpu else ''}")
                if gpu_err:
                    result += f" (first: {gpu_err[0][:120]})"
                if fastest:
                    result += f"; fastest {fastest}"
                self.row(f"{kernel} (all configs)", result, ok)

    def dots(self):
        self.directives("tests/gpu/dot_dtypes.py")

    def descriptors(self):
        self.directives("tests/gpu/tensor_descriptors.py")

    def directives(self, rel):
        """Every directive instance of every kernel of rel against the interpreter."""
        for kernel in sorted(set(directive_kernels(os.path.join(ROOT, rel)))):
            rc, j, err = tessel_json(self.tessel, [os.path.join(ROOT, rel), "--kernel", kernel, "--gpu"],
                                     os.path.join(self.out, f"directive-{kernel}.json"))
            if j is None:
                self.row(f"{kernel} (every directive)", f"exit {rc}: {last_line(err)}", False)
                continue
            insts = j["instances"]
            gpu_err = [i["gpu"]["error"] for i in insts if i.get("gpu") and i["gpu"].get("error")]
            differ = [i for i in insts if i.get("gpu") and any(o["mismatches"] for o in i["gpu"]["outputs"])]
            rels = [o.get("maxRelError") or 0 for i in insts if i.get("gpu") for o in i["gpu"]["outputs"]]
            worst = max(rels, default=0)
            result = (f"{len(insts)} instance(s): {len(insts) - len(differ) - len(gpu_err)} match the interpreter, "
                      f"{len(differ)} differ, {len(gpu_err)} GPU errors; largest relative difference {worst:.2g}")
            if gpu_err:
                result += f" (first: {gpu_err[0][:120]})"
            self.row(f"{kernel} (every directive)", result, not gpu_err and not differ and len(insts) > 0)

    def masking(self):
        for name in MASKING_BUGS:
            rel = f"samples/bugs/{name}.py"
            for kernel in directive_kernels(os.path.join(ROOT, rel)):
                rc, j, err = tessel_json(self.tessel, [os.path.join(ROOT, rel), "--kernel", kernel, "--gpu",
                                                       "--sanitize"],
                                         os.path.join(self.out, f"sanitize-{kernel}.json"))
                if j is None:
                    self.row(f"{name}:{kernel} --sanitize", f"exit {rc}: {last_line(err)}", False)
                    continue
                interp, sanit, refused = set(), set(), ""
                for i in j["instances"]:
                    for d in i["diagnostics"]:
                        if d.get("code") == "TS301":
                            line = d["range"]["start"]["line"] + 1
                            (sanit if d["message"].startswith("compute-sanitizer:") else interp).add(line)
                    s = (i.get("gpu") or {}).get("sanitizer")
                    if s and not s["ran"]:
                        refused = s["error"]
                if refused:
                    self.row(f"{name}:{kernel} --sanitize", f"interpreter lines {sorted(interp)}; {refused}", False)
                    continue
                # compute-sanitizer stops a launch at its first invalid
                # access, so it names the first of the interpreter's lines
                # (a load's), not a later store's: its lines must be some of
                # the interpreter's, and it must find one where they do.
                ok = sanit <= interp and bool(sanit) == bool(interp)
                self.row(f"{name}:{kernel} --sanitize",
                         f"interpreter lines {sorted(interp) or 'none'}, compute-sanitizer lines "
                         f"{sorted(sanit) or 'none'}{'' if ok else '  DIFFERENT'}", ok)

    def limits(self):
        """A launch over the device's shared memory: refused before the driver sees it, in Triton's words."""
        spec = ("M=512 N=512 K=512 a=fp16[M, K] b=fp16[K, N] c=fp16[M, N]:out stride_am=K stride_ak=1 stride_bk=N "
                "stride_bn=1 stride_cm=N stride_cn=1 BLOCK_M=256 BLOCK_N=256 BLOCK_K=128 GROUP_M=8 ACTIVATION=\"\" "
                "num_warps=8 num_stages=3 grid=(cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N),)")
        rc, j, err = tessel_json(self.tessel, [os.path.join(ROOT, "samples/matmul.py"), "--kernel", "matmul_kernel",
                                               "--gpu", "--no-reference", "--spec", spec],
                                 os.path.join(self.out, "limits-matmul.json"))
        if j is None:
            self.row("shared memory over the device's", f"exit {rc}: {last_line(err)}", False)
            return
        errors = [(i.get("gpu") or {}).get("error") or "" for i in j["instances"]]
        ok = bool(errors) and all(e.startswith("out of resource: shared memory, Required: 393216, Hardware limit: ")
                                  for e in errors)
        self.row("shared memory over the device's", (errors or ["no instance"])[0][:140], ok)

    def compare(self, iters):
        import gpu_compare
        rows = gpu_compare.compare(self.tessel, iters, out_dir=self.out)
        table = gpu_compare.table(rows)
        open(os.path.join(self.out, "compare.md"), "w").write(table + "\n")
        for case, t, s in rows:
            self.failed += "error" in s and s["error"] == "mismatch"
        return table


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin_dir", help="tessel-gpu.tar.xz or its unpacked folder")
    ap.add_argument("--out", default=os.environ.get("OUT") or "/tmp/tessel-gpu-suite")
    ap.add_argument("--iters", type=int, default=50)
    ap.add_argument("--skip-triton", action="store_true", help="leave out step 5")
    a = ap.parse_args()
    why = gpu_absent()
    if why:
        print(f"gpu_suite: no GPU on this machine ({why}); nothing to run")
        return 0
    os.makedirs(a.out, exist_ok=True)
    if a.bin_dir.endswith(".tar.xz"):  # scripts/gpu_bundle.sh's archive: unpacked here, nothing built
        import tarfile
        with tarfile.open(a.bin_dir) as tar:
            try:
                tar.extractall(a.out, filter="data")  # Python 3.12: plain files only, inside a.out
            except TypeError:
                tar.extractall(a.out)
        a.bin_dir = os.path.join(a.out, "tessel-gpu")
    os.environ["LD_LIBRARY_PATH"] = os.path.join(os.path.abspath(a.bin_dir), "lib") + (
        ":" + os.environ["LD_LIBRARY_PATH"] if os.environ.get("LD_LIBRARY_PATH") else "")
    # The device's peak is measured once and cached: keep the cache with the logs.
    os.environ.setdefault("TESSEL_CACHE_DIR", os.path.join(a.out, "cache"))
    s = Suite(os.path.abspath(a.bin_dir), a.out)
    start = time.time()
    for step in (s.unit_runtime, s.load_cubins, s.samples, s.dots, s.descriptors, s.masking, s.limits,
                 s.references):
        t0 = time.time()
        try:
            step()
        except Exception as e:  # noqa: BLE001 - one step's failure must not hide the others
            s.row(step.__name__, f"{type(e).__name__}: {e}", False)
        print(f"  ({step.__name__}: {time.time() - t0:.0f} s)", flush=True)
    table = ""
    if not a.skip_triton:
        t0 = time.time()
        try:
            table = s.compare(a.iters)
        except Exception as e:  # noqa: BLE001
            s.row("gpu_compare", f"{type(e).__name__}: {e}", False)
        print(f"  (compare: {time.time() - t0:.0f} s)", flush=True)
    print(f"\n## tessel GPU suite: {len(s.rows)} checks, {s.failed} failed, {time.time() - start:.0f} s\n")
    print("| check | result |")
    print("|:---|:---|")
    for check, result, ok in s.rows:
        print(f"| {'' if ok else '**FAIL** '}{check} | {result} |")
    if table:
        print("\n" + table)
    return 1 if s.failed else 0


if __name__ == "__main__":
    sys.exit(main())
