#include "panels.h"

#include "sloshlab/solver_registry.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace sloshlab::app {

// ---------------------------------------------------------------- small helpers

FieldKind fieldFor(ColourBy c) {
  switch (c) {
    case ColourBy::Density: return FieldKind::Density;
    case ColourBy::Pressure: return FieldKind::Pressure;
    case ColourBy::Vorticity: return FieldKind::Vorticity;
    default: return FieldKind::Speed;
  }
}

const char* colourByName(ColourBy c) {
  switch (c) {
    case ColourBy::Speed: return "speed in the bottle";
    case ColourBy::Density: return "density";
    case ColourBy::Pressure: return "pressure";
    case ColourBy::Vorticity: return "vorticity";
    case ColourBy::Solid: return "solid colour";
  }
  return "?";
}

const char* fieldUnit(ColourBy c) {
  switch (c) {
    case ColourBy::Speed: return "m/s";
    case ColourBy::Density: return "kg/m^3";
    case ColourBy::Pressure: return "Pa";
    case ColourBy::Vorticity: return "1/s";
    case ColourBy::Solid: return "";
  }
  return "";
}

void History::add(const Snapshot& s) {
  auto push = [](std::deque<float>& q, double v) {
    q.push_back(static_cast<float>(v));
    if (q.size() > kLength) q.pop_front();
  };
  if (!time.empty() && s.stats.time < time.back()) clear();  // a reset
  push(time, s.stats.time);
  push(kinetic, s.stats.kineticEnergy);
  push(potential, s.stats.potentialEnergy);
  push(momentum, glm::length(s.stats.momentum));
  push(densityError, std::isnan(s.stats.solver.densityErrorMax) ? 0.0 : 100.0 * s.stats.solver.densityErrorMax);
  push(divergence, std::isnan(s.stats.solver.divergenceMax) ? 0.0 : s.stats.solver.divergenceMax);
  push(dt, s.stats.dt * 1e3);
}

void History::clear() {
  for (auto* q : {&time, &kinetic, &potential, &momentum, &densityError, &divergence, &dt}) q->clear();
}

namespace {

float em(float n) { return n * ImGui::GetFontSize(); }

void helpMarker(const char* text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(em(28.0f));
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

void plot(const char* label, const std::deque<float>& values, const char* unit) {
  if (values.empty()) return;
  std::vector<float> v(values.begin(), values.end());
  char overlay[64];
  std::snprintf(overlay, sizeof overlay, "%.4g %s", static_cast<double>(v.back()), unit);
  ImGui::PlotLines(label, v.data(), static_cast<int>(v.size()), 0, overlay, FLT_MAX, FLT_MAX, ImVec2(0, em(3.5f)));
}

// A new simulation with the Scene panel's choices; the command line's motion,
// overrides and seed carry over when the scene is the one it named.
SimulationSetup setupFromChoice(const PanelContext& ctx) {
  const SceneChoice& c = ctx.state.choice;
  SimulationSetup setup = ctx.baseSetup;
  const std::string& name = c.scenes[static_cast<std::size_t>(c.scene)];
  if (name != setup.scene.name) {
    setup.scene = loadScene(name);
    setup.overrides.clear();
    setup.motion = MotionScript{};
  }
  setup.dim = c.dim;
  setup.solver = solverInfos()[static_cast<std::size_t>(c.solver)].name;
  setup.spacing = c.spacing;
  return setup;
}

void rebuild(PanelContext& ctx) {
  try {
    ctx.sim.post(command::Rebuild{setupFromChoice(ctx)});
  } catch (const std::exception& e) {
    ctx.state.toast = e.what();
    ctx.state.toastUntil = ImGui::GetTime() + 5.0;
  }
}

// Panels start in two columns that do not overlap: Playback, Scene and Solver on the
// left, View and Stats on the right; sizes in font heights (HiDPI-proof).
enum class Column { Left, Right };
bool beginPanel(const char* name, bool* open, Column column, float top, float height) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const float width = em(column == Column::Left ? 21.0f : 19.0f);
  const float x = column == Column::Left ? em(0.5f) : display.x - width - em(0.5f);
  const float h = height > 0.0f ? height : display.y - top - em(0.5f);
  ImGui::SetNextWindowPos(ImVec2(x, top), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(width, std::max(h, em(6.0f))), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin(name, open)) {
    ImGui::End();
    return false;
  }
  return true;
}

}  // namespace

