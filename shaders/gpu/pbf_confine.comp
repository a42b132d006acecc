// Vorticity confinement, physics.md (7.9) ([MM13] Eq. 16, [FSJ01]): eta_i =
// sum_j (|omega_j| - |omega_i|) V gradW_ij, N = eta / |eta|, v_i += epsilon dt (N x omega_i).
layout(local_size_x = 128) in;
layout(std430, binding = 1) readonly buffer Positions { vec4 x[]; };
layout(std430, binding = 2) buffer Velocities { vec4 v[]; };
layout(std430, binding = 3) readonly buffer Vorticity { vec4 omega[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  VecD xi = DIMS(x[i]);
  float si = length(omega[i].xyz);
  float h2 = h * h;
  VecD eta = VecD(0.0);
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
      eta += (length(omega[j].xyz) - si) * ((volume * f) * r);
    }
  float len = length(eta);
  if (len <= 1e-12) return;
  vec3 N = vec3(0.0);
  DIMS(N) = eta / len;
  vec4 vi = v[i];
  DIMS(vi) += DIMS(cross(N, omega[i].xyz)) * vorticity;
  v[i] = vi;
}
