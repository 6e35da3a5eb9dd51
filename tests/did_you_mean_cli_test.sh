#!/bin/sh
# "Did you mean" end to end (issue 13 item 5): an unknown command, flag, GPU name or model name is
# one `error:` line naming it, one `hint: did you mean ...?` line and exit 2, from the one
# suggestion rule (oomkit::suggest, tests/suggest_test.cpp); names are case-insensitive; --model
# takes a folder holding config.json and ORG/NAME from the Hugging Face cache ($HF_HUB_CACHE,
# built here).
# Usage: did_you_mean_cli_test.sh OOMKIT
set -u
exe="$1"
fail=0
tmp="${TMPDIR:-/tmp}/oomkit_dym.$$"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
printf 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.15 GiB of which 1.50 GiB is free.\n' >"$tmp/oom.log"

expect_hint() {  # error pattern, hint pattern, args...
  epat="$1"; hpat="$2"; shift 2
  "$exe" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "$rc" -ne 2 ]; then echo "FAIL ($rc != 2): $*"; cat "$tmp/err"; fail=1; return; fi
  if [ "$(grep -c '^error:' "$tmp/err")" -ne 1 ]; then echo "FAIL (not one error line): $*"; cat "$tmp/err"; fail=1; fi
  if ! head -n 1 "$tmp/err" | grep -q -- "^error: .*$epat"; then echo "FAIL (no '$epat' on the error line): $*"; cat "$tmp/err"; fail=1; fi
  if ! grep -q -- "^hint: .*$hpat" "$tmp/err"; then echo "FAIL (no hint '$hpat'): $*"; cat "$tmp/err"; fail=1; fi
}
expect_ok() {  # output pattern, args...
  pattern="$1"; shift
  if ! "$exe" "$@" >"$tmp/out" 2>"$tmp/err"; then echo "FAIL (exit): $*"; cat "$tmp/err"; fail=1; return; fi
  if ! grep -q -- "$pattern" "$tmp/out"; then echo "FAIL (no '$pattern'): $*"; head -n 20 "$tmp/out"; fail=1; fi
}

# Commands.
expect_hint "unknown command 'estimat'" "did you mean estimate?" estimat --model gpt2
expect_hint "unknown command 'diagnoze'" "did you mean diagnose?" diagnoze x.log
expect_hint "unknown command 'gpu'" "did you mean gpus?" gpu
# Flags: the nearest flag of the command it was given to (or a global one).
expect_hint "estimate: unknown flag '--batch-szie'" "did you mean --batch-size?" estimate --model gpt2 --batch-szie 3
expect_hint "estimate: unknown flag '--seqlen'" "did you mean --seq-len?" estimate --model gpt2 --seqlen=512
expect_hint "diagnose: unknown flag '--modle'" "did you mean --model?" diagnose "$tmp/oom.log" --modle gpt2
expect_hint "gpus: unknown flag '--jsn'" "did you mean --json?" gpus --jsn
expect_hint "report: unknown flag '--frmat'" "did you mean --format?" report "$tmp" --frmat html
expect_hint "estimate: unknown flag '--verbos'" "did you mean --verbose?" estimate --model gpt2 --verbos
expect_hint "unknown flag '--xyzzy'" "--help' lists its flags" estimate --model gpt2 --xyzzy
# GPU names (estimate and diagnose share the catalog lookup).
expect_hint "--gpu: unknown GPU 'a100'" "did you mean a100-sxm4-40gb, a100-pcie-40gb or a100-sxm4-80gb?" estimate --model gpt2 --gpu a100
expect_hint "--gpu: unknown GPU 'rtx4090'" "did you mean rtx-4090?" estimate --model gpt2 --gpu rtx4090
expect_hint "--gpu: unknown GPU 'h100-sxn'" "did you mean h100-sxm?" diagnose "$tmp/oom.log" --model gpt2 --gpu h100-sxn
# Model names, shipped and cached.
expect_hint "--model: .*'llama2-7b'" "did you mean llama-2-7b" estimate --model llama2-7b
expect_hint "--model: .*'gpt-nan'" "did you mean gpt-nano" diagnose "$tmp/oom.log" --model gpt-nan
# Enum values: the same rule.
expect_hint "--optimizer" "did you mean adamw or adam-8bit?" estimate --model gpt2 --optimizer adam

# Case-insensitive names: models, GPUs, enum values.
expect_ok '"num_hidden_layers": 32' estimate --model LLAMA-2-7B --gpu A100-SXM4-80GB --precision BF16-Mixed --json
# -V is --version (as cargo and python have it).
expect_ok '^oomkit ' -V

# --model DIR and the Hugging Face cache (refs/main chooses the snapshot).
hub="$tmp/hub"
mkdir -p "$hub/models--Acme--Tiny-LM/snapshots/aaaa" "$hub/models--Acme--Tiny-LM/snapshots/bbbb" "$hub/models--Acme--Tiny-LM/refs"
cfg='{"model_type": "gpt2", "n_embd": 64, "n_head": 4, "n_positions": 1024, "vocab_size": 256, "n_layer": '
printf '%s3}' "$cfg" >"$hub/models--Acme--Tiny-LM/snapshots/aaaa/config.json"
printf '%s7}' "$cfg" >"$hub/models--Acme--Tiny-LM/snapshots/bbbb/config.json"
printf 'bbbb' >"$hub/models--Acme--Tiny-LM/refs/main"
export HF_HUB_CACHE="$hub"
expect_ok '"n_layer": 7' estimate --model acme/tiny-lm --json
expect_ok '"n_layer": 7' estimate --model Tiny-LM --json
expect_ok 'Verdict' diagnose "$tmp/oom.log" --model Acme/Tiny-LM
expect_ok '"n_layer": 3' estimate --model "$hub/models--Acme--Tiny-LM/snapshots/aaaa" --json
expect_hint "--model" "did you mean Acme/Tiny-LM?" estimate --model acme/tiny-ml

exit $fail