// ---------------------------------------------------------------- panels

void drawScenePanel(bool* open, PanelContext& ctx) {
  if (!*open || !beginPanel("Scene", open, Column::Left, em(8.3f), em(12.6f))) return;
  SceneChoice& c = ctx.state.choice;
  const char* current = c.scenes[static_cast<std::size_t>(c.scene)].c_str();
  if (ImGui::BeginCombo("Preset", current)) {
    for (int i = 0; i < static_cast<int>(c.scenes.size()); ++i)
      if (ImGui::Selectable(c.scenes[static_cast<std::size_t>(i)].c_str(), i == c.scene) && i != c.scene) {
        c.scene = i;
        c.spacing = 0.0f;
        rebuild(ctx);
      }
    ImGui::EndCombo();
  }
  helpMarker("The scene: container, gravity and blocks of liquid (assets/scenes). Each works in 2D and 3D.");
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", ctx.snapshot.sceneDescription.c_str());
  ImGui::PopTextWrapPos();
  int dim = c.dim;
  ImGui::RadioButton("2D", &dim, 2);
  ImGui::SameLine();
  ImGui::RadioButton("3D", &dim, 3);
  if (dim != c.dim) {
    c.dim = dim;
    c.spacing = 0.0f;
    rebuild(ctx);
  }
  float spacingMm = 1e3f * (c.spacing > 0.0f ? c.spacing : static_cast<float>(ctx.snapshot.spacing));
  ImGui::SliderFloat("Spacing", &spacingMm, 0.5f, 50.0f, "%.2f mm", ImGuiSliderFlags_Logarithmic);
  if (ImGui::IsItemDeactivatedAfterEdit()) {
    c.spacing = 1e-3f * spacingMm;
    rebuild(ctx);
  }
  helpMarker("Particle spacing s (m): sets the resolution; SPH support h = factor * s, hybrid cells from s. "
             "Halving s multiplies the particle count by 4 (2D) or 8 (3D).");
  ImGui::Text("%zu particles", ctx.snapshot.stats.particles);
  ImGui::End();
}

void drawSolverPanel(bool* open, PanelContext& ctx) {
  if (!*open || !beginPanel("Solver", open, Column::Left, em(21.4f), 0.0f)) return;
  SceneChoice& c = ctx.state.choice;
  const auto infos = solverInfos();
  if (ImGui::BeginCombo("Method", infos[static_cast<std::size_t>(c.solver)].label)) {
    for (int i = 0; i < static_cast<int>(infos.size()); ++i)
      if (ImGui::Selectable(infos[static_cast<std::size_t>(i)].label, i == c.solver) && i != c.solver) {
        c.solver = i;
        rebuild(ctx);
      }
    ImGui::EndCombo();
  }
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", infos[static_cast<std::size_t>(c.solver)].description);
  ImGui::PopTextWrapPos();

  const ParamTable* table = ctx.state.paramTable;
  if (table && ctx.state.params.size() == table->entries.size()) {
    // Parameters under their group headings, each group once, in the order the groups
    // first appear in the table.
    std::vector<std::size_t> order;
    for (std::size_t k = 0; k < table->entries.size(); ++k) {
      const char* g = table->entries[k].group;
      bool seen = false;
      for (std::size_t m : order) seen = seen || std::strcmp(table->entries[m].group, g) == 0;
      if (seen) continue;
      for (std::size_t m = k; m < table->entries.size(); ++m)
        if (std::strcmp(table->entries[m].group, g) == 0) order.push_back(m);
    }
    const char* group = "";
    ImGui::PushItemWidth(em(10.0f));
    for (std::size_t k : order) {
      const ParamInfo& info = table->entries[k];
      if (std::strcmp(group, info.group) != 0) {
        group = info.group;
        ImGui::Spacing();
        ImGui::TextColored(ImVec4(0.55f, 0.75f, 1.0f, 1.0f), "%s", group);
        ImGui::Separator();
      }
      double& value = ctx.state.params[k];
      bool edited = false;
      ImGui::PushID(info.key);
      switch (info.kind) {
        case ParamKind::Real: {
          char format[48];
          std::snprintf(format, sizeof format, "%%.4g %s", std::strcmp(info.unit, "1") == 0 ? "" : info.unit);
          edited = ImGui::SliderScalar(info.label, ImGuiDataType_Double, &value, &info.min, &info.max, format,
                                       info.logScale ? ImGuiSliderFlags_Logarithmic : 0);
          break;
        }
        case ParamKind::Integer: {
          int v = static_cast<int>(value);
          edited = ImGui::SliderInt(info.label, &v, static_cast<int>(info.min), static_cast<int>(info.max));
          value = v;
          break;
        }
        case ParamKind::Toggle: {
          bool v = value != 0.0;
          edited = ImGui::Checkbox(info.label, &v);
          value = v ? 1.0 : 0.0;
          break;
        }
        case ParamKind::Choice: {
          int v = static_cast<int>(value);
          if (ImGui::BeginCombo(info.label, info.choices[static_cast<std::size_t>(v)])) {
            for (int i = 0; i < static_cast<int>(info.choices.size()); ++i)
              if (ImGui::Selectable(info.choices[static_cast<std::size_t>(i)], i == v)) v = i, edited = true;
            ImGui::EndCombo();
          }
          value = v;
          break;
        }
      }
      char help[512];
      std::snprintf(help, sizeof help, "%s\n\nkey: %s   range [%g, %g] %s", info.description, info.key, info.min,
                    info.max, std::strcmp(info.unit, "1") == 0 ? "" : info.unit);
      helpMarker(help);
      ImGui::PopID();
      if (edited) ctx.sim.post(command::SetParam{info.key, value});
    }
    ImGui::PopItemWidth();
  }
  ImGui::End();
}

