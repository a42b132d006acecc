// DFSPH's push on the floating bodies' samples, physics.md (16.12) (dfsph.cpp,
// bodyImpulses): every push of a solve is linear in the increments it applied at the same
// positions, so the sample takes the push of the totals, +m dt (kappa_i + kappa_b) V_b
// gradW_ib from each particle within h (kappa_i applied, solve.x; kappa_b the sample's
// extrapolated stiffness, with extrapolated walls). Added to impulse, one vec4 per body
// sample, after each solve.
layout(local_size_x = 128) in;
layout(std430, binding = 1) readonly buffer Positions { vec4 x[]; };
layout(std430, binding = 2) readonly buffer Solve { vec4 solve[]; };
layout(std430, binding = 3) readonly buffer Samples { vec4 wallSample[]; };
layout(std430, binding = 4) buffer Impulses { vec4 impulse[]; };
uniform float massDt;  // m dt
uniform int extrapolated;

void main() {
  uint k = gl_GlobalInvocationID.x;
  if (k >= bodySamples || bodySample[2u * k + 1u].w == 0.0) return;  // an obstacle's sample takes no push
  VecD xb = DIMS(bodySample[2u * k]);
  float kb = extrapolated != 0 ? wallSample[firstBodySample + k].z : 0.0;
  float h2 = h * h;
  VecD sum = VecD(0.0);
  uint begin[MAX_ROWS], end[MAX_ROWS];
  int rows = neighbourRows(xb, begin, end);
  for (int q = 0; q < rows; ++q)
    for (uint j = begin[q]; j < end[q]; ++j) {
      VecD r = DIMS(x[j]) - xb;
      float r2 = dot(r, r);
      if (r2 >= h2) continue;
      float w, f;
      kernelWeightAndFactor(r2, w, f);
      sum += (solve[j].x + kb) * (f * r);
    }
  vec4 out4 = impulse[k];
  DIMS(out4) += (massDt * wallVolume) * sum;
  impulse[k] = out4;
}
