#!/usr/bin/env bash
# The Experiments panel through the real window (1280x800, UI scale 1), run inside an X
# server (xvfb-run): open it from the Panels menu, run its first experiment (the dam
# break with WCSPH in 2D), wait for it, grab the screen (ffmpeg's x11grab), quit.
# Usage: experiment_session.sh SLOSHLAB OUTDIR [APP ARGS...]
set -euo pipefail
source "$(dirname "$0")/session_lib.sh"
exe=$1
out=$2
shift 2
start_app "$out" 90 "$exe" --scene bottle "$@"
sleep 1.5
click_at 25 10     # Panels
click_at 45 152    # Experiments
click_at 1021 512  # Run
sleep "${EXPERIMENT_WAIT:-8}"
grab_screen "$out/experiment.png"
xdotool key Escape
finish_app "$out"
