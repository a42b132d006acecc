// The containment invariant (physics.md (2.5)): no particle ends a step outside the
// container. Walls stand still in the container's frame, where the solvers work.
#pragma once

#include "sloshlab/math.h"

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

}  // namespace sloshlab
