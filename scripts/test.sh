#!/usr/bin/env bash
#===- scripts/test.sh - set up, build and run the whole test suite --------===#
# What CI runs (.ci/run): scripts/setup.sh with warnings as errors, then every
# ctest (unit, golden, robustness, tidy, protocol, and the replay of the fuzz
# regressions) on 2 parallel jobs, after the fuzz targets (scripts/fuzz.sh ci:
# a clang ASan + UBSan build in build-fuzz/, the regressions replayed there,
# each target fuzzed for FUZZ_SECONDS, default 30, from a fixed seed;
# TESSEL_CI_FUZZ=0 skips it; ctest's fuzz.ci-report shows its outcome).
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
  # ctest's fuzz.ci-report shows this report, so a finding ends up in the summary.
  fuzz_build=${FUZZ_BUILD_DIR:-build-fuzz}
  [[ $fuzz_build == /* ]] || fuzz_build=$PWD/$fuzz_build
  export TESSEL_FUZZ_REPORT=$fuzz_build/fuzz/ci-report.txt
  FUZZ_REPORT=$TESSEL_FUZZ_REPORT FUZZ_CORPUS=${FUZZ_CORPUS:-none} scripts/fuzz.sh ci "${FUZZ_SECONDS:-30}" || status=1
  echo "test.sh: fuzz targets took $(($(date +%s) - start)) s"
fi
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j2 || status=$?
exit $status
