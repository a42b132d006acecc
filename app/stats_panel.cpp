// The Stats panel: how fast the solver runs, the state of the liquid and the
// solver's own figures, time per phase, and plots of the recent history. In 2D the
// extensive quantities are per metre of depth (kg/m, J/m).
#include "format.h"
#include "lecture.h"
#include "panel_widgets.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace sloshlab::app {

void History::add(const StepStats& stats, int dim) {
  auto push = [](std::deque<float>& q, double v) {
    q.push_back(static_cast<float>(v));
    if (q.size() > kLength) q.pop_front();
  };
  if (!time.empty() && stats.time < time.back()) clear();  // a reset
  push(time, stats.time);
  push(kinetic, stats.kineticEnergy);
  push(total, stats.kineticEnergy + stats.potentialEnergy);
  push(momentum, glm::length(stats.momentum));
  push(angular, dim == 2 ? stats.angularMomentum.z : glm::length(stats.angularMomentum));
  const double volume = stats.solver.liquidVolume;
  if (std::isfinite(volume) && firstVolume == 0.0) firstVolume = volume;
  push(volumeDrift, std::isfinite(volume) && firstVolume > 0.0 ? 100.0 * (volume / firstVolume - 1.0) : 0.0);
  push(densityError, std::isnan(stats.solver.densityErrorMax) ? 0.0 : 100.0 * stats.solver.densityErrorMax);
  push(divergence, std::isnan(stats.solver.divergenceMax) ? 0.0 : stats.solver.divergenceMax);
  push(dt, stats.dt);
  push(mass, stats.mass);
}

void History::add(const Snapshot& s) {
  add(s.stats, s.dim);  // clears everything after a reset
  // The mass at the start, from the first sample: what was held, less what came in, plus
  // what went out by then.
  if (startMass < 0.0) startMass = s.stats.mass - s.pour.massIn + s.pour.massOut;
  massIn.push_back(static_cast<float>(s.pour.massIn));
  massOut.push_back(static_cast<float>(s.pour.massOut));
  if (massIn.size() > kLength) massIn.pop_front(), massOut.pop_front();
}

void History::clear() {
  for (auto* q : {&time, &kinetic, &total, &momentum, &angular, &densityError, &divergence, &volumeDrift, &dt, &mass,
                  &massIn, &massOut})
    q->clear();
  firstVolume = 0.0;
  startMass = -1.0;
}

namespace {

// In the container's frame the box is [-size/2, size/2] about its centre; positions come
// as floats, so a particle on a wall may read a few float roundings outside.
constexpr double kSlack = 1e-5;  // m

Vec3 localPosition(const Snapshot& s, std::size_t i) {
  const ContainerState& c = s.container;
  const Vec3 world(s.positions[3 * i], s.positions[3 * i + 1], s.dim == 3 ? s.positions[3 * i + 2] : c.pose.position.z);
  return glm::transpose(c.pose.rotation()) * (world - c.pose.position);
}

bool inSpout(const Snapshot& s, const Vec3& local) {
  const PourStats& o = s.pour;
  if (!o.outletInWall || !o.outletOn) return false;
  const int a = o.outletAxis;
  const double half = 0.5 * s.container.size[a];
  const double past = o.outletSide == 0 ? -half - local[a] : local[a] - half;
  return past > 0.0 && past <= o.outletSpout + kSlack;
}

}  // namespace

bool inOutletSpout(const Snapshot& s, std::size_t i) { return inSpout(s, localPosition(s, i)); }

std::size_t particlesOutside(const Snapshot& s) {
  const Vec3& size = s.container.size;
  std::size_t outside = 0;
  for (std::size_t i = 0; 3 * i + 2 < s.positions.size(); ++i) {
    const Vec3 local = localPosition(s, i);
    bool in = std::abs(local.x) <= 0.5 * size.x + kSlack && std::abs(local.y) <= 0.5 * size.y + kSlack;
    if (s.dim == 3) in = in && std::abs(local.z) <= 0.5 * size.z + kSlack;
    outside += !(in || inSpout(s, local));  // the jet in the outlet's spout is held (14.3)
  }
  return outside;
}

