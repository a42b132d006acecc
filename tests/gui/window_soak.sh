#!/usr/bin/env bash
# The window soak (issue 16, part 4): the real app under its own Xvfb (1280x800), driven
# for SECONDS seconds with random input from a fixed seed (printed first; SOAK_SEED
# changes it): drags of the bottle (fast throws, shakes, slow drags, fast
# moves stopped dead and held), tilts (right drag, wheel), orbits and zooms (3D),
# clicks and drags on the panels (the Solver panel's parameters and Method, the Scene
# panel's preset and 2D/3D, the playback speed, the View panel's colour combos), and
# the keys: [ ] D PageUp PageDown (solver, dimension, scene), Space N R, F5 F9 (save the
# state, go back to it), 1-4.
# Usage: window_soak.sh SECONDS OUTDIR [SLOSHLAB]   (SLOSHLAB: default build/sloshlab)
# SOAK_APP_ARGS: more arguments for the app (the start is --scene bottle), e.g. a
# solver set up to blow up, to see the soak go on past it.
#
# What fails it (exit 1, one line "window_soak: FAIL ..."):
# - a crash: the app's process is gone before the end, or it exits with a status
#   other than 0 (or 3 when the last solver was stopped, the app's own report), or
#   without its exit line ("sloshlab: N frames in ...");
# - a hang: the UI thread answers Ctrl+S with a new PNG every ~10 s (a sample), and the
#   simulation thread answers each switch key with a new window title (the title is
#   the published snapshot's scene, solver and dimension, so it changes only once the
#   simulation thread has built the new simulation); either not within 30 s is a hang;
#   so is the app not ending within 30 s of Esc;
# - memory growth. Resident memory (VmRSS) is sampled every ~10 s. The first 60 s
#   (SOAK_WARMUP_S; the ctest short form takes 10 of its 40) are a warm-up (the first
#   3D scenes, the solvers' buffers, the allocator's arenas for the OpenMP threads).
#   What the app holds depends on the configuration it runs, and glibc keeps freed
#   heap, so the check is on peaks: the largest sample of the second half of the run
#   (after the warm-up) may exceed the largest of the warm-up and the first half by at
#   most SOAK_RSS_BOUND_MB (default 40 MB). Why 40: the configurations span about
#   33 MB (the 2D bottle 102 MB, 3D PBF up to 135 MB, 1280x800 under Xvfb), and a run
#   of a few minutes does not visit all 80 of them (8 solvers, 5 scenes, 2D and 3D), so
#   a second half that meets the largest for the first time must pass. That catches
#   gross leaks only: about 0.3 MB per action, or 3 MB per rebuild (a half of the
#   6-minute run holds some 150 actions and 15 switches); the finer check is like for
#   like, in
#   bench/results/window_soak.md: D toggled 160 times on the bottle, RSS in 2D grew
#   0.2 MB from the 9th round trip to the 80th.
# A solver that blows up (or trips the energy watchdog) is caught by the app, which
# stops it and prints "sloshlab: stopped: ..."; random parameter edits do that now and
# then, and it is not a failure: the soak counts it and presses R (a solver stopped
# twice in a row without a switch is switched with ], which resets its parameters).
#
# Output in OUTDIR: window_soak.csv (one row per sample: t_s, rss_kb, scene, solver,
# dim, actions, switches, blowups, screenshot_ms), app.log and app.err, the
# screenshots, and summary.txt (the last line printed).
set -uo pipefail

seconds=${1:?usage: window_soak.sh SECONDS OUTDIR [SLOSHLAB]}
out=${2:?usage: window_soak.sh SECONDS OUTDIR [SLOSHLAB]}
here=$(cd "$(dirname "$0")" && pwd)
exe=${3:-$here/../../build/sloshlab}
seed=${SOAK_SEED:-16}
bound_mb=${SOAK_RSS_BOUND_MB:-40}
warmup=${SOAK_WARMUP_S:-60}

