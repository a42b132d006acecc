#!/usr/bin/env bash
# One drag of the bottle through the real window and real input events, run inside
# an X server (xvfb-run): start the app, wait for its window, press on the container
# (at the window centre, where the 2D view puts it), pull it 250 px to the right in
# 150 ms, release, wait, quit with Esc.
# Usage: drag_session.sh SLOSHLAB OUTDIR
set -euo pipefail
exe=$1
out=$2
timeout 90 "$exe" --scene bottle --hide-ui --record-motion "$out/motion.csv" --export "$out/export" --every 40 \
  >"$out/app.log" 2>&1 &
app=$!
timeout 30 xdotool search --sync --name "^sloshlab" >/dev/null
sleep 2
xdotool mousemove 640 400 mousedown 1
for i in $(seq 1 10); do
  xdotool mousemove $((640 + 25 * i)) 400
  sleep 0.015
done
xdotool mouseup 1
sleep 2.5
xdotool key Escape
wait "$app"
