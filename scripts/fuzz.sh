#!/usr/bin/env bash
#===- scripts/fuzz.sh - build, run and minimize the fuzz targets ----------===#
# Builds the libFuzzer targets of tests/fuzz with clang 19 (ASan + UBSan on
# every library, TESSEL_FUZZ=ON) in build-fuzz/, then:
#
#   scripts/fuzz.sh TARGET [MINUTES [WORKERS]]
#                                      fuzz one target (lsp, frontend, edits,
#                                      launch, codegen, host, index, runner,
#                                      reference) for MINUTES (default
#                                      10; NNs for seconds) in WORKERS processes (default 1;
#                                      more: independent processes, one per core,
#                                      sharing the corpus), and minimize
#                                      every finding into
#                                      tests/fuzz/regressions/TARGET/
#   scripts/fuzz.sh ci [SECONDS]       replay every regression file, then fuzz
#                                      each target for SECONDS (default 60)
#                                      from seed FUZZ_SEED (default 1), at
#                                      most ci_runs executions each; one
#                                      line per target in FUZZ_REPORT
#                                      (default build-fuzz/fuzz/ci-report.txt)
#   scripts/fuzz.sh build              only build
#
# Seeds come from tessel's own files (tests/fuzz/seeds.py) and, when the
# folder exists, from the real kernel libraries in FUZZ_CORPUS (default
# /work/corpus); they and the corpus the fuzzer grows live in
# build-fuzz/fuzz/ (outside git). Exit status: 0 when no target found
# anything, 1 when one did (the minimized inputs are then in
# tests/fuzz/regressions/TARGET/: fix the code, keep the file), 2 on usage.
# Environment: FUZZ_BUILD_DIR (default build-fuzz), JOBS (default nproc),
# FUZZ_RUNS (stop after that many executions, if sooner than MINUTES),
# FUZZ_NO_BUILD=1 (use the targets and seeds already in FUZZ_BUILD_DIR, a
# bundle made by scripts/fuzz_bundle.sh), FUZZ_MINIMIZE=0 (keep the raw
# findings in FUZZ_BUILD_DIR/fuzz/findings/), FUZZ_TIMEOUT (seconds of wall
# time an input may take, default 30: more on a machine a build shares).
#===-----------------------------------------------------------------------===#
set -euo pipefail
shopt -s nullglob

cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD=${FUZZ_BUILD_DIR:-build-fuzz}
JOBS=${JOBS:-$(nproc)}
CORPUS_SRC=${FUZZ_CORPUS:-/work/corpus}
TARGETS=(lsp frontend edits launch codegen host index runner reference)

die() { echo "fuzz.sh: error: $*" >&2; exit 2; }

# The targets' own stderr (the server's log lines) is closed (-close_fd_mask=2):
# writing it would cost more than many executions; sanitizer reports still
# reach the log. Replay a finding by hand to see what it printed.
# Per target: -max_len (bytes) and dictionary. Inputs stay small so that one
# execution takes milliseconds even under ASan: a kernel file's bugs show in
# its first few kilobytes, a launch spec's in a few hundred bytes.
max_len() { case $1 in lsp | host | runner | reference) echo 4096 ;; frontend) echo 3072 ;; edits) echo 3072 ;; launch | codegen) echo 512 ;; index) echo 16384 ;; esac; }
dict() { case $1 in lsp) echo tests/fuzz/dicts/lsp.dict ;; launch | codegen) echo tests/fuzz/dicts/launch.dict ;; index) echo tests/fuzz/dicts/index.dict ;; runner) echo tests/fuzz/dicts/runner.dict ;; reference) echo tests/fuzz/dicts/cuda.dict ;; *) echo tests/fuzz/dicts/python.dict ;; esac; }

build() {
  command -v clang++-19 >/dev/null || die "clang++-19 is missing: apt-get install clang-19 libclang-rt-19-dev (or WITH_FUZZ=1 scripts/setup.sh)"
  if [[ ! -f $BUILD/CMakeCache.txt ]]; then
    launcher=()
    if command -v ccache >/dev/null; then
      launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    fi
    # -O1 keeps assertions (no NDEBUG) and ASan's reports readable; line tables are all that a report's
    # symbolized stack needs (full debug info costs about 15 % more compile time in CI's fuzz build).
    cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang-19 \
      -DCMAKE_CXX_COMPILER=clang++-19 "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" \
      "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" \
      -DTESSEL_FUZZ=ON -DTESSEL_BUILD_BENCH=OFF "${launcher[@]}" >/dev/null || return 1
  fi
  # `|| return`: ci calls build in a condition, where set -e does not stop it.
  cmake --build "$BUILD" -j "$JOBS" --target fuzz_targets || return 1
  mkdir -p "$BUILD/fuzz"
}

seeds() {
  local t=$1 dir=$BUILD/fuzz/seeds/$1
  rm -rf "$dir"
  local corpus=()
  [[ -d $CORPUS_SRC ]] && corpus=(--corpus "$CORPUS_SRC")
  python3 tests/fuzz/seeds.py "$t" "$dir" "${corpus[@]}"
}

