// What a method conserves: the angular momentum of a spinning disc of liquid, physics.md
// (10.3) (PIC loses it to its transfers, APIC keeps it), and the kinetic energy of an
// elastic hard-sphere gas, (1.3) with e = 1. Both run without gravity in a closed box
// standing still, where the exact answer keeps all of it for ever.
#include "experiments/experiment_runs.h"

#include <cmath>
#include <stdexcept>

namespace sloshlab::experiments {

namespace {

// A liquid disc (a cylinder in 3D) of radius 0.1 m turning at 2 rad/s in the middle of
// a 0.4 m box, without gravity.
Scene discScene() {
  return parseScene(R"({"name": "spinning_disc", "solver": "apic", "spacing": 0.004, "spacing_3d": 0.01,
    "gravity": [0, 0, 0], "container": {"size": [0.4, 0.4, 0.1]},
    "fluid": [{"disc": {"centre": [0.2, 0.2], "radius": 0.1}, "angular_velocity": 2}]})",
                    "experiment:spinning_disc");
}

// The kept share of a quantity over 1 s, sampled every 0.02 s; `what` names it.
template <int D>
ExperimentResult keptOverOneSecond(SimulationImpl<D>& sim, const Run& run, double (*quantity)(const StepStats&),
                                   const char* what) {
  const double start = quantity(sim.stats());
  if (!(std::abs(start) > 0.0)) throw ExperimentFailure("the quantity starts at zero: nothing to keep");
  ExperimentResult r;
  r.quantity = std::string(what);
  r.unit = std::string("1");
  r.columns = {"t_s", "kept"};
  r.rows.push_back({0.0, 1.0});
  r.reference = 1.0;
  for (int k = 1; k <= 50; ++k) {
    advance(sim, 0.02 * k, run);
    r.rows.push_back({sim.time(), quantity(sim.stats()) / start});
    run.showCurve([&] {
      ExperimentResult partial = r;
      partial.measured = r.rows.back()[1];  // kept so far
      return partial;
    });
    run.report(0.02 * k);
  }
  r.particles = sim.particleCount();
  r.measured = r.rows.back()[1];
  return r;
}

double angularMomentumZ(const StepStats& s) { return s.angularMomentum.z; }
double kineticEnergy(const StepStats& s) { return s.kineticEnergy; }

}  // namespace

template <int D>
ExperimentResult spinningDisc(const Run& run) {
  auto sim = start<D>(run, discScene());
  ExperimentResult r = keptOverOneSecond(*sim, run, angularMomentumZ, "angular momentum kept after 1 s");
  r.method = std::string("L_z about the box's centre, world frame, from the step's diagnostics");
  return r;
}

template <int D>
ExperimentResult hardSpheres(const Run& run) {
  std::vector<std::pair<std::string, std::string>> elastic;
  if (run.solver == "collisions") elastic = {{"restitution", "1"}, {"wall_restitution", "1"}};
  auto sim = start<D>(run, loadScene("gas"), {}, elastic);
  ExperimentResult r = keptOverOneSecond(*sim, run, kineticEnergy, "kinetic energy kept after 1 s");
  r.method = std::string("restitution 1 with each other and the walls; the step's kinetic energy");
  return r;
}

template ExperimentResult spinningDisc<2>(const Run&);
template ExperimentResult spinningDisc<3>(const Run&);
template ExperimentResult hardSpheres<2>(const Run&);
template ExperimentResult hardSpheres<3>(const Run&);

}  // namespace sloshlab::experiments
