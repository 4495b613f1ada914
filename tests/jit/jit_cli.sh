#!/usr/bin/env bash
#===- tests/jit/jit_cli.sh - tessel check --jit and tessel compile --------===#
# Usage: jit_cli.sh TESSEL (run from the repository root). Needs the CUDA
# toolkit's ptxas or libnvJitLink.so (CI has ptxas); says so and passes
# without one. Each case prints one line; the script fails on the first
# mismatch with what was expected and what came.
#===-----------------------------------------------------------------------===#
set -uo pipefail
tessel=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TESSEL_CACHE_DIR=$tmp/cache

fail() { echo "jit_cli: FAIL: $*" >&2; exit 1; }
expect_in() { # NAME NEEDLE FILE
  grep -qF -- "$2" "$3" || { cat "$3" >&2; fail "$1: no '$2'"; }
}

if ! command -v ptxas >/dev/null && [[ ! -x /usr/local/cuda/bin/ptxas ]] && [[ -z ${CUDA_HOME:-} ]]; then
  echo "jit_cli: no CUDA toolkit; nothing to test"
  exit 0
fi

spill=samples/bugs/ts401_register_spill.py
"$tessel" check --jit --color=never $spill >"$tmp/first.txt" 2>&1
status=$?
[[ $status == 0 ]] || { cat "$tmp/first.txt" >&2; fail "check --jit exit status $status, expected 0 (warnings only)"; }
expect_in "check --jit" "warning: kernel normalize_kernel spills registers:" "$tmp/first.txt"
expect_in "check --jit" "[under BLOCK=16384, num_warps=1, num_stages=3]" "$tmp/first.txt"
expect_in "check --jit" "[TS401]" "$tmp/first.txt"
[[ $(grep -c "TS401" "$tmp/first.txt") == 1 ]] || fail "check --jit: one spill finding expected"
ls "$TESSEL_CACHE_DIR"/jit/*/*.tsj >/dev/null 2>&1 || fail "check --jit wrote no cache entry"
echo "jit_cli: check --jit flags the spilling config only"

"$tessel" check --jit --color=never $spill >"$tmp/second.txt" 2>&1
cmp -s "$tmp/first.txt" "$tmp/second.txt" || fail "a run from the JIT cache differs: $(diff "$tmp/first.txt" "$tmp/second.txt")"
for f in "$TESSEL_CACHE_DIR"/jit/*/*.tsj; do head -c 40 "$f" >"$f.cut" && mv "$f.cut" "$f"; done
"$tessel" check --jit --color=never $spill >"$tmp/third.txt" 2>&1
cmp -s "$tmp/first.txt" "$tmp/third.txt" || fail "truncated cache entries changed the findings"
echo "jit_cli: cached and corrupted-cache runs give the same findings"

# A full disk (RLIMIT_FSIZE with SIGXFSZ ignored: every write() past 1 KB fails as on a full disk, with
# no signal; the output goes through a pipe, which the limit does not cover): the compiles cannot write
# their temporary files nor the cache its entries. Each kernel's figures say so (TS403, never a crash
# or LLVM's "IO failure" abort), and the next run, with room, gives the first run's findings.
full=$tmp/full-cache
TESSEL_CACHE_DIR=$full bash -c 'trap "" XFSZ; ulimit -f 1; exec "$0" check --jit --color=never "$1"' "$tessel" $spill \
  2>&1 | cat >"$tmp/full.txt"
status=${PIPESTATUS[0]}
((status < 128)) || fail "check --jit on a full disk crashed (status $status)"
! grep -q "LLVM ERROR" "$tmp/full.txt" || fail "check --jit on a full disk aborted: $(cat "$tmp/full.txt")"
expect_in "full disk" "figures unavailable for sm_90a: tessel's own compile failed:" "$tmp/full.txt"
expect_in "full disk" "File too large [under BLOCK=16384, num_warps=1, num_stages=3] [TS403]" "$tmp/full.txt"
grep -qE "^[0-9]+ notes? in 1 file" "$tmp/full.txt" || fail "check --jit on a full disk printed no summary: $(tail -3 "$tmp/full.txt")"
[[ -z $(find "$full" -type f 2>/dev/null) ]] || fail "a full disk left files in the cache: $(find "$full" -type f)"
TESSEL_CACHE_DIR=$full "$tessel" check --jit --color=never $spill >"$tmp/after.txt" 2>&1
cmp -s "$tmp/first.txt" "$tmp/after.txt" || fail "the run after the full disk differs: $(diff "$tmp/first.txt" "$tmp/after.txt")"
echo "jit_cli: a full disk gives each kernel a TS403 saying so, and the next run recovers"

"$tessel" compile samples/vector_add.py --kernel vector_add_kernel --emit ptx --no-cache >"$tmp/add.ptx" 2>"$tmp/err.txt" \
  || { cat "$tmp/err.txt" >&2; fail "compile --emit ptx failed"; }
