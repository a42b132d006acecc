// Per-step diagnostics: what every solver reports, plus each solver's own figures
// and time per phase (after Box2D's b2Profile). The UI plots them; --stats writes them.
#pragma once

#include "sloshlab/math.h"

#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>

namespace sloshlab {

inline constexpr double kNotMeasured = std::numeric_limits<double>::quiet_NaN();

struct PhaseTime {
  const char* name = "";
  double ms = 0.0;
};

// Figures a solver fills during its step. NaN means "this solver has no such figure".
struct SolverReport {
  // The density error, physics.md (10.7): the compression e_i = max(rho_i - rho0, 0)/rho0
  // (WCSPH, PBF after its constraint solve; DFSPH the positive part of its density
  // solve's last predicted error (6.6)), its largest and its mean over all particles
  // (an expanded particle counts 0), the mean summed in an order that does not depend
  // on the thread count. (The toy solver's largest is signed.)
  double densityErrorMax = kNotMeasured;
  double densityErrorMean = kNotMeasured;
  double divergenceMax = kNotMeasured;     // max |div u| h / max|u| after projection (hybrid), or SPH divergence error
  int iterations = 0;                      // pressure solver iterations
  int divergenceIterations = 0;            // DFSPH divergence solver iterations
  double residual = kNotMeasured;          // final pressure solver residual
  int collisions = 0;                      // particle pairs resolved (hard spheres)
  double liquidVolume = kNotMeasured;      // cells holding particles times the cell's volume (hybrid; m^2 in 2D)
  Vec3 wallImpulse{0.0};                   // impulse walls gave particles this step, world frame (N s)
  std::array<PhaseTime, 10> phases{};
  int phaseCount = 0;

  void addPhase(const char* name, double ms) {
    if (phaseCount < static_cast<int>(phases.size())) phases[phaseCount++] = {name, ms};
  }
};

// Everything measured after one step, in world coordinates.
struct StepStats {
  long step = 0;
  double time = 0.0;
  double dt = 0.0;
  std::size_t particles = 0;
  double mass = 0.0;
  Vec3 momentum{0.0};
  Vec3 angularMomentum{0.0};  // about the container centre
  double kineticEnergy = 0.0;
  double potentialEnergy = 0.0;  // -sum m g.x (world)
  double maxSpeed = 0.0;         // relative to the container
  double wallMs = 0.0;           // wall-clock time of the solver step
  int threads = 1;               // OpenMP threads the step ran on (sim/src/thread_governor.h)
  SolverReport solver;
};

// Times consecutive phases of a step: lap() closes the running phase.
class PhaseClock {
 public:
  PhaseClock() : m_last(std::chrono::steady_clock::now()) {}
  void lap(SolverReport& report, const char* phase) {
    const auto now = std::chrono::steady_clock::now();
    report.addPhase(phase, std::chrono::duration<double, std::milli>(now - m_last).count());
    m_last = now;
  }

 private:
  std::chrono::steady_clock::time_point m_last;
};

}  // namespace sloshlab
