// What the view itself says, over the particles and behind the panels: the colour
// legend in the free area's bottom-right corner, and the messages, stacked at the top
// of the free area (the failure banner, slow motion, recording, the hint) or at its
// bottom left (toasts). The legend is drawn on ImGui's background draw list, the
// messages on its foreground list, which gui_app.cpp renders below the windows and
// after any capture: they never cover a control, wherever the panels are, and never
// reach a screenshot or a video frame.
#include "format.h"
#include "panel_widgets.h"

#include <algorithm>
#include <string>
#include <vector>

namespace sloshlab::app {

namespace {

struct Line {
  std::string text;
  ImU32 colour;
};

// `lines` wrapped to `maxWidth` in a translucent box whose `pivot` (a fraction of its
// size) sits at `at`. Returns the box's top-left corner and size.
ImVec4 drawBox(ImDrawList* draw, ImVec2 at, ImVec2 pivot, float maxWidth, const std::vector<Line>& lines) {
  const ImVec2 pad = ImGui::GetStyle().WindowPadding;
  const float wrap = std::max(maxWidth - 2.0f * pad.x, em(4.0f));
  ImVec2 text(0.0f, 0.0f);
  for (const Line& l : lines) {
    const ImVec2 t = ImGui::CalcTextSize(l.text.c_str(), nullptr, false, wrap);
    text.x = std::max(text.x, t.x);
    text.y += t.y;
  }
  const ImVec2 box(text.x + 2.0f * pad.x, text.y + 2.0f * pad.y);
  const ImVec2 pos(at.x - pivot.x * box.x, at.y - pivot.y * box.y);
  draw->AddRectFilled(pos, ImVec2(pos.x + box.x, pos.y + box.y), IM_COL32(22, 24, 28, 200),
                      ImGui::GetStyle().WindowRounding);
  float y = pos.y + pad.y;
  for (const Line& l : lines) {
    draw->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(pos.x + pad.x, y), l.colour, l.text.c_str(), nullptr,
                  wrap);
    y += ImGui::CalcTextSize(l.text.c_str(), nullptr, false, wrap).y;
  }
  return ImVec4(pos.x, pos.y, box.x, box.y);
}

// The colour legend: the field's name and unit, the colour bar, its range.
ImVec4 drawLegend(ImDrawList* draw, const ViewSettings& v, ImVec2 bottomRight) {
  const ImVec2 pad = ImGui::GetStyle().WindowPadding;
  const FieldInfo& field = fieldInfo(v.colourBy);
  const std::string title = std::string(field.legend) + " (" + field.unit + ")";
  const std::string low = formatQuantity(static_cast<double>(v.low), "", 4);
  const std::string high = formatQuantity(static_cast<double>(v.high), "", 4);
  const float line = ImGui::GetTextLineHeight(), gap = ImGui::GetStyle().ItemSpacing.y;
  const float barHeight = em(0.9f);
  const float w = std::max({em(12.0f), ImGui::CalcTextSize(title.c_str()).x,
                            ImGui::CalcTextSize((low + "  " + high).c_str()).x});
  const ImVec2 box(w + 2.0f * pad.x, 2.0f * line + barHeight + 2.0f * gap + 2.0f * pad.y);
  const ImVec2 pos(bottomRight.x - box.x, bottomRight.y - box.y);
  draw->AddRectFilled(pos, ImVec2(pos.x + box.x, pos.y + box.y), IM_COL32(22, 24, 28, 170),
                      ImGui::GetStyle().WindowRounding);
  const ImU32 white = ImGui::GetColorU32(ImGuiCol_Text);
  const float x = pos.x + pad.x;
  float y = pos.y + pad.y;
  draw->AddText(ImVec2(x, y), white, title.c_str());
  y += line + gap;
  const int steps = 48;
  for (int k = 0; k < steps; ++k) {
    const auto c = render::colormapColour(v.colormap, (static_cast<float>(k) + 0.5f) / steps);
    draw->AddRectFilled(ImVec2(x + w * static_cast<float>(k) / steps, y),
                        ImVec2(x + w * static_cast<float>(k + 1) / steps, y + barHeight),
                        ImGui::GetColorU32(ImVec4(c[0], c[1], c[2], 1.0f)));
  }
  y += barHeight + gap;
  draw->AddText(ImVec2(x, y), white, low.c_str());
  draw->AddText(ImVec2(x + w - ImGui::CalcTextSize(high.c_str()).x, y), white, high.c_str());
  return ImVec4(pos.x, pos.y, box.x, box.y);
}

// Slow motion, once the measured factor has stayed below the speed asked for (by
// more than 5 %) for a second: the sim thread measures over half-second windows, so a
// change of speed or a reset settles within that. Once shown, the message stays two
// seconds, so that a solver near the threshold does not make it flicker. Returns the
// factor to show, 0 for none.
double slowMotion(AppState& state, const Snapshot& s, double now) {
  const bool behind = !s.paused && s.failure.empty() && s.simSecondsPerSecond > 0.0 &&
                      s.simSecondsPerSecond < 0.95 * s.speed;
  if (behind) {
    if (state.slowSince < 0.0) state.slowSince = now;
    if (now - state.slowSince >= 1.0) state.slowUntil = now + 2.0, state.slowFactor = s.simSecondsPerSecond;
  } else {
    state.slowSince = -1.0;
    if (s.paused || !s.failure.empty()) state.slowUntil = 0.0;
  }
  return now < state.slowUntil ? state.slowFactor : 0.0;
}

}  // namespace

