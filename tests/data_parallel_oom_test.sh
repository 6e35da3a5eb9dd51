#!/bin/sh
# Issue 14 item 5, an OOM on one rank under ZeRO-2 (`--on-oom recover|diagnose`): the ranks agree
# on it before any gradient moves and decide together.
#  - a --memory-limit between the two ranks' measured peaks (the ranks differ by their shares of
#    the optimizer state and the gradients) makes exactly one rank run out of memory at the first
#    steady step's end of backward;
#  - recover: that rank's timeline has the oom event, both ranks' have one recover event with
#    every rank's numbers, both switch to the same smaller micro-batch at the same B·grad_accum,
#    every step completes, and the losses equal the run without a limit (relative 1e-5: the same
#    windows, only summed in other micro-batches);
#  - diagnose: the same OOM ends the job on both ranks (exit 3) with an oom_decision event
#    carrying both ranks' peaks, and the failing rank's error line names both ranks;
#  - an OOM the ranks cannot agree on (in the first optimizer step, where one rank creates more
#    optimizer state than the other) ends the job as abort does: exit 3, one error line saying so,
#    no playbook report;
#  - recover without --zero 2 is refused with one error line naming --on-oom, exit 2.
# Usage: data_parallel_oom_test.sh OOMKIT
set -u
exe="$1"
tmp="${TMPDIR:-/tmp}/oomkit_dp_oom.$$"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
common="--model gpt-nano --seq-len 32 --dropout 0 --threads 1 --eval-every 0 --log-every 1 --steps 4 -b 4 --nproc-per-node 2 --zero 2 --dist-timeout 60"
fail=0

