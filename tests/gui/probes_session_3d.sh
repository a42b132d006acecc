#!/usr/bin/env bash
# probes_session.sh in 3D: the same panel (a row for z below x), the clicks through the
# bottle's front glass: a gauge looking down into the left part of the tank, a pressure
# sensor low on the left; shake, let it slosh, grab the screen, Save, quit.
# Usage: probes_session_3d.sh SLOSHLAB OUTDIR [APP ARGS...]
set -euo pipefail
source "$(dirname "$0")/session_lib.sh"
exe=$1
out=$2
shift 2
start_app "$out" 90 "$exe" --scene sloshing_tank --solver apic --dim 3 "$@"
sleep 1.5
click_at 25 10      # Panels
click_at 45 186     # Probes
click_at 60 508     # Place with a click (a gauge)
click_at 540 450    # through the front glass, left of the middle
click_at 125 439    # Pressure sensor
click_at 60 554     # Place with a click (rows for y and the radius came in above)
click_at 520 500    # low on the left
drag_right 640 300 120 0.02 0.2
xdotool mousemove 640 300 mousedown 1
sleep 0.2
for i in $(seq 1 10); do xdotool mousemove $((640 - 12 * i)) 300; sleep 0.02; done
xdotool mouseup 1
sleep 3
grab_screen "$out/probes.png"
click_at 31 623     # Save (below the z row)
sleep 0.5
xdotool key Escape
finish_app "$out"
