#!/usr/bin/env bash
#===- scripts/gpu_matmul_sass.sh - what the matmul main loop compiles to ---===#
# On the GPU machine (it has the triton wheel's nvdisasm/cuobjdump, and ncu):
# counts, per autotune config of samples/matmul.py, the tensor-core and
# shared-memory instructions of tessel's SASS (HMMA, LDSM, LDGSTS, STS) and
# any local memory (LDL/STL); with ncu, the shared-memory bank conflicts and
# tensor-pipe instructions of configs 0 and 4; then tessel against triton 3.6
# on the fp16 matmul 4096^3 (scripts/gpu_compare.py --only matmul: every
# config, the fastest of each). One line per row at the end. With the cp.async
# pipeliner every config's main loop has LDGSTS (the operand copies) and no
# LDG of the operands; config 0 (128x128x64, 3 stages, 8 warps) has
# (128*64 + 64*128) * 2 / 16 / 256 = 8 LDGSTS per iteration, in the loop and
# twice in the prologue.
#
#   scripts/gpu_matmul_sass.sh BIN_DIR [OUT_DIR]
#===-----------------------------------------------------------------------===#
set -u
BIN=${1:?usage: scripts/gpu_matmul_sass.sh BIN_DIR [OUT_DIR]}
OUT=${2:-${OUT:-/tmp}}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export LD_LIBRARY_PATH="$BIN/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
TRITON_BIN=$(python3 -c 'import os, triton; print(os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin"))' 2>/dev/null)
rows=()
for c in 0 1 2 3 4; do
  sass="$OUT/matmul-config-$c.sass"
  PATH="$PATH:$TRITON_BIN" timeout 300 "$BIN/tessel" compile samples/matmul.py --kernel matmul_kernel --config "$c" \
    --emit sass --no-cache >"$sass" 2>&1
  count() { grep -cE "$1" "$sass"; }
  rows+=("matmul config $c SASS|HMMA=$(count 'HMMA') LDSM=$(count 'LDSM') LDGSTS=$(count 'LDGSTS') LDGDEPBAR=$(count 'LDGDEPBAR') DEPBAR=$(count 'DEPBAR') LDG=$(count '\bLDG\.') STS=$(count '\bSTS') LDL=$(count '\bLDL') STL=$(count '\bSTL')")
done
if command -v ncu >/dev/null; then
  for c in 0 4; do
    ncu --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_pipe_tensor.sum \
      "$BIN/tessel" run samples/matmul.py --kernel matmul_kernel --config "$c" --gpu >"$OUT/ncu-matmul-$c.log" 2>&1
    rows+=("matmul config $c ncu|$(grep -E 'bank_conflicts|pipe_tensor' "$OUT/ncu-matmul-$c.log" | awk '{print $1"="$NF}' | sort -u | tr '\n' ' ')")
  done
fi
timeout 1200 python3 scripts/gpu_compare.py "$BIN/tessel" --only matmul >"$OUT/gpu-compare-matmul.txt" 2>&1
rows+=("matmul 4096^3 tessel vs triton 3.6|$(grep -E 'matmul' "$OUT/gpu-compare-matmul.txt" | tail -1 | tr -s ' ')")
printf '%s\n' "${rows[@]}" | sed 's/|/: /'  # no column(1) on the GPU machine
