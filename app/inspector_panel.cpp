// The Inspector panel: the particle pinned by a click (with this panel open, or the
// kernel view on) followed through playback by its number: its position, velocity,
// density and pressure, its neighbours within the interaction radius h with the cubic
// spline's weights (physics.md (4.1)), drawn on the bottle, listed, and marked on a plot
// of W(r), and the density sum they make; for the grid solvers (PIC, FLIP, APIC) the
// faces its transfers reach with their weights and the cells around it with their
// pressure and divergence (physics.md (3.1), (3.11)-(3.12)). A floating body pressed in
// the view (physics.md §16) is shown above: its shape, mass and motion, its draft against
// Archimedes, the liquid's force and torque on it against its weight, with the two forces
// drawn as arrows on the body (a free-body diagram).
#include "panel_widgets.h"

#include "container_input.h"

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

// The scene's rest density from the solver's parameters (1000 kg/m^3 where it has none).
double restDensity(const AppState& state) {
  if (!state.paramTable) return 1000.0;
  const auto& entries = state.paramTable->entries;
  for (std::size_t i = 0; i < entries.size() && i < state.params.size(); ++i)
    if (entries[i].key == std::string_view("rest_density")) return state.params[i];
  return 1000.0;
}

const BodyView* inspectedBody(const PanelContext& ctx) {
  const auto& k = ctx.state.inspectedBody;
  return k && *k < ctx.snapshot.bodies.size() ? &ctx.snapshot.bodies[*k] : nullptr;
}

// The gravity in the container's axes (the frame the bodies are in).
Vec3 localGravity(const Snapshot& snap) {
  return glm::transpose(snap.container.pose.rotation()) * snap.gravity;
}

const ImU32 kWeightColour = IM_COL32(255, 90, 80, 255);   // the weight, M g
const ImU32 kLiquidColour = IM_COL32(80, 220, 255, 255);  // the liquid's force

// The body section: what it is, how it moves, and what holds it up.
void drawBodySection(PanelContext& ctx, const BodyView& b) {
  const bool is2d = ctx.snapshot.dim == 2;
  const std::size_t k = *ctx.state.inspectedBody;
  ImGui::Text("body %zu: %s", k + 1, BodySpec::shapeName(b.spec.shape));
  ImGui::SameLine();
  if (ImGui::SmallButton("Unpin##body")) ctx.state.inspectedBody.reset();
  const BodySpec& s = b.spec;
  if (s.shape == BodySpec::Shape::Box && is2d)
    ImGui::Text("%.0f x %.0f mm, %.0f kg/m^3", 1e3 * s.size.x, 1e3 * s.size.y, s.density);
  else if (s.shape == BodySpec::Shape::Box)
    ImGui::Text("%.0f x %.0f x %.0f mm, %.0f kg/m^3", 1e3 * s.size.x, 1e3 * s.size.y,
                1e3 * (s.size.z > 0.0 ? s.size.z : s.size.y), s.density);
  else if (s.shape == BodySpec::Shape::Hull)
    ImGui::Text("deck %.0f, keel %.0f, height %.0f mm, %.0f kg/m^3", 1e3 * s.size.x, 1e3 * s.bottom, 1e3 * s.size.y,
                s.density);
  else if (s.shape == BodySpec::Shape::Ball)
    ImGui::Text("radius %.0f mm, %.0f kg/m^3", 1e3 * s.radius, s.density);
  else
    ImGui::Text("length %.0f mm, radius %.0f mm, %.0f kg/m^3", 1e3 * s.length, 1e3 * s.radius, s.density);
  const char* massUnit = is2d ? "kg/m" : "kg";
  ImGui::Text("mass %s, I_z %.3g %s", formatQuantity(b.mass, massUnit).c_str(), b.inertia.z,
              is2d ? "kg m^2/m" : "kg m^2");
  const Vec3& x = b.position;
  if (is2d) ImGui::Text("centre (%.4f, %.4f) m", x.x, x.y);
  else ImGui::Text("centre (%.4f, %.4f, %.4f) m", x.x, x.y, x.z);
  ImGui::Text("|v| %s, turn %.3g rad/s", formatQuantity(glm::length(b.velocity), "m/s").c_str(),
              is2d ? b.angularVelocity.z : glm::length(b.angularVelocity));
  const double rho0 = restDensity(ctx.state);
  if (b.draft > 0.0) {
    ImGui::Text("draft %.1f mm", 1e3 * b.draft);
    if (s.shape == BodySpec::Shape::Box) ImGui::Text("upright, Archimedes: %.1f mm", 1e3 * s.density / rho0 * s.size.y);
  } else {
    ImGui::TextDisabled("draft: out of the liquid");
  }
  const Vec3 F = b.meanFluidForce, T = b.meanFluidTorque;
  const Vec3 g = localGravity(ctx.snapshot);
  const Vec3 W = b.mass * g;
  const char* forceUnit = is2d ? "N/m" : "N";
  ImGui::PushStyleColor(ImGuiCol_Text, kLiquidColour);
  if (is2d) ImGui::Text("liquid's force (%.3g, %.3g) %s", F.x, F.y, forceUnit);
  else ImGui::Text("liquid's force (%.3g, %.3g, %.3g) %s", F.x, F.y, F.z, forceUnit);
  ImGui::PopStyleColor();
  ImGui::PushStyleColor(ImGuiCol_Text, kWeightColour);
  ImGui::Text("weight M g %.3g %s", glm::length(W), forceUnit);
  ImGui::PopStyleColor();
  if (glm::length(W) > 0.0) {
    const Vec3 down = glm::normalize(W);
    ImGui::Text("liquid / weight %.3f", -glm::dot(F, down) / glm::length(W));
  }
  if (is2d) ImGui::Text("torque %.3g N m/m", T.z);
  else ImGui::Text("torque (%.2g, %.2g, %.2g) N m", T.x, T.y, T.z);
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("The liquid's force and torque (about its centre) averaged over a third of a second; "
                      "arrows on the body: the liquid's force (cyan) and the weight (red), 50 px per M g. A body "
                      "floats at rest where they cancel (liquid / weight 1): the liquid it displaces weighs as much "
                      "as it (physics.md (16.8)).");
  ImGui::PopTextWrapPos();
  ImGui::Separator();
}

}  // namespace

