#!/bin/sh
# The soak's long form: every solver in 2D and 3D at the bottle's own spacing, random
# violent motion and 2 s calm periods, for MINUTES of wall time per solver and
# dimension (the short form, 3 cycles at 1.5x the spacing, runs in ctest as
# Soak.EverySolverShortForm). Prints a table; exit 1 when a check failed.
#
#   tests/soak.sh [MINUTES [BUILD_DIR]]
set -eu
minutes=${1:-10}
build=${2:-build}
exe="$build/tests/sloshlab_soak"
[ -x "$exe" ] || { echo "tests/soak.sh: error: no $exe (build first)" >&2; exit 2; }
echo "Machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; $minutes min per case"
exec "$exe" --minutes "$minutes"
