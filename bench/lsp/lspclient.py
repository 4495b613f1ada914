"""bench/lsp/lspclient.py - the LSP client the bench/lsp scripts drive `tessel lsp` with.

One server over stdio with Content-Length framing. `read` answers the server's own requests
(progress tokens, watcher registrations, code-lens refreshes) with a null result, as an editor
does, and returns every message; `call` sends a request and waits for its reply.
"""
import json
import re
import subprocess
import time


class Server:
    def __init__(self, args, stderr=None):
        """args: the server's command line (`[tessel, "lsp", ...]`)."""
        self.p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr)
        self.next_id = 100

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def read(self):
        header = b""
        while not header.endswith(b"\r\n\r\n"):
            c = self.p.stdout.read(1)
            if not c:
                raise RuntimeError("the server ended")
            header += c
        n = int(re.search(rb"Content-Length: (\d+)", header).group(1))
        m = json.loads(self.p.stdout.read(n))
        if "method" in m and "id" in m:  # a request of the server's: answer it
            self.send({"jsonrpc": "2.0", "id": m["id"], "result": None})
        return m

    def wait_for(self, pred, timeout=None):
        """The first message pred accepts; RuntimeError after timeout seconds (None: no limit)."""
        end = None if timeout is None else time.monotonic() + timeout
        while end is None or time.monotonic() < end:
            m = self.read()
            if pred(m):
                return m
        raise RuntimeError("timed out")

    def call(self, method, params, timeout=None):
        self.next_id += 1
        rid = self.next_id
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return self.wait_for(lambda m: m.get("id") == rid and "method" not in m, timeout)

    def close(self, timeout=30):
        self.call("shutdown", None)
        self.send({"jsonrpc": "2.0", "method": "exit"})
        self.p.wait(timeout=timeout)


def percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]
