#!/usr/bin/env bash
# Spins and tips the 3D bottle through the real window (xdotool): a right drag 100 px to
# the right with Ctrl held (about the vertical), then a right drag 60 px down the screen
# with Shift held (about the camera's horizontal axis); the screen grabbed after each
# (spin.png, tip.png in OUTDIR), a screenshot (Ctrl+S) once the bottle has stood still for REST
# simulated seconds, then quit. The export (OUTDIR/export, every EVERY steps) keeps the
# container's angles and the particles.
# Usage: turn3d_session.sh SLOSHLAB OUTDIR [REST [EVERY [APP ARGS...]]]
set -euo pipefail
source "$(dirname "$0")/session_lib.sh"
exe=$1
out=$2
rest=${3:-1.0}
every=${4:-20}
shift $(( $# < 4 ? $# : 4 ))

# A right drag from (X, Y) by (DX, DY) in ten moves, with MODIFIER held throughout.
modified_right_drag() {
  local modifier=$1 x=$2 y=$3 dx=$4 dy=$5
  xdotool mousemove "$x" "$y"
  xdotool keydown "$modifier"
  sleep 0.2
  xdotool mousedown 3
  sleep 0.3
  for i in $(seq 1 10); do
    xdotool mousemove $((x + dx * i / 10)) $((y + dy * i / 10))
    sleep 0.05
  done
  sleep 0.3
  xdotool mouseup 3
  sleep 0.1
  xdotool keyup "$modifier"
}

start_app "$out" 150 "$exe" --scene bottle --dim 3 --hide-ui --export "$out/export" --every "$every" "$@"
sleep 2
modified_right_drag ctrl 640 400 100 0
wait_simulated "$out" 1.0 40
grab_screen "$out/spin.png"
modified_right_drag shift 640 400 0 60
wait_simulated "$out" 1.0 40
grab_screen "$out/tip.png"
wait_at_rest "$out" "$rest" 60
xdotool key ctrl+s
sleep 0.5
xdotool key Escape
finish_app "$out"
