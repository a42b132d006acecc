#!/usr/bin/env bash
# The inspector's body view through the real window (1280x800, UI scale 1), run inside an
# X server (xvfb-run): start SCENE (a floating body at the window's centre), let it
# settle 3 s, open the Inspector from the Panels menu, press and release on the body at
# (640, Y), let 1 s pass, grab the screen (ffmpeg's x11grab), quit.
# Usage: body_inspector_session.sh SLOSHLAB OUTDIR SCENE Y [APP ARGS...]
set -euo pipefail
source "$(dirname "$0")/session_lib.sh"
exe=$1
out=$2
scene=$3
y=$4
shift 4
start_app "$out" 60 "$exe" --scene "$scene" "$@"
sleep 3
click_at 25 10     # Panels
click_at 45 169    # Inspector
click_at 640 "$y" 1.0
xdotool mousemove 300 700
sleep 0.3
grab_screen "$out/body_inspector.png"
xdotool key Escape
finish_app "$out"
