#!/usr/bin/env bash
#===- scripts/gpu_matmul_sass.sh - what the matmul main loop compiles to ---===#
# On the GPU machine (it has the triton wheel's nvdisasm/cuobjdump, and ncu):
# counts, per autotune config of samples/matmul.py, the tensor-core and
# shared-memory instructions of tessel's SASS (HMMA, LDSM, LDGSTS, STS) and
# any local memory (LDL/STL); with ncu, the shared-memory bank conflicts and
# tensor-pipe instructions of configs 0 and 4. One line per row at the end.
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
  rows+=("matmul config $c SASS|HMMA=$(count 'HMMA') LDSM=$(count 'LDSM') LDGSTS=$(count 'LDGSTS') STS=$(count '\bSTS') LDL=$(count '\bLDL') STL=$(count '\bSTL')")
done
if command -v ncu >/dev/null; then
  for c in 0 4; do
    ncu --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_pipe_tensor.sum \
      "$BIN/tessel" run samples/matmul.py --kernel matmul_kernel --config "$c" --gpu >"$OUT/ncu-matmul-$c.log" 2>&1
    rows+=("matmul config $c ncu|$(grep -E 'bank_conflicts|pipe_tensor' "$OUT/ncu-matmul-$c.log" | awk '{print $1"="$NF}' | sort -u | tr '\n' ' ')")
  done
fi
printf '%s\n' "${rows[@]}" | column -t -s '|'
