// WCSPH against hydrostatics (physics.md section 4): a tank at rest settles to
// p = rho0 g d with depth d, and stays at rest.
#include "solvers/wcsph.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

namespace sloshlab {
namespace {

struct HydrostaticFigures {
  double worstBinError = 0.0;   // max over depth bins of |mean p / (rho0 g d) - 1|
  double maxSpeed = 0.0;        // m/s, after settling
  double meanSpeed = 0.0;
  double kineticPerMass = 0.0;  // J/kg
};

// The tank starts at uniform density, not in hydrostatic equilibrium: the first
// compression rings as an acoustic mode that viscosity hardly damps, and the 3D
// emitter lattice slowly rearranges. So the tank settles with velocity damping,
// 20 /s for 0.5 s (the acoustic mode) then 2 /s for 1 s (the lattice), and then runs
// `free` seconds with the default, undamped parameters. The pressure of particles
// deeper than a quarter of the depth is compared with rho0 g d in depth bins,
// averaged over ten samples in the last 0.2 s (the hydrostatic pressure is the mean
// under the remaining acoustic noise); speeds are taken at the end.
template <int D>
HydrostaticFigures hydrostatic(double spacing, double free) {
  test::SimSpec spec;
  spec.scene = "hydrostatic";
  spec.spacing = spacing;
  auto sim = test::makeSim<D>(spec);
  sim->solverParams().setStrict("damping", 20.0);
  sim->advanceTo(0.5);
  sim->solverParams().setStrict("damping", 2.0);
  sim->advanceTo(1.5);
  sim->solverParams().setStrict("damping", 0.0);
  sim->solverParamsEdited();
  const double end = 1.5 + free;
  sim->advanceTo(end - 0.2);
  EXPECT_FALSE(sim->failed()) << sim->failureMessage();
  auto& solver = dynamic_cast<WcsphSolver<D>&>(sim->solver());
  const auto& p = sim->particles();
  const double rho0 = solver.settings().restDensity, g = 9.81;
  const int bins = 8;
  std::vector<double> sum(bins, 0.0), expected(bins, 0.0);
  std::vector<int> count(bins, 0);
  for (int sample = 1; sample <= 10; ++sample) {
    sim->advanceTo(end - 0.2 + 0.02 * sample);
    double top = 0.0;
    for (const auto& x : p.x) top = std::max(top, x.y);
    const double surface = top + 0.5 * spacing;
    for (std::size_t i = 0; i < p.size(); ++i) {
      const double d = surface - p.x[i].y;
      if (d < 0.25 * surface) continue;  // away from the free surface
      const int b = std::min(bins - 1, static_cast<int>((d - 0.25 * surface) / (0.75 * surface) * bins));
      sum[b] += solver.pressure()[i];
      expected[b] += rho0 * g * d;
      ++count[b];
    }
  }
  HydrostaticFigures f;
  for (int b = 0; b < bins; ++b) {
    if (count[b] == 0) continue;
    const double err = std::abs(sum[b] / expected[b] - 1.0);
    std::printf("[ figures  ] %dD bin %d: %d samples, p/(rho0 g d) = %.4f\n", D, b, count[b], sum[b] / expected[b]);
    f.worstBinError = std::max(f.worstBinError, err);
  }
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
  std::printf("[ figures  ] %dD hydrostatic, settled 1.5 s + %.1f s free: worst depth-bin pressure error %.2f %%, "
              "max speed %.4f m/s, mean speed %.5f m/s, KE/mass %.2e J/kg\n",
              D, free, 100.0 * f.worstBinError, f.maxSpeed, f.meanSpeed, f.kineticPerMass);
  return f;
}

TEST(WcsphHydrostatic, PressureGrowsAsRhoGDepthAndTheTankRests2D) {
  const HydrostaticFigures f = hydrostatic<2>(0.005, 1.0);
  EXPECT_LT(f.worstBinError, 0.05);
  // At rest: no particle faster than 2 % of sqrt(g H), the mean below 0.2 %.
  const double scale = std::sqrt(9.81 * 0.2);
  EXPECT_LT(f.maxSpeed, 0.02 * scale);
  EXPECT_LT(f.meanSpeed, 0.002 * scale);
}

TEST(WcsphHydrostatic, PressureGrowsAsRhoGDepthAndTheTankRests3D) {
  const HydrostaticFigures f = hydrostatic<3>(0.01, 1.0);
  EXPECT_LT(f.worstBinError, 0.05);
  const double scale = std::sqrt(9.81 * 0.2);
  EXPECT_LT(f.maxSpeed, 0.02 * scale);
  EXPECT_LT(f.meanSpeed, 0.002 * scale);
}

}  // namespace
}  // namespace sloshlab