expect_in "--emit ptx" ".visible .entry vector_add_kernel(" "$tmp/add.ptx"
expect_in "--emit ptx" ".reqntid 128" "$tmp/add.ptx"
expect_in "--emit ptx" ".param .u64 .ptr .global .align 1 vector_add_kernel_param_0" "$tmp/add.ptx"
echo "jit_cli: --emit ptx has Triton's entry"

"$tessel" compile samples/vector_add.py --kernel vector_add_kernel --emit cubin --arch sm_80 --instance 1 -o "$tmp/add.cubin" \
  || fail "compile --emit cubin failed"
[[ $(head -c 4 "$tmp/add.cubin" | od -An -c | tr -d ' ') == '177ELF' ]] || fail "--emit cubin wrote no ELF file"
echo "jit_cli: --emit cubin writes an ELF file"

"$tessel" compile samples/matmul.py --kernel matmul_kernel --emit report --all-configs --no-cache >"$tmp/report.txt" 2>&1 \
  || { cat "$tmp/report.txt" >&2; fail "compile --emit report failed"; }
expect_in "--emit report" "registers" "$tmp/report.txt"
expect_in "--emit report" "occupancy" "$tmp/report.txt"
expect_in "--emit report" "config 1 [" "$tmp/report.txt"
# Where the dot runs, read from the PTX (sm_90a by default without a GPU: wgmma, as Triton on Hopper).
expect_in "--emit report" "the kernel's tl.dot runs on wgmma: its registers are near Triton's" "$tmp/report.txt"
echo "jit_cli: --emit report --all-configs prints every config"

# The developer options for GPU A/B comparisons (docs/codegen.md), from the same cache: the key covers them.
softmax="rows=4096 cols=4096 in=fp32[rows, cols] out=fp32[rows, cols]:out in_row_stride=cols out_row_stride=cols \
n_rows=rows n_cols=cols BLOCK_SIZE=4096 NUM_STAGES=2 grid=(528,) num_warps=8"
"$tessel" compile samples/fused_softmax.py --kernel fused_softmax_kernel --spec "$softmax" --emit ptx --arch sm_90 \
  >"$tmp/softmax.ptx" 2>"$tmp/err.txt" || { cat "$tmp/err.txt" >&2; fail "softmax --emit ptx failed"; }
expect_in "tl.range pipelined" "cp.async.cg.shared.global" "$tmp/softmax.ptx"
TESSEL_PIPELINE_TL_RANGE=0 "$tessel" compile samples/fused_softmax.py --kernel fused_softmax_kernel --spec "$softmax" \
  --emit ptx --arch sm_90 >"$tmp/softmax0.ptx" 2>"$tmp/err.txt" || { cat "$tmp/err.txt" >&2; fail "TESSEL_PIPELINE_TL_RANGE=0"; }
! grep -q "cp.async" "$tmp/softmax0.ptx" || fail "TESSEL_PIPELINE_TL_RANGE=0 still copies ahead (a stale cache entry?)"
expect_in "TESSEL_PIPELINE_TL_RANGE=0" "ld.global.v4.b32" "$tmp/softmax0.ptx"
for p in o3 none; do
  TESSEL_LLVM_PIPELINE=$p "$tessel" compile samples/fused_softmax.py --kernel fused_softmax_kernel --spec "$softmax" \
    --emit llvm --arch sm_90 >"$tmp/softmax.$p.ll" 2>"$tmp/err.txt" || { cat "$tmp/err.txt" >&2; fail "TESSEL_LLVM_PIPELINE=$p"; }
done
cmp -s "$tmp/softmax.o3.ll" "$tmp/softmax.none.ll" && fail "TESSEL_LLVM_PIPELINE=o3 and none gave the same module"
TESSEL_LLVM_PIPELINE=bogus "$tessel" compile samples/vector_add.py --kernel vector_add_kernel --emit ptx --no-cache \
  >"$tmp/bogus.txt" 2>&1 && fail "TESSEL_LLVM_PIPELINE=bogus compiled"
expect_in "TESSEL_LLVM_PIPELINE=bogus" "TESSEL_LLVM_PIPELINE=bogus: expected kernel, o3 or none" "$tmp/bogus.txt"
echo "jit_cli: TESSEL_PIPELINE_TL_RANGE and TESSEL_LLVM_PIPELINE change the code, through the cache too"

if ! command -v nvdisasm >/dev/null && ! command -v cuobjdump >/dev/null && [[ ! -x /usr/local/cuda/bin/nvdisasm ]]; then
  "$tessel" compile samples/vector_add.py --kernel vector_add_kernel --emit sass >"$tmp/sass.txt" 2>&1
  [[ $? == 2 ]] || fail "--emit sass without nvdisasm: exit status 2 expected"
  expect_in "--emit sass" "needs nvdisasm or cuobjdump" "$tmp/sass.txt"
  [[ $(wc -l <"$tmp/sass.txt") == 1 ]] || fail "--emit sass without nvdisasm: one line expected"
  echo "jit_cli: --emit sass without nvdisasm says so in one line"
fi
echo "jit_cli: all passed"