# Our own X server, whatever DISPLAY says.
if [[ -z ${WINDOW_SOAK_XVFB:-} ]]; then
  WINDOW_SOAK_XVFB=1 exec xvfb-run -a -s '-screen 0 1280x800x24' "$0" "$@"
fi

mkdir -p "$out"
out=$(cd "$out" && pwd)
exe=$(cd "$(dirname "$exe")" && pwd)/$(basename "$exe")
csv=$out/window_soak.csv
echo "window_soak: seed $seed, $seconds s, warm-up $warmup s, RSS bound $bound_mb MB, output in $out"
RANDOM=$seed

fail() {
  local line="window_soak: FAIL at t = $((SECONDS - start)) s: $*"
  echo "$line" | tee "$out/summary.txt"
  if [[ -n ${app:-} ]] && kill -0 "$app" 2>/dev/null; then kill -9 "$app" 2>/dev/null; fi
  exit 1
}

cd "$out" || exit 1
# A fresh, empty configuration: no remembered panel layout (app/layout_file.h) moves
# the panels the soak clicks at.
rm -rf "$out/config" && mkdir -p "$out/config"
# shellcheck disable=SC2086  # SOAK_APP_ARGS: words
XDG_CONFIG_HOME="$out/config" "$exe" --scene bottle ${SOAK_APP_ARGS:-} >"$out/app.log" 2>"$out/app.err" &
app=$!
start=$SECONDS
timeout 30 xdotool search --sync --name "^sloshlab" >/dev/null || fail "no window within 30 s"
sleep 2

# ---------------------------------------------------------------- helpers
# rnd VAR LO HI: VAR = an integer in [LO, HI] (no $(...): a subshell reseeds RANDOM).
rnd() { printf -v "$1" %d $((RANDOM % ($3 - $2 + 1) + $2)); }
title() { xdotool getwindowname "$(xdotool search --name '^sloshlab' | head -n 1)" 2>/dev/null; }
stopped_count() { grep -c '^sloshlab: stopped:' "$out/app.log"; }
alive() { kill -0 "$app" 2>/dev/null && ! grep -q '^State:.*Z' "/proc/$app/status" 2>/dev/null; }
check_alive() {
  alive && return
  wait "$app"
  fail "the app died with status $? ($(tail -n 2 "$out/app.err" | tr '\n' ' '))"
}

# The bottle's centre as the script last left it (pixels); drags start there and
# keep it inside a box around the view's centre, so that the next press lands on it.
bx=640 by=400
clamp_bottle() { ((bx < 520)) && bx=520; ((bx > 760)) && bx=760; ((by < 320)) && by=320; ((by > 480)) && by=480; }
home_bottle() { bx=640 by=400; }

actions=0 drags=0 tilts=0 orbits=0 edits=0 switches=0 keys=0 blowups=0 paused=0 stopped_since_switch=0
seen_stopped=0