void drawViewPanel(bool* open, PanelContext& ctx) {
  if (!*open || !beginPanel("View", open, Column::Right, em(1.8f), em(15.2f))) return;
  ViewSettings& v = ctx.state.view;
  ImGui::PushItemWidth(em(9.0f));
  int by = static_cast<int>(v.colourBy);
  const char* names[] = {"speed (1)", "density (2)", "pressure (3)", "vorticity", "solid colour (4)"};
  if (ImGui::Combo("Colour by", &by, names, 5)) {
    v.colourBy = static_cast<ColourBy>(by);
    ctx.sim.post(command::SetField{fieldFor(v.colourBy)});
  }
  if (v.colourBy != ColourBy::Solid) {
    int map = static_cast<int>(v.colormap);
    const char* maps[] = {"water", "viridis", "turbo", "coolwarm"};
    if (ImGui::Combo("Colour map", &map, maps, static_cast<int>(render::Colormap::Count)))
      v.colormap = static_cast<render::Colormap>(map);
    ImGui::Checkbox("Auto range", &v.autoRange);
    helpMarker("Auto: the range follows the field's 1st to 99th percentile. Off: type the range.");
    if (!v.autoRange) {
      ImGui::InputFloat("Low", &v.low, 0, 0, "%.4g");
      ImGui::InputFloat("High", &v.high, 0, 0, "%.4g");
    }
    if (!ctx.snapshot.fieldAvailable)
      ImGui::TextColored(ImVec4(1, 0.7f, 0.3f, 1), "%s does not compute %s", ctx.snapshot.solver.c_str(),
                         colourByName(v.colourBy));
  } else {
    ImGui::ColorEdit3("Colour", &v.solidColour.x, ImGuiColorEditFlags_NoInputs);
  }
  ImGui::SliderFloat("Particle size", &v.radiusScale, 0.25f, 2.0f, "%.2fx");
  helpMarker("Drawn radius / physical radius (half the spacing). 1x shows the particles at their true size.");
  ImGui::ColorEdit3("Background", &v.background.x, ImGuiColorEditFlags_NoInputs);
  ImGui::Checkbox("Kernel and neighbours", &v.showKernel);
  helpMarker("Hover over a particle: the circle is its interaction radius (SPH kernel support h, or the contact "
             "distance of hard spheres); the orange dots are the neighbours inside it, which enter its sums.");
  if (ctx.snapshot.gridCell > 0.0f) {
    ImGui::Checkbox("Grid", &v.showGrid);
    helpMarker("The MAC grid of the hybrid solvers: pressure at cell centres, velocities on the faces.");
  }
  ImGui::Checkbox("Container frame", &v.containerFrame);
  helpMarker("Draw everything in the container's frame: the bottle stands still and the arrow shows the "
             "fictitious acceleration -A the liquid feels when the bottle is pushed (g - A is what it 'sees').");
  ImGui::PopItemWidth();
  ImGui::End();
}

