// Divergence-free SPH on the GPU: the CPU dfsph's equations (physics.md §6), parameters
// (DfsphParams, the same table), walls (Akinci samples with Adami-extrapolated stiffness)
// and solves, in OpenGL compute shaders over float32 storage buffers (design.md, "The
// GPU path"). The references are dfsph.h's; physics.md §13 says what differs from the
// CPU twin (float32, cells for lists, the walls' samples enumerated rather than stored).
//
// One step, as the CPU twin's ([BK17] Algorithm 1, its closing divergence solve at the
// start of the next step):
//   1. sortByCell         cell_sort.h at the step's positions (they do not move until
//                         integrate, so the cells need no skin)
//   2. densityAndFactor   dfsph_wall_weights.comp (the walls' weights and hydrostatic
//                         terms, (6.5)), dfsph_density.comp: rho~ (6.1), 1/a_i (6.4)
//   3. divergenceSolve    [BK17] Algorithm 2: sweeps of dfsph_predict (6.6), dfsph_jacobi
//                         (6.7)-(6.8), dfsph_wall_kappa (6.5) and dfsph_push (6.3)
//   4. densityWarmStart   dfsph_warm.comp (6.9), from the divergence solve's errors
//   5. forcesAndWarmPush  dfsph_forces.comp (6.10) with the warm start's push
//   6. densitySolve       [BK17] Algorithm 3, the same sweeps, Chebyshev-weighted in 3D (6.12)
//   7. integrate          dfsph_integrate.comp (2.5)
// Each sweep reads back three numbers (reduce_scalar.comp: the mean and the largest
// positive error, the largest error) to decide whether to stop, as the CPU twin does.
// Every GL call runs on the compute thread (gl_context.h).
#pragma once

#include "cell_sort.h"
#include "compute.h"
#include "device_bodies.h"
#include "device_particles.h"
#include "sph_device.h"
#include "step_uniforms.h"

#include "solvers/dfsph.h"

#include <memory>

namespace sloshlab::gpu {

template <int D>
class GpuDfsphSolver final : public Solver<D> {
 public:
  GpuDfsphSolver();
  ~GpuDfsphSolver() override;

  const char* name() const override { return "gpu-dfsph"; }
  ParamRef params() override { return {&m_params, &DfsphSolver<D>::paramTable()}; }
  void reset(ParticleSet<D>& p, const SolverSetup<D>& setup) override;
  void paramsChanged(ParticleSet<D>& p) override;
  void setOpening(ParticleSet<D>& p, const WallOpening<D>& opening) override;
  double maxTimeStep(const ParticleSet<D>& p, const StepContext<D>& ctx) const override;
  void step(ParticleSet<D>& p, const StepContext<D>& ctx, SolverReport& report) override;
  void exchangeState(StateArchive& ar, ParticleSet<D>& p) override;
  bool field(FieldKind kind, const ParticleSet<D>& p, std::span<float> out) const override;
  bool drawFrame(FieldKind kind, DeviceDrawTarget& target, DeviceDrawFrame& out) const override;
  double interactionRadius() const override { return m_h; }
  double bodySampleDepth() const override { return m_h; }
  const ParticleMoments* deviceMoments() const override { return &m_moments; }
  void gatherNear(std::span<const Vec<D>> centres, std::span<const double> radii, ParticleSet<D>& near) override;
  void scatterNear(const ParticleSet<D>& near) override;
  bool columnTops(double width, std::span<const Vec<D>> centres, std::span<const double> radii,
                  std::vector<double>& tops) const override;
  void download(ParticleSet<D>& p) const override;
  void upload(const ParticleSet<D>& p) override;
  void particlesChanged(ParticleSet<D>& p, std::span<const std::int64_t> origin) override;

 private:
  enum class Solve { Divergence, Density };
  enum class WarmErrors { Predicted, FromDivergenceSolve };
  struct SweepOptions {
    Solve solve = Solve::Density;
    int minIterations = 1;
    int maxIterations = 100;
    double tolerance = 0.0;
    bool warmStarted = false;
  };
  struct SweepResult {
    int iterations = 0;
    double meanError = 0.0, maxError = 0.0;
  };

  double existingErrorShare(double dt) const { return m_nominalDt > 0.0 ? std::min(1.0, dt / m_nominalDt) : 1.0; }
  void uploadState(const ParticleSet<D>& p, const std::vector<double>* kappa, const std::vector<double>* kappaV,
                   const std::vector<double>* rho);
  void setFrame(const StepContext<D>& ctx);
  void sortByCell();
  void densityAndFactor();
  bool divergenceSolve(double dt, SolverReport& report);
  void startWarm(double dt, Solve solve, WarmErrors errors);
  void forcesAndWarmPush(double dt, bool warmStarted);
  void densitySolve(double dt, SolverReport& report, bool warmStarted);
  SweepResult sweeps(double dt, const SweepOptions& options);
  void predictError(Solve solve);
  void updateWallKappa(bool restart, bool hydrostatic);
  void push();
  void pushBodies(double dt);
  // The box's boundary samples, the obstacles' and the bodies' of this step.
  std::size_t allSamples() const { return m_samples + m_device->solids.size(); }
  void integrate();
  void sumMoments();

  DfsphParams m_params;
  Vec<D> m_box{1.0};
  double m_spacing = 0.0;
  double m_h = 0.0, m_mass = 0.0;
  std::size_t m_n = 0, m_cells = 0, m_samples = 0;
  mutable double m_nominalDt = 0.0;
  double m_lastDt = 0.0;
  double m_kappaStepShare = 1.0;  // dt / dt_cfl of the step the density kappa was solved in
  ParticleMoments m_moments;
  Solids<D> m_solids;          // the obstacles (setup.solids)
  bool m_bodies = false;       // this step has floating bodies (ctx.bodies)

  // Everything in GPU memory, made and destroyed on the compute thread.
  struct Device {
    explicit Device(int dim);
    StepBlock step;
    CellSort sort;
    ComputeProgram wallWeights, density, predict, warm, jacobi, wallKappa, push, forces, integrate, vorticity,
        bodyPush;
    MomentReducer moments;
    ScalarReducer errors;
    SolidSamples<D> solids;  // the obstacles' and this step's floating bodies' samples
    NearParticles<D> near;
    // x: positions (number in w); aux: (kappa, kappa_v dt, rho~, 1/a); solve: (kappa
    // applied, dkappa, the last dkappa, e); sample: (sum W, hydrostatic, kappa_b, dkappa_b)
    // per boundary sample (wall_samples.glsl: the box's, then the bodies'); bodyImpulses:
    // the solves' impulse on each body sample (dfsph_body_push.comp).
    Buffer x, v, aux, solve, wallGrad, vNext, omega, samples, sortedA, sortedB, bodyImpulses;
  };
  std::unique_ptr<Device> m_device;
};

}  // namespace sloshlab::gpu
