#include "simulation_impl.h"

#include "sloshlab/emitter.h"
#include "sph/smoothing_kernel.h"
#include "ordered_sum.h"
#include "io/state_archive.h"
#include "sloshlab/solver_registry.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>

namespace sloshlab {

namespace {
// Largest step any solver may take: keeps the container's motion well resolved (physics.md (9.1)).
constexpr double kMaxStep = 1.0 / 60.0;
// Smallest step a solver may ask for: 200 times below the shortest any scene takes
// (WCSPH at 2.6 mm spacing, 2e-5 s). A solver that asks for less has met a motion or a
// state it cannot follow; stepping on would hang the run (a script turning the bottle at
// 1e8 rad/s took 20 s of wall time per 0.3 ms simulated). physics.md (9.9).
constexpr double kMinStep = 1e-7;
}  // namespace

std::unique_ptr<Simulation> Simulation::create(const SimulationSetup& setup) {
  if (setup.dim == 2) return std::make_unique<SimulationImpl<2>>(setup);
  if (setup.dim == 3) return std::make_unique<SimulationImpl<3>>(setup);
  throw std::runtime_error("dimension must be 2 or 3 (got " + std::to_string(setup.dim) + ")");
}

template <int D>
SimulationImpl<D>::SimulationImpl(const SimulationSetup& setup) : m_setup(setup) {
  if (m_setup.solver.empty()) m_setup.solver = m_setup.scene.solver;
  // A twin (the GPU path's gpu-pbf) runs its CPU solver's settings from the scene, then its own.
  const std::string sceneKey = sceneKeyOf(m_setup.solver);
  m_spacing = m_setup.spacing > 0.0 ? m_setup.spacing : m_setup.scene.spacingFor(sceneKey, D);
  const Scene& scene = m_setup.scene;
  for (int k = 0; k < D; ++k)
    if (m_spacing * 2.0 > scene.containerSize[k])
      throw std::runtime_error("spacing " + std::to_string(m_spacing) + " m is too coarse for the container");

  m_solver = makeSolver<D>(m_setup.solver);
  for (const std::string& key : {sceneKey, m_setup.solver}) {
    for (const auto* params : {&scene.params, D == 3 ? &scene.params3d : nullptr}) {
      if (!params) continue;
      const auto it = params->find(key);
      if (it != params->end()) applyParamText(m_solver->params(), it->second);
    }
    if (key == m_setup.solver) break;
  }
  for (const auto& [key, value] : m_setup.overrides) m_solver->params().setFromText(key, value);

  m_container.size = scene.containerSize;
  m_driver.setPlanar(D == 2);
  m_driver.reset(scene.containerPose);
  if (!m_setup.motion.empty()) m_driver.setScript(m_setup.motion);
  // A script need not start at zero displacement (a drag recorded after the bottle was
  // moved): the container starts at the script's pose for t = 0, where starting at the
  // scene's pose teleported it in the first step (a wall at 200 m/s).
  m_container.pose = m_driver.poseAt(0.0);

  checkParticleBudget<D>(scene, m_spacing);
  m_solids = Solids<D>(scene.obstacles, scene.containerSize);
  if (m_solids.thinnest() < 2.0 * m_spacing)
    throw std::runtime_error("scene '" + scene.name + "': an obstacle is " + formatNumber(m_solids.thinnest()) +
                             " m thin, less than two particle spacings (" + formatNumber(2.0 * m_spacing) +
                             " m): the liquid would pass through it");
  try {
    m_bodies.configure(scene.bodies, boxSize(), m_spacing, m_solids);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error("scene '" + scene.name + "': " + e.what());
  }
  emitFluid<D>(scene, m_spacing, m_setup.seed, m_particles);
  if (m_particles.size() == 0) throw std::runtime_error("scene '" + scene.name + "' emits no particles");
  // No particle starts inside an obstacle or a body, nor closer to one than half a
  // spacing (15.1), (16.5).
  if (!m_solids.empty() || !m_bodies.empty()) {
    std::size_t kept = 0;
    const double clear = 0.5 * m_spacing * (1.0 - 1e-6);
    for (std::size_t i = 0; i < m_particles.size(); ++i)
      if (m_solids.distance(m_particles.x[i]) >= clear && m_bodies.distance(m_particles.x[i]) >= clear) {
        m_particles.x[kept] = m_particles.x[i], m_particles.v[kept] = m_particles.v[i];
        m_particles.m[kept] = m_particles.m[i], ++kept;
      }
    if (kept == 0)
      throw std::runtime_error("scene '" + scene.name + "': the obstacles leave no room for the liquid");
    m_particles.x.resize(kept), m_particles.v.resize(kept), m_particles.m.resize(kept);
    m_particles.numberInOrder();
  }
  m_pour.configure(scene, boxSize(), m_spacing);
  m_solids.setOpening(m_pour.opening());  // an outlet on a wall is a hole in it (14.3)
  m_solver->reset(m_particles, SolverSetup<D>{boxSize(), m_spacing, scene.gravity, m_solids});
  // The particle solvers keep the jet a hole's width beyond the wall, where it contracts
  // (14.3); a grid's cells end at the walls. Only the outlet and the count of particles
  // outside read the spout.
  if (scene.outlet && m_solver->gridCellSize() == 0.0) m_pour.setSpout(2.0 * scene.outlet->radius);
  m_solids.setOpening(m_pour.opening());

  // Runaway speed (measure): far beyond anything gravity or the container's own motion
  // could give the liquid.
  const double g = glm::length(scene.gravity);
  m_extent = glm::length(fromVec3<D>(scene.containerSize));
  for (const Vec<D>& v : m_particles.v) m_fastestStart = std::max(m_fastestStart, glm::length(v));
  m_fastestStart = std::max(m_fastestStart, m_pour.jetSpeed());
  m_freeFallSpeed = std::max(1.0, std::sqrt(2.0 * g * m_extent));
  m_watchdog.configure(g, m_extent, m_fastestStart);

  m_lastFrame = FrameMotion<D>::make(m_container, scene.gravity);
  measure(0.0, 0.0, SolverReport{});
}

template <int D>
void SimulationImpl<D>::step(double limit) {
  advance(limit, false);
}

template <int D>
bool SimulationImpl<D>::stepToward(double limit) {
  return advance(limit, true);
}

template <int D>
bool SimulationImpl<D>::advance(double limit, bool wholeStepsOnly) {
  if (failed()) return false;
  // The whole step runs on the governor's threads, from the time-step proposal (a
  // parallel reduction that, left on two threads, stalled a busy machine's steps) to
  // the diagnostics.
  const auto stepStart = std::chrono::steady_clock::now();
  m_threads.beginStep();
  StepContext<D> ctx;
  ctx.frame = m_lastFrame;  // dt is chosen with the previous step's frame motion
  double dt = std::min({m_solver->maxTimeStep(m_particles, ctx), kMaxStep, m_bodies.maxTimeStep(m_spacing)});
  if (!(dt >= kMinStep)) {
    std::ostringstream s;
    s << "solver '" << m_solver->name() << "' stopped at step " << m_step << " (t = " << m_time
      << " s): its time step collapsed to " << dt << " s, below the floor of " << kMinStep << " s";
    m_failure = s.str();
    m_threads.abandonStep();
    return false;
  }
  // Land on the limit, and never leave a sliver before it (physics.md (9.1)): a fixed-step solver (PBF)
  // ended 1e-15 s short of a 1 s run, and that last step's container acceleration,
  // a velocity change over 1e-15 s, read 7e13 m/s^2. Between one and two steps from the
  // limit, the two steps share what is left, so the window, which lands on every frame,
  // never takes a step shorter than half the solver's own.
  if (limit > m_time) {
    const double left = limit - m_time;
    // The window's frames come at any time: less than half a step before one, it
    // waits for the next (a PBF step of 0.3 ms, its velocities a correction over
    // 0.3 ms, reached 200 m/s).
    if (wholeStepsOnly && left < 0.5 * dt) {
      m_threads.abandonStep();
      return false;
    }
    if (left < dt * (1.0 + 1e-6)) dt = left;
    else if (left < 2.0 * dt) dt = 0.5 * left;
  }
  if (!(dt > 0.0)) {
    m_failure = "time step collapsed to " + std::to_string(dt) + " s at t = " + std::to_string(m_time) + " s";
    m_threads.abandonStep();
    return false;
  }
  ctx.dt = dt;

  m_driver.advance(m_container, m_time, dt);
  ctx.frame = FrameMotion<D>::make(m_container, m_setup.scene.gravity);
  ctx.rotation = m_container.pose.rotation();
  ctx.frameVelocity = rotateByInverse<D>(ctx.rotation, fromVec3<D>(m_container.velocity));
  m_lastFrame = ctx.frame;

  SolverReport report;
  const auto start = std::chrono::steady_clock::now();
  // An SPH solver pushes the liquid with the bodies' boundary samples (16.11)-(16.13).
  const double sampleDepth = m_bodies.empty() ? 0.0 : m_solver->bodySampleDepth();
  if (sampleDepth > 0.0) {
    m_bodies.layOutSamples(m_spacing, sampleDepth, m_bodySamples);
    ctx.bodies = &m_bodySamples;
  }
  // A grid solver solves the bodies' velocities with its pressure (16.17)-(16.19).
  if (!m_bodies.empty() && m_solver->takesMovingBodies()) {
    m_bodies.describeMoving(dt, ctx.frame, m_movingBodies);
    ctx.movingBodies = &m_movingBodies;
  }
  m_solver->step(m_particles, ctx, report);
  if (!m_bodies.empty()) {  // physics.md §16: the bodies' step, then the momentum they trade
    // (16.15): room for a layer of liquid, which SPH's samples then cannot crush, and under a
    // grid solver's body a row of liquid cells, without which a body lifting off a wall
    // would leave an empty cell, air at p = 0 under water, for the liquid to jet into.
    const double clearance = ctx.bodies ? kSampledBodyClearance * m_spacing
                             : ctx.movingBodies ? m_solver->gridCellSize() : 0.0;
    m_bodies.setClearance(clearance);
    // With samples the liquid keeps off the bodies by its pressure; (16.5) is then the
    // last resort, closer in.
    const double margin = (ctx.bodies ? kSampledBodyMargin : 0.5) * m_spacing;
    const double layer = 2.0 * sampleDepth;
    // A solver on the device hands over only the particles the share (16.14) and the
    // contacts (16.5) can reach: within the layer or the margin of a body, wherever
    // advance (a step of at most 0.4 spacings, (16.9)) takes it (physics.md (13.3)),
    // then takes them back.
    const bool onDevice = m_solver->deviceMoments() != nullptr && ctx.bodies;
    if (onDevice) {
      std::vector<double> radii;
      for (const double reach : m_bodySamples.reach) radii.push_back(reach + std::max(layer, margin) + 2.0 * m_spacing);
      m_solver->gatherNear(m_bodySamples.centre, radii, m_nearBodies);
    }
    ParticleSet<D>& liquid = onDevice ? m_nearBodies : m_particles;
    if (ctx.bodies) m_bodies.takeImpulses(m_bodySamples, dt, ctx.frame, liquid, layer);
    if (ctx.movingBodies) m_bodies.takeMoving(m_movingBodies, dt);
    m_bodies.advance(dt, ctx.frame, boxSize(), m_solids, ctx.bodies != nullptr || ctx.movingBodies != nullptr);
    m_bodies.couple(liquid, margin, dt, boxSize(), m_solids);
    if (onDevice) m_solver->scatterNear(m_nearBodies);
  }
  const double wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

  m_time += dt;
  ++m_step;
  m_hostStale = m_solver->deviceMoments() != nullptr;
  if (!m_jet.positions().empty()) m_jet.advance(dt, m_setup.scene.gravity);
  if (m_pour.busy()) pour(dt);
  m_stats.threads = m_threads.threads();
  measure(dt, wallMs, report);
  m_threads.endStep(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - stepStart).count());
  return true;
}

