#!/usr/bin/env bash
# Feeds a transcript to `tessel lsp --lit-test` in two phases, to test what
# the server does when files change on disk between two messages:
#   two-phase.sh TESSEL TRANSCRIPT ID COMMAND
# sends the transcript's lines before the line `# PHASE 2`, waits (up to 60 s)
# for the reply to request ID, runs COMMAND (a shell command line that edits
# files on disk), then sends the rest. Prints everything the server wrote;
# exits with the server's status (1 when the reply never came).
set -u
tessel=$1 transcript=$2 id=$3 command=$4
dir=$(mktemp -d "${TMPDIR:-/tmp}/tessel-two-phase.XXXXXX")
trap 'rm -rf "$dir"' EXIT
mkfifo "$dir/in"
"$tessel" lsp --lit-test < "$dir/in" > "$dir/out" &
server=$!
exec 3> "$dir/in"
sed '/^# PHASE 2/,$d' "$transcript" >&3
replied=0
for _ in $(seq 1 600); do
  if grep -q "\"id\":$id," "$dir/out"; then
    replied=1
    break
  fi
  sleep 0.1
done
if [ $replied -eq 0 ]; then
  echo "two-phase.sh: no reply to request $id within 60 s" >&2
  exec 3>&-
  wait $server
  cat "$dir/out"
  exit 1
fi
bash -c "$command"
sed -n '/^# PHASE 2/,$p' "$transcript" >&3
exec 3>&-
wait $server
status=$?
cat "$dir/out"
exit $status
