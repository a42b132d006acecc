#!/usr/bin/env bash
# Builds the tests with AddressSanitizer and UBSan in build-fuzz/ (fuzz/configure.sh: clang,
# the build fuzz/run.sh uses, so that CI compiles the library once for both; no window,
# no benchmarks) and runs the unit tests, the command-line tests (which run
# the sanitized executable) and a short selection of the physics tests (built alone, as
# sloshlab_sanitize_physics_tests, to keep the build short): containment and
# the 1-vs-2-thread determinism for one particle solver (wcsph) and one grid solver
# (flip), the blow-up stops (every solver, NaN met mid-step), and pouring and draining
# (every solver in 2D: particles added, removed and reordered between steps), and the
# obstacles (every solver in 2D: pushed out of them, their samples and solid cells), and
# floating bodies shaken in FLIP (2D and 3D: the grid's face shares, pockets and coupled
# solve) and DFSPH (2D: the bodies' samples) and a grid's impulsively started ball. Fails on any failed test or any sanitizer report, the
# executables' under the command-line tests included (reports go to files, so a child
# process's report cannot hide in a test's expected failure).
# Usage: tests/sanitize.sh      (SANITIZE_JOBS=N sets the build's parallelism, default 2)
set -euo pipefail
cd "$(dirname "$0")/.."

third_party/install_deps.sh --no-gui --fuzz
build=build-fuzz
fuzz/configure.sh
cmake --build "$build" -j"${SANITIZE_JOBS:-2}" --target sloshlab sloshlab_unit_tests sloshlab_cli_tests \
  sloshlab_sanitize_physics_tests >/dev/null

reports="$PWD/$build/sanitizer-reports"
rm -rf "$reports"
mkdir -p "$reports"
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:log_path=$reports/asan"
# LLVM's OpenMP runtime keeps its threads' descriptors to the end: not our leak.
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$reports/ubsan"

physics='EverySolver/Containment.*/wcsph:EverySolver/Containment.*/flip'
physics+=':EverySolver/Determinism.*/wcsph:EverySolver/Determinism.*/flip:BlowUp.*:EverySolver/BlowUpEverySolver.*'
physics+=':EverySolver/PourEverySolver.*2D/*:Pour.*:EverySolver/ObstaclesEverySolver.*2D/*'
physics+=':ParticleSolvers/ShakenBodies.*/flip:ParticleSolvers/ShakenBodies.*2D/dfsph:GridSolvers/AddedMass.*2D/flip'
# Torricelli's 6,400 particles a solver and the side hole's 6,000: minutes under the sanitizers.
physics+='-Pour.OutflowFollowsTorricellisLaw:Pour.AJetFromASideHoleLandsTwiceTheRootOfHY0FromTheWall'
# The necked bottle's hard spheres and WCSPH take 8,000-13,000 steps: the others cover its code.
physics+=':*TumbledNeckedBottle2D/collisions:*TumbledNeckedBottle2D/wcsph'
failed=0
run() {
  local name=$1
  shift
  local start=$SECONDS status=0
  "$build/tests/$name" --gtest_brief=1 "$@" >"$build/$name.log" 2>&1 || status=$?
  local summary
  # A run stopped by a sanitizer has no summary line: that must not end the script
  # before it says so (set -e and pipefail).
  summary=$(grep -E '^\[  (PASSED|FAILED) ' "$build/$name.log" | tr '\n' ' ' || true)
  echo "sanitize: $name: ${summary:-no summary} ($((SECONDS - start)) s, exit $status)"
  if ((status != 0)); then
    failed=1
    tail -n 30 "$build/$name.log" >&2
  fi
}
run sloshlab_unit_tests
run sloshlab_cli_tests
run sloshlab_sanitize_physics_tests --gtest_filter="$physics"

if compgen -G "$reports/*" >/dev/null; then
  failed=1
  echo "sanitize: sanitizer reports:" >&2
  for f in "$reports"/*; do
    echo "== $f" >&2
    head -n 40 "$f" >&2
  done
fi
if ((failed)); then
  echo "sanitize: FAILED" >&2
  exit 1
fi
echo "sanitize: all clean"