timeout 300 "$exe" -q train $common --run-dir "$tmp/free" >"$tmp/free.out" 2>"$tmp/free.err" || { echo "FAIL: the run without a limit"; tail -5 "$tmp/free.err"; exit 1; }
limit=$(python3 - "$tmp/free" <<'PY'
import json, sys
peaks = [json.load(open(f"{sys.argv[1]}/{f}"))["peak_allocated_bytes"] for f in ("summary.json", "summary.rank1.json")]
if peaks[0] == peaks[1]:
    sys.exit("the two ranks peak at the same bytes: no limit separates them")
print((peaks[0] + peaks[1]) // 2)
PY
) || { echo "FAIL: $limit"; exit 1; }
echo "limit between the ranks' peaks: $limit B"

timeout 300 "$exe" -q train $common --memory-limit "${limit}B" --on-oom recover --run-dir "$tmp/rec" >"$tmp/rec.out" 2>"$tmp/rec.err"
rc=$?
if [ "$rc" -ne 0 ]; then echo "FAIL: recover: exit $rc"; tail -8 "$tmp/rec.err"; fail=1; fi
python3 - "$tmp" <<'PY' || fail=1
import json, sys
tmp = sys.argv[1]
def records(path):
    return [json.loads(l) for l in open(path) if l.strip()]
def losses(run, f):
    return [r["loss"] for r in records(f"{tmp}/{run}/{f}") if r.get("type") == "step"]
bad = False
files = ("timeline.jsonl", "timeline.rank1.jsonl")
ooms = [[r for r in records(f"{tmp}/rec/{f}") if r.get("name") == "oom"] for f in files]
recs = [[r for r in records(f"{tmp}/rec/{f}") if r.get("name") == "recover"] for f in files]
print("oom events per rank:", [len(o) for o in ooms], "recover events per rank:", [len(r) for r in recs])
if sorted(len(o) for o in ooms) != [0, 1]:
    print("FAIL: want exactly one rank with one oom event"); bad = True
if [len(r) for r in recs] != [1, 1]:
    print("FAIL: want one recover event on each rank"); bad = True
else:
    a, b = recs[0][0], recs[1][0]
    if a.get("to") != b.get("to") or a.get("step") != b.get("step") or not a.get("collective"):
        print("FAIL: the ranks did not take the same decision:", a.get("to"), b.get("to")); bad = True
    ranks = a.get("ranks", [])
    if len(ranks) != 2 or sum(r["out_of_memory"] for r in ranks) != 1 or \
            min(r.get("peak_bytes", r.get("needed_bytes", 0)) for r in ranks) <= 0:
        print("FAIL: the recover event lacks both ranks' numbers:", ranks); bad = True
    print("decision:", a.get("from"), "->", a.get("to"), "|", a.get("finding"), "|", a.get("reading"))
ref = losses("free", "timeline.jsonl")
for f in files:
    got = losses("rec", f)
    if len(got) != len(ref):
        print(f"FAIL {f}: {len(got)} steps, want {len(ref)}"); bad = True; continue
    rel = max(abs(x - y) / abs(x) for x, y in zip(ref, got))
    print(f"{f}: {len(got)} steps, max relative loss difference vs the run without a limit {rel:.3g}")
    if rel > 1e-5:
        print(f"FAIL {f}: losses differ"); bad = True
sys.exit(1 if bad else 0)
PY

timeout 300 "$exe" -q train $common --memory-limit "${limit}B" --on-oom diagnose --run-dir "$tmp/diag" >"$tmp/diag.out" 2>"$tmp/diag.err"
rc=$?
if [ "$rc" -ne 3 ]; then echo "FAIL: diagnose: exit $rc, want 3"; tail -8 "$tmp/diag.err"; fail=1; fi
if ! grep -q 'at the OOM rank 0: .*rank 1: ' "$tmp/diag.err"; then
  echo "FAIL: diagnose: no error line with both ranks' peaks"; tail -8 "$tmp/diag.err"; fail=1
fi
n=$(cat "$tmp/diag/timeline.jsonl" "$tmp/diag/timeline.rank1.jsonl" | grep -c '"name": *"oom_decision"')
[ "$n" -eq 2 ] || { echo "FAIL: diagnose: $n oom_decision events, want one per rank"; fail=1; }

# The first step's optimizer step: a limit between what rank 1 peaks at in that step and what
# rank 0 needs in its optimizer step (rank 0 holds the larger share of the state).
limit2=$(python3 - "$tmp/free" <<'PY'
import json, sys
def first(f):
    return [p for p in json.load(open(f"{sys.argv[1]}/{f}"))["memory"]["phases"] if p["step_kind"] == "first"]
r0, r1 = first("summary.json"), first("summary.rank1.json")
opt0 = next(p["peak_bytes"] for p in r0 if p["phase"] == "after_optimizer_step")
before0 = max(p["peak_bytes"] for p in r0 if p["phase"] in ("step_start", "after_forward", "after_loss", "after_backward"))
r1max = max(p["peak_bytes"] for p in r1)
low = max(before0, r1max)
if not low < opt0:
    sys.exit(f"no limit separates rank 0's optimizer step ({opt0}) from the rest ({low})")
print((low + opt0 + 1) // 2)
PY
) || { echo "FAIL: $limit2"; exit 1; }
timeout 120 "$exe" -q train $common --memory-limit "${limit2}B" --on-oom recover --run-dir "$tmp/opt" >"$tmp/opt.out" 2>"$tmp/opt.err"
rc=$?
if [ "$rc" -ne 3 ] || ! grep -q 'under data parallelism an OOM outside forward and backward ends the job' "$tmp/opt.err" || [ -e "$tmp/opt/oom_report.json" ]; then
  echo "FAIL: an OOM in the optimizer step under data parallelism: exit $rc (want 3, one line, no report)"; tail -6 "$tmp/opt.err"; fail=1
fi

timeout 120 "$exe" -q train --model gpt-nano --steps 1 --nproc-per-node 2 --on-oom recover --run-dir "$tmp/ddp" >"$tmp/ddp.out" 2>"$tmp/ddp.err"
rc=$?
if [ "$rc" -ne 2 ] || [ "$(grep -c '^error:' "$tmp/ddp.err")" -ne 1 ] || ! grep -q '^error: --on-oom: recover under data parallelism needs --zero 2' "$tmp/ddp.err"; then
  echo "FAIL: recover without --zero 2: exit $rc"; cat "$tmp/ddp.err"; fail=1
fi
exit $fail
