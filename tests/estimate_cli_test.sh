#!/bin/sh
# `oomkit estimate` / `oomkit gpus` end to end: bad input is one error line naming the field and
# exit code 2; good input exits 0 with the table or JSON. Each run loads LibTorch (~0.5 s), so
# this covers one case per error path; the library tests cover every field. Usage: estimate_cli_test.sh OOMKIT MODELS_DIR
set -u
exe="$1"
models="$2"
fail=0
tmp="${TMPDIR:-/tmp}/oomkit_estimate_cli.$$"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

expect_bad() {  # field, args...
  field="$1"; shift
  "$exe" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "$rc" -ne 2 ]; then echo "FAIL ($rc != 2): $*"; cat "$tmp/err"; fail=1; return; fi
  if ! head -n 1 "$tmp/err" | grep -q -- "^error: .*$field"; then echo "FAIL (field $field not named): $*"; cat "$tmp/err"; fail=1; fi
  if [ "$(grep -c '^error:' "$tmp/err")" -ne 1 ]; then echo "FAIL (not one error line): $*"; fail=1; fi
}
expect_ok() {  # pattern, args...
  pattern="$1"; shift
  if ! "$exe" "$@" >"$tmp/out" 2>"$tmp/err"; then echo "FAIL (exit): $*"; cat "$tmp/err"; fail=1; return; fi
  if ! grep -q -- "$pattern" "$tmp/out"; then echo "FAIL (no '$pattern'): $*"; fail=1; fi
}

printf '{"model_type": "gpt2", "n_embd": 768' >"$tmp/truncated.json"
printf '{"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 7, "vocab_size": 50257}' >"$tmp/heads.json"
printf '{"model_type": "llama", "hidden_size": 1048576, "num_hidden_layers": 100, "num_attention_heads": 1024, "intermediate_size": 4194304, "vocab_size": 32000}' >"$tmp/huge.json"

expect_bad "no-such.json" estimate --model "$tmp/no-such.json"
expect_bad "truncated.json" estimate --model "$tmp/truncated.json"
expect_bad "n_head" estimate --model "$tmp/heads.json"
expect_bad "parameters" estimate --model "$tmp/huge.json" --seq-len 16
expect_bad "--batch-size" estimate --model gpt2 --batch-size -4
expect_bad "--optimizer" estimate --model gpt2 --optimizer adagrad
expect_bad "--gpu" estimate --model gpt2 --gpu tpu-v5e
expect_bad "--memory" estimate --model gpt2 --memory 24parsecs
expect_bad "--max-batch" estimate --model gpt2 --max-batch
expect_bad "--framework" estimate --model gpt2 --framework colossal
expect_bad "--precision" estimate --model gpt2 --framework megatron
expect_bad "--sequence-parallel" estimate --model gpt2 --sequence-parallel
expect_bad "--offload-params" estimate --model gpt2 --framework deepspeed --precision bf16-mixed --zero 2 --offload-params
expect_bad "--quantize-base" estimate --model gpt2 --quantize-base nf4
expect_bad "--mode" estimate --model gpt2 --mode serve
expect_bad "--max-new-tokens" estimate --model gpt2 --mode inference --seq-len 1000 --max-new-tokens 100
expect_bad "--gpus" estimate --model gpt2 --gpu a100-80gb --gpus 0
expect_bad "--link-bandwidth" estimate --model gpt2 --gpu a100-80gb --link-bandwidth 0
expect_bad "--link-gbps" estimate --model gpt2 --dp 2 --link-gbps 0.0
expect_bad "--link-gbps" estimate --model gpt2 --link-gbps 0
expect_bad "--link-gbps" estimate --model gpt2 --dp 2 --link-gbps 1e-300
expect_bad "--grad-accum" estimate --model llama-2-7b --precision bf16-mixed --dp 8 --zero 1 --grad-accum 1000000000
expect_bad "--link-gbps" estimate --model gpt2 --dp 2 --link-gbps nan
expect_bad "--link-gbps" estimate --model gpt2 --dp 2 --link-gbps 100 --link-bandwidth 12.5GB

expect_ok "verdict: FITS" estimate --model gpt2 --seq-len 512 --gpu a100-80gb
expect_ok "DOES NOT FIT" estimate --model "$models/llama-2-7b.json" --gpu a100-80gb --batch-size 1 --seq-len 4096
expect_ok "cheapest combination that fits" estimate --model llama-2-7b --gpu a100-80gb --seq-len 4096 --host-memory 16GiB
expect_ok '"batch_curve"' estimate --model gpt2 --memory 24GiB --max-batch --json
expect_ok "fp32_master_and_adam" estimate --model llama-2-7b --framework megatron --precision bf16-mixed --attention flash --use-distributed-optimizer --dp 8 --seq-len 4096
expect_ok "per CPU" estimate --model llama-2-7b --framework deepspeed --precision bf16-mixed --zero 3 --dp 8 --offload-optimizer --seq-len 512
expect_ok "QLoRA: Linear weights NF4" estimate --model llama-2-7b --precision bf16 --lora-rank 64 --lora-targets q,k,v,o,gate,up,down --quantize-base nf4 --optimizer paged-adamw-8bit --seq-len 512
expect_ok '"max_batch"' estimate --model llama-2-7b --mode inference --precision bf16 --seq-len 1024 --max-new-tokens 1024 --gpu a100-80gb --max-batch --max-context --json
# Nothing fits: the largest batch / context is "none", never a bare 0 read as a batch size.
expect_ok "largest micro-batch that fits: none" estimate --model gpt2-xl --gpu t4 --max-batch
expect_ok "largest batch that fits: none" estimate --model llama-2-70b --mode inference --gpu t4 --max-batch
expect_ok "largest context (prompt + 128 new tokens) that fits: none" estimate --model llama-2-70b --mode inference --gpu t4 --max-context
# A value of the wrong type: the flag, the value and the type wanted; --gpus 0 alone is refused.
expect_bad "--batch-size: '1.5' is not a valid value (expects an integer)" estimate --model gpt2 --batch-size 1.5
expect_bad "--gpus: must be >= 1" estimate --model gpt2 --gpus 0
# --dp N: what each ZeRO stage moves per step beside what it saves (issue 14 item 6).
expect_ok "ZeRO-3 all-gather parameters (forward)" estimate --model gpt2 --dp 4 --zero 1 --link-gbps 400
expect_ok "link 50.00 GB/s = 400 Gb/s" estimate --model gpt2 --dp 4 --link-gbps 400
expect_ok '"reduce_scatter"' estimate --model gpt2 --dp 4 --zero 2 --json
expect_ok "not modelled" estimate --model gpt2 --dp 2 --tp 2
expect_ok '"sweep"' estimate --sweep --json --seq-len 1024
expect_ok '"capacity_bytes": 85100068864' gpus --json
expect_ok "NOMINAL" gpus
# --check: its own exit code when the run does not fit (4), 0 when it fits, 2 without a capacity.
expect_rc() {  # code, args...
  code="$1"; shift
  "$exe" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "$rc" -ne "$code" ]; then echo "FAIL ($rc != $code): $*"; cat "$tmp/err"; fail=1; fi
}
expect_rc 4 estimate --model "$models/llama-2-7b.json" --gpu a100-sxm4-80gb --batch-size 1 --seq-len 4096 --check
expect_rc 0 estimate --model gpt2 --seq-len 512 --gpu a100-sxm4-80gb --check
expect_rc 4 estimate --model "$models/llama-2-7b.json" --gpu a100-sxm4-80gb --seq-len 4096 --check --json
expect_bad "--check" estimate --model gpt2 --check
exit $fail
