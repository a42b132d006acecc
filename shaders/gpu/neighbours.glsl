// The neighbour search of the GPU path: the particles are sorted by the cell of the
// counting sort (cell_sort.h), so the 3 cells of a row around a particle's cell are one
// contiguous range of the sorted arrays. The cell is h (1 + skin), physics.md (13.1): a
// pair closer than h is found while the neighbour moved less than the skin since the sort.

layout(std430, binding = 7) readonly buffer CellStarts { uint cellStart[]; };

#if DIM == 2
#define MAX_ROWS 3
#else
#define MAX_ROWS 9
#endif

// The rows of cells around x's cell: row q holds the sorted particles [begin[q], end[q]).
int neighbourRows(VecD x, out uint begin[MAX_ROWS], out uint end[MAX_ROWS]) {
  IVecD c = cellOf(x);
  int x0 = max(c.x - 1, 0), x1 = min(c.x + 1, gridDims.x - 1);
  int rows = 0;
#if DIM == 2
  for (int y = max(c.y - 1, 0); y <= min(c.y + 1, gridDims.y - 1); ++y) {
    begin[rows] = cellStart[cellIndex(IVecD(x0, y))];
    end[rows] = cellStart[cellIndex(IVecD(x1, y)) + 1u];
    ++rows;
  }
#else
  for (int z = max(c.z - 1, 0); z <= min(c.z + 1, gridDims.z - 1); ++z)
    for (int y = max(c.y - 1, 0); y <= min(c.y + 1, gridDims.y - 1); ++y) {
      begin[rows] = cellStart[cellIndex(IVecD(x0, y, z))];
      end[rows] = cellStart[cellIndex(IVecD(x1, y, z)) + 1u];
      ++rows;
    }
#endif
  return rows;
}
