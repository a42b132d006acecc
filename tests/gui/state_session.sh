#!/usr/bin/env bash
# Save and resume through the real window, run inside an X server (xvfb-run): the app
# starts from a state file, F5 saves the state about 1.5 s later, F9 goes back to it
# 1 s after that, and Esc closes the window 1 s later (writing --save-state if given).
# State files land in OUTDIR, the app's current directory.
# Usage: state_session.sh SLOSHLAB OUTDIR [APP ARGS...]
set -euo pipefail
source "$(dirname "$0")/session_lib.sh"
exe=$1
out=$2
shift 2
start_app "$out" 90 "$exe" --hide-ui "$@"
sleep 1.5
xdotool key F5
sleep 1
xdotool key F9
sleep 1
xdotool key Escape
finish_app "$out"
