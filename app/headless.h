// The headless runner: the engine without a window, for batch runs, validation and
// benchmarks.
#pragma once

#include "cli.h"

#include "sloshlab/simulation.h"

#include <memory>

namespace sloshlab::app {

// Builds the simulation the options describe (scene, solver, dimension, spacing,
// overrides, seed, motion). Throws std::runtime_error with a one-line message.
std::unique_ptr<Simulation> createSimulation(const Options& options);
// The same as a setup (without reading a state file): the base of --compare's panes.
SimulationSetup setupFromOptions(const Options& options);

// Runs to --time/--steps (default: the scene's duration), writing --stats and
// --export files; prints a summary. Returns the process exit code.
int runHeadless(const Options& options);

// --compare: every pane from the start to --time (default: the scene's duration) with
// the same --motion, one after the other; prints one line per pane. Returns 3 when a
// pane's solver failed (its line says why), else 0.
int runCompareHeadless(const Options& options);

// --experiment NAME: runs it, prints one line (the measurement, its reference, the
// error) and writes its curve to --stats. Returns the process exit code (3: the solver
// failed on the way).
int runExperimentHeadless(const Options& options);

// --list-scenes, --list-experiments and --list-params.
void printScenes();
void printExperiments();
void printParams(const Options& options);

}  // namespace sloshlab::app
