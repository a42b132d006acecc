#!/usr/bin/env bash
# Lecture slides through the real window, run inside an X server (xvfb-run): start with
# --lecture LECTURE (it opens in the lecture view at slide 1), read the window's title,
# PageDown to slide 2 and read it again, press A (add the running state as a slide, which
# writes LECTURE), grab the screen (ffmpeg's x11grab), quit. Titles go to OUTDIR/titles.
# Usage: slides_session.sh SLOSHLAB OUTDIR LECTURE
set -euo pipefail
source "$(dirname "$0")/session_lib.sh"
exe=$1
out=$2
lecture=$3
(cd "$out" && timeout 60 "$exe" --lecture "$lecture" >"$out/app.log" 2>&1; echo $? >"$out/app.status") &
app=$!
window=$(timeout 30 xdotool search --sync --name "^sloshlab" | head -n 1)
sleep 1.5
xdotool getwindowname "$window" >"$out/titles"
press_key Next 2.0
xdotool getwindowname "$window" >>"$out/titles"
press_key a 1.0
grab_screen "$out/slides.png"
xdotool key Escape
wait "$app"
exit "$(cat "$out/app.status")"
