#!/usr/bin/python3
"""The Python twin of `oomkit train` for the throughput benchmark (bench/train_throughput.sh).

Same model (GPT-2, the op sequence of docs/model-ops.md), same data (byte tokens of the
default corpus, random windows), same AdamW, gradient clipping, zero_grad(set_to_none=True),
fp32, same threads, on Debian's python3-torch (the same LibTorch 1.13 as oomkit). Prints one
JSON line: {"tokens_per_s":..., "tokens_per_cpu_s":..., "ms_per_step":..., "first_loss":..., "final_loss":...}.
With --peak it instead measures the fp32 matmul peak (FLOP/s) of this machine; with
--summarize FILE it prints the table row of one size from the runs the shell script collected
("cpp {json}", "py {json}" and "peak {json}" lines): medians, ratios, MFU.
"""
import argparse
import json
import math
import os
import statistics
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.n_head, self.n_embd = c["n_head"], c["n_embd"]
        self.c_attn = nn.Linear(c["n_embd"], 3 * c["n_embd"])
        self.c_proj = nn.Linear(c["n_embd"], c["n_embd"])

    def forward(self, x, mask):
        B, T, d = x.shape
        h = self.n_head
        q, k, v = self.c_attn(x).split(d, dim=-1)
        q = q.view(B, T, h, d // h).transpose(1, 2)
        k = k.view(B, T, h, d // h).transpose(1, 2)
        v = v.view(B, T, h, d // h).transpose(1, 2)
        s = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(d // h))
        s = s.masked_fill(mask, float("-inf"))
        p = torch.softmax(s, dim=-1)
        y = (p @ v).transpose(1, 2).contiguous().view(B, T, d)
        return self.c_proj(y)


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.ln_1 = nn.LayerNorm(c["n_embd"])
        self.attn = CausalSelfAttention(c)
        self.ln_2 = nn.LayerNorm(c["n_embd"])
        self.c_fc = nn.Linear(c["n_embd"], c["d_ff"])
        self.c_proj = nn.Linear(c["d_ff"], c["n_embd"])

    def forward(self, x, mask):
        x = x + self.attn(self.ln_1(x), mask)
        return x + self.c_proj(F.gelu(self.c_fc(self.ln_2(x)), approximate="tanh"))


class GPT(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.wte = nn.Embedding(c["vocab_size"], c["n_embd"])
        self.wpe = nn.Embedding(c["n_positions"], c["n_embd"])
        self.h = nn.ModuleList([Block(c) for _ in range(c["n_layer"])])
        self.ln_f = nn.LayerNorm(c["n_embd"])
        n = c["n_positions"]
        self.register_buffer("mask", torch.ones(n, n, dtype=torch.bool).triu(1))
        for name, p in self.named_parameters():
            if "ln_" in name:
                continue
            if name.endswith("bias"):
                nn.init.zeros_(p)
            elif "c_proj.weight" in name:
                nn.init.normal_(p, 0.0, 0.02 / math.sqrt(2 * c["n_layer"]))
            else:
                nn.init.normal_(p, 0.0, 0.02)

    def forward(self, idx):
        T = idx.shape[1]
        x = self.wte(idx) + self.wpe(torch.arange(T))
        mask = self.mask[:T, :T]
        for block in self.h:
            x = block(x, mask)
        return F.linear(self.ln_f(x), self.wte.weight)  # tied head


def load_config(path):
    with open(path) as f:
        j = json.load(f)
    d = j["n_embd"]
    return {"vocab_size": j["vocab_size"], "n_positions": j["n_positions"], "n_embd": d,
            "n_layer": j["n_layer"], "n_head": j["n_head"], "d_ff": j.get("n_inner") or 4 * d}


def corpus_bytes(folder="/usr/share/common-licenses"):
    seen, texts = set(), []
    for name in sorted(os.listdir(folder)):
        target = os.path.realpath(os.path.join(folder, name))
        if target in seen or not os.path.isfile(target):
            continue
        seen.add(target)
        with open(target, "rb") as f:
            texts.append(f.read())
    return torch.frombuffer(bytearray(b"\n\n".join(texts)), dtype=torch.uint8).long()


def matmul_peak(n=2048, seconds=2.0):
    a, b = torch.randn(n, n), torch.randn(n, n)
    a @ b
    reps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        a @ b
        reps += 1
    return 2.0 * n ** 3 * reps / (time.perf_counter() - t0)


def summarize(path, model, B, T, criterion):
    """One table row: per side the median over repeats of tokens/s and of tokens per CPU-second;
    the wall and CPU ratios are ratios of those medians (C++ / Python); ratio_range is the
    smallest and largest wall ratio of the repeats paired in run order. MFU: 6N + 12·L·H·Q·T
    FLOPs per token (PaLM, Chowdhery et al. 2022, appendix B), as `oomkit train --json` reports
    it in model_flops_per_token (the one implementation), over the matmul rate measured
    before this size (the best, if the file holds several). Returns the process exit code: 1 if
    the criterion ratio is below 1."""
    runs = {"cpp": [], "py": [], "peak": []}
    with open(path) as f:
        for line in f:
            kind, _, body = line.partition(" ")
            runs[kind].append(json.loads(body))
    cpp, py = runs["cpp"], runs["py"]
    if not cpp or len(cpp) != len(py):
        print(f"{model}: {len(cpp)} C++ runs and {len(py)} Python runs completed; expected the same number > 0")
        return 1
    med = lambda rows, key: statistics.median(r[key] for r in rows)
    with open(model) as f:
        name = json.load(f).get("_name_or_path", model)
    N = cpp[0]["parameters"]
    # One implementation of PaLM's 6N + 12·L·H·Q·T: the number `oomkit train` reports
    # (src/estimate/flops.cpp, model_flops_per_token), for both columns.
    flops_per_token = cpp[0]["model_flops_per_token"]
    peak = max(r["matmul_flops"] for r in runs["peak"])
    wall = med(cpp, "tokens_per_s") / med(py, "tokens_per_s")
    cpu = med(cpp, "tokens_per_cpu_s") / med(py, "tokens_per_cpu_s")
    pairs = [a["tokens_per_s"] / b["tokens_per_s"] for a, b in zip(cpp, py)]
    print(f"{name:<12} {N/1e6:5.1f}M {med(cpp, 'tokens_per_s'):9.0f} {med(py, 'tokens_per_s'):9.0f} {wall:6.3f} "
          f"{min(pairs):6.3f}-{max(pairs):6.3f} {med(cpp, 'tokens_per_cpu_s'):10.0f} {med(py, 'tokens_per_cpu_s'):10.0f} "
          f"{cpu:6.3f} {100*med(cpp, 'tokens_per_s')*flops_per_token/peak:6.1f}% "
          f"{100*med(py, 'tokens_per_s')*flops_per_token/peak:6.1f}%   (peak {peak/1e9:.1f} GFLOP/s)")
    return 0 if (cpu if criterion == "cpu" else wall) >= 1.0 else 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model")
    ap.add_argument("--batch-size", type=int, default=8)
    ap.add_argument("--seq-len", type=int, default=128)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--peak", action="store_true")
    ap.add_argument("--summarize", metavar="FILE")
    ap.add_argument("--criterion", choices=["wall", "cpu"], default="wall")
    a = ap.parse_args()
    if a.summarize:
        sys.exit(summarize(a.summarize, a.model, a.batch_size, a.seq_len, a.criterion))
    torch.set_num_threads(a.threads)
    if a.peak:
        print(json.dumps({"matmul_flops": matmul_peak(), "threads": torch.get_num_threads()}))
        return
    torch.manual_seed(1337)
    c = load_config(a.model)
    model = GPT(c)
    params = list(model.parameters())
    opt = torch.optim.AdamW(params, lr=a.lr, weight_decay=0.1)
    data = corpus_bytes()
    split = len(data) - len(data) // 10
    B, T = a.batch_size, a.seq_len
    gen = torch.Generator().manual_seed(1337)
    losses, train_s, cpu_s = [], 0.0, 0.0
    for step in range(a.steps):
        t0, c0 = time.perf_counter(), time.process_time()
        starts = torch.randint(0, split - T - 1, (B,), generator=gen)
        x = torch.stack([data[s:s + T] for s in starts])
        y = torch.stack([data[s + 1:s + T + 1] for s in starts])
        logits = model(x)
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), y.view(-1))
        del logits
        loss.backward()
        losses.append(loss.item())
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        opt.zero_grad(set_to_none=True)
        train_s += time.perf_counter() - t0
        cpu_s += time.process_time() - c0
    print(json.dumps({"tokens_per_s": B * T * a.steps / train_s, "tokens_per_cpu_s": B * T * a.steps / cpu_s,
                      "ms_per_step": 1000 * train_s / a.steps,
                      "first_loss": losses[0], "final_loss": losses[-1], "threads": torch.get_num_threads()}))


if __name__ == "__main__":
    main()
