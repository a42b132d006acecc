// WCSPH against hydrostatics (physics.md section 4, (11.1)): a tank at rest settles to
// p = rho0 g d with depth d, and stays at rest.
#include "solvers/wcsph.h"
#include "support/tank.h"

#include <gtest/gtest.h>

namespace sloshlab {
namespace {

// The tank protocol (settling, depth bins, speeds) is in support/tank.h; the pressure
// is the Tait equation's.
template <int D>
test::TankFigures hydrostatic(double spacing, double free) {
  test::SimSpec spec;
  spec.scene = "hydrostatic";
  spec.spacing = spacing;
  auto sim = test::makeSim<D>(spec);
  auto& solver = dynamic_cast<WcsphSolver<D>&>(sim->solver());
  return test::settleAndMeasureTank<D>(*sim, "wcsph", spacing, free, [&] { return test::toVector(solver.pressure()); });
}

TEST(WcsphHydrostatic, PressureGrowsAsRhoGDepthAndTheTankRests2D) {
  const test::TankFigures f = hydrostatic<2>(0.005, 1.0);
  EXPECT_LT(f.worstBinError, 0.05);
  // At rest: no particle faster than 2 % of sqrt(g H), the mean below 0.2 %.
  const double scale = std::sqrt(9.81 * 0.2);
  EXPECT_LT(f.maxSpeed, 0.02 * scale);
  EXPECT_LT(f.meanSpeed, 0.002 * scale);
}

// The largest speed over the last 0.2 s (every step) is 3.1 cm/s in 3D, against 1.5 cm/s
// at its last step: the bound on it is 3 % of sqrt(g H).
TEST(WcsphHydrostatic, PressureGrowsAsRhoGDepthAndTheTankRests3D) {
  const test::TankFigures f = hydrostatic<3>(0.01, 1.0);
  EXPECT_LT(f.worstBinError, 0.05);
  const double scale = std::sqrt(9.81 * 0.2);
  EXPECT_LT(f.maxSpeed, 0.03 * scale);
  EXPECT_LT(f.meanSpeed, 0.002 * scale);
}

}  // namespace
}  // namespace sloshlab
