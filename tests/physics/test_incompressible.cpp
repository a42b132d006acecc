// The incompressible particle solver DFSPH against hydrostatics and the Martin & Moyce
// dam break, at the large steps it exists for. (PBF's tests are in test_pbf.cpp.)
#include "solvers/dfsph.h"
#include "support/dam_break.h"
#include "support/tank.h"

#include <gtest/gtest.h>

#include <cmath>

namespace sloshlab {
namespace {

// The tank protocol (settling, depth bins, speeds, densities) is in support/tank.h; the
// pressure is the solver's own (both solves' stiffness), the densities its density
// ratio at the start of each step, averaged over the last 0.2 s.
template <int D>
test::TankFigures settledTank(double spacing, double free) {
  return test::settleTankWith<DfsphSolver<D>, D>("dfsph", spacing, free);
}

// "At rest" for DFSPH. Its pressure only pushes, and its Jacobi sweeps only add: an
// over-correction that leaves the fluid expanding is never taken back, and the settled
// tank keeps a jitter (over every step of the last 0.2 s: 2D 2.1 cm/s mean, 12.6 cm/s
// max, 2.9e-4 J/kg; 3D 2.0, 10.2, 2.5e-4; a finer 2D tank, 2.5 mm, 4.5 cm/s mean). The
// bounds hold these with 25-70 % margin: 2.5 % and 12 % of sqrt(g H), 5e-4 J/kg. WCSPH's
// tank (test_wcsph.cpp) rests 10-75 times calmer; its Tait pressure pulls as well as pushes.
const test::RestBounds kRest{0.025, 0.12, 5e-4};

// DFSPH holds the density it is told to (0.1 % mean compression), carries the
// hydrostatic pressure within 5 % (from its own stiffness, both solves) and rests. The
// row on the floor, against the walls' samples, is at the interior's density: within
// 0.3 % of rho0 (measured +0.02 % in 2D, +0.09 % in 3D; the interior's mean |rho~ - 1|
// is 0.15-0.3 %).
TEST(DfsphHydrostatic, HoldsRestDensityAndRhoGDepth2D) {
  const test::TankFigures f = settledTank<2>(0.005, 1.0);
  EXPECT_LT(f.density.meanCompression, 0.001);
  EXPECT_LT(std::abs(f.density.floorRowError), 0.003);
  EXPECT_LT(f.worstBinError, 0.05);
  test::expectAtRest(f, kRest);
}

// 3D: the settled lattice measures 0.102 % at the start of a step (gravity has acted
// since the last solve), so the 0.1 % target is checked with 5 % slack.
TEST(DfsphHydrostatic, HoldsRestDensityAndRhoGDepth3D) {
  const test::TankFigures f = settledTank<3>(0.01, 0.5);
  EXPECT_LT(f.density.meanCompression, 0.00105);
  EXPECT_LT(std::abs(f.density.floorRowError), 0.003);
  EXPECT_LT(f.worstBinError, 0.05);
  test::expectAtRest(f, kRest);
}

// Large steps: DFSPH at CFL 0.5 runs the dam break without blowing up, and its front
// follows Martin & Moyce within the WCSPH test's tolerances (shifted curve within 0.15
// in Z rms, slope within 10 %).
TEST(DamBreak, DfsphAtCfl05FollowsMartinMoyce) {
  const test::DamBreakFigures f = test::runDamBreak("dfsph", 40, {{"cfl", "0.5"}});
  test::printDamBreak("dfsph 2D a/40 cfl 0.5", f);
  EXPECT_LT(f.rmsShifted, 0.15);
  EXPECT_LT(f.slopeError, 0.10);
}

}  // namespace
}  // namespace sloshlab
