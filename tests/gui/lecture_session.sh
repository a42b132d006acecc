#!/usr/bin/env bash
# Lecture mode through the real window, run inside an X server (xvfb-run): start the
# app, press L, grab the screen as a projector shows it (ffmpeg's x11grab: the app's own
# screenshots leave its overlays out), press L again, grab again, quit.
# Usage: lecture_session.sh SLOSHLAB OUTDIR [APP ARGS...]
set -euo pipefail
source "$(dirname "$0")/session_lib.sh"
exe=$1
out=$2
shift 2
start_app "$out" 60 "$exe" "$@"
sleep 1.5
press_key l
grab_screen "$out/lecture.png"
press_key l
grab_screen "$out/panels.png"
xdotool key Escape
finish_app "$out"
