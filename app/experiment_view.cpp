#include "experiment_view.h"

#include "panel_widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <memory>

namespace sloshlab::app {

namespace {

// The worker's scratch: filled outside the lock, swapped in under it.
struct Copy {
  Snapshot next;
  std::vector<Vec3> x, v;
};

}  // namespace

ExperimentObserver liveObserver(ExperimentRun& run) {
  ExperimentObserver observer;
  auto copy = std::make_shared<Copy>();
  observer.simulation = [&run, copy](const Simulation& sim) {
    if (run.cancel) throw ExperimentCancelled{};
    Snapshot& s = copy->next;
    s.dim = sim.dim();
    s.scene = sim.setup().scene.name;
    s.solver = sim.solverName();
    s.spacing = sim.spacing();
    s.radius = static_cast<float>(sim.particleRadius());
    s.stats = sim.stats();
    s.container = sim.container();
    s.home = s.container.pose;  // the camera follows the container (the tilt experiment drives it metres away)
    s.home.angle = s.home.angleX = s.home.angleY = 0.0;
    s.obstacles = sim.setup().scene.obstacles;  // the baffle, the swirled glass
    s.bodies = sim.bodies();
    sim.worldParticles(copy->x, copy->v);
    s.positions.resize(3 * copy->x.size());
    s.velocities.resize(3 * copy->x.size());
    for (std::size_t i = 0; i < copy->x.size(); ++i)
      for (int k = 0; k < 3; ++k) {
        s.positions[3 * i + k] = static_cast<float>(copy->x[i][k]);
        s.velocities[3 * i + k] = static_cast<float>(copy->v[i][k]);
      }
    s.field = run.field;
    s.fieldAvailable = sim.field(s.field, s.values);
    if (!s.fieldAvailable) s.values.assign(copy->x.size(), 0.0f);
    robustRange(s.values, s.valueLow, s.valueHigh);  // as the simulation thread ranges its field
    std::lock_guard lock(run.mutex);
    std::swap(run.live, s);
    run.live.serial = ++run.liveSerial;
  };
  observer.curve = [&run](const ExperimentResult& sofar) {
    if (run.cancel) throw ExperimentCancelled{};
    std::lock_guard lock(run.mutex);
    run.sofar = sofar;
  };
  return observer;
}

const Snapshot& experimentInView(ExperimentRun& run, const Snapshot& snap, ColourBy colourBy, const glm::vec4& free) {
  run.field = fieldInfo(colourBy).field;
  if (!run.running || run.finished) return snap;  // the panel shows the end in this frame
  {
    std::lock_guard lock(run.mutex);
    if (run.live.serial == 0) return snap;  // nothing to show yet: the scene is being built
    if (run.shown.serial != run.live.serial) run.shown = run.live;
  }
  const Snapshot& s = run.shown;
  char text[200];
  std::snprintf(text, sizeof text, "experiment %s running: t = %.2f s (%s, %dD, %zu particles)", run.name.c_str(),
                s.stats.time, s.solver.c_str(), s.dim, s.positions.size() / 3);
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  const ImVec2 pad = ImGui::GetStyle().WindowPadding, size = ImGui::CalcTextSize(text);
  const ImVec2 at(free.x + em(0.5f), free.w - em(0.5f) - size.y - 2.0f * pad.y);
  draw->AddRectFilled(at, ImVec2(at.x + size.x + 2.0f * pad.x, at.y + size.y + 2.0f * pad.y), IM_COL32(22, 24, 28, 200),
                      ImGui::GetStyle().WindowRounding);
  draw->AddText(ImVec2(at.x + pad.x, at.y + pad.y), IM_COL32(255, 210, 120, 255), text);
  return s;
}

}  // namespace sloshlab::app
