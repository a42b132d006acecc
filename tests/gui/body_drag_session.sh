#!/usr/bin/env bash
# A floating body held and pulled by the mouse through the real window (physics.md
# (16.10)), run inside an X server (xvfb-run): start the app on SCENE with the panels
# hidden and VTK exports, press at the window centre (where the scene puts its body),
# pull DX px to the right in ten moves, hold still for 2 s, release, let 0.3 simulated
# seconds pass, quit. The body's surface at each exported frame is in
# OUTDIR/export/bodies_<step>.vtp.
# Usage: body_drag_session.sh SLOSHLAB OUTDIR SCENE DX [APP ARGS...]
set -euo pipefail
source "$(dirname "$0")/session_lib.sh"
exe=$1
out=$2
scene=$3
dx=$4
shift 4
(cd "$out" && timeout 90 "$exe" --scene "$scene" --hide-ui --export "$out/export" --format vtk --every 10 "$@" \
   >"$out/app.log" 2>&1; echo $? >"$out/app.status") &
app=$!
timeout 30 xdotool search --sync --name "^sloshlab" >/dev/null
sleep 2
drag_right 640 400 "$dx" 0.03 2
sleep 1
xdotool key Escape
wait "$app"
exit "$(cat "$out/app.status")"
