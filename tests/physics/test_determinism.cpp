// Results do not depend on the thread count: every per-particle sum runs over the
// same neighbours in the same order whatever the threads (gather loops, stable
// counting sort), so 1 and 2 threads agree to the last bit; the test allows 1e-12 m.
// The diagnostics (energy, momentum, angular momentum: the energy watchdog's input, and
// its reference is kept in state files) and the solvers' density error are summed in
// fixed chunks and agree exactly.
// The thread governor (sim/src/thread_governor.h) would drop a busy machine's steps to
// one thread and the test would compare one thread with one thread: it is switched off
// (SLOSHLAB_ADAPTIVE_THREADS=0) and every step's StepStats::threads is checked.
#include "support/test_support.h"

#include "sloshlab/solver_registry.h"

#include <omp.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <optional>

namespace sloshlab::test {
namespace {

template <int D>
struct Outcome {
  std::vector<Vec<D>> x;
  StepStats stats;
};

// Sets an environment variable for a scope and puts the old value back after it.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : m_name(name) {
    if (const char* old = std::getenv(name)) m_old = old;
    ::setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (m_old) ::setenv(m_name, m_old->c_str(), 1);
    else ::unsetenv(m_name);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* m_name;
  std::optional<std::string> m_old;
};

template <int D>
Outcome<D> runWithThreads(const std::string& solver, int threads, int steps) {
  // The governor reads the variable when the simulation takes its first step, and
  // keeps every step at omp_get_max_threads() of that moment.
  const ScopedEnv fixedThreads("SLOSHLAB_ADAPTIVE_THREADS", "0");
  const int before = omp_get_max_threads();
  const int dynamicBefore = omp_get_dynamic();
  omp_set_dynamic(0);  // the runtime may not hand a parallel region fewer threads either
  omp_set_num_threads(threads);
  int teamSize = 0;
#pragma omp parallel
#pragma omp master
  teamSize = omp_get_num_threads();
  EXPECT_EQ(teamSize, threads) << "OpenMP gives a parallel region " << teamSize << " threads, not " << threads;
  SimSpec spec;
  spec.scene = "drop";
  spec.solver = solver;
  spec.spacing = D == 2 ? 0.01 : 0.02;
  spec.motion = violentMotion(1.0);
  auto sim = makeSim<D>(spec);
  int wrongSteps = 0;  // steps the governor ran on another count
  int firstWrong = -1;
  for (int i = 0; i < steps; ++i) {
    sim->step(0.0);
    if (sim->stats().threads != threads && wrongSteps++ == 0) firstWrong = sim->stats().threads;
  }
  EXPECT_EQ(wrongSteps, 0) << solver << " " << D << "D: " << wrongSteps << " of " << steps << " steps ran on another"
                           << " thread count (the first on " << firstWrong << "), not " << threads;
  omp_set_num_threads(before);
  omp_set_dynamic(dynamicBefore);
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
  // The solver's reported density error (physics.md (10.7)), where it has one.
  const auto same = [](double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; };
  EXPECT_PRED2(same, one.stats.solver.densityErrorMax, two.stats.solver.densityErrorMax) << solver << " " << D << "D";
  EXPECT_PRED2(same, one.stats.solver.densityErrorMean, two.stats.solver.densityErrorMean) << solver << " " << D << "D";
}

class Determinism : public ::testing::TestWithParam<std::string> {};
TEST_P(Determinism, OneAndTwoThreadsAgree2D) { expectSameResult<2>(GetParam()); }
TEST_P(Determinism, OneAndTwoThreadsAgree3D) { expectSameResult<3>(GetParam()); }

INSTANTIATE_TEST_SUITE_P(EverySolver, Determinism, ::testing::ValuesIn(allSolverNames()),
                         [](const auto& param) { return param.param; });

}  // namespace
}  // namespace sloshlab::test
