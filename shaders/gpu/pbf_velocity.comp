// PBF velocities, physics.md (7.8): v = (x* - x) / dt, none into a wall that holds the particle.
layout(local_size_x = 128) in;
layout(std430, binding = 1) buffer Positions { vec4 x[]; };
layout(std430, binding = 2) readonly buffer Start { vec4 xOld[]; };
layout(std430, binding = 3) writeonly buffer Velocities { vec4 v[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  vec4 xi = x[i];
  VecD p = DIMS(xi);
  VecD u = (p - DIMS(xOld[i])) / dt;
  keepInside(p, u);
  DIMS(xi) = p;
  x[i] = xi;
  vec4 vi = vec4(0.0);
  DIMS(vi) = u;
  v[i] = vi;
}
