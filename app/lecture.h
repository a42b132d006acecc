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

// The heads-up display, drawn in the free area's top left in lecture mode.
void drawLectureHud(PanelContext& ctx);

}  // namespace sloshlab::app
