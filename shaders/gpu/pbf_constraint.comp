// PBF constraint, physics.md (7.2)-(7.4) and the warm start (7.7): at the current
// positions, the density ratio rho~_i = V (W(0) + sum_j W_ij) + V_b sum_b W_ib, the
// constraint C_i = rho~_i - 1 - carried_i, the Jacobi diagonal
// a_i = |G_i + B_i|^2 + sum_j |V gradW_ij|^2 + eps (G_i = sum_j V gradW_ij,
// B_i = sum_b V_b gradW_ib), then the multiplier: warm start lambda_i = -w dt^2 kappa_i
// where C_i > 0, or a projected sweep lambda_i = min(lambda_i - omega C_i / a_i, 0).
// aux = (kappa, rho~ of the last measure, lambda, dlambda); lambdaBefore keeps lambda as
// it was before this sweep, for the Chebyshev step (pbf_chebyshev.comp); positionAndDLambda
// holds (x_i, aux.w), which the correction gathers from every neighbour in one load (from
// two arrays the correction took 1.81 ms a sub-step at 1M particles on an H200, 1.62 ms
// so).
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
layout(std430, binding = 3) writeonly buffer WallGrad { vec4 wallGrad[]; };
layout(std430, binding = 4) writeonly buffer LambdaBefore { float lambdaBefore[]; };
layout(std430, binding = 5) writeonly buffer PositionAndDeltaLambda { vec4 positionAndDLambda[]; };
uniform int warmStart;

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
  WallState walls = WallState(0.0, VecD(0.0));
  forEachWallSample(xi, walls);
  float wallW = walls.weight;
  VecD wallG = walls.grad;
  VecD B = wallVolume * wallG;
  float rho = volume * (sigma + weight) + wallVolume * wallW;
  vec4 a = aux[i];
  lambdaBefore[i] = a.z;
  float carried = (1.0 - share) * max(a.y - 1.0, 0.0);
  float C = rho - 1.0 - carried;
  VecD GB = G + B;
  float diag = dot(GB, GB) + squares + eps;
  if (warmStart != 0) {
    a.z = C > 0.0 ? -warm * a.x : 0.0;
    a.w = a.z;
  } else {
    float updated = min(a.z - relax * C * (diag > 0.0 ? 1.0 / diag : 0.0), 0.0);
    a.w = updated - a.z;
    a.z = updated;
  }
  aux[i] = a;
  positionAndDLambda[i] = vec4(x[i].xyz, a.w);
  vec4 b = vec4(0.0);
  DIMS(b) = B;
  wallGrad[i] = b;
}
