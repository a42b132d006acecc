// The incompressible particle solver DFSPH against hydrostatics and the Martin & Moyce
// dam break, at the large steps it exists for. (PBF has no tests yet: pbf.h, STATUS.)
#include "solvers/dfsph.h"
#include "support/dam_break.h"
#include "support/tank.h"

#include <gtest/gtest.h>

namespace sloshlab {
namespace {

// The tank protocol (settling, depth bins, speeds) is in support/tank.h; the pressure
// is the solver's own (both solves' stiffness). Densities are the solver's density
// ratio at the start of its last step: the mean compression, and the mean |rho~ - 1|
// below the surface layer (one kernel support).
struct IncompressibleTank {
  test::TankFigures tank;
  double meanCompression = 0.0;  // mean over particles of max(rho/rho0 - 1, 0)
  double meanAbsError = 0.0;     // mean |rho/rho0 - 1| below the surface layer
};

template <int D>
IncompressibleTank settledTank(double spacing, double free) {
  test::SimSpec spec;
  spec.scene = "hydrostatic";
  spec.solver = "dfsph";
  spec.spacing = spacing;
  auto sim = test::makeSim<D>(spec);
  auto& solver = dynamic_cast<DfsphSolver<D>&>(sim->solver());
  IncompressibleTank f;
  f.tank = test::settleAndMeasureTank<D>(*sim, "dfsph", spacing, free, [&] { return solver.pressure(); });
  const auto& p = sim->particles();
  const auto rho = solver.densityRatio();
  double top = 0.0;
  for (const auto& x : p.x) top = std::max(top, x.y);
  double compression = 0.0, absError = 0.0;
  int inner = 0;
  for (std::size_t i = 0; i < rho.size(); ++i) {
    compression += std::max(rho[i] - 1.0, 0.0);
    if (p.x[i].y < top - solver.interactionRadius()) absError += std::abs(rho[i] - 1.0), ++inner;
  }
  f.meanCompression = compression / static_cast<double>(rho.size());
  f.meanAbsError = absError / std::max(inner, 1);
  std::printf("[ figures  ] dfsph %dD tank: mean compression %.4f %%, mean |rho/rho0 - 1| below the surface layer "
              "%.4f %%\n",
              D, 100.0 * f.meanCompression, 100.0 * f.meanAbsError);
  return f;
}

const double kTankScale = std::sqrt(9.81 * 0.2);  // sqrt(g H), H = 0.2 m

// DFSPH holds the density it is told to (0.1 % mean compression in 2D) and carries the
// hydrostatic pressure within 5 % (from its own stiffness, both solves).
TEST(DfsphHydrostatic, HoldsRestDensityAndRhoGDepth2D) {
  const IncompressibleTank f = settledTank<2>(0.005, 1.0);
  EXPECT_LT(f.meanCompression, 0.001);
  EXPECT_LT(f.tank.worstBinError, 0.05);
}

TEST(DfsphHydrostatic, CarriesRhoGDepth3D) {
  const IncompressibleTank f = settledTank<3>(0.01, 0.5);
  EXPECT_LT(f.tank.worstBinError, 0.05);
}

// The "at rest" bounds, which DFSPH does not meet yet: the tank keeps a jitter
// of about 2 cm/s mean, 8-13 cm/s max (KE/mass 2-3e-4 J/kg), in 2D and 3D. Disabled
// until it does; it is what keeps DFSPH out of the solver list (dfsph.h, STATUS).
TEST(DfsphHydrostatic, DISABLED_TankRestsLikeWcsph) {
  const IncompressibleTank f = settledTank<2>(0.005, 1.0);
  EXPECT_LT(f.tank.maxSpeed, 0.02 * kTankScale);
  EXPECT_LT(f.tank.meanSpeed, 0.002 * kTankScale);
  EXPECT_LT(f.tank.kineticPerMass, 1e-5);
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
