// Chebyshev semi-iteration over the sweeps ([Wang15], physics.md (7.11)):
// y = w (y^ - y_prev) + y_prev for the positions and the multipliers (kept <= 0),
// the positions kept inside. y_prev is the iterate before the last sweep (the solver
// swaps buffers, nothing is copied).
layout(local_size_x = 128) in;
layout(std430, binding = 1) buffer Positions { vec4 x[]; };
layout(std430, binding = 2) readonly buffer PrevPositions { vec4 xPrev[]; };
layout(std430, binding = 3) buffer Aux { vec4 aux[]; };
layout(std430, binding = 4) readonly buffer PrevLambda { float lambdaPrev[]; };
uniform float weight;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  vec4 xi = x[i];
  VecD p = weight * (DIMS(xi) - DIMS(xPrev[i])) + DIMS(xPrev[i]);
  DIMS(xi) = keptInside(p);
  x[i] = xi;
  vec4 a = aux[i];
  a.z = min(weight * (a.z - lambdaPrev[i]) + lambdaPrev[i], 0.0);
  aux[i] = a;
}
