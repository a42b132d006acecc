// Obstacles fixed to the container (sloshlab/solids.h, physics.md §15): under the
// violent shaking of the containment tests no particle of any solver ends a step inside
// an obstacle (nor outside the box), in 2D and 3D; a tank with a baffle at rest stays at
// rest; and the liquid in a U-tube (a box divided by an obstacle from the top down)
// swings with the period 2 pi sqrt(L / (2 g)) of its column of length L.
#include "support/obstacles.h"
#include "support/test_support.h"

#include "sloshlab/solver_registry.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace sloshlab::test {
namespace {

class ObstaclesEverySolver : public ::testing::TestWithParam<std::string> {};
TEST_P(ObstaclesEverySolver, NoParticleEntersAnObstacleOfAViolentlyShakenContainer2D) {
  expectKeptOut<2>(GetParam(), 0.015, 1.0);
}
TEST_P(ObstaclesEverySolver, NoParticleEntersAnObstacleOfAViolentlyShakenContainer3D) {
  expectKeptOut<3>(GetParam(), 0.03, 0.5);
}
// The glass tumbled about every axis (the containment tests' tumble): the liquid stays
// inside the cylinder.
TEST_P(ObstaclesEverySolver, NoParticleLeavesATumbledRoundGlass3D) {
  expectKeptOut<3>(GetParam(), 0.02, 0.5, kRoundGlass, true);
}
// A bottle with a neck and a ring baffle, both differences of shapes (15.1b), tumbled:
// the liquid stays inside the body and neck, and out of the baffle.
TEST_P(ObstaclesEverySolver, NoParticleLeavesATumbledNeckedBottle2D) {
  expectKeptOut<2>(GetParam(), 0.01, 1.0, kNeckedBottle, true);
}
TEST_P(ObstaclesEverySolver, NoParticleLeavesATumbledNeckedBottle3D) {
  expectKeptOut<3>(GetParam(), 0.02, 0.5, kNeckedBottle, true);
}
INSTANTIATE_TEST_SUITE_P(EverySolver, ObstaclesEverySolver, ::testing::ValuesIn(allSolverNames()),
                         [](const auto& param) { return param.param; });

// A tank at rest stays at rest with a baffle in it: after 1.5 s the fastest particle
// of the baffled tank (assets/scenes/baffled_tank.json) is no faster than in the same
// tank without the baffle by more than twice and 1 cm/s (the SPH solvers stay within
// 25 % of it; APIC's 3D tank, whose baffle cuts through cells, 2.1 times: 6.9 against
// 3.2 cm/s), and the surface stays level across the baffle: the mean height of the
// top layer either side within half a spacing.
class BaffledTank : public ::testing::TestWithParam<std::string> {};
TEST_P(BaffledTank, RestsLikeTheTankWithoutIt2D) { expectBaffledTankRests<2>(GetParam()); }
TEST_P(BaffledTank, RestsLikeTheTankWithoutIt3D) { expectBaffledTankRests<3>(GetParam()); }
INSTANTIATE_TEST_SUITE_P(LiquidSolvers, BaffledTank, ::testing::Values("wcsph", "dfsph", "pbf", "pic", "flip", "apic"),
                         [](const auto& param) { return param.param; });

// The U-tube scene (assets/scenes/u_tube.json): legs 0.06 m wide either side of a
// divider hanging down to 0.06 m above the floor. The swing is the difference of the
// liquid's volume in the two legs above the channel, per unit width (m); the period
// comes from its zero crossings (each half a period apart), from the first up to the
// fifth, or as many as the run gives.
class UTube : public ::testing::TestWithParam<std::string> {};
// 2D, 8 %: the corners shorten the column a little (the liquid cuts the inner corner:
// the particle methods swing 3-5 % fast); PIC's own damping, the strongest of the
// methods, lengthens its period by 11 % (a damped oscillator's T / sqrt(1 - zeta^2)).
// 3D, 13 %: the legs are 6 particles wide at the scene's 3D spacing (SPH 9-12 % fast;
// the grid solvers' cells cut the corners differently: FLIP 5 % slow). PIC damps the
// swing out within two crossings, and WCSPH takes 22 s of a test: neither is in the
// 3D rows.
TEST_P(UTube, SwingsWithThePeriodOfItsLiquidColumn2D) {
  expectUTubePeriod<2>(GetParam(), GetParam() == "pic" ? 0.15 : 0.08);
}
INSTANTIATE_TEST_SUITE_P(LiquidSolvers, UTube, ::testing::Values("wcsph", "dfsph", "pbf", "pic", "flip", "apic"),
                         [](const auto& param) { return param.param; });

class UTube3D : public ::testing::TestWithParam<std::string> {};
TEST_P(UTube3D, SwingsWithThePeriodOfItsLiquidColumn) { expectUTubePeriod<3>(GetParam(), 0.13); }
INSTANTIATE_TEST_SUITE_P(LiquidSolvers, UTube3D, ::testing::Values("dfsph", "pbf", "flip", "apic"),
                         [](const auto& param) { return param.param; });

// A state file carries the obstacles (they are part of its scene) and the solver's
// state around them: the U-tube saved after 40 steps and resumed for 40 more is the run
// that never stopped, bit for bit, for an SPH solver and a grid solver in 2D and 3D.
template <int D>
void expectObstaclesResume(const std::string& solver) {
  SimSpec spec;
  spec.scene = "u_tube";
  spec.solver = solver;
  const auto runs = runStraightAndResumed<D>([&] { return makeSim<D>(spec); }, 40);
  ASSERT_NE(runs.resumed, nullptr);
  ASSERT_EQ(runs.resumed->setup().scene.obstacles, runs.straight->setup().scene.obstacles);
  ASSERT_FALSE(runs.straight->failed() || runs.resumed->failed());
  ASSERT_EQ(runs.straight->particles().size(), runs.resumed->particles().size());
  EXPECT_EQ(particlesDifferingInBits<D>(runs.straight->particles(), runs.resumed->particles()), 0u)
      << solver << " " << D << "D";
}

TEST(Obstacles, AStateFileResumesBitForBit) {
  for (const char* solver : {"dfsph", "flip"}) {
    expectObstaclesResume<2>(solver);
    expectObstaclesResume<3>(solver);
  }
}

}  // namespace
}  // namespace sloshlab::test
