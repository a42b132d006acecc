// The Scene panel's sections for what a scene puts in the container besides the liquid:
// the faucet and the outlet (sloshlab/pour.h), and the obstacles (sloshlab/solids.h).
#include "panels.h"

#include "panel_widgets.h"

#include <imgui.h>

#include <cstdio>
#include <string>
#include <vector>

namespace sloshlab::app {

// The scene's faucet and outlet (sloshlab/pour.h): switches and the mass balance.
void drawPourControls(PanelContext& ctx) {
  const PourStats& pour = ctx.snapshot.pour;
  if (!pour.hasFaucet && !pour.hasOutlet) return;
  bool faucet = pour.faucetOn, outlet = pour.outletOn;
  bool changed = false;
  if (pour.hasFaucet) {
    changed = ImGui::Checkbox("Faucet pours", &faucet) || changed;
    helpMarker("Adds a layer of particles across the nozzle each time its jet has moved one spacing: "
               "rate = speed x nozzle area (physics.md (14.1)). It waits while liquid covers the nozzle.");
    if (pour.hasOutlet) ImGui::SameLine();
  }
  if (pour.hasOutlet) {
    changed = ImGui::Checkbox("Outlet open", &outlet) || changed;
    helpMarker("A hole: liquid closer than its radius to its centre leaves and is counted (physics.md (14.3)).");
  }
  if (changed) ctx.sim.post(command::SetPour{faucet, outlet});
  const double held = ctx.snapshot.stats.mass;
  ImGui::Text("in %.4g kg, out %.4g kg, held %.4g kg", pour.massIn, pour.massOut, held);
  helpMarker("Mass poured in, drained out and held now (2D: per metre of depth): held = start + in - out "
             "(physics.md (14.4)).");
}

// The scene's obstacles (sloshlab/solids.h), one line each, in the container's frame.
void drawGeometry(PanelContext& ctx) {
  const std::vector<Obstacle>& obstacles = ctx.snapshot.obstacles;
  if (obstacles.empty()) return;
  const std::size_t count = obstacleGroups(obstacles).size();
  const std::string title =
      "Geometry: " + std::to_string(count) + (count == 1 ? " obstacle" : " obstacles") + "###geometry";
  if (!ImGui::TreeNodeEx(title.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) return;
  const int dim = ctx.snapshot.dim;
  auto point = [dim](const Vec3& v, bool depth) {
    char text[96];
    if (dim == 3 && depth) std::snprintf(text, sizeof text, "(%.3g, %.3g, %.3g)", v.x, v.y, v.z);
    else std::snprintf(text, sizeof text, "(%.3g, %.3g)", v.x, v.y);
    return std::string(text);
  };
  for (const Obstacle& o : obstacles) {
    const bool box = o.shape == Obstacle::Shape::Box, capsule = o.shape == Obstacle::Shape::Capsule;
    // A hole is listed under the shape it is cut from; "around" is the solid outside a shape.
    std::string line = o.hole ? "  less a " : o.outside ? "around a " : "";
    line += Obstacle::shapeName(o.shape);
    line += box || capsule ? " " : " at ";
    line += point(box ? o.min : capsule ? o.a : o.centre, o.hasDepth);
    if (box || capsule) {
      line += " to ";
      line += point(box ? o.max : o.b, o.hasDepth);
    }
    if (o.shape != Obstacle::Shape::Box) {
      char r[32];
      std::snprintf(r, sizeof r, ", r %.3g", o.radius);
      line += r;
    }
    if (dim == 3 && !o.hasDepth && o.shape != Obstacle::Shape::Sphere) line += ", through the depth";
    ImGui::BulletText("%s m", line.c_str());
  }
  helpMarker("Solids fixed to the container, from the scene file (\"obstacles\"), in its frame: the corner at "
             "(0, 0). A shape 'less' others is a difference: a plate with a hole, a bottle with a neck "
             "(physics.md (15.1b)). Every solver keeps the liquid out of them: boundary samples inside them for "
             "the SPH solvers, solid cells for the grid solvers (physics.md §15).");
  ImGui::TreePop();
}

// The floating bodies (sloshlab/bodies.h): each one's shape, its density (editable while
// the run goes), and what the liquid does to it now: its draft, the force and torque.
void drawBodies(PanelContext& ctx) {
  const std::vector<BodyView>& bodies = ctx.snapshot.bodies;
  if (bodies.empty()) return;
  const std::string title = "Bodies: " + std::to_string(bodies.size()) + " floating###bodies";
  if (!ImGui::TreeNodeEx(title.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) return;
  const bool planar = ctx.snapshot.dim == 2;
  for (std::size_t k = 0; k < bodies.size(); ++k) {
    const BodyView& b = bodies[k];
    ImGui::PushID(static_cast<int>(k));
    float density = static_cast<float>(b.spec.density);
    ImGui::SetNextItemWidth(140.0f);
    const std::string label = std::to_string(k + 1) + " " + BodySpec::shapeName(b.spec.shape);
    if (ImGui::SliderFloat(label.c_str(), &density, 50.0f, 3000.0f, "%.0f kg/m^3", ImGuiSliderFlags_Logarithmic))
      ctx.sim.post(command::SetBodyDensity{k, static_cast<double>(density)});
    ImGui::SameLine();
    helpMarker("Density rho_B of the body: it floats where the liquid it displaces weighs as much as it, "
               "d = (rho_B / rho_0) H for a box (physics.md (16.8)); mass and inertia follow (16.2).");
    const Vec3 f = b.meanFluidForce, t = b.meanFluidTorque;
    ImGui::Text("  draft %.1f mm, %.2g m/s", 1e3 * b.draft, glm::length(b.velocity));
    if (planar) {
      ImGui::Text("  force (%.3g, %.3g) N/m", f.x, f.y);
      ImGui::Text("  torque %.3g N m/m", t.z);
    } else {
      ImGui::Text("  force (%.3g, %.3g, %.3g) N", f.x, f.y, f.z);
      ImGui::Text("  torque (%.2g, %.2g, %.2g) N m", t.x, t.y, t.z);
    }
    ImGui::PopID();
  }
  helpMarker("Rigid bodies from the scene file (\"bodies\"): the liquid pushes them particle by particle and "
             "they push it back, as equal and opposite impulses (physics.md §16). Draft: depth of the lowest "
             "point below the liquid's surface away from the bodies. Force and torque (about its centre): the "
             "liquid's on the body, averaged over the last third of a second (2D: per metre of depth). Press a body in the view to hold "
             "and pull it.");
  ImGui::TreePop();
}

}  // namespace sloshlab::app
