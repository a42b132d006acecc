// The teaching overlays (teaching_overlay.h): the kernel probe, the pinned particle's
// neighbours and, for a grid solver, its transfer stencil and cells, the MAC grid, and
// the velocity arrows, and the container frame's centrifugal and Coriolis arrows.
#include "teaching_overlay.h"

#include "frame_forces.h"
#include "panel_widgets.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace sloshlab::app {

namespace {

glm::vec3 drawnParticle(const Snapshot& s, const glm::mat4& drawnFromWorld, std::size_t i) {
  return glm::vec3(drawnFromWorld * glm::vec4(s.positions[3 * i], s.positions[3 * i + 1], s.positions[3 * i + 2], 1.0f));
}

}  // namespace

KernelProbe probeKernel(const render::CameraView& camera, const glm::mat4& drawnFromWorld, const Snapshot& snapshot,
                        const glm::vec2& mouse) {
  KernelProbe probe;
  const std::size_t n = snapshot.positions.size() / 3;
  if (snapshot.interactionRadius <= 0.0f || n == 0) return probe;
  const render::Ray ray = camera.ray(mouse);
  std::size_t best = n;
  float bestDepth = std::numeric_limits<float>::max();
  const float pick = 2.0f * snapshot.radius;
  for (std::size_t i = 0; i < n; ++i) {
    const glm::vec3 p = drawnParticle(snapshot, drawnFromWorld, i);
    const float along = glm::dot(p - ray.origin, ray.direction);
    const glm::vec3 offRay = p - (ray.origin + along * ray.direction);
    if (glm::dot(offRay, offRay) <= pick * pick && along < bestDepth) bestDepth = along, best = i;
  }
  if (best == n) return probe;
  probe.active = true;
  probe.index = best;
  probe.radius = snapshot.interactionRadius;
  probe.centre = drawnParticle(snapshot, drawnFromWorld, best);
  // Every particle within h, in 3D the whole sphere (not only what is visible).
  for (std::size_t i = 0; i < n; ++i) {
    if (i == best) continue;
    const glm::vec3 p = drawnParticle(snapshot, drawnFromWorld, i);
    const glm::vec3 d = p - probe.centre;
    if (glm::dot(d, d) < probe.radius * probe.radius) probe.neighbours.push_back(p);
  }
  return probe;
}

KernelProbe pinnedProbe(const glm::mat4& drawnFromWorld, const Snapshot& snapshot) {
  KernelProbe probe;
  const ParticleInspection& in = snapshot.inspected;
  if (!in.found) return probe;
  auto drawn = [&](const Vec3& p) { return glm::vec3(drawnFromWorld * glm::vec4(glm::vec3(p), 1.0f)); };
  probe.active = true;
  probe.centre = drawn(in.position);
  probe.radius = static_cast<float>(in.support);
  for (const InspectedNeighbour& n : in.neighbours) probe.neighbours.push_back(drawn(n.position));
  const GridInspection& g = in.grid;
  if (g.faces.empty()) return probe;
  probe.cell = static_cast<float>(g.cellSize.x);
  double largest[3] = {0.0, 0.0, 0.0};
  for (const InspectedFace& f : g.faces) largest[f.component] = std::max(largest[f.component], f.weight);
  for (const InspectedFace& f : g.faces)
    probe.faces.push_back({drawn(f.position), f.component,
                           largest[f.component] > 0.0 ? static_cast<float>(f.weight / largest[f.component]) : 0.0f});
  // Cell outlines in the container's xy plane: its axes turned with the container.
  const Mat3 R = snapshot.container.pose.rotation();
  const Vec3 ex = 0.5 * g.cellSize.x * R[0], ey = 0.5 * g.cellSize.y * R[1];
  for (std::size_t k = 0; k < g.cells.size(); ++k) {
    const Vec3 m = g.cells[k].position;
    const Vec3 corner[4] = {m - ex - ey, m + ex - ey, m + ex + ey, m - ex + ey};
    std::vector<glm::vec3>& out = k == 0 ? probe.ownCellOutline : probe.cellOutlines;
    for (int e = 0; e < 4; ++e) out.push_back(drawn(corner[e])), out.push_back(drawn(corner[(e + 1) % 4]));
  }
  return probe;
}

