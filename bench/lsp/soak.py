#!/usr/bin/env python3
"""bench/lsp/soak.py - a long day of typing: the language server must not grow, slow down or die.

Copies up to --files Python files with `@triton.jit` functions (real libraries for the full run,
tessel's samples for CI's short one) into a throwaway workspace (a pyproject.toml at its root),
starts `tessel lsp` there with the JIT tier and the bounds prover on (the defaults), opens them
all, and then for --minutes replays what an editor sends while someone works:

  type      a burst of keystrokes (60-140 ms apart) inserting a statement inside a kernel, one
            character per didChange, then the same keys deleted: the file ends as it began. The
            statements come from a fixed set of 24, so the server's bounded caches (modules,
            analyses, compiled kernels) fill during the warm-up and what grows after is a leak
  request   hover, completion, code lens, document symbols, signature help, inlay hints
  save      the buffer written to disk, didSave and the watched-file change
  reopen    didClose, then didOpen of the disk's text
  workspace a new module created (didChangeWatchedFiles: Created), edited, then deleted

Measured: the time from the last keystroke of a burst to the publishDiagnostics of its version
(the front tier's keystroke; goal KEY_GOAL_MS at p99, in every window of the run), each
request's reply (goal REQUEST_GOAL_MS at p99; none may exceed HANG_MS), and the server's
resident memory (VmRSS) every --sample-every seconds. Memory growth is taken between the end of
the warm-up (--warmup minutes; the first sixth of the run by default, 1.5 in the short form) and the
end (the medians of the first and the last sixth of the samples after it), and as the slope of a
least-squares line through those samples. The run fails (exit 1) on a crash,
an answer slower than HANG_MS, p99 over a goal, or growth of --max-growth percent or more.

    bench/lsp/soak.py TESSEL --minutes 60 DIR...      the full run (by hand; figures to RESULTS.md)
    bench/lsp/soak.py TESSEL --minutes 5 --short      CI's form, over 12 of samples/' files, with a warm-up of
                                                      1.5 minutes (tests/lsp/tests.cmake)
"""
import argparse
import json
import os
import queue
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
JIT = re.compile(r"^@\s*(?:triton\s*\.\s*)?jit\b", re.M)
KEY_GOAL_MS = 200
REQUEST_GOAL_MS = 300
HANG_MS = 10000
STATEMENTS = [f"soak_{k} = {v}" for k in ("a", "b", "c", "d") for v in ("0", "1.5", "offs", "pid * 2", "tl.zeros((16,), tl.float32)", "None")]


class Client:
    """`tessel lsp` over stdio; a reader thread files every message by kind."""

    def __init__(self, args, cwd, log):
        self.p = subprocess.Popen(args, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log)
        self.lock = threading.Lock()
        self.replies = {}
        self.reply_cv = threading.Condition()
        self.published = {}  # uri -> (version, time) of the latest
        self.arrivals = {}  # (uri, version) -> time of its first publishDiagnostics
        self.pub_cv = threading.Condition()
        self.next_id = 1000
        self.dead = None
        threading.Thread(target=self._reader, daemon=True).start()

    def _reader(self):
        out = self.p.stdout
        try:
            while True:
                header = b""
                while not header.endswith(b"\r\n\r\n"):
                    c = out.read(1)
                    if not c:
                        raise EOFError("the server closed its output")
                    header += c
                n = int(re.search(rb"Content-Length: (\d+)", header).group(1))
                m = json.loads(out.read(n))
                now = time.monotonic()
                if "method" in m and "id" in m:
                    self.send({"jsonrpc": "2.0", "id": m["id"], "result": None})
                elif "id" in m:
                    with self.reply_cv:
                        self.replies[m["id"]] = (m, now)
                        self.reply_cv.notify_all()
                elif m.get("method") == "textDocument/publishDiagnostics":
                    p = m["params"]
                    with self.pub_cv:
                        self.published[p["uri"]] = (p.get("version"), now)
                        self.arrivals.setdefault((p["uri"], p.get("version")), now)
                        self.pub_cv.notify_all()
        except Exception as e:  # noqa: BLE001 - any end of the stream is the server's death
            self.dead = str(e)
            with self.reply_cv:
                self.reply_cv.notify_all()
            with self.pub_cv:
                self.pub_cv.notify_all()

    def send(self, msg):
        body = json.dumps(msg).encode()
        with self.lock:
            self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.p.stdin.flush()

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        """Seconds to the reply (HANG_MS/1000 and more: no reply)."""
        self.next_id += 1
        rid = self.next_id
        t = time.monotonic()
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        with self.reply_cv:
            self.reply_cv.wait_for(lambda: rid in self.replies or self.dead, timeout=HANG_MS / 1000)
            got = self.replies.pop(rid, None)
        if got is None:
            return None, HANG_MS / 1000
        return got[0], got[1] - t

    def wait_published(self, uri, version):
        """Waits for the publishDiagnostics of uri at version or later; False on a hang."""
        with self.pub_cv:
            ok = self.pub_cv.wait_for(
                lambda: self.dead or (uri in self.published and (self.published[uri][0] or 0) >= version),
                timeout=HANG_MS / 1000)
            return bool(ok) and not self.dead

    def arrival(self, uri, version):
        with self.pub_cv:
            return self.arrivals.pop((uri, version), None)

    def rss_mib(self, pid=None, field="VmRSS"):
        try:
            for line in open(f"/proc/{pid or self.p.pid}/status"):
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
        except OSError:
            return None
        return None

    def children_rss_mib(self):
        """The server's child processes (the JIT worker), summed: they must not grow either."""
        total, todo = 0.0, [self.p.pid]
        while todo:
            pid = todo.pop()
            try:
                for task in os.listdir(f"/proc/{pid}/task"):
                    kids = open(f"/proc/{pid}/task/{task}/children").read().split()
                    for k in kids:
                        todo.append(int(k))
                        total += self.rss_mib(int(k)) or 0.0
            except OSError:
                continue
        return total


