// The incompressible particle solver DFSPH against hydrostatics and the Martin & Moyce
// dam break, at the large steps it exists for. (PBF's tests are in test_pbf.cpp.)
// Formulas: physics.md section 6; the references (11.1) and (11.8).
#include "solvers/dfsph.h"
#include "support/dam_break.h"
#include "support/tank.h"

#include <gtest/gtest.h>

#include <cmath>

namespace sloshlab {
namespace {

// The tank protocol (settling, depth bins, speeds, densities) is in support/tank.h; the
// pressure is the solver's own (both solves' stiffness), the densities its density
// ratio at the start of each step. The figures are averaged over the last 0.6 s (2D)
// and 0.4 s (3D), not the protocol's 0.2 s: DFSPH's jitter fluctuates slowly, and over
// 0.2 s its figures depended on the rounding of the run.
template <int D>
test::TankFigures settledTank(double spacing, double free, double window) {
  return test::settleTankWith<DfsphSolver<D>, D>("dfsph", spacing, free, window);
}

// "At rest" for DFSPH. Its pressure only pushes, and its Jacobi sweeps only add: an
// over-correction that leaves the fluid expanding is never taken back, and the settled
// tank keeps a jitter. The figures of twelve runs that differ only in rounding (spacings
// 1e-9 apart, in 3D five of each six emitting 4,000 particles instead of 3,805; six with
// the density solve's warm start on its own pass, six with it on the forces' pass):
//   2D: 2.0-2.4 cm/s mean, 2.8-3.9e-4 J/kg, a largest single speed of 13-25 cm/s;
//   3D: 1.7-2.0 cm/s mean, 1.9-2.4e-4 J/kg, largest 9-11 cm/s.
// (Earlier six runs, varying the neighbour skin with the pairs stored twice: 2.2-2.4
// and 1.8-2.0 cm/s mean, largest 12-22 and 9-11 cm/s.)
// Bounds: 2.5 % of sqrt(g H) mean (3.5 cm/s), 5e-4 J/kg, and a largest speed of 20 %
// of sqrt(g H) in 2D (28 cm/s: the fastest particles are at the free surface against a
// side wall, rho~ 0.86-0.99) and 12 % in 3D (17 cm/s). Before the acceleration bound
// on the time step (dfsph.cpp, maxTimeStep) the 2D tank ran at 5 ms steps, its floor
// row rocked sideways, and its largest speed was 16-52 cm/s. A finer 2D tank (2.5 mm,
// 80 layers) now rests at about 1.6 cm/s mean and 1.5-1.9e-4 J/kg (it was 4.5 cm/s),
// with 30 density sweeps a step. WCSPH's tank (test_wcsph.cpp) rests 10-75 times
// calmer; its Tait pressure pulls as well as pushes.
const test::RestBounds kRest2D{0.025, 0.20, 5e-4};
const test::RestBounds kRest3D{0.025, 0.12, 5e-4};

// DFSPH holds the density it is told to (0.1 % mean compression; 0.073-0.079 % in 2D,
// 0.095-0.096 % in 3D over the twelve runs), carries the hydrostatic pressure within 5 %
// (from its own stiffness, both solves; the worst depth bin is 1.3-3.7 % off in 2D and
// 1.6-2.1 % in 3D) and rests. The row on the floor, against the walls' samples, is at
// the interior's density: within 0.3 % of rho0 (measured -0.04 to +0.02 % in 2D,
// +0.09 % in 3D; the interior's mean |rho~ - 1| is 0.13-0.20 %), and within 0.1 % of
// the two rows above it (measured 0.03 %).
void expectHoldsTheTank(const test::TankFigures& f, const test::RestBounds& rest) {
  EXPECT_LT(f.density.meanCompression, 0.001);
  EXPECT_LT(std::abs(f.density.floorRowError), 0.003);
  EXPECT_LT(std::abs(f.density.floorRowError - f.density.aboveFloorError), 0.001);
  EXPECT_LT(f.worstBinError, 0.05);
  test::expectAtRest(f, rest);
}

TEST(DfsphHydrostatic, HoldsRestDensityAndRhoGDepth2D) {
  expectHoldsTheTank(settledTank<2>(0.005, 1.0, 0.6), kRest2D);
}

// 3D: measured 0.095 % at the start of a step. (Before the solver aimed 5 % below eta,
// kDensityTargetShare in dfsph.cpp, it measured 0.102 %: its error prediction is first
// order in dt.)
TEST(DfsphHydrostatic, HoldsRestDensityAndRhoGDepth3D) {
  expectHoldsTheTank(settledTank<3>(0.01, 0.5, 0.4), kRest3D);
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

// The vorticity colour field (curl v from the solver's pairs, each stored once): a rigid
// rotation v = Omega x (x - c) has curl 2 Omega. Particles a support away from the
// walls and the surface have full neighbourhoods and must read it within 3 %.
template <int D>
void expectCurlOfRigidRotation(double spacing) {
  test::SimSpec spec;
  spec.scene = "hydrostatic";
  spec.solver = "dfsph";
  spec.spacing = spacing;
  auto sim = test::makeSim<D>(spec);
  sim->step(0.0);  // builds the pairs
  auto& p = sim->particles();
  const double omega = 1.5, h = sim->solver().interactionRadius();
  Vec<D> lo(1e9), hi(-1e9);
  for (const Vec<D>& x : p.x) lo = glm::min(lo, x), hi = glm::max(hi, x);
  const Vec<D> c = 0.5 * (lo + hi);
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Vec<D> r = p.x[i] - c;
    p.v[i] = Vec<D>(0.0);
    p.v[i].x = -omega * r.y, p.v[i].y = omega * r.x;  // about the z axis
  }
  std::vector<float> curl;
  ASSERT_TRUE(sim->field(FieldKind::Vorticity, curl));
  int inside = 0;
  double worst = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    bool interior = true;
    for (int k = 0; k < D; ++k) interior = interior && p.x[i][k] > lo[k] + h && p.x[i][k] < hi[k] - h;
    if (!interior) continue;
    ++inside;
    worst = std::max(worst, std::abs(curl[i] / (2.0 * omega) - 1.0));
  }
  std::printf("[ figures  ] dfsph %dD vorticity of a rigid rotation: %d interior particles, worst error %.3f %%\n", D,
              inside, 100.0 * worst);
  EXPECT_GT(inside, 50);
  EXPECT_LT(worst, 0.03);
}

TEST(DfsphFields, VorticityOfARigidRotation2D) { expectCurlOfRigidRotation<2>(0.01); }
TEST(DfsphFields, VorticityOfARigidRotation3D) { expectCurlOfRigidRotation<3>(0.01); }

}  // namespace
}  // namespace sloshlab
