#!/usr/bin/env bash
#===- scripts/gpu_bundle.sh - tessel for a GPU machine, in one archive ----===#
# Packs what tests/gpu/gpu_suite.py runs on a GPU machine (Ubuntu 24.04 with
# only a base system, Python and the NVIDIA driver; no Debian libraries) into
# DEST/tessel-gpu.tar.xz: the built `tessel` and `unit_runtime`, stripped,
# and in lib/ the shared libraries they load that are not the C runtime or
# libstdc++ (libmimalloc, libz3, libtree-sitter, libzstd, libz: Debian 12
# ships no static libmimalloc or libz3, and LLVM is linked statically
# already). `tessel` finds lib/ through its RUNPATH ($ORIGIN/lib), so the
# unpacked folder runs as it is. Compressed (xz) it is about a third of the
# 64 MiB a device call carries; the suite unpacks it itself.
#
#   scripts/gpu_bundle.sh BUILD_DIR DEST
#===-----------------------------------------------------------------------===#
set -euo pipefail
BUILD=${1:?usage: scripts/gpu_bundle.sh BUILD_DIR DEST}
DEST=${2:?usage: scripts/gpu_bundle.sh BUILD_DIR DEST}
STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
mkdir -p "$STAGE/tessel-gpu/lib" "$DEST"
for b in tools/tessel tests/unit_runtime; do
  [[ -x "$BUILD/$b" ]] || { echo "gpu_bundle.sh: $BUILD/$b is not built" >&2; exit 1; }
  strip -o "$STAGE/tessel-gpu/$(basename "$b")" "$BUILD/$b"
  ldd "$BUILD/$b" | awk '/=> \// {print $3}' |
    grep -v -E '/(libc|libm|libdl|libpthread|librt|libgcc_s|libstdc\+\+)\.so' |
    while read -r lib; do cp -L "$lib" "$STAGE/tessel-gpu/lib/"; done || true
done
# Clang's resource headers (its CUDA wrapper): `tessel run --reference` compiles CUDA C++ in process and
# finds them in lib/clang/19 beside the binary on a machine without Clang's packages. The CUDA toolkit's
# headers and the C and C++ library headers a CUDA file includes must be on that machine.
mkdir -p "$STAGE/tessel-gpu/lib/clang"
cp -r /usr/lib/llvm-19/lib/clang/19 "$STAGE/tessel-gpu/lib/clang/19"
rm -rf "$STAGE/tessel-gpu/lib/clang/19/lib" # sanitizer runtimes: not needed
tar -C "$STAGE" -cf - tessel-gpu | xz -T0 -6 >"$DEST/tessel-gpu.tar.xz"
ls -l "$DEST/tessel-gpu.tar.xz"
du -sh "$STAGE/tessel-gpu" | sed 's/^/unpacked: /'
