#!/usr/bin/env bash
#===- tests/reference/reference_cli.sh - tessel compile --reference --------===#
# Usage: reference_cli.sh TESSEL FILECHECK (run from the repository root). Every sample's CUDA
# reference is compiled in process to PTX and its PTX checked against tests/reference/NAME.check;
# then the failure cases: each prints what it checked, and the script stops at the first mismatch.
#===-----------------------------------------------------------------------===#
set -uo pipefail
tessel=$1
filecheck=$2
here=tests/reference
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TESSEL_CACHE_DIR=$tmp/cache

fail() { echo "reference_cli: FAIL: $*" >&2; exit 1; }

if [[ ! -r /usr/local/cuda/include/cuda_runtime.h && -z ${CUDA_HOME:-} ]]; then
  echo "reference_cli: no CUDA toolkit headers; nothing to test"
  exit 0
fi

for case in vector_add:vector_add_kernel fused_softmax:fused_softmax_kernel layer_norm:layer_norm_fwd_kernel \
            matmul:matmul_kernel online_softmax:online_softmax_kernel; do
  name=${case%%:*}
  kernel=${case##*:}
  "$tessel" compile samples/$name.py --kernel "$kernel" --reference --emit ptx --arch sm_90 >"$tmp/$name.ptx" \
    2>"$tmp/$name.err" || { cat "$tmp/$name.err" >&2; fail "$name: tessel compile --reference failed"; }
  [[ ! -s $tmp/$name.err ]] || { cat "$tmp/$name.err" >&2; fail "$name: diagnostics for a clean reference"; }
  "$filecheck" --input-file="$tmp/$name.ptx" "$here/$name.check" || fail "$name: PTX"
  if grep -q "^UNORDERED" "$here/$name.check"; then
    "$filecheck" --input-file="$tmp/$name.ptx" --check-prefix=UNORDERED "$here/$name.check" || fail "$name: PTX"
  fi
  echo "reference_cli: $name's reference compiles to the expected PTX"
done

# The report: the reference's own registers, shared memory and stage times, Clang's first.
"$tessel" compile samples/vector_add.py --kernel vector_add_kernel --reference --emit report --arch sm_90 \
  >"$tmp/report.txt" 2>&1 || { cat "$tmp/report.txt" >&2; fail "report failed"; }
"$filecheck" --input-file="$tmp/report.txt" "$here/report.check" || fail "report"
echo "reference_cli: the report names the reference and its stages"

# A project setting names the reference instead of a directive (tessel.toml's [references]); the .cu
# path is relative to the settings file.
"$tessel" compile $here/Inputs/project/kern.py --kernel copy_kernel --reference --emit ptx --arch sm_90 \
  >"$tmp/setting.ptx" 2>"$tmp/setting.err" || { cat "$tmp/setting.err" >&2; fail "the project setting's reference"; }
grep -qF ".visible .entry _Z4copyPKfPfi(" "$tmp/setting.ptx" || fail "the project setting's reference: no entry"
echo "reference_cli: a project setting names the reference"

# Expects exit status $1 and FileCheck's prefix $2 over stderr of the rest.
expect_error() {
  local status=$1 prefix=$2
  shift 2
  timeout 120 "$tessel" "$@" >"$tmp/out.txt" 2>"$tmp/err.txt"
  local got=$?
  [[ $got == "$status" ]] || { cat "$tmp/err.txt" >&2; fail "$prefix: exit status $got, expected $status"; }
  "$filecheck" --input-file="$tmp/err.txt" --check-prefix="$prefix" "$here/errors.check" || fail "$prefix"
  echo "reference_cli: $prefix"
}

expect_error 1 SYNTAX compile $here/Inputs/malformed.py --kernel copy_kernel --reference --emit ptx --arch sm_90
expect_error 1 UNMAPPED compile $here/Inputs/unmapped.py --kernel copy_kernel --reference --emit ptx --arch sm_90
expect_error 1 DIRECTIVE compile $here/Inputs/bad_directive.py --kernel copy_kernel --reference --emit ptx
expect_error 1 NODIRECTIVE compile samples/dropout.py --kernel seeded_dropout_kernel --reference --emit ptx
expect_error 1 RUNAWAY compile $here/Inputs/runaway.py --kernel copy_kernel --reference --emit ptx --arch sm_90
# Without a GPU, one line says so (on a GPU machine the run itself is tests/gpu/gpu_suite.py's).
if ! ldconfig -p 2>/dev/null | grep -q "libcuda.so.1 "; then
  expect_error 2 NOGPU run samples/vector_add.py --kernel vector_add_kernel --gpu --reference
fi
exit 0
