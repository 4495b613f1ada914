#!/usr/bin/env python3
"""bench/lsp/request_latency.py - p50/p99 latency of each LSP request kind on one file.

Starts `tessel lsp`, opens FILE, waits for its diagnostics, then sends each request kind
N times, one at a time, at positions spread over the file (identifiers for position
requests, just after `(` or `,` for signature help and completion) and times each reply.

    bench/lsp/request_latency.py TESSEL FILE [--n=100]
"""
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lspclient import Server, percentile  # noqa: E402


def main(argv):
    tessel, path = argv[1], argv[2]
    n = 100
    for a in argv[3:]:
        if a.startswith("--n="):
            n = int(a[4:])
    text = open(path, encoding="utf-8").read()
    lines = text.split("\n")
    uri = "file:///bench/latency.py"
    s = Server([tessel, "lsp", "--log=error"])
    s.call("initialize", {"capabilities": {}})
    s.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    s.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}}})
    s.call("sync", None)
    idents, calls = [], []
    for ln, line in enumerate(lines):
        if line.lstrip().startswith("#"):
            continue
        for m in re.finditer(r"[A-Za-z_]\w*", line):
            idents.append((ln, m.start() + 1))
        for m in re.finditer(r"[(,]", line):
            calls.append((ln, m.end()))

    def spread(xs):
        step = max(1, len(xs) // n)
        return xs[::step][:n]

    def pos(p):
        return {"textDocument": {"uri": uri}, "position": {"line": p[0], "character": p[1]}}

    doc = {"textDocument": {"uri": uri}}
    kinds = [
        ("hover", "textDocument/hover", [pos(p) for p in spread(idents)]),
        ("completion", "textDocument/completion", [pos(p) for p in spread(calls)]),
        ("signatureHelp", "textDocument/signatureHelp", [pos(p) for p in spread(calls)]),
        ("references", "textDocument/references",
         [dict(pos(p), context={"includeDeclaration": True}) for p in spread(idents)]),
        ("documentHighlight", "textDocument/documentHighlight", [pos(p) for p in spread(idents)]),
        ("prepareRename", "textDocument/prepareRename", [pos(p) for p in spread(idents)]),
        ("rename", "textDocument/rename", [dict(pos(p), newName="renamed_x") for p in spread(idents)]),
        ("foldingRange", "textDocument/foldingRange", [doc] * n),
        ("semanticTokens/full", "textDocument/semanticTokens/full", [doc] * n),
        ("diagnostic (pull)", "textDocument/diagnostic", [doc] * n),
        ("documentSymbol", "textDocument/documentSymbol", [doc] * n),
    ]
    print(f"file: {path} ({len(lines)} lines), {n} requests per kind")
    print("| Request | p50 | p99 | max |")
    print("|:---|---:|---:|---:|")
    for name, method, params in kinds:
        times = []
        for p in params:
            t = time.perf_counter()
            s.call(method, p)
            times.append((time.perf_counter() - t) * 1000)
        print(f"| {name} | {percentile(times, 0.5):.2f} ms | {percentile(times, 0.99):.2f} ms | {max(times):.2f} ms |")
    s.close(timeout=None)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
