#!/bin/sh
# The kernels `oomkit train` picks before its first matmul (issue 15 item 3, speed):
#  - oneDNN (CPU bf16 matmuls, only on a CPU with amx_bf16): AMX-BF16 kernels when no contraction
#    length of the run is ≡ 31 (mod 32) (amx_hazard(), matmul_workspace.h), said in one info line;
#    kept off AMX with a warning naming the length otherwise (T = 63 here: B·T odd), and the run
#    completes (with AMX, Debian's oneDNN 2.6 dies with SIGILL on such lengths).
#  - OpenBLAS (fp32): never left on generic kernels on an AVX2/AVX-512 CPU unless the user chose
#    them (exec_with_fitting_blas_core()); a user's OPENBLAS_CORETYPE=Prescott is kept (and warned of).
#  - ATen (its own CPU kernels): AVX512 on a CPU with AVX-512 F/BW/VL/DQ and FMA, else ATen's own
#    choice (choose_aten_cpu_capability()); a user's ATEN_CPU_CAPABILITY=avx2 is kept. Read from the
#    timeline's run options (aten_cpu_capability, from at::show_config()).
# Usage: kernel_choice_cli_test.sh OOMKIT
set -u
exe="$1"
fail=0
tmp="${TMPDIR:-/tmp}/oomkit_kernel_choice.$$"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null)
train() {  # out-file, then train flags
  out="$1"; shift
  "$exe" train --model gpt-nano --steps 1 --batch-size 2 --threads 2 --eval-batches 1 --mfu-probe-seconds 0 \
    --no-profile --run-dir "$tmp/run" "$@" >"$tmp/$out" 2>&1 || { echo "FAIL ($out): exit $?"; cat "$tmp/$out"; fail=1; }
}
case " $flags " in
  *" amx_bf16 "*)
    unset ONEDNN_MAX_CPU_ISA DNNL_MAX_CPU_ISA
    train amx --precision bf16-mixed --seq-len 64
    grep -q "info: oneDNN: AMX-BF16 kernels run the bf16 matmuls" "$tmp/amx" || { echo "FAIL: no AMX line at T=64"; cat "$tmp/amx"; fail=1; }
    train odd --precision bf16-mixed --seq-len 63
    grep -q "warning: oneDNN: AMX off (ONEDNN_MAX_CPU_ISA=AVX512_CORE_BF16): T = 63 is odd" "$tmp/odd" ||
      { echo "FAIL: no AMX-off warning at T=63"; cat "$tmp/odd"; fail=1; }
    train fp32 --seq-len 64
    if grep -q "oneDNN" "$tmp/fp32"; then echo "FAIL: an fp32 run speaks of oneDNN"; fail=1; fi
    ;;
  *) echo "skip oneDNN: no amx_bf16 in this CPU's flags" ;;
esac
unset OPENBLAS_CORETYPE
train blas --seq-len 64
if grep -q "OpenBLAS chose its generic" "$tmp/blas"; then echo "FAIL: OpenBLAS left on generic kernels"; cat "$tmp/blas"; fail=1; fi
case " $flags " in
  *" avx2 "*|*" avx512f "*)
    OPENBLAS_CORETYPE=Prescott train prescott --seq-len 64
    grep -q "OpenBLAS chose its generic 'Prescott' kernels" "$tmp/prescott" ||
      { echo "FAIL: the user's OPENBLAS_CORETYPE=Prescott was not kept (or not warned of)"; cat "$tmp/prescott"; fail=1; }
    ;;
esac
capability() {  # prints the ATen CPU capability a run reports in its timeline's run header; fails with the run
  rm -rf "$tmp/cap"
  "$exe" train --model gpt-nano --steps 1 --batch-size 2 --seq-len 64 --threads 2 --eval-batches 1 --mfu-probe-seconds 0 \
    --run-dir "$tmp/cap" >"$tmp/cap.log" 2>&1 || { echo "FAIL (capability): exit $?" >&2; cat "$tmp/cap.log" >&2; return 1; }
  head -n 1 "$tmp/cap/timeline.jsonl" 2>/dev/null | grep -o '"aten_cpu_capability":"[A-Z0-9]*"' | cut -d'"' -f4
}
unset ATEN_CPU_CAPABILITY
got=$(capability) || fail=1
want=AVX512
for f in avx512f avx512bw avx512vl avx512dq fma; do
  case " $flags " in *" $f "*) ;; *) want="" ;; esac
done
if [ -n "$want" ]; then
  [ "$got" = "$want" ] || { echo "FAIL: ATen runs '$got' kernels on an AVX-512 CPU, want $want"; fail=1; }
else
  case "$got" in AVX2|DEFAULT) ;; *) echo "FAIL: ATen reports '$got' on a CPU without AVX-512 F/BW/VL/DQ"; fail=1 ;; esac
fi
got=$(ATEN_CPU_CAPABILITY=avx2 capability) || fail=1
case " $flags " in
  *" avx2 "*) [ "$got" = AVX2 ] || { echo "FAIL: the user's ATEN_CPU_CAPABILITY=avx2 was not kept (got '$got')"; fail=1; } ;;
esac
[ "$fail" -eq 0 ] && echo "kernel choice: ok"
exit "$fail"
