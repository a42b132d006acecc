// The hydrostatic tank protocol shared by the SPH tests (WCSPH, DFSPH, PBF), against
// p = rho0 g d, physics.md (11.1).
//
// A tank that starts at uniform density is not in equilibrium: the first compression
// rings as an acoustic mode (WCSPH) and the emitter's lattice rearranges. So the tank
// settles with velocity damping, 20 /s for 0.5 s then 2 /s for 1 s, and then runs
// `free` seconds with the solver's default, undamped parameters. The pressure of
// particles deeper than a quarter of the depth is compared with rho0 g d in depth bins,
// averaged over every step of the last `window` seconds (0.2 unless a test says),
// weighted by dt (the hydrostatic pressure is the mean under the remaining noise). The
// speeds and densities are averaged over the same steps (the maximum speed is the
// largest seen).
#pragma once

#include "support/test_support.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace sloshlab::test {

// The density of a settled tank from a solver's density ratio rho~ = rho/rho0.
struct TankDensity {
  double meanCompression = 0.0;  // mean over particles of max(rho~ - 1, 0)
  double meanAbsError = 0.0;     // mean |rho~ - 1| deeper than the surface layer below the top
  double floorRowError = 0.0;    // mean rho~ - 1 of the particles within one spacing of the floor
  double aboveFloorError = 0.0;  // the same for the particles one to three spacings above it
};

struct TankFigures {
  double worstBinError = 0.0;   // max over depth bins of |mean p / (rho0 g d) - 1|
  double maxSpeed = 0.0;        // m/s, the largest over the sampled steps
  double meanSpeed = 0.0;       // m/s, time average of the mean over particles
  double kineticPerMass = 0.0;  // J/kg, time average
  TankDensity density;          // time averages (zero without a density probe)
};

// The solver's per-particle pressure (Pa), in the particles' current order.
using PressureOf = std::function<std::vector<double>()>;

// Copies a span into a vector (for solvers whose pressure is a span).
inline std::vector<double> toVector(std::span<const double> values) { return {values.begin(), values.end()}; }

// The solver's density ratio rho~ = rho/rho0 per particle (current order), and the depth
// of the surface layer that the interior error leaves out (one kernel support).
struct DensityProbe {
  std::function<std::vector<double>()> ratio;
  double surfaceLayer = 0.0;
};

// Settles sim (scene "hydrostatic", a solver with a "damping" parameter) as above and
// measures it against rho0 = 1000 kg/m^3 (the solvers' default); prints the bins and the
// figures under `label`.
template <int D>
TankFigures settleAndMeasureTank(SimulationImpl<D>& sim, const std::string& label, double spacing, double free,
                                 const PressureOf& pressure, const DensityProbe& density = {}, double window = 0.2);

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
template <class SolverT, int D>
TankFigures settleTankWith(const std::string& solver, double spacing, double free, double window = 0.2) {
  SimSpec spec;
  spec.scene = "hydrostatic";
  spec.solver = solver;
  spec.spacing = spacing;
  auto sim = makeSim<D>(spec);
  auto& s = dynamic_cast<SolverT&>(sim->solver());
  const DensityProbe density{[&] { return toVector(s.densityRatio()); }, s.interactionRadius()};
  return settleAndMeasureTank<D>(*sim, solver, spacing, free, [&] { return s.pressure(); }, density, window);
}


}  // namespace sloshlab::test
