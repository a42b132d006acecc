// The incompressible particle solver DFSPH against hydrostatics and the Martin & Moyce
// dam break, at the large steps it exists for. (PBF has no tests yet: pbf.h, STATUS.)
#include "solvers/dfsph.h"
#include "support/dam_break.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

namespace sloshlab {
namespace {

struct TankFigures {
  double meanCompression = 0.0;  // mean over particles of max(rho/rho0 - 1, 0)
  double meanAbsError = 0.0;     // mean |rho/rho0 - 1| below the surface layer
  double worstBinError = 0.0;    // max over depth bins of |mean p / (rho0 g d) - 1|
  double maxSpeed = 0.0;         // m/s, after settling
  double meanSpeed = 0.0;
  double kineticPerMass = 0.0;   // J/kg
};

// A tank that starts at uniform density is not in equilibrium: the column settles
// into hydrostatic pressure and the emitter's lattice rearranges. Like the WCSPH test
// (test_wcsph.cpp), the tank settles first with velocity damping (20 /s for 0.5 s,
// then 2 /s for 1 s) when `settle` is set, then runs `free` seconds with
// the default, undamped parameters. Densities, pressures (from the solver's own
// stiffness or multipliers) and speeds are sampled at the end; pressure is averaged
// over ten samples in the last 0.2 s, in depth bins below a quarter of the depth.
template <int D, class SolverT>
TankFigures settledTank(const std::string& solver, double spacing, double free, bool settle) {
  test::SimSpec spec;
  spec.scene = "hydrostatic";
  spec.solver = solver;
  spec.spacing = spacing;
  auto sim = test::makeSim<D>(spec);
  double start = 0.0;
  if (settle) {
    sim->solverParams().setStrict("damping", 20.0);
    sim->advanceTo(0.5);
    sim->solverParams().setStrict("damping", 2.0);
    sim->advanceTo(1.5);
    sim->solverParams().setStrict("damping", 0.0);
    sim->solverParamsEdited();
    start = 1.5;
  }
  const double end = start + free;
  sim->advanceTo(end - 0.2);
  EXPECT_FALSE(sim->failed()) << sim->failureMessage();
  auto& solverRef = dynamic_cast<SolverT&>(sim->solver());
  const auto& p = sim->particles();
  const double rho0 = 1000.0, g = 9.81;
  const int bins = 8;
  std::vector<double> sum(bins, 0.0), expected(bins, 0.0);
  for (int sample = 1; sample <= 10; ++sample) {
    sim->advanceTo(end - 0.2 + 0.02 * sample);
    double top = 0.0;
    for (const auto& x : p.x) top = std::max(top, x.y);
    const double surface = top + 0.5 * spacing;
    const std::vector<double> pressure = solverRef.pressure();
    for (std::size_t i = 0; i < p.size(); ++i) {
      const double d = surface - p.x[i].y;
      if (d < 0.25 * surface) continue;
      const int b = std::min(bins - 1, static_cast<int>((d - 0.25 * surface) / (0.75 * surface) * bins));
      sum[b] += pressure[i];
      expected[b] += rho0 * g * d;
    }
  }
  TankFigures f;
  for (int b = 0; b < bins; ++b) {
    if (expected[b] == 0.0) continue;
    std::printf("[ figures  ] %s %dD bin %d: p/(rho0 g d) = %.4f\n", solver.c_str(), D, b, sum[b] / expected[b]);
    f.worstBinError = std::max(f.worstBinError, std::abs(sum[b] / expected[b] - 1.0));
  }
  // Densities: the solver's density ratio at the start of its last step.
  const auto rho = solverRef.densityRatio();
  double top = 0.0;
  for (const auto& x : p.x) top = std::max(top, x.y);
  double compression = 0.0, absError = 0.0;
  int inner = 0;
  for (std::size_t i = 0; i < rho.size(); ++i) {
    compression += std::max(rho[i] - 1.0, 0.0);
    if (p.x[i].y < top - sim->solver().interactionRadius()) absError += std::abs(rho[i] - 1.0), ++inner;
  }
  f.meanCompression = compression / static_cast<double>(rho.size());
  f.meanAbsError = absError / std::max(inner, 1);
  double speedSum = 0.0, ke = 0.0, mass = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double v = glm::length(p.v[i]);
    f.maxSpeed = std::max(f.maxSpeed, v);
    speedSum += v;
    ke += 0.5 * p.m[i] * v * v;
    mass += p.m[i];
  }
  f.meanSpeed = speedSum / static_cast<double>(p.size());
  f.kineticPerMass = ke / mass;
  std::printf("[ figures  ] %s %dD tank, %zu particles, %.1f s free: mean compression %.4f %%, mean |rho/rho0 - 1| "
              "below the surface layer %.4f %%, worst pressure bin %.2f %%, max speed %.4f m/s, mean %.5f m/s, "
              "KE/mass %.2e J/kg\n",
              solver.c_str(), D, p.size(), free, 100.0 * f.meanCompression, 100.0 * f.meanAbsError,
              100.0 * f.worstBinError, f.maxSpeed, f.meanSpeed, f.kineticPerMass);
  return f;
}

const double kTankScale = std::sqrt(9.81 * 0.2);  // sqrt(g H), H = 0.2 m

// DFSPH holds the density it is told to (0.1 % mean compression in 2D) and carries the
// hydrostatic pressure within 5 % (from its own stiffness, both solves).
TEST(DfsphHydrostatic, HoldsRestDensityAndRhoGDepth2D) {
  const TankFigures f = settledTank<2, DfsphSolver<2>>("dfsph", 0.005, 1.0, true);
  EXPECT_LT(f.meanCompression, 0.001);
  EXPECT_LT(f.worstBinError, 0.05);
}

TEST(DfsphHydrostatic, CarriesRhoGDepth3D) {
  const TankFigures f = settledTank<3, DfsphSolver<3>>("dfsph", 0.01, 0.5, true);
  EXPECT_LT(f.worstBinError, 0.05);
}

// The "at rest" bounds, which DFSPH does not meet yet: the tank keeps a jitter
// of about 2 cm/s mean, 8-13 cm/s max (KE/mass 2-3e-4 J/kg), in 2D and 3D. Disabled
// until it does; it is what keeps DFSPH out of the solver list (dfsph.h, STATUS).
TEST(DfsphHydrostatic, DISABLED_TankRestsLikeWcsph) {
  const TankFigures f = settledTank<2, DfsphSolver<2>>("dfsph", 0.005, 1.0, true);
  EXPECT_LT(f.maxSpeed, 0.02 * kTankScale);
  EXPECT_LT(f.meanSpeed, 0.002 * kTankScale);
  EXPECT_LT(f.kineticPerMass, 1e-5);
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
