// DFSPH extrapolated wall stiffness, physics.md (6.5): kappa_b = max(sum_f W_bf kappa_f /
// sum_f W_bf + hydrostatic_b, 0) from the particles' applied kappa, and its change
// dkappa_b (from 0 when the solve starts). wallSample = (sum W, hydrostatic, kappa_b, dkappa_b).
layout(local_size_x = 128) in;
layout(std430, binding = 1) readonly buffer Positions { vec4 x[]; };
layout(std430, binding = 2) readonly buffer Solve { vec4 solve[]; };
layout(std430, binding = 3) buffer Samples { vec4 wallSample[]; };
uniform uint samples;
uniform int restart;
uniform int hydrostatic;

struct WallState { float unused; };
void onWallSample(uint b, float W, VecD gradW, inout WallState s) {}
#include "wall_samples.glsl"

void main() {
  uint b = gl_GlobalInvocationID.x;
  if (b >= samples) return;
  vec4 s = wallSample[b];
  float updated = 0.0;
  if (s.x > 0.0) {
    VecD xb = sampleAt(b);
    float h2 = h * h, sum = 0.0;
    uint begin[MAX_ROWS], end[MAX_ROWS];
    int rows = neighbourRows(xb, begin, end);
    for (int q = 0; q < rows; ++q)
      for (uint j = begin[q]; j < end[q]; ++j) {
        VecD r = xb - DIMS(x[j]);
        float r2 = dot(r, r);
        if (r2 >= h2) continue;
        float w, f;
        kernelWeightAndFactor(r2, w, f);
        sum += w * solve[j].x;
      }
    updated = max(sum / s.x + (hydrostatic != 0 ? s.y : 0.0), 0.0);
  }
  s.w = updated - (restart != 0 ? 0.0 : s.z);
  s.z = updated;
  wallSample[b] = s;
}
