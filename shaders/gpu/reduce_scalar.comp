// One per-particle scalar reduced: over s = values[i][component], the sum and the largest
// of max(s, 0), and the largest s; per work group (pass 0), then over the groups (pass 1),
// in a fixed tree. The DFSPH sweeps' stopping test reads these three numbers.
layout(local_size_x = 128) in;
layout(std430, binding = 1) readonly buffer Values { vec4 values[]; };
layout(std430, binding = 2) buffer Partials { vec4 partial[]; };
layout(std430, binding = 3) writeonly buffer Result { vec4 result[]; };
uniform int pass;
uniform int component;
uniform uint groups;

shared vec4 s[128];

vec4 combine(vec4 a, vec4 b) { return vec4(a.x + b.x, max(a.y, b.y), max(a.z, b.z), 0.0); }

void main() {
  uint t = gl_LocalInvocationID.x;
  vec4 value = vec4(0.0, 0.0, -3.0e38, 0.0);
  if (pass == 0) {
    uint i = gl_GlobalInvocationID.x;
    if (i < n) {
      float q = values[i][component];
      value = vec4(max(q, 0.0), max(q, 0.0), q, 0.0);
    }
  } else {
    for (uint g = t; g < groups; g += 128u) value = combine(value, partial[g]);
  }
  s[t] = value;
  for (uint d = 64u; d > 0u; d >>= 1) {
    barrier();
    if (t < d) s[t] = combine(s[t], s[t + d]);
  }
  barrier();
  if (t == 0u) {
    if (pass == 0) partial[gl_WorkGroupID.x] = s[0];
    else result[0] = s[0];
  }
}
