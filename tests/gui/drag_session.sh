#!/usr/bin/env bash
# One drag of the bottle through the real window and real input events, run inside
# an X server (xvfb-run): start the app, wait for its window, press on the container
# (at the window centre, where the view puts it in 2D and 3D), pull it 250 px to the
# right in 150 ms, release, let it run until the bottle has stood still for REST
# simulated seconds (read from the export's container.csv, which grows a row per
# exported frame; at most 90 s of wall time), save a screenshot (Ctrl+S, into OUTDIR), quit.
# Usage: drag_session.sh SLOSHLAB OUTDIR [REST [EVERY [APP ARGS...]]]
set -euo pipefail
source "$(dirname "$0")/session_lib.sh"
exe=$1
out=$2
rest=${3:-2.5}
every=${4:-40}
shift $(( $# < 4 ? $# : 4 ))
(cd "$out" && timeout 120 "$exe" --scene bottle --hide-ui --record-motion "$out/motion.csv" \
   --export "$out/export" --every "$every" "$@" >"$out/app.log" 2>&1; echo $? >"$out/app.status") &
app=$!
timeout 30 xdotool search --sync --name "^sloshlab" >/dev/null
sleep 2
drag_right 640 400 250 0.015 0
wait_at_rest "$out" "$rest" 90
xdotool key ctrl+s
sleep 0.5
xdotool key Escape
wait "$app"
exit "$(cat "$out/app.status")"
