#!/usr/bin/python3
"""The Python peer's step, per op: bench/op_profile.cpp's table for ../shared/peers/gpt_peer.py.

Imports the peer's GPT module as it is (the file is frozen and is not changed) and runs its
training step (its loop body: random windows of the byte stream, autocast for bf16-mixed, forward,
backward, AdamW step, zero_grad(set_to_none=True)) for --warm-steps steps, then --steps steps
unprofiled (timed), then --steps steps under torch.autograd.profiler.profile() (in 1.13:
ProfilerState.KINETO with the CPU activity, the state bench/op_profile.cpp enables from C++).
Self time per op name comes from the profiler's key_averages(); the shares are those of
bench/op_profile.cpp: matmul (aten::mm, addmm, bmm, baddbmm, addbmm), other ops, and outside ops
(wall time no op covers: here the Python interpreter between ops); the last line says how much
the profiler added to the step.
Run with /usr/bin/python3 (Debian's python3-torch, the LibTorch oomkit links). Set
OPENBLAS_CORETYPE and ATEN_CPU_CAPABILITY as oomkit-train would to compare on the same kernels.

Usage: op_profile_peer.py --peer ../shared/peers/gpt_peer.py --model models/gpt-nano.json
       --data /usr/share/common-licenses/GPL-3 --batch-size 16 --seq-len 128 --threads 2
"""
import argparse
import importlib.util
import json
import time

import torch

MATMUL = {"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::addbmm"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--peer", required=True)
    ap.add_argument("--model", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--seq-len", type=int, default=128)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--precision", choices=["fp32", "bf16-mixed"], default="fp32")
    ap.add_argument("--warm-steps", type=int, default=3)
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--top", type=int, default=20)
    a = ap.parse_args()
    spec = importlib.util.spec_from_file_location("gpt_peer", a.peer)
    peer = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(peer)
    torch.manual_seed(0)
    torch.set_num_threads(a.threads)
    cfg = json.load(open(a.model))
    data = torch.tensor(list(open(a.data, "rb").read()), dtype=torch.long)
    model = peer.GPT(cfg)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    B, T = a.batch_size, a.seq_len

    def step():  # the peer's loop body (gpt_peer.py main())
        ix = torch.randint(len(data) - T - 1, (B,))
        x = torch.stack([data[i:i + T] for i in ix]); y = torch.stack([data[i + 1:i + T + 1] for i in ix])
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=a.precision == "bf16-mixed"):
            loss = model(x, y)
        loss.backward()
        opt.step(); opt.zero_grad(set_to_none=True)

    for _ in range(a.warm_steps):
        step()
    u0 = time.perf_counter()
    for _ in range(a.steps):
        step()
    unprofiled_us = (time.perf_counter() - u0) * 1e6
    with torch.autograd.profiler.profile() as prof:
        t0 = time.perf_counter()
        for _ in range(a.steps):
            step()
        wall_us = (time.perf_counter() - t0) * 1e6
    rows = sorted(prof.key_averages(), key=lambda e: e.self_cpu_time_total, reverse=True)
    # Time covered by outermost ranges: a range is outermost when no other range of its thread contains it.
    covered_us = 0.0
    by_thread = {}
    for e in prof.function_events:
        by_thread.setdefault(e.thread, []).append(e)
    for events in by_thread.values():
        events.sort(key=lambda e: (e.time_range.start, -e.time_range.end))
        end = -1.0
        for e in events:
            if e.time_range.start >= end:
                covered_us += e.time_range.end - e.time_range.start
                end = e.time_range.end
            elif e.time_range.end > end:  # overlapping, not nested: count the part beyond
                covered_us += e.time_range.end - end
                end = e.time_range.end
    matmul_us = sum(e.self_cpu_time_total for e in rows if e.key in MATMUL)
    other_us = sum(e.self_cpu_time_total for e in rows if e.key not in MATMUL)
    n = float(a.steps)
    print(f"peer {a.model} B={B} T={T} {a.precision}, {torch.get_num_threads()} threads, "
          f"{torch.__config__.show().split('CPU capability usage: ')[1].split()[0]} ATen kernels; "
          f"{a.steps} profiled steps after {a.warm_steps} warm")
    print(f"{'op (self time)':<58} {'calls/step':>10} {'self ms/step':>14} {'of step':>8}")
    for e in rows[:a.top]:
        print(f"{e.key[:58]:<58} {e.count / n:10.0f} {e.self_cpu_time_total / n / 1e3:14.3f} "
              f"{100 * e.self_cpu_time_total / wall_us:7.1f}%")
    outside_us = max(0.0, wall_us - covered_us)
    print(f"step wall {wall_us / n / 1e3:.3f} ms: matmul {matmul_us / n / 1e3:.3f} ms ({100 * matmul_us / wall_us:.1f}%), "
          f"other ops {other_us / n / 1e3:.3f} ms ({100 * other_us / wall_us:.1f}%), "
          f"outside ops {outside_us / n / 1e3:.3f} ms ({100 * outside_us / wall_us:.1f}%)")
    print(f"unprofiled step wall {unprofiled_us / n / 1e3:.3f} ms (the same number of steps just before): "
          f"the profiler adds {100 * (wall_us / unprofiled_us - 1):.0f}%")


if __name__ == "__main__":
    main()
