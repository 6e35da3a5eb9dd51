#!/usr/bin/env python3
"""Checks `oomkit estimate --framework megatron` term by term against Megatron-LM's own formula.

The formula below is NVIDIA/Megatron-LM megatron/training/theoretical_memory_usage.py
(compute_weight_and_optimizer_memory, compute_activation_memory,
compute_activation_memory_without_sp), ported line for line for dense models (no MoE, no MLA,
no MTP, no interleaved pipeline); its comments are Megatron's. It needs no torch.

Part 1 draws seeded random configs and compares five terms (weights+optimizer, transformer
layers, embedding, output layer, the no-SP 5% factor) with oomkit's items. Where oomkit
generalises an assumption of the formula, the difference is computed here independently and
must match exactly:
  - biases (Megatron's default --add-bias-linear) and learned position embeddings, which the
    formula does not count; the final norm, which the formula spreads over all stages (/p);
  - SwiGLU saves 6·s·b·d_ff bytes per layer (gate, up, swiglu output), the formula 4·s·b·d_ff;
    the no-SP formula fixes 24/t (d_ff = 4d, GELU);
  - GQA: K and V are h_kv/h of Q (the formula's TODO: "take into account query_projection_size");
  - dropout with p = 0 makes no mask; the formula always counts s·b·d per mask.
Part 2 prints Megatron-LM PR #482's measured rows (../shared/cases/2026-11-30/megatron-pr482.md)
against oomkit and the formula, in both readings of the PR's "GB", and checks that every row is
within 5% under one reading.

Usage: scripts/megatron_formula_check.py OOMKIT_EXE [--seed N] [--configs K]
Exit 0 when every term matches and the PR rows are within 5%; 1 otherwise.
"""
import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile
from types import SimpleNamespace

NUM_BYTES_IN_MEGABYTE = 1024 * 1024


# ---- Megatron-LM's formula (dense subset), ported --------------------------------------------
def compute_weight_and_optimizer_memory(args):
    query_projection_size = args.kv_channels * args.num_attention_heads
    query_projection_to_hidden_size_ratio = query_projection_size / args.hidden_size
    if not args.group_query_attention:
        args.num_query_groups = args.num_attention_heads
    gated_linear_multiplier = 3 / 2 if args.swiglu else 1
    # RMSNorm does not have bias, but LayerNorm has.
    norm_size = 1 if args.normalization == "RMSNorm" else 2
    self_attn_term = (2 * args.hidden_size * args.hidden_size *
                      ((1 + (args.num_query_groups / args.num_attention_heads)) * query_projection_to_hidden_size_ratio))
    embedding_size = args.hidden_size * args.padded_vocab_size
    final_layernorm = norm_size * args.hidden_size
    attention_params = self_attn_term
    dense_mlp_params = 2 * args.hidden_size * args.ffn_hidden_size * gated_linear_multiplier
    layernorm_params = 2 * args.hidden_size * norm_size
    num_dense_layers = args.num_layers
    tp_sharded_params_in_transformer_block = (attention_params + dense_mlp_params) * num_dense_layers
    replicated_params_in_transformer_block = layernorm_params * num_dense_layers + final_layernorm
    # Most loaded model shard has 1/pp_size transformer layers and 1 embedding layer.
    tp_sharded_params_on_most_loaded_shard = (
        (tp_sharded_params_in_transformer_block / args.pipeline_model_parallel_size) + embedding_size
    ) / args.tensor_model_parallel_size
    replicated_params_on_most_loaded_shard = replicated_params_in_transformer_block / args.pipeline_model_parallel_size
    if args.untie_embeddings_and_output_weights and args.pipeline_model_parallel_size == 1:
        tp_sharded_params_on_most_loaded_shard += embedding_size / args.tensor_model_parallel_size

    def num_bytes_per_parameter(data_parallel_size):
        return 18 if not args.use_distributed_optimizer else 6 + (12 / data_parallel_size)

    return (tp_sharded_params_on_most_loaded_shard + replicated_params_on_most_loaded_shard) * num_bytes_per_parameter(
        args.data_parallel_size)


