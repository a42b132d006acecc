// The ImGui panels (panels.h).
//
// Contents
//   small helpers   the colour fields (FieldInfo), the layout, help markers, placement
//   choices         the Scene panel's choices for a set-up (initialChoice)
//   switching       scene, dimension, solver and spacing (the panels and the keys)
//   panels          Scene, Solver (one widget per parameter), View, Playback, Help
// Elsewhere: Stats (stats_panel.cpp), Export (export_panel.cpp), Motions
// (motions_panel.cpp), the overlays (overlays.cpp).
#include "panels.h"

#include "format.h"
#include "lecture.h"
#include "panel_widgets.h"

#include "sloshlab/run_settings.h"
#include "sloshlab/solver_registry.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace sloshlab::app {

// ---------------------------------------------------------------- small helpers

namespace {
constexpr FieldInfo kFields[] = {
    {ColourBy::Speed, "speed", "speed in the bottle", "m/s", 1, FieldKind::Speed},
    {ColourBy::Density, "density", "density", "kg/m^3", 2, FieldKind::Density},
    {ColourBy::Pressure, "pressure", "pressure", "Pa", 3, FieldKind::Pressure},
    {ColourBy::Vorticity, "vorticity", "vorticity", "1/s", 0, FieldKind::Vorticity},
    {ColourBy::Solid, "solid colour", "solid colour", "", 4, FieldKind::Speed},
};
constexpr bool inColourByOrder() {
  for (int k = 0; k < static_cast<int>(std::size(kFields)); ++k)
    if (static_cast<int>(kFields[k].colourBy) != k) return false;
  return true;
}
static_assert(inColourByOrder(), "fieldInfo() indexes kFields by ColourBy");
}  // namespace

std::span<const FieldInfo> fieldInfos() { return kFields; }

const FieldInfo& fieldInfo(ColourBy c) { return kFields[static_cast<int>(c)]; }

Layout windowLayout(bool panelsShown) {
  Layout l;
  l.em = ImGui::GetFontSize();
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  l.display = glm::vec2(display.x, display.y);
  l.top = ImGui::GetFrameHeight() + 0.3f * l.em;
  l.leftWidth = 21.0f * l.em;
  l.rightWidth = 21.0f * l.em;
  l.free = panelsShown ? glm::vec4(l.leftWidth + l.em, l.top, display.x - l.rightWidth - l.em, display.y)
                       : glm::vec4(0.0f, 0.0f, display.x, display.y);
  return l;
}

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

float helpMarkerWidth() { return ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize("(?)").x; }

float itemWidthBeside(const char* longestLabel) {
  return -(ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(longestLabel).x + helpMarkerWidth() +
           ImGui::GetStyle().ItemSpacing.x);
}

namespace {

struct PanelPlace {
  const char* name;
  Column column;
  float top;     // font heights below the menu bar (ignored at the bottom)
  float height;  // font heights; 0: to the bottom of the window
  bool bottom;   // at the bottom of its column, over the panels there, opaque
};
constexpr PanelPlace kPlaces[] = {
    {"Playback", Column::Left, 0.0f, 14.4f, false},  {"Scene", Column::Left, 14.9f, 15.2f, false},
    {"Solver", Column::Left, 30.6f, 0.0f, false},    {"View", Column::Right, 0.0f, 19.2f, false},
    {"Stats", Column::Right, 19.7f, 0.0f, false},    {"Export", Column::Right, 0.0f, 14.0f, true},
    {"Motions", Column::Left, 0.0f, 23.0f, true},    {"Experiments", Column::Right, 0.0f, 33.0f, true},
    {"Inspector", Column::Right, 0.0f, 30.0f, true}, {"Probes", Column::Left, 0.0f, 30.0f, true},
};

}  // namespace

