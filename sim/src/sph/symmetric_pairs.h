// Each fluid pair once, for the sums that SPH sweeps many times per step.
//
// A pair term of SPH is symmetric or antisymmetric: W_ij = W_ji and
// gradW_ij = -gradW_ji, so (v_i - v_j).gradW_ij counts the same for both particles and
// (kappa_i + kappa_j) gradW_ij with opposite signs (Newton's third law). Storing the
// pairs j > i only and handing each term to both particles halves the bytes read and
// the arithmetic of every sweep.
//
// The scatter to j is made safe for threads and independent of their number with fixed
// blocks of particles: a block's own rows write to its own particles, and what they give
// to a later block goes to the block's carry buffer, added after all blocks are done in
// increasing block order. The blocks depend on the particle count only, so every sum is
// added in the same order for any thread count (tests/physics/test_determinism.cpp).
#pragma once

#include "sph/block_cursor.h"
#include "sph/smoothing_kernel.h"
#include "sph/neighbour_list.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>
#include <typeindex>
#include <vector>

namespace sloshlab {

// Real: the stored values' precision. float for the solvers that sweep the pairs many
// times a step (DFSPH, PBF: half the bytes); double for WCSPH, which reads them once and
// whose stiff pressure feels float's rounding of W (wcsph.cpp).
template <int D, class Real = float>
class SymmetricPairCache {
 public:
  using FVec = glm::vec<D, Real, glm::defaultp>;

  // Pairs of `lists` (rows j > i in increasing order, NeighbourList::buildLaterHalf,
  // which may reach beyond h) that are closer than h, with V gradW(x_i - x_j) and
  // W(x_i - x_j) in single precision (they weigh solver increments whose tolerance is
  // 1e-3). `exact`: the lists hold only pairs closer than h and all are kept.
  void build(const NeighbourList& lists, std::span<const Vec<D>> x, const CubicSpline<D>& kernel, double volume,
             bool exact) {
    std::vector<NoSum> none;
    buildAndSum(lists, x, kernel, volume, exact, none, [](auto&&...) {});
  }

