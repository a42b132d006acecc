// The Experiments panel: the lab's experiments (sloshlab/experiments.h) run from the
// window, on a thread of their own while the view's simulation pauses. While one runs,
// the view shows its liquid and container in place of the paused simulation's, with a
// caption (experiment_view.h), and the panel its progress and the measured curve so far
// against its reference, with the error so far where the experiment can tell it; at the
// end, the final curve and the one line the command line prints. `--experiment`
// documents each protocol.
#include "experiment_view.h"
#include "panel_widgets.h"

#include "format.h"

#include "sloshlab/experiments.h"
#include "sloshlab/solver_registry.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>

namespace sloshlab::app {

namespace {

void startRun(ExperimentRun& run, const ExperimentRequest& request, SimulationThread& sim) {
  if (run.worker.joinable()) run.worker.join();
  run.progress = 0.0;
  run.cancel = false;
  run.finished = false;
  run.result = ExperimentResult{};
  run.error.clear();
  run.name = request.name;
  {
    std::lock_guard lock(run.mutex);
    run.live = Snapshot{};  // serial 0: nothing to show yet
    run.sofar = ExperimentResult{};
  }
  run.running = true;
  sim.post(command::SetPaused{true});  // the experiment takes the cores
  run.worker = std::thread([&run, request] {
    ExperimentResult result;
    std::string error;
    const ExperimentObserver observer = liveObserver(run);
    try {
      result = runExperiment(
          request,
          [&run](double share) {
            run.progress = share;
            if (run.cancel) throw ExperimentCancelled{};
          },
          &observer);
    } catch (const ExperimentCancelled&) {
      error = "cancelled";
    } catch (const std::exception& e) {
      error = e.what();
    }
    std::lock_guard lock(run.mutex);
    run.result = std::move(result);
    run.error = std::move(error);
    run.finished = true;
  });
}

// The measured curve (column 1) and the reference (the last column, where it has one)
// against column 0, in a box of the panel's width.
void drawCurve(const ExperimentResult& r) {
  if (r.rows.size() < 2 || r.columns.size() < 2) return;
  const std::size_t ref = r.columns.size() >= 3 ? r.columns.size() - 1 : 0;
  // x in either order: the hydrostatic curve runs from the deepest bin up.
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  for (const auto& row : r.rows) {
    x0 = std::min(x0, row[0]), x1 = std::max(x1, row[0]);
    for (std::size_t c : {std::size_t{1}, ref})
      if (c > 0 && std::isfinite(row[c])) y0 = std::min(y0, row[c]), y1 = std::max(y1, row[c]);
  }
  if (!(x1 > x0) || !(y1 >= y0)) return;
  if (y1 == y0) y0 -= 0.5, y1 += 0.5;
  const ImVec2 size(ImGui::GetContentRegionAvail().x, em(8.0f));
  const ImVec2 p0 = ImGui::GetCursorScreenPos(), p1(p0.x + size.x, p0.y + size.y);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(p0, p1, IM_COL32(30, 34, 40, 255));
  auto at = [&](double x, double y) {
    return ImVec2(p0.x + static_cast<float>((x - x0) / (x1 - x0)) * size.x,
                  p1.y - static_cast<float>((y - y0) / (y1 - y0)) * size.y);
  };
  for (std::size_t c : {ref, std::size_t{1}}) {
    if (c == 0) continue;
    const ImU32 colour = c == 1 ? IM_COL32(90, 170, 255, 255) : IM_COL32(255, 170, 60, 255);
    bool drawing = false;
    ImVec2 last;
    for (const auto& row : r.rows) {
      if (!std::isfinite(row[c])) {
        drawing = false;
        continue;
      }
      const ImVec2 p = at(row[0], row[c]);
      if (drawing) draw->AddLine(last, p, colour, 2.0f);
      last = p, drawing = true;
    }
  }
  ImGui::Dummy(size);
  ImGui::TextDisabled("x: %s %.3g to %.3g; y %.3g to %.3g", r.columns[0].c_str(), x0, x1, y0, y1);
  ImGui::TextColored(ImVec4(0.35f, 0.67f, 1.0f, 1.0f), "%s", r.columns[1].c_str());
  if (ref > 0) {
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(1.0f, 0.67f, 0.24f, 1.0f), "%s", r.columns[ref].c_str());
  }
}

// While it runs: the curve so far, and the figure so far where the experiment can tell it.
void drawSoFar(const ExperimentResult& r) {
  const std::string unit = r.unit == "1" ? "" : r.unit;
  ImGui::PushTextWrapPos(0.0f);
  if (r.rows.empty()) {
    ImGui::TextDisabled("no curve yet");
  } else if (std::isfinite(r.measured)) {
    ImGui::Text("so far: %s %s, reference %s: error %.1f %%", r.quantity.c_str(),
                formatQuantity(r.measured, unit.c_str()).c_str(), formatQuantity(r.reference, unit.c_str()).c_str(),
                100.0 * r.relativeError);
  } else if (std::isfinite(r.reference) && r.reference != 0.0) {
    ImGui::Text("so far: %s not measured yet (reference %s)", r.quantity.c_str(),
                formatQuantity(r.reference, unit.c_str()).c_str());
  } else {
    ImGui::Text("so far: %s not measured yet", r.quantity.c_str());
  }
  if (!r.method.empty()) ImGui::TextDisabled("%s", r.method.c_str());
  ImGui::PopTextWrapPos();
  drawCurve(r);
}

}  // namespace

