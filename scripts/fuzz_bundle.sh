#!/usr/bin/env bash
#===- scripts/fuzz_bundle.sh - the fuzz targets, for a machine with cores ===#
# Packs the built fuzz targets (build-fuzz/, scripts/fuzz.sh build), stripped,
# with their seeds and the Debian libraries they load, into one tar.xz laid
# out like a fuzz build folder, so that a long campaign can run on a machine
# with many cores and no build tools (the GPU machine: Ubuntu, no Debian
# libraries):
#
#   scripts/fuzz_bundle.sh OUT.tar.xz [TARGET...]        (here)
#   mkdir B && tar xJf OUT.tar.xz -C B                    (there, in a checkout)
#   LD_LIBRARY_PATH=B/lib FUZZ_BUILD_DIR=B FUZZ_NO_BUILD=1 FUZZ_MINIMIZE=0 \
#     TESSEL_FUZZ_SOURCE_DIR=$PWD scripts/fuzz.sh TARGET MINUTES WORKERS
#
# Findings stay raw in B/fuzz/findings/TARGET/: bring them back and minimize
# them here (scripts/fuzz.sh's fuzz, or -minimize_crash by hand). The corpus
# grown here so far (B/fuzz/corpus/TARGET/) travels too, so that a campaign
# there goes on from where the last one stopped; bring B/fuzz/corpus back
# for the next.
#===-----------------------------------------------------------------------===#
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
OUT=${1:?usage: scripts/fuzz_bundle.sh OUT.tar.xz [TARGET...]}
shift
targets=("$@")
((${#targets[@]})) || targets=(lsp frontend edits launch codegen host index runner reference)
BUILD=${FUZZ_BUILD_DIR:-build-fuzz}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/tests" "$stage/lib" "$stage/fuzz/seeds"
for t in "${targets[@]}"; do
  strip -o "$stage/tests/fuzz_$t" "$BUILD/tests/fuzz_$t"
  python3 tests/fuzz/seeds.py "$t" "$stage/fuzz/seeds/$t" ${FUZZ_CORPUS:+--corpus "$FUZZ_CORPUS"}
  if [[ -d $BUILD/fuzz/corpus/$t ]]; then
    mkdir -p "$stage/fuzz/corpus"
    cp -r "$BUILD/fuzz/corpus/$t" "$stage/fuzz/corpus/$t"
  fi
  ldd "$BUILD/tests/fuzz_$t" | awk '/=> \// {print $3}' |
    grep -v -E '/(libc|libm|libdl|libpthread|librt|libresolv|libgcc_s|libstdc\+\+)\.so' |
    while read -r lib; do cp -L "$lib" "$stage/lib/"; done
done
# The targets read at most -max_len bytes of an input: 4 KB is every target's
# but index's (16 KB, a small tree's whole index).
find "$stage/fuzz/seeds" -path '*/seeds/index/*' -prune -o -type f -size +4k -exec truncate -s 4096 {} +
find "$stage/fuzz/seeds" -path '*/seeds/index/*' -type f -size +16k -exec truncate -s 16384 {} +
tar cf - -C "$stage" . | xz -T0 -9 >"$OUT"
du -h "$OUT"
