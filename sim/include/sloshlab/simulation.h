// A running simulation: a scene's fluid in its container, advanced by one solver.
//
// The app, the command line, the tests and the benchmarks all drive the engine
// through this handle, which hides the dimension (2 or 3) behind one interface.
// Steps choose their own dt (each solver's stability limit); the container is moved
// by its driver before each step; after each step the common diagnostics are
// measured and a blow-up (NaN or runaway speed) stops the simulation with a message.
#pragma once

#include "sloshlab/container.h"
#include "sloshlab/diagnostics.h"
#include "sloshlab/params.h"
#include "sloshlab/pour.h"
#include "sloshlab/scene.h"
#include "sloshlab/solver.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace sloshlab {

struct SimulationSetup {
  Scene scene;
  int dim = 2;
  std::string solver;    // empty: the scene's solver
  double spacing = 0.0;  // particle spacing (m); 0: the scene's
  std::vector<std::pair<std::string, std::string>> overrides;  // key=value, after the scene's params
  std::uint64_t seed = 1;
  MotionScript motion;   // empty: the container stays (or follows the mouse)
};

// The particle inspector's view of one particle, found by its number (ParticleSet::id):
// world position and velocity, its density and pressure where the solver has them, and
// the particles within the interaction radius h with the cubic spline's weight W(r)
// and slope dW/dr there (physics.md (4.1), (4.3)): the terms of an SPH density sum.
// For the grid solvers also the faces its transfers reach and the cells around it.
struct InspectedNeighbour {
  std::uint32_t id = 0;
  Vec3 position{0.0};     // world (m)
  double distance = 0.0;  // r (m)
  double weight = 0.0;    // W(r) (1/m^D)
  double slope = 0.0;     // dW/dr (1/m^(D+1))
};
struct ParticleInspection {
  bool found = false;
  std::uint32_t id = 0;
  Vec3 position{0.0}, velocity{0.0};  // world
  double mass = 0.0;                  // kg (kg/m in 2D)
  double density = kNotMeasured;      // kg/m^3, the solver's
  double pressure = kNotMeasured;     // Pa, the solver's
  double support = 0.0;               // h (m); 0: the solver has no interaction radius
  double selfWeight = 0.0;            // W(0)
  std::vector<InspectedNeighbour> neighbours;  // nearest first
  std::vector<double> kernelCurve;             // W at r = k h / (size - 1), k = 0 .. size - 1 (for a plot)
  GridInspection grid;  // the grid solvers' stencil and cells (solver.h), world positions; empty otherwise
};

class Simulation {
 public:
  // Throws std::runtime_error (ParamError, SceneError, ...) with a one-line message.
  static std::unique_ptr<Simulation> create(const SimulationSetup& setup);
  virtual ~Simulation() = default;

  virtual int dim() const = 0;
  virtual const SimulationSetup& setup() const = 0;
  virtual std::string solverName() const = 0;
  virtual double spacing() const = 0;
  virtual double particleRadius() const = 0;

  // One step of the solver's own dt, shortened so as not to pass `limit` (if > time).
  virtual void step(double limit = 0.0) = 0;
  // The same toward a frame's time `limit`, but only when at least half of the
  // solver's own step is left before it; returns whether it stepped (the window).
  virtual bool stepToward(double limit) = 0;
  // Steps until the simulated time reaches t (or the simulation fails).
  void advanceTo(double t) {
    while (!failed() && time() < t - 1e-12) step(t);
  }

  virtual double time() const = 0;
  virtual long stepCount() const = 0;
  virtual const StepStats& stats() const = 0;
  virtual bool failed() const = 0;
  virtual const std::string& failureMessage() const = 0;

  virtual ParamRef solverParams() = 0;
  virtual void solverParamsEdited() = 0;  // call after editing solverParams() between steps

  virtual ContainerDriver& driver() = 0;
  virtual const ContainerState& container() const = 0;

  virtual std::size_t particleCount() const = 0;
  // World-frame positions and velocities (z = 0 in 2D).
  virtual void worldParticles(std::vector<Vec3>& x, std::vector<Vec3>& v) const = 0;
  // The same in the container's frame, where the solvers keep them: the origin at the
  // inner corner, the walls at 0 and size (z = 0 in 2D); velocities relative to the walls.
  virtual void containerParticles(std::vector<Vec3>& x, std::vector<Vec3>& v) const = 0;
  // Particles whose centre lies outside the container (the invariant says: none).
  virtual std::size_t countOutside() const = 0;
  virtual double interactionRadius() const = 0;  // see Solver::interactionRadius
  virtual double gridCellSize() const = 0;
  // Per-particle colour values; false when the solver lacks the field.
  virtual bool field(FieldKind kind, std::vector<float>& out) const = 0;
  // The particles and the colour field written into a GPU draw target (solver.h,
  // DeviceDrawTarget), without a copy through the host; false when the solver's
  // particles are the host's.
  virtual bool drawFrame(FieldKind kind, DeviceDrawTarget& target, DeviceDrawFrame& out) const = 0;
  // The particles' numbers, in the order of worldParticles.
  virtual void particleIds(std::vector<std::uint32_t>& out) const = 0;
  // The particle numbered `id` (false when there is none: reseeding removed it).
  virtual bool inspect(std::uint32_t id, ParticleInspection& out) const = 0;

  // The scene's faucet and outlet (sloshlab/pour.h): their totals, and switching them.
  virtual PourStats pourStats() const = 0;
  virtual void setFaucetOn(bool on) = 0;
  virtual void setOutletOn(bool on) = 0;
  // The liquid that left through the outlet's hole in the last 1.5 s, falling freely in
  // the world frame (physics.md (14.7)): world positions and velocities, to draw. Not simulated: nothing
  // collides with it, and state files leave it out.
  virtual void outflowJet(std::vector<Vec3>& x, std::vector<Vec3>& v) const = 0;

  // The floating bodies (sloshlab/bodies.h) as they are now, their drafts measured from
  // the liquid's surface; a new density for body k (its mass and inertia follow).
  virtual std::vector<BodyView> bodies() const = 0;
  virtual void setBodyDensity(std::size_t k, double density) = 0;
  // The mouse's hand on body k: its point `anchor` (the body's own axes) pulled towards
  // `target` (the container's frame) by a spring (physics.md (16.10)); release lets go.
  virtual void pullBody(std::size_t k, const Vec3& anchor, const Vec3& target) = 0;
  virtual void releaseBody() = 0;
};

// The scene of a run, to write back with sceneToJson: the running solver as the scene's,
// its spacing, and every parameter's current value (in params_3d for a 3D run), so that
// --scene on the written file (with the same --seed) starts the same run.
Scene sceneOfRun(Simulation& sim);

}  // namespace sloshlab
