#!/usr/bin/env python3
"""The runners against real daemons: `tessel run` and `tessel tune` through
ssh:// (a real sshd on 127.0.0.1, tests/runners/sshd.sh) and slurm:// (a real
single-node Slurm, tests/runners/slurm_cluster.sh) give what the local run
gives, byte for byte; every failure is one clear line and a nonzero exit, in
bounded time.

    runner_test.py CASE      (environment: TESSEL, SOURCE, SSHD_DIR, SLURM_DIR)

Exit 77 (ctest's skip) with one line when the daemons' packages are absent.
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

TESSEL = os.environ["TESSEL"]
SOURCE = os.environ["SOURCE"]
HERE = os.path.join(SOURCE, "tests", "runners")
VECTOR_ADD = os.path.join(SOURCE, "samples", "vector_add.py")
MATMUL = os.path.join(SOURCE, "samples", "matmul.py")
SLOW = os.path.join(HERE, "slow_tune.py")


def fail(why):
    print("FAIL: " + why)
    sys.exit(1)


def daemon_env(kind):
    """The environment the fixture wrote, or a skip with its reason."""
    d = os.environ["SSHD_DIR" if kind == "ssh" else "SLURM_DIR"]
    if os.path.exists(os.path.join(d, "skip")):
        print(open(os.path.join(d, "skip")).read().strip())
        sys.exit(77)
    env_file = os.path.join(d, "env")
    if not os.path.exists(env_file):
        fail(f"the {kind} fixture did not start (no {env_file}); see its test's output")
    env = dict(os.environ)
    for line in open(env_file):
        name, _, value = line.strip()[len("export "):].partition("=")
        env[name] = value.strip("'")
    env.pop("SSH_AUTH_SOCK", None)
    return env


def tessel(args, env, timeout=120, text_input=None):
    start = time.monotonic()
    p = subprocess.run([TESSEL] + args, env=env, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr, time.monotonic() - start


def ssh_runner(host="tessel-test", **extra):
    query = "&".join([f"tessel={extra.pop('tessel', TESSEL)}"] + [f"{k}={v}" for k, v in extra.items()])
    return f"ssh://{host}?{query}"


def slurm_runner(partition="debug", **extra):
    query = "&".join([f"tessel={TESSEL}"] + [f"{k.replace('_', '-')}={v}" for k, v in extra.items()])
    return f"slurm://{partition}?{query}"


def runner_for(kind, **extra):
    return ssh_runner(**extra) if kind == "ssh" else slurm_runner(**extra)


def without_wall_times(result):
    """A JSON report with the interpreter's wall times (which differ between
    any two runs) taken out; any other output unchanged."""
    code, out, err = result
    try:
        report = json.loads(out)
    except ValueError:
        return result
    for inst in report.get("instances", []) if isinstance(report, dict) else []:
        if isinstance(inst, dict):
            inst.pop("millis", None)
    return code, json.dumps(report, indent=1, sort_keys=True), err


def expect_same(what, local, remote):
    local, remote = without_wall_times(local), without_wall_times(remote)
    if local[0] != remote[0] or local[1] != remote[1] or local[2] != remote[2]:
        fail(f"{what}: through the runner differs from the local run:\n--- local (exit {local[0]})\n"
             f"{local[1][:2000]}{local[2][:500]}\n--- runner (exit {remote[0]})\n{remote[1][:2000]}{remote[2][:500]}")


def expect_one_line(what, result, needle, status=2):
    code, out, err, _ = result
    lines = [l for l in err.splitlines() if l.strip()]
    if code != status:
        fail(f"{what}: exit {code}, expected {status}; stderr: {err}")
    if len(lines) != 1 or needle not in lines[0]:
        fail(f"{what}: expected one line with '{needle}' on stderr, got: {err!r}")
    print(f"{what}: {lines[0]}")


def case_run_identical(kind):
    env = daemon_env(kind)
    runner = runner_for(kind)
    for fmt in ("text", "json"):
        args = ["run", VECTOR_ADD, "--kernel", "vector_add_kernel", "--cpu", "--seed", "7", f"--format={fmt}"]
        local = tessel(args, env)[:3]
        remote = tessel(args + ["--runner", runner], env)[:3]
        expect_same(f"run --format={fmt}", local, remote)
    # An unsaved buffer: the editor's text goes there, not the file on disk.
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(open(VECTOR_ADD).read().replace("x + y", "x - y"))
        buffer = f.name
    try:
        args = ["run", VECTOR_ADD, "--kernel", "vector_add_kernel", "--cpu", "--text-from", buffer]
        local = tessel(args, env)[:3]
        remote = tessel(args + ["--runner", runner], env)[:3]
        expect_same("run --text-from", local, remote)
        if local[1] == tessel(args[:5], env)[1]:
            fail("the edited buffer ran the same as the file: the test does not test --text-from")
        # The editor's Run: text on stdout and the JSON report in --json-out, from one run.
        with tempfile.TemporaryDirectory() as d:
            a, b = os.path.join(d, "a.json"), os.path.join(d, "b.json")
            tessel(args + ["--json-out", a], env)
            tessel(args + ["--json-out", b, "--runner", runner], env)
            ja, jb = (without_wall_times((0, open(x).read(), ""))[1] for x in (a, b))
            if ja != jb or not ja.startswith("{"):
                fail("--json-out through the runner differs from the local one")
    finally:
        os.unlink(buffer)
    print(f"{kind}: tessel run through {runner} is the local run, byte for byte")


def case_tune_identical(kind):
    env = daemon_env(kind)
    args = ["tune", MATMUL, "--kernel", "matmul_kernel", "--cpu"]
    local = tessel(args + ["--format=json"], env)
    local_text = tessel(args, env)
    if local[0] != 0 or json.loads(local[1])["complete"] is not True:
        fail(f"the local tune did not complete: {local[2]}")
    runners = [runner_for(kind, workers=2)]
    for extra in (["--runner", runners[0]], ["--runner", runners[0], "--runner", "local?workers=1"]):
        remote = tessel(args + ["--format=json"] + extra, env)
        expect_same("tune --format=json " + " ".join(extra), local[:2] + ("",), remote[:2] + ("",))
        remote_text = tessel(args + extra, env)
        expect_same("tune " + " ".join(extra), local_text[:2] + ("",), remote_text[:2] + ("",))
        if "over 3 workers" not in remote[2] and len(extra) == 4:
            fail(f"the tune did not spread over both runners' 3 workers: {remote[2]}")
        print(remote[2].strip())
    print(f"{kind}: tessel tune through {runners[0]} (and with a local worker beside it) is the local tune")


def case_no_gpu(kind):
    env = daemon_env(kind)
    here = tessel(["run", VECTOR_ADD, "--kernel", "vector_add_kernel", "--gpu"], env)
    if here[0] == 0:
        print("SKIP: this machine has a GPU, so the no-GPU failure cannot be shown here")
        sys.exit(77)
    r = tessel(["run", VECTOR_ADD, "--kernel", "vector_add_kernel", "--gpu", "--runner", runner_for(kind)], env)
    expect_one_line(f"{kind} no GPU", r, "no GPU")


def run_and_kill(args, env, kill):
    """Starts tessel with args, calls kill() once a run is under way, and
    returns what tessel said; it must end on its own within a minute."""
    p = subprocess.Popen([TESSEL] + args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        kill()
        out, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        fail("tessel did not end after its runner was killed")
    return p.returncode, out, err


def processes():
    """(pid, parent pid, command line) of every process."""
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            stat = open(f"/proc/{pid}/stat").read()
            cmd = open(f"/proc/{pid}/cmdline").read().split("\0")
        except OSError:
            continue
        yield int(pid), int(stat[stat.rindex(")") + 2:].split()[1]), cmd


def wait_for(pred, what, seconds=30):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        v = pred()
        if v:
            return v
        time.sleep(0.1)
    fail(f"timed out waiting for {what}")


def expect_incomplete(what, result, needle):
    code, out, err = result
    if code != 1:
        fail(f"{what}: exit {code}, expected 1 (incomplete); stderr: {err}")
    failures = [l for l in err.splitlines() if needle in l]
    if len(failures) != 1:
        fail(f"{what}: expected one line with '{needle}', got: {err}")
    if not out.splitlines() or "INCOMPLETE" not in out.splitlines()[3 if "key:" in out else 2]:
        fail(f"{what}: the report does not say first that it is incomplete:\n{out}")
    if "best: config" in out.split("instance 0")[1].split("instance 1")[0] and "no result" in out:
        pass
    print(f"{what}: {failures[0]}")


def case_killed_ssh():
    env = daemon_env("ssh")
    sshd_pid = int(open(os.path.join(os.environ["SSHD_DIR"], "sshd.pid")).read())

    def runner_under_sshd():
        by_pid = {pid: (ppid, cmd) for pid, ppid, cmd in processes()}
        for pid, (ppid, cmd) in by_pid.items():
            if len(cmd) > 1 and cmd[1] == "runner" and cmd[0] == TESSEL:
                # Only the one this test's sshd started.
                up = ppid
                while up > 1 and up in by_pid:
                    if up == sshd_pid:
                        busy = any(p2 == pid for p2, _ in by_pid.values())
                        return pid if busy else None
                    up = by_pid[up][0]
        return None

    def kill():
        pid = wait_for(runner_under_sshd, "the remote runner to start a run")
        os.kill(pid, signal.SIGKILL)

    r = run_and_kill(["tune", SLOW, "--kernel", "slow_add", "--cpu", "--runner", ssh_runner(workers=1)], env, kill)
    expect_incomplete("ssh runner killed", r, "job killed")


def case_cancelled_ssh():
    """Ctrl-C of a tune over ssh: it says it was cancelled, in seconds, and nothing of it
    stays on the far side (the runner sees its stdin end and stops its run)."""
    env = daemon_env("ssh")
    sshd_pid = int(open(os.path.join(os.environ["SSHD_DIR"], "sshd.pid")).read())

    def under_sshd():
        by_pid = {pid: (ppid, cmd) for pid, ppid, cmd in processes()}
        found = []
        for pid, (ppid, cmd) in by_pid.items():
            if len(cmd) > 1 and cmd[0] == TESSEL and cmd[1] in ("runner", "run"):
                up = ppid
                while up > 1 and up in by_pid:
                    if up == sshd_pid:
                        found.append((pid, cmd[1]))
                        break
                    up = by_pid[up][0]
        return found

    p = subprocess.Popen([TESSEL, "tune", SLOW, "--kernel", "slow_add", "--cpu", "--runner", ssh_runner(workers=1)],
                         env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_for(lambda: any(kind == "run" for _, kind in under_sshd()), "a run under the test's sshd")
    start = time.monotonic()
    p.send_signal(signal.SIGINT)
    try:
        out, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        fail("tessel tune did not end after SIGINT")
    took = time.monotonic() - start
    if p.returncode != 1 or "cancelled" not in err or out:
        fail(f"after SIGINT: exit {p.returncode}, stdout {out!r}, stderr {err!r}")
    left = wait_for(lambda: not under_sshd() or None, "the far side to stop", seconds=10)
    print(f"cancelled in {took:.2f} s: {err.strip().splitlines()[-1]}; nothing left under sshd ({left})")


def case_killed_slurm():
    env = daemon_env("slurm")

    def running_job():
        q = subprocess.run(["squeue", "-h", "-o", "%i %T %j"], env=env, capture_output=True, text=True)
        for line in q.stdout.splitlines():
            job, state, name = line.split()
            if state == "RUNNING" and name == "tessel-runner":
                return job
        return None

    def kill():
        job = wait_for(running_job, "the runner's job step to run")
        time.sleep(0.5)  # a task is under way
        subprocess.run(["scancel", job], env=env, check=True)

    r = run_and_kill(["tune", SLOW, "--kernel", "slow_add", "--cpu", "--runner", slurm_runner(workers=1)], env, kill)
    expect_incomplete("slurm job killed", r, "job killed")
    if "CANCELLED" not in r[2]:
        fail(f"the job step's end does not say it was cancelled: {r[2]}")


def case_unreachable():
    env = daemon_env("ssh")
    r = tessel(["run", VECTOR_ADD, "--kernel", "vector_add_kernel", "--runner", ssh_runner("tessel-closed")], env)
    expect_one_line("ssh unreachable", r, "host unreachable")
    r = tessel(["tune", MATMUL, "--kernel", "matmul_kernel", "--runner", ssh_runner("tessel-closed")], env)
    if r[0] != 2 or "host unreachable" not in r[2] or r[1]:
        fail(f"tune with its only runner unreachable: exit {r[0]}, stdout {r[1]!r}, stderr {r[2]!r}")


def case_auth_refused():
    env = daemon_env("ssh")
    r = tessel(["run", VECTOR_ADD, "--kernel", "vector_add_kernel", "--runner", ssh_runner("tessel-badkey")], env)
    expect_one_line("ssh authentication refused", r, "authentication refused")


def case_version_mismatch():
    env = daemon_env("ssh")
    other = os.path.join(HERE, "other_version_tessel.py")
    r = tessel(["run", VECTOR_ADD, "--kernel", "vector_add_kernel", "--runner", ssh_runner(tessel=other)], env)
    expect_one_line("another version", r, "remote tessel is 0.0.1")


def case_not_a_runner():
    env = daemon_env("ssh")
    for cmd, needle in ((os.path.join(HERE, "not_a_runner.sh"), "not a tessel runner"),
                        ("/bin/false", "runner did not start"), ("/nonexistent/tessel", "no tessel there")):
        r = tessel(["run", VECTOR_ADD, "--kernel", "vector_add_kernel", "--runner", ssh_runner(tessel=cmd)], env, timeout=90)
        expect_one_line(f"remote command {cmd}", r, needle)


def case_queue_timeout():
    env = daemon_env("slurm")
    r = tessel(["run", VECTOR_ADD, "--kernel", "vector_add_kernel", "--runner", slurm_runner("down", queue_timeout=2)], env)
    expect_one_line("slurm queue timeout", r, "queue timeout")
    if "PartitionDown" not in r[2]:
        fail(f"the queue's reason is missing: {r[2]}")
    left = subprocess.run(["squeue", "-h", "-p", "down"], env=env, capture_output=True, text=True).stdout
    if left.strip():
        fail(f"the timed-out job is still queued: {left}")


def array_runner(partition="debug", **extra):
    spool = os.path.join(os.environ["SLURM_DIR"], "spool-arrays")
    return slurm_runner(partition, array=1, spool=spool, **extra)


def case_tune_array():
    """The sweep as one job array (sbatch --array, tasks and results through spool files)."""
    env = daemon_env("slurm")
    args = ["tune", MATMUL, "--kernel", "matmul_kernel", "--cpu", "--format=json"]
    local = tessel(args, env)
    remote = tessel(args + ["--runner", array_runner(workers=3)], env)
    expect_same("tune as a job array", local[:2] + ("",), remote[:2] + ("",))
    if "over 3 workers" not in remote[2]:
        fail(f"the array did not have 3 tasks: {remote[2]}")
    left = os.listdir(os.path.join(os.environ["SLURM_DIR"], "spool-arrays"))
    if left:
        fail(f"the spool directory was not cleaned: {left}")
    print(remote[2].strip())


def case_array_queue_timeout():
    env = daemon_env("slurm")
    r = tessel(["tune", MATMUL, "--kernel", "matmul_kernel", "--runner", array_runner("down", queue_timeout=2)], env)
    code, out, err, took = r
    lines = [l for l in err.splitlines() if "queue timeout" in l]
    if code != 1 or len(lines) != 1 or "job array" not in lines[0] or "INCOMPLETE" not in out:
        fail(f"array queue timeout: exit {code}, stderr {err!r}, stdout {out[:300]!r}")
    if took > 30:
        fail(f"the queue timeout of 2 s took {took:.0f} s")
    print(lines[0])


def case_array_killed():
    env = daemon_env("slurm")

    def running_array():
        q = subprocess.run(["squeue", "-h", "-o", "%A %T %j"], env=env, capture_output=True, text=True)
        for line in q.stdout.splitlines():
            job, state, name = line.split()
            if state == "RUNNING" and name == "tessel-array":
                return job
        return None

    def kill():
        job = wait_for(running_array, "the job array to run")
        time.sleep(0.5)
        subprocess.run(["scancel", job], env=env, check=True)

    r = run_and_kill(["tune", SLOW, "--kernel", "slow_add", "--cpu", "--runner", array_runner(workers=1)], env, kill)
    expect_incomplete("slurm job array killed", r, "job killed")
    if "CANCELLED" not in r[2]:
        fail(f"the array task's end does not say it was cancelled: {r[2]}")


def case_no_partition():
    env = daemon_env("slurm")
    r = tessel(["run", VECTOR_ADD, "--kernel", "vector_add_kernel", "--runner", slurm_runner("nosuch")], env)
    expect_one_line("slurm unknown partition", r, "no such partition")


def case_protocol():
    """`tessel runner` given bad input: one error message, a nonzero exit, no hang."""
    hello = json.dumps({"type": "hello", "protocol": 1, "tessel": "x"})
    for stdin, needle in (("not json\n", "not JSON"), ("", "no hello"),
                          (json.dumps({"type": "task"}) + "\n", "expected a hello"),
                          (hello + "\n", None)):
        p = subprocess.run([TESSEL, "runner"], input=stdin, capture_output=True, text=True, timeout=20)
        lines = p.stdout.splitlines()
        if p.returncode != 2 or not lines:
            fail(f"runner on {stdin!r}: exit {p.returncode}, stdout {p.stdout!r}")
        last = json.loads(lines[-1])
        if needle and (last["type"] != "error" or needle not in last["message"]):
            fail(f"runner on {stdin!r}: {lines[-1]}")
        if not needle and last["type"] != "hello":
            fail(f"runner to another version: expected its own hello before ending, got {lines[-1]}")
    own = subprocess.run([TESSEL, "--version"], capture_output=True, text=True).stdout.split()[1]
    good = json.dumps({"type": "hello", "protocol": 1, "tessel": own,
                       "build": subprocess.run([TESSEL, "--version"], capture_output=True,
                                               text=True).stdout.split("build ")[1].rstrip(")\n")})
    for bad in (json.dumps({"type": "task", "id": -1, "file": 1}), json.dumps({"type": "task", "id": 1}),
                json.dumps([1, 2]), "{" * 100000):
        p = subprocess.run([TESSEL, "runner"], input=good + "\n" + bad + "\n", capture_output=True, text=True,
                           timeout=20)
        last = json.loads(p.stdout.splitlines()[-1])
        if p.returncode != 2 or last["type"] != "error" or "bad task" not in last["message"]:
            fail(f"runner given {bad[:60]!r}: exit {p.returncode}, last line {p.stdout.splitlines()[-1][:200]}")
    print("tessel runner answers every malformed message with one error and ends")


CASES = {
    "protocol": case_protocol,
    "ssh.run_identical": lambda: case_run_identical("ssh"),
    "ssh.tune_identical": lambda: case_tune_identical("ssh"),
    "ssh.unreachable": case_unreachable,
    "ssh.auth_refused": case_auth_refused,
    "ssh.no_gpu": lambda: case_no_gpu("ssh"),
    "ssh.version_mismatch": case_version_mismatch,
    "ssh.not_a_runner": case_not_a_runner,
    "ssh.killed": case_killed_ssh,
    "ssh.cancelled": case_cancelled_ssh,
    "slurm.run_identical": lambda: case_run_identical("slurm"),
    "slurm.tune_identical": lambda: case_tune_identical("slurm"),
    "slurm.queue_timeout": case_queue_timeout,
    "slurm.no_partition": case_no_partition,
    "slurm.no_gpu": lambda: case_no_gpu("slurm"),
    "slurm.killed": case_killed_slurm,
    "slurm.tune_array": case_tune_array,
    "slurm.array_queue_timeout": case_array_queue_timeout,
    "slurm.array_killed": case_array_killed,
}

if __name__ == "__main__":
    CASES[sys.argv[1]]()
