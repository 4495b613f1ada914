#!/usr/bin/env python3
"""bench/lsp/workspace_bench.py - the language server on a whole project (issues 9 and 14).

Three figures, each from a fresh `tessel lsp` over stdio:

  index   DIR...   time from `initialized` to the end of the workspace index's `$/progress`
                   for DIR as the workspace folder (the files it read come from the end message);
  rename  [--n=N]  p50/p99 of textDocument/rename and textDocument/references of a @jit helper
                   used by 19 other files of a generated 20-file project (written to a scratch
                   folder), the request sent from an importing file;
  helper  [--n=N]  p50/p99 from a didChange of the open helper module to the diagnostics of the
                   open file that imports it (the re-check of its importers), same project;
  keys DIR FILE [--n=N]
                   p50/p99 from a keystroke (a space typed, then deleted, at the end of the
                   file's first `tl.` line) in FILE to its diagnostics, DIR the workspace folder,
                   against the same with no workspace folder (the cost the project adds per key);
  rename-at DIR FILE WORD [--n=N]
                   the same two requests on a real tree: DIR the workspace folder, FILE (under it)
                   the open file, the request at the first occurrence of WORD in it.

    bench/lsp/workspace_bench.py TESSEL index /work/corpus/FlagOpen+FlagGems
    bench/lsp/workspace_bench.py TESSEL rename --n=200
    bench/lsp/workspace_bench.py TESSEL helper --n=50
    bench/lsp/workspace_bench.py TESSEL rename-at /work/corpus/FlagOpen+FlagGems \
        src/flag_gems/fused/weight_norm.py tle.program_id --n=50
"""
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lspclient import Server, percentile  # noqa: E402


def uri(path):
    return "file://" + path


def init(s, folder):
    caps = {"window": {"workDoneProgress": True},
            "workspace": {"didChangeWatchedFiles": {"dynamicRegistration": True}}}
    s.call("initialize", {"capabilities": caps, "workspaceFolders": [{"uri": uri(folder), "name": "w"}]})


def bench_index(tessel, folders):
    for folder in folders:
        folder = os.path.abspath(folder)
        s = Server([tessel, "lsp", "--log=error"])
        init(s, folder)
        start = time.perf_counter()
        s.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        end = s.wait_for(lambda m: m.get("method") == "$/progress" and m["params"]["value"].get("kind") == "end")
        took = time.perf_counter() - start
        print("index %-50s %s in %.2f s" % (folder, end["params"]["value"].get("message"), took))
        s.close()


HELPER = '''import triton
import triton.language as tl


@triton.jit
def combine(a, b, SCALE: tl.constexpr):
    """a * SCALE + b, the helper every module uses."""
    return a * SCALE + b
'''

USER_FROM = '''import triton
import triton.language as tl
from pkg.helpers import combine


@triton.jit
def kernel_{i}(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, combine(x, y, 2), mask=mask)


def launch_{i}(x, y):
    kernel_{i}[(x.numel() // 128,)](x, y, x.numel(), BLOCK=128)
'''

USER_MODULE = '''import triton
import triton.language as tl
import pkg.helpers as h


@triton.jit
def kernel_{i}(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(x_ptr + offs, h.combine(x, x, 3) + h.combine(x, 1.0, 4), mask=mask)


def launch_{i}(x):
    kernel_{i}[(x.numel() // 128,)](x, x.numel(), BLOCK=128)
'''


def make_project(root):
    os.makedirs(os.path.join(root, "pkg"), exist_ok=True)
    open(os.path.join(root, "tessel.toml"), "w").close()
    open(os.path.join(root, "pkg", "__init__.py"), "w").close()
    with open(os.path.join(root, "pkg", "helpers.py"), "w") as f:
        f.write(HELPER)
    for i in range(19):
        with open(os.path.join(root, "pkg", "user_%02d.py" % i), "w") as f:
            f.write((USER_FROM if i % 2 == 0 else USER_MODULE).format(i=i))


def open_doc(s, path):
    s.send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": uri(path), "languageId": "python", "version": 1,
                                        "text": open(path).read()}}})


def time_rename(s, path, line, col, n, new_name):
    pos = {"textDocument": {"uri": uri(path)}, "position": {"line": line, "character": col}}
    for method, extra in (("textDocument/rename", {"newName": new_name}),
                          ("textDocument/references", {"context": {"includeDeclaration": True}})):
        times = []
        for _ in range(n):
            t0 = time.perf_counter()
            r = s.call(method, dict(pos, **extra))
            times.append((time.perf_counter() - t0) * 1000)
        res = r.get("result")
        if method.endswith("rename"):
            if not res:
                raise RuntimeError("rename failed: %s" % r)
            edits, files = sum(len(v) for v in res["changes"].values()), len(res["changes"])
        else:
            edits, files = len(res or []), len({x["uri"] for x in res or []})
        print("%-24s n=%d p50 %.2f ms p99 %.2f ms (%d edits/locations in %d files)"
              % (method, n, percentile(times, 0.5), percentile(times, 0.99), edits, files))


