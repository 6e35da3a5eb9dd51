#!/usr/bin/env bash
# Issue 15's speed table: `oomkit train` against the frozen Python baseline
# ../shared/peers/gpt_peer.py (plain PyTorch on Debian's python3-torch, the same LibTorch 1.13),
# side by side in one run. Sizes: gpt-nano B=16 T=128, gpt-micro B=8 T=256, a d=768 L=4 GPT-2
# B=8 T=128; precisions fp32 and bf16-mixed; AdamW, dropout 0, no gradient clipping (the peer
# clips nothing), BENCH_THREADS threads (2), the same byte-level text (BENCH_DATA).
# Warm steps only: the peer times --steps after 3 untimed steps; oomkit runs 3 + STEPS steps and
# its tokens/s is computed from the timeline's step records 3.. (each record's `ms` is the step's
# wall time; the step that ran the final evaluation is left out). The two programs alternate,
# REPEATS times per row, in alternating order, so a change of machine load hits both alike; each
# side keeps its MEDIAN tokens/s. ratio = oomkit / peer. MFU (PaLM appendix B): oomkit's FLOPs per
# token (summary.json's model_flops_per_token, 6N + 12·L·H·Q·T) times each side's warm tokens/s,
# over the 2048x2048 matmul rate of the row's compute dtype (fp32, or bf16 for bf16-mixed) measured
# just before the row, best of 5, at the same threads, with the kernels oomkit runs: OpenBLAS's
# core as oomkit-train picks it (exec_with_fitting_blas_core(): OPENBLAS_CORETYPE=SkylakeX where
# Debian's OpenBLAS falls back to generic kernels on an AVX-512 CPU it does not know) and oneDNN
# with AMX (oomkit keeps AMX for these models: amx_hazard() finds no contraction length ≡ 31
# mod 32). oomkit-train also switches ATen's own CPU kernels (elementwise, Sleef math, layer_norm,
# softmax, the optimizer) to AVX-512 on a CPU with AVX-512 F/BW/VL/DQ (choose_aten_cpu_capability():
# ATEN_CPU_CAPABILITY=avx512, opt-in in LibTorch 1.13). The peer runs twice per repeat: as it is
# (OpenBLAS's and ATen's own choices: peer_tok/s, ratio) and with oomkit's choices of both
# (peer_fit_tok/s, ratio_fit: the two programs on the same kernels).
# Report only: exits 0 whatever the ratios are.
#   OOMKIT_EXE (build/oomkit)  PEER (../shared/peers/gpt_peer.py)  BENCH_DATA (/usr/share/common-licenses/GPL-3)
#   BENCH_THREADS (2)  REPEATS (3)  STEPS (20; d=768: STEPS_D768, 6)  BENCH_ROWS ("nano micro d768")
#   BENCH_PRECISIONS ("fp32 bf16-mixed")
# Usage: bench/peer_speed.sh
set -euo pipefail
cd "$(dirname "$0")/.."
EXE=${OOMKIT_EXE:-build/oomkit}
PEER=${PEER:-../shared/peers/gpt_peer.py}
DATA=${BENCH_DATA:-/usr/share/common-licenses/GPL-3}
THREADS=${BENCH_THREADS:-2}
REPEATS=${REPEATS:-3}
PY=/usr/bin/python3
for f in "$EXE" "$PEER" "$DATA"; do
  [ -e "$f" ] || { echo "error: $f not found (OOMKIT_EXE, PEER, BENCH_DATA)" >&2; exit 2; }
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# The d=768 L=4 GPT-2 of the issue: bench/gpt-d768-l4.json (shared with train_throughput.sh; HF keys,
# byte vocabulary, the pdrop fields written out: a GPT-2 config without them means 0.1 in transformers).
rows=()
for r in ${BENCH_ROWS:-nano micro d768}; do
  case "$r" in
    nano) rows+=("gpt-nano models/gpt-nano.json 16 128 ${STEPS:-20}") ;;
    micro) rows+=("gpt-micro models/gpt-micro.json 8 256 ${STEPS:-20}") ;;
    d768) rows+=("d768-L4 bench/gpt-d768-l4.json 8 128 ${STEPS_D768:-6}") ;;
    *) echo "error: BENCH_ROWS: unknown row '$r' (nano, micro, d768)" >&2; exit 2 ;;
  esac
done
printf 'machine: %s cores, load %s; %s threads, %s alternating repeats per row (median kept); data %s\n' \
  "$(nproc)" "$(cut -d' ' -f1 /proc/loadavg)" "$THREADS" "$REPEATS" "$DATA"
# oomkit-train's OpenBLAS core where OpenBLAS falls back to generic kernels (exec_with_fitting_blas_core()),
# for the matmul probe and the peer's second run; empty: OpenBLAS's own choice fits (or the user set one).
FIT=$($PY - <<'PYEOF'
import ctypes, os, torch
if "OPENBLAS_CORETYPE" not in os.environ:
    name = ""
    for lib in sorted({l.split()[-1] for l in open("/proc/self/maps") if "blas" in l.split()[-1]}):
        try:
            core = ctypes.CDLL(lib).openblas_get_corename
        except (AttributeError, OSError):
            continue
        core.restype = ctypes.c_char_p
        name = core().decode().lower()
        break
    flags = next((l.split(":", 1)[1].split() for l in open("/proc/cpuinfo") if l.startswith("flags")), [])
    if name in ("prescott", "core2", "penryn", "dunnington", "nehalem", "atom", "sandybridge", "unknown"):
        print("SkylakeX" if "avx512f" in flags else "Haswell" if "avx2" in flags and "fma" in flags else "")
PYEOF
)
printf 'OpenBLAS core for oomkit, the matmul probe and peer_fit: %s\n' "${FIT:-OpenBLAS own choice}"
# ATen's CPU kernels as oomkit-train picks them (choose_aten_cpu_capability(), threads.h).
ATEN_FIT=""
if [ -z "${ATEN_CPU_CAPABILITY:-}" ]; then
  cpu_flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
  ATEN_FIT=avx512
  for f in avx512f avx512bw avx512vl avx512dq fma; do
    case "$cpu_flags" in *" $f "*) ;; *) ATEN_FIT="" ;; esac
  done
