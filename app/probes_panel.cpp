// The Probes panel: wave gauges and pressure sensors in the container (sloshlab/probes.h,
// physics.md (11.9) and (11.11)), added by their coordinates or with a click on the
// bottle (2D and 3D), plotted live over the last kProbeWindow simulated seconds, and saved as
// the CSV --probes writes. The simulation thread samples them (command::SetProbes).
#include "panel_widgets.h"

#include "container_input.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace sloshlab::app {

namespace {

constexpr ImU32 kMarker = IM_COL32(255, 200, 60, 230);

// The probe's spec as --probe takes it, for the list and the CSV's column.
std::string probeText(const Probe& p, int dim) {
  char text[160];
  if (p.kind == Probe::Kind::Gauge)
    std::snprintf(text, sizeof text, dim == 3 ? "gauge:x=%.4g,z=%.4g" : "gauge:x=%.4g", p.at.x, p.at.z);
  else if (dim == 3)
    std::snprintf(text, sizeof text, "sensor:x=%.4g,y=%.4g,z=%.4g,r=%.3g", p.at.x, p.at.y, p.at.z, p.radius);
  else
    std::snprintf(text, sizeof text, "sensor:x=%.4g,y=%.4g,r=%.3g", p.at.x, p.at.y, p.radius);
  return text;
}

// Sends the list with `change` applied (the thread places them again and starts over).
void sendProbes(PanelContext& ctx, std::vector<Probe> probes) {
  ctx.sim.post(command::SetProbes{std::move(probes), static_cast<double>(ctx.state.probeChoice.rate)});
}

void addProbe(PanelContext& ctx, double x, double y, double z) {
  const ProbeChoice& c = ctx.state.probeChoice;
  std::vector<Probe> probes = ctx.snapshot.probes.probes;
  Probe p;
  p.kind = c.kind == 0 ? Probe::Kind::Gauge : Probe::Kind::Sensor;
  p.at = Vec3(x, y, z);
  p.hasY = p.kind == Probe::Kind::Sensor;
  p.hasZ = ctx.snapshot.dim == 3;
  p.radius = p.kind == Probe::Kind::Sensor ? static_cast<double>(c.radius) : 0.0;
  p.text = probeText(p, ctx.snapshot.dim);
  probes.push_back(p);
  sendProbes(ctx, std::move(probes));
}

// One probe's readings against time, in a box of the panel's width.
void plotColumn(const ProbeStatus& s, std::size_t column, const char* unit, double scale) {
  const ImVec2 size(ImGui::GetContentRegionAvail().x, em(2.6f));
  const ImVec2 p0 = ImGui::GetCursorScreenPos(), p1(p0.x + size.x, p0.y + size.y);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(p0, p1, IM_COL32(30, 34, 40, 255));
  double t0 = INFINITY, t1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  for (const auto& row : s.rows) {
    if (!std::isfinite(row[column])) continue;
    t0 = std::min(t0, row[0]), t1 = std::max(t1, row[0]);
    y0 = std::min(y0, row[column]), y1 = std::max(y1, row[column]);
  }
  ImGui::Dummy(size);
  if (!(t1 > t0)) return;
  if (y1 - y0 < 1e-12) y0 -= 0.5 * std::max(std::abs(y0), 1e-3), y1 += 0.5 * std::max(std::abs(y1), 1e-3);
  t0 = std::max(t0, t1 - kProbeWindow);
  bool drawing = false;
  ImVec2 last;
  for (const auto& row : s.rows) {
    if (!std::isfinite(row[column])) {
      drawing = false;
      continue;
    }
    const ImVec2 p(p0.x + static_cast<float>((row[0] - t0) / (t1 - t0)) * size.x,
                   p1.y - static_cast<float>((row[column] - y0) / (y1 - y0)) * size.y);
    if (drawing) draw->AddLine(last, p, kMarker, 1.5f);
    last = p, drawing = true;
  }
  char range[96];
  std::snprintf(range, sizeof range, "%.4g to %.4g %s", y0 * scale, y1 * scale, unit);
  draw->AddText(ImVec2(p0.x + em(0.2f), p0.y), IM_COL32(160, 160, 160, 255), range);
}

}  // namespace

