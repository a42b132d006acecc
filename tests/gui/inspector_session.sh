#!/usr/bin/env bash
# The particle inspector through the real window (1280x800, UI scale 1), run inside an
# X server (xvfb-run): open it from the Panels menu, click a particle in the 2D bottle
# (x 600, y 500: below the surface, inside the liquid), let it run 2 s, grab the screen
# (ffmpeg's x11grab), quit.
# Usage: inspector_session.sh SLOSHLAB OUTDIR [APP ARGS...]
set -euo pipefail
source "$(dirname "$0")/session_lib.sh"
exe=$1
out=$2
shift 2
start_app "$out" 60 "$exe" --scene bottle "$@"
sleep 1.5
click_at 25 10     # Panels
click_at 45 169    # Inspector
click_at 600 500 2.0
xdotool mousemove 300 700
sleep 0.3
grab_screen "$out/inspector.png"
xdotool key Escape
finish_app "$out"
