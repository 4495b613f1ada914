"""Triton's shared memory for layout conversions, with the layouts of every convert_layout (issue 29).

Run on a GPU machine with torch and triton: `python3 bench/hopper/conversion_probe.py`; it compiles and runs
the kernels of conversion_kernels.py (a dot's result stored after one stage, a tile stored transposed) and the
matmul sample under the oracle's specialization, checks their outputs against torch, and prints each
compile's `metadata.shared`, `n_regs` and the source and destination layouts of its conversions
(and writes them to $OUT/cvt_probe.json). tests/unit/codegen/ConversionScratchTest.cpp pins the figures.
"""
import os, re, sys, json
import torch, triton
sys.path.insert(0, os.path.dirname(__file__))
import conversion_kernels as K

out = os.environ.get("OUT", "/tmp")
rows = []

def ttgir_cvts(k):
    ir = k.asm["ttgir"]
    defs = dict(re.findall(r"^(#\w+) = (#ttg\.[^\n]*)$", ir, re.M))
    cvts = []
    for m in re.finditer(r"ttg\.convert_layout %\S+ : tensor<([^,]+), (#\w+)> -> tensor<[^,]+, (#\w+)>", ir):
        cvts.append((m.group(1), defs.get(m.group(2), m.group(2)), defs.get(m.group(3), m.group(3))))
    return cvts, ir

def record(name, spec, k):
    cvts, ir = ttgir_cvts(k)
    rows.append({"name": name, "spec": spec, "shared": k.metadata.shared, "n_regs": k.n_regs, "cvts": cvts})

dev = "cuda"
for (bm, bn, bk, w, f32) in [(128, 256, 16, 4, 0), (128, 256, 16, 8, 0), (64, 256, 16, 4, 0), (128, 128, 16, 4, 0),
                             (128, 128, 16, 4, 1), (256, 128, 16, 8, 0), (64, 128, 16, 4, 1), (128, 64, 16, 4, 0),
                             (64, 64, 16, 4, 0), (128, 128, 32, 8, 1), (64, 256, 32, 4, 1), (256, 64, 16, 8, 0)]:
    M, N, Kd = bm * 2, bn * 2, 64
    a = torch.randn(M, Kd, device=dev, dtype=torch.float16)
    b = torch.randn(Kd, N, device=dev, dtype=torch.float16)
    c = torch.empty(M, N, device=dev, dtype=torch.float32 if f32 else torch.float16)
    k = K.dot_store[(2, 2)](a, b, c, M, N, Kd, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                            c.stride(1), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, OUT_F32=f32, num_warps=w, num_stages=1)
    record("dot_store", f"BLOCK_M={bm} BLOCK_N={bn} BLOCK_K={bk} OUT_F32={f32} num_warps={w} num_stages=1", k)
    ref = (a.float() @ b.float())
    assert torch.allclose(c.float(), ref, atol=1e-1, rtol=1e-2), "dot_store wrong"
for (bm, bn, w, dt) in [(64, 64, 4, torch.float32), (128, 64, 4, torch.float16), (64, 128, 8, torch.float16),
                        (32, 128, 4, torch.float32), (128, 128, 8, torch.float32), (64, 64, 4, torch.int8)]:
    x = (torch.randn(bm, bn, device=dev) * 10).to(dt)
    y = torch.empty(bn, bm, device=dev, dtype=dt)
    k = K.transpose_copy[(1,)](x, y, x.stride(0), y.stride(0), BLOCK_M=bm, BLOCK_N=bn, num_warps=w)
    record("transpose_copy", f"BLOCK_M={bm} BLOCK_N={bn} dtype={str(dt).split('.')[1]} num_warps={w}", k)
    assert torch.equal(y, x.t()), "transpose wrong"

# The sample matmul under the oracle's specialization (no divisibility, nothing equal to 1).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "samples"))
import matmul as S
from triton.compiler import ASTSource
fn = S.matmul_kernel.fn if hasattr(S.matmul_kernel, "fn") else S.matmul_kernel
sig = {n: ("*fp16" if "ptr" in n else "i32") for n in ["a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_ak",
                                                       "stride_bk", "stride_bn", "stride_cm", "stride_cn"]}
for (bm, bn, bk, w, st) in [(128, 64, 32, 4, 4), (64, 128, 32, 4, 4), (64, 64, 64, 4, 3), (128, 128, 64, 8, 3)]:
    s = dict(sig)
    for n in ["BLOCK_M", "BLOCK_N", "BLOCK_K", "GROUP_M", "ACTIVATION"]:
        s[n] = "constexpr"
    names = list(s)
    consts = {(names.index("BLOCK_M"),): bm, (names.index("BLOCK_N"),): bn, (names.index("BLOCK_K"),): bk,
              (names.index("GROUP_M"),): 8, (names.index("ACTIVATION"),): ""}
    k = triton.compile(ASTSource(fn=fn, signature=s, constexprs=consts), options={"num_warps": w, "num_stages": st})
    k._init_handles()
    record("sample_matmul_oracle", f"BLOCK_M={bm} BLOCK_N={bn} BLOCK_K={bk} num_warps={w} num_stages={st}", k)

with open(os.path.join(out, "cvt_probe.json"), "w") as f:
    json.dump(rows, f, indent=1)
for r in rows:
    print(f"{r['name']} [{r['spec']}] shared={r['shared']} n_regs={r['n_regs']}")
    for t, s, d in r["cvts"]:
        print(f"   cvt {t}: {s}  ->  {d}")