// The faucet and the outlet (pour.h) after a step: the particles they add and remove,
// then the solver told which are which. The energy they bring or take is not the
// solver's: the watchdog starts over.
template <int D>
void SimulationImpl<D>::pour(double dt) {
  if (m_pour.readsParticles(dt)) syncHost();
  if (!m_pour.apply(m_particles, dt, m_pourOrigin)) return;
  feedJet();
  m_watchdog.interrupt();
  if (m_particles.size() == 0) {
    std::ostringstream s;
    s << "the outlet drained the last of the liquid at t = " << m_time << " s";
    m_failure = s.str();
    return;
  }
  m_solver->particlesChanged(m_particles, m_pourOrigin);
}

template <int D>
void SimulationImpl<D>::feedJet() {
  const FrameTransform<D> frame = FrameTransform<D>::make(m_container);
  for (std::size_t k = 0; k < m_pour.leftX().size(); ++k) {
    const Vec<D>& x = m_pour.leftX()[k];
    m_jet.add(toVec3<D>(frame.toWorld(x)), toVec3<D>(frame.velocityToWorld(x, m_pour.leftV()[k])));
  }
}

template <int D>
void SimulationImpl<D>::takeSpout() {
  if (failed() || !m_solids.opening().exists()) return;
  syncHost();
  if (!m_pour.takeSpout(m_particles, m_pourOrigin)) return;
  feedJet();
  m_watchdog.interrupt();
  if (m_particles.size() == 0) {
    m_failure = "the outlet drained the last of the liquid at t = " + formatNumber(m_time) + " s";
    return;
  }
  m_solver->particlesChanged(m_particles, m_pourOrigin);
}

