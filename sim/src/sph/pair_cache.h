// Particle -> boundary sample pairs closer than h, with V gradW and W stored once per
// step (fluid pairs, symmetric, are in symmetric_pairs.h).
#pragma once

#include "sph/smoothing_kernel.h"
#include "sph/neighbour_list.h"

#include <cstdint>
#include <span>
#include <vector>

namespace sloshlab {

// The pairs closer than h, with V gradW_ij and W_ij stored once per step: DFSPH's pressure
// solves sweep its particle -> wall sample pairs several times per step, and reading a
// stored gradient is much cheaper than recomputing a square root and the kernel
// derivative each sweep. (Fluid pairs, symmetric, are in symmetric_pairs.h.)
// Values are kept in single precision (they weigh the solver's increments, whose own
// tolerance is 1e-3); the rows follow the query order, so sums over them are the same
// for any thread count. Queries and sources may differ (fluid -> wall samples).
template <int D>
class SphPairCache {
 public:
  using FVec = glm::vec<D, float, glm::defaultp>;

  std::span<const std::uint32_t> neighbours(std::size_t i) const { return row(m_j, i); }
  std::span<const FVec> gradients(std::size_t i) const { return row(m_grad, i); }  // V gradW(x_i - x_j)
  std::span<const float> weights(std::size_t i) const { return row(m_w, i); }      // W(x_i - x_j)
  std::size_t totalPairs() const { return m_pairs; }

  // Keeps the pairs of `lists` (which may reach beyond h) that are closer than h. Rows
  // are laid out by the list sizes (an upper bound) and each is filled in one pass, so
  // one test decides each pair (a count pass and a fill pass could round r^2 at r = h
  // differently and disagree). `exact`: the lists hold only such pairs (no skin) and
  // every entry is kept; their own test decided.
  void build(const NeighbourList& lists, std::span<const Vec<D>> queries, std::span<const Vec<D>> sources,
             const CubicSpline<D>& kernel, double volume, bool exact = false) {
    const std::int64_t n = static_cast<std::int64_t>(queries.size());
    const double h2 = kernel.h * kernel.h;
    lists.rowOffsets(m_start);
    m_end.resize(n);
    m_j.resize(m_start[n]);
    m_grad.resize(m_start[n]);
    m_w.resize(m_start[n]);
    std::uint64_t kept = 0;
#pragma omp parallel for schedule(static) reduction(+ : kept)
    for (std::int64_t i = 0; i < n; ++i) {
      std::uint32_t k = m_start[i];
      for (std::uint32_t j : lists[i]) {
        const Vec<D> r = queries[i] - sources[j];
        const double r2 = lengthSquared<D>(r);
        if (!exact && r2 >= h2) continue;
        double w, factor;
        kernel.weightAndGradFactor(r2, w, factor);
        m_j[k] = j;
        m_grad[k] = FVec((volume * factor) * r);
        m_w[k] = static_cast<float>(w);
        ++k;
      }
      m_end[i] = k;
      kept += k - m_start[i];
    }
    m_pairs = kept;
  }

 private:
  template <class T>
  std::span<const T> row(const std::vector<T>& values, std::size_t i) const {
    return {values.data() + m_start[i], values.data() + m_end[i]};
  }

  std::size_t m_pairs = 0;
  std::vector<std::uint32_t> m_end;  // row i is [m_start[i], m_end[i])
  std::vector<std::uint32_t> m_start, m_j;
  std::vector<FVec> m_grad;
  std::vector<float> m_w;
};

}  // namespace sloshlab