void drawOverlays(PanelContext& ctx, double now) {
  const Snapshot& s = ctx.snapshot;
  AppState& state = ctx.state;
  const glm::vec4 free = ctx.layout.free;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  const float margin = em(0.5f);

  state.legendRect = glm::vec4(0.0f);
  float legendWidth = 0.0f;
  if (state.view.colourBy != ColourBy::Solid) {
    const ImVec4 r = drawLegend(draw, state.view, ImVec2(free.z - margin, free.w - margin));
    state.legendRect = glm::vec4(r.x, r.y, r.x + r.z, r.y + r.w);
    legendWidth = r.z + margin;
  }

  const double slow = slowMotion(state, s, now);
  draw = ImGui::GetForegroundDrawList();  // the messages: for the moment, not for the picture

  const ImU32 red = IM_COL32(255, 90, 77, 255), orange = IM_COL32(255, 178, 77, 255);
  const ImU32 white = ImGui::GetColorU32(ImGuiCol_Text);
  std::vector<std::vector<Line>> stack;
  if (!s.failure.empty())
    stack.push_back({{"Stopped: " + s.failure, red},
                     {"The simulation is paused. Press R to reset, or change the parameters and reset.", white}});
  if (!s.lastError.empty()) stack.push_back({{s.lastError, orange}});
  if (slow > 0.0) {
    char text[96];
    std::snprintf(text, sizeof text, "slow motion %.2fx: the solver cannot keep up with %.2fx", slow, s.speed);
    stack.push_back({{text, orange}});
  }
  if (s.recording) stack.push_back({{"recording the container's path", IM_COL32(255, 102, 102, 255)}});
  if (state.videoRecording) {
    char text[160];
    const double kB = 1e-3 * static_cast<double>(state.videoBytes);
    std::snprintf(text, sizeof text, "recording video: %.1f s, %.*f %s%s (V stops)", state.videoSeconds,
                  kB < 1e3 ? 0 : 1, kB < 1e3 ? kB : 1e-3 * kB, kB < 1e3 ? "kB" : "MB", s.paused ? ", paused" : "");
    stack.push_back({{text, IM_COL32(255, 102, 102, 255)}, {state.videoPath, white}});
  }
  if (!state.touched && !state.lecture && s.failure.empty()) {
    if (s.dim == 3)
      stack.push_back({{"Drag the bottle with the left mouse button; tilt it with the right button or the wheel.", white},
                       {"Shift + right button tips it towards you, Ctrl + right button spins it.", white}});
    else
      stack.push_back({{"Drag the bottle with the left mouse button; tilt it with the right button or the wheel.", white}});
  }
  const float width = free.z - free.x - 2.0f * margin;
  float y = free.y + margin;
  for (const auto& lines : stack)
    y += drawBox(draw, ImVec2(0.5f * (free.x + free.z), y), ImVec2(0.5f, 0.0f), width, lines).w + margin;

  if (!state.toast.empty() && now < state.toastUntil)
    drawBox(draw, ImVec2(free.x + margin, free.w - margin), ImVec2(0.0f, 1.0f), width - legendWidth,
            {{state.toast, white}});
}

}  // namespace sloshlab::app
