#!/usr/bin/env bash
# The Experiments panel through the real window (1280x800, UI scale 1), run inside an X
# server (xvfb-run): open it from the Panels menu and grab the screen (the bottle), run
# its first experiment (the dam break with WCSPH in 2D) while recording the screen for
# RECORD_S seconds at 10 frames a second (running_NN.png: the run takes about a second,
# so some frames catch it, with the dam-break tank in the view and the curve so far in
# the panel), wait for it to end, grab the screen (ffmpeg's x11grab), quit.
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
grab_screen "$out/before.png"
ffmpeg -loglevel error -y -f x11grab -draw_mouse 0 -framerate 10 -video_size 1280x800 -i "$DISPLAY" \
  -t "${RECORD_S:-4}" "$out/running_%02d.png" &
recorder=$!
sleep 0.3
click_at 1021 512 0  # Run
wait "$recorder"
sleep "${EXPERIMENT_WAIT:-4}"
grab_screen "$out/experiment.png"
xdotool key Escape
finish_app "$out"
