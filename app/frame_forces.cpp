// The fictitious forces' arrows (frame_forces.h): physics.md (8.2), (8.4).
#include "frame_forces.h"

#include <algorithm>
#include <cmath>

namespace sloshlab::app {

FrameForceArrows frameForceArrows(const Snapshot& s, const glm::mat4& drawnFromWorld, std::size_t maxArrows) {
  FrameForceArrows out;
  out.omega = s.container.angularVelocity;
  const std::size_t n = s.positions.size() / 3;
  if (!(std::abs(out.omega) > kTurningRate) || s.velocities.size() != s.positions.size() || n == 0 || maxArrows == 0)
    return out;
  const double w = out.omega;
  const Vec3 c = s.container.pose.position, V = s.container.velocity;
  const glm::mat3 axes(drawnFromWorld);
  const std::size_t every = (n + maxArrows - 1) / maxArrows;
  double largest = 0.0;
  for (std::size_t i = 0; i < n; i += every) {
    const Vec3 x(s.positions[3 * i], s.positions[3 * i + 1], s.positions[3 * i + 2]);
    const Vec3 vw(s.velocities[3 * i], s.velocities[3 * i + 1], s.velocities[3 * i + 2]);
    const Vec3 r = x - c;
    const Vec3 v = vw - V - w * Vec3(-r.y, r.x, 0.0);        // R v, from (8.2); e_z x r = (-r_y, r_x, 0)
    const Vec3 centrifugal = w * w * Vec3(r.x, r.y, 0.0);     // omega^2 r in the turning plane, (8.4)
    const Vec3 coriolis = 2.0 * w * Vec3(v.y, -v.x, 0.0);     // -2 omega e_z x v, (8.4)
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