template <int D>
void SimulationImpl<D>::openWall() {
  const WallOpening<D> opening = m_pour.opening();
  if (opening.exists() == m_solids.opening().exists()) return;
  m_solids.setOpening(opening);
  m_solver->setOpening(m_particles, opening);
}

// physics.md (10.1)-(10.6), in the world frame of (8.1)-(8.2), over the host particles.
template <int D>
WorldSums SimulationImpl<D>::sumParticles(const FrameTransform<D>& frame) const {
  const Vec<D> g = fromVec3<D>(m_setup.scene.gravity);
  const Vec<D> centre = fromVec3<D>(m_container.pose.position);
  const std::int64_t n = static_cast<std::int64_t>(m_particles.size());
  // Summed in fixed chunks, added in chunk order (ordered_sum.h): the figures and the
  // energy watchdog's reference, kept in state files, do not depend on the thread count.
  struct Sums {
    double mass = 0, ke = 0, pe = 0, vmax2 = 0;
    Vec3 momentum{0.0}, angular{0.0};
    bool finite = true;
    Sums& operator+=(const Sums& o) {
      mass += o.mass, ke += o.ke, pe += o.pe, vmax2 = std::max(vmax2, o.vmax2);
      momentum += o.momentum, angular += o.angular, finite = finite && o.finite;
      return *this;
    }
  };
  const Sums t = orderedChunks<Sums>(n, 512, [&](std::int64_t begin, std::int64_t end) {
    Sums s;
    for (std::int64_t i = begin; i < end; ++i) {
      const Vec<D>& xl = m_particles.x[i];
      const Vec<D>& vl = m_particles.v[i];
      const double m = m_particles.m[i];
      const double v2 = lengthSquared<D>(vl);
      s.finite = s.finite && std::isfinite(v2) && std::isfinite(lengthSquared<D>(xl));
      s.vmax2 = std::max(s.vmax2, v2);
      const Vec3 x = toVec3<D>(frame.toWorld(xl));
      const Vec3 v = toVec3<D>(frame.velocityToWorld(xl, vl));
      const Vec3 r = x - toVec3<D>(centre);
      s.mass += m;
      s.momentum += m * v;
      s.angular += m * glm::cross(r, v);
      s.ke += 0.5 * m * glm::dot(v, v);
      s.pe -= m * glm::dot(toVec3<D>(g), x);
    }
    return s;
  });
  WorldSums out;
  out.mass = t.mass, out.kineticEnergy = t.ke, out.potentialEnergy = t.pe, out.maxSpeedSquared = t.vmax2;
  out.momentum = t.momentum, out.angularMomentum = t.angular, out.finite = t.finite;
  return out;
}

