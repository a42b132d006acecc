// DFSPH integration: x += dt v, particle centres kept inside the walls (physics.md (2.5)).
layout(local_size_x = 128) in;
layout(std430, binding = 1) buffer Positions { vec4 x[]; };
layout(std430, binding = 2) buffer Velocities { vec4 v[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  vec4 x4 = x[i], v4 = v[i];
  VecD p = DIMS(x4) + dt * DIMS(v4), u = DIMS(v4);
  keepInside(p, u);
  DIMS(x4) = p;
  DIMS(v4) = u;
  x[i] = x4;
  v[i] = v4;
}
