#!/usr/bin/env python3
"""bench/lsp/jit_keystroke.py - a JIT-tier keystroke: time to the updated code lens.

Starts `tessel lsp` (worker threads, the JIT tier on, --log=verbose to a log file), opens
FILE (bench/gen_kernels.py's 50-kernel file), waits until the JIT tier has compiled every
kernel (the server's workspace/codeLens/refresh), then edits one kernel at a time: a new
line at the top of its body (`    bench_edit = N`, a different N each time, so no cache
entry answers it). For each edit it times, from sending didChange:

  refresh   the server's workspace/codeLens/refresh (the JIT tier published)
  lens      the reply to the codeLens request sent then, with that kernel's figures
  front end the scheduler's build of the version (parse, sema, bounds prover), from its log
  compiles  the server's own time for that kernel's compiles (lowering, LLVM IR, the worker's
            LLVM stages and assembler), summed over its configs, from its log

and counts the kernels the server compiled for that version (its log's `jit: NAME ...
of URI vN` lines): only the edited kernel must be there. The time includes the JIT
tier's debounce (50-200 ms: the document's last JIT run time, clamped).

    bench/lsp/jit_keystroke.py TESSEL FILE [--edits=N] [--arch=sm_90]
"""
import os
import re
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lspclient import Server  # noqa: E402


def is_refresh(m):
    return m.get("method") == "workspace/codeLens/refresh"


def kernels_of(lines):
    """(name, line of the def, line where the body starts) of every @triton.jit def."""
    out = []
    for i, l in enumerate(lines):
        if l.startswith("@triton.jit"):
            j = i + 1
            m = re.match(r"def (\w+)\(", lines[j])
            if not m:
                continue
            k = j
            while not lines[k].rstrip().endswith(":"):
                k += 1
            out.append((m.group(1), j, k + 1))
    return out


def main(argv):
    tessel, path = argv[1], argv[2]
    edits, arch = 20, "sm_90"
    for a in argv[3:]:
        if a.startswith("--edits="):
            edits = int(a[8:])
        elif a.startswith("--arch="):
            arch = a[7:]
    text = open(path, encoding="utf-8").read()
    lines = text.split("\n")
    uri = "file:///bench/jit_keystroke.py"
    log = tempfile.NamedTemporaryFile("w+", prefix="tessel-jit-bench-", suffix=".log")
    s = Server([tessel, "lsp", "-j", "2", "--log=verbose", "--arch=" + arch], stderr=log)
    s.call("initialize", {"capabilities": {"workspace": {"codeLens": {"refreshSupport": True}}}}, timeout=120)
    s.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    t0 = time.monotonic()
    s.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}}})
    s.wait_for(is_refresh, 600)
    cold = time.monotonic() - t0
    # Kernels whose launch cannot be planned (a constexpr no config or launch
    # site fixes) are not compiled: edit the others.
    r = s.call("textDocument/codeLens", {"textDocument": {"uri": uri}}, timeout=120)
    compiled_lines = {l["range"]["start"]["line"] for l in r.get("result") or [] if "regs" in l["command"]["title"]}
    chosen = {name for name, def_line, _ in kernels_of(lines) if def_line in compiled_lines}
    kernels = kernels_of(lines)
    version = 1
    rows = []
    for e in range(edits):
        candidates = [k for k in kernels if k[0] in chosen]
        name, def_line, body = candidates[(e * 7) % len(candidates)]  # spread over the kernel kinds
        version += 1
        lines.insert(body, "    bench_edit = %d" % version)
        # Kernels below moved one line down.
        kernels = kernels_of(lines)
        def_line = next(k[1] for k in kernels if k[0] == name)
        t0 = time.monotonic()
        s.send({"jsonrpc": "2.0", "method": "textDocument/didChange",
                "params": {"textDocument": {"uri": uri, "version": version},
                           "contentChanges": [{"range": {"start": {"line": body, "character": 0},
                                                         "end": {"line": body, "character": 0}},
                                               "text": "    bench_edit = %d\n" % version}]}})
        s.wait_for(is_refresh, 120)
        t_refresh = time.monotonic() - t0
        r = s.call("textDocument/codeLens", {"textDocument": {"uri": uri}}, timeout=120)
        t_lens = time.monotonic() - t0
        titles = [l["command"]["title"] for l in r.get("result") or []
                  if l["range"]["start"]["line"] == def_line]
        ok = any("regs" in t or "not compiled" in t for t in titles)
        log.flush()
        done = re.findall(r"jit: (\w+)(?: config \d+)? of %s v%d in (\d+) ms" % (re.escape(uri), version),
                          open(log.name).read())
        compiled = sorted({k for k, _ in done})
        compile_ms = sum(int(ms) for _, ms in done)
        built = re.findall(r"built %s v%d in (\d+) us" % (re.escape(uri), version), open(log.name).read())
        front_ms = sum(int(us) for us in built) / 1000
        rows.append((name, t_refresh * 1000, t_lens * 1000, compiled, ok, compile_ms, front_ms))
    s.close()
    print("file: %s (%d lines, %d @jit kernels, %d with a launch the JIT can plan); cold: all compiled in %.1f s" %
          (path, len(text.split("\n")), len(kernels_of(text.split("\n"))), len(chosen), cold))
    print("%-22s %10s %10s %10s %10s  %s" % ("edited kernel", "refresh", "lens", "front end", "compiles",
                                             "kernels compiled for the version"))
    for name, tr, tl, compiled, ok, cms, fms in rows:
        print("%-22s %7.0f ms %7.0f ms %7.0f ms %7d ms  %s%s" % (name, tr, tl, fms, cms, ",".join(compiled) or "-",
                                                             "" if ok else "  (NO FIGURES)"))
    by_kind = {}
    for name, tr, tl, compiled, ok, cms, fms in rows:
        by_kind.setdefault(re.sub(r"_\d+$", "", name), []).append((tl, fms, cms))
    print("median per kernel kind: time to the updated code lens (front end; compiles of every config):")
    for kind, ts in sorted(by_kind.items()):
        print("  %-20s %7.0f ms (front end %5.0f ms; compiles %5.0f ms; n=%d)" % (
            kind, statistics.median(t[0] for t in ts), statistics.median(t[1] for t in ts),
            statistics.median(t[2] for t in ts), len(ts)))
    only = all(r[3] == [r[0]] for r in rows)
    print("only the edited kernel recompiled: %s" % ("yes" if only else "NO"))
    return 0 if only and all(r[4] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
