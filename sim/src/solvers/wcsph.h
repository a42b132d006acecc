// Weakly compressible SPH.
//
// References
//   [Mon92] J. J. Monaghan, "Smoothed particle hydrodynamics", Annu. Rev. Astron.
//           Astrophys. 30:543-574, 1992. doi:10.1146/annurev.aa.30.090192.002551
//   [BT07]  M. Becker, M. Teschner, "Weakly compressible SPH for free surface flows",
//           SCA 2007. doi:10.2312/SCA/SCA07/209-217
//   [Mon05] J. J. Monaghan, "Smoothed particle hydrodynamics", Rep. Prog. Phys.
//           68:1703-1759, 2005 (viscosity, time step). doi:10.1088/0034-4885/68/8/R01
//   [Aki12] N. Akinci et al., "Versatile rigid-fluid coupling for incompressible SPH",
//           ACM TOG 31(4), 2012 (boundary samples). doi:10.1145/2185520.2185558
//   [Ada12] S. Adami, X. Y. Hu, N. A. Adams, "A generalized wall boundary condition for
//           smoothed particle hydrodynamics", J. Comput. Phys. 231:7057-7075, 2012.
//           doi:10.1016/j.jcp.2012.05.005
//   [MC09]  D. Molteni, A. Colagrossi, "A simple procedure to improve the pressure
//           evaluation in hydrodynamic context using the SPH", Comput. Phys. Commun.
//           180:861-872, 2009 (delta-SPH's density diffusion). doi:10.1016/j.cpc.2008.12.004
//   [Fou19] G. Fourtakas et al., Computers & Fluids 190, 2019 (the diffusion less its
//           hydrostatic part)
//
// One step: the neighbour lists (hood.update) -> computeDensity -> computePressure -> wallPressure ->
// computeAccelerations -> integrate (with `continuity`, then densityRate and the density's
// step, (4.7b)-(4.7d) [MC09] [Fou19]). physics.md section 4 states every formula: density
// (4.7), pressure (4.8), walls (4.10)-(4.11), accelerations (4.9), (4.13), (4.15); the
// time step is (9.4). The sums over neighbours are the SPH sums shared with DFSPH and
// PBF (sph/sums.h: viscosityTerm, maxSpeed); WCSPH's own is its pressure, the Tait
// equation and the extrapolated walls. Each fluid pair is visited once a step
// (sph/symmetric_pairs.h): the pass that finds the pairs closer than h sums the
// density, and one pass over the stored gradients hands each pair's force to both
// particles.
//
// Walls. The container's boundary samples add to the density ([Aki12] Eq. 5) and act
// as fluid particles in the symmetric pressure force, with a pressure extrapolated
// from the fluid next to them plus the hydrostatic term ([Ada12] Eq. 27). That holds
// the liquid at p = rho g d against the walls. Two simpler choices failed here: the
// mirrored p_b = p_i pumps energy into particles sliding along a wall, and Akinci's
// one-sided -m_b p_i/rho_i^2 gradW (energy-consistent) pushes half as hard as fluid,
// so the liquid next to a wall over-compresses by 15-40 %.
#pragma once

#include "sloshlab/solver.h"
#include "sph/basis.h"
#include "sph/sums.h"
#include "sph/symmetric_pairs.h"

namespace sloshlab {

struct WcsphParams {
  double restDensity = 1000.0;      // rho0 (kg/m^3)
  double speedOfSound = 25.0;       // c (m/s): B = rho0 c^2 / gamma
  double gamma = 7.0;               // Tait exponent
  double artificialViscosity = 0.03;  // alpha in Monaghan's Pi_ij
  double viscosity = 1e-6;          // kinematic viscosity nu (m^2/s)
  double damping = 0.0;             // zeta (1/s): a -= zeta v, for settling a scene to rest
  double cfl = 0.2;                 // dt = cfl h / (c + |v|max)
  double support = 2.0;             // kernel support h / particle spacing
  bool clampNegativePressure = true;
  // delta-SPH (physics.md (4.7b)-(4.7d)): off by default (docs/decisions/not_met_yet.md);
  // with support 3 and artificialViscosity 0.01 it keeps a slosh 1.7 times as long.
  bool continuity = false;          // density from the continuity equation (4.7b) instead of the sum (4.7)
  double densityDiffusion = 0.1;    // delta of delta-SPH (4.7c); with continuity only
};

template <int D>
class WcsphSolver final : public Solver<D> {
 public:
  static const ParamTable& paramTable();