bool beginPanel(const char* name, bool* open, const PanelContext& ctx) {
  if (!*open) return false;
  const PanelPlace* place = nullptr;
  for (const PanelPlace& p : kPlaces)
    if (std::strcmp(p.name, name) == 0) place = &p;
  if (!place) throw std::logic_error(std::string("panel '") + name + "' has no place in kPlaces");
  const Layout& l = ctx.layout;
  const float width = place->column == Column::Left ? l.leftWidth : l.rightWidth;
  const float x = place->column == Column::Left ? em(0.5f) : l.display.x - width - em(0.5f);
  const float top =
      place->bottom ? std::max(0.0f, (l.display.y - l.top) / l.em - place->height - 0.5f) : place->top;
  const float y = l.top + em(top);
  const float h = place->height > 0.0f ? em(place->height) : l.display.y - y - em(0.5f);
  const ImGuiCond cond = ctx.state.relayout ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
  ImGui::SetNextWindowPos(ImVec2(x, y), cond);
  ImGui::SetNextWindowSize(ImVec2(width, std::max(h, em(6.0f))), cond);
  if (place->bottom) ImGui::SetNextWindowBgAlpha(1.0f);
  if (!ImGui::Begin(name, open)) {
    ImGui::End();
    return false;
  }
  return true;
}

namespace {

// A new simulation with the Scene panel's choices; the command line's motion and
// seed carry over when the scene is the one it named, and its parameter overrides
// (--set) when the solver is the one they were given for too: another solver starts
// from the scene's values (it may not have the keys: with --solver wcsph --set
// speed_of_sound=..., switching to DFSPH was refused as "unknown parameter").
SimulationSetup setupFromChoice(const SceneChoice& c, const SimulationSetup& baseSetup) {
  SimulationSetup setup = baseSetup;
  const std::string& name = c.scenes[static_cast<std::size_t>(c.scene)];
  if (name != setup.scene.name) {
    setup.scene = loadScene(name);
    setup.overrides.clear();
    setup.motion = MotionScript{};
  }
  setup.dim = c.dim;
  setup.solver = solverInfos()[static_cast<std::size_t>(c.solver)].name;
  if (setup.solver != baseSetup.solver) setup.overrides.clear();
  setup.spacing = c.spacing;
  return setup;
}

// Side by side, a new scene, dimension or spacing keeps the panes (`panes` unset).
void rebuild(const SceneSwitch& to, std::optional<std::vector<PaneSpec>> panes = std::nullopt) {
  try {
    to.sim.post(command::Rebuild{setupFromChoice(to.state.choice, to.baseSetup), std::move(panes)});
  } catch (const std::exception& e) {
    to.state.toast = e.what();
    to.state.toastUntil = ImGui::GetTime() + 5.0;
  }
}

// i modulo n, in [0, n): the keys step past either end to the other.
int wrapped(int i, int n) { return n > 0 ? ((i % n) + n) % n : 0; }

}  // namespace

void chooseScene(const SceneSwitch& to, int scene) {
  SceneChoice& c = to.state.choice;
  scene = wrapped(scene, static_cast<int>(c.scenes.size()));
  if (scene == c.scene) return;
  c.scene = scene;
  c.spacing = 0.0f;
  rebuild(to);
}

void chooseDim(const SceneSwitch& to, int dim) {
  SceneChoice& c = to.state.choice;
  if (dim == c.dim || (dim != 2 && dim != 3)) return;
  c.dim = dim;
  c.spacing = 0.0f;
  rebuild(to);
}

// The GPU path's solvers (those with a twin) are offered where this machine runs them.
bool offered(const AppState& state, int solver) {
  return state.gpuUnavailable.empty() || !solverInfos()[static_cast<std::size_t>(solver)].twin;
}

void chooseSolver(const SceneSwitch& to, int solver) {
  SceneChoice& c = to.state.choice;
  const int count = static_cast<int>(solverInfos().size());
  const int direction = solver < c.solver ? -1 : 1;
  solver = wrapped(solver, count);
  for (int tries = 0; tries < count && !offered(to.state, solver); ++tries) solver = wrapped(solver + direction, count);
  if (solver == c.solver) return;
  c.solver = solver;
  rebuild(to, std::vector<PaneSpec>{});  // one solver chosen: one view
}

void chooseSpacing(const SceneSwitch& to, float spacing) {
  to.state.choice.spacing = spacing;
  rebuild(to);
}

