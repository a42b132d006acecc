#!/usr/bin/env bash
# The GPU path's checks on a machine with a GPU (the device tool's machine, which has no
# package registry): the benchmark's --gpu cases with their kernel profile, the window's
# GPU work, the floating bodies' cost, then the tests of tests/gpu, with the GPU named. Build here first, then carry (ignored folders,
# .git/info/exclude): build/sloshlab, build/bench/sloshlab_bench,
# build/tests/sloshlab_gpu_tests, .gl (the GL loader packages, the device README's notes
# on headless rendering) and .devlib (the shared libraries `ldd` lists that the machine
# may lack: libgomp, GLFW, X11 and theirs). Writes its logs under $OUT (or ./out).
# Usage: bench/gpu_device.sh [SECONDS_PER_CASE [FILTER]]   (FILTER: the benchmark's --filter, e.g. gpu-pbf)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-out}
mkdir -p "$out"
seconds=${1:-2}
filter=(${2:+--filter "$2"})
if compgen -G ".gl/*.deb" >/dev/null; then
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
# NVIDIA's EGL vendor file, where the driver put it outside the usual place.
if [[ -f /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json ]]; then
  export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
fi
# The carried libraries, after the machine's own.
[[ -d .devlib ]] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$PWD/.devlib
# The tests name the executable and their data by the build machine's absolute paths.
if [[ "$PWD" != /work/main && ! -e /work/main ]]; then mkdir -p /work && ln -s "$PWD" /work/main; fi
{
  nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm,clocks.max.mem --format=csv || true
  grep -m1 "model name" /proc/cpuinfo; nproc
  ldd build/sloshlab build/bench/sloshlab_bench | grep "not found" || echo "every library found"
} 2>&1 | tee "$out/gpu.txt"
timeout 330 build/bench/sloshlab_bench --gpu "${filter[@]}" --threads 2 --seconds "$seconds" --markdown "$out/gpu_bench.md" 2>&1 |
  tee "$out/gpu_bench.log"
echo "bench exit: $?" | tee -a "$out/gpu_bench.log"
# The window's GPU work per frame at 100k to 1M particles, with the 1M surface as a picture.
timeout 240 build/bench/sloshlab_bench --gpu --filter window --threads 2 --markdown "$out/gpu_window.md" 2>&1 |
  tee -a "$out/gpu_bench.log"
echo "window exit: $?" | tee -a "$out/gpu_bench.log"
# The floating bodies' coupling: 0, 1, 10 and 100 balls on the bodies' tank (physics.md §16).
timeout 90 build/bench/sloshlab_bench --gpu --bodies --threads 2 --seconds 1 --markdown "$out/gpu_bodies.md" 2>&1 |
  tee -a "$out/gpu_bench.log"
echo "bodies exit: $?" | tee -a "$out/gpu_bench.log"
timeout 150 build/tests/sloshlab_gpu_tests --gtest_brief=1 2>&1 | tee "$out/gpu_tests.log"
echo "tests exit: $?" | tee -a "$out/gpu_tests.log"