class Doc:
    def __init__(self, path, uri):
        self.path, self.uri = path, uri
        self.text = path.read_text()
        self.version = 1
        self.open = True

    def kernel_lines(self):
        """Lines inside @jit function bodies where a statement can go: (line, indent)."""
        lines = self.text.split("\n")
        out = []
        for i, l in enumerate(lines):
            if JIT.match(l):
                j = i + 1
                while j < len(lines) and not lines[j].lstrip().startswith("def "):
                    j += 1
                while j < len(lines) and not lines[j].rstrip().endswith(":"):
                    j += 1
                if j + 1 < len(lines):
                    body = lines[j + 1]
                    ind = len(body) - len(body.lstrip())
                    if ind and body.strip() and not body.strip().startswith(('"""', "'''")):
                        out.append((j + 1, ind))
        return out


def percentile(xs, q):
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def pick_files(dirs, n, rng):
    files = []
    for d in dirs:
        d = Path(d)
        cands = [d] if d.is_file() else sorted(p for p in d.rglob("*.py") if p.is_file() and "/." not in str(p))
        for p in cands:
            try:
                t = p.read_text()
            except (OSError, UnicodeDecodeError):
                continue
            if JIT.search(t) and 200 < len(t) < 200_000:
                files.append(p)
    rng.shuffle(files)
    return files[:n]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tessel")
    ap.add_argument("dirs", nargs="*")
    ap.add_argument("--minutes", type=float, default=60)
    ap.add_argument("--files", type=int, help="files typed in (default 50; short 12)")
    ap.add_argument("--short", action="store_true", help="CI's form: tessel's samples, 5 minutes")
    ap.add_argument("--warmup", type=float, help="minutes (default: a sixth of the run)")
    ap.add_argument("--sample-every", type=float, help="seconds between memory samples (default 60, short 15)")
    ap.add_argument("--max-growth", type=float, default=5.0, help="percent")
    ap.add_argument("--idle-at-end", type=float, default=0, metavar="SECONDS",
                    help="keep the server open and idle this long after the run (for a heap snapshot of a server "
                         "at rest, e.g. a heaptrack wrapper that kills it then)")
    ap.add_argument("--seed", type=int, default=34)
    ap.add_argument("--json", help="write the samples and latencies here")
    ap.add_argument("--trace", action="store_true", help="print each action as it starts")
    a = ap.parse_intermixed_args()
    a.tessel = str(Path(a.tessel).resolve())
    rng = random.Random(a.seed)
    dirs = a.dirs or [ROOT / "samples"]
    # The short form types in fewer files: growth is measured after a warm-up, and a warm-up means the
    # workload has been seen. Five minutes make about 80 bursts of typing; over 50 files most are typed
    # in for the first time after the warm-up, so the bounded caches (compiled kernels, proofs, each
    # file's versions) were still filling at the end, and a leak per compile hid among first compiles.
    # Over 12, each file is typed in about twice during the warm-up and five times after it.
    files = pick_files(dirs, a.files or (12 if a.short else 50), rng)
    if not files:
        sys.exit("soak.py: no file with @triton.jit functions under " + " ".join(map(str, dirs)))
    sample_every = a.sample_every or (15 if a.short else 60)
    warmup = a.warmup if a.warmup is not None else 1.5 if a.short else a.minutes / 6
    work = Path(tempfile.mkdtemp(prefix="tessel-soak-"))
    ws = work / "ws"
    ws.mkdir()
    (ws / "pyproject.toml").write_text("[project]\nname = 'soak'\n")
    docs = []
    for i, p in enumerate(files):
        dst = ws / f"m{i:02d}_{p.name}"
        shutil.copyfile(p, dst)
        docs.append(Doc(dst, dst.as_uri()))
    log = open(work / "server.log", "w")
    c = Client([a.tessel, "lsp", "--log=verbose"], ws, log)
    failures = []
    keys, requests, samples, workers, parts = [], {}, [], [], []
    windows = {}  # minute -> keystroke latencies
    start = time.monotonic()

    def fail(msg):
        failures.append(msg)
        print("soak.py: FAIL:", msg, flush=True)

    def alive():
        if c.dead or c.p.poll() is not None:
            fail(f"the server died ({c.dead or 'exit ' + str(c.p.returncode)}); log: {work / 'server.log'}")
            return False
        return True

    init, dt = c.request("initialize", {"processId": os.getpid(), "rootUri": ws.as_uri(),
                                        "workspaceFolders": [{"uri": ws.as_uri(), "name": "soak"}],
                                        "capabilities": {"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": True}},
                                                         "textDocument": {"publishDiagnostics": {"versionSupport": True}}}})
    if init is None:
        sys.exit("soak.py: the server did not answer initialize")
    c.notify("initialized", {})
    for d in docs:
        c.notify("textDocument/didOpen", {"textDocument": {"uri": d.uri, "languageId": "python", "version": d.version, "text": d.text}})

    def change(d, start_off, end_off, new):
        def pos(off):
            before = d.text[:off]
            line = before.count("\n")
            col = len(before) - (before.rfind("\n") + 1)
            return {"line": line, "character": len(before[len(before) - col:].encode("utf-16-le")) // 2}
        rng_ = {"start": pos(start_off), "end": pos(end_off)}
        d.text = d.text[:start_off] + new + d.text[end_off:]
        d.version += 1
        c.notify("textDocument/didChange", {"textDocument": {"uri": d.uri, "version": d.version},
                                            "contentChanges": [{"range": rng_, "text": new}]})
        return d.version, time.monotonic()

    def offset_of(d, line):
        lines = d.text.split("\n")
        return sum(len(l) + 1 for l in lines[:line])

    def type_burst(d):
        spots = d.kernel_lines()
        if not spots:
            return
        line, ind = rng.choice(spots)
        stmt = " " * ind + rng.choice(STATEMENTS) + "\n"
        at = offset_of(d, line)
        sent = [change(d, at + i, at + i, ch) for i, ch in enumerate(stmt) if time.sleep(rng.uniform(0.06, 0.14)) is None]
        ok = c.wait_published(d.uri, d.version)
        sent += [change(d, at + i, at + i + 1, "") for i in range(len(stmt) - 1, -1, -1)
                 if time.sleep(rng.uniform(0.03, 0.08)) is None]
        ok = c.wait_published(d.uri, d.version) and ok
        if not ok:
            fail(f"no diagnostics within {HANG_MS} ms after typing in {d.path.name}")
        # Every keystroke whose version was published (a later key may supersede one in flight;
        # the last of each burst is always published).
        for version, t in sent:
            got = c.arrival(d.uri, version)
            if got is not None:
                keys.append(got - t)
                windows.setdefault(int((t - start) // 60), []).append(got - t)

    def ask(d):
        spots = d.kernel_lines()
        line = rng.choice(spots)[0] if spots else 0
        lines = d.text.split("\n")
        col = min(len(lines[line]), rng.randrange(4, 30)) if line < len(lines) else 0
        td = {"uri": d.uri}
        method, params = rng.choice([
            ("textDocument/hover", {"textDocument": td, "position": {"line": line, "character": col}}),
            ("textDocument/completion", {"textDocument": td, "position": {"line": line, "character": col}}),
            ("textDocument/codeLens", {"textDocument": td}),
            ("textDocument/documentSymbol", {"textDocument": td}),
            ("textDocument/signatureHelp", {"textDocument": td, "position": {"line": line, "character": col}}),
            ("textDocument/inlayHint", {"textDocument": td, "range": {"start": {"line": 0, "character": 0},
                                                                      "end": {"line": len(lines), "character": 0}}}),
        ])
        m, dt = c.request(method, params)
        if m is None:
            fail(f"{method} got no reply within {HANG_MS} ms")
        requests.setdefault(method, []).append(dt)

    def watched(uri, kind):
        c.notify("workspace/didChangeWatchedFiles", {"changes": [{"uri": uri, "type": kind}]})

    def save(d):
        d.path.write_text(d.text)
        c.notify("textDocument/didSave", {"textDocument": {"uri": d.uri}})
        watched(d.uri, 2)

    def reopen(d):
        c.notify("textDocument/didClose", {"textDocument": {"uri": d.uri}})
        d.text = d.path.read_text()
        d.version += 1
        c.notify("textDocument/didOpen", {"textDocument": {"uri": d.uri, "languageId": "python", "version": d.version, "text": d.text}})

    def workspace_change():
        p = ws / f"soak_new_{rng.randrange(4)}.py"
        p.write_text("import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef soak_helper(x):\n    return x * 2\n")
        watched(p.as_uri(), 1)
        time.sleep(0.5)
        p.unlink()
        watched(p.as_uri(), 3)

    next_sample = start
    end = start + a.minutes * 60
    actions = 0
    while time.monotonic() < end and alive():
        now = time.monotonic()
        if now >= next_sample:
            r = c.rss_mib()
            if r is not None:
                w = c.children_rss_mib()
                samples.append(((now - start) / 60, r))
                workers.append(((now - start) / 60, w))
                # Resident memory in two parts: the heap's (anonymous) pages, where a leak shows, and
                # the pages of the binary's code and data the server has touched so far (file-backed),
                # which grow as new code paths run and which the kernel may drop at any time.
                anon, filed = c.rss_mib(field="RssAnon"), c.rss_mib(field="RssFile")
                parts.append(((now - start) / 60, anon, filed))
                print(f"soak.py: {(now - start) / 60:5.1f} min  RSS {r:7.1f} MiB (anon {anon or 0:.1f}, file "
                      f"{filed or 0:.1f})  workers {w:6.1f} MiB  "
                      f"keys {len(keys)}  p99 {percentile(keys, 0.99) * 1000:.0f} ms", flush=True)
            next_sample += sample_every
        d = rng.choice(docs)
        roll = rng.random()
        if a.trace:
            kind = ("type" if roll < 0.55 else "ask" if roll < 0.85 else "save" if roll < 0.93 else "reopen"
                    if roll < 0.97 else "workspace")
            print(f"soak.py: {(now - start) / 60:6.2f} min  {kind} {d.path.name}", flush=True)
        if roll < 0.55:
            type_burst(d)
        elif roll < 0.85:
            ask(d)
        elif roll < 0.93:
            save(d)
        elif roll < 0.97:
            reopen(d)
        else:
            workspace_change()
        actions += 1
        time.sleep(rng.uniform(0.1, 0.4))
    r = c.rss_mib()
    if r is not None:
        samples.append(((time.monotonic() - start) / 60, r))
    if a.idle_at_end:
        time.sleep(a.idle_at_end)
    if alive():
        try:
            m, _ = c.request("shutdown", None)
            c.notify("exit", None)
            c.p.wait(timeout=30)
        except Exception as e:  # noqa: BLE001
            fail(f"shutdown: {e}")

    # Memory after the warm-up: growth end vs start, and the trend.
    after = [(t, r) for t, r in samples if t >= warmup]
    growth = slope = 0.0
    if len(after) >= 2:
        # The median of the first and of the last sixth of the samples (at least one each): the
        # allocator returning a freed cache to the system between two samples is not a trend.
        k = max(1, len(after) // 6)
        # statistics.median: with an even count, the mean of the middle two (the upper one alone
        # made the last sixth of a short run its largest sample).
        first = statistics.median(r for _, r in after[:k])
        last = statistics.median(r for _, r in after[-k:])
        growth = (last - first) / first * 100
        n = len(after)
        mt = sum(t for t, _ in after) / n
        mr = sum(r for _, r in after) / n
        den = sum((t - mt) ** 2 for t, _ in after) or 1
        slope = sum((t - mt) * (r - mr) for t, r in after) / den
        if growth >= a.max_growth:
            fail(f"memory grew {growth:.1f} % after the warm-up ({first:.0f} -> {last:.0f} MiB)")
    else:
        fail("too few memory samples after the warm-up")
    key_p99 = percentile(keys, 0.99) * 1000
    if key_p99 > KEY_GOAL_MS:
        fail(f"keystroke p99 {key_p99:.0f} ms over its goal {KEY_GOAL_MS} ms")
    for minute, xs in sorted(windows.items()):
        if len(xs) >= 20 and percentile(xs, 0.99) * 1000 > KEY_GOAL_MS:
            fail(f"keystroke p99 in minute {minute} {percentile(xs, 0.99) * 1000:.0f} ms over {KEY_GOAL_MS} ms")
    for method, xs in requests.items():
        if percentile(xs, 0.99) * 1000 > REQUEST_GOAL_MS:
            fail(f"{method} p99 {percentile(xs, 0.99) * 1000:.0f} ms over its goal {REQUEST_GOAL_MS} ms")

    print(f"\nsoak: {a.minutes:g} min, {len(docs)} files, {actions} actions, {len(keys)} keystrokes timed, "
          f"{sum(map(len, requests.values()))} requests; warm-up {warmup:g} min")
    print("| measure | value |")
    print("|---|---|")
    if samples:
        print(f"| RSS at start / end of warm-up / end | {samples[0][1]:.0f} / {after[0][1] if after else 0:.0f} / {samples[-1][1]:.0f} MiB |")
    print(f"| RSS growth after warm-up | {growth:+.1f} % ({slope:+.2f} MiB/min) |")
    pafter = [(a_, f_) for t, a_, f_ in parts if t >= warmup and a_ is not None and f_ is not None]
    if len(pafter) >= 2:
        k = max(1, len(pafter) // 6)
        a0 = statistics.median(x for x, _ in pafter[:k])
        a1 = statistics.median(x for x, _ in pafter[-k:])
        f0 = statistics.median(y for _, y in pafter[:k])
        f1 = statistics.median(y for _, y in pafter[-k:])
        print(f"| of it, heap (RssAnon) after warm-up: first / last sixth | {a0:.0f} -> {a1:.0f} MiB "
              f"({(a1 - a0) / a0 * 100:+.1f} %) |")
        print(f"| of it, the binary's touched pages (RssFile) | {f0:.0f} -> {f1:.0f} MiB |")
    wafter = [w for t, w in workers if t >= warmup]
    if wafter:
        print(f"| child processes (JIT worker) RSS after warm-up: min / max / end | {min(wafter):.0f} / "
              f"{max(wafter):.0f} / {wafter[-1]:.0f} MiB |")
    print(f"| keystroke -> diagnostics p50 / p99 / max | {percentile(keys, 0.5) * 1000:.0f} / {key_p99:.0f} / "
          f"{max(keys, default=0) * 1000:.0f} ms (goal p99 {KEY_GOAL_MS}) |")
    for method, xs in sorted(requests.items()):
        print(f"| {method} p50 / p99 / max | {percentile(xs, 0.5) * 1000:.0f} / {percentile(xs, 0.99) * 1000:.0f} / "
              f"{max(xs) * 1000:.0f} ms |")
    print(f"| crashes | {sum('died' in f for f in failures)} |")
    if a.json:
        Path(a.json).write_text(json.dumps({"samples": samples, "workers": workers, "parts": parts, "keys": keys, "requests": requests, "failures": failures}))
    log.close()
    jit = sum(1 for l in open(work / "server.log", errors="replace") if re.match(r".*\bjit: ", l))
    print(f"server log: {jit} JIT-tier compiles")
    if failures:
        print(f"soak.py: {len(failures)} failure(s); server log kept in {work / 'server.log'}")
        sys.exit(1)
    shutil.rmtree(work, ignore_errors=True)
    print("soak.py: ok")


if __name__ == "__main__":
    main()
