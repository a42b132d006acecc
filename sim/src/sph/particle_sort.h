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

// The containment invariant: a particle past a wall is put back at distance `margin`
// inside it and keeps no velocity into the wall. Walls stand still in this frame.
template <int D>
inline void keepInside(Vec<D>& x, Vec<D>& v, const Vec<D>& box, double margin) {
  for (int k = 0; k < D; ++k) {
    if (x[k] < margin) {
      x[k] = margin;
      if (v[k] < 0.0) v[k] = 0.0;
    } else if (x[k] > box[k] - margin) {
      x[k] = box[k] - margin;
      if (v[k] > 0.0) v[k] = 0.0;
    }
  }
}

}  // namespace sloshlab
