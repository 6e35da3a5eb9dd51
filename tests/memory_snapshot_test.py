#!/usr/bin/env python3
"""memory_viz snapshots written by `oomkit train --memory-snapshot` (issue 13 item 2).

Two tiny runs of gpt-nano on the CPU (2 steps; one stopped by an OOM under --memory-limit) write
snapshots, which are checked against what PyTorch's own readers expect:

1. The keys and invariants of PyTorch 2.x's readers, ported (not imported: Debian's torch is
   1.13) from pytorch/pytorch:
   - torch/cuda/_memory_viz.py (stored copy at commit 0044eb67; the readers below are the same in
     40998ddc, the newest copy): segsum() (`python -m torch.cuda._memory_viz stats` in 2.x),
     trace(), _block_extra(), _write_blocks()/_frames_fmt() (the `segments`/`memory`
     flamegraphs) and compare();
   - torch/utils/viz/MemoryViz.js (commit 00067369, the script of https://pytorch.org/memory_viz):
     unpickle()'s opcode subset, annotate_snapshot(), process_alloc_data() and MemoryView's
     simulate_memory()/draw(), which fails when a live block lies outside every segment;
   - torch/cuda/memory.py (commit 00b65a04): the Snapshot/Segment/Block/Frame/TraceEntry
     TypedDicts in _snapshot()'s docstring.
2. The real reader here: Debian's torch 1.13 `python3 -m torch.cuda._memory_viz stats FILE`
   reads a list of segments (its segments/memory commands download flamegraph.pl, not possible
   here): the snapshot's `segments` list is written to a side file and must pass it.
3. The segments' total equals the tracking allocator's allocated = reserved bytes read at the
   same moment (the snapshot's "oomkit" record), at the end and at the first OOM.

Usage: memory_snapshot_test.py OOMKIT WORKDIR   (exit 0 pass, 1 fail, 77 no torch in /usr/bin/python3)
"""
import os
import pickle
import pickletools
import re
import shutil
import subprocess
import sys

# Opcodes that unpickle() in MemoryViz.js handles (its switch statement), by pickletools name.
MEMORYVIZ_OPCODES = {
    "PROTO", "APPEND", "APPENDS", "LIST", "TUPLE", "NEWFALSE", "NEWTRUE", "NONE", "BINGET", "BININT",
    "BININT1", "BININT2", "EMPTY_DICT", "EMPTY_LIST", "FRAME", "LONG1", "LONG_BINGET", "MARK", "MEMOIZE",
    "BINPUT", "LONG_BINPUT", "SETITEMS", "SETITEM", "DICT", "SHORT_BINUNICODE", "BINUNICODE", "STOP",
    "EMPTY_TUPLE", "TUPLE1", "TUPLE2", "TUPLE3", "BINFLOAT",
}
# TraceEntry.action values (memory.py docstring) that trace() and MemoryViz.js handle.
ACTIONS = {"alloc", "free_requested", "free_completed", "segment_alloc", "segment_free", "oom", "snapshot"}
BLOCK_STATES = {"active_allocated", "active_pending_free", "active_awaiting_free", "inactive"}
PHASES = {"setup", "forward", "loss", "backward", "optimizer_step", "zero_grad", "after_step"}

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)
    return cond


def frames_ok(frames, where):
    # _frame_fmt/_frame_filter read f['filename'], f['line'], f['name']; MemoryViz's
    # format_frames prints `${filename}:${line}:${name}`.
    ok = isinstance(frames, list)
    for f in frames if ok else []:
        ok = ok and isinstance(f, dict) and isinstance(f.get("filename"), str) and isinstance(f.get("line"), int) \
            and isinstance(f.get("name"), str)
    return check(ok, f"{where}: frames are a list of {{filename: str, line: int, name: str}}")