template <int D>
void SimulationImpl<D>::syncHost() const {
  if (!m_hostStale) return;
  // The host copy is a cache of the device's state: filling it changes nothing observable.
  auto& self = const_cast<SimulationImpl&>(*this);
  m_solver->download(self.m_particles);
  m_hostStale = false;
}

// physics.md (10.1)-(10.6): from the device's moments (10.11) or the host particles.
template <int D>
void SimulationImpl<D>::measure(double dt, double wallMs, const SolverReport& report, bool watchEnergy) {
  const FrameTransform<D> frame = FrameTransform<D>::make(m_container);
  const ParticleMoments* moments = m_solver->deviceMoments();
  const WorldSums t = moments ? worldSums<D>(*moments, frame, m_setup.scene.gravity) : sumParticles(frame);
  m_stats.step = m_step;
  m_stats.time = m_time;
  m_stats.dt = dt;
  m_stats.particles = m_particles.size();
  m_stats.mass = t.mass;
  m_stats.momentum = t.momentum;
  m_stats.angularMomentum = t.angularMomentum;
  m_stats.kineticEnergy = t.kineticEnergy;
  m_stats.potentialEnergy = t.potentialEnergy;
  m_stats.maxSpeed = std::sqrt(t.maxSpeedSquared);
  m_stats.wallMs = wallMs;
  m_stats.solver = report;

  // Runaway: ten times what falling across the container and its fastest rim give a
  // particle relative to the walls, or fifty times the fastest emitted (a gas).
  m_rimSpeedMax = std::max(m_rimSpeedMax, glm::length(m_container.velocity) +
                                              glm::length(m_container.angularVelocity) * 0.5 * m_extent);
  m_runawaySpeed = std::max(50.0 * m_fastestStart, 10.0 * (m_freeFallSpeed + m_rimSpeedMax));
  if (!t.finite) {
    std::ostringstream s;
    s << "solver '" << m_solver->name() << "' blew up at step " << m_step << " (t = " << m_time
      << " s): non-finite position or velocity";
    m_failure = s.str();
  } else if (m_stats.maxSpeed > m_runawaySpeed) {
    std::ostringstream s;
    s << "solver '" << m_solver->name() << "' blew up at step " << m_step << " (t = " << m_time
      << " s): speed " << m_stats.maxSpeed << " m/s exceeds the runaway limit " << m_runawaySpeed << " m/s";
    m_failure = s.str();
  } else if (const double bodySpeed = m_bodies.fastestSpeed(); bodySpeed > m_runawaySpeed) {
    std::ostringstream s;
    s << "solver '" << m_solver->name() << "' blew up at step " << m_step << " (t = " << m_time
      << " s): ";
    if (std::isfinite(bodySpeed))
      s << "a floating body's speed " << bodySpeed << " m/s exceeds the runaway limit " << m_runawaySpeed << " m/s";
    else
      s << "a floating body's state is not finite";
    m_failure = s.str();
  } else if (t.mass > 0.0 && watchEnergy) {
    double bodyMass = 0.0;
    const double bodyE = bodyEnergy(bodyMass);
    watch((t.kineticEnergy + t.potentialEnergy + bodyE) / (t.mass + bodyMass));
  }
}

