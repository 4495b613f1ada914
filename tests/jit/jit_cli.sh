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
ls "$TESSEL_CACHE_DIR"/*/*.tsj >/dev/null 2>&1 || fail "check --jit wrote no cache entry"
echo "jit_cli: check --jit flags the spilling config only"

"$tessel" check --jit --color=never $spill >"$tmp/second.txt" 2>&1
cmp -s "$tmp/first.txt" "$tmp/second.txt" || fail "a run from the JIT cache differs: $(diff "$tmp/first.txt" "$tmp/second.txt")"
for f in "$TESSEL_CACHE_DIR"/*/*.tsj; do head -c 40 "$f" >"$f.cut" && mv "$f.cut" "$f"; done
"$tessel" check --jit --color=never $spill >"$tmp/third.txt" 2>&1
cmp -s "$tmp/first.txt" "$tmp/third.txt" || fail "truncated cache entries changed the findings"
echo "jit_cli: cached and corrupted-cache runs give the same findings"

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
echo "jit_cli: --emit report --all-configs prints every config"

if ! command -v nvdisasm >/dev/null && ! command -v cuobjdump >/dev/null && [[ ! -x /usr/local/cuda/bin/nvdisasm ]]; then
  "$tessel" compile samples/vector_add.py --kernel vector_add_kernel --emit sass >"$tmp/sass.txt" 2>&1
  [[ $? == 2 ]] || fail "--emit sass without nvdisasm: exit status 2 expected"
  expect_in "--emit sass" "needs nvdisasm or cuobjdump" "$tmp/sass.txt"
  [[ $(wc -l <"$tmp/sass.txt") == 1 ]] || fail "--emit sass without nvdisasm: one line expected"
  echo "jit_cli: --emit sass without nvdisasm says so in one line"
fi
echo "jit_cli: all passed"
