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

// The neighbour lists built after the sort (neighbour_list.comp): for particle i, the
// particles within one cell size of it at the sort, in the order the rows above give
// them, entry k at neighbourList[k n + i]. A particle with more than listCapacity of them
// walks the rows of cells instead; either way a sweep visits its neighbours in the same
// order, so the sums do not depend on which it took.
layout(std430, binding = 8) readonly buffer NeighbourCounts { uint neighbourCount[]; };
layout(std430, binding = 9) readonly buffer NeighbourLists { uint neighbourList[]; };

struct Neighbours {
  bool listed;
  int rows;
  uint begin[MAX_ROWS], end[MAX_ROWS];
};
Neighbours neighboursOf(uint i, VecD x) {
  Neighbours s;
  uint count = neighbourCount[i];
  s.listed = count <= listCapacity;
  if (s.listed) {
    s.rows = 1;
    s.begin[0] = 0u;
    s.end[0] = count;
  } else {
    s.rows = neighbourRows(x, s.begin, s.end);
  }
  return s;
}
uint neighbourAt(Neighbours s, uint i, uint k) { return s.listed ? neighbourList[k * n + i] : k; }
