#!/usr/bin/env bash
# `tessel lsp --clientProcessId=PID` exits (code 1) soon after PID dies, even
# while its input stays open. Usage: client-process.sh TESSEL SCRATCH
set -u
tessel=$1 scratch=$2
sleep 1 &
client=$!
start=$(date +%s)
# Process substitution keeps stdin open for 30 s without bash waiting for it.
"$tessel" lsp --clientProcessId=$client < <(sleep 30) 2> "$scratch.err"
rc=$?
elapsed=$(( $(date +%s) - start ))
echo "exit code $rc after ${elapsed}s"
grep -q "client process $client is gone; exiting" "$scratch.err" || { echo "no log line"; cat "$scratch.err"; exit 1; }
[ "$rc" -eq 1 ] && [ "$elapsed" -lt 10 ]
