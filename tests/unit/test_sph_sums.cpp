// The SPH solvers' shared sums (sph/sums.h): over the lists and over the
// pair cache, they give what the formulas give summed pair by pair (physics.md (4.7),
// (7.9), (7.10)).
#include "sph/particle_sort.h"
#include "sph/basis.h"
#include "sph/sums.h"
#include "sph/symmetric_pairs.h"

#include <gtest/gtest.h>

#include <random>

namespace sloshlab {
namespace {

// A jittered lattice of side^D particles at spacing d, sorted by cell, with full lists
// and half lists that reach beyond h (as with a Verlet skin).
template <int D>
struct Block {
  double d = 0.01;
  CubicSpline<D> kernel{2.0 * 0.01};
  ParticleSet<D> p;
  NeighbourGrid<D> grid;
  NeighbourList full, half;
  explicit Block(int side) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> jitter(-0.05 * d, 0.05 * d);
    IVec<D> c(0);
    for (bool more = true; more;) {
      Vec<D> x;
      for (int k = 0; k < D; ++k) x[k] = (c[k] + 0.5) * d + jitter(rng);
      p.x.push_back(x);
      more = false;
      for (int k = 0; k < D && !more; ++k) {
        if (++c[k] < side) more = true;
        else c[k] = 0;
      }
    }
    p.resize(p.x.size());
    const double reach = 1.2 * kernel.h;
    grid.configure(Vec<D>(0.0), Vec<D>(side * d), reach);
    sortByCell(grid, p);
    full.build<D>(grid, p.x, p.x, reach, true);
    half.buildLaterHalf<D>(grid, p.x, reach);
  }
};

// weightedKernelSum keeps the pairs closer than h only and adds them to its start.
template <int D>
void expectKernelSumMatchesBruteForce(int side) {
  Block<D> b(side);
  const double weight = 0.7, h = b.kernel.h;
  for (std::size_t i = 0; i < b.p.size(); i += 7) {
    double expected = 1.5;
    for (std::size_t j = 0; j < b.p.size(); ++j) {
      const double r = glm::length(b.p.x[i] - b.p.x[j]);
      if (j != i && r < h) expected += weight * b.kernel.W(r);
    }
    const double sum = weightedKernelSum<D>(b.full[i], b.p.x[i], b.p.x, b.kernel, weight, 1.5);
    EXPECT_NEAR(sum, expected, 1e-12 * std::abs(expected)) << D << "D, particle " << i;
  }
}

TEST(SphKernels, KernelSumMatchesBruteForce2D) { expectKernelSumMatchesBruteForce<2>(20); }
TEST(SphKernels, KernelSumMatchesBruteForce3D) { expectKernelSumMatchesBruteForce<3>(8); }

// A rigid rotation v = Omega x r has curl 2 Omega: the vorticity over the pair cache
// (pairVorticity, single precision gradients) and XSPH over it (pairXsph) agree with the
// formulas summed pair by pair over all particles (7.9), (7.10); inside the block the
// vorticity is close to 2 Omega, XSPH leaves the linear field unchanged to first order
// and the maximum speed is the brute-force one.
template <int D>
void expectRigidRotation(int side) {
  Block<D> b(side);
  const Vec3 Omega(0.0, 0.0, 3.0);
  const Vec<D> centre(0.5 * side * b.d);
  for (std::size_t i = 0; i < b.p.size(); ++i)
    b.p.v[i] = fromVec3<D>(glm::cross(Omega, toVec3<D>(b.p.x[i] - centre)));
  const double volume = calibratedMass<D>(1.0, b.d, b.kernel.h), c = 0.1, h = b.kernel.h;
  SymmetricPairCache<D> pairs;
  pairs.build(b.half, b.p.x, b.kernel, volume, false);
  std::vector<Vec3> omega(b.p.size());
  pairVorticity<D>(pairs, b.p.v, omega);
  std::vector<Vec<D>> blended;
  pairXsph<D>(pairs, b.p.v, volume, c, blended);
  int inside = 0;
  double fastest = 0.0;
  for (std::size_t i = 0; i < b.p.size(); ++i) {
    fastest = std::max(fastest, glm::length(b.p.v[i]));
    Vec3 curl(0.0);
    Vec<D> blend(0.0);
    for (std::size_t j = 0; j < b.p.size(); ++j) {
      const Vec<D> r = b.p.x[i] - b.p.x[j];
      if (j == i || glm::length(r) >= h) continue;
      curl += glm::cross(toVec3<D>(volume * b.kernel.gradW(r)), toVec3<D>(b.p.v[j] - b.p.v[i]));
      blend += (volume * b.kernel.W(glm::length(r))) * (b.p.v[j] - b.p.v[i]);
    }
    const Vec<D> xsph = b.p.v[i] + c * blend;
    EXPECT_NEAR(glm::length(curl - omega[i]), 0.0, 1e-5 * (1.0 + glm::length(curl))) << D << "D, particle " << i;
    EXPECT_NEAR(glm::length(xsph - blended[i]), 0.0, 1e-6 * (1.0 + glm::length(xsph))) << D << "D, particle " << i;
    bool interior = true;
    for (int k = 0; k < D; ++k) interior = interior && std::abs(b.p.x[i][k] - centre[k]) < 0.5 * side * b.d - h;
    if (!interior) continue;
    ++inside;
    // Within 10 %: at h = 2 spacings the lattice sum of V |gradW| r comes out 5 % above
    // its integral, D.
    EXPECT_NEAR(omega[i].z, 2.0 * Omega.z, 0.1 * 2.0 * Omega.z) << D << "D, particle " << i;
    EXPECT_NEAR(glm::length(blended[i] - b.p.v[i]), 0.0, 0.05 * glm::length(b.p.v[i]) + 1e-3) << D << "D, particle " << i;
  }
  EXPECT_GT(inside, 0);
  EXPECT_EQ(maxSpeed<D>(b.p.v), fastest);
}

TEST(SphKernels, RigidRotationHasTwiceItsRateAsVorticity2D) { expectRigidRotation<2>(20); }
TEST(SphKernels, RigidRotationHasTwiceItsRateAsVorticity3D) { expectRigidRotation<3>(10); }

}  // namespace
}  // namespace sloshlab
