// The View panel's fictitious-force arrows (app/frame_forces.h) against the engine's
// own frame acceleration, FrameMotion::acceleration (physics.md (8.3)): for particles
// given in the container's frame and mapped to the world by FrameTransform (8.1)-(8.2),
// as the snapshot carries them, the centrifugal arrow is a_frame(x, 0) - R^T (g - A)
// (no angular acceleration) and the Coriolis arrow a_frame(x, v) - a_frame(x, 0), both
// in the container's axes as the container-frame view draws them, within 1e-5 m/s^2
// (the snapshot is float). Below the turning rate there are no arrows, and the
// subsample never passes the cap.
#include "frame_forces.h"

#include "sloshlab/container.h"

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

namespace sloshlab::app {
namespace {

struct Local {
  Vec2 x, v;
};

Snapshot turningBottle(double omega, const std::vector<Local>& particles, ContainerState& state) {
  state.size = Vec3(0.4, 0.3, 0.0);
  state.pose.position = Vec3(1.2, 0.7, 0.0);
  state.pose.angle = 0.6;
  state.velocity = Vec3(0.3, -0.2, 0.0);
  state.angularVelocity = Vec3(0.0, 0.0, omega);
  Snapshot s;
  s.container = state;
  const FrameTransform<2> frame = FrameTransform<2>::make(state);
  for (const Local& p : particles) {
    const Vec3 x = toVec3<2>(frame.toWorld(p.x)), v = toVec3<2>(frame.velocityToWorld(p.x, p.v));
    for (int k = 0; k < 3; ++k) s.positions.push_back(static_cast<float>(x[k])), s.velocities.push_back(static_cast<float>(v[k]));
  }
  return s;
}

// The container-frame view with the bottle parked at home (angle 0 at `home`): drawn =
// home + R^T (x_w - c), so the drawn axes are the container's.
glm::mat4 containerView(const ContainerState& state, const glm::vec3& home) {
  return glm::translate(glm::mat4(1.0f), home) *
         glm::rotate(glm::mat4(1.0f), static_cast<float>(-state.pose.angle), glm::vec3(0.0f, 0.0f, 1.0f)) *
         glm::translate(glm::mat4(1.0f), -glm::vec3(state.pose.position));
}

TEST(FrameForces, ArrowsAreTheFrameAccelerationsTerms) {
  const std::vector<Local> particles = {{{0.05, 0.02}, {0.4, -0.1}},
                                        {{0.2, 0.15}, {0.0, 0.0}},
                                        {{0.37, 0.28}, {-0.6, 0.9}},
                                        {{0.31, 0.04}, {1.5, 0.2}}};
  for (double omega : {2.5, -1.3}) {
    ContainerState state;
    const Snapshot s = turningBottle(omega, particles, state);
    const FrameForceArrows arrows = frameForceArrows(s, containerView(state, glm::vec3(0.5f, 0.4f, 0.0f)));
    ASSERT_EQ(arrows.from.size(), particles.size());
    const FrameMotion<2> motion = FrameMotion<2>::make(state, Vec3(0.0, -9.81, 0.0));
    ASSERT_EQ(motion.alpha, Vec3(0.0));
    double largest = 0.0;
    for (std::size_t i = 0; i < particles.size(); ++i) {
      const Vec2 still = motion.acceleration(particles[i].x, Vec2(0.0)) - motion.gravityMinusA;
      const Vec2 coriolis = motion.acceleration(particles[i].x, particles[i].v) - motion.acceleration(particles[i].x, Vec2(0.0));
      for (int k = 0; k < 2; ++k) {
        EXPECT_NEAR(arrows.centrifugal[i][k], still[k], 1e-5) << "particle " << i << ", omega " << omega;
        EXPECT_NEAR(arrows.coriolis[i][k], coriolis[k], 1e-5) << "particle " << i << ", omega " << omega;
      }
      EXPECT_NEAR(arrows.centrifugal[i].z, 0.0f, 1e-6);
      EXPECT_NEAR(arrows.coriolis[i].z, 0.0f, 1e-6);
      // Drawn where the container-frame view draws the particle: home + (x - L/2).
      EXPECT_NEAR(arrows.from[i].x, 0.5 + particles[i].x.x - 0.2, 1e-5);
      EXPECT_NEAR(arrows.from[i].y, 0.4 + particles[i].x.y - 0.15, 1e-5);
      largest = std::max({largest, glm::length(still), glm::length(coriolis)});
    }
    EXPECT_NEAR(arrows.largest, largest, 1e-5);
    EXPECT_GT(largest, 1.0);  // the terms compared are not all small
  }
}

// The same in 3D for a bottle tipped and spun, turning about a tilted axis: the arrows,
// in the container's axes, are the terms of (8.3) with omega in every direction.
TEST(FrameForces, ArrowsOfABottleTurningAboutATiltedAxis) {
  ContainerState state;
  state.size = Vec3(0.4, 0.3, 0.2);
  state.pose.position = Vec3(1.2, 0.7, -0.3);
  state.pose.angle = 0.2, state.pose.angleX = 0.5, state.pose.angleY = -1.1;
  state.velocity = Vec3(0.3, -0.2, 0.1);
  state.angularVelocity = Vec3(0.7, -2.4, 0.5);  // world axes
  const std::vector<Vec3> x = {{0.05, 0.02, 0.1}, {0.37, 0.28, 0.03}, {0.31, 0.04, 0.18}};
  const std::vector<Vec3> v = {{0.4, -0.1, 0.2}, {-0.6, 0.9, 0.0}, {1.5, 0.2, -0.7}};
  Snapshot s;
  s.container = state;
  const FrameTransform<3> frame = FrameTransform<3>::make(state);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const Vec3 xw = frame.toWorld(x[i]), vw = frame.velocityToWorld(x[i], v[i]);
    for (int k = 0; k < 3; ++k) s.positions.push_back(static_cast<float>(xw[k])), s.velocities.push_back(static_cast<float>(vw[k]));
  }
  // The container-frame view with home at the origin, unturned: drawn = R^T (x_w - c).
  const glm::mat4 view = glm::mat4(glm::mat3(glm::transpose(state.pose.rotation()))) *
                         glm::translate(glm::mat4(1.0f), -glm::vec3(state.pose.position));
  const FrameForceArrows arrows = frameForceArrows(s, view);
  ASSERT_EQ(arrows.from.size(), x.size());
  EXPECT_NEAR(arrows.omega, glm::length(state.angularVelocity), 1e-12);
  const FrameMotion<3> motion = FrameMotion<3>::make(state, Vec3(0.0, -9.81, 0.0));
  ASSERT_FALSE(motion.aboutZ);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const Vec3 still = motion.acceleration(x[i], Vec3(0.0)) - motion.gravityMinusA;
    const Vec3 coriolis = motion.acceleration(x[i], v[i]) - motion.acceleration(x[i], Vec3(0.0));
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(arrows.centrifugal[i][k], still[k], 1e-5) << "particle " << i;
      EXPECT_NEAR(arrows.coriolis[i][k], coriolis[k], 1e-5) << "particle " << i;
    }
  }
}

