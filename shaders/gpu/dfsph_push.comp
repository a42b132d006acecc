// DFSPH push, physics.md (6.3): v_i -= dt [sum_j V (dk_i + dk_j) gradW_ij + dk_i B_i +
// sum_b V_b dk_b gradW_ib] (the last with extrapolated walls). Reads dkappa (solve.y),
// not velocities, of the neighbours: v is updated in place.
layout(local_size_x = 128) in;
layout(std430, binding = 1) readonly buffer Positions { vec4 x[]; };
layout(std430, binding = 2) buffer Velocities { vec4 v[]; };
layout(std430, binding = 3) readonly buffer Solve { vec4 solve[]; };
layout(std430, binding = 4) readonly buffer WallGrad { vec4 wallGrad[]; };
layout(std430, binding = 5) readonly buffer Samples { vec4 wallSample[]; };
uniform int extrapolated;

struct WallState { VecD push; };
void onWallSample(uint b, float W, VecD gradW, inout WallState s) { s.push += wallSample[b].w * gradW; }
#include "wall_samples.glsl"

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  VecD xi = DIMS(x[i]);
  float dki = solve[i].y, h2 = h * h;
  VecD push = dki * DIMS(wallGrad[i]);
  Neighbours nb = neighboursOf(i, xi);
  for (int q = 0; q < nb.rows; ++q)
    for (uint k = nb.begin[q]; k < nb.end[q]; ++k) {
      uint j = neighbourAt(nb, i, k);
      if (j == i) continue;
      VecD r = xi - DIMS(x[j]);
      float r2 = dot(r, r);
      if (r2 >= h2) continue;
      float w, f;
      kernelWeightAndFactor(r2, w, f);
      push += (dki + solve[j].y) * ((volume * f) * r);
    }
  if (extrapolated != 0) {
    WallState walls = WallState(VecD(0.0));
    forEachWallSample(xi, walls);
    push += wallVolume * walls.push;
  }
  vec4 v4 = v[i];
  DIMS(v4) -= dt * push;
  v[i] = v4;
}