// The Scene panel's choices for a set-up (the command line's, a loaded state's, a slide's).
SceneChoice initialChoice(const SimulationSetup& setup) {
  SceneChoice c;
  c.scenes = builtinSceneNames();
  auto it = std::find(c.scenes.begin(), c.scenes.end(), setup.scene.name);
  if (setup.scene.origin.rfind("builtin:", 0) != 0) {
    c.scenes.push_back(setup.scene.origin);  // a file from the command line
    c.scene = static_cast<int>(c.scenes.size()) - 1;
  } else if (it != c.scenes.end()) {
    c.scene = static_cast<int>(it - c.scenes.begin());
  }
  c.dim = setup.dim;
  const auto infos = solverInfos();
  for (std::size_t i = 0; i < infos.size(); ++i)
    if (setup.solver == infos[i].name || (setup.solver.empty() && setup.scene.solver == infos[i].name))
      c.solver = static_cast<int>(i);
  c.spacing = static_cast<float>(setup.spacing);
  return c;
}

// ---------------------------------------------------------------- panels

// Side by side (--compare): the list of panes, shown from the running scene's start.
void drawSideBySide(PanelContext& ctx) {
  AppState& state = ctx.state;
  if (!ImGui::CollapsingHeader(ctx.snapshot.panes.empty() ? "Side by side###compare" : "Side by side (on)###compare"))
    return;
  if (!ImGui::IsAnyItemActive() && state.compareField[0] == '\0' && !state.compareList.empty())
    std::snprintf(state.compareField, sizeof state.compareField, "%s", state.compareList.c_str());
  ImGui::SetNextItemWidth(-FLT_MIN);
  ImGui::InputTextWithHint("##compare", "pic,flip,apic,flip:pic_fraction=0.5", state.compareField,
                           sizeof state.compareField);
  std::string problem;
  std::vector<PaneSpec> panes;
  try {
    panes = parsePaneList(state.compareField);
  } catch (const std::runtime_error& e) {
    problem = e.what();
  }
  ImGui::BeginDisabled(!problem.empty());
  if (ImGui::Button("Show side by side")) {
    try {
      ctx.sim.post(command::Rebuild{setupFromChoice(state.choice, ctx.baseSetup), panes});
    } catch (const std::exception& e) {
      state.toast = e.what();
      state.toastUntil = ImGui::GetTime() + 5.0;
    }
  }
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::BeginDisabled(ctx.snapshot.panes.empty());
  if (ImGui::Button("One view")) ctx.sim.post(command::SetCompare{});
  ImGui::EndDisabled();
  helpMarker("2 to 4 panes, comma-separated: SOLVER or SOLVER:key=value[:key=value...], as --compare takes "
             "them. Every pane runs the scene from its start; a drag on any pane moves every bottle. "
             "One view keeps the first pane.");
  if (!problem.empty() && state.compareField[0] != '\0') {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.4f, 1.0f), "%s", problem.c_str());
    ImGui::PopTextWrapPos();
  }
}