void drawProbesPanel(bool* open, PanelContext& ctx) {
  if (!beginPanel("Probes", open, ctx)) return;
  ProbeChoice& c = ctx.state.probeChoice;
  const ProbeStatus& s = ctx.snapshot.probes;
  const int dim = ctx.snapshot.dim;
  ImGui::PushItemWidth(itemWidthBeside("Radius (m)"));

  ImGui::RadioButton("Wave gauge", &c.kind, 0);
  ImGui::SameLine();
  ImGui::RadioButton("Pressure sensor", &c.kind, 1);
  helpMarker("A wave gauge reads the surface's height above the floor at x (physics.md (11.9)); a pressure "
             "sensor the mean pressure of the particles within its radius of a point, averaged over each "
             "sample's time (11.11). A point on a wall reads the wall's pressure there. Coordinates are in "
             "the container's frame: the walls at 0 and at its size.");
  ImGui::InputFloat("x (m)", &c.x, 0.005f, 0.05f, "%.4g");
  if (c.kind == 1) ImGui::InputFloat("y (m)", &c.y, 0.005f, 0.05f, "%.4g");
  if (dim == 3) ImGui::InputFloat("z (m)", &c.z, 0.005f, 0.05f, "%.4g");
  if (c.kind == 1) {
    ImGui::InputFloat("Radius (m)", &c.radius, 0.001f, 0.01f, "%.4g");
    helpMarker("0: two particle spacings.");
  }
  c.radius = std::max(c.radius, 0.0f);
  if (ImGui::Button("Add")) addProbe(ctx, c.x, c.y, dim == 3 ? static_cast<double>(c.z) : 0.0);
  ImGui::SameLine();
  ImGui::Checkbox("Place with a click", &c.placing);
  helpMarker("Then click on the bottle where the probe goes. 2D: a gauge takes the click's x, a sensor its "
             "point. 3D, through the front glass: a sensor goes on the wall or floor behind the click, a gauge "
             "on the column in the middle of the view's path through the bottle.");

  if (ImGui::InputFloat("Rate (1/s)", &c.rate, 10.0f, 50.0f, "%.4g")) c.rate = std::clamp(c.rate, 1.0f, 1000.0f);
  helpMarker("Samples per simulated second; a change starts the readings over.");
  if (ImGui::IsItemDeactivatedAfterEdit() && !s.probes.empty()) sendProbes(ctx, s.probes);

  ImGui::InputText("CSV", c.path, sizeof c.path);
  if (ImGui::Button("Save")) ctx.sim.post(command::SaveProbes{c.path});
  helpMarker("Every reading since the probes were set, as --probes writes them: time, then one column per "
             "probe (h in m, p in Pa).");
  ImGui::SameLine();
  ImGui::TextDisabled("%ld samples at %.4g/s", s.recorded, s.rate);
  if (!s.saved.empty()) ImGui::TextDisabled("saved %s", s.saved.c_str());
  if (!s.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 140, 60, 255));
    ImGui::TextWrapped("%s", s.error.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::Separator();
  if (s.probes.empty()) ImGui::TextDisabled("no probes: add one above, or a scene's \"probes\"");
  const std::vector<double>* latest = s.rows.empty() ? nullptr : &s.rows.back();
  for (std::size_t k = 0; k < s.probes.size(); ++k) {
    const Probe& p = s.probes[k];
    ImGui::PushID(static_cast<int>(k));
    const bool gauge = p.kind == Probe::Kind::Gauge;
    const double value = latest && k + 1 < latest->size() ? (*latest)[k + 1] : NAN;
    ImGui::Text("%zu  %s", k + 1, probeText(p, dim).c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton("remove")) {
      std::vector<Probe> rest = s.probes;
      rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(k));
      sendProbes(ctx, std::move(rest));
    }
    if (gauge) ImGui::Text("   h = %.1f mm", 1e3 * value);
    else ImGui::Text("   p = %.1f Pa", value);
    plotColumn(s, k + 1, gauge ? "mm" : "Pa", gauge ? 1e3 : 1.0);
    ImGui::PopID();
  }
  if (!s.probes.empty() && ImGui::Button("Remove all")) sendProbes(ctx, {});

  ImGui::PopItemWidth();
  ImGui::End();
}