def segsum_2x(data):
    """The accounting of 2.x segsum(): per segment, external free + internal free + allocated
    == total_size; over all, the same for total_reserved. Returns (reserved, allocated)."""
    total_reserved = total_allocated = free_external = free_internal = 0
    for seg in data["segments"]:
        total_reserved += seg["total_size"]
        seg_ext = seg_int = seg_alloc = 0
        for b in seg["blocks"]:
            if b["state"] == "active_allocated":
                # _block_extra(): 'frames' in b -> (b['frames'], b['requested_size'])
                check("frames" in b and "requested_size" in b, "active block has frames and requested_size")
                requested = b["requested_size"]
                seg_alloc += requested
                seg_int += b["size"] - requested
            else:
                seg_ext += b["size"]
        check(seg_ext + seg_int + seg_alloc == seg["total_size"], f"segsum: segment {seg['address']:#x} adds up")
        check(seg["total_size"] >= 1 and seg["stream"] == 0, "segsum: total_size >= 1 and stream 0")
        total_allocated += seg_alloc
        free_external += seg_ext
        free_internal += seg_int
    check(free_internal + free_external + total_allocated == total_reserved, "segsum: totals add up")
    return total_reserved, total_allocated


def trace_2x(data):
    """trace(): every device trace entry's action, addr and size; oom's device_free;
    find_segment() reads seg['address'] and seg['allocated_size']."""
    for seg in data["segments"]:
        check(isinstance(seg["address"], int) and isinstance(seg["allocated_size"], int), "segment address/allocated_size")
    for d in data["device_traces"]:
        for e in d:
            check(e["action"] in ACTIONS, f"known action {e['action']}")
            if e["action"] == "oom":
                check(isinstance(e["size"], int) and isinstance(e["device_free"], int), "oom: size, device_free")
            elif e["action"] != "snapshot":
                check(isinstance(e["addr"], int) and isinstance(e["size"], int), "entry: addr, size")
            check(isinstance(e["stream"], int), "entry: stream")
            frames_ok(e.get("frames", []), f"trace entry {e['action']}")


def memoryviz_annotate(data):
    """annotate_snapshot(): block addresses are derived by adding sizes from seg.address;
    segments carry `device` (snapshot_change() picks devices with segments or traces)."""
    for seg in data["segments"]:
        check(seg.get("device") == 0, "segment device 0")
        addr = seg["address"]
        for b in seg["blocks"]:
            check(b.get("address", addr) == addr, "block address = segment address + preceding sizes")
            check(b["state"] in BLOCK_STATES, f"block state {b['state']}")
            check(b["requested_size"] <= b["size"], "requested_size <= size")
            frames_ok(b["frames"], "block")
            addr += b["size"]
        check(addr - seg["address"] == seg["total_size"], "blocks fill the segment")


def memoryviz_elide(trace):
    """annotate_snapshot() folds a free_requested immediately followed by free_completed of
    the same address into one 'free' event."""
    out = []
    for t in trace:
        t = dict(t)
        if t["action"] == "free_completed" and out and out[-1]["action"] == "free_requested" and out[-1]["addr"] == t["addr"]:
            out[-1]["action"] = "free"
            continue
        out.append(t)
    return out


def memoryviz_segment_view(data, samples=40):
    """MemoryView.simulate_memory(idx) walks the trace back from the end to idx, then draw()
    places every block in the segment containing it (a block outside all segments throws in the
    browser). Checked at `samples` indices spread over the trace, and at the last."""
    events = memoryviz_elide(data["device_traces"][0])
    segments0 = [(s["address"], s["total_size"]) for s in data["segments"]]
    blocks0 = {}
    for s in data["segments"]:
        addr = s["address"]
        for b in s["blocks"]:
            if b["state"] in ("active_allocated", "active_pending_free"):
                blocks0[addr] = b["requested_size"]
            addr += b["size"]
    n = len(events)
    indices = sorted({n - 1} | {int(k * (n - 1) / max(1, samples - 1)) for k in range(samples)}) if n else []
    bad = 0
    for idx in indices:
        segs = dict(segments0)  # addr -> size (no merges: we only emit segment_alloc/free)
        blocks = dict(blocks0)
        for i in range(n - 1, idx, -1):
            e = events[i]
            a = e["action"]
            if a in ("free", "free_completed"):
                blocks[e["addr"]] = e["size"]
            elif a == "alloc":
                blocks.pop(e["addr"], None)
            elif a == "segment_free":
                segs[e["addr"]] = e["size"]
            elif a == "segment_alloc":
                segs.pop(e["addr"], None)
        starts = sorted(segs)
        import bisect
        for baddr, bsize in blocks.items():
            k = bisect.bisect_right(starts, baddr) - 1
            if k < 0 or not (starts[k] <= baddr < starts[k] + segs[starts[k]]) or baddr + bsize > starts[k] + segs[starts[k]]:
                bad += 1
    check(bad == 0, f"segment view: every live block inside a live segment at {len(indices)} event indices ({bad} misplaced)")