namespace {

// A full-width plot with its name and latest value written on it; hovering reads off
// the time and the value under the mouse.
void plot(const char* name, const std::deque<float>& values, const std::deque<float>& time, const char* unit,
          AppState* pinTo = nullptr, const char* pin = nullptr) {
  if (values.empty()) return;
  std::vector<float> v(values.begin(), values.end());
  const std::string overlay = std::string(name) + " " + formatQuantity(static_cast<double>(v.back()), unit);
  ImGui::PushID(name);
  ImGui::PlotLines("##plot", v.data(), static_cast<int>(v.size()), 0, overlay.c_str(), FLT_MAX, FLT_MAX,
                   ImVec2(ImGui::GetContentRegionAvail().x, em(2.2f)));  // 1.86 takes no negative width here
  if (ImGui::IsItemHovered() && v.size() == time.size() && v.size() > 1) {
    const float x0 = ImGui::GetItemRectMin().x, width = ImGui::GetItemRectSize().x;
    const float u = std::clamp((ImGui::GetIO().MousePos.x - x0) / std::max(width, 1.0f), 0.0f, 1.0f);
    const std::size_t k = std::min(v.size() - 1, static_cast<std::size_t>(u * static_cast<float>(v.size() - 1) + 0.5f));
    ImGui::SetTooltip("t = %.3f s: %s %s", static_cast<double>(time[k]), name,
                      formatQuantity(static_cast<double>(v[k]), unit).c_str());
  }
  if (pinTo && pin) pinMenu(*pinTo, figurePin(pin));
  ImGui::PopID();
}

// A row of the figures table: the name (with a help marker when `help` is given),
// then the value wrapped within its column.
void row(AppState& state, const char* name, const std::string& value, const ImVec4* colour = nullptr,
         const char* help = nullptr) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(name);
  if (*name) pinMenu(state, figurePin(name));  // right-click: the lecture view shows it (lecture.h)
  if (help) helpMarker(help);
  ImGui::TableNextColumn();
  if (colour) ImGui::PushStyleColor(ImGuiCol_Text, *colour);
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(value.c_str());
  ImGui::PopTextWrapPos();
  if (colour) ImGui::PopStyleColor();
}

// The panes' colours in the overlaid plots and their legend.
ImU32 paneColour(std::size_t k) {
  static const ImU32 colours[] = {IM_COL32(90, 170, 255, 255), IM_COL32(255, 150, 60, 255),
                                  IM_COL32(110, 220, 120, 255), IM_COL32(235, 95, 200, 255)};
  return colours[k % 4];
}

// Side by side: one plot with every pane's curve of `series` over the common time
// axis, scaled together; hovering reads each pane's value.
void overlaidPlot(const char* name, const std::vector<History>& panes, std::deque<float> History::*series,
                  const char* unit) {
  float lo = FLT_MAX, hi = -FLT_MAX;
  for (const History& h : panes)
    for (float v : h.*series) lo = std::min(lo, v), hi = std::max(hi, v);
  if (lo > hi) return;
  // A steady curve (all panes at one value, within float rounding) is drawn mid-height.
  const bool steady = hi - lo <= 1e-6f * std::max(std::abs(lo), std::abs(hi));
  if (steady) lo -= 1.0f, hi += 1.0f;
  const ImVec2 size(ImGui::GetContentRegionAvail().x, em(3.0f));
  const ImVec2 p0 = ImGui::GetCursorScreenPos(), p1(p0.x + size.x, p0.y + size.y);
  ImGui::InvisibleButton(name, size);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(p0, p1, ImGui::GetColorU32(ImGuiCol_FrameBg));
  const float t0 = panes[0].time.empty() ? 0.0f : panes[0].time.front();
  const float t1 = panes[0].time.empty() ? 1.0f : std::max(panes[0].time.back(), t0 + 1e-6f);
  for (std::size_t k = 0; k < panes.size(); ++k) {
    const std::deque<float>& v = panes[k].*series;
    const std::deque<float>& t = panes[k].time;
    std::vector<ImVec2> points;
    for (std::size_t i = 0; i < v.size() && i < t.size(); ++i)
      if (t[i] >= t0)
        points.emplace_back(p0.x + size.x * (t[i] - t0) / (t1 - t0), p1.y - size.y * (v[i] - lo) / (hi - lo));
    if (points.size() > 1) draw->AddPolyline(points.data(), static_cast<int>(points.size()), paneColour(k), 0, 1.5f);
  }
  const std::string range = steady ? formatQuantity(0.5 * (static_cast<double>(lo) + hi), unit) + ", steady"
                                    : formatQuantity(static_cast<double>(lo), unit) + " to " +
                                          formatQuantity(static_cast<double>(hi), unit);
  draw->AddText(ImVec2(p0.x + 4.0f, p0.y + 2.0f), ImGui::GetColorU32(ImGuiCol_Text),
                (std::string(name) + ", " + range).c_str());
  if (ImGui::IsItemHovered()) {
    const float u = std::clamp((ImGui::GetIO().MousePos.x - p0.x) / std::max(size.x, 1.0f), 0.0f, 1.0f);
    const float at = t0 + u * (t1 - t0);
    ImGui::BeginTooltip();
    ImGui::Text("t = %.3f s", static_cast<double>(at));
    for (std::size_t k = 0; k < panes.size(); ++k) {
      const std::deque<float>& t = panes[k].time;
      const auto it = std::lower_bound(t.begin(), t.end(), at);
      if (it == t.end()) continue;
      const float value = (panes[k].*series)[static_cast<std::size_t>(it - t.begin())];
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(paneColour(k)), "%zu: %s", k + 1,
                         formatQuantity(static_cast<double>(value), unit).c_str());
    }
    ImGui::EndTooltip();
  }
}

