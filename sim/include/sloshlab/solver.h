// The solver interface: every method implements one time step over the particles
// in the container frame, exposes its parameter table, and reports diagnostics.
// One virtual level: concrete solvers derive from Solver<D> directly.
#pragma once

#include "sloshlab/container.h"
#include "sloshlab/diagnostics.h"
#include "sloshlab/params.h"
#include "sloshlab/particles.h"

#include <span>
#include <string>

namespace sloshlab {

class StateArchive;  // sim/src/state_archive.h

// Per-step context (after Box2D's b2StepContext): everything a phase needs, by value.
template <int D>
struct StepContext {
  double dt = 0.0;
  double time = 0.0;
  double spacing = 0.0;   // initial particle spacing (m)
  Vec<D> boxSize{1.0};    // container inner size; the box spans [0, boxSize]
  FrameMotion<D> frame;   // gravity and fictitious accelerations
  Vec<D> frameVelocity{0.0};  // the container's velocity R^T V, in its own axes
  double cosAngle = 1.0, sinAngle = 0.0;  // container orientation, to report world-frame figures
};

// What a solver learns when a fresh fluid is emitted.
template <int D>
struct SolverSetup {
  Vec<D> boxSize{1.0};  // container inner size; the box spans [0, boxSize]
  double spacing = 0.0; // particle spacing of the emitter (m)
  Vec3 gravity{0.0};    // the scene's gravity (world frame)
};

// Quantities the renderer can colour particles by.
enum class FieldKind { Speed, Density, Pressure, Vorticity, Count };
const char* fieldName(FieldKind kind);

template <int D>
class Solver {
 public:
  virtual ~Solver() = default;

  virtual const char* name() const = 0;
  virtual ParamRef params() = 0;

  // Prepares freshly emitted particles: masses, boundary samples, channels.
  virtual void reset(ParticleSet<D>& particles, const SolverSetup<D>& setup) = 0;
  // Called after parameters were edited between steps (re-derive what depends on them).
  virtual void paramsChanged(ParticleSet<D>& particles) { (void)particles; }
  // Largest stable time step for the current state (s).
  virtual double maxTimeStep(const ParticleSet<D>& particles, const StepContext<D>& ctx) const = 0;
  virtual void step(ParticleSet<D>& particles, const StepContext<D>& ctx, SolverReport& report) = 0;
  // Save and resume (sloshlab/state_file.h): writes, or reads back, everything the next
  // steps depend on beyond the particles' x, v and m (warm starts, the neighbour lists'
  // reference positions, step counters), and what the colour fields show. Called after
  // reset() and the parameters, with the particles already loaded; throws StateError.
  virtual void exchangeState(StateArchive& ar, ParticleSet<D>& particles) = 0;
  // Teaching overlays: the radius within which particles interact (the SPH kernel
  // support, the contact distance), and the grid cell of grid-based methods; 0: none.
  virtual double interactionRadius() const { return 0.0; }
  // True while something in the solver's own model feeds energy in (a wind): the
  // energy watchdog (energy_watchdog.h) stands aside.
  virtual bool drivesEnergy() const { return false; }
  virtual double gridCellSize() const { return 0.0; }
  // Per-particle values for colouring; false when the solver has no such field.
  virtual bool field(FieldKind kind, const ParticleSet<D>& particles, std::span<float> out) const {
    (void)kind, (void)particles, (void)out;
    return false;
  }
};

}  // namespace sloshlab