fi
if [ -n "${ATEN_CPU_CAPABILITY:-}" ]; then
  aten_note="$ATEN_CPU_CAPABILITY (set before the script: oomkit and both peer runs)"
else
  aten_note=${ATEN_FIT:-ATen own choice}
fi
printf 'ATen CPU kernels for oomkit and peer_fit: %s\n' "$aten_note"
printf '%-10s %-11s %4s %4s %6s %12s %12s %7s %13s %14s %9s %11s %8s %8s %8s\n' model precision B T steps oomkit_tok/s \
  peer_tok/s ratio ratio_range peer_fit_tok/s ratio_fit peak_GFLOP/s mfu_oomk mfu_peer mfu_pfit
for row in "${rows[@]}"; do
  read -r name config B T steps <<<"$row"
  for precision in ${BENCH_PRECISIONS:-fp32 bf16-mixed}; do
    runs="$TMP/runs.txt"
    : > "$runs"
    env ${FIT:+OPENBLAS_CORETYPE=$FIT} $PY - "$precision" "$THREADS" >> "$runs" <<'PYEOF'
import sys, time, torch
torch.set_num_threads(int(sys.argv[2]))
dtype = torch.bfloat16 if sys.argv[1] == "bf16-mixed" else torch.float32
n = 2048
a, b = torch.randn(n, n).to(dtype), torch.randn(n, n).to(dtype)
torch.mm(a, b)
best = float("inf")
for _ in range(5):
    t = time.perf_counter(); torch.mm(a, b); best = min(best, time.perf_counter() - t)
print("peak", 2 * n ** 3 / best)
PYEOF
    cpp_run() {
      rm -rf "$TMP/run"
      "$EXE" train --model "$config" --data "$DATA" --batch-size "$B" --seq-len "$T" --steps $((steps + 3)) \
        --threads "$THREADS" --precision "$precision" --optimizer adamw --dropout 0 --grad-clip 0 --warmup 1 \
        --eval-every 0 --eval-batches 1 --run-dir "$TMP/run" --json --quiet > "$TMP/summary.json" 2>/dev/null
      $PY - "$TMP/run/timeline.jsonl" "$TMP/summary.json" "$B" "$T" >> "$runs" <<'PYEOF'
import json, sys
timeline, summary, B, T = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
steps = [json.loads(l) for l in open(timeline)]
warm = [s for s in steps if s.get("type") == "step" and s["step"] >= 3 and "val_loss" not in s]
tok_s = len(warm) * B * T / (sum(s["ms"] for s in warm) / 1e3)
s = json.load(open(summary))
print("cpp", tok_s, s["model_flops_per_token"])
PYEOF
    }
    py_run() {
      $PY "$PEER" --model "$config" --data "$DATA" --batch-size "$B" --seq-len "$T" --steps "$steps" --warmup 3 \
        --threads "$THREADS" --precision "$precision" | $PY -c 'import json,sys; print("py", json.load(sys.stdin)["tokens_per_s"])' >> "$runs"
    }
    py_fit_run() {
      if [ -z "$FIT$ATEN_FIT" ]; then return; fi
      env ${FIT:+OPENBLAS_CORETYPE=$FIT} ${ATEN_FIT:+ATEN_CPU_CAPABILITY=$ATEN_FIT} $PY "$PEER" --model "$config" --data "$DATA" --batch-size "$B" --seq-len "$T" --steps "$steps" \
        --warmup 3 --threads "$THREADS" --precision "$precision" |
        $PY -c 'import json,sys; print("pyfit", json.load(sys.stdin)["tokens_per_s"])' >> "$runs"
    }
    for r in $(seq "$REPEATS"); do
      if [ $((r % 2)) -eq 1 ]; then cpp_run; py_run; py_fit_run; else py_fit_run; py_run; cpp_run; fi
    done
    $PY - "$runs" "$name" "$precision" "$B" "$T" "$steps" <<'PYEOF'
import statistics, sys
path, name, precision, B, T, steps = sys.argv[1:]
cpp, py, pyfit, peak, flops_per_token = [], [], [], 0.0, 0
for line in open(path):
    k, *v = line.split()
    if k == "cpp":
        cpp.append(float(v[0])); flops_per_token = int(v[1])
    elif k == "py":
        py.append(float(v[0]))
    elif k == "pyfit":
        pyfit.append(float(v[0]))
    else:
        peak = float(v[0])
ratios = [c / p for c, p in zip(cpp, py)]
c, p = statistics.median(cpp), statistics.median(py)
f = statistics.median(pyfit) if pyfit else float("nan")
print(f"{name:<10} {precision:<11} {B:>4} {T:>4} {steps:>6} {c:12.0f} {p:12.0f} {c / p:7.2f} "
      f"{min(ratios):6.2f}-{max(ratios):<6.2f} {f:14.0f} {c / f:9.2f} {peak / 1e9:11.1f} "
      f"{100 * c * flops_per_token / peak:7.1f}% {100 * p * flops_per_token / peak:7.1f}% {100 * f * flops_per_token / peak:7.1f}%")
PYEOF
  done
done
