#include "support/tank.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sloshlab::test {

namespace {

// rho~ figures of one state (see TankDensity).
template <int D>
TankDensity densityOf(const ParticleSet<D>& p, std::span<const double> rho, double surfaceLayer, double spacing) {
  double top = 0.0;
  for (const auto& x : p.x) top = std::max(top, x.y);
  TankDensity f;
  int inner = 0, floor = 0, above = 0;
  for (std::size_t i = 0; i < rho.size(); ++i) {
    f.meanCompression += std::max(rho[i] - 1.0, 0.0);
    if (p.x[i].y < top - surfaceLayer) f.meanAbsError += std::abs(rho[i] - 1.0), ++inner;
    if (p.x[i].y < spacing) f.floorRowError += rho[i] - 1.0, ++floor;
    else if (p.x[i].y < 3.0 * spacing) f.aboveFloorError += rho[i] - 1.0, ++above;
  }
  f.meanCompression /= static_cast<double>(std::max<std::size_t>(rho.size(), 1));
  f.meanAbsError /= std::max(inner, 1);
  f.floorRowError /= std::max(floor, 1);
  f.aboveFloorError /= std::max(above, 1);
  return f;
}

}  // namespace

template <int D>
TankFigures settleAndMeasureTank(SimulationImpl<D>& sim, const std::string& label, double spacing, double free,
                                 const PressureOf& pressure, const DensityProbe& density, double window) {
  sim.solverParams().setStrict("damping", 20.0);
  sim.advanceTo(0.5);
  sim.solverParams().setStrict("damping", 2.0);
  sim.advanceTo(1.5);
  sim.solverParams().setStrict("damping", 0.0);
  sim.solverParamsEdited();
  const double end = 1.5 + free;
  sim.advanceTo(end - window);
  EXPECT_FALSE(sim.failed()) << sim.failureMessage();
  const auto& p = sim.particles();
  const double rho0 = 1000.0, g = 9.81;
  const int bins = 8;
  std::vector<double> sum(bins, 0.0), expected(bins, 0.0);
  std::vector<int> count(bins, 0);
  TankFigures f;
  double time = 0.0;  // total dt of the sampled steps
  // Every step of the window is sampled, weighted by its dt, and none is cut short:
  // an incompressible solver's pressure is an impulse per step (DFSPH's scaled with 1/dt
  // on a step trimmed to land on a sample time), and PBF's fixed sub-steps were stirred
  // by the trimmed ones.
  {
    while (sim.time() < end && !sim.failed()) {
      sim.step(0.0);
      const double dt = sim.stats().dt;
      time += dt;
      double top = 0.0;
      for (const auto& x : p.x) top = std::max(top, x.y);
      const double surface = top + 0.5 * spacing;
      const std::vector<double> pr = pressure();
      for (std::size_t i = 0; i < p.size(); ++i) {
        const double d = surface - p.x[i].y;
        if (d < 0.25 * surface) continue;  // away from the free surface
        const int b = std::min(bins - 1, static_cast<int>((d - 0.25 * surface) / (0.75 * surface) * bins));
        sum[b] += pr[i] * dt;
        expected[b] += rho0 * g * d * dt;
        ++count[b];
      }
      double speedSum = 0.0, ke = 0.0, mass = 0.0;
      for (std::size_t i = 0; i < p.size(); ++i) {
        const double v = glm::length(p.v[i]);
        f.maxSpeed = std::max(f.maxSpeed, v);
        speedSum += v;
        ke += 0.5 * p.m[i] * v * v;
        mass += p.m[i];
      }
      f.meanSpeed += dt * speedSum / static_cast<double>(p.size());
      f.kineticPerMass += dt * ke / mass;
      if (density.ratio) {
        const TankDensity now = densityOf<D>(p, density.ratio(), density.surfaceLayer, spacing);
        f.density.meanCompression += dt * now.meanCompression;
        f.density.meanAbsError += dt * now.meanAbsError;
        f.density.floorRowError += dt * now.floorRowError;
        f.density.aboveFloorError += dt * now.aboveFloorError;
      }
    }
  }
  EXPECT_FALSE(sim.failed()) << sim.failureMessage();
  f.meanSpeed /= time;
  f.kineticPerMass /= time;
  f.density.meanCompression /= time;
  f.density.meanAbsError /= time;
  f.density.floorRowError /= time;
  f.density.aboveFloorError /= time;
  for (int b = 0; b < bins; ++b) {
    if (count[b] == 0) continue;
    std::printf("[ figures  ] %s %dD bin %d: %d samples, p/(rho0 g d) = %.4f\n", label.c_str(), D, b, count[b],
                sum[b] / expected[b]);
    f.worstBinError = std::max(f.worstBinError, std::abs(sum[b] / expected[b] - 1.0));
  }
  std::printf("[ figures  ] %s %dD hydrostatic, %zu particles, settled 1.5 s + %.1f s free: worst depth-bin pressure "
              "error %.2f %%, over the last %.1f s: max speed %.4f m/s, mean speed %.5f m/s, KE/mass %.2e J/kg\n",
              label.c_str(), D, p.size(), free, 100.0 * f.worstBinError, window, f.maxSpeed, f.meanSpeed,
              f.kineticPerMass);
  if (density.ratio)
    std::printf("[ figures  ] %s %dD tank density: mean compression %.4f %%, mean |rho/rho0 - 1| below the surface "
                "layer %.4f %%, floor row %+.3f %%, the two rows above it %+.3f %%\n",
                label.c_str(), D, 100.0 * f.density.meanCompression, 100.0 * f.density.meanAbsError,
                100.0 * f.density.floorRowError, 100.0 * f.density.aboveFloorError);
  return f;
}

void expectAtRest(const TankFigures& f, const RestBounds& bounds) {
  EXPECT_LT(f.meanSpeed, bounds.meanFraction * kTankSpeedScale);
  EXPECT_LT(f.maxSpeed, bounds.maxFraction * kTankSpeedScale);
  EXPECT_LT(f.kineticPerMass, bounds.kineticPerMass);
}

template TankFigures settleAndMeasureTank<2>(SimulationImpl<2>&, const std::string&, double, double, const PressureOf&,
                                              const DensityProbe&, double);
template TankFigures settleAndMeasureTank<3>(SimulationImpl<3>&, const std::string&, double, double, const PressureOf&,
                                              const DensityProbe&, double);

}  // namespace sloshlab::test