template <int D>
double SimulationImpl<D>::bodyEnergy(double& mass) const {
  mass = 0.0;
  if (m_bodies.empty()) return 0.0;
  double e = m_bodies.kineticEnergy();
  const Mat3 R = m_container.pose.rotation();
  for (const BodyView& b : m_bodies.views(-1.0)) {
    mass += b.mass;
    Vec3 local = b.position - 0.5 * m_container.size;
    if (D == 2) local.z = 0.0;
    e -= b.mass * glm::dot(m_setup.scene.gravity, m_container.pose.position + R * local);
  }
  return e;
}

template <int D>
std::vector<BodyView> SimulationImpl<D>::bodies() const {
  if (m_bodies.empty()) return {};
  // A solver on the device finds the columns' tops there: the window asks every frame.
  std::vector<Vec<D>> centres;
  std::vector<double> radii, tops;
  m_bodies.levelExclusions(m_spacing, centres, radii);
  if (m_solver->columnTops(RigidBodies<D>::levelColumnWidth(m_spacing), centres, radii, tops))
    return m_bodies.views(RigidBodies<D>::levelFromTops(std::move(tops), m_spacing));
  syncHost();
  return m_bodies.views(m_bodies.surfaceLevel(m_particles, m_spacing));
}

template <int D>
void SimulationImpl<D>::setBodyDensity(std::size_t k, double density) {
  m_bodies.setDensity(k, density);
  m_watchdog.interrupt();
}

