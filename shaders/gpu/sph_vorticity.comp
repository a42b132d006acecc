// Vorticity omega_i = sum_j V gradW_ij x (v_j - v_i), physics.md (7.9) ([MM13] Eq. 15),
// as a 3D vector (only z in 2D): the colour field and vorticity confinement.
layout(local_size_x = 128) in;
layout(std430, binding = 1) readonly buffer Positions { vec4 x[]; };
layout(std430, binding = 2) readonly buffer Velocities { vec4 v[]; };
layout(std430, binding = 3) writeonly buffer Vorticity { vec4 omega[]; };

vec3 widen(VecD a) {
#if DIM == 2
  return vec3(a, 0.0);
#else
  return a;
#endif
}

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  VecD xi = DIMS(x[i]);
  VecD vi = DIMS(v[i]);
  float h2 = h * h;
  vec3 w3 = vec3(0.0);
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
      w3 += cross(widen((volume * f) * r), widen(DIMS(v[j]) - vi));
    }
  omega[i] = vec4(w3, 0.0);
}
