// Counting sort, pass 5: two particle arrays reordered, out[k] = in[order[k]].
layout(local_size_x = 128) in;
layout(std430, binding = 1) readonly buffer Order { uint order[]; };
layout(std430, binding = 2) readonly buffer InA { vec4 inA[]; };
layout(std430, binding = 3) writeonly buffer OutA { vec4 outA[]; };
layout(std430, binding = 4) readonly buffer InB { vec4 inB[]; };
layout(std430, binding = 5) writeonly buffer OutB { vec4 outB[]; };
uniform int streams;

void main() {
  uint k = gl_GlobalInvocationID.x;
  if (k >= n) return;
  uint i = order[k];
  outA[k] = inA[i];
  if (streams > 1) outB[k] = inB[i];
}