// Side by side: a row per pane (its colour in the plots, its method, its own speed and
// figures), then the overlaid plots.
void drawPanes(PanelContext& ctx, const char* energyUnit) {
  const Snapshot& s = ctx.snapshot;
  bool densityError = false;
  for (std::size_t k = 0; k < s.panes.size(); ++k) {
    const PaneView& v = s.panes[k];
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(paneColour(k)), "%zu %s", k + 1, v.label.c_str());
    char speed[32];
    std::snprintf(speed, sizeof speed, "%.2fx", v.ownSpeed);
    std::string figures = std::string("   alone ") + speed + " real time, kinetic " +
                          formatQuantity(v.stats.kineticEnergy, energyUnit);
    if (!std::isnan(v.stats.solver.densityErrorMax)) {
      figures += ", density error " + formatQuantity(100.0 * v.stats.solver.densityErrorMax, "%");
      densityError = true;
    }
    ImGui::TextUnformatted(figures.c_str());
    ImGui::PopTextWrapPos();
  }
  const std::vector<History>& h = ctx.state.paneHistory;
  if (h.size() != s.panes.size()) return;
  overlaidPlot("total energy", h, &History::total, energyUnit);
  overlaidPlot("kinetic energy", h, &History::kinetic, energyUnit);
  if (densityError) overlaidPlot("density error", h, &History::densityError, "%");
}

}  // namespace

