#!/usr/bin/env bash
# The Probes panel through the real window (1280x800, UI scale 1), inside an X server
# (xvfb-run), on the sloshing tank: open the panel from the Panels menu, place a wave
# gauge with a click near the left wall, switch to a pressure sensor and place it with a
# click low on the left wall, shake the bottle (a drag right and back), let it slosh,
# grab the screen (OUTDIR/probes.png), press Save (OUTDIR/probes.csv), quit.
# With DIM 3 the panel has a row for z below x, and the clicks go through the bottle's
# front glass: the gauge looks down into the left part of the tank, the sensor low left.
# Usage: probes_session.sh SLOSHLAB OUTDIR DIM [APP ARGS...]
set -euo pipefail
source "$(dirname "$0")/session_lib.sh"
exe=$1
out=$2
dim=$3
shift 3
start_app "$out" 90 "$exe" --scene sloshing_tank --solver apic --dim "$dim" "$@"
sleep 1.5
click_at 25 10      # Panels
click_at 45 186     # Probes
if [ "$dim" = 3 ]; then
  click_at 60 508   # Place with a click (a gauge)
  click_at 540 450  # through the front glass, left of the middle
  click_at 125 439  # Pressure sensor
  click_at 60 554   # Place with a click (rows for y and the radius came in above)
  click_at 520 500  # low on the left
else
  click_at 60 485   # Place with a click (a gauge)
  click_at 480 450  # on the bottle, near the left wall
  click_at 125 439  # Pressure sensor
  click_at 60 531   # Place with a click (rows for y and the radius came in above)
  click_at 476 520  # near the left wall, low
fi
drag_right 640 300 120 0.02 0.2
xdotool mousemove 640 300 mousedown 1
sleep 0.2
for i in $(seq 1 10); do xdotool mousemove $((640 - 12 * i)) 300; sleep 0.02; done
xdotool mouseup 1
sleep 3
grab_screen "$out/probes.png"
if [ "$dim" = 3 ]; then click_at 31 623; else click_at 31 600; fi  # Save (below the z row in 3D)
sleep 0.5
xdotool key Escape
finish_app "$out"
