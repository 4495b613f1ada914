#!/usr/bin/env bash
#===- bench/run_interp.sh - interpreter throughput, whole process and in process ===#
# The figures issue 3 asks for: a 1M-element fp32 vector add (elements/s) and
# a 512x512x512 fp16 matmul (FLOP/s, 2*M*N*K), each as a whole `tessel run`
# process on samples/vector_add.py and samples/matmul.py (hyperfine; parse,
# plan, lower, generate inputs, interpret with every lane bounds-checked,
# summarise) and in process (build/bench/bench_interp: hand-built IR and the
# lowered samples, interpretation only). Prints the machine, load and date
# for bench/RESULTS.md.
#
#   bench/run_interp.sh            (BUILD_DIR defaults to build; build tessel and bench_interp first)
#===-----------------------------------------------------------------------===#
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${BUILD_DIR:-build}
tessel=$build/tools/tessel
bench_interp=$build/bench/interp/bench_interp
[[ -x $tessel ]] || { echo "run_interp.sh: $tessel not built" >&2; exit 2; }
[[ -x $bench_interp ]] || bench_interp=$build/bench/bench_interp

add_spec='n_elements=1048576 x=fp32[n_elements] y=fp32[n_elements] out=fp32[n_elements]:out grid=(cdiv(n_elements, BLOCK_SIZE),) BLOCK_SIZE=1024'
mm_spec='M=512 N=512 K=512 a=fp16[M, K] b=fp16[K, N] c=fp16[M, N]:out stride_am=K stride_ak=1 stride_bk=N stride_bn=1 stride_cm=N stride_cn=1 grid=(cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N),)'

echo "== machine"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores available"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "tessel: $("$tessel" --version), $(grep -m1 CMAKE_BUILD_TYPE:STRING "$build/CMakeCache.txt" | cut -d= -f2) build"

echo "== whole process (tessel run)"
if command -v hyperfine >/dev/null; then
  md=$(mktemp --suffix=.md)
  hyperfine -N --warmup 3 --runs 20 --style basic --export-markdown "$md" \
    -n "tessel run vector_add (1M fp32)" "$tessel run samples/vector_add.py --kernel vector_add_kernel --spec '$add_spec'" \
    -n "tessel run matmul (512^3 fp16)" "$tessel run samples/matmul.py --kernel matmul_kernel --spec '$mm_spec'"
  cat "$md"
  rm -f "$md"
else
  for i in 1 2 3; do
    /usr/bin/time -f "vector_add %e s" "$tessel" run samples/vector_add.py --kernel vector_add_kernel --spec "$add_spec" >/dev/null
    /usr/bin/time -f "matmul %e s" "$tessel" run samples/matmul.py --kernel matmul_kernel --spec "$mm_spec" >/dev/null
  done
fi

echo "== in process (bench_interp)"
"$bench_interp" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
