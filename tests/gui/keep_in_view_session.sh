#!/usr/bin/env bash
# A drag far past the panels through the real window, run inside an X server
# (xvfb-run): start the app with its panels shown and --frames/--screenshot, press on
# the bottle at the window centre, pull it DX px to the right, release, and let the app
# end by itself (its log names where the container is in the screenshot).
# Usage: keep_in_view_session.sh SLOSHLAB OUTDIR DX [APP ARGS...]
set -euo pipefail
source "$(dirname "$0")/session_lib.sh"
exe=$1
out=$2
dx=$3
shift 3
start_app "$out" 90 "$exe" --scene bottle --frames 150 --screenshot "$out/shot.png" "$@"
sleep 2
drag_right 640 450 "$dx" 0.015 0
finish_app "$out"
