#!/usr/bin/env python3
"""Loads every cubin `tessel compile --emit cubin` makes for the samples on a real GPU.

For each tutorial-class sample kernel, autotune config and instance of its `# tessel: launch`
directive: compiles it with tessel for the local GPU's architecture, loads the cubin through the CUDA
driver (cuModuleLoadData), and compares the driver's view of the kernel (CU_FUNC_ATTRIBUTE_NUM_REGS,
LOCAL_SIZE_BYTES, MAX_THREADS_PER_BLOCK) with `tessel compile --emit report` of the same config and
instance. A launch with several instances (attention's CAUSAL=[False, True], matmul's sizes) compiles
to several kernels per config; `--instance N` picks one, so each is checked on its own. Needs a GPU,
its driver (libcuda.so.1) and a built tessel; no triton. Prints one line per kernel, config and
instance, and exits non-zero on any mismatch. Without a GPU it says so in one line and exits 0.

    python3 tests/gpu/load_cubins.py [--tessel build/tools/tessel] [--arch sm_90a] [-j 8]
"""
import argparse
import concurrent.futures
import ctypes
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLES = ["vector_add", "fused_softmax", "layer_norm", "matmul", "dropout", "attention"]


def check(rc, what):
    if rc != 0:
        raise RuntimeError(f"{what} failed with CUDA error {rc}")


def kernels_of(path):
    """The @triton.jit functions a sample's directives launch (each `def` after a `# tessel: launch`)."""
    text = open(path).read()
    out = []
    for m in re.finditer(r"^# tessel: launch.*?^def (\w+)\(", text, re.M | re.S):
        out.append(m.group(1))
    return out


def compile_one(base, config, instance, out_path):
    """(rc, report text, stderr) of one config and instance, the cubin written to out_path."""
    sel = (["--config", str(config)] if config is not None else []) + ["--instance", str(instance)]
    rep = subprocess.run(base + ["--emit", "report"] + sel, capture_output=True, text=True, timeout=600)
    if rep.returncode != 0:
        return rep.returncode, "", rep.stderr
    cub = subprocess.run(base + ["--emit", "cubin", "-o", out_path] + sel, capture_output=True, text=True,
                         timeout=600)
    return cub.returncode, rep.stdout, cub.stderr


def count(base, flag):
    """How many configs (flag --config) or instances (--instance) the kernel has: tessel's usage error names it."""
    probe = subprocess.run(base + ["--emit", "tir", flag, "999999"], capture_output=True, text=True, timeout=600)
    m = re.search(r"the launch has (\d+) instance", probe.stderr)
    if flag == "--instance":
        return int(m.group(1)) if m else 1
    m = re.search(r"has (\d+) autotune config", probe.stderr)
    return int(m.group(1)) if m else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tessel", default=os.path.join(ROOT, "build/tools/tessel"))
    ap.add_argument("--arch", default=None, help="default: tessel's default (the local GPU's)")
    ap.add_argument("-j", type=int, default=min(8, os.cpu_count() or 1))
    args = ap.parse_args()
    try:
        cu = ctypes.CDLL("libcuda.so.1")
        check(cu.cuInit(0), "cuInit")
    except (OSError, RuntimeError) as e:
        print(f"load_cubins: no GPU here ({e}); nothing to check")
        return 0
    dev = ctypes.c_int()
    check(cu.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
    ctx = ctypes.c_void_p()
    check(cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
    check(cu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    arch = ["--arch", args.arch] if args.arch else []
    jobs = []
    for name in SAMPLES:
        path = os.path.join(ROOT, "samples", name + ".py")
        for kernel in kernels_of(path):
            base = [args.tessel, "compile", path, "--kernel", kernel] + arch
            configs = count(base, "--config")
            instances = count(base + (["--config", "0"] if configs else []), "--instance")
            for config in (range(configs) if configs else [None]):
                for instance in range(instances):
                    jobs.append((name, kernel, base, config, instance))
    tmp = tempfile.mkdtemp(prefix="tessel-load-cubins-")
    bad = 0
    with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
        futures = [pool.submit(compile_one, base, config, instance,
                               os.path.join(tmp, f"{kernel}-{config}-{instance}.cubin"))
                   for name, kernel, base, config, instance in jobs]
        for (name, kernel, base, config, instance), fut in zip(jobs, futures):
            what = f"{name}:{kernel} config {config if config is not None else '-'} instance {instance}"
            rc, report, err = fut.result()
            if rc != 0:
                print(f"{what}: tessel failed: {err.strip()}")
                bad += 1
                continue
            want = re.findall(r"registers\s+(\d+)", report)
            if len(want) != 1:
                print(f"{what}: the report names {len(want)} kernels, not 1")
                bad += 1
                continue
            data = open(os.path.join(tmp, f"{kernel}-{config}-{instance}.cubin"), "rb").read()
            mod = ctypes.c_void_p()
            rc = cu.cuModuleLoadData(ctypes.byref(mod), data)
            if rc != 0:
                print(f"{what}: cuModuleLoadData failed ({rc})")
                bad += 1
                continue
            fn = ctypes.c_void_p()
            check(cu.cuModuleGetFunction(ctypes.byref(fn), mod, kernel.encode()), "cuModuleGetFunction")
            attrs = {}
            for attr, key in ((4, "regs"), (3, "local"), (0, "max_threads")):
                v = ctypes.c_int()
                check(cu.cuFuncGetAttribute(ctypes.byref(v), attr, fn), "cuFuncGetAttribute")
                attrs[key] = v.value
            ok = attrs["regs"] == int(want[0])
            bad += not ok
            print(f"{what}: driver {attrs}, tessel registers {want[0]}{'' if ok else '  MISMATCH'}")
            cu.cuModuleUnload(mod)
    print(f"{len(jobs)} kernels checked, {bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
