// DFSPH predicted error, physics.md (6.6): with D rho~_i/Dt = sum_j V (v_i - v_j).gradW_ij
// + v_i.B_i - sum_b V_b v_b.gradW_ib (the last over the bodies' samples, (16.13)), the
// divergence solve's e_i = dt D rho~_i/Dt + min(rho~_i - 1, 0) and the density solve's
// e_i = share min(rho~_i - 1, c_max) + dt D rho~_i/Dt; into solve.w.
// solve = (kappa applied, dkappa, the last dkappa, e).
layout(local_size_x = 128) in;
layout(std430, binding = 1) readonly buffer Positions { vec4 x[]; };
layout(std430, binding = 2) readonly buffer Velocities { vec4 v[]; };
layout(std430, binding = 3) readonly buffer Aux { vec4 aux[]; };
layout(std430, binding = 4) readonly buffer WallGrad { vec4 wallGrad[]; };
layout(std430, binding = 5) buffer Solve { vec4 solve[]; };
uniform int rate;          // 1: the divergence solve
uniform float maxCorrection;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  VecD xi = DIMS(x[i]), vi = DIMS(v[i]);
  float h2 = h * h;
  float divergence = dot(vi, DIMS(wallGrad[i])) - wallGrad[i].w;  // the bodies' motion (dfsph_density.comp)
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
      divergence += dot(vi - DIMS(v[j]), (volume * f) * r);
    }
  float rho = aux[i].z;
  vec4 s = solve[i];
  s.w = rate != 0 ? dt * divergence + min(rho - 1.0, 0.0)
                  : share * min(rho - 1.0, maxCorrection) + dt * divergence;
  solve[i] = s;
}
