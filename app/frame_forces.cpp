// The fictitious forces' arrows (frame_forces.h): physics.md (8.2), (8.4).
#include "frame_forces.h"

#include <algorithm>
#include <cmath>

namespace sloshlab::app {

FrameForceArrows frameForceArrows(const Snapshot& s, const glm::mat4& drawnFromWorld, std::size_t maxArrows) {
  FrameForceArrows out;
  const Vec3 w = s.container.angularVelocity;  // world axes
  out.omega = glm::length(w);
  const std::size_t n = s.positions.size() / 3;
  if (!(out.omega > kTurningRate) || s.velocities.size() != s.positions.size() || n == 0 || maxArrows == 0)
    return out;
  const Vec3 c = s.container.pose.position, V = s.container.velocity;
  const glm::mat3 axes(drawnFromWorld);
  const std::size_t every = (n + maxArrows - 1) / maxArrows;
  double largest = 0.0;
  for (std::size_t i = 0; i < n; i += every) {
    const Vec3 x(s.positions[3 * i], s.positions[3 * i + 1], s.positions[3 * i + 2]);
    const Vec3 vw(s.velocities[3 * i], s.velocities[3 * i + 1], s.velocities[3 * i + 2]);
    const Vec3 r = x - c;
    const Vec3 v = vw - V - glm::cross(w, r);                 // R v, from (8.2)
    const Vec3 centrifugal = -glm::cross(w, glm::cross(w, r)); // (8.3)
    const Vec3 coriolis = -2.0 * glm::cross(w, v);             // (8.3)
    largest = std::max({largest, glm::length(centrifugal), glm::length(coriolis)});
    out.from.push_back(glm::vec3(drawnFromWorld * glm::vec4(glm::vec3(x), 1.0f)));
    out.centrifugal.push_back(axes * glm::vec3(centrifugal));
    out.coriolis.push_back(axes * glm::vec3(coriolis));
  }
  out.largest = static_cast<float>(largest);
  return out;
}

float frameForceScale(const FrameForceArrows& arrows, const Vec3& boxSize) {
  const float diagonal = static_cast<float>(std::hypot(boxSize.x, boxSize.y));
  return kArrowFraction * diagonal / std::max(arrows.largest, kArrowFloor);
}

}  // namespace sloshlab::app
