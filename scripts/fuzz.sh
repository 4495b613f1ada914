#!/usr/bin/env bash
#===- scripts/fuzz.sh - build, run and minimize the fuzz targets ----------===#
# Builds the libFuzzer targets of tests/fuzz with clang 19 (ASan + UBSan on
# every library, TESSEL_FUZZ=ON) in build-fuzz/, then:
#
#   scripts/fuzz.sh TARGET [MINUTES]   fuzz one target (lsp, frontend, edits,
#                                      launch) for MINUTES (default 10), one
#                                      job, and minimize every finding into
#                                      tests/fuzz/regressions/TARGET/
#   scripts/fuzz.sh ci [SECONDS]       replay every regression file, then fuzz
#                                      each target for SECONDS (default 60)
#   scripts/fuzz.sh build              only build
#
# Seeds come from tessel's own files (tests/fuzz/seeds.py) and, when the
# folder exists, from the real kernel libraries in FUZZ_CORPUS (default
# /work/corpus); they and the corpus the fuzzer grows live in
# build-fuzz/fuzz/ (outside git). Exit status: 0 when no target found
# anything, 1 when one did (the minimized inputs are then in
# tests/fuzz/regressions/TARGET/: fix the code, keep the file), 2 on usage.
# Environment: FUZZ_BUILD_DIR (default build-fuzz), JOBS (default nproc),
# FUZZ_RUNS (stop after that many executions, if sooner than MINUTES).
#===-----------------------------------------------------------------------===#
set -euo pipefail
shopt -s nullglob

cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD=${FUZZ_BUILD_DIR:-build-fuzz}
JOBS=${JOBS:-$(nproc)}
CORPUS_SRC=${FUZZ_CORPUS:-/work/corpus}
TARGETS=(lsp frontend edits launch)

die() { echo "fuzz.sh: error: $*" >&2; exit 2; }

# The targets' own stderr (the server's log lines) is closed (-close_fd_mask=2):
# writing it would cost more than many executions; sanitizer reports still
# reach the log. Replay a finding by hand to see what it printed.
# Per target: -max_len (bytes) and dictionary. Inputs stay small so that one
# execution takes milliseconds even under ASan: a kernel file's bugs show in
# its first few kilobytes, a launch spec's in a few hundred bytes.
max_len() { case $1 in lsp) echo 4096 ;; frontend) echo 3072 ;; edits) echo 3072 ;; launch) echo 512 ;; esac; }
dict() { case $1 in lsp) echo tests/fuzz/dicts/lsp.dict ;; launch) echo tests/fuzz/dicts/launch.dict ;; *) echo tests/fuzz/dicts/python.dict ;; esac; }

build() {
  command -v clang++-19 >/dev/null || die "clang++-19 is missing: apt-get install clang-19 libclang-rt-19-dev (or WITH_FUZZ=1 scripts/setup.sh)"
  if [[ ! -f $BUILD/CMakeCache.txt ]]; then
    launcher=()
    if command -v ccache >/dev/null; then
      launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    fi
    # -O1 keeps assertions (no NDEBUG) and ASan's reports readable.
    cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang-19 \
      -DCMAKE_CXX_COMPILER=clang++-19 "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g" \
      -DTESSEL_FUZZ=ON -DTESSEL_BUILD_BENCH=OFF "${launcher[@]}" >/dev/null
  fi
  cmake --build "$BUILD" -j "$JOBS" --target fuzz_targets
  mkdir -p "$BUILD/fuzz"
}

seeds() {
  local t=$1 dir=$BUILD/fuzz/seeds/$1
  rm -rf "$dir"
  local corpus=()
  [[ -d $CORPUS_SRC ]] && corpus=(--corpus "$CORPUS_SRC")
  python3 tests/fuzz/seeds.py "$t" "$dir" "${corpus[@]}"
}

# fuzz TARGET SECONDS: fuzz, then minimize what it found; returns 1 on a finding.
fuzz() {
  local t=$1 secs=$2
  local exe=$BUILD/tests/fuzz_$t corpus=$BUILD/fuzz/corpus/$t findings=$BUILD/fuzz/findings/$t
  mkdir -p "$corpus" "$findings" "tests/fuzz/regressions/$t"
  rm -f "$findings"/*
  seeds "$t"
  local status=0
  "$exe" -close_fd_mask=2 -max_total_time="$secs" -runs="${FUZZ_RUNS:--1}" -max_len="$(max_len "$t")" -timeout=30 -rss_limit_mb=2560 -dict="$(dict "$t")" \
    -print_final_stats=1 -artifact_prefix="$findings/" "$corpus" "$BUILD/fuzz/seeds/$t" \
    2>&1 | tee "$BUILD/fuzz/$t.log" | grep -E '^#[0-9]+.*(pulse|DONE|INITED)|ERROR|SUMMARY|stat::|Test unit written' || true
  local f
  for f in "$findings"/*; do
    [[ -f $f ]] || continue
    status=1
    local kind=${f##*/}
    kind=${kind%%-*}
    local min=$findings/min-$kind
    "$exe" -close_fd_mask=2 -minimize_crash=1 -max_total_time=120 -timeout=30 -exact_artifact_path="$min" "$f" >/dev/null 2>&1 || true
    # A minimization that lost the failure (the input fails only after
    # others, or the trap moved) keeps the original input.
    if [[ ! -s $min ]] || "$exe" -close_fd_mask=2 -runs=0 "$min" >/dev/null 2>&1; then
      cp "$f" "$min"
    fi
    local dest=tests/fuzz/regressions/$t/$kind-$(sha1sum "$min" | cut -c1-12)
    cp "$min" "$dest"
    echo "fuzz.sh: $t found a $kind; minimized input in $dest"
  done
  return $status
}

cmd=${1:-}
case $cmd in
  build) build ;;
  ci)
    secs=${2:-60}
    build
    status=0
    for t in "${TARGETS[@]}"; do
      start=$(date +%s)
      files=(tests/fuzz/regressions/$t/*)
      if ((${#files[@]})); then
        "$BUILD/tests/fuzz_$t" -runs=0 "${files[@]}" >"$BUILD/fuzz/replay-$t.log" 2>&1 || {
          echo "fuzz.sh: a regression input of $t fails again (see $BUILD/fuzz/replay-$t.log)"
          status=1
        }
      fi
      echo "fuzz.sh: $t: replayed ${#files[@]} regression files in $(($(date +%s) - start)) s"
      fuzz "$t" "$secs" || status=1
    done
    exit $status
    ;;
  lsp | frontend | edits | launch)
    minutes=${2:-10}
    [[ $minutes =~ ^[0-9]+$ ]] || die "MINUTES must be a whole number, not '$minutes'"
    build
    fuzz "$cmd" $((minutes * 60))
    ;;
  *) die "usage: scripts/fuzz.sh lsp|frontend|edits|launch [MINUTES] | ci [SECONDS] | build" ;;
esac
