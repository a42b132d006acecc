// Hard spheres (physics.md (1.2)-(1.3)): the oblique elastic collision against hand
// results, conservation over many thousands of collisions in a closed box, and elastic
// bounces under gravity that keep their energy ((1.5a), (2.2a)).
#include "solvers/collisions.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

namespace sloshlab {
namespace {

using C2 = CollisionSolver<2>;
using C3 = CollisionSolver<3>;

TEST(CollisionFormula, HeadOnEqualMassesSwapVelocities) {
  Vec2 v1(1.0, 0.0), v2(-0.5, 0.0);
  C2::collide(v1, v2, 2.0, 2.0, Vec2(0.0), Vec2(0.1, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(v1.x, -0.5);
  EXPECT_DOUBLE_EQ(v2.x, 1.0);
}

TEST(CollisionFormula, ObliqueExchangesOnlyTheNormalComponent) {
  // Contact normal at 45 degrees; sphere 2 at rest. Equal masses: sphere 1 keeps its
  // tangential part (1/2, -1/2)... and gives its normal part (1/2, 1/2) to sphere 2.
  Vec2 v1(1.0, 0.0), v2(0.0, 0.0);
  C2::collide(v1, v2, 1.0, 1.0, Vec2(0.0), Vec2(0.1, 0.1), 1.0);
  EXPECT_NEAR(v1.x, 0.5, 1e-15);
  EXPECT_NEAR(v1.y, -0.5, 1e-15);
  EXPECT_NEAR(v2.x, 0.5, 1e-15);
  EXPECT_NEAR(v2.y, 0.5, 1e-15);
}

TEST(CollisionFormula, UnequalMassesFollowTheOneDimensionalResult) {
  // 1D elastic: v1' = ((m1 - m2) v1 + 2 m2 v2)/(m1 + m2), v2' = ((m2 - m1) v2 + 2 m1 v1)/(m1 + m2).
  const double m1 = 3.0, m2 = 1.0;
  Vec3 v1(2.0, 0.3, -0.1), v2(-1.0, 0.0, 0.2);
  const Vec3 v1Before = v1, v2Before = v2;
  C3::collide(v1, v2, m1, m2, Vec3(0.0), Vec3(0.05, 0.0, 0.0), 1.0);
  EXPECT_NEAR(v1.x, ((m1 - m2) * 2.0 + 2.0 * m2 * -1.0) / (m1 + m2), 1e-14);
  EXPECT_NEAR(v2.x, ((m2 - m1) * -1.0 + 2.0 * m1 * 2.0) / (m1 + m2), 1e-14);
  EXPECT_EQ(v1.y, v1Before.y);
  EXPECT_EQ(v2.z, v2Before.z);
  const Vec3 p0 = m1 * v1Before + m2 * v2Before, p1 = m1 * v1 + m2 * v2;
  EXPECT_LT(glm::length(p1 - p0), 1e-14);
  const double e0 = m1 * glm::dot(v1Before, v1Before) + m2 * glm::dot(v2Before, v2Before);
  const double e1 = m1 * glm::dot(v1, v1) + m2 * glm::dot(v2, v2);
  EXPECT_NEAR(e1, e0, 1e-13);
}

TEST(CollisionFormula, RestitutionScalesTheSeparationSpeedAndSeparatingPairsAreLeftAlone) {
  Vec2 v1(1.0, 0.0), v2(-1.0, 0.0);
  C2::collide(v1, v2, 1.0, 1.0, Vec2(0.0), Vec2(0.1, 0.0), 0.5);
  EXPECT_NEAR(v2.x - v1.x, 0.5 * 2.0, 1e-15);  // separation speed = e * approach speed
  Vec2 a(-1.0, 0.0), b(1.0, 0.0);
  C2::collide(a, b, 1.0, 1.0, Vec2(0.0), Vec2(0.1, 0.0), 1.0);
  EXPECT_EQ(a, Vec2(-1.0, 0.0));
}

// A gas of hard spheres in a closed, still box without gravity: with e = 1, kinetic
// energy stays constant, and momentum changes only by the impulses of the walls.
template <int D>
void expectConservationOverManyCollisions(double spacing) {
  test::SimSpec spec;
  spec.scene = "gas";
  spec.spacing = spacing;
  spec.overrides = {{"restitution", "1"}, {"wall_restitution", "1"}, {"wall_friction", "0"}, {"gravity", "off"}};
  auto sim = test::makeSim<D>(spec);
  const StepStats start = sim->stats();
  Vec3 wallImpulse(0.0);
  double scale = 0.0;  // sum m |v|: the momentum scale of the gas
  for (std::size_t i = 0; i < sim->particles().size(); ++i) scale += sim->particles().m[i] * glm::length(sim->particles().v[i]);
  long collisions = 0;
  while (collisions < 10000) {
    sim->step(0.0);
    ASSERT_FALSE(sim->failed()) << sim->failureMessage();
    collisions += sim->stats().solver.collisions;
    wallImpulse += sim->stats().solver.wallImpulse;
  }
  const StepStats& end = sim->stats();
  EXPECT_NEAR(end.kineticEnergy / start.kineticEnergy, 1.0, 1e-9) << collisions << " collisions";
  const Vec3 imbalance = end.momentum - start.momentum - wallImpulse;
  EXPECT_LT(glm::length(imbalance) / scale, 1e-9);
  EXPECT_GT(glm::length(wallImpulse) / scale, 1e-3);  // the walls did act
  EXPECT_EQ(sim->countOutside(), 0u);
  std::printf("[ figures  ] %dD gas: %ld collisions in %ld steps, |dE/E| = %.2e, |momentum imbalance|/sum m|v| = %.2e\n",
              D, collisions, sim->stepCount(), std::abs(end.kineticEnergy / start.kineticEnergy - 1.0),
              glm::length(imbalance) / scale);
}

TEST(CollisionGas, ConservesEnergyAndMomentumOver10000Collisions2D) { expectConservationOverManyCollisions<2>(0.01); }
TEST(CollisionGas, ConservesEnergyAndMomentumOver10000Collisions3D) { expectConservationOverManyCollisions<3>(0.02); }

// A lone elastic ball dropped from h onto the floor rises back to h at every bounce
// (energy g h per kg). Symplectic Euler with a plain reflection lost about g dt |v| per
// bounce: the lowest apex in 50 bounces was 63 % below h at these steps.
TEST(CollisionGravity, AnElasticBallBouncesBackToItsHeight) {
  const std::string json = R"({"solver": "collisions", "spacing": 0.02, "gravity": [0, -9.81, 0],
    "container": {"size": [0.4, 0.4, 0.4]},
    "fluid": [{"box": {"min": [0.19, 0.29, 0.19], "max": [0.21, 0.31, 0.21]}}]})";
  test::SimSpec spec;
  spec.overrides = {{"wall_friction", "0"}};
  for (int dim : {2, 3}) {
    SCOPED_TRACE(dim);
    auto run = [&](auto sim) {
      ASSERT_EQ(sim->particles().size(), 1u);
      const double r = sim->particles().radius, h = sim->particles().x[0][1] - r;  // drop height of the centre
      double apex = 0.0, lowestApex = 1e9, highestApex = 0.0, rising = 0.0;
      int bounces = 0;
      while (bounces < 50) {
        sim->step(0.0);
        ASSERT_FALSE(sim->failed()) << sim->failureMessage();
        const double y = sim->particles().x[0][1] - r, vy = sim->particles().v[0][1];
        if (vy > 0.0 && rising <= 0.0) ++bounces, apex = 0.0;  // left the floor
        if (vy > 0.0) apex = std::max(apex, y);
        if (vy <= 0.0 && rising > 0.0) lowestApex = std::min(lowestApex, apex), highestApex = std::max(highestApex, apex);
        rising = vy;
      }
      std::printf("[ figures  ] %dD elastic ball from h = %.3f m: apex over 50 bounces %.5f-%.5f m (%.2f %% of h low, "
                  "%.2f %% high)\n",
                  dim, h, lowestApex, highestApex, 100.0 * (lowestApex / h - 1.0), 100.0 * (highestApex / h - 1.0));
      // The apex is sampled at steps of about 1 ms: it can lie below h by (g dt)^2/(2g), 5e-6 m.
      EXPECT_NEAR(lowestApex, h, 0.01 * h);
      EXPECT_NEAR(highestApex, h, 0.01 * h);
    };
    if (dim == 2) run(test::makeSimFromJson<2>(json, spec));
    else run(test::makeSimFromJson<3>(json, spec));
  }
}

// A dense elastic gas resting and bouncing under gravity in a still box keeps its
// mechanical energy (kinetic plus g y): the sum of (1.5a) and (2.2a). With symplectic
// Euler and a plain reflection it lost 0.04 (2D) and 0.08 J/kg (3D) in 5 s, a third and
// two thirds of its kinetic energy.
template <int D>
void expectGasUnderGravityKeepsEnergy(double spacing) {
  test::SimSpec spec;
  spec.scene = "gas";
  spec.spacing = spacing;
  spec.overrides = {{"restitution", "1"}, {"wall_restitution", "1"}, {"wall_friction", "0"}};
  const std::string json = R"({"solver": "collisions", "gravity": [0, -9.81, 0], "container": {"size": [0.4, 0.4, 0.2]},
    "emitter": {"thermal_speed": 0.5}, "fluid": [{"box": {"min": [0.1, 0.02], "max": [0.3, 0.2]}}]})";
  auto sim = test::makeSimFromJson<D>(json, spec);
  auto energy = [&] {
    const StepStats& s = sim->stats();
    return (s.kineticEnergy + s.potentialEnergy) / s.mass;
  };
  const double e0 = energy(), ke0 = sim->stats().kineticEnergy / sim->stats().mass;
  sim->advanceTo(5.0);
  ASSERT_FALSE(sim->failed()) << sim->failureMessage();
  const double drift = energy() - e0;
  std::printf("[ figures  ] %dD elastic gas under gravity, 5 s: E changed %+.2e J/kg of %.3f (KE at start %.3f J/kg)\n",
              D, drift, e0, ke0);
  EXPECT_LT(std::abs(drift), 0.01 * ke0);
  EXPECT_EQ(sim->countOutside(), 0u);
}

TEST(CollisionGravity, AnElasticGasKeepsItsMechanicalEnergy2D) { expectGasUnderGravityKeepsEnergy<2>(0.01); }
TEST(CollisionGravity, AnElasticGasKeepsItsMechanicalEnergy3D) { expectGasUnderGravityKeepsEnergy<3>(0.02); }

TEST(CollisionGas, InelasticCollisionsLoseEnergy) {
  test::SimSpec spec;
  spec.scene = "gas";
  spec.overrides = {{"restitution", "0.5"}, {"gravity", "off"}};
  auto sim = test::makeSim<2>(spec);
  const double e0 = sim->stats().kineticEnergy;
  sim->advanceTo(0.5);
  EXPECT_LT(sim->stats().kineticEnergy, 0.8 * e0);
}

}  // namespace
}  // namespace sloshlab