def bench_rename(tessel, n):
    with tempfile.TemporaryDirectory() as root:
        make_project(root)
        s = Server([tessel, "lsp", "--log=error"])
        init(s, root)
        s.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        user = os.path.join(root, "pkg", "user_00.py")
        open_doc(s, user)
        s.call("sync", None)
        lines = open(user).read().split("\n")
        line = [i for i, l in enumerate(lines) if "combine(x" in l][0]
        time_rename(s, user, line, lines[line].index("combine(x") + 2, n, "fuse")
        s.close()


def bench_rename_at(tessel, folder, rel, word, n):
    folder = os.path.abspath(folder)
    path = os.path.join(folder, rel)
    s = Server([tessel, "lsp", "--log=error"])
    init(s, folder)
    s.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    open_doc(s, path)
    s.call("sync", None)
    lines = open(path).read().split("\n")
    line = [i for i, l in enumerate(lines) if word in l][0]
    # The cursor on the last component of WORD.
    col = lines[line].index(word) + len(word) - 1
    time_rename(s, path, line, col, n, "renamed_helper")
    s.close()


def bench_helper(tessel, n):
    with tempfile.TemporaryDirectory() as root:
        make_project(root)
        s = Server([tessel, "lsp", "--log=error"])
        init(s, root)
        s.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        helper = os.path.join(root, "pkg", "helpers.py")
        user = os.path.join(root, "pkg", "user_00.py")
        open_doc(s, user)
        open_doc(s, helper)
        s.call("sync", None)
        text = open(helper).read()
        line = [i for i, l in enumerate(text.split("\n")) if "return a * SCALE + b" in l][0]
        times = []
        for v in range(n):
            # Alternate between a body that type-checks and one that does not.
            new = "    return a * SCALE + b\n" if v % 2 else "    return a * SCALE + undefined_name\n"
            t0 = time.perf_counter()
            s.send({"jsonrpc": "2.0", "method": "textDocument/didChange",
                    "params": {"textDocument": {"uri": uri(helper), "version": v + 2},
                               "contentChanges": [{"range": {"start": {"line": line, "character": 0},
                                                             "end": {"line": line + 1, "character": 0}},
                                                   "text": new}]}})
            want_error = v % 2 == 0
            s.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                       and m["params"]["uri"] == uri(user)
                       and bool(m["params"]["diagnostics"]) == want_error)
            times.append((time.perf_counter() - t0) * 1000)
        print("helper edit -> importer's diagnostics n=%d p50 %.2f ms p99 %.2f ms"
              % (n, percentile(times, 0.5), percentile(times, 0.99)))
        s.close()


def bench_keys(tessel, folder, rel, n):
    folder = os.path.abspath(folder)
    path = os.path.join(folder, rel)
    lines = open(path).read().split("\n")
    line = [i for i, l in enumerate(lines) if "tl." in l][0]
    end = len(lines[line])
    for with_folder in (True, False):
        s = Server([tessel, "lsp", "--log=error"])
        caps = {"window": {"workDoneProgress": True}}
        params = {"capabilities": caps}
        if with_folder:
            params["workspaceFolders"] = [{"uri": uri(folder), "name": "w"}]
        s.call("initialize", params)
        s.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        open_doc(s, path)
        s.call("sync", None)
        times = []
        for v in range(n):
            if v % 2 == 0:
                change = {"range": {"start": {"line": line, "character": end},
                                    "end": {"line": line, "character": end}}, "text": " "}
            else:
                change = {"range": {"start": {"line": line, "character": end},
                                    "end": {"line": line, "character": end + 1}}, "text": ""}
            t0 = time.perf_counter()
            s.send({"jsonrpc": "2.0", "method": "textDocument/didChange",
                    "params": {"textDocument": {"uri": uri(path), "version": v + 2}, "contentChanges": [change]}})
            s.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                       and m["params"]["uri"] == uri(path) and m["params"].get("version") == v + 2)
            times.append((time.perf_counter() - t0) * 1000)
        print("keystroke -> diagnostics %-22s n=%d p50 %.2f ms p99 %.2f ms"
              % ("(workspace folder)" if with_folder else "(no folder)", n, percentile(times, 0.5),
                 percentile(times, 0.99)))
        s.close()


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    tessel, what = argv[1], argv[2]
    n = 100
    rest = []
    for a in argv[3:]:
        if a.startswith("--n="):
            n = int(a[4:])
        else:
            rest.append(a)
    if what == "index":
        bench_index(tessel, rest)
    elif what == "rename":
        bench_rename(tessel, n)
    elif what == "helper":
        bench_helper(tessel, n)
    elif what == "keys" and len(rest) == 2:
        bench_keys(tessel, rest[0], rest[1], n)
    elif what == "rename-at" and len(rest) == 3:
        bench_rename_at(tessel, rest[0], rest[1], rest[2], n)
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
