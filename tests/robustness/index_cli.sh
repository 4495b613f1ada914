#!/usr/bin/env bash
#===- tests/robustness/index_cli.sh - the saved launch index, end to end ---===#
# `tessel check` of a kernel whose launch is in another file of the project,
# with TESSEL_CACHE_DIR a throwaway folder: the first run saves the
# project's launch index (index/*.tslx), a later run answers the same from
# it, and every way the index can be damaged or unwritable changes nothing
# but the head start: a truncated or garbage index file (read again from the
# files, then rewritten whole), a cache folder that cannot be created, a
# write that fails for the file-size limit (the failure a full disk gives:
# write() refusing), and `--no-cache`, which neither reads nor writes it.
# Each run's report must equal the first's, with no crash.
#
#   tests/robustness/index_cli.sh PATH_TO_TESSEL
#===-----------------------------------------------------------------------===#
set -uo pipefail

tessel=$(realpath "${1:?usage: index_cli.sh PATH_TO_TESSEL}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

mkdir -p "$work/proj/pkg"
cd "$work/proj" || exit 1
: >pyproject.toml
: >pkg/__init__.py
# first() returns a value: a helper, unless another file launches it, and
# then Triton's error TS121: the report shows whether the launch was found.
cat >pkg/lib.py <<'PY'
import triton
import triton.language as tl


@triton.jit
def first(x_ptr, BLOCK: tl.constexpr):
    return tl.load(x_ptr + tl.arange(0, BLOCK))
PY
launching_host() { printf 'from .lib import first\n\n\ndef run(x):\n    first[(1,)](x, BLOCK=128)\n' >pkg/host.py; }
launching_host
for i in $(seq 1 50); do printf 'def f%d(a):\n    return g(a)[0]\n' "$i" >"pkg/m$i.py"; done
# Out of the racy window (LaunchIndexFile.h): the rows are trusted by their stat.
touch -d '1 hour ago' pkg/*.py

export TESSEL_CACHE_DIR=$work/cache
check() { "$tessel" check "$@" pkg/lib.py 2>&1; }
want=$(check)
status=$?
((status < 128)) || fail "first run crashed: $want"
grep -q "TS121" <<<"$want" || fail "the launch in host.py was not found: $want"
index=$(ls "$TESSEL_CACHE_DIR"/index/*.tslx 2>/dev/null | head -1)
[[ -n $index ]] || fail "the first run saved no launch index under $TESSEL_CACHE_DIR/index"

same() { # WHAT OUTPUT
  if [[ $2 != "$want" ]]; then fail "$1: the report changed: $2"; else echo "ok: $1"; fi
}
same "a second run, from the saved index" "$(check)"

if [[ -n $index ]]; then
  size=$(stat -c %s "$index")
  truncate -s $((size / 2)) "$index"
  same "a truncated index" "$(check)"
  (($(stat -c %s "$index") == size)) || fail "the truncated index was not rewritten whole ($(stat -c %s "$index") of $size bytes)"
  head -c 4096 /dev/urandom >"$index"
  same "a garbage index" "$(check)"
fi

# Host stops launching the kernel: a changed file is read again, not trusted.
printf 'def run(x):\n    return x\n' >pkg/host.py
touch -d '1 hour ago' pkg/host.py
changed=$(check)
if grep -q "TS121" <<<"$changed"; then
  fail "a launch removed from host.py is still seen through the saved index: $changed"
else
  echo "ok: a changed file is read again"
fi
launching_host
touch -d '1 hour ago' pkg/host.py
same "the launch back" "$(check)"

# A cache folder that cannot be created (a file is in its way).
: >"$work/not-a-dir"
same "an uncreatable cache folder" "$(TESSEL_CACHE_DIR=$work/not-a-dir/cache check)"

# A write refused (RLIMIT_FSIZE, with SIGXFSZ ignored as a full disk sends no signal).
rm -rf "$work/small"
same "a refused write" "$(TESSEL_CACHE_DIR=$work/small bash -c 'trap "" XFSZ; ulimit -f 1; exec "$0" check pkg/lib.py 2>&1' "$tessel")"
saved=$(find "$work/small" -type f -name '*.tslx' 2>/dev/null | wc -l)
((saved == 0)) || fail "the index was written whole under a 1 KB file-size limit: the test no longer refuses the write"
left=$(find "$work/small" -type f -name '*.tmp.*' 2>/dev/null | wc -l)
((left == 0)) || fail "a refused write left $left temporary files"

rm -rf "$work/nocache"
same "--no-cache" "$(TESSEL_CACHE_DIR=$work/nocache check --no-cache)"
[[ ! -e $work/nocache/index ]] || fail "--no-cache wrote an index"

if ((failures)); then
  echo "$failures failure(s)"
  exit 1
fi
echo "all index runs agree"
