#!/usr/bin/env python3
"""Synthetic Hugging Face GPT-2 snapshots and an independent GPT-2 forward, for
tests/torch/hf_weights_test.cpp. Python standard library only (struct + json + math): no torch,
no transformers, no safetensors package.

Names, shapes and math follow transformers' src/transformers/models/gpt2/modeling_gpt2.py
(read at 4.31.0.dev0) and pytorch_utils.py's Conv1D:
  GPT2Model: wte (V, d), wpe (n_positions, d), h.i.{ln_1, attn, ln_2, mlp}, ln_f; GPT2LMHeadModel
  adds the prefix "transformer." and lm_head (V, d) tied to wte. Conv1D(nf, nx) stores weight
  (nx, nf) = (in, out) and computes x @ weight + bias: c_attn (d, 3d), attn.c_proj (d, d),
  c_fc (d, d_ff), mlp.c_proj (d_ff, d). GPT2Attention registers the buffers bias
  (1, 1, n_positions, n_positions) (lower-triangular) and masked_bias () (-1e4), which older
  checkpoints (the hub's gpt2) carry.

  gpt2_snapshot.py make OUT --layout L --dtype D --seed S [--vocab V]
      writes OUT/config.json, OUT/model.safetensors (or two shards + model.safetensors.index.json)
      and OUT/reference.json {"tokens": [...], "logits": [[...], ...]}: the logits (T, V) of the
      forward below, in float64, from the stored (rounded) weights.
      L: bare (GPT2Model names + attention buffers, as the hub's gpt2), prefixed
      (GPT2LMHeadModel names + lm_head.weight = wte), sharded (prefixed, two shards),
      untied (lm_head differs), linear_layout (c_fc stored (d_ff, d), nn.Linear's layout),
      missing (no ln_f.bias), extra (an unknown tensor).
      D: F32, F16 or BF16.
  gpt2_snapshot.py check DIR
      checks that DIR holds what GPT2LMHeadModel.from_pretrained loads: config.json with
      model_type gpt2, model.safetensors whose __metadata__ has format "pt", and exactly the names
      and shapes of GPT2LMHeadModel's state dict (prefix "transformer.", no tied lm_head, no
      buffers) for that config, packed as the format requires. Prints "ok" or exits 1.
"""
import json
import math
import os
import random
import struct
import sys


def round_to(dtype, v):
    """The value a `dtype` element holds after storing v (F32/F16 round to nearest; BF16 from the F32 bits, to nearest even)."""
    if dtype == "F32":
        return struct.unpack("<f", struct.pack("<f", v))[0]
    if dtype == "F16":
        return struct.unpack("<e", struct.pack("<e", v))[0]
    (bits,) = struct.unpack("<I", struct.pack("<f", v))
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def pack(dtype, values):
    if dtype == "F32":
        return struct.pack("<%df" % len(values), *values)
    if dtype == "F16":
        return struct.pack("<%de" % len(values), *values)
    return b"".join(struct.pack("<f", v)[2:] for v in values)  # BF16: values already rounded


def safetensors_bytes(tensors, metadata):
    """tensors: [(name, dtype, shape, flat values)] -> file bytes (spec: u64 N, JSON, buffer)."""
    header = {"__metadata__": metadata}
    blobs = []
    offset = 0
    for name, dtype, shape, values in tensors:
        blob = pack(dtype, values)
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + len(blob)]}
        offset += len(blob)
        blobs.append(blob)
    text = json.dumps(header).encode("utf-8")
    text += b" " * ((8 - len(text) % 8) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(blobs)


def read_safetensors(path):
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n])
    return header, len(data) - 8 - n


def layer_norm(x, w, b, eps):
    mean = sum(x) / len(x)
    var = sum((v - mean) ** 2 for v in x) / len(x)
    r = 1.0 / math.sqrt(var + eps)
    return [(v - mean) * r * wi + bi for v, wi, bi in zip(x, w, b)]


def conv1d(x, w, b, n_in, n_out):
    """transformers Conv1D: x (n_in) @ w (n_in, n_out, row-major) + b (n_out)."""
    return [b[j] + sum(x[i] * w[i * n_out + j] for i in range(n_in)) for j in range(n_out)]


