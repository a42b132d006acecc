// The containment invariant: however violently the container moves, no particle ends
// a step outside it, and nothing blows up. Every solver, 2D and 3D.
#include "support/test_support.h"

#include "sloshlab/solver_registry.h"

#include <gtest/gtest.h>

namespace sloshlab::test {
namespace {

template <int D>
void expectContained(const std::string& solver, double spacing, double duration, bool tumble = false) {
  SimSpec spec;
  spec.scene = "bottle";
  spec.solver = solver;
  spec.spacing = spacing;
  spec.motion = tumble ? tumblingMotion(duration) : violentMotion(duration);
  auto sim = makeSim<D>(spec);
  double maxAcceleration = 0.0;
  while (sim->time() < duration) {
    sim->step(duration);
    ASSERT_FALSE(sim->failed()) << sim->failureMessage();
    ASSERT_EQ(sim->countOutside(), 0u) << solver << " " << D << "D at t = " << sim->time();
    maxAcceleration = std::max(maxAcceleration, glm::length(sim->container().acceleration));
  }
  EXPECT_GT(maxAcceleration, 5.0 * 9.81);  // the motion was as violent as promised
  std::printf("[ figures  ] %s %dD%s: %zu particles, %ld steps, peak container acceleration %.0f m/s^2, 0 outside\n",
              solver.c_str(), D, tumble ? " tumbling" : "", sim->particleCount(), sim->stepCount(), maxAcceleration);
}

class Containment : public ::testing::TestWithParam<std::string> {};

TEST_P(Containment, NoParticleLeavesAViolentlyShakenContainer2D) { expectContained<2>(GetParam(), 0.015, 1.0); }
TEST_P(Containment, NoParticleLeavesAViolentlyShakenContainer3D) { expectContained<3>(GetParam(), 0.03, 0.5); }
TEST_P(Containment, NoParticleLeavesAContainerTumblingAboutAnyAxis3D) { expectContained<3>(GetParam(), 0.03, 0.5, true); }

INSTANTIATE_TEST_SUITE_P(EverySolver, Containment, ::testing::ValuesIn(allSolverNames()),
                         [](const auto& param) { return param.param; });

}  // namespace
}  // namespace sloshlab::test

namespace sloshlab::test {
namespace {

// A blow-up is caught after the step that produced it, reported with the step, and
// the simulation refuses to go on (the app pauses on it). The step that meets the NaN
// must not follow it into memory: a hybrid's advection once carried a NaN position into
// its cell lookups (found by fuzz_state; the sanitizer build runs this test).
template <int D>
void expectNonFiniteStops(const std::string& solver) {
  SimSpec spec;
  spec.solver = solver;
  spec.spacing = D == 2 ? 0.02 : 0.04;
  auto sim = makeSim<D>(spec);
  sim->step(0.0);
  sim->particles().v[7].x = std::numeric_limits<double>::quiet_NaN();
  sim->step(0.0);
  ASSERT_TRUE(sim->failed()) << solver;
  EXPECT_NE(sim->failureMessage().find("non-finite"), std::string::npos) << sim->failureMessage();
  EXPECT_NE(sim->failureMessage().find("step 2"), std::string::npos) << sim->failureMessage();
  const long steps = sim->stepCount();
  sim->step(0.0);
  EXPECT_EQ(sim->stepCount(), steps);
}

class BlowUpEverySolver : public ::testing::TestWithParam<std::string> {};
TEST_P(BlowUpEverySolver, NonFiniteStateStopsTheSimulation2D) { expectNonFiniteStops<2>(GetParam()); }
TEST_P(BlowUpEverySolver, NonFiniteStateStopsTheSimulation3D) { expectNonFiniteStops<3>(GetParam()); }

INSTANTIATE_TEST_SUITE_P(EverySolver, BlowUpEverySolver, ::testing::ValuesIn(allSolverNames()),
                         [](const auto& param) { return param.param; });

TEST(BlowUp, RunawaySpeedStopsTheSimulation) {
  SimSpec spec;
  spec.solver = "collisions";
  auto sim = makeSim<3>(spec);
  sim->particles().v[3] = Vec3(1e4, 0.0, 0.0);
  sim->step(0.0);
  ASSERT_TRUE(sim->failed());
  EXPECT_NE(sim->failureMessage().find("runaway"), std::string::npos) << sim->failureMessage();
}

}  // namespace
}  // namespace sloshlab::test
