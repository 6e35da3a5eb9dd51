#!/usr/bin/env bash
# Data-parallel scaling of `oomkit train` on one machine (issue 14 item 7), report-only: the same
# model, per-rank micro-batch, steps and seed in three layouts, run alternately REPEATS times
# (order rotated per repeat, so a change of machine load hits every layout alike), median kept:
#   1x1  one process, 1 intra-op thread                         (the unit of scaling)
#   1xN  one process, N threads (every core: LibTorch's intra-op parallelism)
#   Nx1  N processes (--nproc-per-node N, Gloo over a local TCPStore), 1 thread each (DDP)
# Each layout trains the same micro-batch B per process, so the global batch of Nx1 is N·B (weak
# scaling, as DDP is used). Printed per layout: tokens/s (wall, from `train --json`: the global
# batch's tokens over the step time), and scaling efficiency = tokens/s ÷ (processes·threads × the 1x1
# tokens/s); the Nx1 ÷ 1xN line answers "processes or threads on these cores?".
# Nothing is asserted: the numbers depend on the machine and its load (they are a measurement,
# not a test).
#   OOMKIT_EXE (build/oomkit)  DP_N (nproc, at least 2)  DP_MODEL (models/gpt-micro.json)
#   DP_B (8)  DP_T (128)  DP_STEPS (10)  REPEATS (3)  PYTHON (python3: reads the JSON)
set -euo pipefail
cd "$(dirname "$0")/.."
EXE=${OOMKIT_EXE:-build/oomkit}
N=${DP_N:-$(nproc)}
[ "$N" -ge 2 ] || N=2
MODEL=${DP_MODEL:-models/gpt-micro.json}
B=${DP_B:-8}
T=${DP_T:-128}
STEPS=${DP_STEPS:-10}
REPEATS=${REPEATS:-3}
PY=${PYTHON:-python3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

run() {  # layout procs threads -> one JSON line appended to $TMP/runs.jsonl
  local layout=$1 procs=$2 threads=$3
  rm -rf "$TMP/run-$layout"
  local dp=()
  [ "$procs" -gt 1 ] && dp=(--nproc-per-node "$procs")
  "$EXE" train --model "$MODEL" --batch-size "$B" --seq-len "$T" --steps "$STEPS" --threads "$threads" \
    ${dp[@]+"${dp[@]}"} --dropout 0 --warmup 1 --eval-every 0 --eval-batches 1 --run-dir "$TMP/run-$layout" --json --quiet \
    2>"$TMP/err-$layout" |
    $PY -c 'import json, sys; d = json.load(sys.stdin); d["layout"] = sys.argv[1]; d["procs"] = int(sys.argv[2]); d["threads"] = int(sys.argv[3]); print(json.dumps(d))' \
      "$layout" "$procs" "$threads" >>"$TMP/runs.jsonl" || { echo "layout $layout failed:"; tail -5 "$TMP/err-$layout"; exit 1; }
}

: >"$TMP/runs.jsonl"
layouts=("1x1 1 1" "1x$N 1 $N" "${N}x1 $N 1")
for r in $(seq "$REPEATS"); do
  for k in 0 1 2; do
    set -- ${layouts[$(((k + r) % 3))]}
    run "$@"
  done
done
printf 'machine: %s cores; model %s, B=%s per process, T=%s, %s steps, %s rotated repeats (median kept)\n' \
  "$(nproc)" "$MODEL" "$B" "$T" "$STEPS" "$REPEATS"
$PY - "$TMP/runs.jsonl" "$N" "$B" <<'PY'
import json, statistics, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
n, b = int(sys.argv[2]), int(sys.argv[3])
by = {}
for r in runs:
    by.setdefault(r["layout"], []).append(r)
med = lambda rs, k: statistics.median(r[k] for r in rs)
unit = med(by["1x1"], "tokens_per_s")
print(f"{'layout':<7} {'procs':>5} {'threads':>7} {'global B':>8} {'tok/s':>9} {'efficiency':>10}  per-repeat tok/s")
for name in ["1x1", f"1x{n}", f"{n}x1"]:
    rs = by[name]
    p, t = rs[0]["procs"], rs[0]["threads"]
    tps = med(rs, "tokens_per_s")
    eff = tps / (p * t * unit)
    print(f"{name:<7} {p:>5} {t:>7} {b * p:>8} {tps:>9.0f} {100 * eff:>9.1f}%  "
          + " ".join(f"{r['tokens_per_s']:.0f}" for r in rs))
print(f"{n}x1 / 1x{n} (processes vs threads on the same cores): "
      f"{med(by[f'{n}x1'], 'tokens_per_s') / med(by[f'1x{n}'], 'tokens_per_s'):.3f}")
PY
