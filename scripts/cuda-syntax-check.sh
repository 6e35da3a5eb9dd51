#!/usr/bin/env bash
# Syntax-checks the CUDA backend (src/profile/cuda/*.cpp) on a machine without a CUDA LibTorch:
# against the c10/cuda and torch/csrc/cuda headers that Debian's LibTorch ships and the CUDA
# toolkit headers in /usr/local/cuda/include (or $CUDA_INCLUDE). Debian's headers lack the
# CMake-generated c10/cuda/impl/cuda_cmake_macros.h; a stand-in defining nothing beyond the
# include guard is put in a temporary folder (it only configures DLL export macros).
# Exit 0 when every file parses; prints the compiler's errors otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
CUDA_INCLUDE=${CUDA_INCLUDE:-/usr/local/cuda/include}
TORCH_INCLUDE=${TORCH_INCLUDE:-/usr/include}
if [ ! -f "$CUDA_INCLUDE/cuda_runtime_api.h" ]; then
  echo "cuda-syntax-check: no cuda_runtime_api.h under $CUDA_INCLUDE (set CUDA_INCLUDE)" >&2
  exit 2
fi
shim=$(mktemp -d)
trap 'rm -rf "$shim"' EXIT
if [ ! -f "$TORCH_INCLUDE/c10/cuda/impl/cuda_cmake_macros.h" ]; then
  mkdir -p "$shim/c10/cuda/impl"
  echo '#pragma once' > "$shim/c10/cuda/impl/cuda_cmake_macros.h"
fi
status=0
for f in src/profile/cuda/*.cpp; do
  echo "[cuda-syntax-check] $f"
  g++ -std=c++17 -fsyntax-only -Wall -Wno-unused-parameter -DOOMKIT_WITH_CUDA=1 \
    -I"$shim" -I"$TORCH_INCLUDE" -I"$TORCH_INCLUDE/torch/csrc/api/include" -I"$CUDA_INCLUDE" -Iinclude "$f" || status=1
done
exit $status
