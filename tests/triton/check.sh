#!/usr/bin/env bash
# check.sh EXPECTED TESSEL ARGS... - one `tessel run --triton` case: runs TESSEL ARGS... in the
# repository root and compares its stdout and stderr, then `exit=N`, with EXPECTED (rewritten
# instead when TESSEL_UPDATE_GOLDEN=1). What depends on the machine is replaced first: the
# python3 a message names becomes PYTHON. With CHECK_JSON_PART=1 the output is a JSON report of
# which only the Triton parts (and `errors`) are compared: the rest holds wall times.
set -uo pipefail
expected=${1:?usage: check.sh EXPECTED TESSEL ARGS...}
tessel=${2:?usage: check.sh EXPECTED TESSEL ARGS...}
shift 2
cd "$(dirname "$0")/../.."
out=$("$tessel" "$@" 2>&1)
rc=$?
if [[ ${CHECK_JSON_PART:-0} == 1 ]]; then
  out=$(printf '%s\n' "$out" | python3 -c '
import json, sys
r = json.load(sys.stdin)
print(json.dumps({"triton": r.get("triton"), "instances": [i.get("triton") for i in r["instances"]],
                  "errors": r["errors"]}, indent=1, sort_keys=True))')
fi
actual="$out
exit=$rc"
actual=$(printf '%s\n' "$actual" | sed -E 's#[^ ]*python3(\.[0-9]+)? cannot import#PYTHON cannot import#')
if [[ ${TESSEL_UPDATE_GOLDEN:-0} == 1 ]]; then
  printf '%s\n' "$actual" >"$expected"
  echo "updated $expected"
  exit 0
fi
if ! diff -u "$expected" <(printf '%s\n' "$actual"); then
  echo "the output differs from $expected (TESSEL_UPDATE_GOLDEN=1 rewrites it)"
  exit 1
fi
