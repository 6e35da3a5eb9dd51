#!/usr/bin/env python3
"""Reads oomkit's memory_viz snapshots with a PyTorch 2.x install's own readers (issue 13 item 2).

Where a PyTorch 2.x is installed (a lent GPU machine: scripts/gpu-check.sh runs this), for each
FILE: torch.cuda._memory_viz's segsum (`stats`, which asserts that every segment adds up),
trace, the segments/memory flamegraph inputs, compare, trace_plot and segment_plot (the HTML
of https://pytorch.org/memory_viz, written to --out), and `python3 -m torch.cuda._memory_viz
stats|trace FILE` as a user runs them. With --cuda-reference and a GPU, it also records a real
CUDA snapshot (torch.cuda.memory._record_memory_history + a few training steps of a small MLP)
with an OOM under a small memory fraction, and checks that every key oomkit writes on segments, blocks, frames and trace entries is a key
PyTorch itself writes there.

Usage: memory_viz_2x_check.py [--out DIR] [--cuda-reference] FILE...   (exit 0: all passed)
"""
import argparse
import os
import pickle
import subprocess
import sys

import torch
from torch.cuda import _memory_viz as mv


def keysets(snapshot):
    seg, block, frame, entry = set(), set(), set(), set()
    for s in snapshot["segments"]:
        seg |= set(s)
        for b in s["blocks"]:
            block |= set(b)
            for f in b.get("frames", []):
                frame |= set(f)
    for trace in snapshot["device_traces"]:
        for e in trace:
            entry |= set(e)
            for f in e.get("frames", []):
                frame |= set(f)
    return {"top": set(snapshot), "segment": seg, "block": block, "frame": frame, "trace entry": entry}


def check_file(path, out, failures):
    print(f"== {path}")
    data = pickle.load(open(path, "rb"))
    try:
        stats = mv.segsum(data)
        print("\n".join(line for line in stats.splitlines() if line.startswith(("segments:", "total_"))))
    except Exception as e:  # noqa: BLE001 - report every reader that fails
        failures.append(f"{path}: segsum: {e!r}")
    for name, fn in [("trace", lambda: mv.trace(data)),
                     ("segments", lambda: mv.segments(data, format_flamegraph=lambda s: s)),
                     ("memory", lambda: mv.memory(data, format_flamegraph=lambda s: s)),
                     ("compare", lambda: mv.compare(data["segments"], data["segments"], format_flamegraph=lambda s: s)),
                     ("trace_plot", lambda: mv.trace_plot(data)),
                     ("segment_plot", lambda: mv.segment_plot(data))]:
        try:
            text = fn()
            print(f"{name}: {len(text)} characters")
            if name in ("trace_plot", "segment_plot") and out:
                with open(os.path.join(out, f"{os.path.basename(path)}.{name}.html"), "w") as f:
                    f.write(text)
            if name in ("segments", "memory"):
                # flamegraph.pl input: "frame;frame;... <bytes>" per line
                bad = [ln for ln in text.splitlines() if not ln.rsplit(" ", 1)[-1].isdigit()]
                if bad:
                    failures.append(f"{path}: {name}: malformed flamegraph line {bad[0]!r}")
        except Exception as e:  # noqa: BLE001
            failures.append(f"{path}: {name}: {e!r}")
    for cmd in ("stats", "trace"):
        r = subprocess.run([sys.executable, "-m", "torch.cuda._memory_viz", cmd, path], capture_output=True, text=True)
        print(f"python -m torch.cuda._memory_viz {cmd}: rc {r.returncode}")
        if r.returncode != 0:
            failures.append(f"{path}: _memory_viz {cmd}: rc {r.returncode}: {r.stderr[-500:]}")
    return data


def cuda_reference():
    torch.cuda.memory._record_memory_history(max_entries=100000)
    model = torch.nn.Sequential(torch.nn.Linear(256, 1024), torch.nn.GELU(), torch.nn.Linear(1024, 256)).cuda()
    opt = torch.optim.AdamW(model.parameters())
    for _ in range(2):
        loss = model(torch.randn(64, 256, device="cuda")).square().mean()
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
    # An OOM under a small memory fraction, so the reference has an "oom" entry (device_free).
    torch.cuda.set_per_process_memory_fraction(0.01)
    try:
        torch.empty(1 << 34, dtype=torch.uint8, device="cuda")
    except RuntimeError:  # torch.OutOfMemoryError
        pass
    torch.cuda.set_per_process_memory_fraction(1.0)
    snapshot = torch.cuda.memory._snapshot()
    torch.cuda.memory._record_memory_history(enabled=None)
    return snapshot


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--out", default="")
    ap.add_argument("--cuda-reference", action="store_true")
    args = ap.parse_args()
    print("torch", torch.__version__)
    failures = []
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    ours = [check_file(f, args.out, failures) for f in args.files]
    if args.cuda_reference and torch.cuda.is_available():
        ref = keysets(cuda_reference())
        for data in ours:
            mine = keysets(data)
            for kind in ref:
                extra = mine[kind] - ref[kind] - ({"oomkit"} if kind == "top" else set())
                print(f"{kind}: oomkit {sorted(mine[kind])}; torch {sorted(ref[kind])}")
                if extra:
                    failures.append(f"{kind} keys torch {torch.__version__} does not write: {sorted(extra)}")
    for f in failures:
        print("FAIL:", f)
    print("memory_viz_2x_check:", "PASS" if not failures else f"{len(failures)} FAILED")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
