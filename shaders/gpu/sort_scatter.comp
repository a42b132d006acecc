// Counting sort, pass 3: particle i goes to slot start(cell) + rank in the new order.
layout(local_size_x = 128) in;
layout(std430, binding = 1) readonly buffer Cells { uint cell[]; };
layout(std430, binding = 2) readonly buffer Ranks { uint rank[]; };
layout(std430, binding = 3) readonly buffer Starts { uint start[]; };
layout(std430, binding = 4) writeonly buffer Order { uint order[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  order[start[cell[i]] + rank[i]] = i;
}
