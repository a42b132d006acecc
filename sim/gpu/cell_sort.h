// The neighbour grid of the GPU path: a counting sort of the particles by cell, rebuilt
// every sub-step (design.md, "The GPU path"):
//   count    each particle's cell and its rank there (an atomic increment),
//   scan     the cells' starts, an exclusive prefix sum over the counts (scan_blocks.comp,
//            recursively over the blocks' totals, then scan_add.comp),
//   scatter  the new order: slot start(cell) + rank,
//   order    within each cell, by the particles' numbers (x.w), so that the order, and
//            every sum over neighbours after it, is the same from run to run.
// The solver then gathers its arrays into the new order (gather) and builds the
// neighbour lists of its sweeps (buildLists). Cells are the box's, of size h (1 + skin)
// (neighbours.glsl).
#pragma once

#include "compute.h"

#include <vector>

namespace sloshlab::gpu {

class CellSort {
 public:
  explicit CellSort(int dim);

  // Sorts n particles by the cell of x (vec4s, numbers in w) on the grid of the bound
  // Step block with `cells` cells; afterwards order() maps new slots to old indices and
  // cellStarts() holds cells + 1 starts.
  void sort(const Buffer& x, std::size_t n, std::size_t cells);
  // out[k] = in[order[k]] for one or two vec4 arrays of n.
  void gather(const Buffer& inA, Buffer& outA, const Buffer* inB, Buffer* outB, std::size_t n) const;

  // For each of n particles at x (sorted), the neighbours within one cell size
  // (neighbour_list.comp), `capacity` entries each (the Step block's listCapacity); then
  // bindNeighbours().
  void buildLists(const Buffer& x, std::size_t n, std::uint32_t capacity);
  // The cells' starts and the lists at the bindings of neighbours.glsl (7, 8, 9).
  void bindNeighbours() const;
  // List entries per particle for cells `cellsPerSpacing` particle spacings wide: room
  // for 1.6 times the neighbours within a cell size on the rest lattice (pi c^2 or
  // 4/3 pi c^3; gpu-pbf 3D, c = 2.4 s: 58, room 96; gpu-dfsph 3D, c = 2 s: 34, room 64),
  // a multiple of 16. A particle squeezed past that walks the cells.
  static std::uint32_t listCapacity(int dim, double cellsPerSpacing);

  const Buffer& order() const { return m_order; }
  const Buffer& cellStarts() const { return m_starts; }
  const Buffer& listCounts() const { return m_listCount; }
  const Buffer& lists() const { return m_list; }

 private:
  // Exclusive prefix sum of `count` values of `in` into `out` (levels of 512).
  void scan(const Buffer& in, Buffer& out, std::size_t count, std::size_t level);

  ComputeProgram m_count, m_scanBlocks, m_scanAdd, m_scatter, m_orderCells, m_gather, m_listBuild;
  Buffer m_counts, m_starts, m_cell, m_rank, m_order, m_listCount, m_list;
  std::vector<Buffer> m_blockSums, m_blockOffsets;  // per scan level
};

}  // namespace sloshlab::gpu
