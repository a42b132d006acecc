// Small pieces the panels share: sizes from the font, the help marker, panel placement.
#pragma once

#include "panels.h"

#include <imgui.h>

namespace sloshlab::app {

inline float em(float n) { return n * ImGui::GetFontSize(); }

// "(?)" after the last item, with `text` as its tooltip.
void helpMarker(const char* text);
// The width "(?)" takes after an item.
float helpMarkerWidth();

// Widgets with their label on the right: the width that leaves room for the longest
// of the panel's labels (and a help marker).
float itemWidthBeside(const char* longestLabel);

// Where every panel goes, in one table (panels.cpp, kPlaces): two columns that do not
// overlap, Playback, Scene and Solver on the left, View and Stats on the right, with
// `top` and `height` in font heights (height 0: to the bottom); the panels opened on
// purpose (Export, Motions, Experiments, Inspector) sit at the bottom of a column, over
// what is there, and opaque, so that they read cleanly. After a change of UI scale the
// panels are put back in place. Returns false when the panel is closed or collapsed.
enum class Column { Left, Right };
bool beginPanel(const char* name, bool* open, const PanelContext& ctx);

}  // namespace sloshlab::app