// The container stands still when its velocity and acceleration are nil (a hand's
// follow spring settles to this within a fraction of a second).
template <int D>
bool SimulationImpl<D>::containerStill() const {
  const ContainerState& c = m_container;
  return glm::length(c.velocity) < 1e-4 && glm::length(c.acceleration) < 1e-3 && glm::length(c.angularVelocity) < 1e-4 &&
         glm::length(c.angularAcceleration) < 1e-3;
}

// The energy watchdog (energy_watchdog.h) on E = KE + PE per kilogram; with the
// container still, the world-frame energy differs from the container frame's by a constant.
template <int D>
void SimulationImpl<D>::watch(double energy) {
  if (!containerStill() || m_solver->drivesEnergy() || m_bodies.pulled()) {
    m_watchdog.interrupt();
    return;
  }
  if (!m_watchdog.observe(m_time, energy)) return;
  std::ostringstream s;
  s << "solver '" << m_solver->name() << "' gained energy at step " << m_step << " (t = " << m_time
    << " s): with the container at rest its energy rose " << m_watchdog.gain() << " J/kg above its lowest (t = "
    << m_watchdog.lowestAt() << " s), more than the " << m_watchdog.allowed() << " J/kg allowed";
  m_failure = s.str();
}

template <int D>
void SimulationImpl<D>::solverParamsEdited() {
  m_watchdog.interrupt();
  m_solver->params().clampAll();
  m_solver->paramsChanged(m_particles);
}

