#!/usr/bin/env bash
#===- bench/hopper/wgmma_chain_ab.sh - chained wgmma groups, on and off ---===#
# On a GPU machine: tutorial 06's forward (4x32x4096x64 fp16, host descriptors, BLOCK_M 64 and 128, BLOCK_N
# 64, causal and not, 3 stages) through `tessel run --gpu --triton`, alternately with TESSEL_WGMMA_CHAIN=1
# (the default: the last wgmma group of attention's loop in flight into the next iteration, as Triton) and 0
# (every dot waits for its own group), twice, so that each setting's time sits beside Triton's of the same
# process and the two settings beside each other on one machine. One line per instance.
#
#   bench/hopper/wgmma_chain_ab.sh BUNDLE TUTORIALS_DIR
#
# BUNDLE is scripts/gpu_bundle.sh's tessel-gpu.tar.xz; TUTORIALS_DIR holds Triton 3.6's python/tutorials.
#===-----------------------------------------------------------------------===#
set -u
BUNDLE=${1:?usage: wgmma_chain_ab.sh BUNDLE TUTORIALS_DIR}
TUT=${2:?usage: wgmma_chain_ab.sh BUNDLE TUTORIALS_DIR}
W=$(mktemp -d)
tar xJf "$BUNDLE" -C "$W"
T=$W/tessel-gpu/tessel
export TESSEL_CACHE_DIR=$W/cache
SPEC="Z=4 H=32 N_CTX=4096 HEAD_DIM=64 sm_scale=1.3 M=fp32[Z*H, N_CTX]:out"
for t in q k v o; do
  B=$([ $t = q ] || [ $t = o ] && echo "BLOCK_M, HEAD_DIM" || echo "BLOCK_N, HEAD_DIM")
  SPEC+=" desc_$t=fp16[Z*H*N_CTX, HEAD_DIM]:$([ $t = o ] && echo out || echo randn):desc($B)"
done
SPEC+=" FP8_OUTPUT=0 warp_specialize=0 IS_HOPPER=1 BLOCK_M=[64, 128] BLOCK_N=64 STAGE=[1, 3] num_warps=4"
SPEC+=" num_stages=3 grid=(cdiv(N_CTX, BLOCK_M), Z*H, 1)"
for round in 1 2; do
  for CH in 1 0; do
    TESSEL_WGMMA_CHAIN=$CH timeout 150 "$T" run "$TUT/06-fused-attention.py" --kernel _attn_fwd --spec "$SPEC" \
      --gpu --triton --no-reference --iters 30 --format=json >"$W/ab.json" 2>"$W/ab.err"
    python3 - "$W/ab.json" "$round" "$CH" <<'PY' || tail -3 "$W/ab.err"
import json, sys
r = json.load(open(sys.argv[1]))
for i in r["instances"]:
    g, t = i.get("gpu") or {}, i.get("triton") or {}
    tm, tt = (g.get("time") or {}).get("medianMillis"), (t.get("time") or {}).get("medianMillis")
    ratio = f"{tt / tm:.3f}" if tm and tt else "-"
    print(f"round {sys.argv[2]} chain={sys.argv[3]} {i.get('label')}: tessel {tm} ms, triton {tt} ms, "
          f"speed vs triton {ratio} {(g.get('error') or '')[:80]}")
PY
  done
done
rm -rf "$W"
