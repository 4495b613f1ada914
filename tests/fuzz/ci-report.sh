#!/usr/bin/env bash
#===- tests/fuzz/ci-report.sh - the fuzz step's outcome, as a ctest ------===#
# scripts/test.sh runs the fuzz targets (scripts/fuzz.sh ci) before ctest and
# names their report in TESSEL_FUZZ_REPORT; this test (fuzz.ci-report) prints
# it and fails when a target found something, its build failed or a target
# is missing from it. So a fuzz finding is in ctest's summary, the end of
# CI's log, with the target, the kind and the input (base64). Skipped when
# the fuzz step did not run (a plain ctest, or TESSEL_CI_FUZZ=0).
#
#   tests/fuzz/ci-report.sh TARGET...
#===-----------------------------------------------------------------------===#
set -uo pipefail
report=${TESSEL_FUZZ_REPORT:-}
if [[ -z $report ]]; then
  echo "fuzz.ci-report: skipped: the fuzz targets were not run (scripts/test.sh runs them)"
  exit 77
fi
if [[ ! -f $report ]]; then
  echo "fuzz.ci-report: $report is missing: the fuzz step did not run to its end"
  exit 1
fi
cat "$report"
status=0
grep -q FAILED "$report" && status=1
for t in "$@"; do
  if ! grep -q "^$t: " "$report"; then
    echo "fuzz.ci-report: no outcome for target $t"
    status=1
  fi
done
exit $status
