// Position-based fluids: incompressibility as density constraints on positions.
//
// References
//   [MM13]  M. Macklin, M. Mueller, "Position based fluids", ACM TOG 32(4), 2013.
//           doi:10.1145/2461912.2461984
//   [MHHR07] M. Mueller, B. Heidelberger, M. Hennix, J. Ratcliff, "Position based
//           dynamics", JVCI 18(2):109-118, 2007. doi:10.1016/j.jvcir.2007.01.005
//   [FSJ01] R. Fedkiw, J. Stam, H. W. Jensen, "Visual simulation of smoke",
//           SIGGRAPH 2001 (vorticity confinement). doi:10.1145/383259.383260
//   [Aki12] N. Akinci et al., "Versatile rigid-fluid coupling for incompressible SPH",
//           ACM TOG 31(4), 2012 (boundary samples). doi:10.1145/2185520.2185558
//
//   [MMC16] M. Macklin, M. Mueller, N. Chentanez, "XPBD: position-based simulation of
//           compliant constrained dynamics", MIG 2016 (accumulated multipliers).
//           doi:10.1145/2994258.2994272
//   [Wang15] H. Wang, "A Chebyshev semi-iterative approach for accelerating projective
//           and position-based dynamics", ACM TOG 34(6):246, 2015. doi:10.1145/2816795.2818063
//
// physics.md section 7 states the formulas below as (7.1)-(7.11); the time step is (9.6).
// The sums over neighbours shared with WCSPH and DFSPH are in sph/sums.h
// (buildWithDensitySums, pairVorticity, pairXsph, maxSpeed); PBF's own is
// its pressure phase, the constraint solve.
//
// One sub-step, [MM13] Algorithm 1:
//   1. predictPositions         v += dt a_ext, x* = x + dt v (7.1)
//   2. neighbours               the Verlet lists at the predicted positions
//   3. solveDensityConstraints  a warm start (7.7), then a fixed number of Jacobi sweeps:
//                               computeConstraint C_i (7.2) and a_i (7.3), the projected
//                               multipliers (7.4), applyCorrections dx (7.5)-(7.6),
//                               chebyshevStep (7.11) in 3D
//   4. measureDensity           rho~ after the sweeps (the next sub-step starts from it)
//   5. updateVelocities         v = (x* - x) / dt (7.8)
//   6. vorticityConfinement     [FSJ01] (7.9), off by default
//   7. xsphViscosity            (7.10)
//
// Notation. With V = m / rho0 the constraint of particle i is C_i = rho~_i - 1 with the
// density ratio rho~_i = sum_j V W_ij + sum_b V_b W_ib. The multiplier increment of a
// sweep ([MM13] Eqs. 9-11, relaxed by omega; physics.md (7.3)-(7.4))
//     dlambda_i = -omega C_i / a_i,   a_i = |grad_i C_i|^2 + sum_j |grad_j C_i|^2 + eps,
//     grad_i C_i = sum_j V gradW_ij + sum_b V_b gradW_ib,  grad_j C_i = -V gradW_ij,
// and the correction ([MM13] Eq. 14, with the walls taking particle i's own increment;
// physics.md (7.5)-(7.6))
//     dx_i = sum_j V (dlambda_i + dlambda_j + s_corr,ij) gradW_ij + dlambda_i sum_b V_b gradW_ib.
// The tensile term s_corr = -k (W_ij / W(dq h))^n lambda_ref ([MM13] Eq. 13) is scaled
// by lambda_ref = 1/a_ref, a_ref the denominator of a full neighbourhood, so that k is
// a dimensionless fraction of a unit density error. eps is likewise relative to a_ref.
//
// Why these choices (relaxation omega = 0.3, accumulated and warm-started multipliers,
// short steps, one-sided walls, the defaults) and what was tried and measured:
// docs/decisions/pbf.md. Defaults (1/60 s frames): 2 sub-steps x 16 sweeps (2D) or
// 8 Chebyshev sweeps at rho = 0.9 (3D) at omega = 0.3, warm start w = 0.5, eps = 0.01,
// XSPH c = 0.01, s_corr k = 0.001, vorticity confinement off.
#pragma once