void drawStatsPanel(bool* open, PanelContext& ctx) {
  if (!*open || !beginPanel("Stats", open, Column::Right, em(17.4f), 0.0f)) return;
  const Snapshot& s = ctx.snapshot;
  const StepStats& st = s.stats;
  ImGui::Text("UI %.0f fps (%.1f ms/frame)", static_cast<double>(ctx.state.uiFps), static_cast<double>(ctx.state.uiFrameMs));
  ImGui::Text("Solver %.0f steps/s, %.2fx real time", s.stepsPerSecond, s.simSecondsPerSecond);
  ImGui::Text("t = %.3f s, step %ld, dt = %.3g s", st.time, st.step, st.dt);
  ImGui::Text("%zu particles, mass %.4g kg", st.particles, st.mass);
  if (!std::isnan(st.solver.densityErrorMax))
    ImGui::Text("density error max %.3g %%, mean %.3g %%", 100.0 * st.solver.densityErrorMax,
                100.0 * st.solver.densityErrorMean);
  if (!std::isnan(st.solver.divergenceMax)) ImGui::Text("divergence %.3g", st.solver.divergenceMax);
  if (st.solver.iterations > 0 || st.solver.divergenceIterations > 0)
    ImGui::Text("iterations %d (divergence %d)", st.solver.iterations, st.solver.divergenceIterations);
  ImGui::Separator();
  ImGui::Text("Step %.3f ms:", st.wallMs);
  for (int k = 0; k < st.solver.phaseCount; ++k) {
    const PhaseTime& p = st.solver.phases[static_cast<std::size_t>(k)];
    char label[64];
    std::snprintf(label, sizeof label, "%s %.3f ms", p.name, p.ms);
    ImGui::ProgressBar(st.wallMs > 0 ? static_cast<float>(p.ms / st.wallMs) : 0.0f, ImVec2(-1, 0), label);
  }
  ImGui::Separator();
  const History& h = ctx.state.history;
  plot("kinetic", h.kinetic, "J");
  plot("potential", h.potential, "J");
  plot("|momentum|", h.momentum, "kg m/s");
  if (!std::isnan(st.solver.densityErrorMax)) plot("density err", h.densityError, "%");
  if (!std::isnan(st.solver.divergenceMax)) plot("divergence", h.divergence, "");
  plot("dt", h.dt, "ms");
  ImGui::End();
}

void drawPlaybackPanel(bool* open, PanelContext& ctx) {
  if (!*open || !beginPanel("Playback", open, Column::Left, em(1.8f), em(6.1f))) return;
  const Snapshot& s = ctx.snapshot;
  if (ImGui::Button(s.paused ? "Resume (Space)" : "Pause (Space)")) ctx.sim.post(command::SetPaused{!s.paused});
  ImGui::SameLine();
  if (ImGui::Button("Step (N)")) ctx.sim.post(command::StepOnce{});
  ImGui::SameLine();
  if (ImGui::Button("Reset (R)")) ctx.sim.post(command::Reset{});
  float speed = static_cast<float>(s.speed);
  if (ImGui::SliderFloat("Speed", &speed, 0.1f, 1.0f, "%.2fx", ImGuiSliderFlags_Logarithmic))
    ctx.sim.post(command::SetSpeed{speed});
  helpMarker("Simulated seconds per wall second asked for: below 1 is slow motion. A solver slower than that "
             "plays as fast as it can (see Stats).");
  if (s.recording) ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "recording the container's path");
  ImGui::End();
}