void drawScenePanel(bool* open, PanelContext& ctx) {
  if (!beginPanel("Scene", open, ctx)) return;
  SceneChoice& c = ctx.state.choice;
  const SceneSwitch to{ctx.state, ctx.sim, ctx.baseSetup};
  ImGui::PushItemWidth(itemWidthBeside("Spacing"));
  const char* current = c.scenes[static_cast<std::size_t>(c.scene)].c_str();
  if (ImGui::BeginCombo("Preset", current)) {
    for (int i = 0; i < static_cast<int>(c.scenes.size()); ++i)
      if (ImGui::Selectable(c.scenes[static_cast<std::size_t>(i)].c_str(), i == c.scene)) chooseScene(to, i);
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
  chooseDim(to, dim);
  float spacingMm = 1e3f * (c.spacing > 0.0f ? c.spacing : static_cast<float>(ctx.snapshot.spacing));
  const ParamInfo& spacing = runSetting("spacing");
  ImGui::SliderFloat("Spacing", &spacingMm, static_cast<float>(1e3 * spacing.min),
                     static_cast<float>(1e3 * spacing.max), "%.3g mm", ImGuiSliderFlags_Logarithmic);
  if (ImGui::IsItemDeactivatedAfterEdit()) chooseSpacing(to, 1e-3f * spacingMm);
  helpMarker(spacing.description);
  ImGui::PopItemWidth();
  ImGui::Text("%zu particles", ctx.snapshot.stats.particles);
  drawPourControls(ctx);
  drawGeometry(ctx);
  drawBodies(ctx);
  // The running scene, solver and parameters as JSON that --scene reads back.
  const ImGuiStyle& style = ImGui::GetStyle();
  ImGui::SetNextItemWidth(-(ImGui::CalcTextSize("Save scene as").x + 2.0f * style.FramePadding.x +
                            style.ItemSpacing.x + ImGui::CalcTextSize("(?)").x + style.ItemSpacing.x));
  ImGui::InputText("##save_path", c.savePath, sizeof c.savePath);
  ImGui::SameLine();
  if (ImGui::Button("Save scene as")) ctx.sim.post(command::SaveScene{c.savePath});
  helpMarker("Writes the scene with the running solver, its spacing and every parameter as they are now "
             "(edited ones included) to this JSON file: `sloshlab --scene FILE` starts the same run.");
  if (!ctx.snapshot.savedScene.empty()) ImGui::TextDisabled("saved %s", ctx.snapshot.savedScene.c_str());
  drawSideBySide(ctx);
  ImGui::End();
}

namespace {

// One parameter from the solver's table: its label on a line of its own (labels run
// up to 47 characters), then the widget across the panel.
bool drawParam(const ParamInfo& info, double& value, AppState& state) {
  char help[512];
  std::snprintf(help, sizeof help, "%s\n\nkey: %s   range [%g, %g] %s", info.description, info.key, info.min,
                info.max, std::strcmp(info.unit, "1") == 0 ? "" : info.unit);
  bool edited = false;
  ImGui::PushID(info.key);
  if (info.kind == ParamKind::Toggle) {
    bool v = value != 0.0;
    edited = ImGui::Checkbox(info.label, &v);
    value = v ? 1.0 : 0.0;
    pinMenu(state, paramPin(info.key));
    helpMarker(help);
    ImGui::PopID();
    return edited;
  }
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + ImGui::GetContentRegionAvail().x - helpMarkerWidth());
  ImGui::TextUnformatted(info.label);
  ImGui::PopTextWrapPos();
  pinMenu(state, paramPin(info.key));  // right-click the label: the lecture view shows it
  helpMarker(help);
  ImGui::SetNextItemWidth(-FLT_MIN);
  switch (info.kind) {
    case ParamKind::Real: {
      // In a unit that fits the range (ms for a time step), chosen once per parameter.
      const DisplayUnit unit = displayUnit(info.unit, info.max);
      double shown = value / unit.scale;
      const double lo = info.min / unit.scale, hi = info.max / unit.scale;
      std::string format = "%.4g";
      if (!unit.unit.empty()) format.append(" ").append(escapePercent(unit.unit));
      edited = ImGui::SliderScalar("##value", ImGuiDataType_Double, &shown, &lo, &hi, format.c_str(),
                                   info.logScale ? ImGuiSliderFlags_Logarithmic : 0);
      if (edited) value = shown * unit.scale;
      break;
    }
    case ParamKind::Integer: {
      int v = static_cast<int>(value);
      edited = ImGui::SliderInt("##value", &v, static_cast<int>(info.min), static_cast<int>(info.max));
      value = v;
      break;
    }
    case ParamKind::Choice: {
      int v = static_cast<int>(value);
      if (ImGui::BeginCombo("##value", info.choices[static_cast<std::size_t>(v)])) {
        for (int i = 0; i < static_cast<int>(info.choices.size()); ++i)
          if (ImGui::Selectable(info.choices[static_cast<std::size_t>(i)], i == v)) v = i, edited = true;
        ImGui::EndCombo();
      }
      value = v;
      break;
    }
    case ParamKind::Toggle: break;
  }
  ImGui::PopID();
  return edited;
}

}  // namespace

