#!/usr/bin/env bash
#===- scripts/gpu_check.sh - tessel's GPU path on a machine with a GPU ----===#
# The GPU checks now live in one script, tests/gpu/gpu_suite.py (runtime
# tests, cubin loading, every sample and config against the interpreter,
# the masking-bug samples under compute-sanitizer, tessel against triton
# 3.6); this wrapper keeps the old command working.
#
#   scripts/gpu_check.sh BIN_DIR [OUT_DIR]
#===-----------------------------------------------------------------------===#
set -u
BIN=${1:?usage: scripts/gpu_check.sh BIN_DIR [OUT_DIR]}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exec python3 tests/gpu/gpu_suite.py "$BIN" --out "${2:-${OUT:-/tmp/tessel-gpu-suite}}"
