#!/usr/bin/env bash
#===- scripts/gpu_check.sh - tessel's GPU path on a machine with a GPU ----===#
# Runs, in one call, what only a GPU can show: the runtime's own tests, every
# tutorial sample through `tessel run --gpu` (the GPU's outputs against the
# interpreter's, instance by instance) and the TS304 sample, then times
# vector add at 2^26 fp32 with tessel and with the installed triton, and
# prints a short table last.
#
#   scripts/gpu_check.sh BIN_DIR [OUT_DIR]
#
# BIN_DIR holds `tessel` and `unit_runtime` (stripped) and, in lib/, the
# shared libraries they need that the GPU machine lacks (libtree-sitter,
# libmimalloc): scripts/gpu_bundle.sh makes it. Without a GPU every step
# says so in one line and the script exits 0.
#===-----------------------------------------------------------------------===#
set -u
BIN=${1:?usage: scripts/gpu_check.sh BIN_DIR [OUT_DIR]}
OUT=${2:-${OUT:-/tmp}}
export LD_LIBRARY_PATH="$BIN/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "gpu_check: no GPU on this machine; nothing to run"
  exit 0
fi
nvidia-smi -L

rows=()
"$BIN/unit_runtime" --gtest_brief=1 >"$OUT/unit_runtime.log" 2>&1
rows+=("unit_runtime|$(tail -1 "$OUT/unit_runtime.log")")

run() { # FILE KERNEL [extra args]: one `tessel run --gpu`, its verdict as a row (LABEL= names it)
  local f=$1 k=$2
  shift 2
  local label=${LABEL:-$k}
  local log="$OUT/run-$label.log"
  timeout 300 "$BIN/tessel" run "$f" --kernel "$k" --gpu "$@" >"$log" 2>&1
  local rc=$?
  local match diff gerr
  match=$(grep -c " match the interpreter" "$log")
  diff=$(grep -c " differ from the interpreter" "$log")
  gerr=$(grep -c "gpu: error" "$log")
  rows+=("$label|rc=$rc outputs-matching=$match differing=$diff gpu-errors=$gerr")
}
run samples/vector_add.py vector_add_kernel
run samples/fused_softmax.py fused_softmax_kernel
run samples/layer_norm.py layer_norm_fwd_kernel
run samples/dropout.py seeded_dropout_kernel
run samples/matmul.py matmul_kernel
run samples/attention.py attn_fwd_kernel
# tl.dot on tensor cores, every config: fp16 in, fp32 accumulate, fp16 out, against the interpreter
# (its fp32 sum in k order; tessel run's fp16 tolerance, 2e-3 relative, is one fp16 ulp and a half).
for c in 0 1 2 3 4; do
  LABEL=matmul_kernel-config-$c run samples/matmul.py matmul_kernel --config "$c"
done
LABEL=attn_fwd_kernel-config-1 run samples/attention.py attn_fwd_kernel --config 1
# The main loop in SASS (nvdisasm / cuobjdump: the CUDA toolkit's, else the triton wheel's).
TRITON_BIN=$(python3 -c 'import os, triton; print(os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin"))' 2>/dev/null)
for c in 0 1 2 3 4; do
  sass="$OUT/matmul-config-$c.sass"
  PATH="$PATH:$TRITON_BIN" timeout 300 "$BIN/tessel" compile samples/matmul.py --kernel matmul_kernel --config "$c" \
    --emit sass --no-cache >"$sass" 2>&1
  count() { grep -cE "$1" "$sass"; }
  rows+=("matmul config $c SASS|HMMA=$(count 'HMMA') LDSM=$(count 'LDSM') LDGSTS=$(count 'LDGSTS') STS=$(count '\bSTS') LDL=$(count '\bLDL') STL=$(count '\bSTL')")
done
if command -v ncu >/dev/null; then
  for c in 0 4; do
    ncu --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_pipe_tensor.sum \
      "$BIN/tessel" run samples/matmul.py --kernel matmul_kernel --config "$c" --gpu >"$OUT/ncu-matmul-$c.log" 2>&1
    rows+=("matmul config $c ncu|$(grep -E 'bank_conflicts|pipe_tensor' "$OUT/ncu-matmul-$c.log" | awk '{print $1"="$NF}' | sort -u | tr '\n' ' ')")
  done
fi
run samples/bugs/ts304_gpu_result_mismatch.py last_wins_kernel
run samples/bugs/ts304_gpu_result_mismatch.py own_block_kernel

# Vector add at 2^26 fp32, tessel then triton, same sizes.
N=67108864
timeout 300 "$BIN/tessel" run samples/vector_add.py --kernel vector_add_kernel --gpu --iters 50 \
  --spec "n_elements=$N x=fp32[n_elements] y=fp32[n_elements] out=fp32[n_elements]:out BLOCK_SIZE=1024 grid=(cdiv(n_elements, BLOCK_SIZE),) num_warps=4" \
  >"$OUT/bench-vector-add-tessel.log" 2>&1
rows+=("tessel vector add 2^26|$(grep -o 'median [^,]*\|[0-9.e+]* GB/s' "$OUT/bench-vector-add-tessel.log" | tr '\n' ' ')")
cat >"$OUT/bench_vector_add_triton.py" <<'EOF'
import torch, triton, triton.language as tl

@triton.jit
def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)

n = 1 << 26
x, y = torch.rand(n, device="cuda"), torch.rand(n, device="cuda")
out = torch.empty_like(x)
f = lambda: add[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024, num_warps=4)
ms = triton.testing.do_bench(f)
print(f"triton {triton.__version__}: median {ms:.4f} ms, {3 * n * 4 / ms / 1e6:.0f} GB/s")
EOF
python3 "$OUT/bench_vector_add_triton.py" >"$OUT/bench-vector-add-triton.log" 2>&1
rows+=("triton vector add 2^26|$(tail -1 "$OUT/bench-vector-add-triton.log")")

echo
echo "| check | result |"
echo "|:---|:---|"
for r in "${rows[@]}"; do echo "| ${r%%|*} | ${r#*|} |"; done
