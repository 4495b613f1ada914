#!/usr/bin/env bash
#===- scripts/test.sh - set up, build and run the whole test suite --------===#
# What CI runs (.ci/run): scripts/setup.sh with warnings as errors, then every
# ctest (unit, golden, robustness, tidy, protocol, and the replay of the fuzz
# regressions) on 2 parallel jobs, after the fuzz targets (scripts/fuzz.sh ci:
# a clang ASan + UBSan build in build-fuzz/, the regressions replayed there,
# each target fuzzed for FUZZ_SECONDS, default 60; TESSEL_CI_FUZZ=0 skips it).
# The exit status is non-zero when ctest or a fuzz target fails.
#
#   scripts/test.sh [extra cmake arguments]
#===-----------------------------------------------------------------------===#
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
fuzz=${TESSEL_CI_FUZZ:-1}
WITH_FUZZ=$fuzz scripts/setup.sh -DTESSEL_WERROR=ON "$@"
status=0
# The fuzz targets first, so that the run ends with ctest's summary line.
if [[ $fuzz == 1 ]]; then
  start=$(date +%s)
  FUZZ_CORPUS=${FUZZ_CORPUS:-none} scripts/fuzz.sh ci "${FUZZ_SECONDS:-60}" || status=1
  echo "test.sh: fuzz targets took $(($(date +%s) - start)) s"
fi
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j2 || status=$?
exit $status