# drag_path BUTTON DELAY_S X0 Y0 X1 Y1 ...: press at (X0, Y0), move through the points
# that follow, DELAY_S apart, release at the last. The release waits 0.1 s (three
# frames): ImGui 1.86 reads the mouse once a frame, and a move and a release in the
# same frame end a panel's move short of the last point (the Solver panel crept left).
drag_path() {
  local b=$1 d=$2
  shift 2
  xdotool mousemove "$1" "$2" mousedown "$b"
  shift 2
  while (($# >= 2)); do
    xdotool mousemove "$1" "$2"
    sleep "$d"
    shift 2
  done
  sleep 0.1
  xdotool mouseup "$b"
}

bottle_drag() {
  local kind=$((RANDOM % 5)) x0=$bx y0=$by pts=() i n dx=0 dy=0
  case $kind in
    0)  # throw: 6-10 fast moves (the bottle's spring follows the mouse, not its speed)
      rnd dx -150 150; rnd dy -90 90; rnd n 6 10
      for ((i = 1; i <= n; i++)); do pts+=($((x0 + dx * i / n)) $((y0 + dy * i / n))); done
      drag_path 1 0.01 "$x0" "$y0" "${pts[@]}" ;;
    1)  # shake: back and forth, ending where it began
      rnd dx 30 120; rnd n 2 6
      for ((i = 0; i < n; i++)); do pts+=($((x0 + dx)) "$y0" $((x0 - dx)) "$y0"); done
      pts+=("$x0" "$y0")
      drag_path 1 0.03 "$x0" "$y0" "${pts[@]}" ;;
    2)  # slow drag
      rnd dx -120 120; rnd dy -80 80; rnd n 20 40
      for ((i = 1; i <= n; i++)); do pts+=($((x0 + dx * i / n)) $((y0 + dy * i / n))); done
      drag_path 1 0.03 "$x0" "$y0" "${pts[@]}" ;;
    3)  # fast move stopped dead, held, released
      rnd dx -150 150; rnd dy -60 60; rnd n 3 9
      xdotool mousemove "$x0" "$y0" mousedown 1
      for i in 1 2 3 4 5; do xdotool mousemove $((x0 + dx * i / 5)) $((y0 + dy * i / 5)); sleep 0.01; done
      sleep "0.$n"
      xdotool mouseup 1 ;;
    4)  # back home
      n=8
      for ((i = 1; i <= n; i++)); do pts+=($((x0 + (640 - x0) * i / n)) $((y0 + (400 - y0) * i / n))); done
      drag_path 1 0.02 "$x0" "$y0" "${pts[@]}"
      dx=$((640 - x0)) dy=$((400 - y0)) ;;
  esac
  bx=$((x0 + dx)) by=$((y0 + dy))
  clamp_bottle
  ((drags++))
}

tilt() {
  local dx x y n
  rnd dx -120 120; rnd x 400 880; rnd y 150 650; rnd n 1 6
  if ((RANDOM % 2)); then
    drag_path 3 0.02 "$x" "$y" $((x + dx / 3)) "$y" $((x + 2 * dx / 3)) "$y" $((x + dx)) "$y"
  else
    xdotool mousemove "$x" "$y" click --repeat "$n" --delay 30 $((4 + RANDOM % 2))
  fi
  ((tilts++))
}

orbit() {  # middle drag, Alt+left drag, or Shift+wheel (zoom): the 3D camera
  local x y dx dy
  rnd x 350 930; rnd y 100 700; rnd dx -150 150; rnd dy -80 80
  case $((RANDOM % 3)) in
    0) drag_path 2 0.02 "$x" "$y" $((x + dx / 2)) $((y + dy / 2)) $((x + dx)) $((y + dy)) ;;
    1) xdotool keydown alt
       drag_path 1 0.02 "$x" "$y" $((x + dx / 2)) $((y + dy / 2)) $((x + dx)) $((y + dy))
       xdotool keyup alt ;;
    2) xdotool mousemove "$x" "$y" keydown shift click --repeat 2 $((4 + RANDOM % 2)) keyup shift ;;
  esac
  ((orbits++))
}

