// Pieces shared by the SPH solvers (WCSPH, DFSPH, PBF): the cubic spline, the
// neighbourhoods of fluid particles among themselves and with the container's
// boundary samples, and the particle mass that puts the initial lattice at rest density.
#pragma once

#include "boundary_samples.h"
#include "kernels.h"
#include "neighbour_list.h"
#include "particle_sort.h"
#include "sloshlab/emitter.h"

namespace sloshlab {

// m = rho0 / sum_j W(x_i - x_j) over the emitter's lattice: a particle inside the
// initial block then has exactly the rest density.
template <int D>
double calibratedMass(double rho0, double spacing, double support) {
  const CubicSpline<D> kernel(support);
  double sum = 0.0;
  for (const Vec<D>& p : latticeNeighbourhood<D>(spacing, support)) sum += kernel.W(p);
  return rho0 / sum;
}

// Neighbourhoods with a skin (Verlet lists; Verlet 1967, doi:10.1103/PhysRev.159.98):
// lists hold every pair closer than h + skin, so they stay complete until some
// particle has moved skin/2 since they were built. Only then are particles re-sorted
// by cell and the lists rebuilt; kernels return 0 beyond h, so the extra pairs are
// harmless (loops skip them early). An SPH step moves particles by a few percent of
// h, so most steps reuse the lists.
template <int D>
class SphNeighbourhood {
 public:
  void configure(const Vec<D>& box, double spacing, double support, double skinFraction = 0.1) {
    m_support = support;
    m_skin = skinFraction * support;
    const double reach = support + m_skin;
    m_grid.configure(Vec<D>(-reach), box + Vec<D>(reach), reach);
    m_walls.build(box, spacing, support, reach);
    invalidate();
  }
  void invalidate() { m_valid = false; }

  // Rebuilds when needed: reorders particles (and the solver's channels) by cell,
  // then finds fluid-fluid, fluid-wall and, if asked, wall-fluid pairs within h + skin.
  // Returns true when it rebuilt (particle order changed).
  template <class... Channels>
  bool update(ParticleSet<D>& p, bool wallToFluid, Channels&... extra) {
    if (m_valid && m_wallToFluid == wallToFluid && p.size() == m_reference.size() &&
        maxDisplacement(p) <= 0.5 * m_skin)
      return false;
    const double reach = m_support + m_skin;
    sortByCell(m_grid, p, extra...);
    m_fluid.build<D>(m_grid, p.x, p.x, reach, true);
    m_walls.findNeighbours(p.x, m_boundary);
    if (wallToFluid) m_wallFluid.build<D>(m_grid, p.x, m_walls.positions(), reach, false);
    m_reference = p.x;
    m_wallToFluid = wallToFluid;
    m_valid = true;
    ++m_rebuilds;
    return true;
  }

  const NeighbourList& fluid() const { return m_fluid; }
  const NeighbourList& boundary() const { return m_boundary; }
  const NeighbourList& wallFluid() const { return m_wallFluid; }
  const BoundarySamples<D>& walls() const { return m_walls; }
  double support() const { return m_support; }
  long rebuilds() const { return m_rebuilds; }

 private:
  double maxDisplacement(const ParticleSet<D>& p) const {
    double worst = 0.0;
    const std::int64_t n = static_cast<std::int64_t>(p.size());
#pragma omp parallel for schedule(static) reduction(max : worst)
    for (std::int64_t i = 0; i < n; ++i) worst = std::max(worst, lengthSquared<D>(p.x[i] - m_reference[i]));
    return std::sqrt(worst);
  }

  double m_support = 0.0;
  double m_skin = 0.0;
  bool m_valid = false;
  bool m_wallToFluid = false;
  long m_rebuilds = 0;
  NeighbourGrid<D> m_grid;
  BoundarySamples<D> m_walls;
  NeighbourList m_fluid;
  NeighbourList m_boundary;
  NeighbourList m_wallFluid;
  std::vector<Vec<D>> m_reference;  // positions when the lists were built
};

}  // namespace sloshlab
