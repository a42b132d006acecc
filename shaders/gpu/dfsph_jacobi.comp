// DFSPH Jacobi sweep, physics.md (6.7)-(6.8), (6.12): dkappa_i = max(e_i, 0) / (dt^2 a_i),
// weighted w dkappa_i + (w - 1) dkappa_i,last in the Chebyshev-accelerated density
// sweeps; kappa only grows. solve = (kappa applied, dkappa, the last dkappa, e).
layout(local_size_x = 128) in;
layout(std430, binding = 1) buffer Aux { vec4 aux[]; };
layout(std430, binding = 2) buffer Solve { vec4 solve[]; };
uniform int rate;
uniform float weight;
uniform float storedPerApplied;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  vec4 a = aux[i], s = solve[i];
  float jacobi = max(s.w, 0.0) * a.w / (dt * dt);
  s.y = weight > 1.0 ? weight * jacobi + (weight - 1.0) * s.z : jacobi;
  s.z = s.y;
  s.x += s.y;
  if (rate != 0) a.y = s.x * storedPerApplied;
  else a.x = s.x * storedPerApplied;
  aux[i] = a;
  solve[i] = s;
}
