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
// Where it differs from the CPU twin: float32 instead of double; the walls' boundary
// samples are enumerated on their lattice rather than stored (common.glsl, wallSums);
// the neighbours are the particles of the cells around each one, the cells h (1 + skin)
// wide and sorted once per sub-step, where the CPU keeps Verlet lists and renews them
// when a particle moved half its skin; and particles are ordered by cell and number, so
// the run is the same from run to run but not bit for bit the CPU's.
#pragma once

#include "cell_sort.h"
#include "compute.h"
#include "gl_context.h"
#include "step_uniforms.h"

#include "solvers/pbf.h"

#include <memory>

namespace sloshlab::gpu {

template <int D>
class GpuPbfSolver final : public Solver<D> {
 public:
  GpuPbfSolver();

  const char* name() const override { return "gpu-pbf"; }
  ParamRef params() override { return {&m_params, &PbfSolver<D>::paramTable()}; }
  void reset(ParticleSet<D>& p, const SolverSetup<D>& setup) override;
  void paramsChanged(ParticleSet<D>& p) override;
  double maxTimeStep(const ParticleSet<D>& p, const StepContext<D>& ctx) const override;
  void step(ParticleSet<D>& p, const StepContext<D>& ctx, SolverReport& report) override;
  void exchangeState(StateArchive& ar, ParticleSet<D>& p) override;
  bool field(FieldKind kind, const ParticleSet<D>& p, std::span<float> out) const override;
  double interactionRadius() const override { return m_h; }
  const ParticleMoments* deviceMoments() const override { return &m_moments; }
  void download(ParticleSet<D>& p) const override;
  void upload(const ParticleSet<D>& p) override;

  // The density ratio at the current positions (sorted by cell first), as a step ends
  // with it: for tests against a brute-force sum.
  void measureDensityNow();

  // The sort's cell, h (1 + kSkin): see neighbours.glsl.
  static constexpr double kSkin = 0.2;

 private:
  double subStep() const { return 1.0 / (60.0 * m_params.substeps); }
  void upload(const ParticleSet<D>& p, const std::vector<double>* kappa, const std::vector<double>* rho);
  void setFrame(const StepContext<D>& ctx);
  void predictPositions();
  void sortByCell();
  void solveDensityConstraints(double dt);
  void measureDensity();
  void updateVelocities();
  void vorticityConfinement(double dt);
  void xsphViscosity();
  void sumMoments(SolverReport* report);

  ComputeContext m_context;  // first: the programs below compile in it
  PbfParams m_params;
  Vec<D> m_box{1.0};
  double m_spacing = 0.0;
  double m_h = 0.0, m_mass = 0.0, m_lambdaRef = 0.0;
  std::size_t m_n = 0, m_cells = 0;
  mutable double m_nominalDt = 0.0;
  double m_lastDt = 0.0;
  ParticleMoments m_moments;

  StepBlock m_step;
  CellSort m_sort;
  ComputeProgram m_predict, m_constraint, m_correct, m_chebyshev, m_density, m_velocity, m_vorticity, m_confine,
      m_xsph, m_reduce;
  // x: positions (number in w); aux: (kappa, rho~, lambda, dlambda) (pbf_constraint.comp).
  Buffer m_x, m_v, m_xOld, m_aux, m_wallGrad, m_xNext, m_xPrev, m_auxPrev, m_xNow, m_auxNow;
  mutable Buffer m_omega;
  Buffer m_sortedA, m_sortedB, m_partials, m_result;
};

}  // namespace sloshlab::gpu
