#!/usr/bin/env bash
# A `tessel jit-worker --serve` that behaves as if LLVM or ptxas broke on
# some kernels, for the JIT tier's transcripts (the way JitWorkerTest's
# scripts stand in for a worker LLVM killed): a request whose bitcode holds a
# function named crash_me ends the process with SIGSEGV after an LLVM-style
# fatal error on stderr; one holding hang_me never answers (a stuck ptxas);
# every other request is compiled by a real one-shot `$TESSEL jit-worker`.
# Protocol (compiler/backend/JitWorker.h): a line "FLAGS... SIZE", SIZE bytes
# of bitcode; the reply is its size on a line, then the reply.
set -u
# Run as `PROGRAM jit-worker --serve`, as the server runs tessel.
[ "${1:-}" = jit-worker ] && shift
[ "${1:-}" = --serve ] || exec "$TESSEL" jit-worker "$@"
# In the current folder (the transcript's scratch folder): a killed worker
# leaves its files where the test runner removes them.
work=$(mktemp -d "$PWD/fake-jit-worker.XXXXXX")
trap 'rm -rf "$work"' EXIT
while IFS= read -r header; do
  size=${header##* }
  flags=${header% *}
  head -c "$size" > "$work/bc"
  if grep -q crash_me "$work/bc"; then
    echo "LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.crash_me" >&2
    kill -SEGV $$
  fi
  if grep -q hang_me "$work/bc"; then
    sleep 600
  fi
  # shellcheck disable=SC2086 # the flags are words
  "$TESSEL" jit-worker $flags < "$work/bc" > "$work/reply"
  printf '%d\n' "$(stat -c %s "$work/reply")"
  cat "$work/reply"
done
