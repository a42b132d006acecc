#!/usr/bin/env bash
# Installs the Debian 12 packages sloshlab needs, only those that are missing.
# Usage: third_party/install_deps.sh [--no-gui] [--fuzz]
#   --no-gui  skip the window/GL packages (engine, CLI and tests without GUI).
#   --fuzz    add clang, its sanitizer/libFuzzer runtimes and LLVM's OpenMP (fuzz/run.sh).
set -euo pipefail

gui=1
fuzz=0
for arg in "$@"; do
  case "$arg" in
    --no-gui) gui=0 ;;
    --fuzz) fuzz=1 ;;
    *) echo "install_deps: unknown option '$arg' (known: --no-gui, --fuzz)" >&2; exit 2 ;;
  esac
done

# python3-vtk9 and python3-meshio: the outside readers the export test checks the VTK
# and PLY files with (tests/cli/check_export.py).
# pybind11-dev, python3-dev, python3-numpy: the Python module (python/); python3-pytest,
# python3-matplotlib, python3-nbclient, python3-ipykernel: its tests, the example script and
# notebook; slurm-wlm, munge: the sweep test's private single-node Slurm.
packages=(build-essential cmake pkg-config libglm-dev nlohmann-json3-dev libcli11-dev
          libgtest-dev libgmock-dev libbenchmark-dev libstb-dev python3-vtk9 python3-meshio
          pybind11-dev python3-dev python3-numpy python3-pytest python3-matplotlib python3-nbclient
          python3-ipykernel python3-nbformat slurm-wlm munge)
if ((fuzz)); then
  # libclang-rt-dev holds libFuzzer and the sanitizer runtimes; apt would only recommend it.
  packages+=(clang libclang-rt-dev libomp-dev)
fi
if ((gui)); then
  # ffmpeg: video recording (Record, --video) and ffprobe for its tests.
  # libegl-dev, libegl-mesa0: the GPU path's headless EGL context (Mesa's llvmpipe runs
  # its compute shaders where there is no GPU).
  packages+=(libglfw3-dev python3-glad libimgui-dev libgl1-mesa-dev libgl1-mesa-dri
             libegl-dev libegl-mesa0 libopengl-dev xvfb xauth xdotool ffmpeg)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
echo "install_deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
