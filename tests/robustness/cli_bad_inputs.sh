#!/usr/bin/env bash
#===- tests/robustness/cli_bad_inputs.sh - files tessel must refuse cleanly ===#
# Runs the real `tessel` binary on inputs it cannot check (missing, a
# directory, binary, Latin-1, 60 MB, unreadable) and on bad command lines.
# Each must exit 2 with one clear line on stderr and no crash; a good file
# given next to a bad one must still be checked.
#
#   tests/robustness/cli_bad_inputs.sh PATH_TO_TESSEL
#===-----------------------------------------------------------------------===#
set -uo pipefail

tessel=${1:?usage: cli_bad_inputs.sh PATH_TO_TESSEL}
work=$(mktemp -d)
trap 'chmod -R u+rw "$work"; rm -rf "$work"' EXIT
failures=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# expect STATUS STDERR_PATTERN ARGS...: runs tessel, checks status and stderr.
expect() {
  local want=$1 pattern=$2
  shift 2
  local out err status
  out=$("$tessel" "$@" 2>"$work/stderr")
  status=$?
  err=$(cat "$work/stderr")
  if ((status != want)); then
    fail "tessel $* -> exit $status, expected $want; stderr: $err"
  elif [[ -n "$pattern" ]] && ! grep -qE -- "$pattern" <<<"$err"; then
    fail "tessel $* -> stderr does not match /$pattern/: $err"
  elif ((status >= 128)); then
    fail "tessel $* crashed (signal $((status - 128)))"
  else
    echo "ok: tessel $* -> $status"
  fi
  LAST_STDOUT=$out
}

cat >"$work/good.py" <<'PY'
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)
PY
printf 'import triton\n\x00\x01\x02\x7fELF' >"$work/binary.py"
printf '# caf\xe9 au lait\nimport triton\n' >"$work/latin1.py"
truncate -s 60M "$work/huge.py"
mkdir "$work/folder.py"
cp "$work/good.py" "$work/locked.py"
chmod 000 "$work/locked.py"

expect 2 "missing\.py: No such file or directory" check "$work/missing.py"
expect 2 "folder\.py: is a directory" check "$work/folder.py"
expect 2 "binary\.py: binary file \(NUL byte at line 2" check "$work/binary.py"
expect 2 "latin1\.py: not valid UTF-8 \(at line 1, byte 6\)" check "$work/latin1.py"
expect 2 "huge\.py: file is 60 MB, over the 50 MB limit" check "$work/huge.py"
expect 2 "/dev/zero: not a regular file" check /dev/zero
if (($(id -u) != 0)); then
  expect 2 "locked\.py: Permission denied" check "$work/locked.py"
fi

# A bad file does not stop the others: the good one is still checked.
expect 2 "missing\.py" check --color=never "$work/missing.py" "$work/good.py"
grep -q "in 1 file (" <<<"$LAST_STDOUT" || fail "good.py was not checked next to a missing file: $LAST_STDOUT"
expect 2 "binary\.py" check --format=json "$work/binary.py" "$work/good.py"
grep -q '"file"' <<<"$LAST_STDOUT" || fail "JSON output lacks good.py next to a binary file: $LAST_STDOUT"

# Standard input ("-") gets the same guards as a file.
err=$(printf 'import triton\n\0' | "$tessel" check - 2>&1 >/dev/null)
status=$?
if ((status != 2)) || ! grep -q "binary input" <<<"$err"; then
  fail "binary standard input -> exit $status: $err"
else
  echo "ok: binary standard input -> 2"
fi
out=$("$tessel" check --color=never - <"$work/good.py")
status=$?
if ((status != 0)) || ! grep -q "no problems in 1 file" <<<"$out"; then
  fail "good.py on standard input -> exit $status: $out"
else
  echo "ok: good.py on standard input -> 0"
fi

# Bad command lines.
expect 2 "no input files" check
expect 2 "unknown format 'yaml'" check --format=yaml "$work/good.py"
expect 2 "unsupported arch 'sm_70'" check --arch=sm_70 "$work/good.py"
expect 2 "unknown option '--frobnicate'" check --frobnicate "$work/good.py"
expect 2 "--format needs a value" check --format
expect 2 "unknown command 'chek'" chek "$work/good.py"
expect 2 "usage" # no arguments at all
expect 0 "" --version
grep -qE '^tessel [0-9]+\.[0-9]+\.[0-9]+' <<<"$LAST_STDOUT" || fail "--version printed: $LAST_STDOUT"
expect 0 "" --help
grep -q "check" <<<"$LAST_STDOUT" || fail "--help does not list check: $LAST_STDOUT"
expect 0 "" check --help

if ((failures)); then
  echo "$failures failure(s)"
  exit 1
fi
echo "all bad-input cases handled"
