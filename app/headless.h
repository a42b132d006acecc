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

// --list-scenes and --list-params.
void printScenes();
void printParams(const Options& options);

}  // namespace sloshlab::app
