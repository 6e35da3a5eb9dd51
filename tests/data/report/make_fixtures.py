#!/usr/bin/env python3
"""Writes the hand-made report fixtures (used until real `oomkit train` / `oomkit estimate`
outputs replace them). The numbers follow gpt-nano's real shapes (V=256, d=128, L=5, h=4,
T=256, fp32 AdamW): P = 1,057,152 parameters -> 4,228,608 bytes each of weights, gradients
and each Adam moment; the per-phase pattern is the trainer's (docs/model-ops.md): forward
adds activations, backward frees them and adds gradients, the first optimizer step creates
two moments, zero_grad(set_to_none) frees gradients. Run: python3 make_fixtures.py"""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))
MiB = 1 << 20
P = 1057152
W = 4 * P                       # fp32 bytes of one copy of the parameters
B, T = 8, 256
ATTN = 5 * B * 4 * T * T * 4    # L·B·h·T² fp32 softmax outputs
ACT = ATTN + 5 * B * T * (16 * 128 + 2 * 512) * 4  # + L·B·T·(16d + 2·d_ff)·4 B saved by Linear/GELU/LayerNorm
LOGITS = B * T * 256 * 4        # (B, T, V) fp32 logits
LIMIT = 160 * MiB

model = {"model_type": "gpt2", "_name_or_path": "gpt-nano", "vocab_size": 256, "n_positions": 256,
         "n_embd": 128, "n_layer": 5, "n_head": 4, "n_inner": None, "activation_function": "gelu_new",
         "tie_word_embeddings": True}
estimate = {
    "model": model,
    "setup": {"micro_batch_size": B, "seq_len": T, "precision": "fp32", "optimizer": "adamw",
              "attention": "eager", "checkpointing": "none", "cuda": False},
    "parameters": {"embeddings": 65536, "attention": 330240, "mlp": 659840, "norms": 1536, "head": 0,
                   "lora": 0, "total": P},
    "items": [
        {"path": "parameters/all", "category": "parameters", "bytes": W, "formula": "4 B · P (fp32 weights)"},
        {"path": "gradients/all", "category": "gradients", "bytes": W, "formula": "4 B · P (fp32 .grad)"},
        {"path": "optimizer_state/adamw/exp_avg", "category": "optimizer_state", "bytes": W, "formula": "4 B · P"},
        {"path": "optimizer_state/adamw/exp_avg_sq", "category": "optimizer_state", "bytes": W, "formula": "4 B · P"},
        {"path": "activations/block/attn_probs", "category": "activations", "bytes": ATTN,
         "formula": "L·B·h·T²·4 B (softmax output saved by at::_softmax)"},
        {"path": "activations/block/other", "category": "activations", "bytes": ACT - ATTN,
         "formula": "L·B·T·(16d + 2·d_ff)·4 B (Linear inputs, GELU input, LayerNorm x)"},
        {"path": "transient/loss/log_softmax", "category": "transient", "bytes": 2 * LOGITS,
         "formula": "2·B·T·V·4 B (logits and log_softmax output)"},
    ],
    "totals": {"parameters": W, "gradients": W, "optimizer_state": 2 * W, "activations": ACT,
               "transient": 2 * LOGITS, "overhead": 0},
    "phases": [],
    "peak_bytes": 0, "peak_phase": "steady/after_loss",
}
def pred(kind, phase, alloc, peak):
    estimate["phases"].append({"step_kind": kind, "phase": phase, "allocated_bytes": alloc, "peak_bytes": peak})