#include "sph/basis.h"
#include "sph/chebyshev.h"
#include "sph/density_error.h"
#include "sph/fields.h"
#include "sph/sums.h"
#include "sph/walls.h"
#include "sph/symmetric_pairs.h"
#include "sloshlab/particle_moments.h"
#include "sloshlab/solver.h"

namespace sloshlab {

struct PbfParams {
  double restDensity = 1000.0;  // rho0 (kg/m^3)
  int substeps = 2;             // sub-steps per 1/60 s frame: dt = 1/(60 substeps)
  double cfl = 0.8;             // and dt <= cfl d / max|v| (more sub-steps for fast flow)
  int iterations = 16;          // Jacobi iterations per sub-step
  double omega = 0.3;           // relaxation of each Jacobi correction
  double epsilon = 0.01;        // constraint force mixing, relative to a full neighbourhood
  double tensileK = 0.001;      // k in s_corr
  double tensileDq = 0.2;       // dq / h in s_corr
  double xsph = 0.01;           // c in the XSPH velocity blend
  double vorticity = 0.0;       // epsilon_v (m/s) of vorticity confinement
  double support = 2.0;         // kernel support h / particle spacing
  double damping = 0.0;         // zeta (1/s): a -= zeta v, for settling a scene to rest
  double warmStart = 0.5;       // w: sub-steps start from w times the last sub-step's pressure
  double chebyshev = 0.0;       // rho of the Chebyshev semi-iteration over the sweeps (0: off)
  double weightCfl = 0.5;       // and dt <= weightCfl h / sqrt(|g - A| H): the sweeps carry the depth (0: off)
};

template <int D>
class PbfSolver final : public Solver<D> {
 public:
  static const ParamTable& paramTable();

  // The 2D default support is 3 spacings, as for DFSPH (dfsph.h explains why). In 3D
  // the sweeps are Chebyshev-accelerated: 8 of them at rho = 0.9 hold the density as
  // well as 16 plain ones (docs/decisions/pbf.md, "Chebyshev sweeps").
  PbfSolver() : m_params(defaults()) {}
  // The defaults of a D-dimensional run (shared with the GPU twin, sim/gpu/gpu_pbf.h).
  static PbfParams defaults() {
    PbfParams p;
    p.support = D == 2 ? 3.0 : 2.0;
    if (D == 3) p.iterations = 8, p.chebyshev = 0.9;
    return p;
  }

  const char* name() const override { return "pbf"; }
  ParamRef params() override { return {&m_params, &paramTable()}; }
  void reset(ParticleSet<D>& p, const SolverSetup<D>& setup) override;
  void paramsChanged(ParticleSet<D>& p) override;
  double maxTimeStep(const ParticleSet<D>& p, const StepContext<D>& ctx) const override;
  void step(ParticleSet<D>& p, const StepContext<D>& ctx, SolverReport& report) override;
  void exchangeState(StateArchive& ar, ParticleSet<D>& p) override;
  // A faucet or an outlet changed the particles: the lists are rebuilt at the next step
  // (a drain and a fill of the same count would otherwise pass for the old set).
  void particlesChanged(ParticleSet<D>&, std::span<const std::int64_t>) override { m_sph.hood.invalidate(); }
  void setOpening(ParticleSet<D>&, const WallOpening<D>& opening) override {
    m_solids.setOpening(opening);
    m_sph.wallsChanged();
  }
  bool field(FieldKind kind, const ParticleSet<D>& p, std::span<float> out) const override;
  double interactionRadius() const override { return m_sph.kernel.h; }
  double bodySampleDepth() const override { return m_sph.kernel.h; }

  // Read access for tests: the density ratio after the last sub-step's constraint
  // solve, and the pressure its multipliers stand for, p = -rho0 rho~^2 sum(lambda)/dt^2 (Pa).
  std::span<const double> densityRatio() const { return m_rho; }
  std::vector<double> pressure() const;
  const PbfParams& settings() const { return m_params; }

