// Reorders particles by grid cell so that neighbour loops read memory in order.
#pragma once

#include "neighbour_grid.h"
#include "sloshlab/particles.h"

namespace sloshlab {

// One reusable scratch buffer per channel type (per thread).
template <class T>
std::vector<T>& permuteScratch() {
  static thread_local std::vector<T> scratch;
  return scratch;
}

// Builds the grid over the particles and permutes x, v, m and the extra channels
// (solver-owned per-particle arrays) into cell order.
template <int D, class... Channels>
void sortByCell(NeighbourGrid<D>& grid, ParticleSet<D>& p, Channels&... extra) {
  grid.build(p.x);
  const auto order = grid.order();
  permute(p.x, order, permuteScratch<Vec<D>>());
  permute(p.v, order, permuteScratch<Vec<D>>());
  permute(p.m, order, permuteScratch<double>());
  permute(p.id, order, permuteScratch<std::uint32_t>());
  (permute(extra, order, permuteScratch<typename std::decay_t<decltype(extra)>::value_type>()), ...);
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
