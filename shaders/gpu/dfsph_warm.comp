// DFSPH warm start, physics.md (6.9) ([BK17] Sec. 4.3): kappa_i = w kappa_i,last where it
// starts (the density solve: only where the fluid is about to compress, e_i > 0; both:
// only where rho~_i >= 0.5), else 0; the push to apply, dkappa_i = kappa applied_i. With
// `fromDivergence` the density solve's errors come from the divergence solve's last
// prediction: e_i = share min(rho~_i - 1, c_max) + (e_div,i - min(rho~_i - 1, 0)).
layout(local_size_x = 128) in;
layout(std430, binding = 1) buffer Aux { vec4 aux[]; };
layout(std430, binding = 2) buffer Solve { vec4 solve[]; };
uniform int rate;              // 1: the divergence solve (kappa_v dt in aux.y)
uniform int fromDivergence;
uniform float warmFraction;    // w
uniform float storedPerApplied;
uniform float maxCorrection;
uniform float minDensity;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  vec4 a = aux[i], s = solve[i];
  float rho = a.z;
  if (fromDivergence != 0) s.w = share * min(rho - 1.0, maxCorrection) + (s.w - min(rho - 1.0, 0.0));
  bool here = (rate != 0 || s.w > 0.0) && rho >= minDensity;
  float kappa = warmFraction > 0.0 && here ? warmFraction * (rate != 0 ? a.y : a.x) : 0.0;
  if (rate != 0) a.y = kappa;
  else a.x = kappa;
  s.x = s.y = kappa / storedPerApplied;
  aux[i] = a;
  solve[i] = s;
}
