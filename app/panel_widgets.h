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

// Panels start in two columns that do not overlap: Playback, Scene and Solver on the
// left, View and Stats on the right; `top` and `height` in font heights (0: to the
// bottom). After a change of UI scale they are put back in place.
enum class Column { Left, Right };
bool beginPanel(const char* name, bool* open, Column column, float top, float height, const PanelContext& ctx);
// A panel opened on purpose (Export, Motions): `height` font heights at the bottom of
// its column, over what is there, and opaque, so that it reads cleanly over it.
bool beginBottomPanel(const char* name, bool* open, Column column, float height, const PanelContext& ctx);

}  // namespace sloshlab::app
