# Shared by the window-driving scripts (drag_session.sh, drag_measure.sh): wait until
# REST simulated seconds have passed since now, reading the simulated time of the
# newest exported frame from OUT/export/container.csv (0 before the first), for at most
# DEADLINE seconds of wall time. Usage: wait_simulated OUT REST DEADLINE
simulated_time() {
  local t
  t=$(tail -n 1 "$1/export/container.csv" 2>/dev/null | cut -d, -f2)
  [[ $t =~ ^[0-9.eE+-]+$ ]] && echo "$t" || echo 0
}

wait_simulated() {
  local out=$1 rest=$2 deadline=$((SECONDS + $3)) start
  start=$(simulated_time "$out")
  until awk -v t="$(simulated_time "$out")" -v t0="$start" -v r="$rest" 'BEGIN { exit !(t >= t0 + r) }'; do
    ((SECONDS < deadline)) || break
    sleep 0.2
  done
}

# Waits until the bottle has stood still for REST simulated seconds: from the first
# exported row of container.csv whose pose (every column after step and time) equals
# the newest row's, to the newest row. A pose that changes again starts the count anew,
# so the spring's settling after a release, however slowly the solver runs, is never
# counted as rest. At most DEADLINE seconds of wall time.
# Usage: wait_at_rest OUT REST DEADLINE
rested_time() {
  awk -F, 'NR > 1 { t[NR] = $2; p[NR] = ""; for (i = 3; i <= NF; ++i) p[NR] = p[NR] " " $i; n = NR }
    END { if (n < 2) { print 0; exit }
          k = n; while (k > 2 && same(p[k - 1], p[n])) --k
          print t[n] - t[k] }
    function same(a, b,   x, y, m, i) { m = split(a, x, " "); split(b, y, " ")
      for (i = 1; i <= m; ++i) if (x[i] - y[i] > 1e-6 || y[i] - x[i] > 1e-6) return 0
      return 1 }' "$1/export/container.csv" 2>/dev/null || echo 0
}

wait_at_rest() {
  local out=$1 rest=$2 deadline=$((SECONDS + $3))
  until awk -v t="$(rested_time "$out")" -v r="$rest" 'BEGIN { exit !(t >= r) }'; do
    ((SECONDS < deadline)) || break
    sleep 0.2
  done
}

# Starts the app with OUTDIR as its current directory, under `timeout LIMIT`, its output
# in OUTDIR/app.log and its exit status in OUTDIR/app.status, and waits for its window
# (at most 30 s). Each run gets a fresh, empty XDG_CONFIG_HOME (under OUTDIR), so that
# no remembered panel layout (app/layout_file.h) moves the panels the clicks aim at;
# set CONFIG_HOME to a directory to share one between runs.
# Usage: start_app OUTDIR LIMIT SLOSHLAB [APP ARGS...]; then finish_app OUTDIR.
start_app() {
  local out=$1 limit=$2 exe=$3 config
  shift 3
  config=${CONFIG_HOME:-$(mktemp -d "$out/config.XXXXXX")}
  (cd "$out" && XDG_CONFIG_HOME="$config" timeout "$limit" "$exe" "$@" >"$out/app.log" 2>&1
   echo $? >"$out/app.status") &
  app_pid=$!
  timeout 30 xdotool search --sync --name "^sloshlab" >/dev/null
}

# Waits for the app started by start_app and exits with its status.
finish_app() {
  wait "$app_pid"
  exit "$(cat "$1/app.status")"
}

# The screen as a projector shows it, to FILE (PNG): the app's own screenshots leave its
# overlays out. Usage: grab_screen FILE
grab_screen() {
  ffmpeg -loglevel error -y -f x11grab -draw_mouse 0 -video_size 1280x800 -i "$DISPLAY" -frames:v 1 "$1"
}

# A key held across frames (ImGui 1.86 reads key state once per frame, and a press and
# release within one are lost), then WAIT seconds. Usage: press_key KEY [WAIT]
press_key() {
  xdotool keydown "$1"
  sleep 0.1
  xdotool keyup "$1"
  sleep "${2:-0.8}"
}

# A left click at window pixel (X, Y), then WAIT seconds. Usage: click_at X Y [WAIT]
click_at() {
  xdotool mousemove "$1" "$2" click 1
  sleep "${3:-0.5}"
}

# A left drag from window pixel (X, Y), DX px to the right in ten moves PAUSE s apart,
# held still HOLD s after the press (so that the press is seen where it happened) and
# before the release. Usage: drag_right X Y DX [PAUSE [HOLD]]
drag_right() {
  local x=$1 y=$2 dx=$3 pause=${4:-0.03} hold=${5:-0.3}
  xdotool mousemove "$x" "$y" mousedown 1
  sleep "$hold"
  for i in $(seq 1 10); do
    xdotool mousemove $((x + dx * i / 10)) "$y"
    sleep "$pause"
  done
  sleep "$hold"
  xdotool mouseup 1
}
