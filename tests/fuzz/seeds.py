#!/usr/bin/env python3
# ===- tests/fuzz/seeds.py - seed corpora for the fuzz targets -------------===#
# Writes the seed inputs of one fuzz target into OUT (a folder outside git,
# e.g. build-fuzz/fuzz/seeds/TARGET): inputs built from tessel's own files
# (samples/, tests/, the LSP transcripts) and, with --corpus, from the real
# kernel libraries unpacked under /work/corpus (third-party code: it is read
# at run time and never copied into the repository).
#
#   tests/fuzz/seeds.py TARGET OUT [--corpus DIR] [--max-bytes N]
#
# Formats (see each target's file comment): lsp: a first byte that picks
# the framing (odd: delimited, as the transcripts are; even: Content-Length)
# then the client's bytes; frontend: a Python file; edits: a file, then NUL
# separated edits; launch: sample index, kernel index, launch spec text;
# codegen: the same with a config byte and an options byte before the spec;
# host: a Python file with a launch (`kernel[grid](...)`); index: a mode byte
# (odd: the target makes the checksum right) then a launch index file; runner: lines a runner's far
# side sends (runners/Protocol.h); reference: a mode byte (even: a Python file's `# tessel: reference`
# directives; odd: a .cu file for Clang, bit 1 also generating the module) then the text.
# ===-----------------------------------------------------------------------===#
import argparse
import hashlib
import json
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
JIT = re.compile(r"^\s*@\s*(?:triton\s*\.\s*)?jit\b", re.M)


def python_files(corpus, max_bytes):
    files = sorted(ROOT.glob("samples/**/*.py")) + sorted(ROOT.glob("tests/**/*.py"))
    files += sorted(ROOT.glob("bench/**/*.py"))
    if corpus:
        files += sorted(p for p in Path(corpus).rglob("*.py") if p.is_file())
    for p in files:
        try:
            data = p.read_bytes()
        except OSError:
            continue
        if (p.is_relative_to(ROOT) or JIT.search(data.decode("utf-8", "replace"))) and len(data) <= max_bytes:
            yield p, data


def transcripts():
    for p in sorted((ROOT / "tests/lsp").glob("*.test")) + sorted((ROOT / "tests/fuzz/corpus").iterdir()):
        yield p, p.read_bytes()


def content_length(transcript):
    """The transcript's messages (delimited by ---, comments dropped), framed with Content-Length."""
    out = b""
    for block in transcript.decode("utf-8", "replace").split("\n---"):
        body = "\n".join(l for l in block.splitlines() if not l.lstrip().startswith("#")).strip()
        if body:
            b = body.encode()
            out += b"Content-Length: %d\r\n\r\n" % len(b) + b
    return out


def edits_seed(rng, text, max_text=2048):
    # The edits follow the text, so the text is cut (at a line end) to leave
    # them room within the target's -max_len.
    if len(text) > max_text:
        text = text[: text.rfind(b"\n", 0, max_text) + 1]
    lines = text.split(b"\n")
    out = text.replace(b"\0", b"")
    for _ in range(rng.randint(1, 4)):
        line = rng.randrange(len(lines))
        flags = rng.choice([0, 1, 1])
        kind = rng.randrange(3)
        if kind == 0:  # type a fragment in a line
            new, count, end_char = rng.choice([b"x", b"tl.", b"(", b"):", b"\n    ", b"mask=", b"# c"]), 0, None
        elif kind == 1:  # delete a line
            new, count, end_char = b"", 1, 0
        else:  # duplicate a line
            new, count, end_char = lines[line] + b"\n", 0, 0
        char = 0 if kind else rng.randrange(len(lines[line]) + 1) % 256
        if end_char is None:
            end_char = char
        out += b"\0" + bytes([flags, line & 255, line >> 8 & 255, char, count, end_char]) + new.replace(b"\0", b"")
    return out


def launch_seeds():
    """One input per `# tessel: launch` directive of the samples (and a bare one per file)."""
    files = sorted((ROOT / "samples").glob("*.py")) + sorted((ROOT / "samples/bugs").glob("*.py"))
    files = [p for p in files if JIT.search(p.read_text())]
    for index, p in enumerate(files):
        lines = p.read_text().splitlines()
        kernels, spec, i = 0, None, 0
        while i < len(lines):
            m = re.match(r"\s*#\s*tessel:\s*launch\b(.*)", lines[i])
            if m:
                parts = [m.group(1)]
                while parts[-1].rstrip().endswith("\\") and i + 1 < len(lines):
                    i += 1
                    parts[-1] = parts[-1].rstrip()[:-1]
                    parts.append(re.sub(r"^\s*#", "", lines[i]))
                spec = " ".join(x.strip() for x in parts)
            elif re.match(r"\s*def\s", lines[i]) and JIT.search("\n".join(lines[max(0, i - 3):i])):
                if spec is not None:
                    yield bytes([index, kernels]) + spec.encode()
                    spec = None
                kernels += 1
            i += 1
        yield bytes([index, 0]) + b"grid=(2,)"


LAUNCH = re.compile(r"\w\s*\[[^\]\n]*\]\s*\(")
NAME_BEFORE = re.compile(rb"([A-Za-z_][A-Za-z0-9_]*)[ \t]*([\[(])")


