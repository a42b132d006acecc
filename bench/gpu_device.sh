#!/usr/bin/env bash
# The GPU path's checks on a machine with a GPU (the device tool's machine, which has no
# package registry): the tests of tests/gpu and the benchmark's --gpu cases, with the
# GPU named. Build here first; carry build/ and the GL loader packages in .gl/ (the
# device README's notes on headless rendering). Writes its logs under $OUT (or ./out).
# Usage: bench/gpu_device.sh [SECONDS_PER_CASE]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-out}
mkdir -p "$out"
seconds=${1:-3}
if compgen -G ".gl/*.deb" >/dev/null; then
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
# NVIDIA's EGL vendor file, where the driver put it outside the usual place.
if [[ -f /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json ]]; then
  export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
fi
{ nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv || true; } | tee "$out/gpu.txt"
build/tests/sloshlab_gpu_tests --gtest_brief=1 2>&1 | tee "$out/gpu_tests.log"
build/bench/sloshlab_bench --gpu --threads 2 --seconds "$seconds" --markdown "$out/gpu_bench.md" 2>&1 |
  tee "$out/gpu_bench.log"
