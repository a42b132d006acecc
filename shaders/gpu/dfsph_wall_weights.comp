// DFSPH's extrapolated walls, physics.md (6.5) ([Ada12] Eq. 27): per boundary sample b,
// sum_f W_bf over the particles within h and the hydrostatic term
// a_b . sum_f W_bf (x_b - x_f) / sum_f W_bf (a_b: the frame's acceleration at rest);
// wallSample = (sum W, hydrostatic, kappa_b, dkappa_b), the last two cleared.
layout(local_size_x = 128) in;
layout(std430, binding = 1) readonly buffer Positions { vec4 x[]; };
layout(std430, binding = 2) writeonly buffer Samples { vec4 wallSample[]; };
uniform uint samples;

struct WallState { float unused; };
void onWallSample(uint b, float W, VecD gradW, inout WallState s) {}
#include "wall_samples.glsl"

void main() {
  uint b = gl_GlobalInvocationID.x;
  if (b >= samples) return;
  VecD xb = sampleAt(b);
  float h2 = h * h, sumW = 0.0;
  VecD sumR = VecD(0.0);
  uint begin[MAX_ROWS], end[MAX_ROWS];
  int rows = neighbourRows(xb, begin, end);
  for (int q = 0; q < rows; ++q)
    for (uint j = begin[q]; j < end[q]; ++j) {
      VecD r = xb - DIMS(x[j]);
      float r2 = dot(r, r);
      if (r2 >= h2) continue;
      float w, f;
      kernelWeightAndFactor(r2, w, f);
      sumW += w, sumR += w * r;
    }
  float hydro = sumW > 0.0 ? dot(frameAcceleration(xb, VecD(0.0)), sumR) / sumW : 0.0;
  wallSample[b] = vec4(sumW, hydro, 0.0, 0.0);
}
