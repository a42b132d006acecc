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