void drawExperimentsPanel(bool* open, PanelContext& ctx) {
  ExperimentRun& run = ctx.state.experiment;
  if (run.running && run.finished) {
    run.worker.join();
    run.running = false;
  }
  if (!beginPanel("Experiments", open, ctx)) return;
  const auto experiments = experimentInfos();
  const auto solvers = solverInfos();
  ExperimentChoice& c = ctx.state.experimentChoice;
  ImGui::PushItemWidth(itemWidthBeside("Experiment"));
  ImGui::BeginDisabled(run.running);
  if (ImGui::BeginCombo("Experiment", experiments[static_cast<std::size_t>(c.experiment)].name)) {
    for (int i = 0; i < static_cast<int>(experiments.size()); ++i)
      if (ImGui::Selectable(experiments[static_cast<std::size_t>(i)].name, i == c.experiment)) {
        c.experiment = i;
        c.solver = -1;  // the experiment's own
      }
    ImGui::EndCombo();
  }
  const ExperimentInfo& info = experiments[static_cast<std::size_t>(c.experiment)];
  helpMarker(info.description);
  const char* solver = c.solver >= 0 ? solvers[static_cast<std::size_t>(c.solver)].name : info.solver;
  if (ImGui::BeginCombo("Solver", solver)) {
    for (int i = 0; i < static_cast<int>(solvers.size()); ++i)
      if (ImGui::Selectable(solvers[static_cast<std::size_t>(i)].label, solvers[i].name == std::string(solver)))
        c.solver = i;
    ImGui::EndCombo();
  }
  ImGui::RadioButton("2D", &c.dim, 2);
  ImGui::SameLine();
  ImGui::RadioButton("3D", &c.dim, 3);
  ImGui::EndDisabled();
  ImGui::PopItemWidth();
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("%s", info.description);
  ImGui::PopTextWrapPos();

  if (!run.running) {
    if (ImGui::Button("Run")) {
      ExperimentRequest request;
      request.name = info.name, request.solver = solver, request.dim = c.dim;
      startRun(run, request, ctx.sim);
    }
    helpMarker("Runs in the background on its own scene and motion, shown in the view while it runs (the view's "
               "simulation pauses; Space resumes it after). The same as sloshlab --headless --experiment NAME "
               "--solver S --dim D.");
  } else {
    ImGui::ProgressBar(static_cast<float>(run.progress.load()), ImVec2(-em(6.0f), 0.0f));
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) run.cancel = true;
  }
  if (run.running) {
    ExperimentResult sofar;
    {
      std::lock_guard lock(run.mutex);
      sofar = run.sofar;
    }
    drawSoFar(sofar);
    ImGui::End();
    return;
  }
  std::lock_guard lock(run.mutex);
  if (!run.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 140, 60, 255));
    ImGui::TextWrapped("%s", run.error.c_str());
    ImGui::PopStyleColor();
  } else if (!run.result.rows.empty()) {
    const ExperimentResult& r = run.result;
    const std::string unit = r.unit == "1" ? "" : r.unit;
    ImGui::PushTextWrapPos(0.0f);
    ImGui::Text("%s, %s %dD, %zu particles:", r.experiment.c_str(), r.solver.c_str(), r.dim, r.particles);
    ImGui::Text("%s %s, reference %s: error %.1f %%", r.quantity.c_str(), formatQuantity(r.measured, unit.c_str()).c_str(),
                formatQuantity(r.reference, unit.c_str()).c_str(), 100.0 * r.relativeError);
    ImGui::TextDisabled("%s", r.method.c_str());
    ImGui::PopTextWrapPos();
    drawCurve(r);
  }
  ImGui::End();
}

}  // namespace sloshlab::app
