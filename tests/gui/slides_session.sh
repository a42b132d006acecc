#!/usr/bin/env bash
# Lecture slides through the real window, run inside an X server (xvfb-run): start with
# --lecture LECTURE (it opens in the lecture view at slide 1), read the window's title,
# PageDown to slide 2 and read it again, press A (add the running state as a slide, which
# writes LECTURE), grab the screen (ffmpeg's x11grab), quit. Titles go to OUTDIR/titles.
# Usage: slides_session.sh SLOSHLAB OUTDIR LECTURE
set -euo pipefail
exe=$1
out=$2
lecture=$3
(cd "$out" && timeout 60 "$exe" --lecture "$lecture" >"$out/app.log" 2>&1; echo $? >"$out/app.status") &
app=$!
window=$(timeout 30 xdotool search --sync --name "^sloshlab" | head -n 1)
press() { xdotool keydown "$1"; sleep 0.1; xdotool keyup "$1"; sleep "${2:-1.0}"; }
sleep 1.5
xdotool getwindowname "$window" >"$out/titles"
press Next 2.0
xdotool getwindowname "$window" >>"$out/titles"
press a
ffmpeg -loglevel error -y -f x11grab -video_size 1280x800 -i "$DISPLAY" -frames:v 1 "$out/slides.png"
xdotool key Escape
wait "$app"
exit "$(cat "$out/app.status")"
