#!/usr/bin/env python3
"""Ask the real Triton 3.6 what it does with the constructs issue 9's false-alarm work had to decide.

Each case below is a small kernel file (written to a temporary folder) with what tessel now reports
for it: `ok` (nothing) or the message tessel gives. The script compiles every case with the real
triton through scripts/triton_oracle.py's machinery (`# oracle:` comments give the specializations)
and prints one line per case: Triton's verdict, tessel's, and whether they agree. Run it on a GPU
machine with triton 3.6.0 installed (the front end needs no GPU, but the backend's target does):

    python3 scripts/triton_verdicts.py [--arch 90] [--only NAME]

A disagreement means tessel's rule (named in the case's `why`) is wrong: fix the rule, not the case.
"""
import argparse
import importlib.util
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

HEADER = "import math\nimport triton\nimport triton.language as tl\n\n"

# (name, tessel's verdict: "ok" or the start of tessel's message, why tessel says so, source)
CASES = [
    ("global-constexpr-instance-annotated", "ok",
     "_is_constexpr_global looks at the value: a tl.constexpr instance, the annotation is ignored",
     """
MODE: tl.constexpr = tl.constexpr(1)

# oracle: x_ptr=*fp32
@triton.jit
def k(x_ptr):
    if MODE == 1:
        tl.store(x_ptr, 1.0)
"""),
    ("global-annotated-float", "Cannot access global variable EPS",
     "an annotation alone does not make a global constexpr in 3.6 (the error message says so)",
     """
EPS: tl.constexpr = 1e-12

# oracle: x_ptr=*fp32
@triton.jit
def k(x_ptr):
    tl.store(x_ptr, tl.load(x_ptr) + EPS)
"""),
    ("global-plain-float", "Cannot access global variable S",
     "a plain float global is not a constexpr",
     """
S = math.sqrt(2.0)

# oracle: x_ptr=*fp32
@triton.jit
def k(x_ptr):
    tl.store(x_ptr, tl.load(x_ptr) / S)
"""),
    ("global-alias-in-try", "ok",
     "a module attribute bound in try/except is a triton.language function: allowed",
     """
try:
    _exp = tl.exp
except Exception:
    _exp = None

# oracle: x_ptr=*fp32
@triton.jit
def k(x_ptr):
    tl.store(x_ptr, _exp(tl.load(x_ptr)))
"""),
    ("math-pi-in-kernel", "ok",
     "the math module is an allowed global and math.pi a float constexpr",
     """
# oracle: x_ptr=*fp32
@triton.jit
def k(x_ptr):
    pi = math.pi
    x = tl.load(x_ptr)
    tl.store(x_ptr, tl.where(x >= 0.0, 0.0, pi) + x)
"""),
    ("tl-math-pow", "module 'triton.language.math' has no attribute 'pow'",
     "3.6's math.py has no pow (it is in tl.extra.cuda.libdevice); kernl's code is Triton 2.1",
     """
# oracle: x_ptr=*fp32
@triton.jit
def k(x_ptr):
    tl.store(x_ptr, tl.math.pow(tl.load(x_ptr), 2.0))
"""),
    ("tl-core-get-int-dtype", "ok",
     "core.py has get_int_dtype (standard.py's sort uses it); tessel is silent on unknown core members",
     """
# oracle: x_ptr=*fp32
@triton.jit
def k(x_ptr):
    idtype: tl.constexpr = tl.core.get_int_dtype(bitwidth=32, signed=True)
    x = tl.load(x_ptr)
    tl.store(x_ptr, x.to(idtype, bitcast=True).to(tl.float32))
"""),
    ("tl-core-constexpr-0", "ok",
     "core.py has CONSTEXPR_0",
     """
# oracle: x_ptr=*fp32
@triton.jit
def k(x_ptr):
    tl.store(x_ptr + tl.core.CONSTEXPR_0, 1.0)
"""),
    ("tl-standard-log2", "ok",
     "standard.py has _log2",
     """
# oracle: x_ptr=*fp32
@triton.jit
def k(x_ptr):
    n: tl.constexpr = tl.standard._log2(8)
    tl.store(x_ptr + n, 1.0)
"""),
    ("tl-experimental-descriptor-load", "module 'triton.language' has no attribute '_experimental_descriptor_load'",
     "removed before 3.6 (tensor descriptors replaced it)",
     """
# oracle: x_ptr=*fp32
@triton.jit
def k(x_ptr):
    x = tl._experimental_descriptor_load(x_ptr, [0, 0], [16, 16], tl.float32)
"""),
    ("tl-experimental-make-tensor-descriptor", "module 'triton.language' has no attribute "
     "'_experimental_make_tensor_descriptor'",
     "tessel lists make_tensor_descriptor only; was the experimental alias kept in 3.6?",
     """
# oracle: x_ptr=*fp32
@triton.jit
def k(x_ptr):
    d = tl._experimental_make_tensor_descriptor(x_ptr, shape=[16, 16], strides=[16, 1], block_shape=[16, 16])
"""),
    ("tl-libdevice", "module 'triton.language' has no attribute 'libdevice'",
     "Triton 2 had tl.libdevice; 3.x has tl.extra.cuda.libdevice",
     """
# oracle: x_ptr=*fp32
@triton.jit
def k(x_ptr):
    tl.store(x_ptr, tl.libdevice.erf(tl.load(x_ptr)))
"""),
    ("raise-in-dead-constexpr-branch", "ok",
     "visit_If on a constexpr condition visits only the taken arm",
     """
# oracle: x_ptr=*fp32, MODE=1
@triton.jit
def k(x_ptr, MODE: tl.constexpr):
    if MODE == 1:
        tl.store(x_ptr, 1.0)
    else:
        raise ValueError("unknown mode")
"""),
    ("raise-taken", "unsupported AST node type: Raise",
     "there is no visit_Raise",
     """
# oracle: x_ptr=*fp32, MODE=2
@triton.jit
def k(x_ptr, MODE: tl.constexpr):
    if MODE == 1:
        tl.store(x_ptr, 1.0)
    else:
        raise ValueError("unknown mode")


def launch(x):  # tells tessel the specialization the oracle comment gives Triton
    k[(1,)](x, MODE=2)
"""),
    ("dtype-predicate-arms", "ok",
     "x.dtype.is_fp64() is a constexpr: only the fp32 arm is compiled for *fp32",
     """
# oracle: x_ptr=*fp32
@triton.jit
def k(x_ptr):
    x = tl.load(x_ptr)
    if x.dtype.is_fp64():
        y = x.to(tl.int64, bitcast=True) & 0x7FF0000000000000
    else:
        y = x.to(tl.int32, bitcast=True) & 0x7F800000
    tl.store(x_ptr, y.to(tl.float32))
"""),
    ("int8-and-0x80", "Scalar 128 is out of range for type int8",
     "binary_op_type_checking_impl checks a Python int against the computation type",
     """
# oracle: x_ptr=*i8
@triton.jit
def k(x_ptr):
    q = tl.load(x_ptr + tl.arange(0, 16)).to(tl.int8)
    tl.store(x_ptr + tl.arange(0, 16), (q & 0x80) >> 4)
"""),
    ("pointer-on-the-right", "ok",
     "add allows a pointer on either side (offset + ptr)",
     """
# oracle: x_ptr=*fp32
@triton.jit
def k(x_ptr):
    pid = tl.program_id(0)
    tl.store(pid + x_ptr, 1.0)
"""),
    ("tuple-unpack-fewer-targets", "ok",
     "assignTarget binds tuple targets by position (extra values are ignored)",
     """
# oracle: x_ptr=*fp32
@triton.jit
def k(x_ptr):
    a, b = 1, 2, 3
    tl.store(x_ptr + a, 1.0 * b)
"""),
    ("constexpr-tuple-index", "ok",
     "indexing a constexpr tuple with a constexpr int is plain Python",
     """
SHAPE: tl.constexpr = tl.constexpr((16, 32))

# oracle: x_ptr=*fp32
@triton.jit
def k(x_ptr):
    offs = tl.arange(0, SHAPE[0])
    tl.store(x_ptr + offs, 1.0)
"""),
    ("setitem", "__setitem__ is not supported in triton",
     "tensors are immutable values",
     """
# oracle: x_ptr=*fp32
@triton.jit
def k(x_ptr):
    x = tl.zeros([16], dtype=tl.float32)
    x[0] = 1.0
    tl.store(x_ptr + tl.arange(0, 16), x)
"""),
    ("dot-trans-b", "dot() got an unexpected keyword argument 'trans_b'",
     "Triton 2.0's transposition keywords left tl.dot in 2.1 (flash-attention's flash_attn_triton.py)",
     """
# oracle: a_ptr=*fp16 b_ptr=*fp16 o_ptr=*fp32
@triton.jit
def k(a_ptr, b_ptr, o_ptr):
    r = tl.arange(0, 16)
    a = tl.load(a_ptr + r[:, None] * 16 + r[None, :])
    b = tl.load(b_ptr + r[:, None] * 16 + r[None, :])
    tl.store(o_ptr + r[:, None] * 16 + r[None, :], tl.dot(a, b, trans_b=True))
"""),
    ("dtype-called-as-cast", "ok",
     "Liger-Kernel's softmax starts its running max and sum as `tl.float32(-float(\"inf\"))`; Triton 3.6's tl.dtype "
     "defines no __call__ in core.py, so whether the code generator accepts it is what this case asks",
     """
# oracle: x_ptr=*fp32, n=i32, BLOCK=128
@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    m = tl.float32(-float("inf"))
    d = tl.float32(0.0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    m = tl.maximum(m, tl.max(x, axis=0))
    tl.store(x_ptr, m + d)
"""),
]


