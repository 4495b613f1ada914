#!/usr/bin/env bash
#===- tests/tidy/tidy.sh - cheap style rules that a reviewer should not police ===#
# Checks every C++ file under compiler/ diagnostics/ lsp/ tools/ (and the
# tests, benchmarks and scripts for the second rule):
#   1. line one is a banner: `//===- Name - summary ---===//` or a `//!` summary;
#   2. no to-do markers: write FIXME with a reason instead.
# Prints every offending file:line and fails if there is one.
#
#   tests/tidy/tidy.sh [REPO_ROOT]
#===-----------------------------------------------------------------------===#
set -uo pipefail

root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
cd "$root" || exit 2
status=0

mapfile -t sources < <(find compiler diagnostics lsp tools -type f \( -name '*.h' -o -name '*.cpp' -o -name '*.def' \) 2>/dev/null | sort)
if ((${#sources[@]} == 0)); then
  echo "tidy: no sources found under $root" >&2
  exit 2
fi
for f in "${sources[@]}"; do
  if ! head -n 1 "$f" | grep -qE '^//(===-|!)'; then
    echo "$f:1: missing banner: start the file with '//===- $(basename "$f") - <what it holds> ---===//'"
    status=1
  fi
done

# The marker is spelled in two pieces so that this script does not match itself.
marker='TO''DO'
while IFS= read -r hit; do
  echo "$hit: write FIXME (with the reason) instead of $marker"
  status=1
done < <(grep -rnI --include='*.h' --include='*.cpp' --include='*.def' --include='*.cmake' \
  --include='CMakeLists.txt' --include='*.sh' --include='*.py' -e "$marker" \
  compiler diagnostics lsp tools tests bench scripts 2>/dev/null | cut -d: -f1,2)

if ((status == 0)); then
  echo "tidy: ${#sources[@]} files clean"
fi
exit $status
