#!/usr/bin/env python3
"""A stand-in for python3 + tools/triton_runner.py, for tests of tessel's side of `--triton` only.

Set as TESSEL_PYTHON, it is started as `fake_triton_runner.py RUNNER BATCH_DIR` and answers for
samples/vector_add.py's vector_add_kernel the way the real runner would, without torch or a GPU:
instance 0 with the right sum, instance 1 with one element off by 1.0 (tessel must report it as
differing), instance 2 refused with Triton's out-of-resource verdict. It tests the reading, comparing
and printing of a runner's results, never Triton: tests/gpu/triton_bridge.py does that on a GPU.
"""
import json
import os
import struct
import sys


def read_npy(path):
    data = open(path, "rb").read()
    assert data[:6] == b"\x93NUMPY", path
    n = struct.unpack("<H", data[8:10])[0]
    header = data[10:10 + n].decode("latin1")
    assert "'<f4'" in header, header
    body = data[10 + n:]
    return list(struct.unpack(f"<{len(body) // 4}f", body))


def write_npy(path, values):
    d = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % len(values)
    d += " " * ((64 - (10 + len(d) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(d)) + d.encode("latin1"))
        f.write(struct.pack(f"<{len(values)}f", *values))


def main():
    batch = sys.argv[2]
    manifest = json.load(open(os.path.join(batch, "manifest.json")))
    assert os.path.basename(sys.argv[1]) == "triton_runner.py"
    assert manifest["kernel"] == "vector_add_kernel"
    results = {"triton": "3.6.0-fake", "torch": "none", "device": "no device (a fake runner)", "fatal": None,
               "notes": ["vector_add.py:40: the statement raised NameError: name 'x' is not defined"],
               "instances": []}
    for inst in manifest["instances"]:
        i, args = inst["id"], inst["args"]
        out = {"id": i, "ran": True, "error": None, "shared": 0, "n_regs": 26, "n_spills": 0}
        if i == 2:
            out = {"id": i, "ran": False, "shared": None, "n_regs": None, "n_spills": None,
                   "error": "out of resource: shared memory, Required: 262144, Hardware limit: 232448"}
        else:
            x = read_npy(os.path.join(batch, args["x_ptr"]["tensor"]))
            y = read_npy(os.path.join(batch, args["y_ptr"]["tensor"]))
            s = [a + b for a, b in zip(x, y)][:args["out_ptr"]["storage"]]
            if i == 1:
                s[7] += 1.0
            write_npy(os.path.join(batch, f"out-{i}-out_ptr.npy"), s)
            out["outputs"] = {"out_ptr": f"out-{i}-out_ptr.npy"}
            if manifest["iters"]:
                out["time"] = {"runs": manifest["iters"], "median": 0.0042, "min": 0.004, "max": 0.005}
        results["instances"].append(out)
    json.dump(results, open(os.path.join(batch, "results.json"), "w"))


if __name__ == "__main__":
    main()
