// Divergence-free SPH: incompressible SPH at large time steps.
//
// References
//   [BK15] J. Bender, D. Koschier, "Divergence-free smoothed particle hydrodynamics",
//          SCA 2015. doi:10.1145/2786784.2786796
//   [BK17] J. Bender, D. Koschier, "Divergence-free SPH for incompressible and viscous
//          fluids", IEEE TVCG 23(3):1193-1206, 2017. doi:10.1109/TVCG.2016.2578335
//   [Aki12] N. Akinci et al., "Versatile rigid-fluid coupling for incompressible SPH",
//          ACM TOG 31(4), 2012 (boundary samples). doi:10.1145/2185520.2185558
//   [Mon05] J. J. Monaghan, "Smoothed particle hydrodynamics", Rep. Prog. Phys.
//          68:1703-1759, 2005 (laminar viscosity). doi:10.1088/0034-4885/68/8/R01
//   [Ada12] S. Adami, X. Y. Hu, N. A. Adams, "A generalized wall boundary condition for
//          smoothed particle hydrodynamics", J. Comput. Phys. 231:7057-7075, 2012.
//          doi:10.1016/j.jcp.2012.05.005
//
// One step ([BK17] Algorithm 1, with its closing divergence solve moved to the start
// of the next step, where the neighbourhoods and densities of the new positions are
// at hand): findNeighbours -> densityAndFactor -> correctDivergenceError ->
// nonPressureForces -> correctDensityError -> integrate.
//
// Notation. With one particle mass m and V = m / rho0, the solvers work on the density
// ratio rho~_i = rho_i / rho0 = sum_j V W_ij + sum_b V_b W_ib. A pressure-like
// stiffness kappa_i (m^2/s^2) changes velocities by
//     dv_i = -dt [ sum_j V (kappa_i + kappa_j) gradW_ij + kappa_i sum_b V_b gradW_ib ],
// the symmetric SPH pressure force with kappa_i = rho0 p_i / rho_i^2, so the pressure
// is p_i = kappa_i rho0 rho~_i^2. Solving for the kappa_i that cancels a density error
// e_i with particle i's own term (a Jacobi step, the DFSPH factor [BK17] Eq. 11):
//     kappa_i = e_i / (dt^2 a_i),     a_i = |G_i + B_i|^2 + sum_j |V gradW_ij|^2,
// with G_i = sum_j V gradW_ij and B_i = sum_b V_b gradW_ib.
//
// Walls. The container's boundary samples ([Aki12], shared with WCSPH and PBF) count in
// the density and push with the particle's own kappa_i ([Aki12] Eq. 10, one-sided), so
// a_i = |G_i + B_i|^2 + sum_j |V gradW_ij|^2 and the Jacobi matrix stays symmetric
// positive definite. The price: uniform pressure pushes the row next to a wall into
// it (net -dt kappa (2G + B) with G ~ -B), so that row needs about twice the kappa and,
// in the app, rows stick to the walls. The extrapolated_walls option gives each sample
// kappa_b extrapolated from the fluid as WCSPH does ([Ada12] Eq. 27) and pushes with
// kappa_i + kappa_b; it brought the 2D tank's interior from 3 % to 0.4-1 % off rho0, but
// the tank still does not rest (an energy source remains, larger at larger dt). A
// plain mirror (kappa_b = kappa_i) made the matrix non-symmetric and indefinite near
// walls and diverged.
//
// Pressure is non-negative: only compression (e_i > 0) adds to kappa, so the free
// surface feels no tension.
//
// STATUS: not in the solver list yet (solver_registry.cpp), because it does not pass
// validation: a 2D tank does not come to rest (mean speed 0.08-0.09 m/s even after
// settling, kinetic energy that survives a 5 /s damping), so the pressure cannot be
// checked against rho g d; the interior drifts 3 % from rho0 with the one-sided walls
// (0.4-1 % with extrapolated ones); the dam-break front runs ahead of Martin & Moyce.
// The findings so far are in the closing note of issue 5 and in the comments above.
#pragma once

#include "sloshlab/solver.h"
#include "solvers/sph_common.h"

