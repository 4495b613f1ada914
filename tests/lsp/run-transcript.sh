#!/usr/bin/env bash
# Runs one LSP transcript test, lit-style: every `# RUN:` line of the test
# file is a shell pipeline, run with these substitutions:
#   %tessel    the tessel binary          %FileCheck  LLVM's FileCheck
#   %s         the test file              %S          the test file's folder
#   %t         a scratch path for this test (a file name; %t.d a folder is fine)
#   %not       a command that inverts the exit status of the next one
# A RUN line ending in `\` continues on the next `# RUN:` line. The test
# fails when any RUN pipeline fails (pipefail is on).
set -u
if [ $# -ne 3 ]; then
  echo "usage: run-transcript.sh TESSEL FILECHECK TEST" >&2
  exit 2
fi
tessel=$1 filecheck=$2
test=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
dir=$(cd "$(dirname "$test")" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/tessel-lsp-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
not="$dir/not.sh"

commands=()
pending=""
while IFS= read -r line; do
  case "$line" in
    "# RUN:"*) ;;
    *) continue ;;
  esac
  body=${line#"# RUN:"}
  if [[ "$body" == *\\ ]]; then
    pending+="${body%\\} "
    continue
  fi
  commands+=("$pending$body")
  pending=""
done < "$test"

if [ ${#commands[@]} -eq 0 ]; then
  echo "$test: no RUN lines" >&2
  exit 2
fi

status=0
for cmd in "${commands[@]}"; do
  cmd=${cmd//%tessel/$tessel}
  cmd=${cmd//%FileCheck/$filecheck}
  cmd=${cmd//%not/$not}
  cmd=${cmd//%s/$test}
  cmd=${cmd//%S/$dir}
  cmd=${cmd//%t/$scratch/t}
  echo "RUN: $cmd"
  if ! (cd "$scratch" && bash -o pipefail -c "$cmd"); then
    echo "FAILED: $cmd" >&2
    status=1
  fi
done
exit $status
