#!/usr/bin/env bash
#===- bench/corpus/device_gpu_runs.sh - real kernels on the GPU, no spec ---===#
# issue 28's GPU bar: kernels of libraries tessel was not tuned on, each
# specialised by inference alone, run by `tessel run --gpu` and compared with
# the interpreter (bench/corpus/runs.py --gpu). The kernels are pinned in
# bench/corpus/gpu_kernels.tsv (the first 10 with figures of each untuned
# library, five routers that call tl.sort / tl.reduce_or, and the seven kernels
# that take host TensorDescriptors). Takes what the
# device tool carries, as device_figures.sh does:
#   PACK/tessel-gpu.tar.xz   scripts/gpu_bundle.sh BUILD PACK
#   PACK/corpus.tar.xz       the unpacked libraries' Python and TOML files
# and writes OUT/gpuruns.md (the table) and OUT/gpuruns.tsv (one row a kernel).
#
#   bench/corpus/device_gpu_runs.sh PACK OUT [JOBS]
#===-----------------------------------------------------------------------===#
set -euo pipefail
PACK=${1:?usage: device_gpu_runs.sh PACK OUT [JOBS]}
OUT=${2:?usage: device_gpu_runs.sh PACK OUT [JOBS]}
JOBS=${3:-6}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=device_unpack.sh
. "$HERE/device_unpack.sh"
unpack_pack "$PACK"
mkdir -p "$OUT"
python3 "$HERE/runs.py" "$WORK/corpus" "$HERE/gpu_kernels.tsv" --tessel "$WORK/tessel-gpu/tessel" --gpu \
  --jobs "$JOBS" --timeout 150 --out "$OUT/gpuruns.tsv" >"$OUT/gpuruns.md"
cat "$OUT/gpuruns.md"
