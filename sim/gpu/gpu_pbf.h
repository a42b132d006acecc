// Position-based fluids on the GPU: the CPU pbf's equations (physics.md §7), parameters
// (PbfParams, the same table) and walls, in OpenGL compute shaders over float32 storage
// buffers (design.md, "The GPU path"). The references are pbf.h's.
//
// One sub-step, [MM13] Algorithm 1, as the CPU twin's (sim/src/solvers/pbf.h):
//   1. predictPositions         pbf_predict.comp        (7.1)
//   2. sortByCell               cell_sort.h: the counting sort, then the arrays gathered
//   3. solveDensityConstraints  pbf_constraint.comp + pbf_correct.comp: the warm start
//                               (7.7), then the Jacobi sweeps (7.2)-(7.6), pbf_chebyshev.comp
//                               (7.11) in 3D
//   4. measureDensity           pbf_density.comp: rho~ and kappa (7.7)
//   5. updateVelocities         pbf_velocity.comp       (7.8)
//   6. vorticityConfinement     sph_vorticity.comp + pbf_confine.comp (7.9), off by default
//   7. xsphViscosity            pbf_xsph.comp           (7.10)
//   8. sumMoments               reduce_moments.comp: the moments (10.11) and the density
//                               error (10.7), the only numbers read back each step
//
// Every GL call runs on the GPU path's compute thread (gl_context.h, onComputeThread):
// the public methods hand their work over and wait, so any thread may drive the solver.
//
// Where it differs from the CPU twin: float32 instead of double; the walls' boundary
// samples are enumerated on their lattice rather than stored (common.glsl, wallSums);
// the neighbours are the particles of the cells around each one, the cells h (1 + skin)
// wide and sorted once per sub-step, where the CPU keeps Verlet lists and renews them
// when a particle moved half its skin; and particles are ordered by cell and number, so
// the run is the same from run to run but not bit for bit the CPU's.
#pragma once

#include "cell_sort.h"
#include "compute.h"
#include "device_bodies.h"
#include "device_particles.h"
#include "sph_device.h"
#include "gl_context.h"
#include "step_uniforms.h"

#include "solvers/pbf.h"

#include <memory>

namespace sloshlab::gpu {

template <int D>
class GpuPbfSolver final : public Solver<D> {
 public:
  GpuPbfSolver();
  ~GpuPbfSolver() override;

  const char* name() const override { return "gpu-pbf"; }
  ParamRef params() override { return {&m_params, &PbfSolver<D>::paramTable()}; }
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

  // The density ratio at the current positions (sorted by cell first), as a step ends
  // with it: for tests against a brute-force sum.
  void measureDensityNow();

  // The sort's cell, h (1 + kSkin), physics.md (13.1): see neighbours.glsl. At 0.2 the
  // lists were 29 % longer and the sub-step 17-21 % dearer on an H200.
  static constexpr double kSkin = 0.1;

 private:
  double subStep() const { return 1.0 / (60.0 * m_params.substeps); }
  void upload(const ParticleSet<D>& p, const std::vector<double>* kappa, const std::vector<double>* rho);
  void setFrame(const StepContext<D>& ctx);
  void predictPositions();
  void sortByCell();
  void solveDensityConstraints();  // dt and its factors are in the Step block (setFrame)
  void measureDensity();
  void updateVelocities();
  void vorticityConfinement();
  void xsphViscosity();
  void pushBodies(bool accelerate, double weight);
  void sumMoments(SolverReport* report);

  PbfParams m_params;
  Vec<D> m_box{1.0};
  double m_spacing = 0.0;
  double m_h = 0.0, m_mass = 0.0, m_lambdaRef = 0.0;
  std::size_t m_n = 0, m_cells = 0;
  mutable double m_nominalDt = 0.0;
  double m_lastDt = 0.0;
  ParticleMoments m_moments;
  Solids<D> m_solids;          // the obstacles (setup.solids)
  bool m_bodies = false;       // this step has floating bodies (ctx.bodies)

  // Everything in GPU memory, made and destroyed on the compute thread (gl_context.h).
  struct Device {
    explicit Device(int dim);
    StepBlock step;
    CellSort sort;
    ComputeProgram predict, constraint, correct, chebyshev, density, velocity, vorticity, confine, xsph, bodyPush;
    MomentReducer reduce;
    SolidSamples<D> solids;  // the obstacles' and this step's floating bodies' samples
    NearParticles<D> near;
    Buffer bodyPushes;            // per body sample: the sweeps' impulse on it, and before the last (pbf_body_push.comp)
    // x: positions (number in w); aux: (kappa, rho~, lambda, dlambda) (pbf_constraint.comp).
    Buffer x, v, xOld, aux, wallGrad, xNext, xPrev, lambdaNow, lambdaPrev, positionAndDLambda, omega, sortedA, sortedB;
  };
  std::unique_ptr<Device> m_device;
};

}  // namespace sloshlab::gpu