void drawHelpPanel(bool* open) {
  if (!*open) return;
  ImGui::SetNextWindowPos(ImVec2(em(22.0f), em(4.0f)), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Help", open, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return;
  }
  const char* rows[][2] = {{"left drag on the bottle", "move it (the liquid lags, sloshes)"},
                           {"right drag / wheel", "tilt it"},
                           {"middle drag / Alt+left", "orbit the camera (3D)"},
                           {"Shift+wheel", "zoom (3D)"},
                           {"Space", "pause / resume"},
                           {"N", "single step"},
                           {"R", "reset the scene"},
                           {"1 2 3 4", "colour by speed, density, pressure, solid"},
                           {"H", "hide / show the panels"},
                           {"Ctrl+S", "screenshot (PNG in the current directory)"},
                           {"F1", "this help"},
                           {"F11", "fullscreen"},
                           {"Esc", "quit"}};
  if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg)) {
    for (const auto& r : rows) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r[0]);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r[1]);
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

void drawOverlays(PanelContext& ctx, double now) {
  const ImVec2 size = ImGui::GetIO().DisplaySize;
  const Snapshot& s = ctx.snapshot;
  const ViewSettings& v = ctx.state.view;
  const ImGuiWindowFlags bare = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs |
                                ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                                ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
  // Colour legend, bottom right.
  if (v.colourBy != ColourBy::Solid && ctx.state.panels.ui) {
    ImGui::SetNextWindowPos(ImVec2(size.x - em(1.0f), size.y - em(1.0f)), ImGuiCond_Always, ImVec2(1, 1));
    ImGui::SetNextWindowBgAlpha(0.6f);
    if (ImGui::Begin("##legend", nullptr, bare)) {
      ImGui::Text("%s (%s)", colourByName(v.colourBy), fieldUnit(v.colourBy));
      const ImVec2 p = ImGui::GetCursorScreenPos();
      const float w = em(12.0f), h = em(0.9f);
      ImDrawList* draw = ImGui::GetWindowDrawList();
      for (int k = 0; k < 48; ++k) {
        const auto c = render::colormapColour(v.colormap, (static_cast<float>(k) + 0.5f) / 48.0f);
        draw->AddRectFilled(ImVec2(p.x + w * static_cast<float>(k) / 48.0f, p.y),
                            ImVec2(p.x + w * static_cast<float>(k + 1) / 48.0f, p.y + h),
                            ImGui::GetColorU32(ImVec4(c[0], c[1], c[2], 1.0f)));
      }
      ImGui::Dummy(ImVec2(w, h));
      ImGui::Text("%-10.4g", static_cast<double>(v.low));
      ImGui::SameLine(w - em(3.5f));
      ImGui::Text("%10.4g", static_cast<double>(v.high));
    }
    ImGui::End();
  }
  // The hint, until the bottle is first moved.
  if (!ctx.state.touched && s.failure.empty()) {
    ImGui::SetNextWindowPos(ImVec2(0.5f * size.x, size.y - em(1.0f)), ImGuiCond_Always, ImVec2(0.5f, 1.0f));
    ImGui::SetNextWindowBgAlpha(0.5f);
    if (ImGui::Begin("##hint", nullptr, bare))
      ImGui::TextUnformatted("Drag the bottle with the left mouse button; tilt it with the right button or the wheel.");
    ImGui::End();
  }
  // The failure banner (the simulation is paused), and errors of the last command.
  if (!s.failure.empty() || !s.lastError.empty()) {
    ImGui::SetNextWindowPos(ImVec2(0.5f * size.x, em(2.5f)), ImGuiCond_Always, ImVec2(0.5f, 0.0f));
    ImGui::SetNextWindowBgAlpha(0.85f);
    if (ImGui::Begin("##failure", nullptr, bare)) {
      if (!s.failure.empty()) {
        ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.3f, 1.0f), "Stopped: %s", s.failure.c_str());
        ImGui::TextUnformatted("The simulation is paused. Press R to reset, or change the parameters and reset.");
      }
      if (!s.lastError.empty()) ImGui::TextColored(ImVec4(1.0f, 0.7f, 0.3f, 1.0f), "%s", s.lastError.c_str());
    }
    ImGui::End();
  }
  if (!ctx.state.toast.empty() && now < ctx.state.toastUntil) {
    ImGui::SetNextWindowPos(ImVec2(em(1.0f), size.y - em(1.0f)), ImGuiCond_Always, ImVec2(0, 1));
    ImGui::SetNextWindowBgAlpha(0.7f);
    if (ImGui::Begin("##toast", nullptr, bare)) ImGui::TextUnformatted(ctx.state.toast.c_str());
    ImGui::End();
  }
}

}  // namespace sloshlab::app
