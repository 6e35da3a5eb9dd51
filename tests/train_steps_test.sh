#!/bin/sh
# One step numbering and honest summaries (issue 13 item 5). Usage: train_steps_test.sh OOMKIT
#  1. A 3-step run: the progress lines, the text summary, the --json summary and the timeline's
#     `step` records all number the steps 0, 1, 2 (trainer.h: "step k" is the 0-based index).
#  2. OOM stops, with --memory-limit budgets taken from that run's own step peaks (not
#     constants): between step 0's peak and step 1's, the run stops at step 1 after one completed
#     step; below step 0's peak, at step 0 with none. The summaries (text and --json) say it
#     stopped on an OOM, at which step and phase (the timeline's oom event's), how many steps
#     completed, and give no loss or throughput for steps that did not complete.
set -u
exe="$1"
tmp="${TMPDIR:-/tmp}/oomkit_train_steps.$$"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
small="--model gpt-nano --seq-len 32 -b 2 --threads 1 --eval-batches 1 --eval-every 2 --log-every 1 --on-oom abort"

# shellcheck disable=SC2086
"$exe" train $small --steps 3 --json --run-dir "$tmp/ok" >"$tmp/ok.json" 2>"$tmp/ok.err"
rc=$?
[ "$rc" -eq 0 ] || { echo "FAIL: the 3-step run exited $rc"; cat "$tmp/ok.err"; exit 1; }

python3 - "$tmp" <<'EOF' || exit 1
import json, re, sys
tmp = sys.argv[1]
err = open(f"{tmp}/ok.err").read()
summary = json.load(open(f"{tmp}/ok.json"))
steps = [json.loads(l) for l in open(f"{tmp}/ok/timeline.jsonl")]
bad = []
progress = [(int(a), int(b), int(c)) for a, b, c in re.findall(r"^step\s+(\d+) \((\d+)/(\d+)\) \|", err, re.M)]
if progress != [(0, 1, 3), (1, 2, 3), (2, 3, 3)]:
    bad.append(f"progress lines {progress}, want steps 0, 1, 2 as (1/3) (2/3) (3/3)")
evals = [(int(a), int(b)) for a, b in re.findall(r"^eval after step\s+(\d+) \((\d+)/3\)", err, re.M)]
if evals != [(1, 2), (2, 3)]:
    bad.append(f"eval lines {evals}, want after steps 1 and 2")
timeline_steps = [r["step"] for r in steps if r["type"] == "step"]
if timeline_steps != [0, 1, 2]:
    bad.append(f"timeline steps {timeline_steps}")
if "done: 3/3 steps completed (steps 0..2)" not in err:
    bad.append("no 'done: 3/3 steps completed (steps 0..2)' line")
if not re.search(r"loss [\d.]+ -> [\d.]+ \(step 0 -> step 2\)", err):
    bad.append("the loss line does not name steps 0 and 2")
want = {"stop_reason": "completed", "completed": True, "first_step": 0, "last_step": 2, "steps": 3,
        "steps_this_run": 3, "total_steps": 3}
for k, v in want.items():
    if summary.get(k) != v:
        bad.append(f"--json {k} = {summary.get(k)!r}, want {v!r}")
losses = {r["step"]: r["loss"] for r in steps if r["type"] == "step"}
if summary.get("first_loss") != losses.get(0) or summary.get("final_loss") != losses.get(2):
    bad.append(f"--json first/final loss {summary.get('first_loss')}/{summary.get('final_loss')} vs timeline {losses}")
if "oom" in summary:
    bad.append("a completed run's summary has an oom record")
peaks = {r["step"]: r["peak_bytes"] for r in steps if r["type"] == "step"}
starts = [r["allocated_bytes"] for r in steps if r["type"] == "mark" and r["step"] == 0 and r["phase"] == "step_start"]
if not (peaks[1] > peaks[0] > starts[0]):
    bad.append(f"cannot place budgets: start {starts} peaks {peaks}")
open(f"{tmp}/limits", "w").write(f"{(peaks[0] + peaks[1]) // 2} {(starts[0] + peaks[0]) // 2}\n")
for b in bad: print("FAIL (3-step run):", b)
sys.exit(1 if bad else 0)
EOF
read -r limit1 limit0 <"$tmp/limits"

check_oom() {  # name, budget in bytes, expected step, expected steps completed
  name="$1"; limit="$2"; want_step="$3"; want_done="$4"
  # shellcheck disable=SC2086
  "$exe" train $small --steps 3 --json --memory-limit "${limit}B" --run-dir "$tmp/$name" \
    >"$tmp/$name.json" 2>"$tmp/$name.err"
  rc=$?
  [ "$rc" -eq 3 ] || { echo "FAIL ($name): exit $rc, want 3 (OOM)"; cat "$tmp/$name.err"; return 1; }
  python3 - "$tmp" "$name" "$want_step" "$want_done" <<'EOF'
import json, re, sys
tmp, name, want_step, want_done = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
err = open(f"{tmp}/{name}.err").read()
s = json.load(open(f"{tmp}/{name}.json"))
recs = [json.loads(l) for l in open(f"{tmp}/{name}/timeline.jsonl")]
event = [r for r in recs if r["type"] == "event" and r["name"] == "oom"]
bad = []
if len(event) != 1:
    bad.append(f"{len(event)} oom events")
else:
    e = event[0]
    if e["step"] != want_step:
        bad.append(f"oom event at step {e['step']}, want {want_step}")
    o = s.get("oom") or {}
    for k in ("step", "phase", "micro_step", "allocated_bytes", "requested_bytes", "limit_bytes"):
        if o.get(k) != e.get(k):
            bad.append(f"--json oom.{k} = {o.get(k)!r}, timeline event {e.get(k)!r}")
    line = f"stopped by an OOM at step {want_step} ({e['phase']}): {want_done}/3 steps completed"
    if line not in err:
        bad.append(f"no '{line}' in the text summary")
want = {"stop_reason": "oom", "completed": False, "steps": want_done, "steps_this_run": want_done,
        "last_step": want_done - 1 if want_done else None}
for k, v in want.items():
    if s.get(k) != v:
        bad.append(f"--json {k} = {s.get(k)!r}, want {v!r}")
if re.search(r"^\[oomkit\] info: done:", err, re.M):
    bad.append("an OOM-stopped run says 'done:'")
if want_done == 0:
    for k in ("first_loss", "final_loss", "tokens_per_s", "ms_per_step"):
        if s.get(k) is not None:
            bad.append(f"--json {k} = {s.get(k)!r} with no completed step, want null")
    if "no step completed in this run: no loss, throughput or step peak" not in err or " -> " in err.split("stopped by")[-1]:
        bad.append("the text summary reports a loss or throughput with no completed step")
else:
    loss0 = [r["loss"] for r in recs if r["type"] == "step" and r["step"] == 0]
    if s.get("final_loss") != loss0[0] or not s.get("tokens_per_s"):
        bad.append(f"final_loss {s.get('final_loss')} vs step 0's {loss0}, tokens_per_s {s.get('tokens_per_s')}")
    if "over the completed steps: loss" not in err or "over the completed steps: throughput" not in err:
        bad.append("loss/throughput lines do not say they cover the completed steps only")
for b in bad: print(f"FAIL ({name}):", b)
sys.exit(1 if bad else 0)
EOF
}

fail=0
check_oom oom_step1 "$limit1" 1 1 || fail=1
check_oom oom_step0 "$limit0" 0 0 || fail=1
[ "$fail" -eq 0 ] && echo "OK: one step numbering; OOM summaries at steps 1 and 0"
exit "$fail"
