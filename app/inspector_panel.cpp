// The Inspector panel: the particle pinned by a click (with this panel open, or the
// kernel view on) followed through playback by its number: its position, velocity,
// density and pressure, its neighbours within the interaction radius h with the cubic
// spline's weights (physics.md (4.1)), drawn on the bottle, listed, and marked on a plot
// of W(r), and the density sum they make.
#include "panel_widgets.h"

#include "format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sloshlab::app {

namespace {

// W(r)/W(0) over [0, h] and the neighbours' (r, W) on it.
void drawKernelPlot(const ParticleInspection& in) {
  if (in.kernelCurve.size() < 2 || !(in.selfWeight > 0.0)) return;
  const ImVec2 size(ImGui::GetContentRegionAvail().x, em(6.0f));
  const ImVec2 p0 = ImGui::GetCursorScreenPos(), p1(p0.x + size.x, p0.y + size.y);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(p0, p1, IM_COL32(30, 34, 40, 255));
  auto at = [&](double r, double w) {
    return ImVec2(p0.x + static_cast<float>(r / in.support) * size.x,
                  p1.y - static_cast<float>(w / in.selfWeight) * (size.y - em(0.3f)));
  };
  const std::size_t n = in.kernelCurve.size();
  for (std::size_t k = 1; k < n; ++k)
    draw->AddLine(at(in.support * static_cast<double>(k - 1) / static_cast<double>(n - 1), in.kernelCurve[k - 1]),
                  at(in.support * static_cast<double>(k) / static_cast<double>(n - 1), in.kernelCurve[k]),
                  IM_COL32(255, 190, 80, 255), 2.0f);
  for (const InspectedNeighbour& nb : in.neighbours)
    draw->AddCircleFilled(at(nb.distance, nb.weight), em(0.22f), IM_COL32(120, 190, 255, 255));
  ImGui::Dummy(size);
  ImGui::TextDisabled("W(r) / W(0) for r from 0 to h; dots: the neighbours");
}

}  // namespace

void drawInspectorPanel(bool* open, PanelContext& ctx) {
  if (!beginPanel("Inspector", open, ctx)) return;
  const ParticleInspection& in = ctx.snapshot.inspected;
  const bool is2d = ctx.snapshot.dim == 2;
  if (!in.found) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted("Click a particle on the bottle to pin it: this panel follows it through the run.");
    ImGui::PopTextWrapPos();
    ImGui::End();
    return;
  }
  ImGui::Text("particle #%u", in.id);
  ImGui::SameLine();
  if (ImGui::SmallButton("Unpin")) ctx.sim.post(command::Pin{false, 0});
  const Vec3& x = in.position;
  const Vec3& v = in.velocity;
  if (is2d) {
    ImGui::Text("x = (%.4f, %.4f) m", x.x, x.y);
    ImGui::Text("v = (%.3f, %.3f) m/s, |v| %s", v.x, v.y, formatQuantity(glm::length(v), "m/s").c_str());
  } else {
    ImGui::Text("x = (%.4f, %.4f, %.4f) m", x.x, x.y, x.z);
    ImGui::Text("|v| = %s", formatQuantity(glm::length(v), "m/s").c_str());
  }
  ImGui::Text("mass %s", formatQuantity(in.mass, is2d ? "kg/m" : "kg").c_str());
  if (std::isfinite(in.density)) ImGui::Text("density %.2f kg/m^3 (the solver's)", in.density);
  if (std::isfinite(in.pressure)) ImGui::Text("pressure %s", formatQuantity(in.pressure, "Pa").c_str());
  if (in.support > 0.0) {
    ImGui::Separator();
    ImGui::Text("%zu neighbours within h = %s", in.neighbours.size(), formatQuantity(in.support, "m").c_str());
    double sum = in.selfWeight;
    for (const InspectedNeighbour& nb : in.neighbours) sum += nb.weight;
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("m (W(0) + sum_j W_ij) = %.2f kg/m^3: the fluid's part of an SPH density sum (physics.md "
                        "(4.7)); the walls' samples add the rest near a wall",
                        in.mass * sum);
    ImGui::PopTextWrapPos();
    drawKernelPlot(in);
    if (ImGui::BeginTable("neighbours", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY,
                          ImVec2(0.0f, std::max(em(4.0f), ImGui::GetContentRegionAvail().y)))) {
      ImGui::TableSetupColumn("#");
      ImGui::TableSetupColumn("r");
      ImGui::TableSetupColumn("W");
      ImGui::TableSetupColumn("dW/dr");
      ImGui::TableHeadersRow();
      for (const InspectedNeighbour& nb : in.neighbours) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text("%u", nb.id);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(formatQuantity(nb.distance, "m").c_str());
        ImGui::TableNextColumn();
        ImGui::Text("%.4g", nb.weight);
        ImGui::TableNextColumn();
        ImGui::Text("%.4g", nb.slope);
      }
      ImGui::EndTable();
    }
  }
  ImGui::End();
}

}  // namespace sloshlab::app