def load_oracle():
    spec = importlib.util.spec_from_file_location("triton_oracle", os.path.join(HERE, "triton_oracle.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--arch", type=int, default=None)
    ap.add_argument("--only", default=None)
    a = ap.parse_args()
    oracle = load_oracle()
    triton, JITFunction, Autotuner, Heuristics = oracle.import_triton()
    target = None
    if a.arch is not None:
        from triton.backends.compiler import GPUTarget
        target = GPUTarget("cuda", a.arch, 32)
    print(f"triton {triton.__version__}")
    tmp = tempfile.mkdtemp(prefix="tessel-verdicts-")
    disagree = 0
    for name, tessel, why, src in CASES:
        if a.only and a.only not in name:
            continue
        path = os.path.join(tmp, name.replace("-", "_") + ".py")
        with open(path, "w") as f:
            f.write(HEADER + src.lstrip("\n"))
        records = []
        oracle.run_file(path, triton, JITFunction, Autotuner, Heuristics, target, records, False)
        got = "ok" if records and all(r["status"] == "ok" for r in records) else \
            "; ".join(f"{r['status']}: {r['message']}" for r in records if r["status"] != "ok") or "no kernel"
        agree = (tessel == "ok" and got == "ok") or (tessel != "ok" and tessel in got)
        disagree += not agree
        print(f"{'AGREE' if agree else 'DISAGREE'}\t{name}\ttriton: {got}\ttessel: {tessel}\t({why})")
    print(f"{disagree} disagreement(s)")
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
