#!/usr/bin/env bash
# Issue 14's done-means, measured: the default model on the default corpus (no --model, no --data),
# dropout 0, one thread per process, 50 steps: one process at global batch 16 against 2 Gloo ranks
# at micro-batch 8 each, plain DDP, --zero 1 and --zero 2. Prints each run's wall time and the largest
# relative step-loss difference per rank against the one-process run (the bar: 1e-5).
# Usage: scripts/dp-equality.sh [build folder, default build] [steps, default 50]
# About 3.5 min on this 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
steps="${2:-50}"
[ "$steps" -ge 1 ] 2>/dev/null || { echo "error: steps: a whole number >= 1, got '$steps'"; exit 2; }
out="$(mktemp -d "${TMPDIR:-/tmp}/oomkit-dp-equality.XXXXXX")"
trap 'rm -rf "$out"' EXIT
common=(-q train --dropout 0 --threads 1 --steps "$steps" --eval-every 0 --log-every 1)
run() {  # NAME ARGS...
  local name="$1"; shift
  local t0=$SECONDS
  "$build/oomkit" "${common[@]}" --run-dir "$out/$name" "$@" >"$out/$name.log" 2>&1 || { tail -5 "$out/$name.log"; exit 1; }
  echo "$name: $((SECONDS - t0)) s ($*)"
}
run single -b 16
run ddp -b 8 --nproc-per-node 2
run zero1 -b 8 --nproc-per-node 2 --zero 1
run zero2 -b 8 --nproc-per-node 2 --zero 2
python3 - "$out" "$steps" <<'PY'
import json, sys
out, steps = sys.argv[1], int(sys.argv[2])
def losses(path):
    return [r["loss"] for r in map(json.loads, open(path)) if r.get("type") == "step"]
ref = losses(f"{out}/single/timeline.jsonl")
bad = len(ref) != steps
for run in ("ddp", "zero1", "zero2"):
    for rank, f in ((0, "timeline.jsonl"), (1, "timeline.rank1.jsonl")):
        got = losses(f"{out}/{run}/{f}")
        rel = max((abs(a - b) / abs(a) for a, b in zip(ref, got)), default=float("inf")) if len(got) == len(ref) else float("inf")
        print(f"{run:<6} rank {rank}: {len(got)} steps, max relative loss difference vs one process {rel:.3g}")
        bad = bad or not rel <= 1e-5
print("loss at step 1 / step %d, one process: %.6f / %.6f" % (steps, ref[0], ref[-1]))
# Per rank: the c10 allocator's bytes at every mark of the first and the last step against the
# estimate's per-rank prediction (summary.json's phase table), and the run's peak against it.
print("\nrun    rank  marks equal  peak (B)      estimate (B)  measured/estimate  gradients kept (B)  optimizer state (B)")
for run in ("single", "ddp", "zero1", "zero2"):
    for rank, f in ((0, "summary.json"), (1, "summary.rank1.json")):
        if run == "single" and rank == 1:
            continue
        s = json.load(open(f"{out}/{run}/{f}"))
        marks = [p for p in s["memory"]["phases"] if p.get("predicted_allocated_bytes", -1) >= 0]
        equal = sum(p["allocated_bytes"] == p["predicted_allocated_bytes"] for p in marks)
        after_bwd = next(p for p in marks if p["phase"] == "after_backward" and p["step_kind"] == "steady")
        zero = next(p for p in marks if p["phase"] == "after_zero_grad" and p["step_kind"] == "steady")
        cats = {c["category"]: c.get("measured_bytes") for c in s["memory"]["categories"]}
        peak, est = s["peak_allocated_bytes"], s["estimated_peak_bytes"]
        print(f"{run:<6} {rank:>4}  {equal:>5} / {len(marks):<4} {peak:>12,}  {est:>12,}  {peak / est:>17.6f}  "
              f"{after_bwd['allocated_bytes'] - zero['allocated_bytes']:>18,}  {cats.get('optimizer_state') or 0:>19,}")
        bad = bad or equal != len(marks) or abs(peak - est) > 0.01 * est
sys.exit(1 if bad else 0)
PY