def index_file(root, files):
    """A launch index (compiler/project/LaunchIndexFile.h, format 1) of files under root, checksum
    left zero: the target's mode byte 1 makes it right."""
    def u32(v):
        return (v & 0xFFFFFFFF).to_bytes(4, "little")

    def u64(v):
        return (v & 0xFFFFFFFFFFFFFFFF).to_bytes(8, "little")

    def string(b):
        return u32(len(b)) + b

    body = u64(1_700_000_000_000_000_000) + string(str(root).encode()) + u32(len(files))
    names = {}
    for row, p in enumerate(files):
        data = p.read_bytes()
        st = p.stat()
        body += string(str(p.relative_to(root)).encode()) + u64(st.st_size) + u64(st.st_mtime_ns)
        body += u64(int.from_bytes(hashlib.sha1(data).digest()[:8], "little") or 1)
        for name, mark in NAME_BEFORE.findall(data):
            marks = names.setdefault(name, {})
            marks[row] = marks.get(row, 0) | (1 if mark == b"[" else 2)
    body += u32(len(names))
    for name in sorted(names):
        body += string(name) + u32(len(names[name]))
        for row, marks in sorted(names[name].items()):
            body += u32(row) + bytes([marks])
    return b"TSLX" + u32(1) + u64(0) + body


def index_seeds(corpus, max_bytes):
    """Indexes of small real trees: tessel's sample project and, per library of the corpus, its
    smallest folders of Python files."""
    roots = [ROOT / "samples/project"]
    if corpus:
        for lib in sorted(Path(corpus).iterdir()):
            dirs = sorted({p.parent for p in lib.rglob("*.py")}, key=lambda d: (len(list(d.glob("*.py"))), str(d)))
            roots += dirs[:3]
    for root in roots:
        files = sorted(p for p in root.rglob("*.py") if p.is_file())[:40]
        seed = b"\x01" + index_file(root, files)
        if files and len(seed) <= max_bytes:
            yield seed


def runner_seeds():
    """A session per sample file: the far side's hello, then a task's result (its report in stdout)
    or an error; and the client's own task line, which the runner reads the same way."""
    files = sorted((ROOT / "samples").glob("*.py"))
    for i, p in enumerate(files):
        text = p.read_text()
        hello = {"type": "hello", "protocol": 1, "tessel": "0.1.0", "build": "%016x" % (i * 7919), "host": "gpu%d" % i,
                 "cores": 2 ** (i % 8), "gpus": i % 3, "gpuError": "" if i % 3 else "no GPU: no CUDA device"}
        task = {"type": "task", "id": i, "file": p.name, "text": text, "kernel": "k", "device": "cpu", "seed": i,
                "config": None if i % 2 else 1, "instance": None, "iters": 0, "spec": None, "format": "json",
                "reportToo": bool(i % 2), "reference": True}
        result = {"type": "result", "id": i, "exit": i % 3, "signal": 0, "stdout": text[:500], "stderr": "",
                  "report": "", "millis": 12.5 + i, "cpuMillis": 11.0, "maxRssKiB": 40960}
        lines = [hello, result] if i % 2 else [hello, {"type": "error", "message": "runner stopped"}]
        yield ("\n".join(json.dumps(m) for m in lines) + "\n").encode()[:4096]
        yield (json.dumps(task) + "\n").encode()[:4096]


def reference_seeds():
    """The samples' reference directives (their Python files) and their CUDA references, each .cu
    with its __global__ function renamed `k` (the name the target asks Clang for)."""
    for p in sorted((ROOT / "samples").glob("*.py")):
        text = p.read_bytes()
        if b"tessel: reference" in text:
            yield b"\x00" + text
    for p in sorted((ROOT / "samples/reference").glob("*.cu")):
        text = p.read_text()
        m = re.search(r"__global__\s+void\s+(\w+)", text)
        if m:
            text = re.sub(r"\b%s\b" % m.group(1), "k", text)
        for mode in (1, 3):
            yield bytes([mode]) + text.encode()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("target", choices=["lsp", "frontend", "edits", "launch", "codegen", "host", "index", "runner",
                                       "reference"])
    ap.add_argument("out")
    ap.add_argument("--corpus")
    ap.add_argument("--max-bytes", type=int, default=65536)
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    seeds = []
    if a.target == "lsp":
        for p, data in transcripts():
            seeds.append(data if data[:1] and data[0] & 1 else b"1" + data)
            seeds.append(b"0" + content_length(data))
    elif a.target == "frontend":
        seeds = [data for _, data in python_files(a.corpus, a.max_bytes)]
    elif a.target == "edits":
        rng = random.Random(15)
        seeds = [edits_seed(rng, data) for _, data in python_files(a.corpus, a.max_bytes)]
    elif a.target == "launch":
        seeds = list(launch_seeds())
    elif a.target == "host":
        seeds = [data for _, data in python_files(a.corpus, a.max_bytes)
                 if LAUNCH.search(data.decode("utf-8", "replace"))]
    elif a.target == "index":
        seeds = list(index_seeds(a.corpus, 16384))
    elif a.target == "runner":
        seeds = list(runner_seeds())
    elif a.target == "reference":
        seeds = list(reference_seeds())
    else:
        # codegen: the launch seeds with a config byte and an options byte
        # (bit 0: sm_80, bit 1: the spec is used, bit 2: the back end too)
        # after the kernel's, each spec under both archs, with and without
        # the back end, and the file's own plan of every kernel.
        for s in launch_seeds():
            for flags in (2, 3, 6, 7):
                seeds.append(s[:2] + bytes([0, flags]) + s[2:])
            seeds.append(s[:2] + bytes([1, 0]))
    for s in seeds:
        (out / hashlib.sha1(s).hexdigest()).write_bytes(s)
    print(f"seeds.py: {len(seeds)} seeds for {a.target} in {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
