// The experiments of sloshlab/experiments.h, one function each, and what they share:
// building a simulation from a scene's JSON, stepping it to a time (a failure is an
// error), and the least-squares line.
#pragma once

#include "simulation_impl.h"
#include "sloshlab/experiments.h"

#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sloshlab {
struct CsvTable;
// A published table of assets/data/, embedded in the engine (with its citation in the
// file's comments). A name that is not embedded is a programming error.
CsvTable validationTable(const std::string& file);
}  // namespace sloshlab

namespace sloshlab::experiments {

struct Run {
  Run(std::string solver_, int dim_, double spacing_, std::function<void(double)> progress_ = {},
      const ExperimentObserver* observer_ = nullptr)
      : solver(std::move(solver_)), dim(dim_), spacing(spacing_), progress(std::move(progress_)), observer(observer_) {}

  std::string solver;
  int dim = 2;
  double spacing = 0.0;  // 0: the experiment's own
  std::function<void(double)> progress;
  const ExperimentObserver* observer = nullptr;

  void report(double share) const {
    if (progress) progress(share);
  }
  // After a step: the observer sees the simulation, when it is due.
  void watch(const Simulation& sim) const {
    if (observer && observer->simulation && due(m_lastSimulation)) observer->simulation(sim);
  }
  // After a new row: the observer sees the curve so far, built by `sofar()` (an
  // ExperimentResult) only when it is due. The relative error follows from measured.
  template <class Build>
  void showCurve(Build&& sofar) const {
    if (!observer || !observer->curve || !due(m_lastCurve)) return;
    ExperimentResult r = sofar();
    r.relativeError = std::isfinite(r.measured) ? std::abs(r.measured / r.reference - 1.0) : kNotMeasured;
    observer->curve(r);
  }

 private:
  using Clock = std::chrono::steady_clock;
  // At most observer->rate calls per wall second, the first always.
  bool due(std::optional<Clock::time_point>& last) const {
    const Clock::time_point now = Clock::now();
    if (observer->rate > 0.0 && last && now - *last < std::chrono::duration<double>(1.0 / observer->rate)) return false;
    last = now;
    return true;
  }
  mutable std::optional<Clock::time_point> m_lastSimulation, m_lastCurve;
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

// Steps to time t (as Simulation::advanceTo, showing each step to the run's observer);
// a solver that fails on the way ends the experiment with its message.
void advance(Simulation& sim, double t, const Run& run);

// Slope and intercept of the least-squares line through (x, y).
std::pair<double, double> fitLine(const std::vector<double>& x, const std::vector<double>& y);

// Settles a liquid that starts on the emitter's lattice (tank.cpp): to kSettled with
// the SPH solvers' "damping" at 20 /s, then 2 /s, then off; the hybrids undamped. The
// run's progress reaches shareOfRun.
constexpr double kSettled = 1.5;  // s
void settle(Simulation& sim, const Run& run, double shareOfRun);

// The liquid's centre of mass in the container's frame (z = 0 in 2D).
template <int D>
Vec3 liquidCentre(SimulationImpl<D>& sim) {
  const ParticleSet<D>& p = sim.particles();
  Vec<D> mx(0.0);
  double m = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) mx += p.m[i] * p.x[i], m += p.m[i];
  return m > 0.0 ? toVec3<D>(mx / m) : Vec3(0.0);
}

// The mean time between upward zero crossings (kNotMeasured before the second).
double crossingPeriod(const std::vector<double>& upCrossings);
// The sloshing and swirl experiments' result so far: the first mode's period, the phase
// of the run ("so far: free"), the curve.
ExperimentResult periodSoFar(double reference, double measured, const std::string& phase,
                             std::vector<std::string> columns, std::vector<std::vector<double>> rows);

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
ExperimentResult baffle(const Run& run);
template <int D>
ExperimentResult swirl(const Run& run);
template <int D>
ExperimentResult torricelli(const Run& run);
template <int D>
ExperimentResult forcedSway(const Run& run);
template <int D>
ExperimentResult spinningDisc(const Run& run);
template <int D>
ExperimentResult hardSpheres(const Run& run);

}  // namespace sloshlab::experiments
