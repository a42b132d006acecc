// Counting sort, pass 4: within each cell, the particles in the order of their numbers
// (x.w), whatever order the atomic ranks gave them: the sort, and so every sum over
// neighbours, is the same from run to run (an insertion sort; a cell holds a few dozen).
layout(local_size_x = 128) in;
layout(std430, binding = 1) readonly buffer Positions { vec4 x[]; };
layout(std430, binding = 2) readonly buffer Starts { uint start[]; };
layout(std430, binding = 3) buffer Order { uint order[]; };
uniform uint cells;

void main() {
  uint c = gl_GlobalInvocationID.x;
  if (c >= cells) return;
  uint b = start[c], e = start[c + 1u];
  for (uint k = b + 1u; k < e; ++k) {
    uint held = order[k];
    uint key = floatBitsToUint(x[held].w);
    uint m = k;
    while (m > b && floatBitsToUint(x[order[m - 1u]].w) > key) {
      order[m] = order[m - 1u];
      --m;
    }
    order[m] = held;
  }
}
