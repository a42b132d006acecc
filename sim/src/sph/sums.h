// The SPH sums the solvers (WCSPH, DFSPH, PBF) are made of: sums over a particle's
// neighbours, either over its rows of the Verlet lists (which may reach beyond h: each
// sum keeps the pairs closer than h) or over a pair cache that holds
// each fluid pair once (symmetric_pairs.h). A solver's phase is a loop over particles
// that calls these with its own weights; the sums add in the lists' or the cache's
// order, so every sum is the same for any thread count.
//
//   sums over the lists           forNeighboursWithin, weightedKernelSum (density (4.7), (6.1))
//   sums over the pair cache      buildWithDensitySums (6.1), (6.4), (7.2)-(7.3), pairVorticity (7.9),
//                                 pairXsph (7.10)
//   pair terms                    viscosityTerm (4.13), (6.10), vorticityTerm (7.9)
//   time step                     viscousStepLimit (9.4), (9.5); the speed bound is maxSpeed
//                                 (sloshlab/particles.h)
//
//   [Mon05] J. J. Monaghan, "Smoothed particle hydrodynamics", Rep. Prog. Phys.
//           68:1703-1759, 2005 (laminar viscosity). doi:10.1088/0034-4885/68/8/R01
//   [MM13] M. Macklin, M. Mueller, "Position based fluids", ACM TOG 32(4), 2013.
//          doi:10.1145/2461912.2461984
#pragma once

#include "sph/smoothing_kernel.h"
#include "sph/neighbour_list.h"
#include "sph/symmetric_pairs.h"
#include "sloshlab/particles.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

