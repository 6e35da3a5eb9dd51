#!/bin/sh
# Issue 14, end to end: `oomkit train --nproc-per-node 2` (two Gloo workers, one thread each)
# against one process at the same global batch, dropout 0: the step losses agree to a relative
# 1e-5 (and the validation loss), with B·grad_accum split as 2x1 and as 1x2 per rank (the
# second runs a no_sync micro-step). Also: per-rank timelines with "rank" in every record and
# the gradient all-reduces as "collective" events; a rank killed mid-run ends the job with one
# error naming it, nonzero exit, well before the collective timeout.
# Usage: data_parallel_test.sh OOMKIT
set -u
exe="$1"
. "$(dirname "$0")/dp_kill_rank.sh"
fail=0
tmp="${TMPDIR:-/tmp}/oomkit_dp.$$"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
steps=6
common="--model gpt-nano --seq-len 32 --steps $steps --dropout 0 --threads 1 --eval-batches 2 --eval-every 0 --log-every 1"

run() {  # NAME ARGS...
  name="$1"; shift
  if ! timeout 300 "$exe" -q train $common --run-dir "$tmp/$name" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"; then
    echo "FAIL: $name: $*"; tail -c 1500 "$tmp/$name.err"; exit 1
  fi
}
run single -b 4
run dp_b2 -b 2 --nproc-per-node 2
run dp_b1_accum2 -b 1 --grad-accum 2 --nproc-per-node 2

python3 - "$tmp" "$steps" <<'EOF' || fail=1
import json, sys
tmp, steps = sys.argv[1], int(sys.argv[2])
def records(path):
    return [json.loads(l) for l in open(path) if l.strip()]
def losses(name):
    recs = records(f"{tmp}/{name}/timeline.jsonl")
    step_losses = [r["loss"] for r in recs if r["type"] == "step"]
    val = [r["val_loss"] for r in recs if r["type"] == "step" and r.get("val_loss") is not None]
    return step_losses, val
ref, ref_val = losses("single")
assert len(ref) == steps, ref
bad = False
for name in ("dp_b2", "dp_b1_accum2"):
    got, val = losses(name)
    if len(got) != steps:
        print(f"FAIL {name}: {len(got)} step records, want {steps}"); bad = True; continue
    for i, (a, b) in enumerate(zip(ref, got)):
        rel = abs(a - b) / abs(a)
        if rel > 1e-5:
            print(f"FAIL {name} step {i}: loss {b!r} vs single-process {a!r} (relative {rel:.2e})"); bad = True
    if abs(val[-1] - ref_val[-1]) / ref_val[-1] > 1e-5:
        print(f"FAIL {name}: val loss {val[-1]!r} vs {ref_val[-1]!r}"); bad = True
    # One timeline per rank, "rank" in every record; rank 1's losses are the same averaged ones.
    for rank, path in ((0, f"{tmp}/{name}/timeline.jsonl"), (1, f"{tmp}/{name}/timeline.rank1.jsonl")):
        recs = records(path)
        if any(r.get("rank") != rank for r in recs):
            print(f"FAIL {name}: a record of {path} lacks rank {rank}"); bad = True
        buckets = [r for r in recs if r["type"] == "event" and r["name"] == "collective" and r["what"] == "grad_bucket"]
        if len(buckets) < steps or any(r["end_ns"] < r["begin_ns"] or r["bytes"] <= 0 for r in buckets):
            print(f"FAIL {name} rank {rank}: {len(buckets)} grad_bucket all-reduce events for {steps} steps"); bad = True
    r1 = [r["loss"] for r in records(f"{tmp}/{name}/timeline.rank1.jsonl") if r["type"] == "step"]
    if r1 != got:
        print(f"FAIL {name}: rank 1's step losses differ from rank 0's"); bad = True
print("losses single:", ref)
sys.exit(1 if bad else 0)
EOF

# A rank killed mid-run: the launcher names it and stops the other; exit nonzero, fast.
start=$(date +%s)
timeout 120 "$exe" -q train --model gpt-nano --seq-len 32 -b 2 --threads 1 --steps 100000 --eval-every 0 \
  --dist-timeout 60 --nproc-per-node 2 --run-dir "$tmp/killed" >"$tmp/killed.out" 2>"$tmp/killed.err" &
job=$!
for i in $(seq 1 100); do
  grep -q '"type": *"step"' "$tmp/killed/timeline.rank1.jsonl" 2>/dev/null && break
  sleep 0.2
done
kill_rank1_and_check "$tmp/killed" "$job" "$tmp/killed.err" "killed rank"
took=$(( $(date +%s) - start ))
if [ "$took" -gt 50 ]; then echo "FAIL: the job took ${took}s to end after a rank died"; fail=1; fi

exit $fail
