#!/bin/bash
# A real single-node Slurm for the runner tests: munged, slurmctld and slurmd
# on this machine, started with a generated configuration in DIR and stopped
# again. Partitions: `debug` (up, every core, no GPU gres) and `down` (down:
# jobs wait there forever, for the queue-timeout test).
#
#   slurm_cluster.sh start DIR   # prints nothing on success; DIR/env holds SLURM_CONF
#   slurm_cluster.sh stop DIR
set -u
cmd=$1 dir=$2

stop() {
  for p in slurmd slurmctld munged; do
    if [[ -f $dir/$p.pid ]]; then
      pid=$(cat "$dir/$p.pid")
      kill "$pid" 2>/dev/null
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null
      rm -f "$dir/$p.pid"
    fi
  done
}

if [[ $cmd == stop ]]; then
  stop
  exit 0
fi

for p in munged slurmctld slurmd srun squeue scancel; do
  if ! command -v "$p" >/dev/null && [[ ! -x /usr/sbin/$p ]]; then
    mkdir -p "$dir" && echo "SKIP: $p is not installed (apt-get install slurm-wlm munge)" | tee "$dir/skip"
    exit 0
  fi
done

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

rm -rf "$dir" && mkdir -p "$dir"/{state,spool,munge} && chmod 700 "$dir" "$dir/munge"
host=$(hostname -s)
cpus=$(nproc)
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$dir/munge/munge.key"
/usr/sbin/munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.sock" \
  --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/munge.seed" \
  || { echo "munged did not start: $(tail -3 "$dir/munged.log")"; exit 1; }

cat > "$dir/slurm.conf" <<CONF
ClusterName=tessel-test
SlurmctldHost=$host
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
GresTypes=gpu
MinJobAge=600
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
PartitionName=down Nodes=ALL MaxTime=INFINITE State=DOWN
CONF
echo "export SLURM_CONF=$dir/slurm.conf" > "$dir/env"
export SLURM_CONF=$dir/slurm.conf
/usr/sbin/slurmctld -f "$dir/slurm.conf" -i || { echo "slurmctld did not start: $(tail -3 "$dir/slurmctld.log")"; stop; exit 1; }
/usr/sbin/slurmd -f "$dir/slurm.conf" || { echo "slurmd did not start: $(tail -3 "$dir/slurmd.log")"; stop; exit 1; }
for _ in $(seq 100); do
  state=$(sinfo -h -p debug -o %t 2>/dev/null | head -1)
  [[ $state == idle* || $state == mix* ]] && exit 0
  sleep 0.2
done
echo "the node did not come up: sinfo says '$state'; $(tail -3 "$dir/slurmd.log")"
stop
exit 1
