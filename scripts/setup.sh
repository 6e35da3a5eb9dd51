#!/usr/bin/env bash
# Installs what oomkit needs from Debian 12's archive (only what is missing), makes OpenBLAS the
# BLAS LibTorch loads, then configures (Release) and builds into build/ (scripts/build.sh).
# Idempotent: a second run installs nothing and only rebuilds what changed.
#   OOMKIT_BUILD_DIR  build folder (default: build)
#   OOMKIT_JOBS       parallel compile jobs (default: nproc)
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  build-essential cmake ninja-build pkg-config
  libtorch-dev libopenblas0-openmp python3-torch
  libgloo-dev
  libspdlog-dev libfmt-dev libcli11-dev nlohmann-json3-dev libgtest-dev libbenchmark-dev libdnnl-dev
  chromium chromium-driver
  clang-14 libclang-rt-14-dev
  time
  zsh groff-base man-db  # tests/completion_test.sh: zsh -n on the zsh completion, groff/man on oomkit.1
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "[setup] installing: ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# OpenBLAS (OpenMP build) must be the BLAS LibTorch loads: the reference BLAS runs fp32 matmul
# about 15x slower on this class of machine.
if command -v update-alternatives >/dev/null; then
  arch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
  for lib in libblas.so.3 liblapack.so.3; do
    alt=$(update-alternatives --list "$lib-$arch" 2>/dev/null | grep openblas-openmp | head -n 1 || true)
    if [ -n "$alt" ]; then update-alternatives --set "$lib-$arch" "$alt" >/dev/null 2>&1 || true; fi
  done
fi

bash scripts/build.sh
