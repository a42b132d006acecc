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

// Runs to --time/--steps (default: the scene's duration), writing --stats and
// --export files; prints a summary. Returns the process exit code.
int runHeadless(const Options& options);

// --experiment NAME: runs it, prints one line (the measurement, its reference, the
// error) and writes its curve to --stats. Returns the process exit code (3: the solver
// failed on the way).
int runExperimentHeadless(const Options& options);

// --list-scenes, --list-experiments and --list-params.
void printScenes();
void printExperiments();
void printParams(const Options& options);

}  // namespace sloshlab::app
