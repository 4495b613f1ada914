#!/usr/bin/env bash
#===- scripts/gpu_bundle.sh - what scripts/gpu_check.sh needs, in one folder ===#
# Copies the built `tessel` and `unit_runtime`, stripped, into DEST, and into
# DEST/lib the shared libraries they load that are Debian's own (tree-sitter,
# mimalloc, z3...), so that the bundle runs on a GPU machine that has only a
# base system and the NVIDIA driver.
#
#   scripts/gpu_bundle.sh BUILD_DIR DEST
#===-----------------------------------------------------------------------===#
set -euo pipefail
BUILD=${1:?usage: scripts/gpu_bundle.sh BUILD_DIR DEST}
DEST=${2:?usage: scripts/gpu_bundle.sh BUILD_DIR DEST}
mkdir -p "$DEST/lib"
for b in tools/tessel tests/unit_runtime; do
  strip -o "$DEST/$(basename "$b")" "$BUILD/$b"
  # Libraries outside the C runtime and libstdc++, which every Linux has.
  ldd "$BUILD/$b" | awk '/=> \// {print $3}' | grep -v -E '/(libc|libm|libdl|libpthread|librt|libgcc_s|libstdc\+\+)\.so' |
    while read -r lib; do cp -L "$lib" "$DEST/lib/"; done
done
du -sh "$DEST"
