// PBF position correction, physics.md (7.5)-(7.6):
// dx_i = sum_j V (dlambda_i + dlambda_j + s_corr,ij) gradW_ij + dlambda_i B_i,
// s_corr = -k lambda_ref (W_ij / W(dq h))^4 (scaled into `tensile`; 0 for the warm
// start), then kept inside the walls. Jacobi: reads x, writes xNext; a neighbour's
// position and dlambda come in one vec4 (pbf_constraint.comp).
layout(local_size_x = 128) in;
layout(std430, binding = 1) readonly buffer Positions { vec4 x[]; };
layout(std430, binding = 2) writeonly buffer Next { vec4 xNext[]; };
layout(std430, binding = 3) readonly buffer PositionAndDeltaLambda { vec4 positionAndDLambda[]; };  // (x, aux.w)
layout(std430, binding = 4) readonly buffer WallGrad { vec4 wallGrad[]; };
uniform float sCorr;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  vec4 xi4 = x[i];
  VecD xi = DIMS(xi4);
  float dLi = positionAndDLambda[i].w;
  float h2 = h * h;
  VecD dx = VecD(0.0);
  Neighbours nb = neighboursOf(i, xi);
  for (int q = 0; q < nb.rows; ++q)
    for (uint k = nb.begin[q]; k < nb.end[q]; ++k) {
      uint j = neighbourAt(nb, i, k);
      if (j == i) continue;
      vec4 xj = positionAndDLambda[j];
      VecD r = xi - DIMS(xj);
      float r2 = dot(r, r);
      if (r2 >= h2) continue;
      float w, f;
      kernelWeightAndFactor(r2, w, f);
      float t = w * invWdq, t2 = t * t;
      dx += (dLi + xj.w - sCorr * t2 * t2) * ((volume * f) * r);
    }
  VecD p = xi + dx + dLi * DIMS(wallGrad[i]);
  DIMS(xi4) = keptInside(p);
  xNext[i] = xi4;
}
