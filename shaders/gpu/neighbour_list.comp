// The neighbour lists of the sweeps that follow a sort (cell_sort.h, neighbours.glsl):
// for particle i, every j != i within one cell size of it now, in the order the rows of
// cells give them; the k-th at list[k n + i], so that neighbouring threads read
// neighbouring words. count[i] is the number found, which may exceed the capacity: such a
// particle's sweeps walk the cells.
layout(local_size_x = 128) in;
layout(std430, binding = 1) readonly buffer Positions { vec4 x[]; };
layout(std430, binding = 2) writeonly buffer Counts { uint countOut[]; };
layout(std430, binding = 3) writeonly buffer Lists { uint listOut[]; };

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  VecD xi = DIMS(x[i]);
  float r2max = cellSize * cellSize;
  uint found = 0u;
  uint begin[MAX_ROWS], end[MAX_ROWS];
  int rows = neighbourRows(xi, begin, end);
  for (int q = 0; q < rows; ++q)
    for (uint j = begin[q]; j < end[q]; ++j) {
      if (j == i) continue;
      VecD r = xi - DIMS(x[j]);
      if (dot(r, r) >= r2max) continue;
      if (found < listCapacity) listOut[found * n + i] = j;
      ++found;
    }
  countOut[i] = found;
}
