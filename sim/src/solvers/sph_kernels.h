// The free kernels the SPH solvers (WCSPH, DFSPH, PBF) share: sums over a particle's
// neighbours (lists or pair caches) that every phase of theirs is made of.
//
//   [MM13] M. Macklin, M. Mueller, "Position based fluids", ACM TOG 32(4), 2013.
//          doi:10.1145/2461912.2461984
#pragma once

#include "kernels.h"
#include "neighbour_list.h"
#include "symmetric_pairs.h"
#include "sloshlab/particles.h"

#include <cstdint>
#include <span>
#include <vector>

namespace sloshlab {

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

// The sums over pairs stored once: W_ij and |gradW_ij|^2 count for both particles,
// gradW_ij with opposite signs.
template <int D>
void densitySums(const SymmetricPairCache<D>& pairs, std::vector<DensitySums<D>>& out,
                 std::vector<DensitySums<D>>& carry) {
  pairs.sum(out, carry,
            [](std::uint32_t, std::uint32_t, const auto& g32, float w, DensitySums<D>& a, DensitySums<D>& b) {
              const Vec<D> g(g32);
              const double square = lengthSquared<D>(g);
              a.weight += w, a.grad += g, a.squares += square;
              b.weight += w, b.grad -= g, b.squares += square;
            });
}

// Vorticity omega_i = curl v = sum_j V gradW_ij x (v_j - v_i) ([MM13] Eq. 15; physics.md (7.9)), as a 3D
// vector (only its z component is non-zero in 2D). V is the particle volume m/rho0.
template <int D>
Vec3 vorticityAt(std::size_t i, const ParticleSet<D>& p, const NeighbourList& lists, const CubicSpline<D>& kernel,
                 double volume) {
  const double h2 = kernel.h * kernel.h;
  Vec3 omega(0.0);
  for (std::uint32_t j : lists[i]) {
    const Vec<D> r = p.x[i] - p.x[j];
    const double r2 = lengthSquared<D>(r);
    if (r2 >= h2) continue;
    omega += glm::cross(toVec3<D>((volume * kernel.gradFactor(r2)) * r), toVec3<D>(p.v[j] - p.v[i]));
  }
  return omega;
}

}  // namespace sloshlab
