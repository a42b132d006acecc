// A frame for the window to draw (docs/gpu.md, "Drawing from GPU memory"): each particle's
// position in the container frame and its colour field's value, written into the draw
// target. The solver's arrays are reordered every sub-step and stay the solver's.
//   mode 0: no field (0)
//   mode 1: speed |v|
//   mode 2: scale (s[a] + k s[b]) s[c]^(2 if squared): density rho0 rho~, pressure
//           rho0 kappa rho~^2 (physics.md (7.7); DFSPH's kappa, (6.6))
//   mode 3: vorticity, omega_z in 2D, |omega| in 3D (physics.md (7.9))
layout(local_size_x = 128) in;
layout(std430, binding = 1) readonly buffer Positions { vec4 x[]; };
layout(std430, binding = 2) readonly buffer Velocities { vec4 v[]; };
layout(std430, binding = 3) readonly buffer Source { vec4 s[]; };
layout(std430, binding = 4) writeonly buffer Points { vec4 points[]; };
uniform uint count;
uniform int mode;
uniform int a, b, c;
uniform int squared;
uniform float scale, k;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= count) return;
  float value = 0.0;
  if (mode == 1) {
    value = length(v[i].xyz);
  } else if (mode == 2) {
    vec4 q = s[i];
    float f = squared != 0 ? q[c] * q[c] : 1.0;
    value = scale * (q[a] + k * q[b]) * f;
  } else if (mode == 3) {
#if DIM == 2
    value = s[i].z;
#else
    value = length(s[i].xyz);
#endif
  }
  points[i] = vec4(x[i].xyz, value);
}