void drawSolverPanel(bool* open, PanelContext& ctx) {
  if (!beginPanel("Solver", open, ctx)) return;
  SceneChoice& c = ctx.state.choice;
  const auto infos = solverInfos();
  ImGui::SetNextItemWidth(itemWidthBeside("Method"));
  if (ImGui::BeginCombo("Method", infos[static_cast<std::size_t>(c.solver)].label)) {
    for (int i = 0; i < static_cast<int>(infos.size()); ++i)
      if (offered(ctx.state, i) && ImGui::Selectable(infos[static_cast<std::size_t>(i)].label, i == c.solver))
        chooseSolver({ctx.state, ctx.sim, ctx.baseSetup}, i);
    ImGui::EndCombo();
  }
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", infos[static_cast<std::size_t>(c.solver)].description);
  if (!ctx.state.gpuUnavailable.empty())
    ImGui::TextDisabled("%s (not offered here)", ctx.state.gpuUnavailable.c_str());
  else if (infos[static_cast<std::size_t>(c.solver)].twin)
    ImGui::TextDisabled("on %s", ctx.state.gpuDevice.c_str());
  if (!ctx.snapshot.panes.empty())
    ImGui::TextColored(ImVec4(1.0f, 0.75f, 0.4f, 1.0f),
                       "Side by side: these are pane 1's parameters; an edit goes to every pane that has it, "
                       "except a pane whose item sets it. A method chosen here shows one view.");
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
    for (std::size_t k : order) {
      const ParamInfo& info = table->entries[k];
      if (std::strcmp(group, info.group) != 0) {
        group = info.group;
        ImGui::Spacing();
        ImGui::TextColored(ImVec4(0.55f, 0.75f, 1.0f, 1.0f), "%s", group);
        ImGui::Separator();
      }
      double& value = ctx.state.params[k];
      if (drawParam(info, value, ctx.state)) ctx.sim.post(command::SetParam{info.key, value});
    }
  }
  ImGui::End();
}

void drawViewPanel(bool* open, PanelContext& ctx) {
  if (!beginPanel("View", open, ctx)) return;
  ViewSettings& v = ctx.state.view;
  ImGui::PushItemWidth(itemWidthBeside("Particle size"));
  if (ImGui::BeginCombo("Colour by", fieldInfo(v.colourBy).label)) {
    for (const FieldInfo& f : fieldInfos()) {
      const std::string name = f.key > 0 ? std::string(f.label) + " (" + std::to_string(f.key) + ")" : f.label;
      if (ImGui::Selectable(name.c_str(), f.colourBy == v.colourBy) && f.colourBy != v.colourBy) {
        v.colourBy = f.colourBy;
        ctx.sim.post(command::SetField{f.field});
      }
    }
    ImGui::EndCombo();
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
    if (!ctx.snapshot.fieldAvailable) {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextColored(ImVec4(1, 0.7f, 0.3f, 1), "%s does not compute %s", ctx.snapshot.solver.c_str(),
                         fieldInfo(v.colourBy).legend);
      ImGui::PopTextWrapPos();
    }
  } else {
    ImGui::ColorEdit3("Colour", &v.solidColour.x, ImGuiColorEditFlags_NoInputs);
  }
  ImGui::SliderFloat("Particle size", &v.radiusScale, 0.25f, 2.0f, "%.2fx");
  helpMarker("Drawn radius / physical radius (half the spacing). 1x shows the particles at their true size.");
  ImGui::ColorEdit3("Background", &v.background.x, ImGuiColorEditFlags_NoInputs);
  ImGui::Checkbox("Kernel and neighbours", &v.showKernel);
  helpMarker("Hover over a particle: the circle is its interaction radius (SPH kernel support h, or the contact "
             "distance of hard spheres); the orange dots are the neighbours inside it, which enter its sums.");
  ImGui::Checkbox("Velocity arrows", &v.showVelocity);
  helpMarker("From each particle (every k-th, at most 1,500 arrows), where it moves in 0.05 s: its world "
             "velocity times 0.05 s.");
  if (ctx.snapshot.gridCell > 0.0f) {
    ImGui::Checkbox("Grid", &v.showGrid);
    helpMarker("The MAC grid of the hybrid solvers: pressure at cell centres, velocities on the faces.");
  }
  ImGui::Checkbox("Container frame", &v.containerFrame);
  helpMarker("Draw everything in the container's frame: the bottle stands still and the arrow shows the "
             "fictitious acceleration -A the liquid feels when the bottle is pushed (g - A is what it 'sees'). "
             "Dragging works as in the world view: the bottle moves by the mouse's distance.");
  ImGui::BeginDisabled(!v.containerFrame);
  ImGui::Checkbox("Fictitious forces", &v.showFictitious);
  ImGui::EndDisabled();
  helpMarker("In the container-frame view, while the bottle turns: from each particle (every k-th, at most 1,500) "
             "the centrifugal acceleration omega^2 r (magenta; r from the bottle's centre) and the Coriolis "
             "acceleration -2 omega x v (lime; v relative to the bottle), physics.md (8.4). The longest arrow is 8 % "
             "of the bottle's diagonal, or shorter below 1 m/s^2; the legend gives omega and its length.");
  // Applied on release (gui_app.cpp): the panels are laid out again in the new size.
  ImGui::SliderFloat("UI scale", &v.uiScale, 1.0f, 3.0f, "%.2fx");
  helpMarker("Size of the text and the panels (--ui-scale). 2x suits a high-density display.");
  // Last: the rows above keep the places scripts and users know.
  {
    int shown = static_cast<int>(v.liquidView);
    ImGui::Combo("Show", &shown, "surface\0particles\0both\0");
    v.liquidView = static_cast<render::LiquidView>(shown);
    helpMarker("surface: the liquid drawn as a liquid (in 3D its depth smoothed, its thickness absorbing light, "
               "the background seen through it; in 2D the level set of the particles' summed bumps). "
               "particles: each particle as a ball. both: the particles as beads over the liquid. Key W cycles "
               "them; --view sets the first.");
  }
  ImGui::PopItemWidth();
  ImGui::End();
}