def compute_activation_memory(args, num_microbatches):
    """Returns the formula's terms: layers, embedding, output layer (bytes, already / t)."""
    # Using formula in Table 2 of https://arxiv.org/pdf/2205.05198.pdf.
    layer = (args.seq_length * args.micro_batch_size * args.hidden_size) * (18 + (4 * (args.ffn_hidden_size / args.hidden_size)))
    layers = layer * args.num_layers
    # Input to embedding (pp_size microbatches in flight).
    emb = 8 * args.seq_length * args.micro_batch_size * args.pipeline_model_parallel_size
    # Dropout in embedding layer (pp_size microbatches in flight).
    emb += args.seq_length * args.micro_batch_size * args.hidden_size * args.pipeline_model_parallel_size
    if args.pipeline_model_parallel_size > 1 and num_microbatches is not None:
        f = min(1, num_microbatches / args.pipeline_model_parallel_size)
        layers *= f
        emb *= f
    out = 0
    if args.pipeline_model_parallel_size == 1:
        # Inputs to output layer and CE loss.
        out = args.seq_length * args.micro_batch_size * args.hidden_size * 4 * (1 + (args.padded_vocab_size / args.hidden_size))
    t = args.tensor_model_parallel_size
    return layers / t, emb / t, out / t, 0.0


def compute_activation_memory_without_sp(args, num_microbatches):
    per_layer_memory = args.seq_length * args.micro_batch_size * args.hidden_size * (10 + (24 / args.tensor_model_parallel_size))
    layers = per_layer_memory * args.num_layers
    emb = 8 * args.seq_length * args.micro_batch_size * args.pipeline_model_parallel_size
    emb += args.seq_length * args.micro_batch_size * args.hidden_size * args.pipeline_model_parallel_size
    if args.pipeline_model_parallel_size > 1 and num_microbatches is not None:
        f = min(1, num_microbatches / args.pipeline_model_parallel_size)
        layers *= f
        emb *= f
    out = 0
    if args.pipeline_model_parallel_size == 1:
        logits_size = args.seq_length * args.micro_batch_size * args.padded_vocab_size
        logits_size /= args.tensor_model_parallel_size
        final_ln_output = args.seq_length * args.micro_batch_size * args.hidden_size
        out = (logits_size + final_ln_output) * 2
    # Add buffer for optimizer and miscellaneous temporaries (5% overhead)
    extra = 0.05 * (layers + emb + out)
    return layers, emb, out, extra


# ---- oomkit ----------------------------------------------------------------------------------
def run_oomkit(exe, config_path, flags):
    cmd = [exe, "estimate", "--model", config_path, "--framework", "megatron", "--json", "--overhead", "0"] + flags
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"oomkit failed ({r.returncode}): {' '.join(cmd)}\n{r.stderr}")
    return json.loads(r.stdout)


def sum_items(est, prefix, exclude=()):
    return sum(it["bytes"] for it in est["items"] if it["path"].startswith(prefix) and it["path"] not in exclude)