  // The longest sub-step whose sweeps still carry the liquid's weight (physics.md (9.6a)):
  // weightCfl h / sqrt(|g - A| H), H the depth along g - A from the moments m; +inf
  // where it does not bind (no weight, no depth, weightCfl = 0). Shared with the GPU twin.
  static double weightStep(const PbfParams& params, double h, const ParticleMoments& m, const Vec<D>& gravityMinusA);
  // The sub-step before the CFL bound: 1/(60 n) with n the sub-steps per frame, raised
  // above `substeps` where the weight limit asks (a whole number per frame, so that the
  // step does not wander with the depth: a step that changed every sub-step stirred a
  // settled tank four times faster than a fixed one).
  static double frameSubStep(const PbfParams& params, double weightLimit);

 private:
  double subStep() const;
  mutable double m_nominalDt = 0.0;  // the step of the current state (maxTimeStep)
  void predictPositions(ParticleSet<D>& p, const StepContext<D>& ctx);
  void solveDensityConstraints(ParticleSet<D>& p, const StepContext<D>& ctx);
  void densityAndGradients(const ParticleSet<D>& p);
  void computeConstraint(const ParticleSet<D>& p);
  void chebyshevStep(ParticleSet<D>& p, int it);
  static constexpr int kChebyshevStart = 1;
  ChebyshevWeights m_chebyshev;
  std::vector<Vec<D>> m_xPrev, m_xNow;         // positions before the last and the current sweep
  std::vector<double> m_lambdaPrev, m_lambdaNow;
  void applyCorrections(ParticleSet<D>& p, double dt, bool tensile);
  void measureDensity(const ParticleSet<D>& p, SolverReport& report);
  void updateVelocities(ParticleSet<D>& p, double dt);
  void vorticityConfinement(ParticleSet<D>& p, double dt);
  void xsphViscosity(ParticleSet<D>& p);

  PbfParams m_params;
  Vec<D> m_box{1.0};
  Solids<D> m_solids;  // obstacles (solids.h)
  double m_spacing = 0.0;
  SphBasis<D> m_sph;  // kernel, neighbourhoods, particle mass and volume
  double m_lambdaRef = 0.0;       // 1 / a_ref (m^2)
  double m_lastDt = 0.0;
  std::vector<Vec<D>> m_xOld;     // positions at the start of the sub-step
  std::vector<double> m_rho;      // density ratio rho~ after the last constraint solve
  std::vector<double> m_kappa;    // pressure / rho0 of the last sub-step, -lambda/dt^2 (m^2/s^2)
  std::vector<double> m_lambda;   // accumulated multipliers of this sub-step (m^2)
  std::vector<double> m_dLambda;  // their change in the current sweep
  std::vector<double> m_C;        // constraint C_i
  std::vector<double> m_invDiag;  // 1 / a_i
  std::vector<double> m_carried;  // density error left for later in a short step
  std::vector<Vec<D>> m_dx;
  std::vector<Vec<D>> m_wallGrad;  // B_i = sum_b V_b gradW_ib at the current sweep
  BodySamples<D>* m_bodies = nullptr;  // this step's floating bodies (ctx.bodies)
  std::vector<Vec<D>> m_bodyPush, m_bodyPushPrev, m_bodyPushNow;  // per body sample: the sweeps' impulse on it
  SymmetricPairCache<D> m_pairs;  // pairs closer than h, each once (densityAndGradients)
  SphPairCache<D> m_wallPairs;    // particle -> boundary samples closer than h (densityAndGradients)
  std::vector<double> m_rhoNow;   // rho~ at the current positions (densityAndGradients)
  std::vector<DensitySums<D>> m_sums;
  std::vector<Vec3> m_omega;  // vorticity
  std::vector<Vec<D>> m_eta;  // grad |omega|
  std::vector<Vec<D>> m_vNew;
  std::vector<double> m_vScratch;
};

}  // namespace sloshlab
