#!/usr/bin/env bash
#===- scripts/test.sh - set up, build and run the whole test suite --------===#
# What CI runs (.ci/run): scripts/setup.sh with warnings as errors, then every
# ctest (unit, golden, robustness, tidy, protocol) on 2 parallel jobs. Ends
# with ctest's summary line; the exit status is ctest's.
#
#   scripts/test.sh [extra cmake arguments]
#===-----------------------------------------------------------------------===#
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/setup.sh -DTESSEL_WERROR=ON "$@"
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j2
