// DFSPH density and factor, physics.md (6.1), (6.4): rho~_i = V (W(0) + sum_j W_ij) +
// V_b sum_b W_ib, G_i = sum_j V gradW_ij, B_i = sum_b V_b gradW_ib and, with extrapolated
// walls, B*_i = sum_b (W_ib / sum_f W_bf) V_b gradW_ib; the factor 1/a_i with
// a_i = max((G_i + B_i + B*_i).(G_i + B_i) + sum_j |V gradW_ij|^2, sum_j |V gradW_ij|^2).
// The bodies' samples move: D rho~_i/Dt loses sum_b V_b v_b . gradW_ib (physics.md
// (16.13)), kept in wallGrad.w. aux = (kappa, kappa_v dt, rho~, 1/a); wallGrad = (B_i, that).
layout(local_size_x = 128) in;
layout(std430, binding = 1) readonly buffer Positions { vec4 x[]; };
layout(std430, binding = 2) buffer Aux { vec4 aux[]; };
layout(std430, binding = 3) writeonly buffer WallGrad { vec4 wallGrad[]; };
layout(std430, binding = 4) readonly buffer Samples { vec4 wallSample[]; };
uniform int extrapolated;

struct WallState {
  float weight;  // sum_b W_ib
  VecD grad;     // sum_b gradW_ib
  VecD own;      // sum_b (W_ib / sum_f W_bf) gradW_ib
  float motion;  // sum_b v_b . gradW_ib over the bodies' samples
};
void onWallSample(uint b, float W, VecD gradW, inout WallState s) {
  s.weight += W;
  s.grad += gradW;
  if (extrapolated != 0 && wallSample[b].x > 0.0) s.own += (W / wallSample[b].x) * gradW;
  if (b >= firstBodySample) s.motion += dot(DIMS(bodySample[2u * (b - firstBodySample) + 1u]), gradW);
}
#include "wall_samples.glsl"

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  VecD xi = DIMS(x[i]);
  float h2 = h * h;
  float weight = 0.0, squares = 0.0;
  VecD G = VecD(0.0);
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
      VecD g = (volume * f) * r;
      weight += w, G += g, squares += dot(g, g);
    }
  WallState walls = WallState(0.0, VecD(0.0), VecD(0.0), 0.0);
  forEachWallSample(xi, walls);
  VecD B = wallVolume * walls.grad;
  VecD own = extrapolated != 0 ? B + wallVolume * walls.own : B;
  float a = max(dot(G + own, G + B) + squares, squares);
  vec4 v4 = aux[i];
  v4.z = volume * (sigma + weight) + wallVolume * walls.weight;
  v4.w = a > 1e-6 / (spacing * spacing) ? 1.0 / a : 0.0;
  aux[i] = v4;
  vec4 b4 = vec4(0.0);
  DIMS(b4) = B;
  b4.w = wallVolume * walls.motion;
  wallGrad[i] = b4;
}
