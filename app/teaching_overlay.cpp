#include "teaching_overlay.h"

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
  if (!probe.active) return;
  // The support circle lies in the plane facing the camera.
  const glm::mat4 inverseView = glm::inverse(camera.view);
  const glm::vec3 u = glm::normalize(glm::vec3(inverseView[0])), v = glm::normalize(glm::vec3(inverseView[1]));
  overlays.drawDots(camera, probe.neighbours, glm::vec4(1.0f, 0.6f, 0.15f, 1.0f), 5.0f);
  overlays.drawDots(camera, {probe.centre}, glm::vec4(1.0f, 1.0f, 1.0f, 1.0f), 7.0f);
  overlays.drawCircle(camera, probe.centre, probe.radius, u, v, glm::vec4(1.0f, 0.75f, 0.3f, 0.9f));
}

}  // namespace sloshlab::app
