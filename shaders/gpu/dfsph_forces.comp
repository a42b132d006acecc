// DFSPH non-pressure forces fused with the density solve's warm push, physics.md (6.10)
// ([BK17] Alg. 1, [Mon05] Eq. 6.7, XSPH [MM13] Eq. 17): v*_i = v_i + sum_j [(nu' (v_ij.x_ij)
// / (|x_ij|^2 + 0.01 h^2) - push (dk_i + dk_j)) V gradW_ij - c V W_ij v_ij] + dt (a_frame -
// zeta v_i), less dt (dk_i B_i + sum_b V_b dk_b gradW_ib) after a warm start; nu' = dt
// 2 (d + 2) nu. Jacobi: reads v, writes vNext.
layout(local_size_x = 128) in;
layout(std430, binding = 1) readonly buffer Positions { vec4 x[]; };
layout(std430, binding = 2) readonly buffer Velocities { vec4 v[]; };
layout(std430, binding = 3) writeonly buffer Next { vec4 vNext[]; };
layout(std430, binding = 4) readonly buffer Solve { vec4 solve[]; };
layout(std430, binding = 5) readonly buffer WallGrad { vec4 wallGrad[]; };
layout(std430, binding = 6) readonly buffer Samples { vec4 wallSample[]; };
uniform float viscous;     // nu' = dt 2 (d + 2) nu
uniform float pushScale;   // dt after a warm start, else 0
uniform int warmStarted;
uniform int extrapolated;

struct WallState { VecD push; };
void onWallSample(uint b, float W, VecD gradW, inout WallState s) { s.push += wallSample[b].w * gradW; }
#include "wall_samples.glsl"

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  VecD xi = DIMS(x[i]), vi = DIMS(v[i]);
  float dki = solve[i].y, h2 = h * h, eps = 0.01 * h2;
  VecD change = VecD(0.0);
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
      VecD dv = vi - DIMS(v[j]);
      change += (viscous * dot(dv, r) / (r2 + eps) - pushScale * (dki + solve[j].y)) * ((volume * f) * r) -
                (xsph * w) * dv;
    }
  VecD out3 = vi + change + dt * (frameAcceleration(xi, vi) - damping * vi);
  if (warmStarted != 0) {
    VecD wall = dki * DIMS(wallGrad[i]);
    if (extrapolated != 0) {
      WallState walls = WallState(VecD(0.0));
      forEachWallSample(xi, walls);
      wall += wallVolume * walls.push;
    }
    out3 -= dt * wall;
  }
  vec4 o = vec4(0.0);
  DIMS(o) = out3;
  vNext[i] = o;
}
