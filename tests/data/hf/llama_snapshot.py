#!/usr/bin/env python3
"""Synthetic Hugging Face LLaMA snapshots and an independent LLaMA forward, for
tests/torch/hf_weights_test.cpp. Python standard library only (struct + json + math).

Names, shapes and math follow transformers' src/transformers/models/llama/modeling_llama.py
(LlamaForCausalLM; read at 4.31.0.dev0, whose layout later versions keep):
  model.embed_tokens.weight (V, d)
  model.layers.i.input_layernorm.weight (d)            LlamaRMSNorm: w * x / sqrt(mean(x^2) + eps)
  model.layers.i.self_attn.q_proj.weight (h*d_h, d)    nn.Linear, bias=False: y = x @ W^T
  model.layers.i.self_attn.k_proj.weight (h_kv*d_h, d)
  model.layers.i.self_attn.v_proj.weight (h_kv*d_h, d)
  model.layers.i.self_attn.o_proj.weight (d, h*d_h)
  model.layers.i.post_attention_layernorm.weight (d)
  model.layers.i.mlp.gate_proj.weight (d_ff, d)        down(silu(gate(x)) * up(x))
  model.layers.i.mlp.up_proj.weight (d_ff, d)
  model.layers.i.mlp.down_proj.weight (d, d_ff)
  model.norm.weight (d)
  lm_head.weight (V, d)                                absent when tie_word_embeddings
Rotary embedding: inv_freq[j] = theta^(-2j/d_h), j < d_h/2; cos/sin of pos * inv_freq repeated
twice along d_h; q' = q*cos + rotate_half(q)*sin, rotate_half(x) = cat(-x[d_h/2:], x[:d_h/2]).
Grouped-query attention: query head i uses key/value head i // (h / h_kv). Checkpoints written
before 4.38 carry model.layers.i.self_attn.rotary_emb.inv_freq (d_h/2), a buffer.

  llama_snapshot.py make OUT --seed S [--tied 0|1] [--inv-freq 0|1]
      OUT/config.json, OUT/model.safetensors, OUT/reference.json {"tokens", "logits" (T, V)}
  llama_snapshot.py check DIR
      DIR holds exactly LlamaForCausalLM's state-dict names and shapes for its config.json
      (no lm_head.weight when tied, no buffers), metadata format "pt"; prints "ok" or exits 1.
"""
import json
import math
import os
import random
import struct
import sys


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


