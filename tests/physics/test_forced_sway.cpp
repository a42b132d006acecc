// Forced sway, docs/physics.md (11.10): the linear modal solution has the properties the
// derivation gives it and reproduces the published comparison with Faltinsen et al.
// (2000)'s gauge (correlation 0.961, RMS 24 mm); the solvers that keep their slosh
// follow the measured gauge at least as well (issue 27's goal: correlation 0.95, RMS
// 25 mm), at the experiment's default resolution.
#include "sloshlab/experiments.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>

namespace sloshlab {
namespace {

std::vector<SwayPoint> linearCurve(const SwayTank& tank, double x) {
  std::vector<SwayPoint> curve;
  for (int k = 0; k <= 1000; ++k) curve.push_back({0.01 * k, swayLinearElevation(tank, x, 0.01 * k)});
  return curve;
}

TEST(ForcedSway, TheLinearSolutionStartsAtRestAndIsAntisymmetric) {
  const SwayTank tank;
  for (double x : {0.05, 0.4, 1.2})
    EXPECT_NEAR(swayLinearElevation(tank, x, 0.0), 0.0, 1e-15) << "from rest (11.10)";
  for (double t : {0.3, 2.1, 7.7}) {
    // Only odd modes are forced: the middle stays at the still level, the two halves mirror.
    EXPECT_NEAR(swayLinearElevation(tank, 0.5 * tank.width, t), 0.0, 1e-12);
    EXPECT_NEAR(swayLinearElevation(tank, 0.3, t), -swayLinearElevation(tank, tank.width - 0.3, t), 1e-12);
  }
  // The tank first accelerates towards -x (x = A (cos(sigma t) - 1)): the liquid piles up
  // at the right wall, the left gauge falls, as the measured record does.
  EXPECT_LT(swayLinearElevation(tank, tank.gaugeX, 0.3), 0.0);
  EXPECT_LT(faltinsenSway().front().eta, 0.0);
}

TEST(ForcedSway, TheLinearSolutionMatchesTheMeasuredGaugeAsPublished) {
  const std::vector<SwayPoint> measured = faltinsenSway();
  ASSERT_EQ(measured.size(), 171u);
  const SwayComparison c = compareWithFaltinsen(linearCurve(SwayTank(), SwayTank().gaugeX));
  std::printf("[ figures  ] the linear solution against Faltinsen et al. 2000: correlation %.4f, RMS %.1f mm, %zu points\n",
              c.correlation, 1000.0 * c.rms, c.points);
  EXPECT_NEAR(c.correlation, 0.961, 0.002);
  EXPECT_NEAR(c.rms, 0.0243, 0.0005);
  EXPECT_GT(c.points, 160u);
}

// At small amplitude (A = 8 mm, A/L = 0.005) and away from resonance (sigma / omega_1 =
// 1.28) the linear solution (11.10) is the reference: the gauge within 10 % of the
// wave's peak (RMS over 5 s) at 0.0075 m spacing, and closer than at 0.02 m. Measured
// 2026-11-28 from the settled level: PIC 5.2 % (18.0 % at 0.02 m), FLIP 6.9 % (21.2 %),
// APIC 7.9 % (15.8 %). The SPH solvers do not meet it (DFSPH 18.1 % at 0.0075 m, 75 s:
// docs/decisions/not_met_yet.md).
class SmallSway : public ::testing::TestWithParam<std::string> {};

TEST_P(SmallSway, FollowsTheLinearSolution2D) {
  SwayTank tank;
  tank.amplitude = 0.008;
  tank.duration = 5.0;
  double ratio[2] = {0.0, 0.0};
  const double spacings[2] = {0.02, 0.0075};
  for (int k = 0; k < 2; ++k) {
    const std::vector<SwayPoint> gauge = swayGauge<2>(GetParam(), spacings[k], tank);
    ASSERT_GT(gauge.size(), 400u);
    double squares = 0.0, peak = 0.0;
    for (const SwayPoint& p : gauge) {
      const double linear = swayLinearElevation(tank, tank.gaugeX, p.t);
      squares += (p.eta - linear) * (p.eta - linear);
      peak = std::max(peak, std::abs(linear));
    }
    ratio[k] = std::sqrt(squares / static_cast<double>(gauge.size())) / peak;
    std::printf("[ figures  ] small sway %s, spacing %.4f m: RMS against (11.10) %.1f %% of its peak %.1f mm\n",
                GetParam().c_str(), spacings[k], 100.0 * ratio[k], 1000.0 * peak);
  }
  EXPECT_LE(ratio[1], 0.10);
  EXPECT_LT(ratio[1], ratio[0]) << "closer at the finer spacing";
}

INSTANTIATE_TEST_SUITE_P(Hybrid, SmallSway, ::testing::Values("apic", "flip", "pic"));

// A solver and the spacing it meets the goal at (0: the experiment's default, 0.02 m, 2,580
// particles).
struct SwayRun {
  const char* solver;
  double spacing;
};
void PrintTo(const SwayRun& r, std::ostream* os) { *os << r.solver << " " << r.spacing; }

class ForcedSwaySolver : public ::testing::TestWithParam<SwayRun> {};

TEST_P(ForcedSwaySolver, FollowsTheMeasuredGauge2D) {
  const SwayRun run = GetParam();
  const ExperimentResult r = runExperiment({"forced_sway", run.solver, 2, run.spacing});
  std::vector<SwayPoint> curve;
  for (const auto& row : r.rows) curve.push_back({row[0], row[1]});
  const SwayComparison c = compareWithFaltinsen(curve);
  std::printf("[ figures  ] forced sway %s 2D, %zu particles: correlation %.4f, RMS %.1f mm\n", run.solver,
              r.particles, c.correlation, 1000.0 * c.rms);
  EXPECT_DOUBLE_EQ(c.correlation, r.measured);
  EXPECT_GE(c.correlation, 0.95);
  EXPECT_LE(c.rms, 0.025);
}

// From the settled level (2026-11-28): APIC 0.962 / 23.9 mm, FLIP 0.965 / 22.1 mm,
// DFSPH 0.967 / 20.7 mm at the default 0.02 m, where PIC reads 0.937 / 20.8 mm, WCSPH
// 0.925 / 26.4 mm and PBF 0.925 / 22.6 mm. Finer: PIC at 0.0125 m (6,624 particles)
// 0.976 / 14.7 mm, 1.4 s; PBF at 0.01 m (10,380) 0.950 / 18.8 mm, but 40 s on two cores,
// and WCSPH at 0.01 m 0.946 / 23.5 mm in 70 s, so not here
// (docs/decisions/not_met_yet.md).
INSTANTIATE_TEST_SUITE_P(KeepTheirSlosh, ForcedSwaySolver,
                         ::testing::Values(SwayRun{"apic", 0.0}, SwayRun{"flip", 0.0}, SwayRun{"dfsph", 0.0},
                                           SwayRun{"pic", 0.0125}),
                         [](const ::testing::TestParamInfo<SwayRun>& p) { return std::string(p.param.solver); });

}  // namespace
}  // namespace sloshlab
