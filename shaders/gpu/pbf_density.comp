// PBF after the sweeps: the density ratio rho~_i at the final positions (the step's
// error, physics.md (10.7), and the next step's start) and kappa_i = -lambda_i / dt^2,
// the pressure the step applied over rho0 rho~^2 (7.7).
layout(local_size_x = 128) in;

struct WallState {
  float weight;  // sum_b W_ib
  VecD grad;     // sum_b gradW_ib
};
void onWallSample(uint b, float W, VecD gradW, inout WallState s) {
  s.weight += W;
  s.grad += gradW;
}
#include "wall_samples.glsl"
layout(std430, binding = 1) readonly buffer Positions { vec4 x[]; };
layout(std430, binding = 2) buffer Aux { vec4 aux[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  VecD xi = DIMS(x[i]);
  float h2 = h * h;
  float weight = 0.0;
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
      weight += w;
    }
  WallState walls = WallState(0.0, VecD(0.0));
  forEachWallSample(xi, walls);
  float wallW = walls.weight;
  VecD wallG = walls.grad;
  vec4 a = aux[i];
  if (dt > 0.0) a.x = -a.z / (dt * dt);
  a.y = volume * (sigma + weight) + wallVolume * wallW;
  aux[i] = a;
}
