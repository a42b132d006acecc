// The containment invariant (physics.md (2.5)): no particle ends a step outside the
// container. Walls stand still in the container's frame, where the solvers work.
#pragma once

#include "sloshlab/particles.h"
#include "sloshlab/solids.h"

#include <cstdint>
#include <span>

namespace sloshlab {

// Whether the wall of axis k that x is within `margin` of (or past) lets x through: x is
// across that wall's opening, or already past the wall's plane (in the spout, a jet).
template <int D>
inline bool passesWall(const WallOpening<D>& opening, int k, const Vec<D>& x, const Vec<D>& box, double margin) {
  if (k != opening.axis) return false;
  return opening.passed(x, box) || ((opening.side == 0 ? x[k] < margin : x[k] > box[k] - margin) && opening.across(x));
}

// A particle past a wall is put back at distance `margin` inside it and keeps no
// velocity into the wall; across the wall's opening (an outlet on it, solids.h) that wall
// lets it pass (physics.md (14.3)).
template <int D>
inline void keepInside(Vec<D>& x, Vec<D>& v, const Vec<D>& box, double margin, const WallOpening<D>& opening = {}) {
  for (int k = 0; k < D; ++k) {
    if (passesWall<D>(opening, k, x, box, margin)) continue;
    if (x[k] < margin) {
      x[k] = margin;
      if (v[k] < 0.0) v[k] = 0.0;
    } else if (x[k] > box[k] - margin) {
      x[k] = box[k] - margin;
      if (v[k] > 0.0) v[k] = 0.0;
    }
  }
}

// keepInside (with the solids' wall opening), then out of the obstacles (solids.h, physics.md (15.3)) and back inside
// the box: an obstacle's push never leaves a particle past a wall.
template <int D>
inline void contain(Vec<D>& x, Vec<D>& v, const Vec<D>& box, double margin, const Solids<D>& solids) {
  keepInside<D>(x, v, box, margin, solids.opening());
  if (solids.empty()) return;
  if (solids.pushOut(x, v, margin)) keepInside<D>(x, v, box, margin, solids.opening());
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
