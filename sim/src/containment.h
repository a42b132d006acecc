// The containment invariant (physics.md (2.5)): no particle ends a step outside the
// container. Walls stand still in the container's frame, where the solvers work.
#pragma once

#include "sloshlab/particles.h"
#include "sloshlab/solids.h"

#include <cstdint>
#include <span>

namespace sloshlab {

// A particle past a wall is put back at distance `margin` inside it and keeps no
// velocity into the wall.
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

// keepInside, then out of the obstacles (solids.h, physics.md (15.3)) and back inside
// the box: an obstacle's push never leaves a particle past a wall.
template <int D>
inline void contain(Vec<D>& x, Vec<D>& v, const Vec<D>& box, double margin, const Solids<D>& solids) {
  keepInside<D>(x, v, box, margin);
  if (solids.empty()) return;
  if (solids.pushOut(x, v, margin)) keepInside<D>(x, v, box, margin);
}

// The SPH solvers' move (WCSPH's and DFSPH's last phase, PBF's prediction): for every
// particle v += dt a_i (when `a` is given: symplectic Euler), x += dt v, then
// contain at `margin`.
template <int D>
void integrateAndContain(ParticleSet<D>& p, double dt, std::span<const Vec<D>> a, const Vec<D>& box, double margin,
                         const Solids<D>& solids) {
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  const bool accelerate = !a.empty();
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    if (accelerate) p.v[i] += dt * a[i];
    p.x[i] += dt * p.v[i];
    contain<D>(p.x[i], p.v[i], box, margin, solids);
  }
}

}  // namespace sloshlab
