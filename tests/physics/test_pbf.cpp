// Position-based fluids (pbf.h) at its default sub-steps and iterations: hydrostatic
// tanks (compression, rest) and the Martin & Moyce dam break at its own fixed steps.
// Containment under the violent shake and thread-count independence are the
// every-solver tests (test_containment.cpp, test_determinism.cpp).
#include "solvers/pbf.h"
#include "support/dam_break.h"
#include "support/tank.h"

#include <gtest/gtest.h>


namespace sloshlab {
namespace {

// The tank protocol (settling, depth bins, speeds, densities) is in support/tank.h; the
// densities are the solver's density ratio after its last constraint solve.
template <int D>
test::SettledTank settledTank(double spacing, double free) {
  return test::settleTankWith<PbfSolver<D>, D>("pbf", spacing, free);
}

// The issue asks for one or two sub-steps per 1/60 s frame by default.
TEST(PbfDefaults, TwoSubStepsPerFrame) {
  EXPECT_LE(PbfParams{}.substeps, 2);
}

// "At rest" for PBF at its default 2 sub-steps x 16 iterations: the settled tanks keep
// a jitter whose size depends on the run's history (measured at whole 8.3 ms steps:
// 2D 0.9-2.8 cm/s mean, 5.6-7.7 cm/s max, 0.6-4.7e-4 J/kg; 3D 2.4-5.1 cm/s mean,
// 7.4-11 cm/s max, 3.4-16e-4 J/kg, the ranges over small code changes that alter the
// step sequence). The bounds hold the worst of these with about 30 % margin: 5 % and
// 10 % of sqrt(g H) (7 and 14 cm/s), 2e-3 J/kg. WCSPH rests within 0.2 % and 2 %: PBF at
// 8.3 ms steps does not (pbf.h, STATUS).
const test::RestBounds kRest{0.05, 0.10, 2e-3};

// A 40-layer 2D tank (spacing 5 mm), 1 s free. Measured: mean compression 1.7-1.8 %, the
// floor row +3.9 to +5.0 %. Bounds: 2.5 % and 6 %.
TEST(PbfHydrostatic, HoldsDensityAndRests2D) {
  const test::SettledTank f = settledTank<2>(0.005, 1.0);
  EXPECT_LT(f.density.meanCompression, 0.025);
  EXPECT_LT(f.density.floorRowError, 0.06);
  test::expectAtRest(f.tank, kRest);
}

// A 20-layer 3D tank (spacing 1 cm), 0.5 s free. Measured: mean compression 1.6-2.2 %,
// floor row +3.2 to +4.2 %. Bounds: 3 % and 5.5 %.
TEST(PbfHydrostatic, HoldsDensityAndRests3D) {
  const test::SettledTank f = settledTank<3>(0.01, 0.5);
  EXPECT_LT(f.density.meanCompression, 0.03);
  EXPECT_LT(f.density.floorRowError, 0.055);
  test::expectAtRest(f.tank, kRest);
}

// At its own steps: 4 sub-steps per 1/60 s frame (4.2 ms) at a/40, the same tolerances.
TEST(DamBreak, PbfAtFourSubStepsPerFrameFollowsMartinMoyce) {
  const test::DamBreakFigures f = test::runDamBreak("pbf", 40, {{"substeps", "4"}}, true);
  test::printDamBreak("pbf 2D a/40 4 sub-steps/frame", f);
  EXPECT_LT(f.rmsShifted, 0.15);
  EXPECT_LT(f.slopeError, 0.10);
}

}  // namespace
}  // namespace sloshlab