def memoryviz_timeline(data):
    """process_alloc_data(): allocs and frees pair by address; blocks still allocated at the
    end either came from an alloc in the trace or are listed as initially allocated."""
    live = {}
    for e in memoryviz_elide(data["device_traces"][0]):
        if e["action"] == "alloc":
            check(e["addr"] not in live, "no second alloc at a live address")
            live[e["addr"]] = e["size"]
        elif e["action"] in ("free", "free_completed"):
            live.pop(e["addr"], None)
    for s in data["segments"]:
        for b in s["blocks"]:
            if b["state"] == "active_allocated" and b["address"] in live:
                check(live[b["address"]] == b["requested_size"], "trace alloc size = block requested_size")


def bytes_1x(num):
    # Bytes.__repr__ of 1.13's torch/cuda/_memory_viz.py
    for unit in ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi"]:
        if abs(num) < 1024.0:
            return f"{num:3.1f}{unit}B"
        num /= 1024.0
    return f"{num:.1f}YiB"


def stats_113(segments, side):
    with open(side, "wb") as f:
        pickle.dump(segments, f)
    r = subprocess.run(["/usr/bin/python3", "-m", "torch.cuda._memory_viz", "stats", side],
                       capture_output=True, text=True, timeout=120)
    if not check(r.returncode == 0, f"1.13 `_memory_viz stats` exits 0 (rc {r.returncode}: {r.stderr[-400:]})"):
        return
    total = sum(s["total_size"] for s in segments)
    check(f"'segments': {len(segments)}" in r.stdout, f"1.13 stats counts {len(segments)} segments: {r.stdout!r}")
    check(f"'total_size': {bytes_1x(total)}" in r.stdout, f"1.13 stats total_size {bytes_1x(total)}: {r.stdout!r}")
    check(f"'active_allocated': {bytes_1x(total)}" in r.stdout, "1.13 stats: all of it active_allocated")


def check_snapshot(path, expect_at, label):
    raw = open(path, "rb").read()
    ops = {op.name for op, _, _ in pickletools.genops(raw)}
    check(ops <= MEMORYVIZ_OPCODES, f"{label}: opcodes MemoryViz.js reads (extra: {sorted(ops - MEMORYVIZ_OPCODES)})")
    data = pickle.loads(raw)
    check(isinstance(data, dict) and isinstance(data.get("segments"), list) and isinstance(data.get("device_traces"), list),
          f"{label}: a dict with segments and device_traces")
    check(len(data["device_traces"]) == 1, f"{label}: one device trace")
    reserved, allocated = segsum_2x(data)
    trace_2x(data)
    memoryviz_annotate(data)
    memoryviz_timeline(data)
    memoryviz_segment_view(data)
    # compare() keys segments by (address, total_size): no two segments alike.
    keys = [(s["address"], s["total_size"]) for s in data["segments"]]
    check(len(keys) == len(set(keys)), f"{label}: segments distinct by (address, total_size)")
    ok = data["oomkit"]
    check(ok["segments_at"] == expect_at, f"{label}: segments taken at {expect_at} ({ok['segments_at']})")
    check(reserved == allocated == ok["allocated_bytes"] == ok["reserved_bytes"],
          f"{label}: segments total {reserved} = allocated {allocated} = tracker's allocated_bytes {ok['allocated_bytes']}")
    check(reserved > 1_000_000, f"{label}: the segments hold at least the parameters ({reserved} bytes)")
    # Frames: the phase of every allocation, and the op that made it.
    phase_names = set()
    op_blocks = 0
    for s in data["segments"]:
        for b in s["blocks"]:
            fr = b["frames"]
            phases = [f for f in fr if f["filename"] == "oomkit/step"]
            check(len(phases) == 1 and fr[-1] is phases[0] if phases else False, f"{label}: one phase frame, outermost")
            phase_names.update(f["name"] for f in phases)
            op_blocks += any(f["filename"] == "oomkit/op" for f in fr)
    check(phase_names <= PHASES and "setup" in phase_names, f"{label}: block phases {sorted(phase_names)}")
    check(op_blocks > 0, f"{label}: some blocks name the op that allocated them")
    trace = data["device_traces"][0]
    traced_phases = {f["name"] for e in trace for f in e["frames"] if f["filename"] == "oomkit/step"}
    check(traced_phases <= PHASES, f"{label}: trace phases {sorted(traced_phases)}")
    if expect_at == "dump":  # the whole run is in the trace
        check({"setup", "forward", "loss", "backward", "optimizer_step", "zero_grad", "after_step"} == traced_phases,
              f"{label}: every phase in the trace: {sorted(traced_phases)}")
    check(any(f["filename"] == "oomkit/op" and f["name"].startswith("aten::") for e in trace for f in e["frames"]),
          f"{label}: aten ops in the trace frames")
    return data