namespace sloshlab {

struct DfsphParams {
  double restDensity = 1000.0;        // rho0 (kg/m^3)
  double maxDensityError = 0.1;       // eta (%): mean (rho - rho0)/rho0 the density solver stops at
  double maxDivergenceError = 0.1;    // eta_v (%): mean (D rho/Dt) dt / rho0 the divergence solver stops at
  int minIterations = 2;              // density solver iterations at least
  int maxIterations = 100;            // density solver iterations at most
  int maxDivergenceIterations = 100;  // divergence solver iterations at most
  double cfl = 0.4;                   // dt = cfl d / max|v| with d the particle spacing
  double maxTimeStep = 0.005;         // upper bound on dt (s)
  double viscosity = 1e-6;            // kinematic viscosity nu (m^2/s)
  double support = 2.0;               // kernel support h / particle spacing (3 in 2D, see below)
  double damping = 0.0;               // zeta (1/s): a -= zeta v, for settling a scene to rest
  double warmStart = 0.5;             // density solve starts from this fraction of the last kappa
  double warmStartDivergence = 0.5;   // divergence solve likewise
  bool divergenceSolve = true;        // run the divergence-free solver
  bool mirrorWalls = false;           // walls push with kappa extrapolated from the fluid [Ada12]
};

template <int D>
class DfsphSolver final : public Solver<D> {
 public:
  static const ParamTable& paramTable();

  // The 2D default support is 3 spacings (about 28 neighbours, like 2 spacings in 3D):
  // with 2 (8 neighbours) the square emitter lattice has soft shear modes that the
  // density constraint cannot see, and a 2D tank at rest collapsed and blew up.
  DfsphSolver() { m_params.support = D == 2 ? 3.0 : 2.0; }

  const char* name() const override { return "dfsph"; }
  ParamRef params() override { return {&m_params, &paramTable()}; }
  void reset(ParticleSet<D>& p, const SolverSetup<D>& setup) override;
  void paramsChanged(ParticleSet<D>& p) override;
  double maxTimeStep(const ParticleSet<D>& p, const StepContext<D>& ctx) const override;
  void step(ParticleSet<D>& p, const StepContext<D>& ctx, SolverReport& report) override;
  bool field(FieldKind kind, const ParticleSet<D>& p, std::span<float> out) const override;
  double interactionRadius() const override { return m_kernel.h; }

  // Read access for tests: the density ratio at the start of the last step and the
  // pressure the density solver found in it (Pa).
  std::span<const double> densityRatio() const { return m_rho; }
  std::vector<double> pressure() const;
  const DfsphParams& settings() const { return m_params; }

 private:
  void densityAndFactor(const ParticleSet<D>& p, const StepContext<D>& ctx);
  void wallWeights(const ParticleSet<D>& p, const StepContext<D>& ctx);
  void updateWallKappa(const ParticleSet<D>& p, std::span<const double> kappaApplied, bool hydrostatic);
  void correctDivergenceError(ParticleSet<D>& p, const StepContext<D>& ctx, SolverReport& report);
  void nonPressureForces(ParticleSet<D>& p, const StepContext<D>& ctx);
  void correctDensityError(ParticleSet<D>& p, const StepContext<D>& ctx, SolverReport& report);
  void integrate(ParticleSet<D>& p, double dt);

  // One projected Jacobi solve: `source(i)` is the predicted error (density ratio, or
  // its rate times dt) from the current velocities; kappa accumulates the stiffness.
  int jacobiSolve(ParticleSet<D>& p, double dt, bool rate, std::vector<double>& kappa, int minIter, int maxIter,
                  double tolerance, double& finalError);
  void predictError(const ParticleSet<D>& p, double dt, bool rate);
  void applyKappa(ParticleSet<D>& p, double dt, std::span<const double> dKappa);

  DfsphParams m_params;
  Vec<D> m_box{1.0};
  double m_spacing = 0.0;
  double m_appliedSupport = 0.0;
  double m_appliedDensity = 0.0;
  CubicSpline<D> m_kernel;
  SphNeighbourhood<D> m_hood;
  double m_mass = 0.0;
  double m_volume = 0.0;  // V = m / rho0
  SphPairCache<D> m_pairs;
  std::vector<double> m_rho;      // density ratio rho~
  std::vector<double> m_factor;   // 1 / a_i (0 for a lone particle)
  std::vector<Vec<D>> m_wallGrad; // B_i = sum_b V_b gradW_ib
  std::vector<double> m_kappa;    // density solver stiffness (m^2/s^2), warm start
  std::vector<double> m_kappaV;   // divergence solver stiffness times dt (m^2/s), warm start
  std::vector<double> m_error, m_positive, m_dKappa;  // solver scratch
  std::vector<Vec<D>> m_vStar;
  mutable double m_nominalDt = 0.0;
  double m_lastDt = 0.0;
  std::vector<double> m_applied;                  // kappa in applied units during a solve
  std::vector<double> m_wallSumW, m_wallHydro;    // per boundary sample
  std::vector<double> m_wallKappa, m_wallDKappa;  // extrapolated kappa_b and its last change
  std::vector<Vec<D>> m_wallOwn;                  // sum_b w_bi V_b gradW_ib per particle  // the CFL step of the current state (maxTimeStep)
  std::vector<double> m_predicted; long m_lastRebuilds = -1;
};

}  // namespace sloshlab