void drawStatsPanel(bool* open, PanelContext& ctx) {
  if (!beginPanel("Stats", open, ctx)) return;
  const Snapshot& s = ctx.snapshot;
  const StepStats& st = s.stats;
  const bool is2d = s.dim == 2;
  // Per metre of depth in 2D: a 2D liquid is a slab of unit thickness.
  const char* massUnit = is2d ? "kg/m" : "kg";
  const char* energyUnit = is2d ? "J/m" : "J";
  const char* momentumUnit = is2d ? "kg m/s per m" : "kg m/s";
  const ImVec4 warn(1.0f, 0.7f, 0.3f, 1.0f), bad(1.0f, 0.4f, 0.35f, 1.0f);
  char text[160];

  if (ImGui::BeginTable("figures", 2, ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("Density error").x);
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
    std::snprintf(text, sizeof text, "%.0f fps (%s)", static_cast<double>(ctx.state.uiFps),
                  formatQuantity(1e-3 * static_cast<double>(ctx.state.uiFrameMs), "s").c_str());
    row(ctx.state, "UI", text);
    // The thread governor's choice for the last step (sim/src/thread_governor.h).
    std::snprintf(text, sizeof text, "%.0f steps/s, %d thread%s", s.stepsPerSecond, st.threads,
                  st.threads == 1 ? "" : "s");
    row(ctx.state, "Solver", text);
    std::snprintf(text, sizeof text, "%.2fx (asked %.2fx)", s.simSecondsPerSecond, s.speed);
    const bool behind = s.simSecondsPerSecond > 0.0 && s.simSecondsPerSecond < 0.95 * s.speed;
    row(ctx.state, "Real time", text, behind && !s.paused ? &warn : nullptr);
    std::snprintf(text, sizeof text, "%.3f s, step %ld", st.time, st.step);
    row(ctx.state, "Time", text);
    row(ctx.state, "dt", formatQuantity(st.dt, "s"));
    const std::size_t outside = s.hostParticles ? particlesOutside(s) : 0;
    if (s.hostParticles) std::snprintf(text, sizeof text, "%zu, %zu outside", st.particles, outside);
    else std::snprintf(text, sizeof text, "%zu, drawn from GPU memory", st.particles);
    row(ctx.state, "Particles", text, outside > 0 ? &bad : nullptr);
    row(ctx.state, "Mass", formatQuantity(st.mass, massUnit, 4), nullptr,
        is2d ? "In 2D the liquid is a slab one metre deep: mass, energy and momentum are per metre of depth "
               "(kg/m, J/m, kg m/s per m)."
             : nullptr);
    if (!std::isnan(st.solver.densityErrorMax)) {
      row(ctx.state, "Density error", "max " + formatQuantity(100.0 * st.solver.densityErrorMax, "%"));
      row(ctx.state, "", "mean " + formatQuantity(100.0 * st.solver.densityErrorMean, "%"));
    }
    if (!std::isnan(st.solver.divergenceMax)) row(ctx.state, "Divergence", formatQuantity(st.solver.divergenceMax, ""));
    if (st.solver.iterations > 0 || st.solver.divergenceIterations > 0) {
      std::snprintf(text, sizeof text, "%d (divergence %d)", st.solver.iterations, st.solver.divergenceIterations);
      row(ctx.state, "Iterations", text);
    }
    ImGui::EndTable();
  }
  // Closed at first: the plots need the room, and the step's time is in the header.
  const std::string phases = "Step " + formatQuantity(1e-3 * st.wallMs, "s") + ", by phase###phases";
  if (ImGui::CollapsingHeader(phases.c_str())) {
    for (int k = 0; k < st.solver.phaseCount; ++k) {
      const PhaseTime& p = st.solver.phases[static_cast<std::size_t>(k)];
      const std::string label = std::string(p.name) + " " + formatQuantity(1e-3 * p.ms, "s");
      ImGui::ProgressBar(st.wallMs > 0 ? static_cast<float>(p.ms / st.wallMs) : 0.0f,
                         ImVec2(-FLT_MIN, ImGui::GetTextLineHeight()), label.c_str());
    }
  }
  if (s.panes.size() > 1 && ImGui::CollapsingHeader("Panes side by side", ImGuiTreeNodeFlags_DefaultOpen))
    drawPanes(ctx, energyUnit);
  const History& h = ctx.state.history;
  if (h.time.size() > 1)  // the plots' time axis: their left and right ends
    ImGui::TextDisabled("t = %.2f to %.2f s; hover to read", static_cast<double>(h.time.front()),
                        static_cast<double>(h.time.back()));
  const char* angularUnit = is2d ? "kg m^2/s per m" : "kg m^2/s";
  plot("total energy", h.total, h.time, energyUnit, &ctx.state, "Total energy");
  plot("kinetic", h.kinetic, h.time, energyUnit, &ctx.state, "Kinetic energy");
  plot("|momentum|", h.momentum, h.time, momentumUnit);
  plot(is2d ? "L_z" : "|L|", h.angular, h.time, angularUnit);  // angular momentum about the bottle's centre
  if (!std::isnan(st.solver.densityErrorMax)) plot("density error", h.densityError, h.time, "%");
  if (!std::isnan(st.solver.divergenceMax)) plot("divergence", h.divergence, h.time, "");
  if (!std::isnan(st.solver.liquidVolume)) plot("volume drift", h.volumeDrift, h.time, "%");
  // A faucet or an outlet (physics.md §14): in, out and held, with their balance
  // held - (start + in - out), which (14.4) keeps at 0.
  if (s.pour.hasFaucet || s.pour.hasOutlet) {
    if (s.pour.hasFaucet) plot("mass in", h.massIn, h.time, massUnit);
    if (s.pour.hasOutlet) plot("mass out", h.massOut, h.time, massUnit);
    plot("mass held", h.mass, h.time, massUnit);
    if (h.startMass >= 0.0) {
      const double balance = st.mass - (h.startMass + s.pour.massIn - s.pour.massOut);
      ImGui::TextDisabled("balance %s", formatQuantity(balance, massUnit).c_str());
      helpMarker("held - (start + in - out): what the faucet brought and the outlet took account for every "
                 "change of the mass held (physics.md (14.4)); 0 up to rounding.");
    }
  }
  plot("dt", h.dt, h.time, "s");
  ImGui::End();
}

}  // namespace sloshlab::app