for kind, opt in (("first", 0), ("steady", 2 * W)):
    s = W + opt
    pred(kind, "step_start", s, s)
    pred(kind, "after_forward", s + ACT + LOGITS, s + ACT + LOGITS)
    pred(kind, "after_loss", s + ACT + LOGITS, s + ACT + 2 * LOGITS)
    pred(kind, "after_backward", s + W, s + ACT + 2 * LOGITS + W)
    pred(kind, "after_optimizer_step", W + 2 * W + W, W + 2 * W + W + W // 2)
    pred(kind, "after_zero_grad", 3 * W, 3 * W)
estimate["peak_bytes"] = max(p["peak_bytes"] for p in estimate["phases"])

def write_run(dirname, steps, oom_step=None, limit=LIMIT, measured_scale=1.0):
    """oom_step: that step OOMs while computing the loss; the run then recovers with half the
    micro-batch and 2 gradient-accumulation micro-steps, redoing the same step."""
    os.makedirs(os.path.join(HERE, dirname), exist_ok=True)
    lines, t = [], 0
    lines.append({"type": "run", "version": 1, "device": "cpu", "model": model,
                  "options": {"micro_batch_size": B, "seq_len": T, "steps": steps, "precision": "fp32",
                              "optimizer": "adamw", "lr": 0.001, "seed": 1337, "on_oom": "recover",
                              "memory_limit": "%dMiB" % (limit // MiB),
                              "run_name": "nano </script><!-- \"quoted\" & <b>not bold</b>"},
                  "estimate": estimate, "limit_bytes": limit})
    alloc = W
    def mark(step, phase, new_alloc, peak, dt_ms, micro=0):
        nonlocal t, alloc
        t += int(dt_ms * 1e6) + 137
        rec = {"type": "mark", "step": step, "micro_step": micro, "phase": phase, "t_ns": t,
               "allocated_bytes": new_alloc, "reserved_bytes": new_alloc, "active_bytes": new_alloc,
               "inactive_split_bytes": 0, "peak_allocated_bytes": peak, "delta_bytes": new_alloc - alloc,
               "rss_bytes": 180 * MiB + new_alloc}
        alloc = new_alloc
        lines.append(rec)
    accum, step = 1, 1
    while step <= steps:
        opt = 0 if step == 1 else 2 * W
        s = W + opt
        act, logits = int(ACT * measured_scale) // accum, LOGITS // accum
        mark(step, "step_start", s, s, 3.0)
        failed = False
        for micro in range(accum):
            g = 0 if micro == 0 else W
            mark(step, "after_forward", s + g + act + logits, s + g + act + logits + 4096, 41.5 / accum, micro)
            if step == oom_step and accum == 1:
                lines.append({"type": "event", "name": "oom", "step": step, "phase": "after_loss", "t_ns": t + 900000,
                              "requested_bytes": logits, "message": "CPU memory budget exceeded: tried to allocate "
                              "%.2f MiB (budget %d.00 MiB; %.2f MiB allocated)" % (logits / MiB, limit // MiB, alloc / MiB)})
                t += 2000000
                lines.append({"type": "event", "name": "recover", "step": step, "t_ns": t,
                              "change": "micro_batch_size", "from": B, "to": B // 2,
                              "gradient_accumulation_steps": 2})
                accum, failed, alloc = 2, True, s
                break
            mark(step, "after_loss", s + g + act + logits, s + g + act + 2 * logits, 6.2 / accum, micro)
            mark(step, "after_backward", s + W, s + g + act + 2 * logits + W, 88.0 / accum, micro)
        if failed:
            continue
        mark(step, "after_optimizer_step", 4 * W, 4 * W + W // 2, 9.5)
        mark(step, "after_zero_grad", 3 * W, 4 * W, 0.2)
        lines.append({"type": "step", "step": step, "loss": round(5.55 - 0.21 * step ** 0.7, 4), "lr": 0.001,
                      "ms": 148.4, "tokens_per_s": round(B * T / 0.1484, 1), "peak_bytes": s + act + 2 * logits + W,
                      "peak_phase": "after_backward"})
        if step % 5 == 0:
            lines.append({"type": "event", "name": "checkpoint", "step": step, "t_ns": t + 1000,
                          "path": dirname + "/checkpoint.pt"})
        step += 1
    peak = max(r.get("peak_allocated_bytes", 0) for r in lines)
    summary = {"type": "summary", "steps": sum(1 for r in lines if r["type"] == "step"), "peak_bytes": peak,
               "peak_phase": "after_backward",
               "categories": [
                   {"category": "parameters", "measured_bytes": W, "estimated_bytes": W},
                   {"category": "gradients", "measured_bytes": W, "estimated_bytes": W},
                   {"category": "optimizer_state", "measured_bytes": 2 * W, "estimated_bytes": 2 * W},
                   {"category": "activations", "measured_bytes": int(ACT * measured_scale) // accum + LOGITS // accum,
                    "estimated_bytes": ACT + LOGITS},
                   {"category": "transient", "measured_bytes": LOGITS // accum + 4096, "estimated_bytes": LOGITS}]}
    lines.append(summary)
    with open(os.path.join(HERE, dirname, "timeline.jsonl"), "w") as f:
        for r in lines:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, dirname, "summary.json"), "w") as f:
        json.dump({k: v for k, v in summary.items() if k != "type"}, f, indent=1)
    return lines

# The budget: step 1 (no AdamW state yet) fits with 2 MiB to spare; step 2 adds the 8 MiB state and fails.
OOM_LIMIT = ((2 * W + ACT + 2 * LOGITS + 4096) // MiB + 3) * MiB
write_run("run_ok", 12, limit=256 * MiB, measured_scale=1.012)
write_run("run_oom", 6, oom_step=2, limit=OOM_LIMIT, measured_scale=1.0)
OOM_ALLOC = 3 * W + ACT + LOGITS            # step 2 after_forward: weights + AdamW state + activations + logits
oom_report = {
    "oom": {"family": "oomkit-cpu-budget", "device": "cpu", "requested_bytes": LOGITS, "capacity_bytes": OOM_LIMIT,
            "free_bytes": OOM_LIMIT - OOM_ALLOC, "allocated_bytes": OOM_ALLOC, "reserved_bytes": OOM_ALLOC, "step": 2,
            "phase": "after_loss"},
    "findings": [
        {"category": "activations_batch", "title": "Activations of micro-batch %d do not fit the %.2f MiB budget" % (B, OOM_LIMIT / MiB),
         "evidence": ["after_forward holds %.2f MiB of activations and logits (%d%% of the budget)"
                      % ((ACT + LOGITS) / MiB, 100 * (ACT + LOGITS) // OOM_LIMIT),
                      "static memory (weights, gradients, AdamW state) is %.2f MiB: it fits alone" % (4 * W / MiB),
                      "probe: micro-batch %d with" % (B // 2) + " 2 accumulation steps peaks at %.2f MiB" % ((4 * W + (ACT + 2 * LOGITS) // 2) / MiB)],
         "playbook_step": 5, "fix": "oomkit train --micro-batch-size %d --grad-accum 2" % (B // 2), "saving_bytes": (ACT + 2 * LOGITS) // 2,
         "confidence": "high"},
        {"category": "activations_checkpointing", "title": "Activation checkpointing would keep one block's activations",
         "evidence": ["probe: --checkpointing full peaks at %.2f MiB" % ((4 * W + ACT // 5 + 2 * LOGITS) / MiB)],
         "playbook_step": 4, "fix": "oomkit train --checkpointing full", "saving_bytes": ACT * 4 // 5,
         "confidence": "medium"}],
    "probes": [{"name": "micro_batch_1", "ok": True, "peak_bytes": 4 * W + (ACT + 2 * LOGITS) // 16},
               {"name": "checkpointing_full", "ok": True, "peak_bytes": 4 * W + ACT // 5 + 2 * LOGITS},
               {"name": "micro_batch_%d_accum_2" % (B // 2), "ok": True, "peak_bytes": 4 * W + (ACT + 2 * LOGITS) // 2},
               {"name": "bf16_mixed", "ok": False, "peak_bytes": 0}],
    "recovery": {"applied": True, "change": "micro_batch_size", "from": B, "to": B // 2},
}
with open(os.path.join(HERE, "run_oom", "oom_report.json"), "w") as f:
    json.dump(oom_report, f, indent=1)

# estimate_sweep.json is not made here: it is `oomkit estimate --sweep --seq-len 1024 --json`,
# oomkit's own output (the report reads the layout the estimator writes, nothing hand-made).