namespace sloshlab {

// The pairs of one row of `lists` closer than h: term(j, r, r2) with r = x_i - x_j,
// r2 = |r|^2 < h^2 = h2, in the row's order. `sources` are the particles (fluid pairs)
// or the boundary samples (particle -> wall pairs); for a wall -> fluid row, x_i is the
// sample's position.
template <int D, class Term>
inline void forNeighboursWithin(std::span<const std::uint32_t> row, const Vec<D>& xi,
                                std::span<const Vec<D>> sources, double h2, Term&& term) {
  for (std::uint32_t j : row) {
    const Vec<D> r = xi - sources[j];
    const double r2 = lengthSquared<D>(r);
    if (r2 >= h2) continue;
    term(j, r, r2);
  }
}

// sum + weight sum_j W(x_i - x_j) over a row's pairs closer than h, added one by one in
// the row's order: the SPH density rho_i = sum_j m_j W_ij ((4.7); weight = m) or the
// density ratio rho~_i = sum_j V W_ij ((6.1); weight = V), with j = i in `sum`'s start
// and the boundary samples in a second call.
template <int D>
inline double weightedKernelSum(std::span<const std::uint32_t> row, const Vec<D>& xi, std::span<const Vec<D>> sources,
                                const CubicSpline<D>& kernel, double weight, double sum) {
  forNeighboursWithin<D>(row, xi, sources, kernel.h * kernel.h,
                         [&](std::uint32_t, const Vec<D>&, double r2) { sum += weight * kernel.W(std::sqrt(r2)); });
  return sum;
}

// Monaghan's laminar viscosity, the pair factor of (4.13) and (6.10) ([Mon05] Eq. 6.7):
// nu_ij (v_ij . x_ij) / (|x_ij|^2 + eps), eps = 0.01 h^2, to be multiplied by gradW_ij;
// `coefficient` carries 2 (d + 2) nu with the pair's mass and density factors.
inline double viscosityTerm(double coefficient, double vDotR, double r2, double eps) {
  return coefficient * vDotR / (r2 + eps);
}

// The explicit limits on the time step of (9.4) and (9.5): dt <= 0.125 h^2 / nu (explicit
// diffusion) and dt <= 0.5 / zeta (the explicit damping -zeta v stays stable); nu = 0 or
// zeta = 0 switches its limit off.
inline double viscousStepLimit(double dt, double h, double nu, double zeta) {
  if (nu > 0.0) dt = std::min(dt, 0.125 * h * h / nu);
  if (zeta > 0.0) dt = std::min(dt, 0.5 / zeta);
  return dt;
}

// One pair's share of the vorticity omega_i = sum_j V gradW_ij x (v_j - v_i) ((7.9),
// [MM13] Eq. 15), as a 3D vector: `gradTerm` = V gradW_ij, `dv` = v_j - v_i. The same
// for both particles of a pair (gradW and v_j - v_i both change sign).
template <int D>
inline Vec3 vorticityTerm(const Vec<D>& gradTerm, const Vec<D>& dv) {
  return glm::cross(toVec3<D>(gradTerm), toVec3<D>(dv));
}

// Per-particle sums over the fluid pairs that the density and the DFSPH / PBF Jacobi
// diagonal need: sum_j W_ij, G_i = sum_j V gradW_ij and sum_j |V gradW_ij|^2.
template <int D>
struct DensitySums {
  double weight = 0.0;
  Vec<D> grad{0.0};
  double squares = 0.0;
  DensitySums() = default;
  explicit DensitySums(double zero) : weight(zero), grad(zero), squares(zero) {}
  DensitySums& operator+=(const DensitySums& o) {
    weight += o.weight, grad += o.grad, squares += o.squares;
    return *this;
  }
};

// The pair cache of the current positions (SymmetricPairCache::build) and, in the same
// pass over the pairs, their sums: W_ij and |V gradW_ij|^2 count for both particles,
// V gradW_ij with opposite signs.
template <int D>
void buildWithDensitySums(SymmetricPairCache<D>& pairs, const NeighbourList& lists, std::span<const Vec<D>> x,
                          const CubicSpline<D>& kernel, double volume, bool exact, std::vector<DensitySums<D>>& out) {
  out.resize(x.size());
  pairs.buildAndSum(lists, x, kernel, volume, exact, out,
                    [](std::uint32_t, std::uint32_t, const auto& g32, float w, DensitySums<D>& a, DensitySums<D>& b) {
                      const Vec<D> g(g32);
                      const double square = lengthSquared<D>(g);
                      a.weight += w, a.grad += g, a.squares += square;
                      b.weight += w, b.grad -= g, b.squares += square;
                    });
}

// Vorticity omega_i = curl v = sum_j V gradW_ij x (v_j - v_i) ([MM13] Eq. 15; physics.md
// (7.9)), as a 3D vector (only its z component is non-zero in 2D), over a pair cache
// (each pair once, its stored V gradW_ij): every particle's omega_i into `omega`.
template <int D>
void pairVorticity(const SymmetricPairCache<D>& pairs, std::span<const Vec<D>> v, std::vector<Vec3>& omega) {
  pairs.sum(omega, [v](std::uint32_t i, std::uint32_t j, const auto& g, float, Vec3& a, Vec3& b) {
    const Vec3 w = vorticityTerm<D>(Vec<D>(g), v[j] - v[i]);
    a += w, b += w;
  });
}

// XSPH ([MM13] Eq. 17, physics.md (7.10)): out_i = v_i + c sum_j V (v_j - v_i) W_ij over a
// pair cache (the pair term changes sign seen from j); velocities drift towards the
// neighbourhood's.
template <int D>
void pairXsph(const SymmetricPairCache<D>& pairs, std::span<const Vec<D>> v, double volume, double c,
              std::vector<Vec<D>>& out) {
  const std::int64_t n = static_cast<std::int64_t>(v.size());
  out.resize(n);
  pairs.sum(out, [v](std::uint32_t i, std::uint32_t j, const auto&, float w, Vec<D>& a, Vec<D>& b) {
    const Vec<D> blend = static_cast<double>(w) * (v[j] - v[i]);
    a += blend, b -= blend;
  });
  const double scale = c * volume;
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) out[i] = v[i] + scale * out[i];
}

}  // namespace sloshlab
