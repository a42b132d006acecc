#!/usr/bin/env bash
# The switch keys through the real window, run inside an X server (xvfb-run): start the
# app with APP ARGS, press each key of KEYS (xdotool names, space-separated) in turn and
# print the window title once it has changed ("sloshlab - SCENE - SOLVER ND": the
# simulation thread has built the new simulation), or "unchanged" after 30 s; then Esc.
# Usage: keys_session.sh SLOSHLAB OUTDIR "KEYS" [APP ARGS...]
set -euo pipefail
exe=$1
out=$2
keys=$3
shift 3
(cd "$out" && timeout 240 "$exe" "$@" >"$out/app.log" 2>&1; echo $? >"$out/app.status") &
app=$!
timeout 30 xdotool search --sync --name "^sloshlab" >/dev/null
sleep 1
title() { xdotool getwindowname "$(xdotool search --name '^sloshlab' | head -n 1)"; }
for key in $keys; do
  before=$(title)
  xdotool key "$key"
  deadline=$((SECONDS + 30))
  while [[ $(title) == "$before" ]] && ((SECONDS < deadline)); do sleep 0.1; done
  now=$(title)
  [[ $now == "$before" ]] && echo "$key: unchanged" || echo "$key: $now"
done
xdotool key Escape
wait "$app"
exit "$(cat "$out/app.status")"
