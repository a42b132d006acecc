// Lecture mode's pins and heads-up display (lecture.h).
#include "lecture.h"

#include "format.h"
#include "lecture_file.h"
#include "panel_widgets.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "sloshlab/export.h"
#include "sloshlab/motions.h"
#include "sloshlab/params.h"
#include "sloshlab/scene.h"
#include "sloshlab/solver_registry.h"

namespace sloshlab::app {

namespace {

constexpr const char* kParamPrefix = "param:";

// The figure's value as the Stats panel shows it, or "" when the solver has none.
std::string figureValue(const std::string& name, const Snapshot& s) {
  const StepStats& st = s.stats;
  const bool is2d = s.dim == 2;
  char text[64];
  if (name == "Real time") return std::snprintf(text, sizeof text, "%.2fx", s.simSecondsPerSecond), text;
  if (name == "Time") return std::snprintf(text, sizeof text, "%.2f s", st.time), text;
  if (name == "dt") return formatQuantity(st.dt, "s");
  if (name == "Particles") return std::to_string(st.particles);
  if (name == "Kinetic energy") return formatQuantity(st.kineticEnergy, is2d ? "J/m" : "J");
  if (name == "Total energy") return formatQuantity(st.kineticEnergy + st.potentialEnergy, is2d ? "J/m" : "J");
  if (name == "Max speed") return formatQuantity(st.maxSpeed, "m/s");
  if (name == "Density error" && !std::isnan(st.solver.densityErrorMax))
    return "max " + formatQuantity(100.0 * st.solver.densityErrorMax, "%");
  if (name == "Divergence" && !std::isnan(st.solver.divergenceMax)) return formatQuantity(st.solver.divergenceMax, "");
  return "";
}

// A parameter's label and value (in its unit) from the UI's copy of the table.
bool paramValue(const std::string& key, const AppState& state, std::string& label, std::string& value) {
  if (!state.paramTable) return false;
  const auto& entries = state.paramTable->entries;
  for (std::size_t i = 0; i < entries.size() && i < state.params.size(); ++i) {
    if (key != entries[i].key) continue;
    label = entries[i].label;
    const ParamInfo& info = entries[i];
    if (info.kind == ParamKind::Toggle) value = state.params[i] != 0.0 ? "on" : "off";
    else if (info.kind == ParamKind::Choice) value = info.choices[static_cast<std::size_t>(state.params[i])];
    else value = formatQuantity(state.params[i], std::string(info.unit) == "1" ? "" : info.unit);
    return true;
  }
  return false;
}

}  // namespace

std::string figurePin(const std::string& name) { return name; }
std::string paramPin(const std::string& key) { return kParamPrefix + key; }

void pinMenu(AppState& state, const std::string& pin) {
  if (!ImGui::BeginPopupContextItem(("pin " + pin).c_str())) return;
  auto& pins = state.lecturePins;
  const auto at = std::find(pins.begin(), pins.end(), pin);
  if (at != pins.end()) {
    if (ImGui::MenuItem("Unpin from the lecture view")) pins.erase(at);
  } else if (ImGui::MenuItem("Pin to the lecture view (L)", nullptr, false, pins.size() < kMaxPins)) {
    pins.push_back(pin);
  }
  if (pins.size() >= kMaxPins && at == pins.end()) ImGui::TextDisabled("four pinned: unpin one first");
  ImGui::EndPopup();
}

// A lecture slide (lecture_file.h): its scene, solver, dimension, parameters and motion
// as a new simulation, its view and pins, its caption in the heads-up display.
void showSlide(AppState& state, SimulationThread& sim, int index) {
  if (state.slides.slides.empty()) return;
  index = std::clamp(index, 0, static_cast<int>(state.slides.slides.size()) - 1);
  const Slide& slide = state.slides.slides[static_cast<std::size_t>(index)];
  try {
    SimulationSetup setup;
    setup.scene = loadScene(slide.scene);
    setup.dim = slide.dim;
    setup.solver = slide.solver;
    for (const auto& [key, value] : slide.params) setup.overrides.emplace_back(key, value);
    if (slide.motion) setup.motion = makeMotion(*slide.motion, slide.dim);
    sim.post(command::Rebuild{setup, slide.compare.empty() ? std::vector<PaneSpec>{} : parsePaneList(slide.compare)});
    state.choice = initialChoice(setup);
  } catch (const std::exception& e) {
    state.toast = e.what();
    state.toastUntil = ImGui::GetTime() + 5.0;
    return;
  }
  for (const FieldInfo& f : fieldInfos())
    if (slide.colour == f.label) {
      state.view.colourBy = f.colourBy;
      sim.post(command::SetField{f.field});
    }
  state.view.containerFrame = slide.containerFrame;
  if (!slide.pins.empty()) state.lecturePins = slide.pins;
  state.slide = index;
  state.lecture = true;
}

// "Add slide" (A in the lecture view): the running scene, solver, dimension, every
// parameter, the motion the Motions panel last played, the view and the pins, appended
// to the lecture and written to its file.
void addSlide(AppState& state) {
  Slide slide;
  const SceneChoice& c = state.choice;
  slide.scene = c.scenes[static_cast<std::size_t>(c.scene)];
  slide.solver = solverInfos()[static_cast<std::size_t>(c.solver)].name;
  slide.dim = c.dim;
  slide.compare = state.compareList;
  if (state.paramTable)
    for (std::size_t i = 0; i < state.paramTable->entries.size() && i < state.params.size(); ++i)
      slide.params[state.paramTable->entries[i].key] = formatNumber(state.params[i]);
  slide.motion = state.playedMotion;
  slide.colour = fieldInfo(state.view.colourBy).label;
  slide.containerFrame = state.view.containerFrame;
  slide.pins = state.lecturePins;
  slide.caption = "slide " + std::to_string(state.slides.slides.size() + 1);
  if (state.lecturePath.empty()) state.lecturePath = "sloshlab_lecture.json";
  try {
    Lecture next = state.slides;
    next.slides.push_back(slide);
    writeFileAtomically(state.lecturePath, lectureToJson(next));
    state.slides = std::move(next);
    state.slide = static_cast<int>(state.slides.slides.size()) - 1;
    state.toast = "slide " + std::to_string(state.slide + 1) + " added to " + state.lecturePath;
  } catch (const std::exception& e) {
    state.toast = std::string("slide not added: ") + e.what();
  }
  state.toastUntil = ImGui::GetTime() + 4.0;
}

Lecture loadCheckedLecture(const std::string& path) {
  Lecture lecture = loadLecture(path);
  for (std::size_t i = 0; i < lecture.slides.size(); ++i) {
    const Slide& slide = lecture.slides[i];
    try {
      const Scene scene = loadScene(slide.scene);
      const std::string solver = slide.solver.empty() ? scene.solver : slide.solver;
      if (!findSolverInfo(solver)) throw std::runtime_error("unknown solver '" + solver + "'");
      validateSolverParams(solver, slide.params);
    } catch (const std::exception& e) {
      throw std::runtime_error("lecture file '" + path + "', slide " + std::to_string(i + 1) + ": " + e.what());
    }
  }
  return lecture;
}

void drawLectureHud(PanelContext& ctx) {
  const Snapshot& s = ctx.snapshot;
  const AppState& state = ctx.state;
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  const float big = 2.2f * ImGui::GetFontSize(), small = 1.3f * ImGui::GetFontSize();
  const glm::vec4 free = ctx.layout.free;
  ImVec2 at(free.x + em(1.0f), free.y + em(1.0f));
  auto line = [&](const std::string& text, float size, ImU32 colour) {
    const ImVec2 extent = ImGui::GetFont()->CalcTextSizeA(size, FLT_MAX, 0.0f, text.c_str());
    draw->AddRectFilled(ImVec2(at.x - em(0.4f), at.y - em(0.2f)), ImVec2(at.x + extent.x + em(0.4f), at.y + extent.y),
                        IM_COL32(20, 22, 26, 200), em(0.3f));
    draw->AddText(ImGui::GetFont(), size, at, colour, text.c_str());
    at.y += extent.y + em(0.4f);
  };
  line(s.solver + " " + std::to_string(s.dim) + "D, " + s.scene, big, IM_COL32(255, 255, 255, 255));
  if (state.slide >= 0 && state.slide < static_cast<int>(state.slides.slides.size())) {
    const Slide& slide = state.slides.slides[static_cast<std::size_t>(state.slide)];
    if (!slide.caption.empty()) line(slide.caption, big, IM_COL32(255, 220, 120, 255));
  }
  for (const std::string& pin : state.lecturePins) {
    std::string label = pin, value;
    if (pin.rfind(kParamPrefix, 0) == 0) {
      if (!paramValue(pin.substr(std::string(kParamPrefix).size()), state, label, value)) continue;
    } else {
      value = figureValue(pin, s);
    }
    if (!value.empty()) line(label + ": " + value, big, IM_COL32(150, 200, 255, 255));
  }
  std::string keys = "L: panels back; Ctrl +/-: UI scale; A: add this as a slide";
  if (!state.slides.slides.empty())
    keys = "slide " + std::to_string(state.slide + 1) + " of " + std::to_string(state.slides.slides.size()) +
           "; PageDown/PageUp: next/previous; " + keys;
  line(keys, small, IM_COL32(160, 160, 160, 255));
}

}  // namespace sloshlab::app
