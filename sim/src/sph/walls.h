// The walls of the SPH solvers (WCSPH, DFSPH, PBF): the container's boundary samples
// (boundary_samples.h) seen from the fluid, through the particle -> sample pairs
// closer than h (pair_cache.h, SphPairCache).
//
//   wallSums            per particle, sum_b W_ib and B_i = sum_b V_b gradW_ib: the walls'
//                       share of the density (6.1), (7.2) and of its gradient (DFSPH, PBF)
//   WallExtrapolation   a value at the samples extrapolated from the fluid next to them,
//                       [Ada12] Eq. 27: DFSPH's wall stiffness (6.5)
//
// WCSPH's walls (4.10)-(4.11) are the same extrapolation, but in double precision over
// sample -> fluid lists of their own (wcsph.cpp): over these single-precision pairs its
// settled 3D tank's largest speed read 4.6 cm/s (3.1 cm/s recorded before), past its
// bound of 4.2 cm/s (tests/physics/test_hydrostatic.cpp).
//
//   [Ada12] S. Adami, X. Y. Hu, N. A. Adams, "A generalized wall boundary condition for
//           smoothed particle hydrodynamics", J. Comput. Phys. 231:7057-7075, 2012.
//           doi:10.1016/j.jcp.2012.05.005
#pragma once

#include "sph/pair_cache.h"
#include "sloshlab/container.h"

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace sloshlab {

template <int D>
struct WallSums {
  double weight = 0.0;  // sum_b W_ib
  Vec<D> grad{0.0};     // B_i = sum_b V_b gradW_ib
};

// Particle i's sums over its samples closer than h, in the row's order. `pairs` holds
// V_b gradW_ib (built with the samples' volume V_b).
template <int D>
WallSums<D> wallSums(const SphPairCache<D>& pairs, std::size_t i) {
  WallSums<D> s;
  const auto grads = pairs.gradients(i);
  const auto weights = pairs.weights(i);
  for (std::size_t k = 0; k < grads.size(); ++k) s.weight += weights[k], s.grad += Vec<D>(grads[k]);
  return s;
}

// A per-particle value q_f carried to the boundary samples ([Ada12] Eq. 27):
//     q_b = max( sum_f W_bf q_f / sum_f W_bf  +  a_b . sum_f W_bf (x_b - x_f) / sum_f W_bf , 0 ),
// a_b the body acceleration at the sample (gravity and the frame's terms). Only
// samples within h of some particle ("active") get a value. The sample -> particle pairs are the transpose of the particle -> sample
// pairs (W is symmetric): the samples need no neighbour search of their own.
template <int D>
class WallExtrapolation {
 public:
  // The samples' fluid neighbours with W_bf, sum_f W_bf and the hydrostatic term, from
  // the particle -> sample pairs of the positions x.
  void build(const SphPairCache<D>& pairs, std::span<const Vec<D>> x, std::span<const Vec<D>> samples,
             const FrameMotion<D>& frame) {
    const std::int64_t nb = static_cast<std::int64_t>(samples.size());
    const std::int64_t n = static_cast<std::int64_t>(x.size());
    m_start.assign(nb + 1, 0);
    for (std::int64_t i = 0; i < n; ++i)
      for (std::uint32_t b : pairs.neighbours(i)) ++m_start[b + 1];
    m_active.clear();
    for (std::int64_t b = 0; b < nb; ++b) {
      if (m_start[b + 1] > 0) m_active.push_back(static_cast<std::uint32_t>(b));
      m_start[b + 1] += m_start[b];
    }
    m_fluid.resize(m_start[nb]);
    m_w.resize(m_start[nb]);
    m_cursor.assign(m_start.begin(), m_start.end() - 1);
    for (std::int64_t i = 0; i < n; ++i) {
      const auto neighbours = pairs.neighbours(i);
      const auto weights = pairs.weights(i);
      for (std::size_t k = 0; k < neighbours.size(); ++k) {
        const std::uint32_t slot = m_cursor[neighbours[k]]++;
        m_fluid[slot] = static_cast<std::uint32_t>(i);
        m_w[slot] = weights[k];
      }
    }
    m_sumW.assign(nb, 0.0);
    m_hydro.assign(nb, 0.0);
    const std::int64_t active = static_cast<std::int64_t>(m_active.size());
#pragma omp parallel for schedule(static)
    for (std::int64_t a = 0; a < active; ++a) {
      const std::uint32_t b = m_active[a];
      double sumW = 0.0;
      Vec<D> sumR(0.0);
      for (std::uint32_t k = m_start[b]; k < m_start[b + 1]; ++k) {
        const std::uint32_t f = m_fluid[k];
        const double w = m_w[k];
        sumW += w;
        sumR += w * (samples[b] - x[f]);
      }
      m_sumW[b] = sumW;
      if (sumW > 0.0) m_hydro[b] = glm::dot(frame.acceleration(samples[b], Vec<D>(0.0)), sumR) / sumW;
    }
  }

  // set(b, q_b) for every active sample b (in parallel), from the particles' q; without
  // `hydrostatic`, the extrapolated q alone.
  template <class Set>
  void extrapolate(std::span<const double> q, bool hydrostatic, Set&& set) const {
    const std::int64_t active = static_cast<std::int64_t>(m_active.size());
#pragma omp parallel for schedule(static)
    for (std::int64_t a = 0; a < active; ++a) {
      const std::uint32_t b = m_active[a];
      double value = 0.0;
      if (m_sumW[b] > 0.0) {
        double sum = 0.0;
        for (std::uint32_t k = m_start[b]; k < m_start[b + 1]; ++k) sum += m_w[k] * q[m_fluid[k]];
        value = std::max(sum / m_sumW[b] + (hydrostatic ? m_hydro[b] : 0.0), 0.0);
      }
      set(b, value);
    }
  }

  std::span<const std::uint32_t> activeSamples() const { return m_active; }
  double sumW(std::size_t b) const { return m_sumW[b]; }  // sum_f W_bf (0: no fluid within h)

 private:
  std::vector<std::uint32_t> m_start, m_cursor, m_fluid, m_active;  // sample b's pairs: [m_start[b], m_start[b + 1])
  std::vector<float> m_w;                                           // W_bf of those pairs
  std::vector<double> m_sumW, m_hydro;                              // per sample
};

}  // namespace sloshlab
