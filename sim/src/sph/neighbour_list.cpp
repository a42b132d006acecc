#include "sph/neighbour_list.h"

#include <algorithm>

namespace sloshlab {

template <int D, class Visit>
void NeighbourList::fill(std::span<const Vec<D>> sources, std::span<const Vec<D>> queries, double radius,
                         bool sameSet, Visit&& visit) {
  const std::size_t n = queries.size();
  const double r2 = radius * radius;
  m_start.assign(n + 1, 0);
  // Fixed chunks of queries, each thread first on its own share and then on what the
  // others left (a VM's two threads do not always run at the same speed; block_cursor.h);
  // each chunk fills its own rows, which are then joined in query order, so the lists
  // do not depend on the threads.
  const std::size_t chunks = std::clamp<std::size_t>(n / 128, 1, 64);
  if (m_chunkRows.size() < chunks) m_chunkRows.resize(chunks);
#pragma omp parallel
  {
    BlockCursor::Claims claims(m_cursor, static_cast<int>(chunks));
    for (int chunk; (chunk = claims.next()) >= 0;) {
      const std::size_t c = static_cast<std::size_t>(chunk);
      const std::size_t begin = n * c / chunks, end = n * (c + 1) / chunks;
      std::vector<std::uint32_t>& rows = m_chunkRows[c];
      std::size_t used = 0;
      for (std::size_t i = begin; i < end; ++i) {
        const Vec<D> xi = queries[i];
        const std::size_t before = used;
        visit(i, [&](std::uint32_t b, std::uint32_t e) {
          // Every candidate is written and the cursor advances only for a neighbour: no
          // branch to mispredict on the roughly one-in-three hit rate.
          if (rows.size() < used + (e - b)) rows.resize(2 * (used + (e - b)));
          std::uint32_t* out = rows.data();
          for (std::uint32_t j = b; j < e; ++j) {
            const Vec<D> d = xi - sources[j];
            out[used] = j;
            used += (lengthSquared<D>(d) < r2) & !(sameSet && j == i);
          }
        });
        m_start[i + 1] = static_cast<std::uint32_t>(used - before);
      }
    }
  }
  m_cursor.reset();
  for (std::size_t i = 0; i < n; ++i) m_start[i + 1] += m_start[i];
  m_index.resize(m_start[n]);
#pragma omp parallel for schedule(static)
  for (std::size_t c = 0; c < chunks; ++c) {
    const std::size_t begin = n * c / chunks, end = n * (c + 1) / chunks;
    std::copy(m_chunkRows[c].begin(), m_chunkRows[c].begin() + (m_start[end] - m_start[begin]),
              m_index.begin() + m_start[begin]);
  }
}

template <int D>
void NeighbourList::build(const NeighbourGrid<D>& grid, std::span<const Vec<D>> sources,
                          std::span<const Vec<D>> queries, double radius, bool sameSet) {
  fill<D>(sources, queries, radius, sameSet,
          [&](std::size_t i, auto&& emit) { grid.forEachCandidateRange(queries[i], emit); });
}

template <int D>
void NeighbourList::buildOutsideBox(const NeighbourGrid<D>& grid, std::span<const Vec<D>> sources,
                                    std::span<const Vec<D>> queries, double radius, const Vec<D>& box) {
  fill<D>(sources, queries, radius, false, [&](std::size_t i, auto&& emit) {
    const Vec<D>& q = queries[i];
    bool deep = true;
    for (int k = 0; k < D; ++k) deep = deep && q[k] >= radius && q[k] <= box[k] - radius;
    if (!deep) grid.forEachCandidateRange(q, emit);
  });
}

template <int D>
void NeighbourList::buildNear(const NeighbourGrid<D>& grid, std::span<const Vec<D>> sources,
                              std::span<const Vec<D>> queries, double radius, std::span<const std::uint8_t> near) {
  fill<D>(sources, queries, radius, false, [&](std::size_t i, auto&& emit) {
    if (near[i]) grid.forEachCandidateRange(queries[i], emit);
  });
}

template <int D>
void NeighbourList::buildLaterHalf(const NeighbourGrid<D>& grid, std::span<const Vec<D>> x, double radius) {
  fill<D>(x, x, radius, false, [&](std::size_t i, auto&& emit) {
    grid.forEachLaterCandidateRange(x[i], static_cast<std::uint32_t>(i), emit);
  });
}

void NeighbourList::join(const NeighbourList& a, const NeighbourList& b, std::uint32_t offset) {
  const std::size_t n = a.size();
  m_start.assign(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) m_start[i + 1] = m_start[i] + static_cast<std::uint32_t>(a[i].size() + b[i].size());
  m_index.resize(m_start[n]);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t* out = m_index.data() + m_start[i];
    for (std::uint32_t j : a[i]) *out++ = j;
    for (std::uint32_t j : b[i]) *out++ = j + offset;
  }
}

void NeighbourList::stack(const NeighbourList& a, const NeighbourList& b, std::uint32_t offset) {
  const std::size_t na = a.size(), nb = b.size();
  m_start.assign(na + nb + 1, 0);
  for (std::size_t i = 0; i < na; ++i) m_start[i + 1] = m_start[i] + static_cast<std::uint32_t>(a[i].size());
  for (std::size_t i = 0; i < nb; ++i) m_start[na + i + 1] = m_start[na + i] + static_cast<std::uint32_t>(b[i].size());
  m_index.resize(m_start[na + nb]);
  std::copy(a.m_index.begin(), a.m_index.end(), m_index.begin());
  for (std::size_t k = 0; k < b.m_index.size(); ++k) m_index[a.m_index.size() + k] = b.m_index[k] + offset;
}

void NeighbourList::transpose(const NeighbourList& rows, std::size_t columns) {
  m_start.assign(columns + 1, 0);
  for (std::uint32_t j : rows.m_index) ++m_start[j + 1];
  for (std::size_t c = 0; c < columns; ++c) m_start[c + 1] += m_start[c];
  m_index.resize(m_start[columns]);
  std::vector<std::uint32_t> cursor(m_start.begin(), m_start.end() - 1);
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::uint32_t j : rows[i]) m_index[cursor[j]++] = static_cast<std::uint32_t>(i);
}

template void NeighbourList::build<2>(const NeighbourGrid<2>&, std::span<const Vec<2>>, std::span<const Vec<2>>,
                                      double, bool);
template void NeighbourList::build<3>(const NeighbourGrid<3>&, std::span<const Vec<3>>, std::span<const Vec<3>>,
                                      double, bool);
template void NeighbourList::buildOutsideBox<2>(const NeighbourGrid<2>&, std::span<const Vec<2>>,
                                                std::span<const Vec<2>>, double, const Vec<2>&);
template void NeighbourList::buildOutsideBox<3>(const NeighbourGrid<3>&, std::span<const Vec<3>>,
                                                std::span<const Vec<3>>, double, const Vec<3>&);
template void NeighbourList::buildNear<2>(const NeighbourGrid<2>&, std::span<const Vec<2>>, std::span<const Vec<2>>,
                                          double, std::span<const std::uint8_t>);
template void NeighbourList::buildNear<3>(const NeighbourGrid<3>&, std::span<const Vec<3>>, std::span<const Vec<3>>,
                                          double, std::span<const std::uint8_t>);
template void NeighbourList::buildLaterHalf<2>(const NeighbourGrid<2>&, std::span<const Vec<2>>, double);
template void NeighbourList::buildLaterHalf<3>(const NeighbourGrid<3>&, std::span<const Vec<3>>, double);

}  // namespace sloshlab