  // build, and in the same pass what sum(out, term) would give over the new
  // pairs, bit for bit (the same stored values, added in the same order): the sweeps
  // that rebuild the cache every time (PBF) need their first sum without a second pass.
  template <class T, class Term>
  void buildAndSum(const NeighbourList& lists, std::span<const Vec<D>> x, const CubicSpline<D>& kernel,
                   double volume, bool exact, std::vector<T>& out, Term&& term) {
    constexpr bool summing = !std::is_same_v<T, NoSum>;
    std::vector<T>& carry = carries<T>();
    const std::int64_t n = static_cast<std::int64_t>(x.size());
    const double h2 = kernel.h * kernel.h;
    layBlocks(static_cast<std::uint32_t>(n));
    lists.rowOffsets(m_start);
    m_split.resize(n);
    m_end.resize(n);
    m_j.resize(m_start[n]);
    m_grad.resize(m_start[n]);
    m_w.resize(m_start[n]);
    const int blocks = blockCount();
    // The carries' extent from the candidates (each row's last is its largest): known
    // before the pass, so the pass can add to them.
    for (int b = 0; b < blocks; ++b) {
      std::uint32_t reach = m_blockStart[b + 1];
      for (std::uint32_t i = m_blockStart[b]; i < m_blockStart[b + 1]; ++i)
        if (!lists[i].empty()) reach = std::max(reach, lists[i].back() + 1);
      m_carryEnd[b] = reach;
      m_carryOffset[b + 1] = m_carryOffset[b] + (reach - m_blockStart[b + 1]);
    }
    if constexpr (summing) carry.resize(std::max<std::size_t>(1, m_carryOffset[blocks]));
    std::uint64_t kept = 0;
#pragma omp parallel reduction(+ : kept)
    {
      RowScratch row;
      BlockCursor::Claims claims(m_cursor, blocks);
      for (int b; (b = claims.next()) >= 0;) {
        const std::uint32_t blockBegin = m_blockStart[b], blockEnd = m_blockStart[b + 1];
        T* later = nullptr;  // later[j] for j >= blockEnd
        if constexpr (summing) {
          later = carry.data() + m_carryOffset[b] - blockEnd;
          std::fill(out.begin() + blockBegin, out.begin() + blockEnd, T(0.0));
          std::fill(carry.begin() + m_carryOffset[b], carry.begin() + m_carryOffset[b + 1], T(0.0));
        }
        for (std::uint32_t i = blockBegin; i < blockEnd; ++i) {
          // The row's pairs closer than h, gathered without a branch (the skin's extra
          // entries are overwritten), then the kernel over them in a loop the compiler
          // vectorises (several square roots and divisions at once; pair by pair, the
          // kernel had been a third of the pair cache's time).
          const auto list = lists[i];
          row.reserve(list.size());
          std::uint32_t m = 0;
          for (std::uint32_t j : list) {
            const Vec<D> r = x[i] - x[j];
            const double r2 = lengthSquared<D>(r);
            row.j[m] = j, row.r[m] = r, row.r2[m] = r2;
            m += exact || r2 < h2;
          }
          for (std::uint32_t k = 0; k < m; ++k) kernel.weightAndGradFactor(row.r2[k], row.w[k], row.factor[k]);
          // The row's stored values and, when summing, their terms: j < blockEnd comes
          // first in the row (it is sorted), as in sum. The terms read the values back
          // from the arrays: handed the local ones, g++ -O2 kept the gradient unrounded
          // in its vectorised loop and the sums differed from sum()'s in the last bits.
          const std::uint32_t start = m_start[i];
          std::uint32_t inBlock = 0;
          [[maybe_unused]] T own = out.empty() ? T(0.0) : out[i];
          for (std::uint32_t k = 0; k < m; ++k) {
            const std::uint32_t j = row.j[k];
            const FVec grad((volume * row.factor[k]) * row.r[k]);
            const Real w = static_cast<Real>(row.w[k]);
            m_j[start + k] = j, m_grad[start + k] = grad, m_w[start + k] = w;
            const bool here = j < blockEnd;
            inBlock += here;
            if constexpr (summing) term(i, j, m_grad[start + k], m_w[start + k], own, here ? out[j] : later[j]);
          }
          if constexpr (summing) out[i] = own;
          m_split[i] = start + inBlock;
          m_end[i] = start + m;
          kept += m;
        }
      }
      if constexpr (summing) {
#pragma omp barrier
        addCarries(out, carry);
      }
    }
    m_cursor.reset();
    m_pairs = kept;
  }

  std::size_t totalPairs() const { return m_pairs; }  // unordered pairs closer than h
  std::size_t particles() const { return m_end.size(); }

  // out[i] = the sum over particle i's pairs of what `term` gives it. For each stored
  // pair (i < j), term(i, j, V gradW_ij, W_ij, toI, toJ) adds particle i's share to toI
  // and particle j's to toJ.
  template <class T, class Term>
  void sum(std::vector<T>& out, Term&& term) const {
    std::vector<T>& carry = carries<T>();
    const int blocks = blockCount();
    // At least one element: with no carries (one block) data() may be null, and the
    // offsets below must not be applied to a null pointer (UBSan).
    carry.resize(std::max<std::size_t>(1, m_carryOffset[blocks]));
#pragma omp parallel
    {
      BlockCursor::Claims claims(m_cursor, blocks);
      for (int b; (b = claims.next()) >= 0;) {
        const std::uint32_t begin = m_blockStart[b], end = m_blockStart[b + 1];
        T* later = carry.data() + m_carryOffset[b] - end;  // later[j] for j >= end
        std::fill(out.begin() + begin, out.begin() + end, T(0.0));
        std::fill(carry.begin() + m_carryOffset[b], carry.begin() + m_carryOffset[b + 1], T(0.0));
        for (std::uint32_t i = begin; i < end; ++i) {
          T own = out[i];
          const std::uint32_t split = m_split[i];
          for (std::uint32_t k = m_start[i]; k < split; ++k) term(i, m_j[k], m_grad[k], m_w[k], own, out[m_j[k]]);
          for (std::uint32_t k = split; k < m_end[i]; ++k) term(i, m_j[k], m_grad[k], m_w[k], own, later[m_j[k]]);
          out[i] = own;
        }
      }
#pragma omp barrier
      addCarries(out, carry);
    }
    m_cursor.reset();
  }

