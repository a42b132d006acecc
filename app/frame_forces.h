// The container frame's fictitious forces per particle, for the View panel's
// "Fictitious forces" arrows: while the bottle turns, the centrifugal acceleration
// -omega x (omega x r) and the Coriolis acceleration -2 omega x v of physics.md (8.3), with r
// from the rotation centre (the container's centre) and v the velocity relative to the
// container. No GL here: the unit tests check the vectors.
#pragma once

#include "snapshot.h"

#include <glm/glm.hpp>

#include <cstddef>
#include <vector>

namespace sloshlab::app {

struct FrameForceArrows {
  double omega = 0.0;                 // the container's rate |omega| (rad/s)
  std::vector<glm::vec3> from;        // the particles' drawn positions (a subsample)
  std::vector<glm::vec3> centrifugal; // m/s^2, in the drawn space's axes
  std::vector<glm::vec3> coriolis;    // m/s^2, in the drawn space's axes
  float largest = 0.0f;               // the largest |a| of either kind (m/s^2)
};

// Below this rate (rad/s) the bottle counts as not turning: no arrows.
inline constexpr double kTurningRate = 0.05;

// The arrows of every k-th particle (at most maxArrows) when |omega| > kTurningRate;
// empty otherwise. The snapshot's positions and velocities are world-frame (8.1)-(8.2):
// with r_w = x_w - c, omega_w = R omega (world axes) and the relative velocity in world axes
//     R v = v_w - V - omega_w x r_w          (8.2 solved for v),
// the world-axes vectors R (-omega x (omega x r)) = -omega_w x (omega_w x r_w) and
// R (-2 omega x v) = -2 omega_w x (R v) (a rotation commutes with the cross product), mapped into the drawn
// space by drawnFromWorld's rotation (in the container-frame view that is R_home R^T:
// the container's own axes, as the bottle is drawn).
FrameForceArrows frameForceArrows(const Snapshot& s, const glm::mat4& drawnFromWorld, std::size_t maxArrows = 1500);

// Metres of arrow per m/s^2: the longest arrow as long as kArrowFraction of the box's
// diagonal, and arrows for less than kArrowFloor m/s^2 shorter than that, so that a slow
// turn's small accelerations draw short rather than blown up.
inline constexpr float kArrowFraction = 0.08f, kArrowFloor = 1.0f;
float frameForceScale(const FrameForceArrows& arrows, const Vec3& boxSize);

// The two kinds' colours (the arrows and their legend): magenta and lime, apart from
// the particles' colour maps' blues and the white and orange arrows of -A and g - A.
inline const glm::vec3 kCentrifugalColour{1.0f, 0.3f, 0.85f}, kCoriolisColour{0.7f, 1.0f, 0.15f};

}  // namespace sloshlab::app
