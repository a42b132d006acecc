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

template <int D>
class SphNeighbourhood {
 public:
  void configure(const Vec<D>& box, double spacing, double support) {
    m_support = support;
    m_grid.configure(Vec<D>(-support), box + Vec<D>(support), support);
    m_walls.build(box, spacing, support);
  }

  // Reorders particles (and the solver's channels) by cell, then finds neighbours:
  // fluid-fluid, fluid-wall and, when asked, wall-fluid (for wall pressures).
  template <class... Channels>
  void update(ParticleSet<D>& p, bool wallToFluid, Channels&... extra) {
    sortByCell(m_grid, p, extra...);
    m_fluid.build<D>(m_grid, p.x, p.x, m_support, true);
    m_walls.findNeighbours(p.x, m_boundary);
    if (wallToFluid) m_wallFluid.build<D>(m_grid, p.x, m_walls.positions(), m_support, false);
  }

  const NeighbourList& fluid() const { return m_fluid; }
  const NeighbourList& boundary() const { return m_boundary; }
  const NeighbourList& wallFluid() const { return m_wallFluid; }
  const BoundarySamples<D>& walls() const { return m_walls; }
  double support() const { return m_support; }

 private:
  double m_support = 0.0;
  NeighbourGrid<D> m_grid;
  BoundarySamples<D> m_walls;
  NeighbourList m_fluid;
  NeighbourList m_boundary;
  NeighbourList m_wallFluid;
};

}  // namespace sloshlab
