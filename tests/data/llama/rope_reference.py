#!/usr/bin/env python3
"""Reference values for tests/torch/llama_test.cpp, computed with Python's math module only
(float64; no torch, no transformers), following the formulas of Hugging Face transformers'
modeling_rope_utils.py (_compute_default_rope_parameters, _compute_llama3_parameters) and
modeling_llama.py (rotate_half, apply_rotary_pos_emb, LlamaRMSNorm). Run: python3 rope_reference.py
"""
import math


def inv_freq_default(theta, d_h):
    return [1.0 / theta ** (i / d_h) for i in range(0, d_h, 2)]


def inv_freq_llama3(theta, d_h, factor, low, high, old_ctx):
    out = []
    for f in inv_freq_default(theta, d_h):
        wavelen = 2 * math.pi / f
        if wavelen < old_ctx / high:
            out.append(f)
        elif wavelen > old_ctx / low:
            out.append(f / factor)
        else:
            s = (old_ctx / wavelen - low) / (high - low)
            out.append((1 - s) * f / factor + s * f)
    return out


def rotary(x, pos, inv):
    # x: one head vector of d_h values at position pos; HF: x*cos + rotate_half(x)*sin,
    # cos/sin over cat(freqs, freqs).
    d_h = len(x)
    half = d_h // 2
    ang = [pos * inv[i % half] for i in range(d_h)]
    rot = [-x[i + half] for i in range(half)] + [x[i] for i in range(half)]
    return [x[i] * math.cos(ang[i]) + rot[i] * math.sin(ang[i]) for i in range(d_h)]


def rms_norm(x, w, eps):
    r = 1.0 / math.sqrt(sum(v * v for v in x) / len(x) + eps)
    return [w[i] * x[i] * r for i in range(len(x))]


if __name__ == "__main__":
    llama31 = inv_freq_llama3(500000.0, 128, 8.0, 1.0, 4.0, 8192)
    print("llama3.1 inv_freq[0, 20, 30, 40, 50, 63]:", [repr(llama31[i]) for i in (0, 20, 30, 40, 50, 63)])
    default = inv_freq_default(500000.0, 128)
    print("default  inv_freq[0, 20, 30, 40, 50, 63]:", [repr(default[i]) for i in (0, 20, 30, 40, 50, 63)])
    inv = inv_freq_default(10000.0, 8)
    x = [0.5, -1.0, 2.0, 0.25, -0.75, 1.5, 0.125, -2.0]
    for pos in (0, 1, 7, 100):
        print(f"rotary pos {pos}:", [round(v, 9) for v in rotary(x, pos, inv)])
    print("rms_norm:", [round(v, 9) for v in rms_norm([1.0, -2.0, 3.0, 0.5], [1.0, 0.5, 2.0, -1.0], 1e-5)])