// What the next steps depend on beyond the set-up (state_file.h). Loading runs on a
// simulation just created from the saved set-up: what the set-up determines (the
// emitter's start, the runaway bounds) is already there, and is overwritten where the
// run has moved on.
template <int D>
void SimulationImpl<D>::exchangeState(StateArchive& ar) {
  syncHost();
  ar.value(m_time, "the time");
  ar.value(m_step, "the step count");
  ar.value(m_container, "the container's state");
  ar.value(m_lastFrame, "the container's last frame motion");
  ar.value(m_rimSpeedMax, "the container's fastest rim speed");
  ar.value(m_runawaySpeed, "the runaway speed");
  m_driver.exchangeState(ar);
  m_watchdog.exchangeState(ar);
  m_pour.exchangeState(ar);
  if (ar.loading()) openWall();
  m_bodies.exchangeState(ar, boxSize());
  exchangeParams(ar);

  std::uint64_t n = m_particles.size();
  ar.value(n, "the particle count");
  ar.vector(m_particles.x, "the positions");
  ar.vector(m_particles.v, "the velocities");
  ar.vector(m_particles.m, "the masses");
  ar.vector(m_particles.id, "the particles' numbers");
  ar.value(m_particles.nextId, "the next particle's number");
  ar.value(m_particles.radius, "the particle radius");
  if (ar.loading()) {
    if (m_particles.x.size() != n || m_particles.v.size() != n || m_particles.m.size() != n ||
        m_particles.id.size() != n)
      throw StateError("the particles' positions, velocities, masses and numbers differ in number");
    if (n == 0) throw StateError("it holds no particles");
    const Vec<D> box = boxSize();
    for (std::size_t i = 0; i < n; ++i) {
      bool ok = std::isfinite(lengthSquared<D>(m_particles.v[i])) && m_particles.m[i] > 0.0 &&
                std::isfinite(m_particles.m[i]);
      const WallOpening<D>& hole = m_solids.opening();  // the spout (14.3) holds liquid too
      const bool inSpout = hole.exists() && hole.passed(m_particles.x[i], box) && !hole.gone(m_particles.x[i], box);
      for (int k = 0; k < D; ++k)
        ok = ok && (inSpout || (m_particles.x[i][k] >= -m_spacing && m_particles.x[i][k] <= box[k] + m_spacing));
      if (!ok) throw StateError("particle " + std::to_string(i) + " is outside the container or not finite");
    }
    const Vec3 size = m_setup.scene.containerSize;
    const ContainerState& c = m_container;
    const bool sameBox = c.size.x == size.x && c.size.y == size.y && (D == 2 || c.size.z == size.z);
    const bool finite = std::isfinite(glm::length(c.pose.position) + glm::length(c.pose.angles()) +
                                      glm::length(c.velocity) + glm::length(c.angularVelocity) +
                                      glm::length(c.acceleration) + glm::length(c.angularAcceleration));
    if (!sameBox || !finite) throw StateError("the container's state does not fit its scene");
    if (!(m_time >= 0.0) || !std::isfinite(m_time) || m_step < 0) throw StateError("the time or step is negative");
    if (!(m_particles.radius > 0.0)) throw StateError("the particle radius is not positive");
  }
  m_solver->exchangeState(ar, m_particles);
  if (ar.loading()) measure(m_stats.dt, 0.0, SolverReport{}, false);
}

// Every parameter's value, by key: loading sets those that differ from the fresh
// simulation's (the window's edits) and lets the solver re-derive what depends on them,
// as an edit between steps does, before the particles and the solver's state arrive.
template <int D>
void SimulationImpl<D>::exchangeParams(StateArchive& ar) {
  ParamRef params = m_solver->params();
  std::uint32_t count = static_cast<std::uint32_t>(params.table().entries.size());
  ar.value(count, "the parameter count");
  if (ar.loading() && count > params.table().entries.size())
    throw StateError("it holds more parameters than solver '" + std::string(m_solver->name()) + "' has");
  bool changed = false;
  for (std::uint32_t k = 0; k < count; ++k) {
    std::string key = ar.loading() ? std::string() : params.table().entries[k].key;
    double value = ar.loading() ? 0.0 : params.get(params.table().entries[k]);
    ar.string(key, "a parameter's name");
    ar.value(value, "a parameter's value");
    if (!ar.loading()) continue;
    const ParamInfo* info = nullptr;
    for (const ParamInfo& e : params.table().entries)
      if (key == e.key) info = &e;
    if (!info) throw StateError("solver '" + std::string(m_solver->name()) + "' has no parameter '" + key + "'");
    if (!std::isfinite(value)) throw StateError("parameter '" + key + "' is not finite");
    if (params.get(*info) != value) params.setClamped(*info, value), changed = true;
  }
  if (changed) {
    params.clampAll();
    m_solver->paramsChanged(m_particles);
  }
}

template <int D>
void SimulationImpl<D>::worldParticles(std::vector<Vec3>& x, std::vector<Vec3>& v) const {
  syncHost();
  const FrameTransform<D> frame = FrameTransform<D>::make(m_container);
  const std::size_t n = m_particles.size();
  x.resize(n);
  v.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = toVec3<D>(frame.toWorld(m_particles.x[i]));
    v[i] = toVec3<D>(frame.velocityToWorld(m_particles.x[i], m_particles.v[i]));
  }
}

