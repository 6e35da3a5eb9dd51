#!/usr/bin/env bash
# The ONE prepared check for a lent GPU machine (issue 4). On a machine with an NVIDIA GPU and a
# CUDA build of PyTorch (pip), but without oomkit's other dependencies or network:
#   1. reports the machine (nvidia-smi, torch version, CUDA, C++ ABI);
#   2. builds oomkit against that PyTorch's LibTorch with the CUDA backend: CMake when it is
#      installed and configures, else a direct g++ build of the same source folders;
#      CLI11/nlohmann/spdlog/fmt headers and GoogleTest's source come from .gpu-deps/
#      (fill it beforehand with scripts/gpu-deps.sh and carry it along);
#   3. runs the tests labelled `gpu` (tests/torch/*cuda*_test.cpp);
#   4. a short `oomkit train --device cuda` with a timeline, checked record by record; 4b. CPU and
#      CUDA --memory-snapshot pickles read by this PyTorch's torch.cuda._memory_viz (memory_viz_2x_check.py);
#   5. a real CUDA OOM under a memory fraction (`--memory-limit`), its log kept for `diagnose`;
#   6. estimate vs measured peak (torch.cuda.max_memory_allocated's statistic) for a few configs.
# Everything lands under $OUT (default out/gpu-check): gpu-check.log, build logs, timelines,
# summaries, gpu-check-summary.txt. Each stage has a timeout; a failing stage is reported and
# the next one still runs. Exit status: 0 when every stage passed, 1 otherwise, 2 when the
# machine has no GPU or PyTorch.
#   JOBS=N   parallel compile jobs (default: nproc)
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD
OUT=${OUT:-$ROOT/out/gpu-check}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/gpu-check.log") 2>&1
JOBS=${JOBS:-$(nproc)}
DEPS=${OOMKIT_GPU_DEPS:-$ROOT/.gpu-deps}
BUILD=${OOMKIT_GPU_BUILD:-$ROOT/build-gpu}
declare -a RESULTS=()
status=0
stage() { echo; echo "=== [$(date +%H:%M:%S)] $*"; }
record() {  # record <name> <rc>
  if [ "$2" -eq 0 ]; then RESULTS+=("PASS  $1"); else RESULTS+=("FAIL  $1 (rc $2)"); status=1; fi
}
finish() {
  stage "summary"
  printf '%s\n' "${RESULTS[@]}" | tee "$OUT/gpu-check-summary.txt"
  exit "$status"
}

# ---- 1. machine ----------------------------------------------------------------------------
stage "machine"
nvidia-smi --query-gpu=name,memory.total,memory.used,driver_version --format=csv || true
if ! python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)'; then
  echo "gpu-check: no CUDA-capable PyTorch here"; RESULTS+=("FAIL  machine: no CUDA PyTorch"); status=2; finish
fi
TORCH_DIR=$(python3 -c 'import os, torch; print(os.path.dirname(torch.__file__))')
TORCH_PREFIX=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')
ABI=$(python3 -c 'import torch; print(int(torch._C._GLIBCXX_USE_CXX11_ABI))')
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "device", torch.cuda.get_device_name(0))'
echo "torch dir $TORCH_DIR, cmake prefix $TORCH_PREFIX, _GLIBCXX_USE_CXX11_ABI=$ABI, jobs $JOBS"
SITE=$(dirname "$TORCH_DIR")
# CUDA runtime headers and library: the toolkit if installed, else the pip nvidia-* packages.
CUDA_INC=""
for d in "${CUDA_HOME:-/usr/local/cuda}/include" /usr/local/cuda/include; do
  [ -f "$d/cuda_runtime_api.h" ] && { CUDA_INC=$d; break; }
