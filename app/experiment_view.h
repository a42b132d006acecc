// The running experiment in the view (the Experiments panel, experiments_panel.cpp).
//
// The panel's worker runs the experiment with an observer (sloshlab/experiments.h) that
// copies, at most 30 times per wall second, the running simulation's particles (world
// positions and velocities, the field the view colours by) and its container into
// ExperimentRun::live, and the measured curve so far into ExperimentRun::sofar, under
// ExperimentRun::mutex. The observer only reads, so the experiment measures what it
// measures headless. Each frame the UI thread takes a copy of the newest liquid and
// draws it in place of the paused simulation's, with a caption; when the run ends or is
// cancelled the view goes back to the simulation.
#pragma once

#include "app_state.h"

#include "sloshlab/experiments.h"

#include <glm/glm.hpp>

namespace sloshlab::app {

// Thrown from the worker's callbacks when Cancel was pressed.
struct ExperimentCancelled {};

// The observer of `run`'s worker (it throws ExperimentCancelled once run.cancel is set).
ExperimentObserver liveObserver(ExperimentRun& run);

// What the view draws this frame: while an experiment runs and has shown its liquid,
// that liquid (and a caption at the bottom left of `free`, window pixels, on ImGui's
// background list, so that screenshots and videos carry it); otherwise `snap`.
// `colourBy` chooses the field the worker copies from then on.
const Snapshot& experimentInView(ExperimentRun& run, const Snapshot& snap, ColourBy colourBy, const glm::vec4& free);

}  // namespace sloshlab::app
