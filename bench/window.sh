#!/bin/sh
# The window's speed with every solver's default bottle, in 2D and 3D: the app under
# Xvfb (a software rasteriser, which takes CPU from the solver) for FRAMES frames with
# its panels shown, as a user first sees it. Prints particles, the real-time factor
# from the app's exit line (simulated s per wall s at Speed 1x, and its slowest
# half-second after the first second) and the UI's frame rate.
#
#   bench/window.sh [BUILD_DIR [FRAMES [SOLVERS...]]]
#
# VIEW=surface|particles|both picks what the view shows (--view; default: the app's,
# the surface).
#
# Run it alone on the machine; it takes about FRAMES/30 + 2 s per case.
set -eu
build=${1:-build}
frames=${2:-300}
[ $# -gt 2 ] && shift 2 || set --
solvers=${*:-collisions toy wcsph dfsph pbf pic flip apic}
exe="$build/sloshlab"
[ -x "$exe" ] || { echo "bench/window.sh: error: no executable $exe (build first)" >&2; exit 2; }
command -v xvfb-run >/dev/null || { echo "bench/window.sh: error: xvfb-run is missing (third_party/install_deps.sh)" >&2; exit 2; }
view=${VIEW:-surface}
case "$view" in surface|particles|both) ;; *) echo "bench/window.sh: error: VIEW must be surface, particles or both, not '$view'" >&2; exit 2 ;; esac
echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; $frames frames per case, 1280x800 under Xvfb, --view $view"
echo
echo "| solver | dim | particles | sim s / wall s | slowest half-second | UI fps | solver steps/s |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for dim in 2 3; do
  for solver in $solvers; do
    particles=$("$exe" --headless --solver "$solver" --dim "$dim" --steps 0 2>&1 | sed -n 's/.*, \([0-9]*\) particles,.*/\1/p')
    line=$(xvfb-run -a -s "-screen 0 1280x800x24" "$exe" --no-layout-file --view "$view" --solver "$solver" --dim "$dim" --frames "$frames" 2>&1 | grep 'simulated s per wall s' || true)
    fps=$(echo "$line" | sed -n 's/.*(\([0-9.]*\) fps).*/\1/p')
    steps=$(echo "$line" | sed -n 's/.*solver \([0-9]*\) steps\/s.*/\1/p')
    factor=$(echo "$line" | sed -n 's/.*, \([0-9.]*\) simulated s per wall s.*/\1/p')
    slowest=$(echo "$line" | sed -n 's/.*slowest half-second \([0-9.]*\) of.*/\1/p')
    echo "| $solver | ${dim}D | $particles | ${factor:-failed} | ${slowest:-} | ${fps:-} | ${steps:-} |"
  done
done
