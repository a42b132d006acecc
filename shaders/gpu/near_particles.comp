// The particles near the floating bodies (sim/gpu/device_bodies.h, NearParticles):
//   pass 0  each particle within one of the spheres (centre; radius in w) appends its
//           place to the list (list[0] counts them, the places follow);
//   pass 1  the listed particles, the list sorted by the host, into compact (x, v);
//   pass 2  compact back into x and v (x keeps its w, the particle's number);
//   pass 3  each particle outside every sphere (the distance taken across y) raises its
//           column's top, list[column] = max(bits of y, as uint) + 1 (0: an empty
//           column): columns `width` wide along x (and z in 3D), columnsX of them in a row.
layout(local_size_x = 128) in;
layout(std430, binding = 1) buffer Positions { vec4 x[]; };
layout(std430, binding = 2) buffer Velocities { vec4 v[]; };
layout(std430, binding = 3) readonly buffer Spheres { vec4 sphere[]; };
layout(std430, binding = 4) buffer List { uint list[]; };
layout(std430, binding = 5) buffer Compact { vec4 compact[]; };
uniform int pass;
uniform uint items;    // particles (pass 0) or listed particles (1, 2)
uniform uint spheres;
uniform vec4 lo, hi;   // the spheres' bounds
uniform float width;   // pass 3: the columns'
uniform uint columnsX, columnsZ;

void main() {
  uint k = gl_GlobalInvocationID.x;
  if (k >= items) return;
  if (pass == 0) {
    VecD p = DIMS(x[k]);
    for (int a = 0; a < DIM; ++a)
      if (p[a] < lo[a] || p[a] > hi[a]) return;
    for (uint s = 0u; s < spheres; ++s) {
      VecD r = p - DIMS(sphere[s]);
      if (dot(r, r) < sphere[s].w * sphere[s].w) {
        list[1u + atomicAdd(list[0], 1u)] = k;
        return;
      }
    }
  } else if (pass == 1) {
    uint i = list[k];
    compact[2u * k] = x[i];
    compact[2u * k + 1u] = v[i];
  } else if (pass == 2) {
    uint i = list[k];
    x[i] = vec4(compact[2u * k].xyz, x[i].w);
    v[i] = compact[2u * k + 1u];
  } else {
    VecD p = DIMS(x[k]);
    for (uint s = 0u; s < spheres; ++s) {
      VecD r = p - DIMS(sphere[s]);
      r.y = 0.0;
      if (dot(r, r) < sphere[s].w * sphere[s].w) return;
    }
    uint cx = uint(clamp(int(floor(p.x / width)), 0, int(columnsX) - 1));
    uint cz = DIM == 3 ? uint(clamp(int(floor(p[DIM - 1] / width)), 0, int(columnsZ) - 1)) : 0u;
    atomicMax(list[cx + columnsX * cz], floatBitsToUint(max(p.y, 0.0)) + 1u);
  }
}
