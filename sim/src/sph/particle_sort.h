// Reorders particles by grid cell so that neighbour loops read memory in order.
#pragma once

#include "sph/neighbour_grid.h"
#include "sloshlab/particles.h"

namespace sloshlab {

// Builds the grid over the particles and puts them in cell order: x, v, m, id and every
// channel a solver registered with the set (ParticleSet::addChannel).
template <int D>
void sortByCell(NeighbourGrid<D>& grid, ParticleSet<D>& p) {
  grid.build(p.x);
  p.reorder(grid.order());
}

}  // namespace sloshlab
