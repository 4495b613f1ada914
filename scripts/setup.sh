#!/usr/bin/env bash
#===- scripts/setup.sh - install dependencies, configure and build --------===#
# Sets up a fresh Debian 12 machine for tessel: installs every Debian package
# the build, the tests and the benchmarks need (only those missing, so a
# second run needs no network), then configures and builds into build/.
#
#   scripts/setup.sh [extra cmake arguments]     e.g. -DTESSEL_WERROR=ON
#   scripts/setup.sh --tessel [cmake arguments]  only what a user runs: the
#       packages the binary needs and the `tessel` binary itself (no tests,
#       benchmarks or fuzz targets), its debug information split off into
#       build/tools/tessel.debug (gdb finds it through the binary's debuglink).
#       Its objects are those of a full build (same flags: warnings are errors
#       in both), so a later scripts/test.sh builds only the rest.
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
only_tessel=0
if [[ ${1:-} == --tessel ]]; then
  only_tessel=1
  shift
fi
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
  llvm-19-dev libzstd-dev libtree-sitter-dev nlohmann-json3-dev libboost1.81-dev libz3-dev
  libmimalloc-dev libtomlplusplus-dev
  # compiler/reference: Clang 19's static libraries, headers and CUDA wrapper headers
  libclang-19-dev libclang-cpp19-dev libclang-common-19-dev libpolly-19-dev
)
if [[ $only_tessel == 0 ]]; then
  packages+=(
    llvm-19-tools libgtest-dev libgmock-dev libbenchmark-dev
    neovim clang-format clang-tidy hyperfine
    # The runner tests start a real sshd and a real single-node Slurm (tests/runners).
    openssh-server openssh-client slurm-wlm munge
    # The real-editor test drives code-server in this headless browser (tests/vscode/real_editor.mjs; it
    # installs code-server, Node 24 and playwright-core from npm itself, into the build folder; code-server's
    # native kerberos module needs libkrb5-dev).
    chromium libkrb5-dev
  )
fi
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

if [[ $only_tessel == 1 ]]; then
  start=$(date +%s)
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE" -DTESSEL_WERROR=ON \
    -DTESSEL_BUILD_TESTS=OFF -DTESSEL_BUILD_BENCH=OFF "$@"
  cmake --build "$BUILD_DIR" -j "$JOBS" --target tessel
  # The debug information (about 200 MB of the 220) goes to tessel.debug beside the binary.
  bin=$BUILD_DIR/tools/tessel
  objcopy --only-keep-debug "$bin" "$bin.debug"
  objcopy --strip-debug --add-gnu-debuglink="$bin.debug" "$bin"
  echo "setup.sh: built $bin ($(($(stat -c %s "$bin") / 1048576)) MB; debug information in $bin.debug) in $(($(date +%s) - start)) s"
  exit 0
fi
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE" -DTESSEL_BUILD_TESTS=ON -DTESSEL_BUILD_BENCH=ON "$@"
cmake --build "$BUILD_DIR" -j "$JOBS"