def run(cmd):
    print("+", " ".join(cmd))
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600)


def main():
    oomkit, work = sys.argv[1], sys.argv[2]
    if subprocess.run(["/usr/bin/python3", "-c", "import torch"], capture_output=True).returncode != 0:
        print("SKIP: /usr/bin/python3 has no torch (Debian python3-torch)")
        return 77
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    tiny = ["--model", "gpt-nano", "--batch-size", "2", "--seq-len", "32", "--eval-batches", "1", "--threads", "1"]

    # A completed run: segments at the end.
    snap = os.path.join(work, "end", "snapshot.pickle")
    r = run([oomkit, "train", *tiny, "--steps", "2", "--run-dir", os.path.join(work, "end"),
             "--memory-snapshot", snap, "--memory-history", "100000"])
    check(r.returncode == 0, f"train exits 0 (rc {r.returncode}: {r.stderr[-600:]})")
    if r.returncode == 0:
        data = check_snapshot(snap, "dump", "end")
        check(data["oomkit"]["dropped_entries"] == 0, "nothing dropped under --memory-history 100000")
        stats_113(data["segments"], os.path.join(work, "end-segments.pickle"))
        check(re.search(r"memory snapshot: .*snapshot\.pickle: \d+ segments, reserved .* = allocated", r.stdout + r.stderr)
              is not None, "the run names the snapshot and its totals")

    # An OOM stop (AdamW's state does not fit 12 MiB): segments at the first OOM, an oom entry.
    snap = os.path.join(work, "oom", "snapshot.pickle")
    r = run([oomkit, "-q", "train", *tiny, "--steps", "2", "--run-dir", os.path.join(work, "oom"),
             "--memory-limit", "12MiB", "--on-oom", "abort", "--memory-snapshot", snap, "--memory-history", "1000"])
    check(r.returncode == 3, f"train stops on the OOM with exit 3 (rc {r.returncode}: {r.stderr[-600:]})")
    if os.path.exists(snap):
        data = check_snapshot(snap, "oom", "oom")
        ooms = [e for e in data["device_traces"][0] if e["action"] == "oom"]
        check(len(ooms) >= 1, "oom: the trace has the refused allocation")
        if ooms:
            limit = 12 * 2**20
            check(ooms[0]["device_free"] == limit - data["oomkit"]["allocated_bytes"],
                  "oom: device_free = budget - allocated at the OOM")
            check(data["oomkit"]["allocated_bytes"] + ooms[0]["size"] > limit, "oom: the request did not fit")
            phase = [f["name"] for f in ooms[0]["frames"] if f["filename"] == "oomkit/step"]
            check(phase == ["optimizer_step"], f"oom: raised in the optimizer step (AdamW's state): {phase}")
        # 1000: below the ~2,200 events before this OOM (3,000 was, before FusedAdamW made no temporaries).
        check(len(data["device_traces"][0]) <= 1000, "oom: at most --memory-history entries")
        check(data["oomkit"]["dropped_entries"] > 0, "oom: the bound dropped older entries")
        stats_113(data["segments"], os.path.join(work, "oom-segments.pickle"))
    else:
        check(False, "oom: snapshot written after the OOM stop")

    # Bad input: --memory-history 0 is exit 2 naming the flag.
    r = run([oomkit, "train", *tiny, "--steps", "1", "--memory-snapshot", os.path.join(work, "x.pickle"),
             "--memory-history", "0"])
    check(r.returncode == 2 and "--memory-history" in r.stderr, f"--memory-history 0: exit 2 naming it (rc {r.returncode})")

    print("memory_snapshot_test:", "PASS" if not failures else f"{len(failures)} FAILED")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
