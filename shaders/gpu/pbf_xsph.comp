// XSPH, physics.md (7.10) ([MM13] Eq. 17): v_i + c V sum_j (v_j - v_i) W_ij into vNext.
layout(local_size_x = 128) in;
layout(std430, binding = 1) readonly buffer Positions { vec4 x[]; };
layout(std430, binding = 2) readonly buffer Velocities { vec4 v[]; };
layout(std430, binding = 3) writeonly buffer Next { vec4 vNext[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  VecD xi = DIMS(x[i]);
  VecD vi = DIMS(v[i]);
  float h2 = h * h;
  VecD blend = VecD(0.0);
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
      blend += w * (DIMS(v[j]) - vi);
    }
  vec4 out4 = vec4(0.0);
  DIMS(out4) = vi + xsph * blend;
  vNext[i] = out4;
}
