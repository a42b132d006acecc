#!/usr/bin/env bash
# The fictitious forces through the real window (1280x800, UI scale 1), run inside an X
# server (xvfb-run): the 2D bottle in the container-frame view, turned by MOTION (a
# --motion CSV with an angle column); grab the screen (ffmpeg's x11grab) with the View
# panel's "Fictitious forces" off, tick it (x 1017, y 242), grab again, quit.
# Usage: frame_forces_session.sh SLOSHLAB OUTDIR MOTION [APP ARGS...]
set -euo pipefail
source "$(dirname "$0")/session_lib.sh"
exe=$1
out=$2
motion=$3
shift 3
start_app "$out" 60 "$exe" --scene bottle --container-frame --motion "$motion" "$@"
sleep 2
xdotool mousemove 640 700
grab_screen "$out/forces_off.png"
click_at 1017 242 1.5   # View: Fictitious forces
xdotool mousemove 640 700
sleep 0.3
grab_screen "$out/forces_on.png"
xdotool key Escape
finish_app "$out"
