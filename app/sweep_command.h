// `sloshlab sweep FILE.json`: many runs from one file (sloshlab/sweep.h, docs/sweeps.md).
#pragma once

namespace sloshlab::app {

// argv[0] is "sweep". Returns the process exit code: 0 when every run asked for has
// finished (a solver that blew up is a finished run, its summary says so), 2 for bad
// input (one line, nothing written), 3 when a run could not run to its end.
int runSweepCommand(int argc, char** argv);

}  // namespace sloshlab::app