def gelu_new(x):
    return 0.5 * x * (1.0 + math.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


def forward(cfg, W, tokens):
    """GPT2LMHeadModel forward (eval: no dropout), float64, one sequence -> logits (T, V)."""
    d, h, L, V, d_ff, eps = cfg["n_embd"], cfg["n_head"], cfg["n_layer"], cfg["vocab_size"], cfg["n_inner"], cfg["layer_norm_epsilon"]
    d_h = d // h
    row = lambda name, i, width: W[name][i * width:(i + 1) * width]
    x = [[a + b for a, b in zip(row("wte.weight", tok, d), row("wpe.weight", t, d))] for t, tok in enumerate(tokens)]
    T = len(tokens)
    for l in range(L):
        p = "h.%d." % l
        a = [layer_norm(v, W[p + "ln_1.weight"], W[p + "ln_1.bias"], eps) for v in x]
        qkv = [conv1d(v, W[p + "attn.c_attn.weight"], W[p + "attn.c_attn.bias"], d, 3 * d) for v in a]
        y = [[0.0] * d for _ in range(T)]
        for hh in range(h):
            lo = hh * d_h
            for t in range(T):
                q = qkv[t][lo:lo + d_h]
                scores = [sum(qi * ki for qi, ki in zip(q, qkv[s][d + lo:d + lo + d_h])) / math.sqrt(d_h) for s in range(t + 1)]
                m = max(scores)
                e = [math.exp(s - m) for s in scores]
                z = sum(e)
                for s in range(t + 1):
                    v = qkv[s][2 * d + lo:2 * d + lo + d_h]
                    for j in range(d_h):
                        y[t][lo + j] += e[s] / z * v[j]
        attn = [conv1d(v, W[p + "attn.c_proj.weight"], W[p + "attn.c_proj.bias"], d, d) for v in y]
        x = [[u + w for u, w in zip(xu, au)] for xu, au in zip(x, attn)]
        m2 = [layer_norm(v, W[p + "ln_2.weight"], W[p + "ln_2.bias"], eps) for v in x]
        f = [[gelu_new(u) for u in conv1d(v, W[p + "mlp.c_fc.weight"], W[p + "mlp.c_fc.bias"], d, d_ff)] for v in m2]
        out = [conv1d(v, W[p + "mlp.c_proj.weight"], W[p + "mlp.c_proj.bias"], d_ff, d) for v in f]
        x = [[u + w for u, w in zip(xu, ou)] for xu, ou in zip(x, out)]
    xf = [layer_norm(v, W["ln_f.weight"], W["ln_f.bias"], eps) for v in x]
    return [[sum(a * b for a, b in zip(v, row("wte.weight", k, d))) for k in range(V)] for v in xf]


def state_dict_shapes(cfg):
    """GPT2Model's parameter names and HF shapes, in module order (modeling_gpt2.py)."""
    d, V, d_ff = cfg["n_embd"], cfg["vocab_size"], cfg["n_inner"] or 4 * cfg["n_embd"]
    out = [("wte.weight", [V, d]), ("wpe.weight", [cfg["n_positions"], d])]
    for l in range(cfg["n_layer"]):
        p = "h.%d." % l
        out += [(p + "ln_1.weight", [d]), (p + "ln_1.bias", [d]),
                (p + "attn.c_attn.weight", [d, 3 * d]), (p + "attn.c_attn.bias", [3 * d]),
                (p + "attn.c_proj.weight", [d, d]), (p + "attn.c_proj.bias", [d]),
                (p + "ln_2.weight", [d]), (p + "ln_2.bias", [d]),
                (p + "mlp.c_fc.weight", [d, d_ff]), (p + "mlp.c_fc.bias", [d_ff]),
                (p + "mlp.c_proj.weight", [d_ff, d]), (p + "mlp.c_proj.bias", [d])]
    out += [("ln_f.weight", [d]), ("ln_f.bias", [d])]
    return out


def make(out, layout, dtype, seed, vocab):
    rng = random.Random(seed)
    cfg = {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "vocab_size": vocab, "n_positions": 16,
           "n_embd": 16, "n_layer": 2, "n_head": 2, "n_inner": 40, "activation_function": "gelu_new",
           "layer_norm_epsilon": 1e-5, "resid_pdrop": 0.1, "embd_pdrop": 0.1, "attn_pdrop": 0.1,
           "initializer_range": 0.02, "tie_word_embeddings": True}
    W = {}
    for name, shape in state_dict_shapes(cfg):
        n = 1
        for s in shape:
            n *= s
        if ".ln_" in name or name.startswith("ln_f"):
            vals = [(1.0 if name.endswith("weight") else 0.0) + rng.gauss(0, 0.1) for _ in range(n)]
        elif name.endswith("bias"):
            vals = [rng.gauss(0, 0.05) for _ in range(n)]
        else:
            vals = [rng.gauss(0, 0.3) for _ in range(n)]
        W[name] = [round_to(dtype, v) for v in vals]
    shapes = dict(state_dict_shapes(cfg))
    prefix = "" if layout == "bare" else "transformer."
    tensors = []
    for name, shape in state_dict_shapes(cfg):
        if layout == "missing" and name == "ln_f.bias":
            continue
        values = W[name]
        if layout == "linear_layout" and name.endswith("mlp.c_fc.weight"):
            n_in, n_out = shape
            values = [W[name][i * n_out + j] for j in range(n_out) for i in range(n_in)]
            shape = [n_out, n_in]
        tensors.append((prefix + name, dtype, shape, values))
        if layout == "bare" and name.endswith("ln_1.bias"):
            # GPT2Attention's buffers as the hub's gpt2 checkpoint stores them (float).
            layer = name.split(".")[1]
            npos = cfg["n_positions"]
            tensors.append(("h.%s.attn.bias" % layer, dtype, [1, 1, npos, npos],
                            [1.0 if j <= i else 0.0 for i in range(npos) for j in range(npos)]))
            tensors.append(("h.%s.attn.masked_bias" % layer, dtype, [], [round_to(dtype, -1e4)]))
    if layout in ("prefixed", "sharded"):
        tensors.append(("lm_head.weight", dtype, shapes["wte.weight"], W["wte.weight"]))
    if layout == "untied":
        tensors.append(("lm_head.weight", dtype, shapes["wte.weight"], [v + 1.0 for v in W["wte.weight"]]))
    if layout == "extra":
        tensors.append(("transformer.h.0.crossattention.q_attn.weight", dtype, [16, 16], [0.0] * 256))
    os.makedirs(out, exist_ok=True)
    if layout == "sharded":
        half = len(tensors) // 2
        shards = {"model-00001-of-00002.safetensors": tensors[:half], "model-00002-of-00002.safetensors": tensors[half:]}
        weight_map = {}
        for fname, part in shards.items():
            with open(os.path.join(out, fname), "wb") as f:
                f.write(safetensors_bytes(part, {"format": "pt"}))
            weight_map.update({t[0]: fname for t in part})
        with open(os.path.join(out, "model.safetensors.index.json"), "w") as f:
            json.dump({"metadata": {"total_size": 0}, "weight_map": weight_map}, f, indent=2)
    else:
        with open(os.path.join(out, "model.safetensors"), "wb") as f:
            f.write(safetensors_bytes(tensors, {"format": "pt"}))
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(cfg, f, indent=2)
    tokens = [rng.randrange(vocab) for _ in range(7)]
    with open(os.path.join(out, "reference.json"), "w") as f:
        json.dump({"tokens": tokens, "logits": forward(cfg, W, tokens)}, f)


def check(d):
    problems = []
    with open(os.path.join(d, "config.json")) as f:
        cfg = json.load(f)
    if cfg.get("model_type") != "gpt2":
        problems.append("config.json: model_type is %r, not gpt2" % cfg.get("model_type"))
    if "GPT2LMHeadModel" not in cfg.get("architectures", []):
        problems.append("config.json: architectures lacks GPT2LMHeadModel")
    for key in ("vocab_size", "n_positions", "n_embd", "n_layer", "n_head"):
        if not isinstance(cfg.get(key), int):
            problems.append("config.json: %s is not an integer" % key)
    if cfg.get("activation_function", "gelu_new") != "gelu_new":
        problems.append("config.json: activation_function %r" % cfg.get("activation_function"))
    header, buffer_bytes = read_safetensors(os.path.join(d, "model.safetensors"))
    meta = header.pop("__metadata__", {})
    if meta.get("format") != "pt":
        problems.append("model.safetensors: __metadata__ format is %r, transformers needs 'pt'" % meta.get("format"))
    want = {"transformer." + n: s for n, s in state_dict_shapes(cfg)}
    got = {n: info["shape"] for n, info in header.items()}
    for n in sorted(set(want) - set(got)):
        problems.append("missing %s" % n)
    for n in sorted(set(got) - set(want)):
        problems.append("unexpected %s" % n)
    end = 0
    sizes = {"F32": 4, "F16": 2, "BF16": 2, "F64": 8}
    for n, info in sorted(header.items(), key=lambda kv: kv[1]["data_offsets"]):
        if n in want and got[n] != want[n]:
            problems.append("%s: shape %s, GPT2LMHeadModel has %s" % (n, got[n], want[n]))
        begin, stop = info["data_offsets"]
        count = 1
        for s in info["shape"]:
            count *= s
        if begin != end or stop - begin != count * sizes.get(info["dtype"], 0):
            problems.append("%s: data_offsets %s do not pack %s" % (n, info["data_offsets"], info["dtype"]))
        end = stop
    if end != buffer_bytes:
        problems.append("the tensors cover %d of %d buffer bytes" % (end, buffer_bytes))
    if problems:
        print("\n".join(problems))
        sys.exit(1)
    print("ok: %d tensors" % len(got))


def main(argv):
    if len(argv) >= 3 and argv[1] == "make":
        opts = dict(zip(argv[3::2], argv[4::2]))
        make(argv[2], opts.get("--layout", "prefixed"), opts.get("--dtype", "F32"), int(opts.get("--seed", "1")),
             int(opts.get("--vocab", "48")))
    elif len(argv) == 3 and argv[1] == "check":
        check(argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