# The CPUs this process may run on, one number each ("0-3,8" -> 0 1 2 3 8).
allowed_cpus() {
  local list part c out=()
  list=$(awk '/^Cpus_allowed_list/ {print $2}' /proc/self/status 2>/dev/null)
  IFS=, read -ra parts <<<"$list"
  for part in "${parts[@]}"; do
    if [[ $part == *-* ]]; then
      for ((c = ${part%-*}; c <= ${part#*-}; c++)); do out+=("$c"); done
    elif [[ -n $part ]]; then
      out+=("$part")
    fi
  done
  echo "${out[@]}"
}

# fuzz TARGET SECONDS: fuzz, then minimize what it found; returns 1 on a finding.
# With WORKERS > 1, that many independent libFuzzer processes (each with its
# log fuzz-N.log and its core) share the corpus folder, reloading what the
# others add. Not fork mode: its children restart every few seconds and replay their
# share of the corpus each time, which cost 10-20 times the executions' own
# CPU here (33-55 executions a second per worker against 200-500).
fuzz() {
  local t=$1 secs=$2 workers=${3:-1}
  local exe=$BUILD/tests/fuzz_$t corpus=$BUILD/fuzz/corpus/$t findings=$BUILD/fuzz/findings/$t
  mkdir -p "$corpus" "$findings" "tests/fuzz/regressions/$t"
  rm -f "$findings"/*
  # A bundle made elsewhere (FUZZ_NO_BUILD=1) brings its seeds.
  [[ ${FUZZ_NO_BUILD:-0} == 1 && -d $BUILD/fuzz/seeds/$t ]] || seeds "$t"
  local status=0
  local seed=()
  [[ -n ${FUZZ_SEED:-} ]] && seed=(-seed="$FUZZ_SEED")
  local args=(-close_fd_mask=2 -max_total_time="$secs" -runs="${FUZZ_RUNS:--1}" -max_len="$(max_len "$t")" -timeout="${FUZZ_TIMEOUT:-30}"
    -rss_limit_mb=2560 -dict="$(realpath "$(dict "$t")")" -print_final_stats=1 -artifact_prefix="$(realpath "$findings")/")
  # Shorter allocation stacks and no fake stacks: a third of an execution's
  # CPU went to ASan's stack depot and fake-stack GC. Reports still name the
  # faulting stack in full.
  export ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=8:detect_stack_use_after_return=0}
  if ((workers > 1)); then
    local jobs=$BUILD/fuzz/jobs/$t abs_exe abs_corpus abs_seeds
    rm -rf "$jobs"
    mkdir -p "$jobs"
    abs_exe=$(realpath "$exe") abs_corpus=$(realpath "$corpus") abs_seeds=$(realpath "$BUILD/fuzz/seeds/$t")
    # One core per worker, from the cores this script may use: the targets'
    # parallel loops size themselves by the cores a process may run on, and
    # sixteen workers each starting sixteen threads spent their time
    # switching. Each worker reloads the corpus folder the others add to.
    local cpus pids=() k pin
    read -ra cpus <<<"$(allowed_cpus)"
    for ((k = 0; k < workers; k++)); do
      pin=()
      command -v taskset >/dev/null && ((${#cpus[@]})) && pin=(taskset -c "${cpus[k % ${#cpus[@]}]}")
      local worker_seed=()
      [[ -n ${FUZZ_SEED:-} ]] && worker_seed=(-seed=$((FUZZ_SEED + k)))
      (cd "$jobs" && exec "${pin[@]}" "$abs_exe" "${args[@]}" "${worker_seed[@]}" "$abs_corpus" "$abs_seeds" \
        >"fuzz-$k.log" 2>&1) &
      pids+=($!)
    done
    wait "${pids[@]}" || true
    # One log for the target: every worker's, one after another.
    cat "$jobs"/fuzz-*.log >"$BUILD/fuzz/$t.log"
    grep -hE '^#[0-9]+.*DONE|ERROR|SUMMARY|Test unit written' "$jobs"/fuzz-*.log || true
  else
    "$exe" "${args[@]}" "${seed[@]}" "$corpus" "$BUILD/fuzz/seeds/$t" \
      2>&1 | tee "$BUILD/fuzz/$t.log" | grep -E '^#[0-9]+.*(pulse|DONE|INITED)|ERROR|SUMMARY|stat::|Test unit written' || true
  fi
  local f
  for f in "$findings"/*; do
    [[ -f $f ]] || continue
    # A unit slower than libFuzzer's -report_slow_units (10 s) is written as
    # slow-unit-*: a figure of a busy machine, not a finding (-timeout is).
    if [[ ${f##*/} == slow-unit-* ]]; then
      echo "fuzz.sh: $t: a unit ran over 10 s (not a finding): $f"
      continue
    fi
    status=1
    local kind=${f##*/}
    kind=${kind%%-*}
    local min=$findings/min-$kind
    if [[ ${FUZZ_MINIMIZE:-1} == 0 ]]; then
      echo "fuzz.sh: $t found a $kind: $f"
      continue
    fi
    "$exe" -close_fd_mask=2 -minimize_crash=1 -max_total_time=120 -timeout=30 -exact_artifact_path="$min" "$f" >/dev/null 2>&1 || true
    # A minimization that lost the failure (the input fails only after
    # others, or the trap moved) keeps the original input.
    if [[ ! -s $min ]] || "$exe" -close_fd_mask=2 -runs=0 "$min" >/dev/null 2>&1; then
      cp "$f" "$min"
    fi
    local dest=tests/fuzz/regressions/$t/$kind-$(sha1sum "$min" | cut -c1-12)
    cp "$min" "$dest"
    echo "fuzz.sh: $t found a $kind; minimized input in $dest"
    report "$t: FAILED: a $kind ($(grep -m1 -E 'ERROR|fuzz invariant failed|==[0-9]+==' "$BUILD/fuzz/$t.log" | cut -c1-200)); input in $dest, base64: $(base64 -w0 "$min" | cut -c1-3000)"
  done
  ((status)) || report "$t: ok, $(executions "$BUILD/fuzz/$t.log") executions"
  return $status
}

# ci's executions per target, about what a quiet core runs in 60 s: with the
# fixed seed, a CI machine runs these same inputs (or, if slower, the first
# of them), so a clean run here is a clean run there.
ci_runs() { case $1 in lsp) echo 3000 ;; frontend) echo 2500 ;; edits) echo 2000 ;; launch) echo 4000 ;; codegen) echo 3000 ;; host) echo 2500 ;; index) echo 30000 ;; runner) echo 30000 ;; reference) echo 300 ;; esac; }

