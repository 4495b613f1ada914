#!/usr/bin/env bash
#===- bench/corpus/device_figures.sh - corpus figures on a many-core box ---===#
# bench/corpus/figures.py over every set, on a machine with more cores than the
# 2-core dev VM (the GPU box's 16): the whole corpus in minutes instead of
# hours. Takes what the device tool carries:
#   PACK/tessel-gpu.tar.xz   scripts/gpu_bundle.sh BUILD PACK
#   PACK/corpus.tar.xz       the unpacked libraries' Python and TOML files,
#                            one folder owner+name each (pins.txt), e.g.
#     (cd CORPUS && find . -name '*.py' -o -name '*.toml' | tar -cf - -T - | xz -T0 >PACK/corpus.tar.xz)
# and writes OUT/figures-SET.md (figures.py's tables) and OUT/kernels-SET.tsv.
# Each library is a user's clone: its root gets a .git folder.
#
#   bench/corpus/device_figures.sh PACK OUT [JOBS] [SET...]     (default: 6 named unseen holdout)
#===-----------------------------------------------------------------------===#
set -euo pipefail
PACK=${1:?usage: device_figures.sh PACK OUT [JOBS] [SET...]}
OUT=${2:?usage: device_figures.sh PACK OUT [JOBS] [SET...]}
JOBS=${3:-6}
shift $(($# < 3 ? $# : 3))
SETS=("$@")
((${#SETS[@]})) || SETS=(named unseen holdout)
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=device_unpack.sh
. "$HERE/device_unpack.sh"
unpack_pack "$PACK"
mkdir -p "$OUT"
for s in "${SETS[@]}"; do
  start=$(date +%s)
  python3 "$HERE/figures.py" "$WORK/corpus" --tessel "$WORK/tessel-gpu/tessel" --set "$s" --jobs "$JOBS" \
    --out "$OUT/kernels-$s.tsv" >"$OUT/figures-$s.md"
  echo "set $s: $(($(date +%s) - start)) s"
  grep '^| total' "$OUT/figures-$s.md" || true
done
