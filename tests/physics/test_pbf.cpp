// Position-based fluids (pbf.h) at its default sub-steps and iterations: hydrostatic
// tanks (compression, rest) and the Martin & Moyce dam break at its own fixed steps.
// Containment under the violent shake and thread-count independence are the
// every-solver tests (test_containment.cpp, test_determinism.cpp).
// Formulas: physics.md section 7; the references (11.1) and (11.8).
#include "solvers/pbf.h"
#include "support/dam_break.h"
#include "support/tank.h"

#include <gtest/gtest.h>


namespace sloshlab {
namespace {

// The tank protocol (settling, depth bins, speeds, densities) is in support/tank.h; the
// densities are the solver's density ratio after each constraint solve, averaged over
// the last 0.2 s.
template <int D>
test::TankFigures settledTank(double spacing, double free) {
  return test::settleTankWith<PbfSolver<D>, D>("pbf", spacing, free);
}

// The issue asks for one or two sub-steps per 1/60 s frame by default.
TEST(PbfDefaults, TwoSubStepsPerFrame) {
  EXPECT_LE(PbfParams{}.substeps, 2);
}

// "At rest" for PBF at its defaults (2 sub-steps x 16 sweeps in 2D, 8 Chebyshev sweeps
// in 3D), over every (whole) step of the last 0.2 s: measured 2D 2.4-3.0 mm/s mean,
// 3.4-4.0 cm/s max, 5-9e-6 J/kg; 3D 4.7-5.9 mm/s, 3.9-6.4 cm/s, 1.7-2.6e-5 J/kg (over the
// builds of this file's history; 3D with 16 plain sweeps until 2026-11-24). The largest speed is one particle's and heavy-tailed: a
// change of rounding alone (the compiler no longer forming fused multiply-adds) moved
// the 3D figure from 3.9 to 6.4 cm/s, while the mean moved by 1 %. Bounds: 0.6 % and 6 %
// of sqrt(g H) (8.4 mm/s and 8.4 cm/s), 5e-5 J/kg. Steps cut short stir it: sampled every
// 20 ms at trimmed steps, the same tanks read 1-6 cm/s mean (docs/decisions/pbf.md, STATUS).
const test::RestBounds kRest{0.006, 0.06, 5e-5};

// PBF's compression grows with depth: its fixed sweeps leave the long modes of a deep
// tank under-converged, so the liquid behaves as if slightly compressible. Rows of the
// settled 2D tank, averaged over 0.2 s: +0.2 % at the surface, +3.0 % at mid-depth,
// +5.2-5.3 % three to six rows above the floor (0.15 % per spacing of depth). The row on
// the floor is at the density of the liquid next to it: 0.8 % (2D) and 0.6 % (3D) above
// the two rows over it, of which about 0.2 % is their 1.5 spacings of extra depth; the
// one-sided wall push adds the rest. Bound: 1.5 %.
void expectWallRowLikeItsNeighbours(const test::TankFigures& f) {
  EXPECT_LT(std::abs(f.density.floorRowError - f.density.aboveFloorError), 0.015);
}

// A 40-layer 2D tank (spacing 5 mm), 1 s free. Measured: mean compression 3.2 %, the
// floor row +5.7 %, the two rows above it +4.9 %. Bounds: 4 % and 7 %.
TEST(PbfHydrostatic, HoldsDensityAndRests2D) {
  const test::TankFigures f = settledTank<2>(0.005, 1.0);
  EXPECT_LT(f.density.meanCompression, 0.04);
  EXPECT_LT(f.density.floorRowError, 0.07);
  expectWallRowLikeItsNeighbours(f);
  test::expectAtRest(f, kRest);
}

// A 20-layer 3D tank (spacing 1 cm), 0.5 s free. Measured: mean compression 2.3 %, the
// floor row +4.2 %, the two rows above it +3.7 % (16 plain sweeps: 2.7 %, +4.9 %, +4.3 %).
// Bounds: 3.5 % and 6 %.
TEST(PbfHydrostatic, HoldsDensityAndRests3D) {
  const test::TankFigures f = settledTank<3>(0.01, 0.5);
  EXPECT_LT(f.density.meanCompression, 0.035);
  EXPECT_LT(f.density.floorRowError, 0.06);
  expectWallRowLikeItsNeighbours(f);
  test::expectAtRest(f, kRest);
}

// At its own steps: 4 sub-steps per 1/60 s frame (4.2 ms) at a/40 with the sub-step CFL
// bound off (cfl 20: the "at most 4 sub-steps"), the same tolerances.
TEST(DamBreak, PbfAtFourSubStepsPerFrameFollowsMartinMoyce) {
  const test::DamBreakFigures f = test::runDamBreak("pbf", 40, {{"substeps", "4"}, {"cfl", "20"}}, true);
  test::printDamBreak("pbf 2D a/40 4 sub-steps/frame", f);
  EXPECT_LT(f.rmsShifted, 0.15);
  EXPECT_LT(f.slopeError, 0.10);
}

// At its defaults (2 sub-steps per frame, more where a particle would move more than 0.8
// spacings in one), the same tolerances.
TEST(DamBreak, PbfAtItsDefaultsFollowsMartinMoyce) {
  const test::DamBreakFigures f = test::runDamBreak("pbf", 40, {}, true);
  test::printDamBreak("pbf 2D a/40 defaults", f);
  EXPECT_LT(f.rmsShifted, 0.15);
  EXPECT_LT(f.slopeError, 0.10);
}

}  // namespace
}  // namespace sloshlab
