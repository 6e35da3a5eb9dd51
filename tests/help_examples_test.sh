#!/bin/sh
# Every "Examples:" line of every --help runs (issue 13 item 5): the examples of `oomkit --help`
# and of each command's --help are extracted from the help text itself (the lines after
# "Examples:" that start with "  oomkit ", up to the first line that does not) and run with
# `sh -c` in one scratch folder, in this order: train, estimate, diagnose, report, gpus, oomkit;
# each must exit 0. The scratch folder holds train.log (a real PyTorch OOM log from
# tests/data/oom-cases) and issue.txt (a real issue's text that tells of the OOM without its
# message, NVIDIA/apex#222 from tests/data/oom-corpus-held10) for the diagnose examples; later examples read what earlier ones wrote
# (runs/demo, estimate.json); a command shown twice (oomkit --help repeats some) runs once.
# Every command must show at least one example.
# Train examples run with their --steps cut to 2 (and --eval-batches 1 --threads 1) so the test stays
# short: with 2 intra-op threads, OpenBLAS's OpenMP threads spin (sched_yield) on every small matmul,
# and under ctest -j2 on 2 cores the --on-oom recover example's 32 micro-batches of B=1 took over 300 s
# (9 s alone; 46 s with --threads 1 beside 3 busy loops). Without oomkit-train beside oomkit (a
# torch-free build) train examples are skipped, and so is every
# example reading runs/demo.
# Usage: help_examples_test.sh OOMKIT SOURCE_DIR
set -u
exe="$1"
src="$2"
fail=0
tmp="${TMPDIR:-/tmp}/oomkit_help_examples.$$"
mkdir -p "$tmp/bin" "$tmp/work"
trap 'rm -rf "$tmp"' EXIT
ln -s "$exe" "$tmp/bin/oomkit"  # oomkit finds oomkit-train through /proc/self/exe: the link is followed
cp "$src/tests/data/oom-cases/noisy.log" "$tmp/work/train.log"
cp "$src/tests/data/oom-corpus-held10/pytorch-nvidia-apex-222-ddp-processes-use-memory-on-gpu0.log" "$tmp/work/issue.txt"
has_train=0
[ -x "$(dirname "$exe")/oomkit-train" ] && has_train=1
count=0
for command in train estimate diagnose report gpus ""; do
  name="oomkit${command:+ $command}"
  if [ "$command" = train ] && [ "$has_train" -eq 0 ]; then echo "skip: $name (no oomkit-train)"; continue; fi
  # shellcheck disable=SC2086
  if ! "$exe" $command --help >"$tmp/help" 2>&1; then echo "FAIL: $name --help"; fail=1; continue; fi
  awk '/^Examples:/ { on = 1; next } on && /^  oomkit / { sub(/^  /, ""); print; next } { on = 0 }' "$tmp/help" >"$tmp/examples"
  if [ ! -s "$tmp/examples" ]; then echo "FAIL: $name --help shows no example"; fail=1; continue; fi
  while IFS= read -r line; do
    run="$line"
    # The same command shown under two --help pages (oomkit's and the command's) runs once.
    key=$(printf '%s' "$line" | sed -E 's/[[:space:]]*#.*$//')
    if grep -qxF -- "$key" "$tmp/done" 2>/dev/null; then echo "seen: $key"; continue; fi
    printf '%s\n' "$key" >>"$tmp/done"
    case "$run" in
      "oomkit train"*)
        if [ "$has_train" -eq 0 ]; then echo "skip: $line"; continue; fi
        run=$(printf '%s' "$run" | sed -E 's/--steps [0-9]+/--steps 2/')
        case "$run" in *"--steps "*) ;; *) run=$(printf '%s' "$run" | sed -E 's/^oomkit train/oomkit train --steps 2/') ;; esac
        run=$(printf '%s' "$run" | sed -E 's/^oomkit train/oomkit train --eval-batches 1 --threads 1/') ;;
      *runs/demo*)
        if [ "$has_train" -eq 0 ]; then echo "skip: $line"; continue; fi ;;
    esac
    count=$((count + 1))
    (cd "$tmp/work" && PATH="$tmp/bin:$PATH" sh -c "$run" >"$tmp/out" 2>&1 </dev/null)
    rc=$?
    if [ "$rc" -ne 0 ]; then
      echo "FAIL (exit $rc): $name --help example: $line"; tail -n 5 "$tmp/out"; fail=1
    else
      echo "ok: $run"
    fi
  done <"$tmp/examples"
done
echo "$count examples run"
[ "$count" -gt 0 ] || fail=1
exit $fail
