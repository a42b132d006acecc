// Lecture mode (L): a projector view. The panels, the menu and the hint are hidden, and
// a heads-up display in large type shows the method and up to four figures or
// parameters pinned from the Stats and Solver panels (right-click a figure's name or a
// parameter's label: "Pin to the lecture view"). Ctrl + and Ctrl - change the UI scale.
#pragma once

#include "panels.h"

#include <string>

namespace sloshlab::app {

constexpr std::size_t kMaxPins = 4;

// A figure of the Stats panel ("Real time") or a solver parameter ("param:viscosity").
std::string figurePin(const std::string& name);
std::string paramPin(const std::string& key);

// After the item just drawn: its right-click menu pins it (or unpins it).
void pinMenu(AppState& state, const std::string& pin);

// Slides (lecture_file.h). showSlide: its scene, solver, dimension, parameters and motion
// as a new simulation, its view and pins, its caption in the heads-up display.
// addSlide (A in the lecture view): the running state appended and the file written.
// loadCheckedLecture: the file read, each slide's scene, solver and parameters checked
// (std::runtime_error naming the slide).
void showSlide(AppState& state, SimulationThread& sim, int index);
void addSlide(AppState& state);
Lecture loadCheckedLecture(const std::string& path);

// The heads-up display, drawn in the free area's top left in lecture mode.
void drawLectureHud(PanelContext& ctx);

}  // namespace sloshlab::app
