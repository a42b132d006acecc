// The moments of physics.md (10.11) and one solver scalar, summed per work group (pass 0)
// and then over the groups' partial sums (pass 1), in a fixed tree: the same particles
// in the same order give the same bits. Per particle, with r = x - L/2 (container frame)
// and unit mass (the host multiplies by m): r, v, |v|^2, r x v, |r|^2, r_z r, max |v|^2,
// the non-finite count, and in 19-20 r_x r_x and r_x r_y; and of s = aux[scalar], max(s - offset, 0) summed and its max (a
// density error, (10.7)), and the largest s.
layout(local_size_x = 128) in;
layout(std430, binding = 1) readonly buffer Positions { vec4 x[]; };
layout(std430, binding = 2) readonly buffer Velocities { vec4 v[]; };
layout(std430, binding = 3) readonly buffer Aux { vec4 aux[]; };
layout(std430, binding = 4) buffer Partials { float partial[]; };
layout(std430, binding = 5) writeonly buffer Result { float result[]; };
uniform int pass;
uniform int scalar;   // the component of aux
uniform float offset;
uniform uint groups;  // pass 1: the partial records to add

#define FIELDS 21
shared float s[FIELDS * 128];

bool isMax(int f) { return f == 14 || f == 17 || f == 18; }

void main() {
  uint t = gl_LocalInvocationID.x;
  float value[FIELDS];
  for (int f = 0; f < FIELDS; ++f) value[f] = f == 18 ? -3.0e38 : 0.0;
  if (pass == 0) {
    uint i = gl_GlobalInvocationID.x;
    if (i < n) {
      vec3 r = vec3(0.0), u = vec3(0.0);
      DIMS(r) = DIMS(x[i]) - 0.5 * DIMS(box);
      DIMS(u) = DIMS(v[i]);
      vec3 rxv = cross(r, u);
      float v2 = dot(u, u), r2 = dot(r, r);
      bool bad = isnan(v2) || isinf(v2) || isnan(r2) || isinf(r2);
      value[0] = r.x, value[1] = r.y, value[2] = r.z;
      value[3] = u.x, value[4] = u.y, value[5] = u.z;
      value[6] = v2;
      value[7] = rxv.x, value[8] = rxv.y, value[9] = rxv.z;
      value[10] = r2;
      value[11] = r.z * r.x, value[12] = r.z * r.y, value[13] = r.z * r.z;
      value[14] = bad ? 0.0 : v2;
      value[15] = bad ? 1.0 : 0.0;
      float q = aux[i][scalar];
      value[16] = max(q - offset, 0.0);
      value[17] = value[16];
      value[18] = q;
      value[19] = r.x * r.x, value[20] = r.x * r.y;
    }
  } else {
    // Each thread adds its stride of the records in order, then the tree below.
    for (uint g = t; g < groups; g += 128u)
      for (int f = 0; f < FIELDS; ++f) {
        float p = partial[g * FIELDS + uint(f)];
        value[f] = isMax(f) ? max(value[f], p) : value[f] + p;
      }
  }
  for (int f = 0; f < FIELDS; ++f) s[uint(f) * 128u + t] = value[f];
  for (uint d = 64u; d > 0u; d >>= 1) {
    barrier();
    if (t < d)
      for (int f = 0; f < FIELDS; ++f) {
        uint a = uint(f) * 128u + t;
        s[a] = isMax(f) ? max(s[a], s[a + d]) : s[a] + s[a + d];
      }
  }
  barrier();
  if (t == 0u)
    for (int f = 0; f < FIELDS; ++f) {
      if (pass == 0) partial[gl_WorkGroupID.x * FIELDS + uint(f)] = s[uint(f) * 128u];
      else result[f] = s[uint(f) * 128u];
    }
}
