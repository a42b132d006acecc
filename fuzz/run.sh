#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, SLOSHLAB_FUZZ=ON, in build-fuzz/) and runs each for
# SECONDS on a copy of its seed corpus, one after the other. Prints one line per target:
# executions, executions per second, corpus size, crashes. Exits 1 when any target found
# a crash; the crashing inputs are left in build-fuzz/findings/<target>/.
# Usage: fuzz/run.sh SECONDS     (FUZZ_JOBS=N sets the build's parallelism, default 2)
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-}"
if ! [[ "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: fuzz/run.sh SECONDS" >&2
  exit 2
fi

third_party/install_deps.sh --no-gui --fuzz
build=build-fuzz
fuzz/configure.sh  # shared with tests/sanitize.sh
cmake --build "$build" -j"${FUZZ_JOBS:-2}" --target fuzz_scene fuzz_motion fuzz_state fuzz_sweep make_state_seeds >/dev/null

# Seeds: the shipped scenes, small valid motion files, and state files of the shipped
# scenes written by this build (the format is versioned: seeds kept in the repository
# would go stale). fuzz/corpus/<target>/ also keeps every input that once crashed a
# loader, so it stays fixed.
states="$build/state-seeds"
rm -rf "$states" && mkdir -p "$states"
ASAN_OPTIONS=detect_leaks=0 "$build/fuzz/make_state_seeds" assets/scenes/*.json "$states" >/dev/null
declare -A seeds=([fuzz_scene]="assets/scenes fuzz/corpus/scene" [fuzz_motion]="fuzz/corpus/motion"
                  [fuzz_state]="$states fuzz/corpus/state" [fuzz_sweep]="examples/sweeps fuzz/corpus/sweep")
# The scene format's keys and names, so mutations build valid structure sooner.
declare -A options=([fuzz_scene]="-dict=fuzz/scene.dict" [fuzz_motion]="" [fuzz_state]="" [fuzz_sweep]="-dict=fuzz/sweep.dict")

export ASAN_OPTIONS="${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
failed=0
for target in fuzz_scene fuzz_motion fuzz_state fuzz_sweep; do
  work="$build/corpus/$target"
  findings="$build/findings/$target"
  rm -rf "$work" "$findings"
  mkdir -p "$work" "$findings"
  for dir in ${seeds[$target]}; do
    [[ -d "$dir" ]] && cp "$dir"/* "$work"/ 2>/dev/null || true
  done
  log="$build/$target.log"
  # -fork would keep going past a crash; one process stops at the first, which is what
  # CI wants. -rss_limit_mb guards the 2-core VM's memory.
  set +e
  # shellcheck disable=SC2086
  "$build/fuzz/$target" "$work" ${options[$target]} -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
    -print_final_stats=1 -artifact_prefix="$findings/" >"$log" 2>&1
  status=$?
  set -e
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n1)
  corpus=$(find "$work" -type f | wc -l)
  crashes=$(find "$findings" -type f | wc -l)
  printf '%-12s %s s: %s executions (%s/s), corpus %s, crashes %s\n' \
    "$target" "$seconds" "${execs:-?}" "${rate:-?}" "$corpus" "$crashes"
  if ((status != 0 || crashes > 0)); then
    failed=1
    echo "$target: exit status $status, see $log and $findings/" >&2
    grep -m1 -E "ERROR: |runtime error|deadly signal|uncaught exception|terminate called" "$log" >&2 || true
  fi
done
exit "$failed"