# Panels, at the layout of 1280x800 at UI scale 1 (tests/gui: no scale from Xvfb).
# Regions that would type text (Save scene as, the colour range), change the UI scale
# or the spacing (a 3D scene at 0.5 mm is millions of particles), or record a video
# are left alone.
panel_edit() {
  local x y x1 x2 y1 n
  rnd x 16 255; rnd y 480 785; rnd x1 16 255; rnd x2 16 255; rnd n 1 5
  case $((RANDOM % 8)) in
    0|1|2)  # a Solver panel parameter: a click (on a slider it sets the value there),
      # or a drag along a slider and back: a drag that starts beside a widget moves
      # the whole panel (ImGui), and ending where it began puts it back
      if ((RANDOM % 2)); then xdotool mousemove "$x" "$y" click 1
      else drag_path 1 0.03 "$x" "$y" $(((x + x1) / 2)) "$y" "$x1" "$y" $(((x + x1) / 2)) "$y" "$x" "$y"; fi ;;
    3)  # scroll the Solver panel to the parameters further down, or back up
      xdotool mousemove "$x" "$y" click --repeat "$n" $((4 + RANDOM % 2)) ;;
    4)  # the Method combo, then an item of its list
      rnd x 20 170; rnd x1 20 170; rnd y1 470 640
      xdotool mousemove "$x" 456 click 1
      sleep 0.2
      xdotool mousemove "$x1" "$y1" click 1 ;;
    5)  # the Scene panel's preset (the first items of its list) or 2D / 3D
      rnd x 20 170; rnd x1 20 170; rnd y1 264 326; rnd x2 18 100
      if ((RANDOM % 2)); then
        xdotool mousemove "$x" 253 click 1
        sleep 0.2
        xdotool mousemove "$x1" "$y1" click 1
      else
        xdotool mousemove "$x2" 319 click 1
      fi
      home_bottle ;;
    6)  # playback speed
      rnd x 20 190; rnd x1 20 190
      drag_path 1 0.02 "$x" 82 "$x1" 82 ;;
    7)  # the View panel's colour combos, then a click in their list (or beside it)
      rnd x 1012 1125; rnd x1 1012 1125; rnd y1 70 160
      xdotool mousemove "$x" "$(((RANDOM % 2) ? 59 : 82))" click 1
      sleep 0.2
      xdotool mousemove "$x1" "$y1" click 1 ;;
  esac
  ((edits++))
}

# A switch key, then wait for the title to change: the simulation thread has built
# the new simulation and published it.
switch_key() {
  local key=$1 before t0=$SECONDS
  before=$(title)
  xdotool mousemove 300 40 click 1 key "$key"  # the click ends any widget holding the keyboard
  until [[ $(title) != "$before" ]]; do
    ((SECONDS - t0 < 30)) || fail "no switch: '$key' left the title at '$before' for 30 s (a hang, or a new simulation the app refused: its message is in the view)"
    check_alive
    sleep 0.1
  done
  ((switches++))
  stopped_since_switch=0
  home_bottle
}

