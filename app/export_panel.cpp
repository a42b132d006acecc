// The Export panel: particle files (CSV, VTK for ParaView, PLY for Blender) from the
// running simulation, every K steps or every S simulated seconds. The simulation
// thread writes them (command::StartExport); the panel shows what it reports back,
// errors included.
#include "panel_widgets.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace sloshlab::app {

namespace {
constexpr const char* kFormatLabels[] = {"csv", "vtk (ParaView)", "ply (Blender)"};
constexpr ExportFormat kFormats[] = {ExportFormat::Csv, ExportFormat::Vtk, ExportFormat::Ply};
}  // namespace

void initExportChoice(ExportChoice& choice, const std::string& dir, ExportFormat format, long every) {
  std::snprintf(choice.dir, sizeof choice.dir, "%s", dir.c_str());
  choice.format = static_cast<int>(std::find(std::begin(kFormats), std::end(kFormats), format) - std::begin(kFormats));
  choice.bySeconds = false;
  choice.everySteps = static_cast<int>(std::clamp(every, 1L, 1000000L));
}

void drawExportPanel(bool* open, PanelContext& ctx) {
  if (!beginPanel("Export", open, ctx)) return;
  ExportChoice& c = ctx.state.exportChoice;
  const ExportStatus& status = ctx.snapshot.exporting;
  ImGui::PushItemWidth(itemWidthBeside("Directory"));

  ImGui::BeginDisabled(status.active);
  ImGui::InputText("Directory", c.dir, sizeof c.dir);
  helpMarker("Where the files go, created if missing (relative paths from where sloshlab started). Frames are "
             "named by step; files of an earlier run with the same steps are replaced.");
  ImGui::Combo("Format", &c.format, kFormatLabels, IM_ARRAYSIZE(kFormatLabels));
  helpMarker("csv: particles_<step>.csv (x,y[,z],vx,vy[,vz]) and container.csv, one row per frame.\n"
             "vtk: particles_<step>.vtp with velocity, density and pressure (where the solver has them) and "
             "container_<step>.vtp, indexed by simulated time in particles.pvd and container.pvd: open the .pvd "
             "files in ParaView.\n"
             "ply: binary particles_<step>.ply (position, velocity, colour by speed) and container_<step>.ply "
             "(the walls), for Blender.\nAll in the world frame; 2D runs have z = 0.");
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Every");
  ImGui::SameLine();
  if (ImGui::RadioButton("K steps", !c.bySeconds)) c.bySeconds = false;
  ImGui::SameLine();
  if (ImGui::RadioButton("S seconds", c.bySeconds)) c.bySeconds = true;
  if (c.bySeconds) {
    ImGui::InputFloat("S (s)", &c.everySeconds, 0.01f, 0.1f, "%.4g");
    c.everySeconds = std::clamp(c.everySeconds, 1e-4f, 1e4f);
    helpMarker("Simulated seconds between frames: a frame at the first step on or after each multiple of S "
               "since Start (1/30 s gives a 30 fps sequence in simulated time).");
  } else {
    ImGui::InputInt("K", &c.everySteps);
    c.everySteps = std::clamp(c.everySteps, 1, 1000000);
    helpMarker("Solver steps between frames (the steps' length varies with the solver and the flow).");
  }
  ImGui::EndDisabled();

  if (!status.active) {
    if (ImGui::Button("Start")) {
      command::StartExport start{c.dir, kFormats[std::clamp(c.format, 0, 2)], c.everySteps, 0.0};
      if (c.bySeconds) start.everySeconds = static_cast<double>(c.everySeconds);
      ctx.sim.post(start);
    }
  } else if (ImGui::Button("Stop")) {
    ctx.sim.post(command::StopExport{});
  }
  ImGui::SameLine();
  const char* format = exportFormatName(status.format);
  if (status.active)
    ImGui::Text("writing %s: %ld frames", format, status.frames);
  else if (status.frames > 0)
    ImGui::Text("stopped: %ld %s frames", status.frames, format);
  else
    ImGui::TextDisabled("not exporting");
  if (status.active || status.frames > 0) ImGui::TextDisabled("in %s", status.dir.c_str());
  if (!status.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 140, 60, 255));
    ImGui::TextWrapped("%s", status.error.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::PopItemWidth();
  ImGui::End();
}

}  // namespace sloshlab::app
