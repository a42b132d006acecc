// Neighbour lists in compressed rows: particle i's neighbours are
// index[start[i] .. start[i+1]). Built in parallel, in fixed chunks of particles that
// each fill their own rows; the rows are then joined in particle order, so the lists
// (and every sum over them) are the same for any thread count.
#pragma once

#include "sph/block_cursor.h"
#include "sph/neighbour_grid.h"

#include <cstdint>
#include <span>
#include <vector>

namespace sloshlab {

class NeighbourList {
 public:
  std::span<const std::uint32_t> operator[](std::size_t i) const {
    return {m_index.data() + m_start[i], m_index.data() + m_start[i + 1]};
  }
  std::size_t size() const { return m_start.empty() ? 0 : m_start.size() - 1; }
  std::size_t totalPairs() const { return m_index.size(); }
  // start[i] = the number of entries in rows 0 .. i-1 (size() + 1 values): where row i
  // begins in arrays laid out by these rows' sizes.
  void rowOffsets(std::vector<std::uint32_t>& start) const {
    start.resize(size() + 1);
    start[0] = 0;
    for (std::size_t i = 0; i < size(); ++i) start[i + 1] = start[i] + static_cast<std::uint32_t>((*this)[i].size());
  }

  // For each query point, the source points within radius (strictly closer). Sources
  // must be in the grid's cell order. With sameSet, a point is not its own neighbour.
  template <int D>
  void build(const NeighbourGrid<D>& grid, std::span<const Vec<D>> sources, std::span<const Vec<D>> queries,
             double radius, bool sameSet);

  // As build for sources that all lie outside the box [0, box] (boundary samples): a
  // query inside it and at least radius from every face has none within radius, and
  // its row is left empty without a look at the grid (most of a tank's particles).
  template <int D>
  void buildOutsideBox(const NeighbourGrid<D>& grid, std::span<const Vec<D>> sources, std::span<const Vec<D>> queries,
                       double radius, const Vec<D>& box);

  // As build, for the queries with near[i] != 0 only (the others' rows stay empty).
  template <int D>
  void buildNear(const NeighbourGrid<D>& grid, std::span<const Vec<D>> sources, std::span<const Vec<D>> queries,
                 double radius, std::span<const std::uint8_t> near);

  // Row i of a followed by row i of b with offset added to b's entries (same row count).
  void join(const NeighbourList& a, const NeighbourList& b, std::uint32_t offset);
  // The rows of a, then the rows of b with offset added to b's entries.
  void stack(const NeighbourList& a, const NeighbourList& b, std::uint32_t offset);
  // The transpose of `rows` with `columns` columns: row c lists the rows holding c, in order.
  void transpose(const NeighbourList& rows, std::size_t columns);

  // Each pair once: row i holds the points j > i within radius, in increasing order.
  // The points are their own queries and must be in the grid's cell order.
  template <int D>
  void buildLaterHalf(const NeighbourGrid<D>& grid, std::span<const Vec<D>> x, double radius);

 private:
  // Fills the rows from visit(i, emit), which calls emit(begin, end) for each run of
  // candidate sources of query i.
  template <int D, class Visit>
  void fill(std::span<const Vec<D>> sources, std::span<const Vec<D>> queries, double radius, bool sameSet,
            Visit&& visit);

  std::vector<std::uint32_t> m_start;
  std::vector<std::uint32_t> m_index;
  std::vector<std::vector<std::uint32_t>> m_chunkRows;  // rows of each chunk of queries while filling
  BlockCursor m_cursor;                                  // hands the chunks to the threads
};

}  // namespace sloshlab