namespace {

// Record (V) and the next recording's settings, which stay put while one runs.
void drawVideoControls(AppState& state) {
  ImGui::Separator();
  const bool recording = state.videoRecording;
  if (recording) ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.75f, 0.2f, 0.2f, 1.0f));
  if (ImGui::Button(recording ? "Stop recording (V)" : "Record (V)")) state.recordToggleRequested = true;
  if (recording) ImGui::PopStyleColor();
  ImGui::BeginDisabled(recording);
  VideoSettings& v = state.video;
  if (v.format == VideoFormat::Gif) v.fps = 30;  // GIF frame times are whole hundredths of a second
  int rate = v.fps == 60 ? 1 : 0, format = v.format == VideoFormat::Gif ? 1 : 0;
  ImGui::BeginDisabled(v.format == VideoFormat::Gif);
  ImGui::SetNextItemWidth(ImGui::CalcTextSize("60 fps").x + ImGui::GetFrameHeight() + em(0.8f));
  if (ImGui::Combo("##fps", &rate, "30 fps\0" "60 fps\0")) v.fps = rate == 1 ? 60 : 30;
  ImGui::EndDisabled();
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::CalcTextSize("MP4").x + ImGui::GetFrameHeight() + em(0.8f));
  if (ImGui::Combo("##format", &format, "MP4\0" "GIF\0")) v.format = format == 1 ? VideoFormat::Gif : VideoFormat::Mp4;
  ImGui::SameLine();
  ImGui::Checkbox("panels", &v.panels);
  ImGui::EndDisabled();
  helpMarker("Records the view to sloshlab_<date>_<time>.mp4 (H.264) or .gif in the current directory, through "
             "ffmpeg. One frame per 1/fps of simulated time: the simulation waits for each frame, so the video is "
             "smooth however slow the solver (the window plays in slow motion instead). The view only (with the "
             "colour legend), or the whole window with 'panels'; never the messages. GIFs are 30 fps: their frame "
             "times are whole hundredths of a second, and players show 1/100 s frames for 1/10 s.");
  if (!state.videoMessage.empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(ImVec4(1.0f, 0.7f, 0.3f, 1.0f), "%s", state.videoMessage.c_str());
    ImGui::PopTextWrapPos();
  }
}

}  // namespace

