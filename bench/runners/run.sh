#!/usr/bin/env bash
#===- bench/runners/run.sh - what a runner costs, and what spreading a sweep gains ===#
# Issue 33's scale figures, on CPU workers, through the same real daemons the
# tests start (tests/runners/sshd.sh, tests/runners/slurm_cluster.sh):
#
#  1. Session start: one tiny `tessel run --runner R` against the same run in
#     this process (ssh's login, srun's allocation, the runner's hello).
#  2. Per-task overhead: 128 tiny tasks (bench/runners/sweep_kernel.py with n of
#     16..23) through `tessel tune` on one worker of R, against 128 `tessel run`
#     processes one after another: (tune - direct) / 128, the session's start
#     included once.
#     A job array (slurm://debug?array=1) too: one sbatch, results polled from files.
#  3. The sweep: 16 configs x 8 shapes (bench/runners/sweep_kernel.py, 128 runs
#     of ~0.1 s) over 1, 2 and 4 workers of each runner, with the speed-up over
#     one worker. Each tune's JSON must equal the local one-worker tune's.
#
#   bench/runners/run.sh          (BUILD_DIR defaults to build; build tessel first)
#===-----------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
build=${BUILD_DIR:-build}
tessel=$(realpath "$build/tools/tessel")
kernel=bench/runners/sweep_kernel.py
work=$(mktemp -d)
trap 'bash tests/runners/sshd.sh stop "$work/sshd"; bash tests/runners/slurm_cluster.sh stop "$work/slurm"; rm -rf "$work"' EXIT

echo "== machine"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "commit: $(git rev-parse --short HEAD)"
echo "cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores available"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "tessel: $("$tessel" --version)"

runners=(local)
bash tests/runners/sshd.sh start "$work/sshd" >/dev/null
if [[ -f $work/sshd/env ]]; then
  source "$work/sshd/env"
  export TESSEL_SSH
  runners+=("ssh://tessel-test?tessel=$tessel")
fi
bash tests/runners/slurm_cluster.sh start "$work/slurm" >/dev/null
if [[ -f $work/slurm/env ]]; then
  source "$work/slurm/env"
  export SLURM_CONF
  runners+=("slurm://debug?tessel=$tessel")
  array="slurm://debug?tessel=$tessel&array=1&spool=$work/spool"
fi
unset SSH_AUTH_SOCK

now() { date +%s.%N; }
secs() { python3 -c "print(f'{$2 - $1:.3f}')"; }
median() { python3 -c "import statistics,sys; print(f'{statistics.median(float(x) for x in sys.argv[1:]):.3f}')" "$@"; }
name() { if [[ $1 == *array=1* ]]; then echo "${1%%\?*} (job array)"; else echo "${1%%\?*}"; fi; }
tiny='n=[16, 17, 18, 19, 20, 21, 22, 23] x=fp32[n] y=fp32[n] out=fp32[n]:out alpha=0.5 grid=(cdiv(n, BLOCK),)'

echo
echo "== 1. session start: one tiny run through the runner, minus the same run in this process (median of 5)"
direct=()
for _ in 1 2 3 4 5; do
  t0=$(now); "$tessel" run $kernel --kernel scaled_add --cpu --instance 0 --spec "$tiny" >/dev/null; t1=$(now)
  direct+=("$(secs "$t0" "$t1")")
done
d=$(median "${direct[@]}")
echo "in process: $d s"
for r in "${runners[@]}"; do
  times=()
  for _ in 1 2 3 4 5; do
    t0=$(now); "$tessel" run $kernel --kernel scaled_add --cpu --instance 0 --spec "$tiny" --runner "$r" >/dev/null; t1=$(now)
    times+=("$(secs "$t0" "$t1")")
  done
  m=$(median "${times[@]}")
  echo "$(name "$r"): $m s (+$(secs "$d" "$m") s)"
done

echo
echo "== 2. per-task overhead: 128 tiny tasks on one worker, against 128 tessel run processes"
t0=$(now)
for c in $(seq 0 15); do for i in $(seq 0 7); do
  "$tessel" run $kernel --kernel scaled_add --cpu --config "$c" --instance "$i" --spec "$tiny" --format=json >/dev/null
done; done
t1=$(now)
direct=$(secs "$t0" "$t1")
echo "128 tessel run processes: $direct s ($(python3 -c "print(f'{$direct / 128 * 1000:.1f}')") ms each)"
for r in "${runners[@]}"; do
  sep='?'; [[ $r == *\?* ]] && sep='&'
  t0=$(now); "$tessel" tune $kernel --kernel scaled_add --cpu --spec "$tiny" --runner "$r${sep}workers=1" >/dev/null 2>&1; t1=$(now)
  t=$(secs "$t0" "$t1")
  echo "$(name "$r"), 1 worker: $t s, overhead $(python3 -c "print(f'{($t - $direct) / 128 * 1000:.1f}')") ms per task"
done

if [[ -n ${array:-} ]]; then
  t0=$(now); "$tessel" tune $kernel --kernel scaled_add --cpu --spec "$tiny" --runner "$array&workers=1" >/dev/null 2>&1; t1=$(now)
  t=$(secs "$t0" "$t1")
  echo "$(name "$array"), 1 array task: $t s, overhead $(python3 -c "print(f'{($t - $direct) / 128 * 1000:.1f}')") ms per task"
  runners+=("$array")
fi

echo
echo "== 3. sweep: 16 configs x 8 shapes = 128 runs over 1, 2 and 4 workers"
"$tessel" tune $kernel --kernel scaled_add --cpu --runner 'local?workers=1' --format=json > "$work/reference.json" 2>/dev/null
for r in "${runners[@]}"; do
  sep='?'; [[ $r == *\?* ]] && sep='&'
  base=
  for w in 1 2 4; do
    t0=$(now)
    "$tessel" tune $kernel --kernel scaled_add --cpu --runner "$r${sep}workers=$w" --format=json > "$work/out.json" 2>/dev/null
    t1=$(now)
    t=$(secs "$t0" "$t1")
    [[ -z $base ]] && base=$t
    same=same; cmp -s "$work/out.json" "$work/reference.json" || same=DIFFERENT
    echo "$(name "$r"), $w workers: $t s, speed-up $(python3 -c "print(f'{$base / $t:.2f}')")x, result $same as local"
  done
done
