// The windowed app: GLFW window with a GL 4.1 core context, Dear ImGui panels, the
// renderer, and the simulation running on its own thread.
#pragma once

#include "cli.h"

namespace sloshlab::app {

// Opens the window with the simulation the options describe and runs until the user
// quits (or --frames is reached). Returns the exit code; throws std::runtime_error
// with a one-line message when the window cannot be opened.
int runGui(const Options& options);

}  // namespace sloshlab::app
