#!/usr/bin/env bash
# One measured drag of the bottle through the real window, run inside an X server
# (xvfb-run): start the app, wait for its window, press on the container at the window
# centre, hold still (so that the press is seen where it happened), pull it DX px to
# the right in ten moves, hold still, release, let REST simulated seconds pass (read
# from the export's container.csv; at most 60 s of wall time), quit. The bottle's path
# is in OUTDIR/export/container.csv.
# Usage: drag_measure.sh SLOSHLAB OUTDIR DX REST [APP ARGS...]
set -euo pipefail
source "$(dirname "$0")/session_lib.sh"
exe=$1
out=$2
dx=$3
rest=$4
shift 4
(cd "$out" && timeout 90 "$exe" --scene bottle --hide-ui --export "$out/export" --every 20 "$@" \
   >"$out/app.log" 2>&1; echo $? >"$out/app.status") &
app=$!
timeout 30 xdotool search --sync --name "^sloshlab" >/dev/null
sleep 2
drag_right 640 400 "$dx"
wait_simulated "$out" "$rest" 60
xdotool key Escape
wait "$app"
exit "$(cat "$out/app.status")"
