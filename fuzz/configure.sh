#!/usr/bin/env bash
# Configures build-fuzz/: the one sanitized build (clang, AddressSanitizer, UBSan and
# libFuzzer's coverage instrumentation on every target, SLOSHLAB_FUZZ=ON; no window, no
# benchmarks, no Python). fuzz/run.sh builds the fuzz targets in it and
# tests/sanitize.sh the test executables, so the library is compiled once for both.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DSLOSHLAB_FUZZ=ON -DSLOSHLAB_GUI=OFF -DSLOSHLAB_TESTS=ON -DSLOSHLAB_BENCH=OFF >/dev/null
