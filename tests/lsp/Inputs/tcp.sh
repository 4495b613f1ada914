#!/usr/bin/env bash
# `tessel lsp --listen 127.0.0.1:0` serves one client over TCP: it logs the
# port it bound, answers initialize and shutdown, and exits 0 after exit.
# Prints what the client received. Usage: tcp.sh TESSEL SCRATCH
set -u
tessel=$1 scratch=$2
"$tessel" lsp --listen 127.0.0.1:0 2> "$scratch.err" &
server=$!
port=
for _ in $(seq 100); do
  port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$scratch.err")
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { echo "the server did not report its port"; cat "$scratch.err"; kill $server; exit 1; }
exec 3<>/dev/tcp/127.0.0.1/$port
send() { printf 'Content-Length: %d\r\n\r\n%s' "${#1}" "$1" >&3; }
send '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}'
send '{"jsonrpc":"2.0","id":2,"method":"shutdown"}'
send '{"jsonrpc":"2.0","method":"exit"}'
timeout 10 cat <&3
echo
wait $server
echo "server exit code $?"