# Liveness of the UI thread: Ctrl+S writes a new PNG. First a click on empty space
# (ends any widget that holds the keyboard). Sets shot_ms: the time it took.
screenshot() {
  local n0 n t0
  xdotool mousemove 300 40 click 1
  n0=$(ls "$out"/*.png 2>/dev/null | wc -l)
  t0=$(date +%s%N)
  xdotool key ctrl+s
  while n=$(ls "$out"/*.png 2>/dev/null | wc -l); ((n <= n0)); do
    (($(date +%s%N) - t0 < 30000000000)) || fail "hang: no screenshot 30 s after Ctrl+S"
    check_alive
    sleep 0.1
  done
  shot_ms=$((($(date +%s%N) - t0) / 1000000))
}

rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$app/status" 2>/dev/null; }

echo "t_s,rss_kb,scene,solver,dim,actions,switches,blowups,screenshot_ms" >"$csv"
sample() {
  check_alive
  local rss t name scene solver dim
  screenshot
  rss=$(rss_kb)
  t=$((SECONDS - start))
  name=$(title)  # "sloshlab - SCENE - SOLVER ND"
  scene=$(sed -E 's/^sloshlab - (.*) - ([^ ]+) ([23])D$/\1/' <<<"$name")
  solver=$(sed -E 's/^sloshlab - (.*) - ([^ ]+) ([23])D$/\2/' <<<"$name")
  dim=$(sed -E 's/^sloshlab - (.*) - ([^ ]+) ([23])D$/\3/' <<<"$name")
  echo "$t,$rss,$scene,$solver,$dim,$actions,$switches,$blowups,$shot_ms" >>"$csv"
  echo "window_soak: t = $t s, RSS $((rss / 1024)) MB, $scene $solver ${dim}D, $actions actions, $switches switches, $blowups stopped"
}

# ---------------------------------------------------------------- the soak
sample
next_sample=$((SECONDS + 10))
while ((SECONDS - start < seconds)); do
  r=$((RANDOM % 100))
  if ((r < 30)); then bottle_drag
  elif ((r < 40)); then tilt
  elif ((r < 45)); then orbit
  elif ((r < 70)); then panel_edit
  elif ((r < 82)); then
    case $((RANDOM % 5)) in
      0) switch_key bracketleft ;; 1) switch_key bracketright ;; 2) switch_key d ;;
      3) switch_key Prior ;; 4) switch_key Next ;;
    esac
  elif ((r < 92)); then
    case $((RANDOM % 5)) in
      0) xdotool key space; paused=$((!paused)) ;;
      1) xdotool key n; paused=1 ;;
      2|3) xdotool key r; home_bottle ;;
      4) if ((RANDOM % 2)); then xdotool key F5; else xdotool key F9; home_bottle; fi ;;  # save, go back
    esac
    ((keys++))
  else
    xdotool key "$((RANDOM % 4 + 1))"
    ((keys++))
  fi
  ((actions++))
  rnd n 1 9
  sleep "0.$n"
  check_alive
  # Paused (N, Space) for a while: resume, so that the solvers keep running.
  if ((paused && RANDOM % 4 == 0)); then xdotool key space; paused=0; fi
  # A solver the app stopped: R, or a switch (which resets the parameters).
  n=$(stopped_count)
  if ((n > seen_stopped)); then
    blowups=$((blowups + n - seen_stopped)) seen_stopped=$n
    if ((++stopped_since_switch >= 2)); then switch_key bracketright; else xdotool key r; home_bottle; fi
  fi
  if ((SECONDS >= next_sample)); then
    sample
    next_sample=$((SECONDS + 10))
  fi
done
sample

# ---------------------------------------------------------------- the end
xdotool mousemove 300 40 click 1 key r
sleep 1
xdotool key Escape
t0=$SECONDS
while alive; do
  ((SECONDS - t0 < 30)) || fail "hang: the app did not end within 30 s of Esc"
  sleep 0.2
done
wait "$app"
status=$?
app=
grep -q '^sloshlab: [0-9]* frames in' "$out/app.log" || fail "no exit line (status $status; $(tail -n 2 "$out/app.err" | tr '\n' ' '))"
# Status 3: a solver stopped again just before Esc (R keeps the edited parameters), the
# app's own report. Every stop, to the last, is a line of the log.
if ((status != 0)) && ! { ((status == 3)) && grep -q '^sloshlab: error: solver' "$out/app.err"; }; then
  fail "exit status $status ($(tail -n 2 "$out/app.err" | tr '\n' ' '))"
fi
blowups=$(stopped_count)

# Memory: the second half after the warm-up against everything before it.
read -r first last max verdict <<<"$(awk -F, -v total=$((SECONDS - start)) -v warm="$warmup" -v bound=$((bound_mb * 1024)) '
  NR == 1 { next }
  { t = $1; rss = $2; if (first == "") first = rss; last = rss; if (rss > max) max = rss
    if (t < warm + (total - warm) / 2) { if (rss > early) early = rss } else if (t >= warm) { if (rss > late) late = rss; n++ } }
  END { v = (n == 0) ? "short" : (late > early + bound) ? sprintf("grew:%d:%d", early, late) : "flat"
        print first, last, max, v }' "$csv")"
figures="$actions actions ($drags drags, $tilts tilts, $orbits camera moves, $edits panel edits, $switches switches, $keys keys), $blowups solver stops caught; RSS first $((first / 1024)) MB, last $((last / 1024)) MB, max $((max / 1024)) MB"
if [[ $verdict == grew:* ]]; then
  IFS=: read -r _ early late <<<"$verdict"
  fail "memory grew: largest RSS of the second half $((late / 1024)) MB > $((early / 1024)) MB + $bound_mb MB; $figures"
fi
echo "window_soak: PASS $((SECONDS - start)) s, seed $seed: $figures; memory $verdict; exit status $status" | tee "$out/summary.txt"