void drawTeachingOverlays(render::OverlayRenderer& overlays, const render::CameraView& camera,
                          const glm::mat4& drawnFromWorld, const glm::mat4& drawnContainer, const Snapshot& snapshot,
                          const ViewSettings& view, const KernelProbe& probe) {
  if (view.showGrid && snapshot.gridCell > 0.0f && snapshot.dim == 2)
    overlays.drawGrid(camera, drawnContainer, glm::vec3(snapshot.container.size), snapshot.gridCell,
                      glm::vec4(0.8f, 0.85f, 1.0f, 0.18f));
  if (view.showVelocity && snapshot.velocities.size() == snapshot.positions.size()) {
    // Where each particle moves in kArrowTime (world velocity), every k-th one so that
    // the arrows stay readable; heads as dots.
    constexpr float kArrowTime = 0.05f;
    constexpr std::size_t kMaxArrows = 1500;
    const std::size_t n = snapshot.positions.size() / 3, every = std::max<std::size_t>(1, n / kMaxArrows);
    std::vector<glm::vec3> segments, heads;
    for (std::size_t i = 0; i < n; i += every) {
      const glm::vec3 p = drawnParticle(snapshot, drawnFromWorld, i);
      const glm::vec3 v(snapshot.velocities[3 * i], snapshot.velocities[3 * i + 1], snapshot.velocities[3 * i + 2]);
      const glm::vec3 head = p + glm::mat3(drawnFromWorld) * (kArrowTime * v);
      segments.push_back(p), segments.push_back(head), heads.push_back(head);
    }
    overlays.drawLines(camera, segments, glm::vec4(1.0f, 1.0f, 1.0f, 0.75f));
    overlays.drawDots(camera, heads, glm::vec4(1.0f, 1.0f, 1.0f, 0.9f), 3.0f);
  }
  if (view.showFictitious && view.containerFrame) {
    // Centrifugal and Coriolis accelerations from each sampled particle (frame_forces.h).
    const FrameForceArrows arrows = frameForceArrows(snapshot, drawnFromWorld);
    const float scale = frameForceScale(arrows, snapshot.container.size);
    for (int kind = 0; kind < 2; ++kind) {
      const std::vector<glm::vec3>& a = kind == 0 ? arrows.centrifugal : arrows.coriolis;
      std::vector<glm::vec3> segments, heads;
      for (std::size_t i = 0; i < a.size(); ++i) {
        const glm::vec3 head = arrows.from[i] + scale * a[i];
        segments.push_back(arrows.from[i]), segments.push_back(head), heads.push_back(head);
      }
      const glm::vec3 colour = kind == 0 ? kCentrifugalColour : kCoriolisColour;
      overlays.drawLines(camera, segments, glm::vec4(colour, 1.0f));
      overlays.drawDots(camera, heads, glm::vec4(colour, 1.0f), 3.0f);
    }
  }
  if (!probe.active) return;
  // The support circle lies in the plane facing the camera.
  const glm::mat4 inverseView = glm::inverse(camera.view);
  const glm::vec3 u = glm::normalize(glm::vec3(inverseView[0])), v = glm::normalize(glm::vec3(inverseView[1]));
  if (!probe.faces.empty()) {
    // The stencil: one colour per velocity component, opacity by weight in 6 steps,
    // squares a third of a cell wide (3 to 9 pixels). The grid's weights replace the
    // SPH-style neighbour dots, which a grid solver does not use.
    const float cellPixels = glm::length(camera.toPixel(probe.centre + probe.cell * u) - camera.toPixel(probe.centre));
    const float side = std::clamp(0.33f * cellPixels, 3.0f, 9.0f);
    const glm::vec3 colour[3] = {{1.0f, 0.35f, 0.3f}, {0.35f, 1.0f, 0.45f}, {1.0f, 0.9f, 0.25f}};
    constexpr int kSteps = 6;
    std::vector<glm::vec3> squares;
    for (int a = 0; a < 3; ++a)
      for (int k = 0; k < kSteps; ++k) {
        squares.clear();
        for (const KernelProbe::Face& f : probe.faces)
          if (f.component == a && std::min(static_cast<int>(f.weight * kSteps), kSteps - 1) == k) squares.push_back(f.at);
        const float alpha = 0.15f + 0.85f * static_cast<float>(k + 1) / static_cast<float>(kSteps);
        overlays.drawSquares(camera, squares, glm::vec4(colour[a], alpha), side);
      }
    overlays.drawLines(camera, probe.cellOutlines, glm::vec4(1.0f, 1.0f, 1.0f, 0.35f));
    overlays.drawLines(camera, probe.ownCellOutline, glm::vec4(1.0f, 1.0f, 1.0f, 0.9f));
  } else {
    overlays.drawDots(camera, probe.neighbours, glm::vec4(1.0f, 0.6f, 0.15f, 1.0f), 5.0f);
  }
  overlays.drawDots(camera, {probe.centre}, glm::vec4(1.0f, 1.0f, 1.0f, 1.0f), 7.0f);
  overlays.drawCircle(camera, probe.centre, probe.radius, u, v, glm::vec4(1.0f, 0.75f, 0.3f, 0.9f));
}