def safetensors_bytes(tensors):
    header = {"__metadata__": {"format": "pt"}}
    blobs, offset = [], 0
    for name, shape, values in tensors:
        blob = struct.pack("<%df" % len(values), *values)
        header[name] = {"dtype": "F32", "shape": shape, "data_offsets": [offset, offset + len(blob)]}
        offset += len(blob)
        blobs.append(blob)
    text = json.dumps(header).encode("utf-8")
    text += b" " * ((8 - len(text) % 8) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(blobs)


def state_dict_shapes(cfg):
    d, V, d_ff, L = cfg["hidden_size"], cfg["vocab_size"], cfg["intermediate_size"], cfg["num_hidden_layers"]
    h, h_kv = cfg["num_attention_heads"], cfg.get("num_key_value_heads", cfg["num_attention_heads"])
    d_h = d // h
    out = [("model.embed_tokens.weight", [V, d])]
    for i in range(L):
        p = "model.layers.%d." % i
        out += [(p + "self_attn.q_proj.weight", [h * d_h, d]), (p + "self_attn.k_proj.weight", [h_kv * d_h, d]),
                (p + "self_attn.v_proj.weight", [h_kv * d_h, d]), (p + "self_attn.o_proj.weight", [d, h * d_h]),
                (p + "mlp.gate_proj.weight", [d_ff, d]), (p + "mlp.up_proj.weight", [d_ff, d]),
                (p + "mlp.down_proj.weight", [d, d_ff]),
                (p + "input_layernorm.weight", [d]), (p + "post_attention_layernorm.weight", [d])]
    out.append(("model.norm.weight", [d]))
    if not cfg.get("tie_word_embeddings", False):
        out.append(("lm_head.weight", [V, d]))
    return out


def linear(x, w, n_out, n_in):
    """nn.Linear without bias: x (n_in) -> x @ w^T, w (n_out, n_in) row-major."""
    return [sum(w[o * n_in + i] * x[i] for i in range(n_in)) for o in range(n_out)]


def rms_norm(x, w, eps):
    r = 1.0 / math.sqrt(sum(v * v for v in x) / len(x) + eps)
    return [v * r * wi for v, wi in zip(x, w)]


def forward(cfg, W, tokens):
    d, V, d_ff, L = cfg["hidden_size"], cfg["vocab_size"], cfg["intermediate_size"], cfg["num_hidden_layers"]
    h, h_kv, eps, theta = cfg["num_attention_heads"], cfg["num_key_value_heads"], cfg["rms_norm_eps"], cfg["rope_theta"]
    d_h = d // h
    half = d_h // 2
    inv_freq = [theta ** (-(2.0 * j) / d_h) for j in range(half)]

    def rope(vec, pos):  # one head's (d_h) vector
        out = []
        for k in range(d_h):
            ang = pos * inv_freq[k % half]
            rot = -vec[k + half] if k < half else vec[k - half]
            out.append(vec[k] * math.cos(ang) + rot * math.sin(ang))
        return out

    T = len(tokens)
    x = [W["model.embed_tokens.weight"][t * d:(t + 1) * d] for t in tokens]
    for i in range(L):
        p = "model.layers.%d." % i
        a = [rms_norm(v, W[p + "input_layernorm.weight"], eps) for v in x]
        q = [linear(v, W[p + "self_attn.q_proj.weight"], h * d_h, d) for v in a]
        k = [linear(v, W[p + "self_attn.k_proj.weight"], h_kv * d_h, d) for v in a]
        v_ = [linear(v, W[p + "self_attn.v_proj.weight"], h_kv * d_h, d) for v in a]
        y = [[0.0] * (h * d_h) for _ in range(T)]
        for hh in range(h):
            kv = hh // (h // h_kv)
            qs = [rope(q[t][hh * d_h:(hh + 1) * d_h], t) for t in range(T)]
            ks = [rope(k[t][kv * d_h:(kv + 1) * d_h], t) for t in range(T)]
            for t in range(T):
                scores = [sum(a_ * b_ for a_, b_ in zip(qs[t], ks[s])) / math.sqrt(d_h) for s in range(t + 1)]
                m = max(scores)
                e = [math.exp(sc - m) for sc in scores]
                z = sum(e)
                for s in range(t + 1):
                    for j in range(d_h):
                        y[t][hh * d_h + j] += e[s] / z * v_[s][kv * d_h + j]
        o = [linear(v, W[p + "self_attn.o_proj.weight"], d, h * d_h) for v in y]
        x = [[a_ + b_ for a_, b_ in zip(xv, ov)] for xv, ov in zip(x, o)]
        m2 = [rms_norm(v, W[p + "post_attention_layernorm.weight"], eps) for v in x]
        out = []
        for v in m2:
            g = linear(v, W[p + "mlp.gate_proj.weight"], d_ff, d)
            u = linear(v, W[p + "mlp.up_proj.weight"], d_ff, d)
            act = [gi / (1.0 + math.exp(-gi)) * ui for gi, ui in zip(g, u)]
            out.append(linear(act, W[p + "mlp.down_proj.weight"], d, d_ff))
        x = [[a_ + b_ for a_, b_ in zip(xv, ov)] for xv, ov in zip(x, out)]
    xf = [rms_norm(v, W["model.norm.weight"], eps) for v in x]
    head = W["model.embed_tokens.weight"] if cfg["tie_word_embeddings"] else W["lm_head.weight"]
    return [linear(v, head, V, d) for v in xf]


def make(out, seed, tied, inv_freq_buffers):
    rng = random.Random(seed)
    cfg = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "vocab_size": 40, "hidden_size": 16,
           "intermediate_size": 24, "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
           "max_position_embeddings": 32, "rms_norm_eps": 1e-6, "rope_theta": 10000.0, "hidden_act": "silu",
           "tie_word_embeddings": bool(tied), "attention_dropout": 0.0}
    W, tensors = {}, []
    for name, shape in state_dict_shapes(cfg):
        n = 1
        for s in shape:
            n *= s
        if name.endswith("norm.weight"):
            vals = [1.0 + rng.gauss(0, 0.1) for _ in range(n)]
        else:
            vals = [rng.gauss(0, 0.3) for _ in range(n)]
        W[name] = [f32(v) for v in vals]
        tensors.append((name, shape, W[name]))
        if inv_freq_buffers and name.endswith("o_proj.weight"):
            d_h = cfg["hidden_size"] // cfg["num_attention_heads"]
            tensors.append((name.replace("o_proj.weight", "rotary_emb.inv_freq"), [d_h // 2],
                            [f32(cfg["rope_theta"] ** (-(2.0 * j) / d_h)) for j in range(d_h // 2)]))
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "model.safetensors"), "wb") as f:
        f.write(safetensors_bytes(tensors))
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
    tokens = [rng.randrange(cfg["vocab_size"]) for _ in range(6)]
    with open(os.path.join(out, "reference.json"), "w") as f:
        json.dump({"tokens": tokens, "logits": forward(cfg, W, tokens)}, f)


def check(d):
    with open(os.path.join(d, "config.json")) as f:
        cfg = json.load(f)
    with open(os.path.join(d, "model.safetensors"), "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    meta = header.pop("__metadata__", {})
    problems = []
    if cfg.get("model_type") not in ("llama", "mistral"):
        problems.append("config.json: model_type %r" % cfg.get("model_type"))
    if meta.get("format") != "pt":
        problems.append("__metadata__ format %r, transformers needs 'pt'" % meta.get("format"))
    want = dict(state_dict_shapes(cfg))
    got = {k: v["shape"] for k, v in header.items()}
    problems += ["missing %s" % k for k in sorted(set(want) - set(got))]
    problems += ["unexpected %s" % k for k in sorted(set(got) - set(want))]
    problems += ["%s: shape %s, LlamaForCausalLM has %s" % (k, got[k], want[k]) for k in sorted(set(want) & set(got)) if got[k] != want[k]]
    if problems:
        print("\n".join(problems))
        sys.exit(1)
    print("ok: %d tensors" % len(got))


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "make":
        opts = dict(zip(sys.argv[3::2], sys.argv[4::2]))
        make(sys.argv[2], int(opts.get("--seed", "1")), int(opts.get("--tied", "0")), int(opts.get("--inv-freq", "0")))
    elif len(sys.argv) == 3 and sys.argv[1] == "check":
        check(sys.argv[2])
    else:
        sys.exit(__doc__)
