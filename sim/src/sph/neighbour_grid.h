// Uniform grid for neighbour search, built by counting sort (after Green 2008,
// "Particle Simulation using CUDA", and Hoetzlein 2014, "Fast fixed-radius nearest
// neighbors"). Cells are indexed row-major with x fastest, so the three cells
// (x-1, x, x+1) of one row are contiguous in sorted order: a query visits 3 ranges in
// 2D and 9 in 3D instead of 9 and 27 cells. With the cell size equal to the search
// radius, the 3^D block around a point's cell holds all its neighbours.
#pragma once

#include "sloshlab/math.h"

#include <cstdint>
#include <span>
#include <vector>

namespace sloshlab {

template <int D>
class NeighbourGrid {
 public:
  // Grid over [lo, hi] with cubic cells of side cellSize; points outside are clamped in.
  void configure(const Vec<D>& lo, const Vec<D>& hi, double cellSize);

  // Sorts points by cell. Afterwards order()[k] is the index of the k-th point in cell
  // order, and cellStart() delimits each cell's run in that order.
  void build(std::span<const Vec<D>> x);

  std::span<const std::uint32_t> order() const { return m_order; }
  std::span<const std::uint32_t> cellStart() const { return m_cellStart; }
  double cellSize() const { return m_cellSize; }
  const IVec<D>& dims() const { return m_dims; }
  std::size_t cellCount() const { return m_cellStart.empty() ? 0 : m_cellStart.size() - 1; }

  IVec<D> cellOf(const Vec<D>& x) const {
    IVec<D> c;
    for (int k = 0; k < D; ++k) {
      // Clamped before the conversion, which is undefined for NaN (a blow-up's position,
      // met before the step's checks report it) and for values beyond int's range.
      const double g = (x[k] - m_lo[k]) * m_invCell;
      c[k] = g >= 1.0 ? (g < m_dims[k] ? static_cast<int>(g) : m_dims[k] - 1) : 0;
    }
    return c;
  }
  std::uint32_t flatten(const IVec<D>& c) const {
    std::uint32_t f = static_cast<std::uint32_t>(c[D - 1]);
    for (int k = D - 2; k >= 0; --k) f = f * static_cast<std::uint32_t>(m_dims[k]) + static_cast<std::uint32_t>(c[k]);
    return f;
  }

  // Calls f(begin, end) for each run of sorted positions [begin, end) that covers the
  // cells around x's cell (valid after the points were reordered by order()).
  template <class F>
  void forEachCandidateRange(const Vec<D>& x, F&& f) const {
    const IVec<D> c = cellOf(x);
    const int x0 = c.x > 0 ? c.x - 1 : 0;
    const int x1 = c.x + 1 < m_dims.x ? c.x + 1 : m_dims.x - 1;
    if constexpr (D == 2) {
      for (int y = c.y - 1; y <= c.y + 1; ++y) {
        if (y < 0 || y >= m_dims.y) continue;
        const std::uint32_t row = static_cast<std::uint32_t>(y) * static_cast<std::uint32_t>(m_dims.x);
        f(m_cellStart[row + x0], m_cellStart[row + x1 + 1]);
      }
    } else {
      for (int z = c.z - 1; z <= c.z + 1; ++z) {
        if (z < 0 || z >= m_dims.z) continue;
        for (int y = c.y - 1; y <= c.y + 1; ++y) {
          if (y < 0 || y >= m_dims.y) continue;
          const std::uint32_t row = (static_cast<std::uint32_t>(z) * static_cast<std::uint32_t>(m_dims.y) +
                                     static_cast<std::uint32_t>(y)) * static_cast<std::uint32_t>(m_dims.x);
          f(m_cellStart[row + x0], m_cellStart[row + x1 + 1]);
        }
      }
    }
  }

  // The same, limited to the sorted positions after i, where i is x's own sorted
  // position (queries that are the sorted points themselves): the runs of earlier rows
  // hold only earlier points, and in x's own row the run starts at i + 1. Visits about
  // half the candidates, for lists that store each pair once (j > i).
  template <class F>
  void forEachLaterCandidateRange(const Vec<D>& x, std::uint32_t i, F&& f) const {
    const IVec<D> c = cellOf(x);
    const int x0 = c.x > 0 ? c.x - 1 : 0;
    const int x1 = c.x + 1 < m_dims.x ? c.x + 1 : m_dims.x - 1;
    const auto rowStart = [&](int y, int z) {
      const std::uint32_t zz = D == 3 ? static_cast<std::uint32_t>(z) : 0u;
      return (zz * static_cast<std::uint32_t>(m_dims.y) + static_cast<std::uint32_t>(y)) *
             static_cast<std::uint32_t>(m_dims.x);
    };
    const int z = D == 3 ? c[D - 1] : 0;
    const std::uint32_t own = rowStart(c.y, z);
    f(i + 1, m_cellStart[own + x1 + 1]);
    if (c.y + 1 < m_dims.y) {
      const std::uint32_t row = rowStart(c.y + 1, z);
      f(m_cellStart[row + x0], m_cellStart[row + x1 + 1]);
    }
    if constexpr (D == 3) {
      if (z + 1 >= m_dims.z) return;
      for (int y = c.y - 1; y <= c.y + 1; ++y) {
        if (y < 0 || y >= m_dims.y) continue;
        const std::uint32_t row = rowStart(y, z + 1);
        f(m_cellStart[row + x0], m_cellStart[row + x1 + 1]);
      }
    }
  }

 private:
  Vec<D> m_lo{0.0};
  IVec<D> m_dims{1};
  double m_cellSize = 1.0;
  double m_invCell = 1.0;
  std::vector<std::uint32_t> m_cellStart;
  std::vector<std::uint32_t> m_order;
  std::vector<std::uint32_t> m_cellOfPoint;
  std::vector<std::uint32_t> m_scratch;
};

}  // namespace sloshlab