void drawProbeMarkers(PanelContext& ctx, const render::CameraView& camera, const glm::mat4& drawnFromWorld,
                      std::optional<glm::vec2>& clickAt) {
  const Snapshot& snap = ctx.snapshot;
  const int dim = snap.dim;
  const glm::mat4 toDrawn = drawnFromWorld * containerModel(snap.container.pose, snap.container.size, dim);
  const ImGuiIO& io = ImGui::GetIO();
  const glm::vec2 fb(io.DisplayFramebufferScale.x, io.DisplayFramebufferScale.y);
  // A container-frame point on the screen (ImGui units).
  auto screen = [&](double x, double y, double z) {
    const glm::vec2 px = camera.toPixel(glm::vec3(toDrawn * glm::vec4(float(x), float(y), float(z), 1.0f)));
    return ImVec2(px.x / fb.x, px.y / fb.y);
  };
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  for (std::size_t k = 0; k < snap.probes.probes.size(); ++k) {
    const Probe& p = snap.probes.probes[k];
    char number[24];
    std::snprintf(number, sizeof number, "%zu", k + 1);
    if (p.kind == Probe::Kind::Gauge) {
      const ImVec2 a = screen(p.at.x, 0.0, p.at.z), b = screen(p.at.x, snap.container.size.y, p.at.z);
      draw->AddLine(a, b, kMarker, 1.5f);
      draw->AddText(ImVec2(b.x + 3.0f, b.y), kMarker, number);
    } else {
      const ImVec2 centre = screen(p.at.x, p.at.y, p.at.z), rim = screen(p.at.x + p.radius, p.at.y, p.at.z);
      const float r = std::max(3.0f, std::hypot(rim.x - centre.x, rim.y - centre.y));
      draw->AddCircle(centre, r, kMarker, 24, 1.5f);
      draw->AddText(ImVec2(centre.x + r + 2.0f, centre.y - r), kMarker, number);
    }
  }
  // Place with a click, in the container's frame. 2D: the click's point on z = 0. 3D:
  // the ray through the box, seen through its front glass: a sensor goes where it
  // leaves the box (the wall behind the liquid, or the floor), a gauge on the vertical
  // through the middle of its path inside (the column the click looks down into).
  ProbeChoice& c = ctx.state.probeChoice;
  if (!c.placing || !clickAt) return;
  const render::Ray ray = transformRay(glm::inverse(toDrawn), camera.ray(*clickAt));
  glm::vec3 at(0.0f);
  if (dim == 2) {
    if (std::abs(ray.direction.z) < 1e-6f) return;
    at = ray.origin - ray.direction * (ray.origin.z / ray.direction.z);
  } else {
    const glm::vec3 size(snap.container.size.x, snap.container.size.y, snap.container.size.z);
    float enter = -INFINITY, leave = INFINITY;
    for (int a = 0; a < 3; ++a) {
      if (std::abs(ray.direction[a]) < 1e-9f) {
        if (ray.origin[a] < 0.0f || ray.origin[a] > size[a]) return;
        continue;
      }
      float t0 = (0.0f - ray.origin[a]) / ray.direction[a], t1 = (size[a] - ray.origin[a]) / ray.direction[a];
      if (t0 > t1) std::swap(t0, t1);
      enter = std::max(enter, t0), leave = std::min(leave, t1);
    }
    if (!(leave > enter) || leave < 0.0f) return;  // the click missed the bottle
    const float t = c.kind == 0 ? 0.5f * (std::max(enter, 0.0f) + leave) : leave;
    at = glm::clamp(ray.origin + t * ray.direction, glm::vec3(0.0f), size);
  }
  // To a tenth of a millimetre: what the list shows is what was placed.
  c.x = std::round(at.x * 1e4f) / 1e4f, c.y = std::round(at.y * 1e4f) / 1e4f, c.z = std::round(at.z * 1e4f) / 1e4f;
  addProbe(ctx, c.x, c.y, dim == 3 ? static_cast<double>(c.z) : 0.0);
  c.placing = false;
  clickAt.reset();  // the click placed a probe; it pins no particle
}

}  // namespace sloshlab::app
