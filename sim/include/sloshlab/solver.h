// The solver interface: every method implements one time step over the particles
// in the container frame, exposes its parameter table, and reports diagnostics.
// One virtual level: concrete solvers derive from Solver<D> directly.
#pragma once

#include "sloshlab/container.h"
#include "sloshlab/diagnostics.h"
#include "sloshlab/params.h"
#include "sloshlab/particle_moments.h"
#include "sloshlab/particles.h"
#include "sloshlab/solids.h"

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace sloshlab {

class StateArchive;  // sim/src/state_archive.h

// The floating bodies as boundary samples for the SPH solvers (physics.md (16.11)-(16.13);
// Akinci et al. 2012): Simulation lays them out before each step from the bodies'
// pose, the solver pushes the liquid with them as with the walls' samples and adds the
// liquid's impulse on each sample, which the bodies then take.
template <int D>
struct BodySamples {
  std::vector<Vec<D>> x, v;           // each sample's position and velocity, container frame
  std::vector<std::uint32_t> owner;   // the body it belongs to
  std::vector<Vec<D>> centre;         // per body: its centre ...
  std::vector<double> reach;          // ... and the radius about it that holds its samples
  std::vector<Vec<D>> impulse;        // N s (2D: per metre): the liquid's push on each sample over the step
  double restDensity = 0.0;           // the solver's rho0 (kg/m^3), which it sets
  std::size_t size() const { return x.size(); }
};

// The floating bodies as moving solids for the grid solvers (physics.md (16.17)-(16.19);
// after Batty, Bertails & Bridson 2007): the cells whose centres a body holds are solid,
// their faces move with it, and its velocity is solved together with the pressure.
// Simulation fills `bodies` before each step with their velocity after gravity and the
// frame's forces; the solver returns the impulse the pressure gave each.
template <int D>
struct MovingBodies {
  struct Body {
    Vec<D> centre{0.0};
    double reach = 0.0;        // a radius about the centre that holds the body (m)
    Vec<D> velocity{0.0};      // v*, container frame (m/s)
    Vec3 spin{0.0};            // omega*, container axes (rad/s; 2D: z alone)
    double invMass = 0.0;      // 1/M (2D: per metre of depth)
    Mat3 invInertia{0.0};      // I^-1 in container axes (2D: the zz entry alone)
    // A body pressed against a wall, an obstacle or another body (the last step's contacts)
    // keeps its velocity along these unit directions (pointing away from what it touches)
    // through the solve: the solve may not push it into what the contacts then stop, or
    // the liquid it thought moved would have nowhere to go (16.19).
    std::array<Vec<D>, D> held{};
    int heldCount = 0;
    // A ball's surface moves along its normal with the centre alone: its spin moves no
    // liquid, and the pressure, normal to it, does not turn it.
    bool round = false;
    Vec<D> impulse{0.0};         // out: the liquid's impulse over the step (N s; 2D per metre)
    Vec3 angularImpulse{0.0};    // out: its moment about the centre
    Vec<D> solvedVelocity{0.0};  // out: the velocity the solve gave it
    Vec3 solvedSpin{0.0};        // out: and its angular velocity
  };
  std::vector<Body> bodies;
  // The signed distance to body k (m, negative inside) and its outward normal there.
  std::function<double(std::size_t, const Vec<D>&, Vec<D>&)> distance;
};

// Per-step context (after Box2D's b2StepContext): everything a phase needs, by value.
template <int D>
struct StepContext {
  double dt = 0.0;
  FrameMotion<D> frame;   // gravity and fictitious accelerations
  Vec<D> frameVelocity{0.0};  // the container's velocity R^T V, in its own axes
  Mat3 rotation{1.0};  // R, the container's orientation, to report world-frame figures
  BodySamples<D>* bodies = nullptr;  // the bodies' samples, for a solver that takes them (bodySampleDepth)
  MovingBodies<D>* movingBodies = nullptr;  // the bodies as moving solids (takesMovingBodies)
};

// What a solver learns when a fresh fluid is emitted.
template <int D>
struct SolverSetup {
  Vec<D> boxSize{1.0};  // container inner size; the box spans [0, boxSize]
  double spacing = 0.0; // particle spacing of the emitter (m)
  Vec3 gravity{0.0};    // the scene's gravity (world frame)
  Solids<D> solids;     // obstacles fixed to the container (sloshlab/solids.h)
};

// The particle inspector's view of a grid solver: the MAC faces one particle's P2G
// stencil reaches, per velocity component, with the weights w_ip it scatters with
// (physics.md (3.1), (3.6)), and the cells around the particle's own with the last
// projection's pressure and divergence ((3.11)-(3.12)). Positions here are in the
// container's frame; Simulation::inspect turns them to world.
struct InspectedFace {
  int component = 0;          // the velocity component a stored on the face (its normal)
  std::array<int, 3> node{};  // face node as in MacGrid::faceNodes (z = 0 in 2D)
  Vec3 position{0.0};
  double weight = 0.0;        // w_ip (3.1)
};
struct InspectedCell {
  std::array<int, 3> cell{};  // cell coordinates (z = 0 in 2D)
  Vec3 position{0.0};         // the cell's centre
  bool fluid = false;         // a pressure unknown of the last projection (held particles)
  double pressure = 0.0;      // Pa, the last projection's (0 in air)
  double divergenceBefore = kNotMeasured;  // (div u*)_c (3.11), 1/s: what the projection removed (fluid only)
  double divergence = 0.0;    // the same of the projected u (3.12), 1/s
};
struct GridInspection {
  Vec3 cellSize{0.0};                 // h per axis (m); 0: not a grid solver
  std::vector<InspectedFace> faces;   // component 0's stencil, then 1's (, then 2's)
  std::vector<InspectedCell> cells;   // the particle's cell first, then its neighbours inside the box
};

// Quantities the renderer can colour particles by.
enum class FieldKind { Speed, Density, Pressure, Vorticity, Count };
const char* fieldName(FieldKind kind);

// The window draws a GPU solver's particles from GPU memory (docs/gpu.md, "Drawing from
// GPU memory"). A draw target is a buffer of the GPU path's GL context, which shares its
// objects with the window's; the engine only passes it on and stays free of GL.
class DeviceDrawTarget {
 public:
  virtual ~DeviceDrawTarget() = default;
  // On the window's thread, with its context current: waits (on the GPU, not the CPU)
  // for the frame the solver last wrote, before drawing from buffer().
  virtual void waitBeforeDraw() = 0;
  // After the draws that read buffer(): the next write waits for them.
  virtual void markDrawn() = 0;
  virtual unsigned buffer() const = 0;  // GL buffer name: per particle (x, y, z, value)
};

// What a solver wrote into a draw target: positions in the container frame (m), each
// with its colour field's value, and the field's 1st and 99th percentiles.
struct DeviceDrawFrame {
  std::size_t count = 0;
  bool fieldAvailable = false;
  float low = 0.0f, high = 1.0f;
};

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
  // How deep inside a floating body its boundary samples must reach (m; the kernel's
  // support), for a solver that pushes the liquid with them (ctx.bodies); 0: it does not.
  virtual double bodySampleDepth() const { return 0.0; }
  // True for a solver that takes the bodies as moving solids in its pressure solve
  // (ctx.movingBodies) and returns their impulses.
  virtual bool takesMovingBodies() const { return false; }
  // True while something in the solver's own model feeds energy in (a wind): the
  // energy watchdog (energy_watchdog.h) stands aside.
  virtual bool drivesEnergy() const { return false; }
  virtual double gridCellSize() const { return 0.0; }
  // The particle inspector: particle i's transfer stencil and the cells around it;
  // false when the solver has no grid.
  virtual bool inspectGrid(const ParticleSet<D>& particles, std::size_t i, GridInspection& out) const {
    (void)particles, (void)i, (void)out;
    return false;
  }
  // The GPU path (sim/gpu/): a solver whose particles live in device memory returns the
  // moments (particle_moments.h) it summed there at the end of its last step, or after
  // reset() and a loaded state; the host set handed to step() then goes stale, and
  // download() brings it up to date (x, v, m, id) before anything reads it. A loaded
  // state reaches the device through exchangeState. nullptr: the particles are the host's.
  virtual const ParticleMoments* deviceMoments() const { return nullptr; }
  virtual void download(ParticleSet<D>& particles) const { (void)particles; }
  // Sends positions and velocities edited on the host (tests) back to the device, in the
  // order download() left them.
  virtual void upload(const ParticleSet<D>& particles) { (void)particles; }
  // The floating bodies' contacts (physics.md (16.5)-(16.6), (16.14)) on a solver on the
  // device: the particles within any of the spheres (centres, radii) brought to the host
  // in `near` (x, v, m, id; in the device's order), and after the host changed them sent
  // back with gatherNear's `near`. A solver on the host leaves `near` empty.
  virtual void gatherNear(std::span<const Vec<D>> centres, std::span<const double> radii, ParticleSet<D>& near) {
    (void)centres, (void)radii;
    near.resize(0);
  }
  virtual void scatterNear(const ParticleSet<D>& near) { (void)near; }
  // And for the bodies' drafts (RigidBodies::surfaceLevel), the highest particle (y, m) of
  // each column `width` wide (along x, and z in 3D) among those outside every exclusion
  // zone (centre, radius measured across y), in any order, empty columns left out; false
  // for a solver on the host.
  virtual bool columnTops(double width, std::span<const Vec<D>> centres, std::span<const double> radii,
                          std::vector<double>& tops) const {
    (void)width, (void)centres, (void)radii, (void)tops;
    return false;
  }
  // Particles were added or removed between steps (a faucet, an outlet: sloshlab/pour.h):
  // origin[i] is the index particle i had before, -1 for a new one. The host set's
  // registered channels have already followed (reorder, resize: new entries are zero); a
  // solver on the device rebuilds its arrays from the host set and its own values.
  // The container's wall opening changed (an outlet on a wall opened or closed:
  // sloshlab/pour.h, physics.md (14.3)); between steps. Walls, boundary samples and the
  // grid's boundary cells follow it from the next step.
  virtual void setOpening(ParticleSet<D>& particles, const WallOpening<D>& opening) = 0;
  virtual void particlesChanged(ParticleSet<D>& particles, std::span<const std::int64_t> origin) {
    (void)particles, (void)origin;
  }
  // Per-particle values for colouring; false when the solver has no such field.
  virtual bool field(FieldKind kind, const ParticleSet<D>& particles, std::span<float> out) const {
    (void)kind, (void)particles, (void)out;
    return false;
  }
  // A solver on the device writes its particles and the colour field `kind` into
  // `target` and returns true; the others return false (the window then draws from the
  // host's copy).
  virtual bool drawFrame(FieldKind kind, DeviceDrawTarget& target, DeviceDrawFrame& out) const {
    (void)kind, (void)target, (void)out;
    return false;
  }
};

}  // namespace sloshlab