done
[ -n "$CUDA_INC" ] || CUDA_INC=$(dirname "$(find "$SITE/nvidia" -name cuda_runtime_api.h 2>/dev/null | head -n 1)" 2>/dev/null)
CUDART=$(ls "${CUDA_HOME:-/usr/local/cuda}"/lib64/libcudart.so 2>/dev/null | head -n 1)
[ -n "$CUDART" ] || CUDART=$(find "$SITE/nvidia" -name 'libcudart.so*' 2>/dev/null | sort | head -n 1)
echo "cuda include: ${CUDA_INC:-none}; cudart: ${CUDART:-none}"
if [ ! -d "$DEPS/include" ]; then
  echo "gpu-check: $DEPS missing: run scripts/gpu-deps.sh on the build machine and carry .gpu-deps"
  RESULTS+=("FAIL  deps: .gpu-deps missing"); status=1; finish
fi

# ---- 2. build --------------------------------------------------------------------------------
stage "build"
OOMKIT=""
declare -a GPU_TESTS=()
build_cmake() {
  command -v cmake >/dev/null || { echo "no cmake on this machine"; return 1; }
  local gen=()
  command -v ninja >/dev/null && gen=(-G Ninja)
  cmake -S . -B "$BUILD/cmake" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DOOMKIT_BUILD_BENCH=OFF \
    -DCMAKE_FIND_PACKAGE_PREFER_CONFIG=ON -DCMAKE_PREFIX_PATH="$DEPS/cmake;$TORCH_PREFIX" \
    -DOOMKIT_GLOO_INCLUDE_DIR="$DEPS/include" \
    ${CUDA_INC:+-DCUDAToolkit_INCLUDE_DIRECTORIES="$CUDA_INC"} > "$OUT/cmake-configure.log" 2>&1 || {
    echo "cmake configure failed (tail of $OUT/cmake-configure.log):"; tail -n 15 "$OUT/cmake-configure.log"; return 1; }
  grep -q "CUDA backend: ON" "$OUT/cmake-configure.log" || { echo "cmake found LibTorch without CUDA"; return 1; }
  local targets=(oomkit)
  for t in tests/torch/*cuda*_test.cpp; do [ -f "$t" ] && targets+=("$(basename "$t" .cpp)"); done
  cmake --build "$BUILD/cmake" -j "$JOBS" --target "${targets[@]}" > "$OUT/build.log" 2>&1 || {
    echo "cmake build failed:"; grep -E "error|Error" "$OUT/build.log" | head -n 30; return 1; }
  OOMKIT=$BUILD/cmake/oomkit
  for t in "${targets[@]:1}"; do GPU_TESTS+=("$BUILD/cmake/$t"); done
}
build_gxx() {
  [ -n "$CUDA_INC" ] && [ -n "$CUDART" ] || { echo "no CUDA runtime headers/library found"; return 1; }
  local B=$BUILD/gxx obj=$BUILD/gxx/obj
  mkdir -p "$obj"
  local flags=(-std=c++17 -O2 -fPIC -pthread -D_GLIBCXX_USE_CXX11_ABI="$ABI" -DOOMKIT_WITH_CUDA=1 -DUSE_C10D_GLOO=1
    -DSPDLOG_FMT_EXTERNAL -DFMT_HEADER_ONLY -DOOMKIT_MODELS_DIR="\"$ROOT/models\""
    -DOOMKIT_SOURCE_DIR="\"$ROOT\"" -DOOMKIT_BINARY_DIR="\"$B\"" -DOOMKIT_EXE="\"$B/oomkit\""
    -Iinclude -Isrc/report -I"$DEPS/include" -I"$DEPS/googletest/googletest/include" -I"$DEPS/googletest/googletest"
    -I"$TORCH_DIR/include" -I"$TORCH_DIR/include/torch/csrc/api/include" -I"$CUDA_INC")
  local libs=(-L"$TORCH_DIR/lib" -Wl,-rpath,"$TORCH_DIR/lib" -Wl,--no-as-needed -ltorch -ltorch_cuda -ltorch_cpu
    -lc10_cuda -lc10 "$CUDART" -Wl,--as-needed -pthread)
  # The report's CSS/JS as byte arrays, as cmake/embed_assets.cmake writes them.
  python3 - "$obj/report_assets.cpp" src/report/assets/report.css src/report/assets/report.js <<'PY' || return 1
import sys
out = ["#include <cstddef>", "namespace oomkit {"]
for name, path in (("kReportCss", sys.argv[2]), ("kReportJs", sys.argv[3])):
    data = open(path, "rb").read()
    out.append("extern const unsigned char %s[]; extern const std::size_t %s_size;" % (name, name))
    out.append("const unsigned char %s[] = {%s0x00};" % (name, "".join("0x%02x," % b for b in data)))
    out.append("const std::size_t %s_size = %d;" % (name, len(data)))
out.append("}")
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
  local lib_srcs=("$obj/report_assets.cpp") cli_srcs=() f
  for f in src/core/*.cpp src/estimate/*.cpp src/diagnose/*.cpp src/report/*.cpp src/train/*.cpp \
           src/profile/*.cpp src/profile/cuda/*.cpp; do [ -f "$f" ] && lib_srcs+=("$f"); done
  for f in src/cli/*.cpp; do [ -f "$f" ] && cli_srcs+=("$f"); done
  local test_srcs=() 
  for f in tests/torch/*cuda*_test.cpp; do [ -f "$f" ] && test_srcs+=("$f"); done
  local all=("${lib_srcs[@]}" "${cli_srcs[@]}" "${test_srcs[@]}" "$DEPS/googletest/googletest/src/gtest-all.cc"
             "$DEPS/googletest/googletest/src/gtest_main.cc")
  local failed=0 n=0
  for f in "${all[@]}"; do
    local o="$obj/$(echo "$f" | sed 's|^/||; s|/|_|g').o"
    ( g++ "${flags[@]}" -c "$f" -o "$o" > "$o.log" 2>&1 || { echo "compile failed: $f"; head -n 20 "$o.log"; exit 1; } ) &
    n=$((n + 1))
    if [ "$n" -ge "$JOBS" ]; then wait -n || failed=1; n=$((n - 1)); fi
  done
  while [ "$n" -gt 0 ]; do wait -n || failed=1; n=$((n - 1)); done
  [ "$failed" -eq 0 ] || return 1
  objs_of() { local x; for x in "$@"; do echo "$obj/$(echo "$x" | sed 's|^/||; s|/|_|g').o"; done; }
  mapfile -t lib_objs < <(objs_of "${lib_srcs[@]}")
  mapfile -t cli_objs < <(objs_of "${cli_srcs[@]}")
  g++ "${cli_objs[@]}" "${lib_objs[@]}" -o "$B/oomkit" "${libs[@]}" > "$OUT/link.log" 2>&1 || {
    echo "link failed:"; head -n 30 "$OUT/link.log"; return 1; }
  OOMKIT=$B/oomkit
  local gtest_objs
  mapfile -t gtest_objs < <(objs_of "$DEPS/googletest/googletest/src/gtest-all.cc" "$DEPS/googletest/googletest/src/gtest_main.cc")
  for f in "${test_srcs[@]}"; do
    local name; name=$(basename "$f" .cpp)
    g++ "$(objs_of "$f")" "${lib_objs[@]}" "${gtest_objs[@]}" -o "$B/$name" "${libs[@]}" >> "$OUT/link.log" 2>&1 || {
      echo "link failed: $name"; tail -n 20 "$OUT/link.log"; return 1; }
    GPU_TESTS+=("$B/$name")
  done
}
built=""
if build_cmake; then built=cmake
else
  echo "falling back to a direct g++ build"
  if build_gxx; then built=g++; fi
fi
if [ -z "$built" ]; then record "build" 1; finish; fi
record "build ($built)" 0
echo "oomkit: $OOMKIT"

# ---- 3. gpu-labelled tests ---------------------------------------------------------------------
stage "tests labelled gpu"
if [ "$built" = cmake ] && command -v ctest >/dev/null; then
  (cd "$BUILD/cmake" && timeout 600 ctest -L gpu --output-on-failure --output-junit "$OUT/ctest-gpu.xml")
  record "ctest -L gpu" $?
else
  rc=0
  for t in "${GPU_TESTS[@]}"; do timeout 300 "$t" --gtest_output="xml:$OUT/$(basename "$t").xml" || rc=1; done
  record "gpu tests (${#GPU_TESTS[@]} binaries)" $rc
fi

# ---- 4. a short training run with a timeline ---------------------------------------------------
stage "oomkit train --device cuda with a timeline"
mkdir -p "$OUT/train"
timeout 300 "$OOMKIT" train --model gpt-nano --device cuda --steps 30 --batch-size 8 --seq-len 256 \
  --run-dir "$OUT/train" --timeline "$OUT/train/timeline.jsonl" --json > "$OUT/train/summary.json" 2> "$OUT/train/train.log"
rc=$?
tail -n 8 "$OUT/train/train.log"
if [ $rc -eq 0 ]; then
  python3 - "$OUT/train/timeline.jsonl" <<'PY'
import json, sys
records = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
marks = [r for r in records if r.get("type") == "mark"]
steps = [r for r in records if r.get("type") == "step"]
phases = sorted({m["phase"] for m in marks})
print(f"timeline: {len(records)} records, {len(marks)} marks, {len(steps)} steps, phases {phases}")
assert records[0]["type"] == "run" and records[0]["device"].startswith("cuda"), records[0]
assert len(steps) == 30, len(steps)
for need in ("step_start", "after_forward", "after_loss", "after_backward", "after_optimizer_step", "after_zero_grad"):
    assert need in phases, need
for m in marks:
    assert m["reserved_bytes"] >= m["allocated_bytes"] > 0 and m["peak_allocated_bytes"] >= m["allocated_bytes"], m
last = steps[-1]
print(f"last step: peak {last['peak_bytes']} B during {last['peak_phase']}")
PY
  rc=$?
fi
record "train --device cuda + timeline" $rc

# ---- 4b. memory_viz snapshots read by this machine's PyTorch 2.x ---------------------------------
stage "memory_viz snapshots (--memory-snapshot) through PyTorch's own readers"
mkdir -p "$OUT/snapshot"
rc=0
timeout 300 "$OOMKIT" -q train --model gpt-nano --device cuda --steps 3 --batch-size 4 --seq-len 64 --eval-batches 1 \
  --run-dir "$OUT/snapshot/cuda" --memory-snapshot "$OUT/snapshot/cuda.pickle" > "$OUT/snapshot/cuda.log" 2>&1 || rc=1
timeout 300 "$OOMKIT" -q train --model gpt-nano --device cpu --steps 3 --batch-size 4 --seq-len 64 --eval-batches 1 \
  --run-dir "$OUT/snapshot/cpu" --memory-snapshot "$OUT/snapshot/cpu.pickle" > "$OUT/snapshot/cpu.log" 2>&1 || rc=1
[ $rc -eq 0 ] && { timeout 300 python3 scripts/memory_viz_2x_check.py --cuda-reference --out "$OUT/snapshot" \
  "$OUT/snapshot/cpu.pickle" "$OUT/snapshot/cuda.pickle" || rc=1; }
record "memory_viz snapshots (CPU and CUDA) read by torch.cuda._memory_viz" $rc

# ---- 5. a real CUDA OOM under a memory fraction ---------------------------------------------------
stage "real CUDA OOM under --memory-limit (memory fraction)"
mkdir -p "$OUT/oom" "$OUT/configs"
cat > "$OUT/configs/gpt-d768-l4.json" <<'JSON'
{"model_type": "gpt2", "_name_or_path": "gpt-d768-l4", "vocab_size": 256, "n_positions": 1024,
 "n_embd": 768, "n_layer": 4, "n_head": 12, "n_inner": null, "embd_pdrop": 0.0, "attn_pdrop": 0.0,
 "resid_pdrop": 0.0, "layer_norm_epsilon": 1e-05, "tie_word_embeddings": true}
JSON
timeout 300 "$OOMKIT" train --model "$OUT/configs/gpt-d768-l4.json" --device cuda --steps 2 --batch-size 32 \
  --seq-len 1024 --memory-limit 1GiB --run-dir "$OUT/oom" --timeline "$OUT/oom/timeline.jsonl" > "$OUT/oom/train.log" 2>&1
rc=$?
echo "train exit code $rc (an OOM run is expected to fail or to report the OOM)"
grep -m 3 -E "out of memory|OutOfMemory" "$OUT/oom/train.log"
if grep -q "CUDA out of memory" "$OUT/oom/train.log" "$OUT/oom/timeline.jsonl" 2>/dev/null; then
  record "real CUDA OOM raised and logged" 0
  if "$OOMKIT" diagnose --help > /dev/null 2>&1; then
    timeout 120 "$OOMKIT" diagnose "$OUT/oom/train.log" > "$OUT/oom/diagnose.txt" 2>&1
    record "oomkit diagnose on the CUDA OOM log" $?
    head -n 25 "$OUT/oom/diagnose.txt"
  fi
else
  tail -n 20 "$OUT/oom/train.log"
  record "real CUDA OOM raised and logged" 1
fi

# ---- 6. estimate vs measured peak ---------------------------------------------------------------
stage "estimate vs measured peak allocated (max_memory_allocated)"
# name | model | B | T | extra flags
CONFIGS=(
  "nano-b8-t256-fp32-adamw|gpt-nano|8|256|--precision fp32 --optimizer adamw"
  "micro-b8-t256-fp32-adamw|gpt-micro|8|256|--precision fp32 --optimizer adamw"
  "micro-b8-t256-bf16mixed-adamw|gpt-micro|8|256|--precision bf16-mixed --optimizer adamw"
  "micro-b8-t256-ckpt-sgd|gpt-micro|8|256|--checkpointing full --optimizer sgd"
  "d768l4-b8-t512-fp32-adamw|$OUT/configs/gpt-d768-l4.json|8|512|--precision fp32 --optimizer adamw"
  "d768l4-b1-t512-bf16mixed-adamw|$OUT/configs/gpt-d768-l4.json|1|512|--precision bf16-mixed --optimizer adamw"
  "micro-b8-t256-sdpa-bf16mixed|gpt-micro|8|256|--precision bf16-mixed --attention sdpa --optimizer adamw"
  "llama-nano-b8-t256-fp32-adamw|llama-nano|8|256|--precision fp32 --optimizer adamw"
  "llama-nano-b8-t256-bf16mixed-ckpt|llama-nano|8|256|--precision bf16-mixed --checkpointing full --optimizer adamw"
  "llama-micro-b4-t512-bf16mixed-sdpa|llama-micro|4|512|--precision bf16-mixed --attention sdpa --optimizer adamw"
)
rc=0
: > "$OUT/estimate_vs_measured.jsonl"
for c in "${CONFIGS[@]}"; do
  IFS='|' read -r name model b t extra <<< "$c"
  mkdir -p "$OUT/est/$name"
  # shellcheck disable=SC2086
  if timeout 300 "$OOMKIT" train --model "$model" --device cuda --steps 3 --batch-size "$b" --seq-len "$t" $extra \
       --run-dir "$OUT/est/$name" --timeline "$OUT/est/$name/timeline.jsonl" --json \
       > "$OUT/est/$name/summary.json" 2> "$OUT/est/$name/train.log"; then
    python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); s["config"]=sys.argv[2]; print(json.dumps(s))' \
      "$OUT/est/$name/summary.json" "$name" >> "$OUT/estimate_vs_measured.jsonl" || rc=1
  else
    echo "$name: train failed"; tail -n 5 "$OUT/est/$name/train.log"; rc=1
  fi
done
python3 - "$OUT/estimate_vs_measured.jsonl" <<'PY'
import json, sys
def mib(b): return f"{b / 2**20:10.2f} MiB"
print(f"{'config':34} {'estimated peak':>16} {'measured peak':>16} {'ratio':>7}")
for line in open(sys.argv[1]):
    s = json.loads(line)
    est, meas = s.get("estimated_peak_bytes", 0), s.get("peak_allocated_bytes", 0)
    ratio = f"{meas / est:7.3f}" if est else "      -"
    print(f"{s['config']:34} {mib(est):>16} {mib(meas):>16} {ratio}")
PY
record "estimate vs measured table" $rc

finish
