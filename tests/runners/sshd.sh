#!/bin/bash
# A real OpenSSH server on 127.0.0.1 for the runner tests, with throwaway
# keys in DIR, and the client side the tests point TESSEL_SSH at:
#
#   sshd.sh start DIR   # DIR/ssh_config: hosts tessel-test (the
#                                # authorized key), tessel-badkey (a key the
#                                # server refuses) and tessel-closed (a port
#                                # nothing listens on)
#   sshd.sh stop DIR
set -u
cmd=$1 dir=$2

if [[ $cmd == stop ]]; then
  if [[ -f $dir/sshd.pid ]]; then
    kill "$(cat "$dir/sshd.pid")" 2>/dev/null
    rm -f "$dir/sshd.pid"
  fi
  exit 0
fi

for p in /usr/sbin/sshd ssh ssh-keygen; do
  if ! command -v "$p" >/dev/null; then
    mkdir -p "$dir" && echo "SKIP: $p is not installed (apt-get install openssh-server openssh-client)" | tee "$dir/skip"
    exit 0
  fi
done

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

rm -rf "$dir" && mkdir -p "$dir" && chmod 700 "$dir"
mkdir -p /run/sshd && chmod 755 /run/sshd # privilege separation directory sshd insists on
ssh-keygen -q -t ed25519 -N '' -f "$dir/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$dir/client_key"
ssh-keygen -q -t ed25519 -N '' -f "$dir/bad_key"
cp "$dir/client_key.pub" "$dir/authorized_keys"
port=$(free_port)
closed=$(free_port)
user=$(id -un)
cat > "$dir/sshd_config" <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $dir/host_key
AuthorizedKeysFile $dir/authorized_keys
PidFile $dir/sshd.pid
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
LogLevel ERROR
CONF
cat > "$dir/ssh_config" <<CONF
Host tessel-test tessel-badkey tessel-closed
  HostName 127.0.0.1
  User $user
  StrictHostKeyChecking no
  UserKnownHostsFile $dir/known_hosts
  IdentitiesOnly yes
  IdentityAgent none
  LogLevel ERROR
Host tessel-test
  Port $port
  IdentityFile $dir/client_key
Host tessel-badkey
  Port $port
  IdentityFile $dir/bad_key
Host tessel-closed
  Port $closed
  IdentityFile $dir/client_key
CONF
echo "export TESSEL_SSH='ssh -F $dir/ssh_config'" > "$dir/env"
/usr/sbin/sshd -f "$dir/sshd_config" -E "$dir/sshd.log" || { echo "sshd did not start: $(tail -3 "$dir/sshd.log")"; exit 1; }
for _ in $(seq 50); do
  ssh -F "$dir/ssh_config" -o BatchMode=yes tessel-test true 2>/dev/null && exit 0
  sleep 0.1
done
echo "sshd does not answer on 127.0.0.1:$port: $(tail -3 "$dir/sshd.log")"
exit 1
