// PBF step 1 (gpu_pbf.cpp, physics.md (7.1)): v += dt (a_frame - zeta v) with the damping
// implicit, x* = x + dt v, kept inside the walls; x_old keeps the start.
layout(local_size_x = 128) in;
layout(std430, binding = 1) buffer Positions { vec4 x[]; };
layout(std430, binding = 2) buffer Velocities { vec4 v[]; };
layout(std430, binding = 3) writeonly buffer Start { vec4 xOld[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  vec4 xi = x[i];
  xOld[i] = xi;
  VecD p = DIMS(xi), u = DIMS(v[i]);
  u = (u + dt * frameAcceleration(p, u)) / (1.0 + dt * damping);
  p += dt * u;
  keepInside(p, u);
  DIMS(xi) = p;
  x[i] = xi;
  vec4 vi = vec4(0.0);
  DIMS(vi) = u;
  v[i] = vi;
}
