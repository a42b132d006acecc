#!/usr/bin/env bash
# Lecture mode through the real window, run inside an X server (xvfb-run): start the
# app, press L, grab the screen as a projector shows it (ffmpeg's x11grab: the app's own
# screenshots leave its overlays out), press L again, grab again, quit.
# Usage: lecture_session.sh SLOSHLAB OUTDIR [APP ARGS...]
set -euo pipefail
exe=$1
out=$2
shift 2
(cd "$out" && timeout 60 "$exe" "$@" >"$out/app.log" 2>&1; echo $? >"$out/app.status") &
app=$!
timeout 30 xdotool search --sync --name "^sloshlab" >/dev/null
sleep 1.5
grab() { ffmpeg -loglevel error -y -f x11grab -video_size 1280x800 -i "$DISPLAY" -frames:v 1 "$out/$1"; }
press() { xdotool keydown "$1"; sleep 0.1; xdotool keyup "$1"; sleep 0.8; }
press l
grab lecture.png
press l
grab panels.png
xdotool key Escape
wait "$app"
exit "$(cat "$out/app.status")"
