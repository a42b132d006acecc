// The container's walls as boundary particles (Akinci et al. 2012, "Versatile rigid-
// fluid coupling for incompressible SPH", ACM TOG 31(4), doi:10.1145/2185520.2185558).
//
// In the container frame the walls never move, so the samples are laid out once: a
// shell of lattice layers outside the box [0, L], as thick as the kernel support, so a
// fluid particle at a wall finds a full neighbourhood (the dummy-particle walls of
// Adami et al. 2012, doi:10.1016/j.jcp.2012.05.005). Akinci's volume
// V_b = 1 / sum_k W(x_b - x_k) (Eq. 4) is then taken over that full lattice, which
// gives every sample the same volume; a sample adds rho0 V_b W_ib to a fluid
// particle's density and pushes it with -m_i rho0 V_b (p_i/rho_i^2) gradW_ib
// (Akinci Eq. 10). The same samples serve WCSPH, DFSPH and PBF.
//
// Obstacles (solids.h) are sampled inside, within the support of their surface, on a
// lattice of the same spacing fitted to a box's faces (Solids::samples, physics.md
// (15.4)): a flat face then sees the same layers as a wall, and the samples keep the
// shell's volume.
#pragma once

#include "sph/neighbour_grid.h"
#include "sph/neighbour_list.h"
#include "sloshlab/solids.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace sloshlab {

template <int D>
class BoundarySamples {
 public:
  // The lattice the samples lie on (the GPU path enumerates it instead of storing it):
  // `layersFor` layers at spacing s beyond each wall, and `innerCountFor` evenly spaced
  // coordinates inside [0, L] on each axis.
  static int layersFor(double spacing, double support) {
    return static_cast<int>(std::ceil(support / spacing - 1e-9));
  }
  static int innerCountFor(double length, double spacing) {
    return std::max(1, static_cast<int>(std::lround(length / spacing)));
  }

  // Samples for a kernel of support h; neighbour queries reach `reach` >= h.
  void build(const Vec<D>& boxSize, double spacing, double support, double reach,
             const Solids<D>* solids = nullptr);

  std::span<const Vec<D>> positions() const { return m_x; }
  double volume() const { return m_volume; }  // V_b (m^D), the same for every sample
  const NeighbourGrid<D>& grid() const { return m_grid; }
  std::size_t size() const { return m_x.size(); }

  // For each fluid particle, the boundary samples within the support.
  // Pairs closer than radius (at most the reach the samples were built for).
  void findNeighbours(std::span<const Vec<D>> fluid, NeighbourList& out, double radius) const {
    // Without obstacles only a particle within the radius of a wall has samples near.
    if (m_obstacles) out.build<D>(m_grid, m_x, fluid, std::min(radius, m_reach), false);
    else out.buildOutsideBox<D>(m_grid, m_x, fluid, std::min(radius, m_reach), m_box);
  }

 private:
  std::vector<Vec<D>> m_x;  // in cell order of m_grid
  double m_volume = 0.0;
  NeighbourGrid<D> m_grid;
  double m_reach = 0.0;
  Vec<D> m_box{0.0};  // the box [0, m_box] the wall samples lie outside of
  bool m_obstacles = false;  // samples inside the box too
};

}  // namespace sloshlab
