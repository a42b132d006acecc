#!/usr/bin/env bash
# Side by side through the real window, run inside an X server (xvfb-run): start the
# app (give it --compare and --hide-ui), grab the screen, press on the right pane's
# bottle at (X, Y), pull it DX px to the right in ten moves, hold, release, let the
# follow spring settle, grab again, quit.
# Usage: compare_session.sh SLOSHLAB OUTDIR X Y DX [APP ARGS...]
set -euo pipefail
source "$(dirname "$0")/session_lib.sh"
exe=$1
out=$2
x=$3
y=$4
dx=$5
shift 5
start_app "$out" 90 "$exe" "$@"
sleep 2
grab_screen "$out/before.png"
drag_right "$x" "$y" "$dx"
sleep 2.5
grab_screen "$out/after.png"
xdotool key Escape
finish_app "$out"
