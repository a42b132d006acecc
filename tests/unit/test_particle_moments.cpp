// physics.md (10.11): the world-frame figures from pose-free moments equal the direct
// sums of (10.1)-(10.5) for a moving, turning container (the GPU path reads back the
// moments alone).
#include "sloshlab/particle_moments.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace sloshlab {
namespace {

template <int D>
void expectMomentsGiveTheDirectSums(bool tilted) {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0), signedUnit(-1.0, 1.0);
  const Vec<D> box = D == 2 ? fromVec3<D>(Vec3(0.4, 0.3, 0.0)) : fromVec3<D>(Vec3(0.4, 0.3, 0.2));
  ParticleSet<D> p;
  p.resize(257);
  for (std::size_t i = 0; i < p.size(); ++i) {
    for (int k = 0; k < D; ++k) p.x[i][k] = unit(random) * box[k], p.v[i][k] = 2.0 * signedUnit(random);
    p.m[i] = 0.5 + unit(random);
  }
  ContainerState c;
  c.size = toVec3<D>(box);
  c.pose.position = Vec3(1.3, -0.7, D == 3 ? 0.4 : 0.0);
  c.pose.angle = 0.83;
  c.velocity = Vec3(0.9, -1.7, D == 3 ? 0.6 : 0.0);
  c.angularVelocity = Vec3(0.0, 0.0, -2.3);
  if (tilted) {  // 3D: turned and turning about a tilted axis
    c.pose.angleX = 0.41, c.pose.angleY = -1.1;
    c.angularVelocity = Vec3(0.7, -1.4, 0.5);
  }
  const FrameTransform<D> frame = FrameTransform<D>::make(c);
  const Vec3 g(0.4, -9.81, D == 3 ? 0.3 : 0.0);

  WorldSums direct;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Vec3 x = toVec3<D>(frame.toWorld(p.x[i])), v = toVec3<D>(frame.velocityToWorld(p.x[i], p.v[i]));
    direct.mass += p.m[i];
    direct.momentum += p.m[i] * v;
    direct.angularMomentum += p.m[i] * glm::cross(x - c.pose.position, v);
    direct.kineticEnergy += 0.5 * p.m[i] * glm::dot(v, v);
    direct.potentialEnergy -= p.m[i] * glm::dot(g, x);
  }
  const WorldSums m = worldSums<D>(momentsOf<D>(p, box), frame, g);
  const auto near = [](double a, double b) { EXPECT_NEAR(a, b, 1e-12 * std::max(1.0, std::abs(b))); };
  near(m.mass, direct.mass);
  near(m.kineticEnergy, direct.kineticEnergy);
  near(m.potentialEnergy, direct.potentialEnergy);
  for (int k = 0; k < 3; ++k) near(m.momentum[k], direct.momentum[k]), near(m.angularMomentum[k], direct.angularMomentum[k]);
  EXPECT_TRUE(m.finite);
}

TEST(ParticleMoments, GiveTheDirectWorldSums2D) { expectMomentsGiveTheDirectSums<2>(false); }
TEST(ParticleMoments, GiveTheDirectWorldSums3D) { expectMomentsGiveTheDirectSums<3>(false); }
TEST(ParticleMoments, GiveTheDirectWorldSums3DTurningAboutATiltedAxis) { expectMomentsGiveTheDirectSums<3>(true); }

TEST(ParticleMoments, NonFiniteVelocityIsSeen) {
  ParticleSet<2> p;
  p.resize(3);
  std::fill(p.m.begin(), p.m.end(), 1.0);
  p.v[1].y = std::numeric_limits<double>::infinity();
  EXPECT_FALSE(momentsOf<2>(p, Vec<2>(1.0)).finite);
}

// (9.6a): a level block of L x M x K lattice points at spacing d, heights (k + 1/2) d,
// has variance d^2 (M^2 - 1)/12 along y, so depthAlong reads d sqrt(M^2 - 1); along a
// direction at angle a to -y the variances add as cos^2 a var_y + sin^2 a var_x. The
// block sits off the box centre, so the mean is subtracted too.
template <int D>
void expectDepthOfALatticeBlock() {
  const double d = 0.01;
  const int counts[3] = {50, 20, D == 3 ? 12 : 1};
  ParticleSet<D> p;
  for (int i = 0; i < counts[0]; ++i)
    for (int j = 0; j < counts[1]; ++j)
      for (int k = 0; k < counts[2]; ++k) {
        Vec<D> x(0.0);
        x[0] = (i + 0.5) * d, x[1] = (j + 0.5) * d;
        if constexpr (D == 3) x[2] = (k + 0.5) * d;
        p.x.push_back(x), p.v.push_back(Vec<D>(0.0)), p.m.push_back(0.7);
      }
  const Vec<D> box = D == 2 ? fromVec3<D>(Vec3(0.8, 0.6, 0.0)) : fromVec3<D>(Vec3(0.8, 0.6, 0.3));
  const ParticleMoments m = momentsOf<D>(p, box);
  const auto variance = [&](int c) { return d * d * (counts[c] * counts[c] - 1) / 12.0; };
  EXPECT_NEAR(depthAlong(m, Vec3(0.0, -1.0, 0.0)), d * std::sqrt(counts[1] * counts[1] - 1.0), 1e-12);
  const double a = 0.6;
  const Vec3 down(std::sin(a), -std::cos(a), 0.0);
  const double tilted = std::cos(a) * std::cos(a) * variance(1) + std::sin(a) * std::sin(a) * variance(0);
  EXPECT_NEAR(depthAlong(m, down), std::sqrt(12.0 * tilted), 1e-12);
  if constexpr (D == 3) {
    EXPECT_NEAR(depthAlong(m, Vec3(0.0, 0.0, 1.0)), std::sqrt(12.0 * variance(2)), 1e-12);
  }
  EXPECT_EQ(depthAlong(ParticleMoments{}, Vec3(0.0, -1.0, 0.0)), 0.0);
}

TEST(ParticleMoments, DepthOfALevelBlock2D) { expectDepthOfALatticeBlock<2>(); }
TEST(ParticleMoments, DepthOfALevelBlock3D) { expectDepthOfALatticeBlock<3>(); }

}  // namespace
}  // namespace sloshlab
