// The typed simulation behind the Simulation handle (tests reach in through here).
#pragma once

#include "energy_watchdog.h"
#include "pour.h"
#include "rigid_bodies.h"
#include "thread_governor.h"
#include "sloshlab/simulation.h"

namespace sloshlab {

template <int D>
class SimulationImpl final : public Simulation {
 public:
  explicit SimulationImpl(const SimulationSetup& setup);

  int dim() const override { return D; }
  const SimulationSetup& setup() const override { return m_setup; }
  std::string solverName() const override { return m_solver->name(); }
  double spacing() const override { return m_spacing; }
  double particleRadius() const override { return m_particles.radius; }

  void step(double limit) override;
  bool stepToward(double limit) override;
  double time() const override { return m_time; }
  long stepCount() const override { return m_step; }
  const StepStats& stats() const override { return m_stats; }
  bool failed() const override { return !m_failure.empty(); }
  const std::string& failureMessage() const override { return m_failure; }

  ParamRef solverParams() override { return m_solver->params(); }
  void solverParamsEdited() override;

  ContainerDriver& driver() override { return m_driver; }
  const ContainerState& container() const override { return m_container; }

  std::size_t particleCount() const override { return m_particles.size(); }
  void worldParticles(std::vector<Vec3>& x, std::vector<Vec3>& v) const override;
  void outflowJet(std::vector<Vec3>& x, std::vector<Vec3>& v) const override {
    x = m_jet.positions(), v = m_jet.velocities();
  }
  void containerParticles(std::vector<Vec3>& x, std::vector<Vec3>& v) const override;
  std::size_t countOutside() const override;
  bool field(FieldKind kind, std::vector<float>& out) const override;
  bool drawFrame(FieldKind kind, DeviceDrawTarget& target, DeviceDrawFrame& out) const override {
    return m_solver->drawFrame(kind, target, out);
  }
  void particleIds(std::vector<std::uint32_t>& out) const override {
    syncHost();
    out = m_particles.id;
  }
  bool inspect(std::uint32_t id, ParticleInspection& out) const override;
  PourStats pourStats() const override { return m_pour.stats(); }
  void setFaucetOn(bool on) override { m_pour.setFaucetOn(on); }
  void setOutletOn(bool on) override {
    if (!on) takeSpout();
    m_pour.setOutletOn(on);
    openWall();
  }
  std::vector<BodyView> bodies() const override;
  void setBodyDensity(std::size_t k, double density) override;
  void pullBody(std::size_t k, const Vec3& anchor, const Vec3& target) override {
    m_bodies.pull(k, fromVec3<D>(anchor), fromVec3<D>(target));
    m_watchdog.interrupt();  // a hand gives energy
  }
  void releaseBody() override { m_bodies.release(); }
  double interactionRadius() const override { return m_solver->interactionRadius(); }
  double gridCellSize() const override { return m_solver->gridCellSize(); }

  // Save and resume (sloshlab/state_file.h): everything after the set-up, in both
  // directions (state_archive.h). Loading happens on a simulation freshly created from
  // the saved set-up; throws StateError.
  void exchangeState(StateArchive& ar);

  // Typed access for tests and benchmarks (brought up from the device first).
  ParticleSet<D>& particles() {
    syncHost();
    return m_particles;
  }
  // After editing particles()' positions or velocities: a device-resident solver gets them.
  void particlesEdited() { m_solver->upload(m_particles); }
  Solver<D>& solver() { return *m_solver; }
  const RigidBodies<D>& rigidBodies() const { return m_bodies; }
  Vec<D> boxSize() const { return fromVec3<D>(m_container.size); }

 private:
  // The step's diagnostics and the blow-up checks; `watchEnergy` false only when a state
  // is loaded, whose energy the watchdog has already seen.
  void measure(double dt, double wallMs, const SolverReport& report, bool watchEnergy = true);
  WorldSums sumParticles(const FrameTransform<D>& frame) const;
  // A device-resident solver (Solver::deviceMoments) leaves the host particles stale
  // after each step; every reader of m_particles calls this first.
  void syncHost() const;
  mutable bool m_hostStale = false;
  void exchangeParams(StateArchive& ar);
  void watch(double energy);
  bool containerStill() const;

  SimulationSetup m_setup;
  double m_spacing = 0.0;
  ParticleSet<D> m_particles;
  std::unique_ptr<Solver<D>> m_solver;
  ContainerDriver m_driver;
  ContainerState m_container;
  FrameMotion<D> m_lastFrame;
  double m_time = 0.0;
  long m_step = 0;
  double m_runawaySpeed = 0.0;    // m/s, see the constructor
  double m_fastestStart = 0.0;    // the fastest particle as emitted (m/s)
  double m_freeFallSpeed = 0.0;   // sqrt(2 g H), at least 1 m/s
  double m_rimSpeedMax = 0.0;     // largest |V| + |omega| H/2 of the container so far (m/s)
  double m_extent = 0.0;          // H, the container's diagonal (m)
  bool advance(double limit, bool wholeStepsOnly);

  // The faucet's and outlet's particles for the step just taken (physics.md §14).
  void pour(double dt);
  // The solids and the solver follow the outlet's hole (open or closed, physics.md (14.3)).
  void openWall();
  // Before the hole closes: what is past its wall has left (14.3).
  void takeSpout();
  // The particles that passed the hole in the last change go on as the jet (14.7).
  void feedJet();
  Pour<D> m_pour;
  Solids<D> m_solids;  // the scene's obstacles
  RigidBodies<D> m_bodies;  // the scene's floating bodies
  BodySamples<D> m_bodySamples;  // their boundary samples for an SPH solver, this step's
  MovingBodies<D> m_movingBodies;  // or them as moving solids for a grid solver
  ParticleSet<D> m_nearBodies;     // a solver on the device: its particles near the bodies, this step's
  // Mechanical energy of the bodies in the world frame (J; 2D J/m): the watchdog counts
  // it with the liquid's, which a sinking body sets moving; `mass` gets their mass.
  double bodyEnergy(double& mass) const;
  std::vector<std::int64_t> m_pourOrigin;
  OutflowJet m_jet;  // what left through the outlet's hole, falling (14.7)

  EnergyWatchdog m_watchdog;
  ThreadGovernor m_threads;
  StepStats m_stats;
  std::string m_failure;
};

}  // namespace sloshlab