# A log's executions: the sum of its workers' final stats, or, for a worker
# stopped before them, its last status line.
executions() {
  awk '/^INFO: Seed:/ { total += cur; cur = 0 }
       /^#[0-9]+[\t ]/ { cur = substr($1, 2) + 0 }
       /^stat::number_of_executed_units:/ { cur = $2 }
       END { print total + cur }' "$1"
}

# The ci mode's outcome, one line per target, for the ctest that shows it
# (fuzz.ci-report, tests/fuzz/tests.cmake): CI's log keeps only its end.
report() { [[ -n ${REPORT:-} ]] && echo "$*" >>"$REPORT"; return 0; }

cmd=${1:-}
case $cmd in
  build) build ;;
  ci)
    secs=${2:-60}
    # A fixed seed: a finding in CI is the same run on the development machine.
    export FUZZ_SEED=${FUZZ_SEED:-1}
    REPORT=${FUZZ_REPORT:-$BUILD/fuzz/ci-report.txt}
    mkdir -p "$(dirname "$REPORT")"
    : >"$REPORT"
    mkdir -p "$BUILD"
    if ! (build) >"$BUILD/ci-build.log" 2>&1; then
      tail -20 "$BUILD/ci-build.log"
      report "build: FAILED: $(grep -m1 -E 'error|FAILED' "$BUILD/ci-build.log" | cut -c1-300)"
      exit 1
    fi
    status=0
    for t in "${TARGETS[@]}"; do
      start=$(date +%s)
      files=(tests/fuzz/regressions/$t/*)
      if ((${#files[@]})); then
        "$BUILD/tests/fuzz_$t" -runs=0 "${files[@]}" >"$BUILD/fuzz/replay-$t.log" 2>&1 || {
          echo "fuzz.sh: a regression input of $t fails again (see $BUILD/fuzz/replay-$t.log)"
          report "$t: FAILED: a regression input fails again: $(grep -m1 -E 'ERROR|fuzz invariant failed|Running:' "$BUILD/fuzz/replay-$t.log" | cut -c1-200)"
          status=1
        }
      fi
      echo "fuzz.sh: $t: replayed ${#files[@]} regression files in $(($(date +%s) - start)) s"
      FUZZ_RUNS=${FUZZ_RUNS:-$(ci_runs "$t")} fuzz "$t" "$secs" || status=1
    done
    exit $status
    ;;
  lsp | frontend | edits | launch | codegen | host | index | runner | reference)
    minutes=${2:-10}
    # NNs: seconds, to fill a machine's time limit exactly.
    if [[ $minutes =~ ^[0-9]+s$ ]]; then
      secs=${minutes%s}
    else
      [[ $minutes =~ ^[0-9]+$ ]] || die "MINUTES must be a whole number (or seconds as NNs), not '$minutes'"
      secs=$((minutes * 60))
    fi
    workers=${3:-1}
    [[ $workers =~ ^[0-9]+$ ]] || die "WORKERS must be a whole number, not '$workers'"
    [[ ${FUZZ_NO_BUILD:-0} == 1 ]] || build
    mkdir -p "$BUILD/fuzz"
    fuzz "$cmd" "$secs" "$workers"
    ;;
  *) die "usage: scripts/fuzz.sh lsp|frontend|edits|launch|codegen|host|index|runner|reference [MINUTES [WORKERS]] | ci [SECONDS] | build" ;;
esac