void drawFrameForcesLegend(const ViewSettings& view, const Snapshot& snapshot, const glm::mat4& drawnFromWorld,
                           const glm::vec4& free, const glm::vec4& legendRect) {
  if (!view.showFictitious || !view.containerFrame) return;
  const FrameForceArrows arrows = frameForceArrows(snapshot, drawnFromWorld);  // as drawn: the same subsample
  char rate[128];
  if (arrows.from.empty())
    std::snprintf(rate, sizeof rate, "the bottle is not turning (|omega| < %.2f rad/s)", kTurningRate);
  else
    std::snprintf(rate, sizeof rate, "omega = %.2f rad/s, longest %.2g m/s^2", arrows.omega,
                  static_cast<double>(arrows.largest));
  const char* label[2] = {"centrifugal  omega^2 r", "Coriolis  -2 omega x v"};
  const glm::vec3 colour[2] = {kCentrifugalColour, kCoriolisColour};
  const ImVec2 pad = ImGui::GetStyle().WindowPadding;
  const float line = ImGui::GetTextLineHeightWithSpacing(), swatch = em(1.6f), margin = em(0.5f);
  const float w = std::max({ImGui::CalcTextSize(label[0]).x + swatch + em(0.5f),
                            ImGui::CalcTextSize(label[1]).x + swatch + em(0.5f), ImGui::CalcTextSize(rate).x});
  const ImVec2 box(w + 2.0f * pad.x, 3.0f * line + 2.0f * pad.y);
  const float bottom = legendRect != glm::vec4(0.0f) ? legendRect.y - margin : free.w - margin;
  const ImVec2 pos(free.z - margin - box.x, bottom - box.y);
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  draw->AddRectFilled(pos, ImVec2(pos.x + box.x, pos.y + box.y), IM_COL32(22, 24, 28, 170),
                      ImGui::GetStyle().WindowRounding);
  const ImU32 white = ImGui::GetColorU32(ImGuiCol_Text);
  float y = pos.y + pad.y;
  for (int k = 0; k < 2; ++k, y += line) {
    const ImU32 c = ImGui::GetColorU32(ImVec4(colour[k].x, colour[k].y, colour[k].z, 1.0f));
    const float mid = y + 0.5f * ImGui::GetTextLineHeight();
    draw->AddLine(ImVec2(pos.x + pad.x, mid), ImVec2(pos.x + pad.x + swatch - em(0.3f), mid), c, 2.0f);
    draw->AddText(ImVec2(pos.x + pad.x + swatch, y), white, label[k]);
  }
  draw->AddText(ImVec2(pos.x + pad.x, y), white, rate);
}

}  // namespace sloshlab::app
