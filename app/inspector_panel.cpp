// The Inspector panel: the particle pinned by a click (with this panel open, or the
// kernel view on) followed through playback by its number: its position, velocity,
// density and pressure, its neighbours within the interaction radius h with the cubic
// spline's weights (physics.md (4.1)), drawn on the bottle, listed, and marked on a plot
// of W(r), and the density sum they make; for the grid solvers (PIC, FLIP, APIC) the
// faces its transfers reach with their weights and the cells around it with their
// pressure and divergence (physics.md (3.1), (3.11)-(3.12)).
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

// A grid solver's view of the particle: its stencil's faces with their weights, per
// velocity component, and the cells around it with pressure and divergence.
void drawGridSection(const GridInspection& g, bool is2d) {
  const char* axis[3] = {"u faces (red)", "v faces (green)", "w faces (yellow)"};
  ImGui::Separator();
  ImGui::Text("MAC grid, h = %s", formatQuantity(g.cellSize.x, "m").c_str());
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("P2G scatters m v to these faces with weights w_ip (physics.md (3.1), (3.6)); each "
                      "component's sum to 1. Drawn as squares, more opaque for larger w.");
  ImGui::PopTextWrapPos();
  const int dims = is2d ? 2 : 3;
  for (int a = 0; a < dims; ++a) {
    double sum = 0.0;
    int count = 0;
    for (const InspectedFace& f : g.faces)
      if (f.component == a) sum += f.weight, ++count;
    ImGui::PushID(a);
    if (ImGui::TreeNode("faces", "%s: %d, sum w %.4f", axis[a], count, sum)) {
      if (ImGui::BeginTable("faces", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY, ImVec2(0.0f, em(8.0f)))) {
        ImGui::TableSetupColumn("node");
        ImGui::TableSetupColumn("w");
        ImGui::TableHeadersRow();
        for (const InspectedFace& f : g.faces) {
          if (f.component != a) continue;
          ImGui::TableNextRow();
          ImGui::TableNextColumn();
          if (is2d) ImGui::Text("(%d, %d)", f.node[0], f.node[1]);
          else ImGui::Text("(%d, %d, %d)", f.node[0], f.node[1], f.node[2]);
          ImGui::TableNextColumn();
          ImGui::Text("%.4f", f.weight);
        }
        ImGui::EndTable();
      }
      ImGui::TreePop();
    }
    ImGui::PopID();
  }
  if (g.cells.empty()) return;
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("Its cell (first, outlined bright) and the cells around it, from the last projection: "
                      "div u* before it (3.11), the pressure that removes it, div u after (3.12), in 1/s.");
  ImGui::PopTextWrapPos();
  if (ImGui::BeginTable("cells", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY, ImVec2(0.0f, em(9.0f)))) {
    ImGui::TableSetupColumn("cell");
    ImGui::TableSetupColumn("p");
    ImGui::TableSetupColumn("div u*");
    ImGui::TableSetupColumn("div u");
    ImGui::TableHeadersRow();
    for (const InspectedCell& c : g.cells) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      if (is2d) ImGui::Text("%d,%d", c.cell[0], c.cell[1]);
      else ImGui::Text("%d,%d,%d", c.cell[0], c.cell[1], c.cell[2]);
      ImGui::TableNextColumn();
      if (c.fluid) ImGui::TextUnformatted(formatQuantity(c.pressure, "Pa").c_str());
      else ImGui::TextDisabled("air");  // p = 0 there
      ImGui::TableNextColumn();
      if (std::isfinite(c.divergenceBefore)) ImGui::Text("%.2g", c.divergenceBefore);
      else ImGui::TextDisabled("-");
      ImGui::TableNextColumn();
      if (c.fluid) ImGui::Text("%.1g", c.divergence);
      else ImGui::TextDisabled("-");
    }
    ImGui::EndTable();
  }
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
  if (!in.grid.faces.empty()) drawGridSection(in.grid, is2d);
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