template <int D>
void SimulationImpl<D>::containerParticles(std::vector<Vec3>& x, std::vector<Vec3>& v) const {
  syncHost();
  const std::size_t n = m_particles.size();
  x.resize(n);
  v.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = toVec3<D>(m_particles.x[i]);
    v[i] = toVec3<D>(m_particles.v[i]);
  }
}

template <int D>
std::size_t SimulationImpl<D>::countOutside() const {
  syncHost();
  const Vec<D> box = boxSize();
  std::size_t outside = 0;
  const WallOpening<D>& hole = m_solids.opening();
  for (const Vec<D>& p : m_particles.x) {
    if (hole.exists() && hole.passed(p, box) && !hole.gone(p, box)) continue;  // in the spout (14.3)
    bool in = true;
    for (int k = 0; k < D; ++k) in = in && p[k] >= 0.0 && p[k] <= box[k];
    if (!in) ++outside;
  }
  return outside;
}

template <int D>
bool SimulationImpl<D>::field(FieldKind kind, std::vector<float>& out) const {
  syncHost();
  out.resize(m_particles.size());
  if (kind == FieldKind::Speed) {
    for (std::size_t i = 0; i < m_particles.size(); ++i) out[i] = static_cast<float>(glm::length(m_particles.v[i]));
    return true;
  }
  return m_solver->field(kind, m_particles, out);
}

template <int D>
bool SimulationImpl<D>::inspect(std::uint32_t id, ParticleInspection& out) const {
  syncHost();
  out = ParticleInspection{};
  const auto at = std::find(m_particles.id.begin(), m_particles.id.end(), id);
  if (at == m_particles.id.end()) return false;
  const std::size_t i = static_cast<std::size_t>(at - m_particles.id.begin());
  const FrameTransform<D> frame = FrameTransform<D>::make(m_container);
  out.found = true;
  out.id = id;
  out.position = toVec3<D>(frame.toWorld(m_particles.x[i]));
  out.velocity = toVec3<D>(frame.velocityToWorld(m_particles.x[i], m_particles.v[i]));
  out.mass = m_particles.m[i];
  std::vector<float> values;
  if (field(FieldKind::Density, values)) out.density = values[i];
  if (field(FieldKind::Pressure, values)) out.pressure = values[i];
  if (m_solver->inspectGrid(m_particles, i, out.grid)) {
    for (InspectedFace& f : out.grid.faces) f.position = toVec3<D>(frame.toWorld(fromVec3<D>(f.position)));
    for (InspectedCell& c : out.grid.cells) c.position = toVec3<D>(frame.toWorld(fromVec3<D>(c.position)));
  }
  out.support = m_solver->interactionRadius();
  if (!(out.support > 0.0)) return true;
  // Brute force over every particle: one particle, once a frame, and the answer does
  // not depend on the solver's lists.
  const CubicSpline<D> kernel(out.support);
  out.selfWeight = kernel.W0();
  constexpr int kCurve = 48;
  for (int k = 0; k < kCurve; ++k) out.kernelCurve.push_back(kernel.W(out.support * k / (kCurve - 1)));
  const Vec<D> xi = m_particles.x[i];
  for (std::size_t j = 0; j < m_particles.size(); ++j) {
    const double r = glm::length(m_particles.x[j] - xi);
    if (j == i || r >= out.support) continue;
    out.neighbours.push_back({m_particles.id[j], toVec3<D>(frame.toWorld(m_particles.x[j])), r, kernel.W(r),
                              kernel.dWdr(r)});
  }
  std::sort(out.neighbours.begin(), out.neighbours.end(),
            [](const InspectedNeighbour& a, const InspectedNeighbour& b) { return a.distance < b.distance; });
  return true;
}

const char* fieldName(FieldKind kind) {
  switch (kind) {
    case FieldKind::Speed: return "speed";
    case FieldKind::Density: return "density";
    case FieldKind::Pressure: return "pressure";
    case FieldKind::Vorticity: return "vorticity";
    case FieldKind::Count: break;
  }
  return "?";
}

template class SimulationImpl<2>;
template class SimulationImpl<3>;

}  // namespace sloshlab
