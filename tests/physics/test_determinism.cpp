// Results do not depend on the thread count: every per-particle sum runs over the
// same neighbours in the same order whatever the threads (gather loops, stable
// counting sort), so 1 and 2 threads agree to the last bit; the test allows 1e-12 m.
// The diagnostics (energy, momentum, angular momentum: the energy watchdog's input, and
// its reference is kept in state files) are summed in fixed chunks and agree exactly.
#include "support/test_support.h"

#include "sloshlab/solver_registry.h"

#include <omp.h>

#include <gtest/gtest.h>

namespace sloshlab::test {
namespace {

template <int D>
struct Outcome {
  std::vector<Vec<D>> x;
  StepStats stats;
};

template <int D>
Outcome<D> runWithThreads(const std::string& solver, int threads, int steps) {
  const int before = omp_get_max_threads();
  omp_set_num_threads(threads);
  SimSpec spec;
  spec.scene = "drop";
  spec.solver = solver;
  spec.spacing = D == 2 ? 0.01 : 0.02;
  spec.motion = violentMotion(1.0);
  auto sim = makeSim<D>(spec);
  for (int i = 0; i < steps; ++i) sim->step(0.0);
  omp_set_num_threads(before);
  return {sim->particles().x, sim->stats()};
}

template <int D>
void expectSameResult(const std::string& solver) {
  const auto one = runWithThreads<D>(solver, 1, 300);
  const auto two = runWithThreads<D>(solver, 2, 300);
  ASSERT_EQ(one.x.size(), two.x.size());
  double worst = 0.0;
  for (std::size_t i = 0; i < one.x.size(); ++i) worst = std::max(worst, glm::length(one.x[i] - two.x[i]));
  EXPECT_LE(worst, 1e-12) << solver << " " << D << "D";
  EXPECT_EQ(one.stats.kineticEnergy, two.stats.kineticEnergy) << solver << " " << D << "D";
  EXPECT_EQ(one.stats.potentialEnergy, two.stats.potentialEnergy) << solver << " " << D << "D";
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(one.stats.momentum[k], two.stats.momentum[k]) << solver << " " << D << "D";
    EXPECT_EQ(one.stats.angularMomentum[k], two.stats.angularMomentum[k]) << solver << " " << D << "D";
  }
}

class Determinism : public ::testing::TestWithParam<std::string> {};
TEST_P(Determinism, OneAndTwoThreadsAgree2D) { expectSameResult<2>(GetParam()); }
TEST_P(Determinism, OneAndTwoThreadsAgree3D) { expectSameResult<3>(GetParam()); }

INSTANTIATE_TEST_SUITE_P(EverySolver, Determinism, ::testing::ValuesIn(allSolverNames()),
                         [](const auto& param) { return param.param; });

}  // namespace
}  // namespace sloshlab::test
