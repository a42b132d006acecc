// The hydrostatic tank protocol shared by the SPH tests (WCSPH, DFSPH).
//
// A tank that starts at uniform density is not in equilibrium: the first compression
// rings as an acoustic mode (WCSPH) and the emitter's lattice rearranges. So the tank
// settles with velocity damping, 20 /s for 0.5 s then 2 /s for 1 s, and then runs
// `free` seconds with the solver's default, undamped parameters. The pressure of
// particles deeper than a quarter of the depth is compared with rho0 g d in depth bins,
// averaged over ten samples of four whole steps each in the last 0.2 s, weighted by dt
// (the hydrostatic pressure is the mean under the remaining noise); speeds are taken
// at the end.
#pragma once

#include "support/test_support.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace sloshlab::test {

struct TankFigures {
  double worstBinError = 0.0;   // max over depth bins of |mean p / (rho0 g d) - 1|
  double maxSpeed = 0.0;        // m/s, at the end
  double meanSpeed = 0.0;
  double kineticPerMass = 0.0;  // J/kg
};

// The solver's per-particle pressure (Pa), in the particles' current order.
using PressureOf = std::function<std::vector<double>()>;

// Settles sim (scene "hydrostatic", a solver with a "damping" parameter) as above and
// measures it against rho0 = 1000 kg/m^3 (the solvers' default); prints the bins and the
// figures under `label`.
template <int D>
TankFigures settleAndMeasureTank(SimulationImpl<D>& sim, const std::string& label, double spacing, double free,
                                 const PressureOf& pressure);

// The density of a settled tank from a solver's density ratio rho~ = rho/rho0 (one per
// particle, in the particles' order).
struct TankDensity {
  double meanCompression = 0.0;  // mean over particles of max(rho~ - 1, 0)
  double meanAbsError = 0.0;     // mean |rho~ - 1| deeper than `surfaceLayer` below the top
  double floorRowError = 0.0;    // mean rho~ - 1 of the particles within one spacing of the floor
};
template <int D>
TankDensity measureTankDensity(const ParticleSet<D>& p, std::span<const double> rho, double surfaceLayer,
                               double spacing);

// sqrt(g H) of the hydrostatic scene (H = 0.2 m): the speed scale of its rest bounds.
inline const double kTankSpeedScale = std::sqrt(9.81 * 0.2);

// "At rest": mean and max speed below these fractions of kTankSpeedScale, kinetic
// energy per mass below kineticPerMass (J/kg).
struct RestBounds {
  double meanFraction;
  double maxFraction;
  double kineticPerMass;
};
void expectAtRest(const TankFigures& f, const RestBounds& bounds);

// The hydrostatic scene settled with an incompressible solver (class SolverT, which
// reports pressure() and densityRatio()) at its defaults, measured as above.
struct SettledTank {
  TankFigures tank;
  TankDensity density;
};
template <class SolverT, int D>
SettledTank settleTankWith(const std::string& solver, double spacing, double free) {
  SimSpec spec;
  spec.scene = "hydrostatic";
  spec.solver = solver;
  spec.spacing = spacing;
  auto sim = makeSim<D>(spec);
  auto& s = dynamic_cast<SolverT&>(sim->solver());
  SettledTank f;
  f.tank = settleAndMeasureTank<D>(*sim, solver, spacing, free, [&] { return s.pressure(); });
  f.density = measureTankDensity<D>(sim->particles(), s.densityRatio(), s.interactionRadius(), spacing);
  std::printf("[ figures  ] %s %dD tank: mean compression %.4f %%, mean |rho/rho0 - 1| below the surface layer "
              "%.4f %%, floor row %+.3f %%\n",
              solver.c_str(), D, 100.0 * f.density.meanCompression, 100.0 * f.density.meanAbsError,
              100.0 * f.density.floorRowError);
  return f;
}

// Copies a span into a vector (for solvers whose pressure is a span).
inline std::vector<double> toVector(std::span<const double> values) { return {values.begin(), values.end()}; }

}  // namespace sloshlab::test
