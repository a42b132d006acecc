#!/usr/bin/env bash
# Captures through the real window, run inside an X server (xvfb-run): two Ctrl+S
# 100 ms apart (in the same second, as a rule: the names must still differ), then V
# to record a video, V again about 2 s later to stop it, and Esc. Pictures and video
# land in OUTDIR, the app's current directory.
# Usage: capture_session.sh SLOSHLAB OUTDIR [APP ARGS...]
set -euo pipefail
exe=$1
out=$2
shift 2
(cd "$out" && timeout 90 "$exe" --scene bottle --hide-ui "$@" >"$out/app.log" 2>&1; echo $? >"$out/app.status") &
app=$!
timeout 30 xdotool search --sync --name "^sloshlab" >/dev/null
sleep 1
xdotool key --delay 100 ctrl+s ctrl+s
sleep 0.5
xdotool key v
sleep 2
xdotool key v
sleep 0.5
xdotool key Escape
wait "$app"
exit "$(cat "$out/app.status")"
