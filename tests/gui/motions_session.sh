#!/usr/bin/env bash
# The Motions panel through the real window (1280x800, UI scale 1), run inside an X
# server (xvfb-run): open it from the Panels menu, play the default shake (20 mm at 1 Hz
# for 3 s) from the start, save it (OUTDIR/shake.csv); then record a live drag of the
# bottle 100 px to the right, stop, save it (OUTDIR/drag.csv), replay it from the start,
# and quit. The files land where the app runs (OUTDIR). The clicks hit the panel's
# buttons where the layout puts them (panels.cpp, motions_panel.cpp).
# Usage: motions_session.sh SLOSHLAB OUTDIR [APP ARGS...]
set -euo pipefail
source "$(dirname "$0")/session_lib.sh"
exe=$1
out=$2
shift 2
start_app "$out" 90 "$exe" --scene bottle "$@"
sleep 1.5
type_path() {  # replaces the path field's text (keys held across frames: ImGui 1.86 reads
  click_at 140 750   # key state once per frame, and a press and release within one are lost)
  press_key ctrl+a 0.1
  xdotool type --delay 40 "$1"
  press_key Return 0.3
}
click_at 25 10          # Panels
click_at 35 135         # Motions
click_at 80 645 1.0     # Play from the start (shake)
type_path shake.csv
click_at 31 773         # Save
click_at 39 706         # Record
drag_right 640 480 100 0.05
sleep 0.8
click_at 39 706         # Stop recording
type_path drag.csv
click_at 31 773         # Save
click_at 150 706 1.0    # Replay from the start
xdotool key Escape
finish_app "$out"