void drawInspectorPanel(bool* open, PanelContext& ctx) {
  if (!beginPanel("Inspector", open, ctx)) return;
  const ParticleInspection& in = ctx.snapshot.inspected;
  const bool is2d = ctx.snapshot.dim == 2;
  if (const BodyView* body = inspectedBody(ctx)) drawBodySection(ctx, *body);
  if (!in.found) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted("Click a particle on the bottle to pin it: this panel follows it through the run.");
    if (!ctx.snapshot.bodies.empty() && !inspectedBody(ctx))
      ImGui::TextUnformatted("Press a floating body to see the forces on it.");
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

void drawBodyForces(PanelContext& ctx, const render::CameraView& camera, const glm::mat4& drawnFromWorld) {
  const BodyView* b = inspectedBody(ctx);
  if (!b) return;
  const Snapshot& snap = ctx.snapshot;
  const Vec3 W = b->mass * localGravity(snap);
  const double weight = glm::length(W);
  if (!(weight > 0.0)) return;
  const Vec3 F = b->meanFluidForce;
  const glm::mat4 toDrawn = drawnFromWorld * containerModel(snap.container.pose, snap.container.size, snap.dim);
  const ImGuiIO& io = ImGui::GetIO();
  auto screen = [&](const Vec3& x) {
    const glm::vec2 px = camera.toPixel(glm::vec3(toDrawn * glm::vec4(glm::vec3(x), 1.0f)));
    return ImVec2(px.x / io.DisplayFramebufferScale.x, px.y / io.DisplayFramebufferScale.y);
  };
  // Lengths on the screen: the direction through the projection, 50 px per M g.
  const ImVec2 c = screen(b->position);
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  auto arrow = [&](const Vec3& force, ImU32 colour) {
    const double size = glm::length(force);
    if (!(size > 1e-6 * weight)) return;
    const ImVec2 tip = screen(b->position + 0.01 * force / size);
    ImVec2 d(tip.x - c.x, tip.y - c.y);
    const float len = std::hypot(d.x, d.y);
    if (!(len > 0.0f)) return;
    const float px = static_cast<float>(50.0 * size / weight);
    d = ImVec2(d.x / len, d.y / len);
    const ImVec2 end(c.x + px * d.x, c.y + px * d.y);
    draw->AddLine(c, end, colour, 3.0f);
    const float head = std::min(10.0f, 0.5f * px);
    draw->AddTriangleFilled(end, ImVec2(end.x - head * d.x - 0.5f * head * d.y, end.y - head * d.y + 0.5f * head * d.x),
                            ImVec2(end.x - head * d.x + 0.5f * head * d.y, end.y - head * d.y - 0.5f * head * d.x), colour);
  };
  arrow(W, kWeightColour);
  arrow(F, kLiquidColour);
  draw->AddCircleFilled(c, 3.5f, IM_COL32(255, 255, 255, 255));
}

}  // namespace sloshlab::app
