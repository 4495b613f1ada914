#!/usr/bin/env python3
"""bench/lsp/lens_figures.py - what the editor's code lenses show on real libraries (issue 28).

    bench/lsp/lens_figures.py CORPUS_DIR [--tessel build/tools/tessel] [--set named|unseen|holdout|fresh|issue30|all]
                              [--repo SUBSTR] [--files N] [--timeout S]

For each library of bench/corpus/pins.txt unpacked under CORPUS_DIR, one `tessel lsp` (JIT tier on) is started
with the library's root as its workspace folder, as an editor opens a user's clone; the first N Python files that
hold kernels (default all) are opened one at a time, and their code lenses are asked for until none says
"compiling…" (or S seconds pass, default 900). Each kernel has one lens that carries its figures: the summary of an
autotuned kernel's configs, its first launch site, or its defaults line. That lens is counted as figures
(`N regs · …`), unavailable with a reason (`figures unavailable: …`), still compiling when the time ran out, or
"not yet known" (which must not remain once the tier has finished).
"""
import argparse
import collections
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "corpus"))
from lspclient import Server  # noqa: E402
from run import libraries  # noqa: E402


def uri(path):
    return "file://" + os.path.abspath(path)


def classify(title):
    """The state of a kernel's figures lens, or None for a lens that carries none (a config line, a later
    launch site, a Run lens)."""
    if title.startswith("#") or " · " not in title:
        return None
    if re.search(r"\d+ regs · ", title):
        return "figures"
    if "figures unavailable" in title:
        return "unavailable"
    if "compiling" in title:
        return "compiling"
    if "not yet known" in title:
        return "not yet known"
    if "figures off" in title:
        return "off"
    return None


def lenses(server, path, timeout):
    """The figure lenses' states of one file once nothing is compiling (or at the timeout)."""
    end = time.monotonic() + timeout
    while True:
        reply = server.call("textDocument/codeLens", {"textDocument": {"uri": uri(path)}}, timeout=120)
        states = []
        for lens in reply.get("result") or []:
            state = classify((lens.get("command") or {}).get("title", ""))
            if state:
                states.append(state)
        if "compiling" not in states or time.monotonic() > end:
            return states
        time.sleep(1.0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("--tessel", default=os.path.join(HERE, "..", "..", "build", "tools", "tessel"))
    ap.add_argument("--set", choices=["named", "unseen", "holdout", "fresh", "issue30", "all"], default="all")
    ap.add_argument("--repo", default=None)
    ap.add_argument("--files", type=int, default=0, help="files per library (0: all)")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per file")
    a = ap.parse_args()
    tessel = os.path.abspath(a.tessel)
    total = collections.Counter()
    print("| library | files | kernel lenses | figures | unavailable | compiling at timeout | not yet known | % |")
    print("|:---|---:|---:|---:|---:|---:|---:|---:|")
    for repo, _which, root, files, _ in libraries(a.corpus, a.set, a.repo):
        files = files[: a.files] if a.files else files
        s = Server([tessel, "lsp"], stderr=open(os.devnull, "w"))
        s.call("initialize", {"processId": os.getpid(), "rootUri": uri(root),
                              "workspaceFolders": [{"uri": uri(root), "name": os.path.basename(root)}],
                              "capabilities": {"workspace": {"codeLens": {"refreshSupport": True}}},
                              "initializationOptions": {"jit": True}}, timeout=300)
        s.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        c = collections.Counter()
        for rel, _ in files:
            path = os.path.join(root, rel)
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            s.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                    "params": {"textDocument": {"uri": uri(path), "languageId": "python", "version": 1,
                                                "text": text}}})
            for state in lenses(s, path, a.timeout):
                c[state] += 1
                c["kernels"] += 1
            s.send({"jsonrpc": "2.0", "method": "textDocument/didClose",
                    "params": {"textDocument": {"uri": uri(path)}}})
            c["files"] += 1
        s.close()
        total.update(c)
        pct = 100.0 * c["figures"] / max(c["kernels"], 1)
        print(f"| {repo} | {c['files']} | {c['kernels']} | {c['figures']} | {c['unavailable']} | {c['compiling']} | "
              f"{c['not yet known']} | {pct:.1f} |", flush=True)
    pct = 100.0 * total["figures"] / max(total["kernels"], 1)
    print(f"| total | {total['files']} | {total['kernels']} | {total['figures']} | {total['unavailable']} | "
          f"{total['compiling']} | {total['not yet known']} | {pct:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
