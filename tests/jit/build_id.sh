#!/usr/bin/env bash
#===- tests/jit/build_id.sh - cmake/BuildId.cmake on a scratch tree --------===#
# Usage: build_id.sh CMAKE BUILDID_CMAKE. The identity the JIT cache key takes
# (compiler/backend/BuildId.h) must change with every edit under compiler/,
# committed or not, carry the commit and a dirty mark where git has them, and
# leave the header untouched when nothing changed (no rebuild).
#===-----------------------------------------------------------------------===#
set -uo pipefail
cmake=$1
script=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "build_id: FAIL: $*" >&2; exit 1; }
id() { # the identity in the header
  "$cmake" -DSOURCE_DIR="$tmp/src" -DOUTPUT="$tmp/BuildId.h" -DEXTRA="$1" -P "$script" || fail "the script failed"
  sed -n 's/^#define TESSEL_BUILD_ID "\(.*\)"$/\1/p' "$tmp/BuildId.h"
}
mkdir -p "$tmp/src/compiler/backend"
echo 'int f() { return 1; }' >"$tmp/src/compiler/backend/a.cpp"
echo 'project(x)' >"$tmp/src/CMakeLists.txt"

a=$(id "LLVM 19")
[[ $a =~ ^nogit\+[0-9a-f]{16}$ ]] || fail "without git: '$a'"
stamp=$(stat -c %y "$tmp/BuildId.h")
sleep 1
[[ $(id "LLVM 19") == "$a" ]] || fail "the same tree gave another identity"
[[ $(stat -c %y "$tmp/BuildId.h") == "$stamp" ]] \
  || fail "an unchanged identity rewrote the header"
[[ $(id "LLVM 20") != "$a" ]] || fail "another LLVM kept the identity"
echo 'int f() { return 2; }' >"$tmp/src/compiler/backend/a.cpp"
b=$(id "LLVM 19")
[[ $b != "$a" ]] || fail "an edit under compiler/ kept the identity"
echo "build_id: the identity follows the sources, the header is rewritten only when it changes"

if command -v git >/dev/null; then
  git -C "$tmp/src" init -q && git -C "$tmp/src" add -A &&
    git -C "$tmp/src" -c user.name=t -c user.email=t@t commit -qm one || fail "git commit"
  head=$(git -C "$tmp/src" rev-parse --short=12 HEAD)
  c=$(id "LLVM 19")
  [[ $c == "$head+${b#nogit+}" ]] || fail "committed tree: '$c', expected '$head+${b#nogit+}'"
  echo 'int f() { return 3; }' >"$tmp/src/compiler/backend/a.cpp"
  d=$(id "LLVM 19")
  [[ $d =~ ^$head-dirty\+[0-9a-f]{16}$ && $d != "$head-dirty+${b#nogit+}" ]] || fail "edited tree: '$d'"
  echo "build_id: the commit and a dirty mark when git has them"
fi
echo "build_id: all passed"
