#include "sph/neighbour_grid.h"

#include <algorithm>
#include <cmath>

namespace sloshlab {

template <int D>
void NeighbourGrid<D>::configure(const Vec<D>& lo, const Vec<D>& hi, double cellSize) {
  m_lo = lo;
  m_cellSize = cellSize;
  m_invCell = 1.0 / cellSize;
  for (int k = 0; k < D; ++k) m_dims[k] = std::max(1, static_cast<int>(std::ceil((hi[k] - lo[k]) * m_invCell)));
  std::size_t cells = 1;
  for (int k = 0; k < D; ++k) cells *= static_cast<std::size_t>(m_dims[k]);
  m_cellStart.assign(cells + 1, 0);
}

template <int D>
void NeighbourGrid<D>::build(std::span<const Vec<D>> x) {
  const std::size_t n = x.size();
  m_cellOfPoint.resize(n);
  m_order.resize(n);
  const std::int64_t count = static_cast<std::int64_t>(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < count; ++i) m_cellOfPoint[i] = flatten(cellOf(x[i]));

  // Counting sort, stable: points keep their relative order inside a cell, so the
  // result does not depend on the thread count.
  std::fill(m_cellStart.begin(), m_cellStart.end(), 0u);
  for (std::size_t i = 0; i < n; ++i) ++m_cellStart[m_cellOfPoint[i] + 1];
  for (std::size_t c = 1; c < m_cellStart.size(); ++c) m_cellStart[c] += m_cellStart[c - 1];
  std::vector<std::uint32_t>& cursor = m_scratch;
  cursor.assign(m_cellStart.begin(), m_cellStart.end() - 1);
  for (std::size_t i = 0; i < n; ++i) m_order[cursor[m_cellOfPoint[i]]++] = static_cast<std::uint32_t>(i);
}

template class NeighbourGrid<2>;
template class NeighbourGrid<3>;

}  // namespace sloshlab