void drawPlaybackPanel(bool* open, PanelContext& ctx) {
  if (!beginPanel("Playback", open, ctx)) return;
  const Snapshot& s = ctx.snapshot;
  if (ImGui::Button(s.paused ? "Resume (Space)" : "Pause (Space)")) ctx.sim.post(command::SetPaused{!s.paused});
  ImGui::SameLine();
  if (ImGui::Button("Step (N)")) ctx.sim.post(command::StepOnce{});
  ImGui::SameLine();
  if (ImGui::Button("Reset (R)")) ctx.sim.post(command::Reset{});
  const ParamInfo& speedInfo = runSetting("speed");
  float speed = static_cast<float>(s.speed);
  ImGui::SetNextItemWidth(itemWidthBeside("Speed"));
  if (ImGui::SliderFloat("Speed", &speed, static_cast<float>(speedInfo.min), static_cast<float>(speedInfo.max), "%.2fx",
                         ImGuiSliderFlags_Logarithmic))
    ctx.sim.post(command::SetSpeed{speed});
  helpMarker(speedInfo.description);
  drawVideoControls(ctx.state);
  // The spring the bottle follows the mouse with (physics.md (8.7)), from its table.
  const ParamTable& spring = ContainerDriver::followTable();
  if (s.follow.size() == spring.entries.size() && ImGui::CollapsingHeader("Mouse spring")) {
    for (std::size_t k = 0; k < spring.entries.size(); ++k) {
      double value = s.follow[k];
      if (drawParam(spring.entries[k], value, ctx.state))
        ctx.sim.post(command::SetFollow{spring.entries[k].key, value});
    }
  }
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
                           {"[ ]", "previous / next solver"},
                           {"D", "2D / 3D"},
                           {"PageUp PageDown", "previous / next scene (with --lecture, in the lecture view: slide)"},
                           {"1 2 3 4", "colour by speed, density, pressure, solid"},
                           {"H", "hide / show the panels"},
                           {"W", "the liquid's surface, the particles, or both"},
                           {"L", "lecture view: panels hidden, the method and pinned figures in large type "
                                 "(right-click a figure or parameter to pin it)"},
                           {"Ctrl + / Ctrl -", "UI scale up / down"},
                           {"A", "lecture view: add the running state as a slide"},
                           {"click a particle", "pin it in the Inspector (Panels menu)"},
                           {"Ctrl+S", "screenshot (PNG in the current directory)"},
                           {"V", "record a video / stop (Playback panel)"},
                           {"F5", "save the whole state (.slosh; --load-state continues it)"},
                           {"F9", "back to the state F5 saved"},
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

void drawMenuBar(AppState& state) {
  if (!state.panels.ui || state.lecture || !ImGui::BeginMainMenuBar()) return;
  if (ImGui::BeginMenu("Panels")) {
    ImGui::MenuItem("Scene", nullptr, &state.panels.scene);
    ImGui::MenuItem("Solver", nullptr, &state.panels.solver);
    ImGui::MenuItem("Playback", nullptr, &state.panels.playback);
    ImGui::MenuItem("View", nullptr, &state.panels.view);
    ImGui::MenuItem("Stats", nullptr, &state.panels.stats);
    ImGui::MenuItem("Export", nullptr, &state.panels.exportFiles);
    ImGui::MenuItem("Motions", nullptr, &state.panels.motions);
    ImGui::MenuItem("Experiments", nullptr, &state.panels.experiments);
    ImGui::MenuItem("Inspector", nullptr, &state.panels.inspector);
    ImGui::MenuItem("Probes", nullptr, &state.panels.probes);
    ImGui::Separator();
    ImGui::MenuItem("Hide all (H)", nullptr, false, true) ? (void)(state.panels.ui = false) : (void)0;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    ImGui::MenuItem("Keys and mouse (F1)", nullptr, &state.panels.help);
    ImGui::EndMenu();
  }
  ImGui::EndMainMenuBar();
}

void drawPanels(PanelContext& ctx) {
  PanelFlags& open = ctx.state.panels;
  drawScenePanel(&open.scene, ctx);
  drawSolverPanel(&open.solver, ctx);
  drawPlaybackPanel(&open.playback, ctx);
  drawViewPanel(&open.view, ctx);
  drawStatsPanel(&open.stats, ctx);
  drawExportPanel(&open.exportFiles, ctx);
  drawMotionsPanel(&open.motions, ctx);
  drawExperimentsPanel(&open.experiments, ctx);
  drawInspectorPanel(&open.inspector, ctx);
  drawProbesPanel(&open.probes, ctx);
  drawHelpPanel(&open.help);
  ctx.state.relayout = false;
}

}  // namespace sloshlab::app
