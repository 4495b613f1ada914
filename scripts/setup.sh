#!/usr/bin/env bash
#===- scripts/setup.sh - install dependencies, configure and build --------===#
# Sets up a fresh Debian 12 machine for tessel: installs every Debian package
# the build, the tests and the benchmarks need (only those missing, so a
# second run needs no network), then configures and builds into build/.
#
#   scripts/setup.sh [extra cmake arguments]     e.g. -DTESSEL_WERROR=ON
#
# Environment: BUILD_DIR (default build), JOBS (default nproc), WITH_FUZZ=1
# (also install clang 19 and its libFuzzer/sanitizer runtime, which only the
# fuzz targets need: scripts/fuzz.sh; the build itself stays GCC),
# TESSEL_BUILD_TYPE (default RelWithDebInfo: -O2; GCC 12 at -O3 raises false
# -Wrestrict warnings in libstdc++ that -DTESSEL_WERROR=ON turns into errors).
# A dependency that is still missing stops the configure step with a message
# naming the package (cmake/TesselDependencies.cmake).
#===-----------------------------------------------------------------------===#
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-$(nproc)}
BUILD_TYPE=${TESSEL_BUILD_TYPE:-RelWithDebInfo}

die() { echo "setup.sh: error: $*" >&2; exit 1; }

if [[ ! -r /etc/debian_version ]] || ! command -v apt-get >/dev/null || ! command -v dpkg-query >/dev/null; then
  die "this script installs Debian packages with apt-get; run it on Debian 12 (bookworm)"
fi
case "$(cut -d. -f1 /etc/debian_version)" in
  12) ;;
  *) echo "setup.sh: warning: written for Debian 12, found $(cat /etc/debian_version); continuing" >&2 ;;
esac

packages=(
  build-essential cmake ninja-build pkg-config git python3
  llvm-19-dev llvm-19-tools libzstd-dev libtree-sitter-dev nlohmann-json3-dev libboost1.81-dev libz3-dev
  libgtest-dev libgmock-dev libbenchmark-dev libmimalloc-dev libtomlplusplus-dev
  neovim clang-format clang-tidy hyperfine
  # The real-editor test drives code-server in this headless browser (tests/vscode/real_editor.mjs; it
  # installs code-server, Node 24 and playwright-core from npm itself, into the build folder; code-server's
  # native kerberos module needs libkrb5-dev).
  chromium libkrb5-dev
)
# node 20 and npm fetch the tree-sitter-python grammar and build the VS Code
# extension; keep an existing installation (e.g. from NodeSource), else use Debian's.
if ! command -v npm >/dev/null; then
  packages+=(nodejs npm)
fi
if [[ ${WITH_FUZZ:-0} == 1 ]]; then
  packages+=(clang-19 libclang-rt-19-dev)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "setup.sh: installing ${missing[*]}"
  sudo=()
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || die "need root (or sudo) to install: ${missing[*]}"
    sudo=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -q || die "apt-get update failed"
  "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" \
    || die "could not install: ${missing[*]}"
fi

command -v npm >/dev/null || die "npm is missing (apt-get install npm)"

cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE" "$@"
cmake --build "$BUILD_DIR" -j "$JOBS"
