// The experiments of sloshlab/experiments.h, one function each, and what they share:
// building a simulation from a scene's JSON, stepping it to a time (a failure is an
// error), and the least-squares line.
#pragma once

#include "simulation_impl.h"
#include "sloshlab/experiments.h"

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace sloshlab::experiments {

struct Run {
  std::string solver;
  int dim = 2;
  double spacing = 0.0;  // 0: the experiment's own
  std::function<void(double)> progress;

  void report(double share) const {
    if (progress) progress(share);
  }
};

// The experiment's simulation: `scene` (a built-in one, or one parsed from the
// experiment's own JSON) with the run's solver and spacing.
template <int D>
std::unique_ptr<SimulationImpl<D>> start(const Run& run, Scene scene, MotionScript motion = {},
                                         std::vector<std::pair<std::string, std::string>> overrides = {}) {
  SimulationSetup setup;
  setup.scene = std::move(scene);
  setup.dim = D;
  setup.solver = run.solver;
  setup.spacing = run.spacing;
  setup.motion = std::move(motion);
  setup.overrides = std::move(overrides);
  std::unique_ptr<Simulation> sim = Simulation::create(setup);
  return std::unique_ptr<SimulationImpl<D>>(static_cast<SimulationImpl<D>*>(sim.release()));
}

// Steps to time t; a solver that fails on the way ends the experiment with its message.
void advance(Simulation& sim, double t);

// Slope and intercept of the least-squares line through (x, y).
std::pair<double, double> fitLine(const std::vector<double>& x, const std::vector<double>& y);

// Whether the solver has a parameter `key`; sets it (and tells the solver) if so.
bool setParamIfPresent(Simulation& sim, const std::string& key, double value);

template <int D>
ExperimentResult damBreak(const Run& run);
template <int D>
ExperimentResult hydrostatic(const Run& run);
template <int D>
ExperimentResult tilt(const Run& run);
template <int D>
ExperimentResult sloshing(const Run& run);
template <int D>
ExperimentResult spinningDisc(const Run& run);
template <int D>
ExperimentResult hardSpheres(const Run& run);

}  // namespace sloshlab::experiments