TEST(FrameForces, NoArrowsWhileTheBottleDoesNotTurnAndAtMostTheCap) {
  std::vector<Local> many;
  for (int i = 0; i < 4001; ++i) many.push_back({{0.01 + 0.38 * i / 4000.0, 0.1}, {0.1, 0.0}});
  ContainerState state;
  const Snapshot still = turningBottle(0.5 * kTurningRate, many, state);
  EXPECT_TRUE(frameForceArrows(still, glm::mat4(1.0f)).from.empty());
  const Snapshot turning = turningBottle(1.0, many, state);
  const FrameForceArrows arrows = frameForceArrows(turning, glm::mat4(1.0f), 1500);
  EXPECT_LE(arrows.from.size(), 1500u);
  EXPECT_GE(arrows.from.size(), 1000u);
  EXPECT_EQ(arrows.coriolis.size(), arrows.from.size());
  // The scale: the longest arrow 8 % of the diagonal (0.5 m) at >= 1 m/s^2.
  FrameForceArrows strong;
  strong.largest = 4.0f;
  EXPECT_NEAR(frameForceScale(strong, state.size) * 4.0f, 0.04f, 1e-6);
  FrameForceArrows weak;
  weak.largest = 0.1f;
  EXPECT_NEAR(frameForceScale(weak, state.size) * 0.1f, 0.004f, 1e-6);
}

}  // namespace
}  // namespace sloshlab::app
