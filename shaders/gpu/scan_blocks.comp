// Exclusive prefix sum, level 1 (cell_sort.cpp): each work group scans 2 x 256 values in
// shared memory (Blelloch's up- and down-sweep) and leaves its total in blockSum.
layout(local_size_x = 256) in;
layout(std430, binding = 1) readonly buffer In { uint values[]; };
layout(std430, binding = 2) writeonly buffer Out { uint prefix[]; };
layout(std430, binding = 3) writeonly buffer Blocks { uint blockSum[]; };
uniform uint count;

shared uint s[512];

void main() {
  uint t = gl_LocalInvocationID.x;
  uint base = gl_WorkGroupID.x * 512u;
  s[2u * t] = base + 2u * t < count ? values[base + 2u * t] : 0u;
  s[2u * t + 1u] = base + 2u * t + 1u < count ? values[base + 2u * t + 1u] : 0u;
  uint offset = 1u;
  for (uint d = 256u; d > 0u; d >>= 1) {
    barrier();
    if (t < d) {
      uint a = offset * (2u * t + 1u) - 1u, b = offset * (2u * t + 2u) - 1u;
      s[b] += s[a];
    }
    offset <<= 1;
  }
  if (t == 0u) {
    blockSum[gl_WorkGroupID.x] = s[511];
    s[511] = 0u;
  }
  for (uint d = 1u; d < 512u; d <<= 1) {
    offset >>= 1;
    barrier();
    if (t < d) {
      uint a = offset * (2u * t + 1u) - 1u, b = offset * (2u * t + 2u) - 1u;
      uint held = s[a];
      s[a] = s[b];
      s[b] += held;
    }
  }
  barrier();
  if (base + 2u * t < count) prefix[base + 2u * t] = s[2u * t];
  if (base + 2u * t + 1u < count) prefix[base + 2u * t + 1u] = s[2u * t + 1u];
}
