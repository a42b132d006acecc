// Counting sort, pass 1 (cell_sort.h): each particle's cell, and its rank among the
// particles of that cell counted so far (an atomic increment: any order, made
// deterministic by sort_cells.comp).
layout(local_size_x = 128) in;
layout(std430, binding = 1) readonly buffer Positions { vec4 x[]; };
layout(std430, binding = 2) buffer Counts { uint count[]; };
layout(std430, binding = 3) writeonly buffer Cells { uint cell[]; };
layout(std430, binding = 4) writeonly buffer Ranks { uint rank[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  uint c = cellIndex(cellOf(DIMS(x[i])));
  cell[i] = c;
  rank[i] = atomicAdd(count[c], 1u);
}
