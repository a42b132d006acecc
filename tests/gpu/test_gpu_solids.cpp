// The GPU path's obstacles (physics.md §15) and floating bodies (§16), held to their CPU
// twins' tests (tests/physics/test_obstacles.cpp, test_bodies.cpp) on whatever OpenGL
// 4.3 the machine has: llvmpipe in CI, so small scenes and short runs.
#include "gpu_test.h"

#include "support/floating.h"
#include "support/obstacles.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace sloshlab::gpu {
namespace {

// Every GPU solver, by name.
class GpuSolids : public ::testing::TestWithParam<std::string> {};

// Obstacles (physics.md §15), the CPU twins' tests (tests/physics/test_obstacles.cpp): the
// obstacles' samples beside the bodies' (device_bodies.h, SolidSamples) and their shapes
// in keepInside (common.glsl). Under violent shaking no particle ends a step inside one;
// the round glass and the necked bottle keep their liquid when tumbled about every axis.
TEST_P(GpuSolids, NoParticleEntersAnObstacleOfAViolentlyShakenContainer) {
  REQUIRE_GPU();
  test::expectKeptOut<2>(GetParam(), 0.015, 1.0);
  test::expectKeptOut<3>(GetParam(), 0.03, 0.5);
  test::expectKeptOut<3>(GetParam(), 0.02, 0.5, test::kRoundGlass, true);
  // Differences (15.1b): the shaders' groupDistance, holes after their shape.
  test::expectKeptOut<3>(GetParam(), 0.02, 0.5, test::kNeckedBottle, true);
}
// The U-tube swings with its column's period, the twins' 8 % (2D): gpu-pbf -2.5 %
// (measured 2026-11-28; gpu-dfsph -4.9 %, left out of the suite: 25 s on llvmpipe for
// what the containment test above already holds it to).
TEST(GpuObstacles, SwingsTheUTubeWithThePeriodOfItsColumn2D) {
  REQUIRE_GPU();
  test::expectUTubePeriod<2>("gpu-pbf", 0.08);
}

// Floating bodies (physics.md §16), the CPU twins' tests (tests/physics/test_bodies.cpp)
// with the samples on the device (wall_samples.glsl) and the contacts on the host's copy
// of the particles near the bodies (device_bodies.h). The half-density box floats at its
// Archimedes draft (16.8), 0.03 m, within the twins' bound, 12 %, over the last `window`
// of `duration` seconds, let go `dropFrom` above the surface. Shorter than the twins'
// runs, for llvmpipe (gpu-dfsph's 3 s of the 2D drop took it a minute): let go at its
// draft and held there, in 2D at 5 mm for 1.5 s (measured over the last second), in 3D
// at 1.2 cm for 1 s (at 1.5 cm the surface's height is read within half a spacing of a
// 2-spacing draft: the CPU twins read +13.4 % and +17.2 %); the CPU twins' tests drop
// it. Measured 2026-11-28 on llvmpipe, see the figures lines; dropped from 5 mm over
// 3 s, 2D gpu-pbf -8.0 %, gpu-dfsph -2.6 % (the twins on the same runs -8.0 % and
// -1.8 %); held 1.5 s in 3D -1.4 % and -3.0 % (the twins +2.7 % and +4.7 %).
template <int D>
void expectDraft(const std::string& solver, double spacing, double dropFrom, double duration) {
  const double expected = 0.03;
  const test::Settled s = test::settle<D>(test::tankWithBox(500.0, dropFrom), solver, spacing, duration, D == 2 ? 1.0 : 0.5);
  std::printf("[ figures  ] %s %dD at %.3g m: draft %.5f m against %.5f (%.1f %%), body speed <= %.3f m/s, "
              "tilt <= %.3f rad\n",
              solver.c_str(), D, spacing, s.draft, expected, 100.0 * (s.draft - expected) / expected, s.speed, s.tilt);
  EXPECT_NEAR(s.draft, expected, 0.12 * expected) << solver << " " << D << "D";
  EXPECT_LT(s.tilt, 0.2) << "a box at half density floats flat";
}
TEST_P(GpuSolids, HoldsABoxAtItsArchimedesDraft2D) {
  REQUIRE_GPU();
  expectDraft<2>(GetParam(), 0.005, -0.03, 1.5);
}
TEST_P(GpuSolids, HoldsABoxAtItsArchimedesDraft3D) {
  REQUIRE_GPU();
  expectDraft<3>(GetParam(), 0.012, -0.03, 1.0);
}
// The twins' heavy box: at twice the liquid's density it sinks and rests on a layer of
// liquid a spacing deep (16.15), 2D at 1 cm as the twins. (In 3D at 1.5 cm for 2 s both
// rested a spacing up, measured 2026-11-28, centre within 4.2-4.8 mm over 0.5 s; left
// out of the suite, 45 s on llvmpipe.)
TEST_P(GpuSolids, SinksAHeavyBoxAndKeepsItOnTheFloor2D) {
  REQUIRE_GPU();
  test::expectSinks<2>(GetParam(), 0.01);
}
// The light end of the range: a ball of a tenth of the liquid's density, where
// the exchange needs the share of (16.14), rises from the floor through the surface and
// floats, stable; 2D at 1 cm for 3 s (the twins' test: 5 mm, 4 s). Its 9 mm draft is
// under a spacing there and every solver reads it shallow: measured 2026-11-28, gpu-pbf
// -53.9 %, gpu-dfsph -15.4 %, the CPU twins on the same run -50.2 % and -55.7 %. The
// bound, 75 %, asks that it float, neither sunk nor thrown out of the water.
TEST_P(GpuSolids, RaisesALightBallFromTheFloor2D) {
  REQUIRE_GPU();
  test::expectLightBallRises<2>(GetParam(), 0.01, 3.0, 0.75);
}

// The drafts the window shows every frame come from the columns' tops found on the device
// (near_particles.comp), not from a copy of every particle: the same level as the host's
// reading of the downloaded particles, to float32's rounding.
TEST_P(GpuSolids, ReadsTheDraftOnTheDeviceAsTheHostDoes) {
  REQUIRE_GPU();
  test::SimSpec spec;
  spec.solver = GetParam();
  spec.spacing = 0.015;
  auto sim = test::makeSimFromJson<3>(test::tankWithBox(500.0, 0.0), spec);
  sim->advanceTo(0.1);
  ASSERT_FALSE(sim->failed()) << sim->failureMessage();
  const double device = sim->bodies().at(0).draft;
  const double level = sim->rigidBodies().surfaceLevel(sim->particles(), sim->spacing());
  const double host = sim->rigidBodies().views(level).at(0).draft;
  std::printf("[ figures  ] %s: draft %.6f m from the device's columns, %.6f from the host's\n", GetParam().c_str(),
              device, host);
  EXPECT_GT(device, 0.01);
  EXPECT_NEAR(device, host, 1e-6);
}

// The samples' pushes are equal and opposite on the device too, in float32: the bound is
// 1e-4 of the momentum (the CPU twins' 1e-12 is double's rounding).
TEST_P(GpuSolids, KeepsTheMomentumOfTheLiquidAndABall) {
  REQUIRE_GPU();
  test::expectMomentumKept<2>(GetParam(), 1e-4);
  test::expectMomentumKept<3>(GetParam(), 1e-4);
}
TEST_P(GpuSolids, NoParticleInsideABodyUnderViolentShaking) {
  REQUIRE_GPU();
  test::expectBodiesHold<2>(GetParam(), 0.015, 1.0);
  test::expectBodiesHold<3>(GetParam(), 0.03, 0.5);
}
TEST_P(GpuSolids, AStateFileWithABodyResumesBitForBit) {
  REQUIRE_GPU();
  test::expectBodiesResume<2>(GetParam());
  test::expectBodiesResume<3>(GetParam());
}

INSTANTIATE_TEST_SUITE_P(EveryGpuSolver, GpuSolids, test_names::kGpuSolvers, test_names::solverTestName);

}  // namespace
}  // namespace sloshlab::gpu