def pad_vocab(v, divisor, tp):
    m = divisor * tp
    return ((v + m - 1) // m) * m


def draw(rng):
    family = rng.choice(["gpt2", "llama"])
    h = rng.choice([4, 8, 16, 32])
    dh = rng.choice([32, 64, 128])
    d = h * dh
    L = rng.choice([4, 8, 12, 16, 24])
    tp = rng.choice([t for t in [1, 2, 4, 8] if h % t == 0])
    pp = rng.choice([p for p in [1, 2, 4] if L % p == 0])
    cfg = dict(d=d, h=h, L=L, V=rng.randint(1000, 60000), T=rng.choice([512, 1024, 2048, 4096]),
               B=rng.choice([1, 2, 4, 8]), dp=rng.choice([1, 2, 4, 8, 16]), tp=tp, pp=pp,
               nm=rng.choice([1, 2, 4, 64]), sp=rng.random() < 0.5 and tp > 1, dist=rng.random() < 0.7,
               family=family)
    if family == "gpt2":
        cfg.update(ff=4 * d, kv=h, dropout=0.1, tied=True)
    else:
        kv = rng.choice([g for g in [1, 2, 4, 8, h] if h % g == 0 and g % 1 == 0])
        cfg.update(ff=rng.choice([4 * d, (8 * d // 3 + 127) // 128 * 128]), kv=kv, dropout=0.0, tied=rng.random() < 0.5)
    if cfg["kv"] % tp != 0 and cfg["kv"] < tp:
        cfg["kv"] = h
    return cfg


def write_config(cfg, folder, i):
    if cfg["family"] == "gpt2":
        j = {"model_type": "gpt2", "n_embd": cfg["d"], "n_layer": cfg["L"], "n_head": cfg["h"], "n_inner": cfg["ff"],
             "vocab_size": cfg["V"], "n_positions": cfg["T"], "resid_pdrop": cfg["dropout"], "embd_pdrop": cfg["dropout"],
             "attn_pdrop": cfg["dropout"]}
    else:
        j = {"model_type": "llama", "hidden_size": cfg["d"], "num_hidden_layers": cfg["L"], "num_attention_heads": cfg["h"],
             "num_key_value_heads": cfg["kv"], "intermediate_size": cfg["ff"], "vocab_size": cfg["V"],
             "max_position_embeddings": cfg["T"], "tie_word_embeddings": cfg["tied"]}
    path = os.path.join(folder, f"config{i}.json")
    with open(path, "w") as f:
        json.dump(j, f)
    return path


def formula_args(cfg, padded):
    return SimpleNamespace(
        kv_channels=cfg["d"] // cfg["h"], num_attention_heads=cfg["h"], hidden_size=cfg["d"],
        group_query_attention=cfg["kv"] != cfg["h"], num_query_groups=cfg["kv"], swiglu=cfg["family"] == "llama",
        normalization="LayerNorm" if cfg["family"] == "gpt2" else "RMSNorm", padded_vocab_size=padded,
        untie_embeddings_and_output_weights=not cfg["tied"], ffn_hidden_size=cfg["ff"], num_layers=cfg["L"],
        pipeline_model_parallel_size=cfg["pp"], tensor_model_parallel_size=cfg["tp"],
        use_distributed_optimizer=cfg["dist"], data_parallel_size=cfg["dp"], seq_length=cfg["T"],
        micro_batch_size=cfg["B"], sequence_parallel=cfg["sp"])


def check_config(exe, cfg, path):
    """Returns rows (term, ours, formula, explained difference, ok)."""
    flags = ["--precision", "bf16-mixed", "--attention", "flash", "--checkpointing", "selective",
             "--batch-size", str(cfg["B"]), "--seq-len", str(cfg["T"]), "--dp", str(cfg["dp"]), "--tp", str(cfg["tp"]),
             "--pp", str(cfg["pp"]), "--grad-accum", str(cfg["nm"])]
    if cfg["dist"]:
        flags.append("--use-distributed-optimizer")
    if cfg["sp"]:
        flags.append("--sequence-parallel")
    est = run_oomkit(exe, path, flags)
    s, b, d, h, L, ff, t, p, N = (cfg[k] for k in ("T", "B", "d", "h", "L", "ff", "tp", "pp", "dp"))
    kv, dh = cfg["kv"], d // h
    V = pad_vocab(cfg["V"], 128, t)
    args = formula_args(cfg, V)
    nm = cfg["nm"] if p > 1 else None
    w_formula = compute_weight_and_optimizer_memory(args)
    if cfg["sp"]:
        layers_f, emb_f, out_f, extra_f = compute_activation_memory(args, nm)
    else:
        layers_f, emb_f, out_f, extra_f = compute_activation_memory_without_sp(args, nm)
    # Independent accounting of what the formula leaves out.
    gpt2 = cfg["family"] == "gpt2"
    Lp = L // p
    norm = 2 if gpt2 else 1
    bias = Lp * ((d + 2 * kv * dh + ff) // t + 2 * d) if gpt2 else 0
    positions = s * d if gpt2 else 0  # n_positions = T in the drawn configs
    final_norm_shift = -norm * d / p if p > 1 else 0  # the formula's final norm / p on the first stage
    bytes_pp = (6 + 12 / N) if cfg["dist"] else 18
    w_expected = w_formula + (bias + positions + final_norm_shift) * bytes_pp
    w_ours = sum_items(est, "parameters/") + sum_items(est, "gradients/") + sum_items(est, "optimizer_state/")
    # Layers: generalised terms.
    inflight = min(p, cfg["nm"]) if p > 1 else 1
    sbh = s * b * d
    lm = Lp * inflight
    delta = 0.0
    if cfg["sp"]:
        if not gpt2:
            delta += lm * (2 * s * b * ff) / t  # SwiGLU: 6·s·b·d_ff against 4·s·b·d_ff
            delta += lm * (2 * sbh * 2 * (kv - h) / h) / t  # GQA: K, V are h_kv/h of Q
            delta -= lm * 2 * sbh / t  # no hidden dropout: no masks
    else:
        if gpt2:
            delta += lm * (4 * s * b * ff - 16 * sbh) / t  # d_ff = 4d in the drawn gpt2 configs: 0
        else:
            delta += lm * (6 * s * b * ff - 16 * sbh) / t  # the fixed 24/t = 8 + 16 for d_ff = 4d GELU
            delta += lm * (2 * sbh * 2 * (kv - h) / h) / t
            delta -= lm * 2 * sbh
    layers_ours = sum_items(est, "activations/block/")
    emb_ours = sum_items(est, "activations/embedding/")
    emb_delta = 0.0 if gpt2 else -(sbh * inflight) / (t if cfg["sp"] else 1)  # no embedding dropout mask
    out_ours = sum_items(est, "activations/head/")
    extra_ours = sum_items(est, "transient/temporaries_5pct")
    extra_delta = 0.0 if cfg["sp"] else 0.05 * (delta + emb_delta)
    rows = []
    for term, ours, formula, diff in (("weights+optimizer", w_ours, w_formula, w_expected - w_formula),
                                      ("transformer layers", layers_ours, layers_f, delta),
                                      ("embedding", emb_ours, emb_f, emb_delta),
                                      ("output layer", out_ours, out_f, 0.0),
                                      ("5% temporaries", extra_ours, extra_f, extra_delta)):
        expected = formula + diff
        # oomkit rounds each term up to whole bytes (ceil of /t and /DP per item).
        ok = abs(ours - expected) <= max(16.0, 1e-9 * abs(expected))
        rows.append((term, ours, formula, diff, ok))
    return rows


# ---- PR #482 ----------------------------------------------------------------------------------
PR482 = [  # MBS, GBS, DP, PP, TP, measured, the PR's own estimate
    (2, 2048, 8, 1, 1, 69.1, 68.8),
    (4, 512, 4, 1, 2, 55.7, 55.5),
    (2, 2048, 4, 2, 1, 49.8, 49.5),
    (4, 128, 1, 1, 8, 28.8, 28.6),
]
PR482_FLAGS = ["--precision", "bf16-mixed", "--attention", "flash", "--use-distributed-optimizer", "--seq-len", "2048",
               "--normalization", "layernorm", "--position-embedding-type", "learned",
               # Megatron's defaults (megatron/training/arguments.py): --hidden-dropout 0.1,
               # --attention-dropout 0.1; the PR does not say it changed them.
               "--hidden-dropout", "0.1", "--attention-dropout", "0.1"]


def pr482(exe, config):
    print("\nMegatron-LM PR #482 (Llama-2-7B-sized GPTModel, bf16, flash attention, distributed optimizer, T = 2048,")
    print("GPT-2 vocabulary padded to 128·TP, tied, LayerNorm, learned positions); measured max_memory_allocated")
    print(f"{'MBS':>3} {'DP':>3} {'PP':>3} {'TP':>3} {'measured':>9} | {'oomkit B':>16} {'GiB':>7} {'GB':>7} | "
          f"{'err if GiB':>10} {'err if GB':>9} | {'formula GB':>10}")
    errs = {"GiB": [], "GB": []}
    for mbs, gbs, dp, pp, tp, measured, _ in PR482:
        nm = gbs // (mbs * dp)
        flags = PR482_FLAGS + ["--batch-size", str(mbs), "--dp", str(dp), "--pp", str(pp), "--tp", str(tp), "--grad-accum", str(nm)]
        est = run_oomkit(exe, config, flags)
        peak = est["peak_bytes"]
        cfg = dict(d=4096, h=32, kv=32, L=32, ff=10880, family="llama", tied=True, tp=tp, pp=pp, dp=dp, T=2048, B=mbs,
                   dist=True, sp=False)
        args = formula_args(cfg, pad_vocab(50257, 128, tp))
        args.normalization = "LayerNorm"
        formula = compute_weight_and_optimizer_memory(args) + sum(compute_activation_memory_without_sp(args, nm))
        e_gib = peak / 2**30 / measured - 1
        e_gb = peak / 1e9 / measured - 1
        errs["GiB"].append(e_gib)
        errs["GB"].append(e_gb)
        print(f"{mbs:>3} {dp:>3} {pp:>3} {tp:>3} {measured:>9.1f} | {peak:>16,} {peak / 2**30:>7.2f} {peak / 1e9:>7.2f} | "
              f"{100 * e_gib:>+9.1f}% {100 * e_gb:>+8.1f}% | {formula / 1e9:>10.2f}")
    best = min(errs, key=lambda k: max(abs(e) for e in errs[k]))
    worst = max(abs(e) for e in errs[best])
    print(f"reading \"GB\" as {best}: max |error| {100 * worst:.1f}% (limit 5%)")
    return worst <= 0.05


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("oomkit")
    ap.add_argument("--seed", type=int, default=482)
    ap.add_argument("--configs", type=int, default=12)
    ap.add_argument("--pr482-config", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data",
                                                           "megatron", "pr482-llama2-7b.json"))
    a = ap.parse_args()
    rng = random.Random(a.seed)
    ok = True
    print(f"seed {a.seed}, {a.configs} configs; bytes per GPU; 'explained' = what oomkit counts beyond the formula")
    print(f"{'#':>2} {'config':<58} {'term':<18} {'oomkit':>16} {'formula':>18} {'explained':>16}  ok")
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(a.configs):
            cfg = draw(rng)
            path = write_config(cfg, tmp, i)
            desc = (f"{cfg['family']} d={cfg['d']} L={cfg['L']} h={cfg['h']}/{cfg['kv']} ff={cfg['ff']} T={cfg['T']} "
                    f"B={cfg['B']} dp={cfg['dp']} tp={cfg['tp']} pp={cfg['pp']}{' sp' if cfg['sp'] else ''}"
                    f"{' distopt' if cfg['dist'] else ''}")
            for j, (term, ours, formula, diff, good) in enumerate(check_config(a.oomkit, cfg, path)):
                ok = ok and good
                print(f"{i:>2} {desc if j == 0 else '':<58} {term:<18} {ours:>16,} {formula:>18,.1f} {diff:>+16,.1f}  "
                      f"{'yes' if good else 'NO'}")
    ok = pr482(a.oomkit, a.pr482_config) and ok
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
