#!/usr/bin/env bash
# Throughput of `oomkit train` against the same loop in Python PyTorch on the same LibTorch
# (Debian's python3-torch 1.13), at three sizes: gpt-nano, gpt-micro and a d=768 L=4 GPT-2.
# Same model, batch, steps, threads, fp32 AdamW. Prints tokens/s of each, the C++/Python
# ratio, and model FLOPs utilisation (6N + 12·L·d·T FLOPs per token, PaLM appendix B) against
# the fp32 matmul peak measured here.
#   OOMKIT_EXE (default build/oomkit)  BENCH_THREADS (default nproc)  BENCH_B (8)  BENCH_T (128)
set -euo pipefail
cd "$(dirname "$0")/.."
EXE=${OOMKIT_EXE:-build/oomkit}
THREADS=${BENCH_THREADS:-$(nproc)}
B=${BENCH_B:-8}
T=${BENCH_T:-128}
PY=/usr/bin/python3
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cat > "$TMP/gpt-d768-l4.json" <<'JSON'
{"model_type":"gpt2","_name_or_path":"gpt-d768-l4","vocab_size":256,"n_positions":256,"n_embd":768,
 "n_layer":4,"n_head":12,"n_inner":null,"layer_norm_epsilon":1e-05,"tie_word_embeddings":true}
JSON

peak=$($PY bench/train_throughput.py --peak --threads "$THREADS" | $PY -c 'import json,sys; print(json.load(sys.stdin)["matmul_flops"])')
printf 'machine: %s threads, fp32 matmul peak %.1f GFLOP/s (2048x2048, measured)\n' "$THREADS" "$(echo "$peak" | awk '{print $1/1e9}')"
printf '%-14s %6s %4s %4s %12s %12s %7s %8s %8s\n' model params B T cpp_tok/s py_tok/s ratio mfu_cpp mfu_py
fail=0
for spec in "models/gpt-nano.json:${STEPS_NANO:-30}" "models/gpt-micro.json:${STEPS_MICRO:-10}" "$TMP/gpt-d768-l4.json:${STEPS_D768:-5}"; do
  model=${spec%%:*}
  steps=${spec##*:}
  cpp=$("$EXE" train --model "$model" --batch-size "$B" --seq-len "$T" --steps "$steps" --threads "$THREADS" \
        --warmup 1 --eval-every 0 --eval-batches 1 --run-dir "$TMP/run" --json --quiet 2>/dev/null)
  py=$($PY bench/train_throughput.py --model "$model" --batch-size "$B" --seq-len "$T" --steps "$steps" --threads "$THREADS")
  $PY - "$model" "$B" "$T" "$peak" "$cpp" "$py" <<'PYEOF' || fail=1
import json, sys
model, B, T, peak = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
cpp, py = json.loads(sys.argv[5]), json.loads(sys.argv[6])
c = json.load(open(model))
N, L, d = cpp["parameters"], c["n_layer"], c["n_embd"]
flops_per_token = 6 * N + 12 * L * d * T
ratio = cpp["tokens_per_s"] / py["tokens_per_s"]
name = c.get("_name_or_path", model)
print(f"{name:<14} {N/1e6:5.1f}M {B:4d} {T:4d} {cpp['tokens_per_s']:12.0f} {py['tokens_per_s']:12.0f} {ratio:7.3f} "
      f"{100*cpp['tokens_per_s']*flops_per_token/peak:7.1f}% {100*py['tokens_per_s']*flops_per_token/peak:7.1f}%")
sys.exit(0 if ratio >= 1.0 else 1)
PYEOF
done
if [ "$fail" -ne 0 ]; then echo "FAIL: the C++ trainer was slower than the Python loop at some size"; exit 1; fi
echo "OK: the C++ trainer is at least as fast as the Python loop at every size"
