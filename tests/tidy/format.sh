#!/usr/bin/env bash
#===- tests/tidy/format.sh - clang-format conformance, folder by folder ---===#
# Runs `clang-format --dry-run --Werror` over every .h/.cpp under the paths
# listed in tests/tidy/formatted-paths.txt (one per line, # comments). A
# folder joins the list once it is formatted, so conformance only grows.
#
#   tests/tidy/format.sh [REPO_ROOT] [CLANG_FORMAT]
#===-----------------------------------------------------------------------===#
set -uo pipefail

root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
clang_format=${2:-clang-format}
cd "$root" || exit 2
command -v "$clang_format" >/dev/null || { echo "format: $clang_format not found (apt-get install clang-format)" >&2; exit 2; }

paths=()
while read -r p; do
  [[ -z "$p" || "$p" == \#* ]] && continue
  paths+=("$p")
done < tests/tidy/formatted-paths.txt

mapfile -t files < <(find "${paths[@]}" -type f \( -name '*.h' -o -name '*.cpp' \) 2>/dev/null | sort)
status=0
for f in "${files[@]}"; do
  if ! "$clang_format" --dry-run --Werror "$f" >/dev/null 2>&1; then
    echo "$f: not clang-formatted (run: clang-format -i $f)"
    status=1
  fi
done
((status == 0)) && echo "format: ${#files[@]} files clean"
exit $status