  // Particle counts per block: at least kMinBlock, at most kMaxBlocks blocks, an even
  // number when more than one. Small blocks still let two threads share a small scene
  // (the default 2D bottle, 1,000 particles: 842-982 ns per particle-step on 2 threads,
  // 1,104-1,388 with blocks of at least 2,048); a block smaller than the neighbours'
  // reach in particle order only gives more of its pairs to the carries.
  static constexpr std::uint32_t kMinBlock = 256;
  static constexpr int kMaxBlocks = 12;

 private:
  struct NoSum {
    explicit NoSum(double) {}
  };

  // Inside a parallel region, after every block's pass: each block's carries added to
  // the particles of later blocks, block by block in increasing order for each particle.
  template <class T>
  void addCarries(std::vector<T>& out, const std::vector<T>& carry) const {
    const int blocks = blockCount();
    // The loop starts at block 0 (which takes nothing) so that the static split gives
    // each thread the blocks it claimed first in the pass (block_cursor.h).
#pragma omp for schedule(static)
    for (int target = 0; target < blocks; ++target) {
      const std::uint32_t begin = m_blockStart[target], end = m_blockStart[target + 1];
      for (int b = 0; b < target; ++b) {
        const std::uint32_t from = std::max(begin, m_blockStart[b + 1]), to = std::min(end, m_carryEnd[b]);
        const T* later = carry.data() + m_carryOffset[b] - m_blockStart[b + 1];
        for (std::uint32_t j = from; j < to; ++j) out[j] += later[j];
      }
    }
  }

  // One row's candidate pairs while the cache is built.
  struct RowScratch {
    std::vector<std::uint32_t> j;
    std::vector<Vec<D>> r;
    std::vector<double> r2, w, factor;
    void reserve(std::size_t size) {
      if (j.size() >= size) return;
      j.resize(size), r.resize(size), r2.resize(size), w.resize(size), factor.resize(size);
    }
  };

  int blockCount() const { return static_cast<int>(m_blockStart.size()) - 1; }

  // The carries' scratch: one buffer per value type, kept from pass to pass, so that no
  // solver keeps scratch of its own for the cache's passes.
  template <class T>
  std::vector<T>& carries() const {
    for (const CarryBuffer& buffer : m_carries)
      if (buffer.type == std::type_index(typeid(T))) return *static_cast<std::vector<T>*>(buffer.values.get());
    m_carries.push_back({std::type_index(typeid(T)), std::make_shared<std::vector<T>>()});
    return *static_cast<std::vector<T>*>(m_carries.back().values.get());
  }
  struct CarryBuffer {
    std::type_index type;
    std::shared_ptr<void> values;  // a std::vector of that type
  };
  void layBlocks(std::uint32_t n) {
    int blocks = static_cast<int>(std::min<std::uint32_t>(kMaxBlocks, std::max<std::uint32_t>(1, n / kMinBlock)));
    if (blocks > 1) blocks &= ~1;
    m_blockStart.resize(blocks + 1);
    for (int b = 0; b <= blocks; ++b)
      m_blockStart[b] = static_cast<std::uint32_t>(static_cast<std::uint64_t>(n) * b / blocks);
    m_carryEnd.assign(blocks, 0);
    m_carryOffset.assign(blocks + 1, 0);
  }

  std::size_t m_pairs = 0;
  std::vector<std::uint32_t> m_blockStart;   // block b is [m_blockStart[b], m_blockStart[b + 1])
  std::vector<std::uint32_t> m_carryEnd;     // block b gives to particles below this (its candidates' reach)
  std::vector<std::uint32_t> m_carryOffset;  // block b's carries in the scratch
  std::vector<std::uint32_t> m_start, m_split, m_end;  // row i: [start, split) in its block, then [split, end)
  std::vector<std::uint32_t> m_j;
  std::vector<FVec> m_grad;
  std::vector<Real> m_w;
  mutable BlockCursor m_cursor;  // hands the blocks to the threads in sum and buildAndSum
  mutable std::vector<CarryBuffer> m_carries;
};

}  // namespace sloshlab
