#!/usr/bin/env python3
"""bench/lsp/mimalloc_pages.py - where a running tessel's resident heap is, by mimalloc page.

    bench/lsp/mimalloc_pages.py PID [--every SECONDS] [--sizes N]

Reads the segments of mimalloc 2.0.9 (Debian 12's libmimalloc2.0, which `tessel` links) from
/proc/PID/mem and which of their pages are resident from /proc/PID/pagemap (root, or the same user
with ptrace rights), and splits the resident bytes of the heap into:

  blocks      the blocks in use of pages in use (including blocks freed but not yet collected)
  slack       the rest of those pages: memory no live block holds that mimalloc cannot give back
              while one block of the page lives
  free        freed spans not yet decommitted (mimalloc keeps them `decommit_delay` ms)

by block size (small <= 8 KiB in 64 KiB pages, medium <= 128 KiB in 512 KiB pages, large) and by
owner (a thread, or abandoned). heaptrack sees the live heap (blocks); the difference between
that and RssAnon is here. Issue 34 (bench/RESULTS.md): the live heap of an hour of typing was flat
while slack grew.

The struct offsets are mimalloc 2.0.9's on x86-64 (offsetof on mi_segment_t and mi_page_t from its
include/mimalloc-types.h, release build); another version needs them measured again. The process is
read while it runs, so one sample may be torn; trends over several are what count.
"""
import argparse
import collections
import json
import re
import struct
import time

SEGMENT = 32 << 20
SLICE = 64 << 10
SLICES = 512
SEG = dict(kind=240, entries=248, thread=256, segment_slices=224, info_slices=232, slices=264)
PAGE = dict(size=80, counts=0, used=24)  # slice_count, slice_offset (u32 each); used, xblock_size (u32 each)


def walk(pid, top_sizes):
    maps = []
    for line in open(f"/proc/{pid}/maps"):
        m = re.match(r"([0-9a-f]+)-([0-9a-f]+) rw-p 00000000 00:00 0\s*$", line)
        if m:
            maps.append((int(m.group(1), 16), int(m.group(2), 16)))
    mem = open(f"/proc/{pid}/mem", "rb", buffering=0)
    pagemap = open(f"/proc/{pid}/pagemap", "rb", buffering=0)

    def resident(addr, n):
        pagemap.seek(addr // 4096 * 8)
        return sum(4096 for (e,) in struct.iter_unpack("<Q", pagemap.read(n // 4096 * 8)) if e >> 63)

    total, owners, classes = collections.Counter(), collections.Counter(), collections.Counter()
    sizes = collections.defaultdict(lambda: [0, 0, 0])  # pages, resident, blocks
    segments = 0
    for lo, hi in maps:
        seg = (lo + SEGMENT - 1) // SEGMENT * SEGMENT
        while seg + SLICE <= hi:
            try:
                mem.seek(seg)
                head = mem.read(SEG["slices"] + (SLICES + 1) * PAGE["size"])
            except OSError:
                seg += SEGMENT
                continue
            kind, entries, thread, seg_slices, info = (struct.unpack_from("<Q", head, SEG[k])[0] for k in
                                                      ("kind", "entries", "thread", "segment_slices", "info_slices"))
            if kind > 1 or not 0 < entries <= SLICES + 1 or seg_slices == 0 or not 0 < info <= 8:
                seg += SEGMENT
                continue
            segments += 1
            owner = "abandoned" if thread == 0 else f"thread {thread:x}"
            i = 0
            while i < entries:
                at = SEG["slices"] + i * PAGE["size"]
                count, _ = struct.unpack_from("<II", head, at + PAGE["counts"])
                used, block = struct.unpack_from("<II", head, at + PAGE["used"])
                count = count or 1
                n = max(0, min(count * SLICE, hi - (seg + i * SLICE)))
                r = resident(seg + i * SLICE, n) if n else 0
                if i == 0:
                    total["segment info"] += r
                elif block == 0:
                    total["free"] += r
                    owners[owner + " free"] += r
                else:
                    live = min(r, used * block)
                    cls = "small" if block <= 8192 else "medium" if block <= 131072 else "large"
                    total["blocks"] += live
                    total["slack"] += r - live
                    owners[owner + " in use"] += r
                    classes[cls + " blocks"] += live
                    classes[cls + " slack"] += r - live
                    classes[cls + " pages"] += 1
                    z = sizes[block]
                    z[0] += 1
                    z[1] += r
                    z[2] += live
                i += count
            seg += SEGMENT
    mib = lambda v: round(v / (1 << 20), 2)
    return {
        "segments": segments,
        "total": {k: mib(v) for k, v in total.items()},
        "classes": {k: (v if k.endswith("pages") else mib(v)) for k, v in sorted(classes.items())},
        "owners": {k: mib(v) for k, v in owners.most_common()},
        "most slack by block size [size, pages, resident MiB, blocks MiB]":
            [[k, v[0], mib(v[1]), mib(v[2])] for k, v in sorted(sizes.items(), key=lambda x: x[1][2] - x[1][1])[:top_sizes]],
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pid", type=int)
    ap.add_argument("--every", type=float, help="sample every SECONDS until the process ends (JSON lines)")
    ap.add_argument("--sizes", type=int, default=10, help="block sizes listed (default 10)")
    a = ap.parse_args()
    while True:
        try:
            print(json.dumps({"time": time.strftime("%H:%M:%S"), **walk(a.pid, a.sizes)}), flush=True)
        except (FileNotFoundError, ProcessLookupError):
            break
        if not a.every:
            break
        time.sleep(a.every)


if __name__ == "__main__":
    main()
