#!/usr/bin/env python3
"""Loads every cubin `tessel compile --emit cubin` makes for the samples on a real GPU.

For each tutorial-class sample kernel and autotune config: compiles it with tessel for the local
GPU's architecture, loads the cubin through the CUDA driver (cuModuleLoadData), and compares the
driver's view of the kernel (CU_FUNC_ATTRIBUTE_NUM_REGS, LOCAL_SIZE_BYTES, MAX_THREADS_PER_BLOCK)
with `tessel compile --emit report`. Needs a GPU, its driver (libcuda.so.1) and a built tessel;
no triton. Prints one line per kernel and config and exits non-zero on any mismatch.

    python3 tests/gpu/load_cubins.py [--tessel build/tools/tessel] [--arch sm_90a]
"""
import argparse
import ctypes
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLES = ["vector_add", "fused_softmax", "layer_norm", "matmul", "dropout", "attention"]


def check(cu, rc, what):
    if rc != 0:
        raise RuntimeError(f"{what} failed with CUDA error {rc}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tessel", default=os.path.join(ROOT, "build/tools/tessel"))
    ap.add_argument("--arch", default=None, help="default: tessel's default (the local GPU's)")
    args = ap.parse_args()
    cu = ctypes.CDLL("libcuda.so.1")
    check(cu, cu.cuInit(0), "cuInit")
    dev = ctypes.c_int()
    check(cu, cu.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
    ctx = ctypes.c_void_p()
    check(cu, cu.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
    check(cu, cu.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    arch = ["--arch", args.arch] if args.arch else []
    bad = 0
    for name in SAMPLES:
        path = os.path.join(ROOT, "samples", name + ".py")
        kernels = [k for k in re.findall(r"^def (\w+_kernel)\(", open(path).read(), re.M)]
        for kernel in kernels:
            base = [args.tessel, "compile", path, "--kernel", kernel, "--no-cache"] + arch
            report = subprocess.run(base + ["--emit", "report", "--all-configs"], capture_output=True, text=True)
            if report.returncode != 0:
                print(f"{name}:{kernel}: tessel failed: {report.stderr.strip()}")
                bad += 1
                continue
            regs = [int(r) for r in re.findall(r"registers\s+(\d+)", report.stdout)]
            for config, want in enumerate(regs):
                with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
                    out = subprocess.run(base + ["--emit", "cubin", "--config", str(config), "-o", f.name],
                                         capture_output=True, text=True)
                    if out.returncode != 0:
                        # a kernel without autotune configs has no --config 1..
                        out = subprocess.run(base + ["--emit", "cubin", "-o", f.name], capture_output=True, text=True)
                    data = open(f.name, "rb").read()
                mod = ctypes.c_void_p()
                rc = cu.cuModuleLoadData(ctypes.byref(mod), data)
                if rc != 0:
                    print(f"{name}:{kernel} config {config}: cuModuleLoadData failed ({rc})")
                    bad += 1
                    continue
                fn = ctypes.c_void_p()
                check(cu, cu.cuModuleGetFunction(ctypes.byref(fn), mod, kernel.encode()), "cuModuleGetFunction")
                attrs = {}
                for attr, key in ((4, "regs"), (3, "local"), (0, "max_threads")):
                    v = ctypes.c_int()
                    check(cu, cu.cuFuncGetAttribute(ctypes.byref(v), attr, fn), "cuFuncGetAttribute")
                    attrs[key] = v.value
                ok = attrs["regs"] == want
                bad += not ok
                print(f"{name}:{kernel} config {config}: driver {attrs}, tessel registers {want}"
                      f"{'' if ok else '  MISMATCH'}")
                cu.cuModuleUnload(mod)
    print(f"{bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
