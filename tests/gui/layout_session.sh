#!/usr/bin/env bash
# The remembered panel layout through the real window (1280x800, UI scale 1), run
# inside an X server (xvfb-run): one XDG_CONFIG_HOME (OUTDIR/config) for two runs. The
# first drags the View panel by its title bar (x 1040, y 31) 400 px left and 300 px
# down, grabs the screen (moved.png) and quits, leaving config/sloshlab/imgui.ini,
# copied to first.ini; the second starts, grabs the screen (restarted.png) and quits,
# and its file is left in place.
# Usage: layout_session.sh SLOSHLAB OUTDIR [APP ARGS...]
set -euo pipefail
source "$(dirname "$0")/session_lib.sh"
exe=$1
out=$2
shift 2
export CONFIG_HOME="$out/config"
mkdir -p "$CONFIG_HOME"

start_app "$out" 60 "$exe" --scene bottle "$@"
sleep 1.5
xdotool mousemove 1040 31 mousedown 1
sleep 0.2
for i in 1 2 3 4 5 6 7 8 9 10; do
  xdotool mousemove $((1040 - 40 * i)) $((31 + 30 * i))
  sleep 0.05
done
sleep 0.2
xdotool mouseup 1
xdotool mousemove 640 760
sleep 0.8
grab_screen "$out/moved.png"
xdotool key Escape
wait "$app_pid"
[[ $(cat "$out/app.status") == 0 ]] || exit "$(cat "$out/app.status")"
cp "$CONFIG_HOME/sloshlab/imgui.ini" "$out/first.ini"

start_app "$out" 60 "$exe" --scene bottle "$@"
sleep 1.5
xdotool mousemove 640 760
sleep 0.3
grab_screen "$out/restarted.png"
xdotool key Escape
finish_app "$out"
