#!/usr/bin/env bash
#===- bench/run.sh - whole-process timings of `tessel check` --------------===#
# Measures what a user waits for: `tessel --version` (start-up), `tessel
# check` on an empty file (start-up of the check path) and on the generated
# 2,000-line, 50-kernel file, as whole
# processes with hyperfine (falls back to a shell loop without it), then the
# in-process Google Benchmark figures of bench_check (parse, check, and
# reparse after a one-character edit). Prints the machine, date and load
# average (before and after each part: the figures mean little on a busy
# machine) for bench/RESULTS.md.
#
#   bench/run.sh            (BUILD_DIR defaults to build; build it first)
#===-----------------------------------------------------------------------===#
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${BUILD_DIR:-build}
tessel=$build/tools/tessel
bench_check=$build/bench/bench_check
[[ -x $tessel ]] || { echo "run.sh: $tessel not built (scripts/setup.sh)" >&2; exit 2; }

file=$(mktemp --suffix=.py)
empty=$(mktemp --suffix=.py)
trap 'rm -f "$file" "$empty"' EXIT
python3 bench/gen_kernels.py "$file"

echo "== machine"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores available"
echo "tessel: $("$tessel" --version), $(grep -m1 CMAKE_BUILD_TYPE:STRING "$build/CMakeCache.txt" | cut -d= -f2) build"
echo "findings on the file: $("$tessel" check --color=never "$file" | tail -1)"
load() { echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"; }
load

echo "== whole process"
if command -v hyperfine >/dev/null; then
  md=$(mktemp --suffix=.md)
  hyperfine -N -i --warmup 5 --runs 50 --style basic --export-markdown "$md" \
    "$tessel --version" \
    "$tessel check $empty" \
    "$tessel check --format=json $file" \
    "$tessel check $file"
  cat "$md"
  rm -f "$md"
  load
else
  echo "(hyperfine not installed: apt-get install hyperfine; using a loop of 50 runs)"
  for cmd in "$tessel --version" "$tessel check --format=json $file"; do
    start=$(date +%s%N)
    for _ in $(seq 50); do $cmd >/dev/null; done
    end=$(date +%s%N)
    echo "$cmd: $(((end - start) / 50000)) us per run"
  done
fi

if [[ -x $bench_check ]]; then
  echo "== in process (bench_check)"
  "$bench_check" "$file" --benchmark_min_time=0.5 2>/dev/null
  load
fi
