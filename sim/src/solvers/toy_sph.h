// The toy SPH of the drag-the-bottle demo (physics.md section 5, source note 004),
// kept faithful to its formulas so that it feels the same.
//
// References
//   [Sah] the ActionScript fluid demo by "saharan" and its 2012 walkthrough (source
//         note 004): unit masses, density sum_j (1 - r/R)^2 without the particle
//         itself, p = K(rho - rho0) with rho clamped to >= rho0, pair forces with the
//         kernel (1 - r/R), the box's acceleration subtracted, walls as springs.
//   [MCG03] M. Mueller, D. Charypar, M. Gross, "Particle-based fluid simulation for
//         interactive applications", SCA 2003 (where such kernels come from).
//
// Units (physics.md (5.2)). The demo works in pixels and frames: RANGE = 16 px, one
// step per frame, forces are velocity changes per frame. Here one pixel is the length l
// that puts the emitter's lattice exactly at the rest density, and one frame is the
// time tau = sqrt(G l / |g|) that makes the demo's gravity G (px/frame^2) equal the
// scene's g. Every other number keeps its demo value, so the motion is the demo's,
// seen in metres and seconds. A step of dt = tau is exactly the demo's frame
// (symplectic Euler v += f, x += v); smaller steps scale forces by dt/tau.
//
// One step: the neighbour lists (sortByCell, NeighbourList::build) -> computeDensity
// (the density and its pressure, physics.md (5.3)-(5.4)) -> accumulateForces (pressure,
// viscosity, gravity and the box's -A; physics.md (5.5)-(5.7)) -> integrate (v += f,
// x += v, then the walls' springs, physics.md (5.8)).
#pragma once

#include "sph/neighbour_grid.h"
#include "sph/neighbour_list.h"
#include "sloshlab/solver.h"

namespace sloshlab {

struct ToySphParams {
  double restDensity = 2.5;    // DENSITY: rest value of sum_j (1 - r/R)^2
  double pressure = 1.0;       // PRESSURE: pair pressure force factor
  double viscosity = 0.075;    // VISCOSITY: pair velocity damping factor
  double gravity = 0.05;       // GRAVITY (px/frame^2): with |g| it fixes the frame length
  double wallStiffness = 1.0;  // spring constant of the walls (1/frame^2)
  double wallMargin = 4.0;     // walls' spring surface inside the box (px)
};

template <int D>
class ToySphSolver final : public Solver<D> {
 public:
  static constexpr double kRangePx = 16.0;  // RANGE of the demo, the unit of length
  static const ParamTable& paramTable();

  const char* name() const override { return "toy"; }
  ParamRef params() override { return {&m_params, &paramTable()}; }
  void reset(ParticleSet<D>& p, const SolverSetup<D>& setup) override;
  void paramsChanged(ParticleSet<D>& p) override;
  void setOpening(ParticleSet<D>&, const WallOpening<D>& opening) override { m_solids.setOpening(opening); }
  double maxTimeStep(const ParticleSet<D>& p, const StepContext<D>& ctx) const override;
  void step(ParticleSet<D>& p, const StepContext<D>& ctx, SolverReport& report) override;
  void exchangeState(StateArchive& ar, ParticleSet<D>& p) override;
  bool field(FieldKind kind, const ParticleSet<D>& p, std::span<float> out) const override;
  double interactionRadius() const override { return kRangePx * m_pixel; }

  double pixel() const { return m_pixel; }   // metres per demo pixel
  double frame() const { return m_frame; }   // seconds per demo frame
  std::span<const double> density() const { return m_rho; }

  // Lattice spacing (px) at which the toy density of the emitter's lattice is rho0.
  static double restSpacingPx(double rho0);

 private:
  void computeDensity(const ParticleSet<D>& p);
  void accumulateForces(const ParticleSet<D>& p, const StepContext<D>& ctx);
  void integrate(ParticleSet<D>& p, const StepContext<D>& ctx);

  ToySphParams m_params;
  Vec<D> m_box{1.0};
  Solids<D> m_solids;  // obstacles (solids.h)
  double m_spacing = 0.0;
  double m_gravityNorm = 9.81;
  double m_pixel = 1.0;
  double m_frame = 1.0;
  NeighbourGrid<D> m_grid;
  NeighbourList m_neighbours;
  std::vector<double> m_rho, m_p;
  std::vector<Vec<D>> m_a;
};

}  // namespace sloshlab
