#!/usr/bin/env bash
# Throughput of `oomkit train` against the same loop in Python PyTorch on the same LibTorch
# (Debian's python3-torch 1.13), at three sizes: gpt-nano, gpt-micro and a d=768 L=4 GPT-2.
# Same model (dropout 0 in both), batch, steps, threads, fp32 AdamW, clip 1.0. The two programs
# run alternately, REPEATS times per size, in alternating order (C++ first on odd repeats,
# Python first on even ones), so a change of machine load hits both alike. For each side the
# MEDIAN over repeats is kept, of wall-clock tokens/s and of tokens per CPU-second (process
# CPU time of the training steps); the table prints both ratios (C++ / Python), the range of
# the per-repeat wall ratios, and model FLOPs utilisation (6N + 12·L·H·Q·T FLOPs per token,
# PaLM appendix B, the model_flops_per_token of `oomkit train --json`: one implementation)
# against the fp32 matmul rate measured here just before each size
# (2048 x 2048, bench/train_throughput.py --peak).
#   OOMKIT_EXE (default build/oomkit)  BENCH_THREADS (default: every core, as `oomkit train`)
#   BENCH_B (8)  BENCH_T (128)  REPEATS (5)  STEPS_NANO (30)  STEPS_MICRO (10)  STEPS_D768 (4)
#   BENCH_SIZES ("nano micro d768": which sizes to run)
#   BENCH_CRITERION wall (default) | cpu: which ratio must be >= 1 at every size (exit 1 if not).
#   Tokens per CPU-second is the same comparison made robust to other jobs sharing the cores.
set -euo pipefail
cd "$(dirname "$0")/.."
EXE=${OOMKIT_EXE:-build/oomkit}
THREADS=${BENCH_THREADS:-$(nproc)}
B=${BENCH_B:-8}
T=${BENCH_T:-128}
REPEATS=${REPEATS:-5}
PY=/usr/bin/python3
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

specs=()
for size in ${BENCH_SIZES:-nano micro d768}; do
  case $size in
    nano) specs+=("models/gpt-nano.json:${STEPS_NANO:-30}") ;;
    micro) specs+=("models/gpt-micro.json:${STEPS_MICRO:-10}") ;;
    d768) specs+=("bench/gpt-d768-l4.json:${STEPS_D768:-4}") ;;
    *) echo "BENCH_SIZES: unknown size '$size' (nano, micro, d768)" >&2; exit 2 ;;
  esac
done
printf 'machine: %s cores, %s threads, B=%s T=%s, %s alternating repeats per size (median kept)\n' \
  "$(nproc)" "$THREADS" "$B" "$T" "$REPEATS"
printf '%-12s %6s %9s %9s %6s %13s %10s %10s %6s %7s %7s\n' model params cpp_tok/s py_tok/s ratio ratio_range \
  cpp_tok/cpus py_tok/cpus ratio mfu_cpp mfu_py
fail=0
for spec in "${specs[@]}"; do
  model=${spec%%:*}
  steps=${spec##*:}
  runs="$TMP/runs.jsonl"
  : > "$runs"
  $PY bench/train_throughput.py --peak --threads "$THREADS" | sed 's/^/peak /' >> "$runs"
  for r in $(seq "$REPEATS"); do
    cpp_run() {
      "$EXE" train --model "$model" --batch-size "$B" --seq-len "$T" --steps "$steps" --threads "$THREADS" \
        --dropout 0 --warmup 1 --eval-every 0 --eval-batches 1 --run-dir "$TMP/run" --json --quiet 2>/dev/null \
        | $PY -c 'import json,sys; print("cpp", json.dumps(json.load(sys.stdin)))' >> "$runs"
    }
    py_run() {
      $PY bench/train_throughput.py --model "$model" --batch-size "$B" --seq-len "$T" --steps "$steps" \
        --threads "$THREADS" | sed 's/^/py /' >> "$runs"
    }
    if [ $((r % 2)) -eq 1 ]; then cpp_run; py_run; else py_run; cpp_run; fi
  done
  $PY bench/train_throughput.py --summarize "$runs" --model "$model" --batch-size "$B" --seq-len "$T" \
    --criterion "${BENCH_CRITERION:-wall}" || fail=1
done
if [ "$fail" -ne 0 ]; then
  echo "FAIL (${BENCH_CRITERION:-wall} ratio): the C++ trainer was slower than the Python loop at some size"
  exit 1
fi
echo "OK (${BENCH_CRITERION:-wall} ratio): the C++ trainer is at least as fast as the Python loop at every size"
