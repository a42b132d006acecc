// PBF's push on the floating bodies' samples, physics.md (16.12) (pbf.cpp,
// applyCorrections and chebyshevStep): a sweep moved particle i by dlambda_i V_b gradW_ib
// through sample b, a velocity change of that over dt; the sample takes the opposite
// impulse, -(m / dt) dlambda_i V_b gradW_ib summed over the particles within h, at the
// positions the sweep's gradients were taken at (positionAndDLambda). Chebyshev's weights
// (7.11) carry the sums through the positions' recurrence, p = w (p - p_prev) + p_prev.
// push = (the sample's total so far, its total before the last sweep), per body sample.
layout(local_size_x = 128) in;
layout(std430, binding = 1) readonly buffer PositionAndDeltaLambda { vec4 positionAndDLambda[]; };
layout(std430, binding = 2) buffer Pushes { vec4 push[]; };
uniform float massOverDt;  // m / dt
uniform float weight;      // w of the sweep
uniform int accelerate;    // 1: the sweep takes Chebyshev's weight

void main() {
  uint k = gl_GlobalInvocationID.x;
  if (k >= bodySamples || bodySample[2u * k + 1u].w == 0.0) return;  // an obstacle's sample takes no push
  VecD xb = DIMS(bodySample[2u * k]);
  float h2 = h * h;
  VecD sum = VecD(0.0);
  uint begin[MAX_ROWS], end[MAX_ROWS];
  int rows = neighbourRows(xb, begin, end);
  for (int q = 0; q < rows; ++q)
    for (uint j = begin[q]; j < end[q]; ++j) {
      vec4 xj = positionAndDLambda[j];
      VecD r = DIMS(xj) - xb;
      float r2 = dot(r, r);
      if (r2 >= h2) continue;
      float w, f;
      kernelWeightAndFactor(r2, w, f);
      sum += xj.w * (f * r);
    }
  vec4 before = push[2u * k], prev = push[2u * k + 1u];
  vec4 now = before;
  DIMS(now) -= (massOverDt * wallVolume) * sum;
  if (accelerate != 0) now = weight * (now - prev) + prev;
  push[2u * k] = now;
  push[2u * k + 1u] = before;
}
