#!/usr/bin/env bash
# Save and resume through the real window, run inside an X server (xvfb-run): the app
# starts from a state file, F5 saves the state about 1.5 s later, F9 goes back to it
# 1 s after that, and Esc closes the window 1 s later (writing --save-state if given).
# State files land in OUTDIR, the app's current directory.
# Usage: state_session.sh SLOSHLAB OUTDIR [APP ARGS...]
set -euo pipefail
exe=$1
out=$2
shift 2
(cd "$out" && timeout 90 "$exe" --hide-ui "$@" >"$out/app.log" 2>&1; echo $? >"$out/app.status") &
app=$!
timeout 30 xdotool search --sync --name "^sloshlab" >/dev/null
sleep 1.5
xdotool key F5
sleep 1
xdotool key F9
sleep 1
xdotool key Escape
wait "$app"
exit "$(cat "$out/app.status")"