  const char* name() const override { return "wcsph"; }
  ParamRef params() override { return {&m_params, &paramTable()}; }
  void reset(ParticleSet<D>& p, const SolverSetup<D>& setup) override;
  void paramsChanged(ParticleSet<D>& p) override;
  double maxTimeStep(const ParticleSet<D>& p, const StepContext<D>& ctx) const override;
  void step(ParticleSet<D>& p, const StepContext<D>& ctx, SolverReport& report) override;
  void exchangeState(StateArchive& ar, ParticleSet<D>& p) override;
  // A faucet or an outlet changed the particles: the lists are rebuilt at the next step
  // (a drain and a fill of the same count would otherwise pass for the old set).
  // (By continuity a new particle's density, zero in its channel, starts at rho0.)
  void particlesChanged(ParticleSet<D>&, std::span<const std::int64_t>) override { m_sph.hood.invalidate(); }
  void setOpening(ParticleSet<D>&, const WallOpening<D>& opening) override {
    m_solids.setOpening(opening);
    m_sph.wallsChanged();
  }
  bool field(FieldKind kind, const ParticleSet<D>& p, std::span<float> out) const override;
  double interactionRadius() const override { return m_sph.kernel.h; }
  double bodySampleDepth() const override { return m_sph.kernel.h; }

  // Read access for tests: per-particle density and pressure of the last step.
  std::span<const double> density() const { return m_rho; }
  std::span<const double> pressure() const { return m_p; }
  const WcsphParams& settings() const { return m_params; }

 private:
  void computeDensity(const ParticleSet<D>& p);
  void computePressure(SolverReport& report);
  void wallPressure(const ParticleSet<D>& p, const StepContext<D>& ctx);
  void computeAccelerations(const ParticleSet<D>& p, const StepContext<D>& ctx);
  void bodyImpulses(const ParticleSet<D>& p, const StepContext<D>& ctx, double boundaryMass);
  void integrate(ParticleSet<D>& p, const StepContext<D>& ctx);
  void densityRate(const ParticleSet<D>& p, const StepContext<D>& ctx);
  void hydrostaticDensity(const ParticleSet<D>& p, const StepContext<D>& ctx);

  WcsphParams m_params;
  Vec<D> m_box{1.0};
  Solids<D> m_solids;  // obstacles (solids.h)
  double m_spacing = 0.0;
  SphBasis<D> m_sph;  // kernel, neighbourhoods, particle mass and volume
  SymmetricPairCache<D, double> m_pairs;    // the fluid pairs closer than h: gradW_ij, W_ij
  std::vector<DensitySums<D>> m_fluidSums;  // sum_j W_ij per particle (its weight)
  std::vector<Vec<D>> m_fluidForce;         // the fluid pairs' sum of (4.9) and (4.13) over m_j
  std::vector<double> m_rho, m_p;
  std::vector<double> m_pTerm, m_invRho;  // p/rho^2 and 1/rho, per particle
  std::vector<double> m_compression;      // max(rho - rho0, 0)/rho0, per particle (the density error)
  std::vector<double> m_wallP, m_wallRho;  // per boundary sample
  std::vector<Vec<D>> m_a;
  std::vector<double> m_rhoRate;  // d rho_i / dt of (4.7b)-(4.7c)
  bool m_densityKnown = false;    // m_rho holds the integrated density (continuity)
  bool m_fromRest = false;        // the run starts: by continuity, from the hydrostatic density
  double m_maxAcceleration = 0.0;
};

}  // namespace sloshlab
