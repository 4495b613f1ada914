# shellcheck shell=bash
#===- bench/corpus/device_unpack.sh - a device pack, unpacked --------------===#
# Sourced by the device_*.sh scripts. unpack_pack PACK unpacks what the device
# tool carried into a fresh folder, $WORK:
#   PACK/tessel-gpu.tar.xz   scripts/gpu_bundle.sh BUILD PACK -> $WORK/tessel-gpu/tessel
#   PACK/corpus.tar.xz       the libraries' Python and TOML files -> $WORK/corpus/owner+name,
#                            each a user's clone (a .git folder at its root)
# and points the JIT cache at $WORK/cache, so that every kernel is compiled in this run.
#===-----------------------------------------------------------------------===#
unpack_pack() {
  WORK=$(mktemp -d)
  tar -xJf "$1/tessel-gpu.tar.xz" -C "$WORK"
  mkdir -p "$WORK/corpus"
  tar -xJf "$1/corpus.tar.xz" -C "$WORK/corpus"
  for d in "$WORK"/corpus/*/; do mkdir -p "$d/.git"; done
  export XDG_CACHE_HOME=$WORK/cache
}
