// SymmetricPairCache: each pair stored once, its term handed to both particles, gives
// the same per-particle sums as a brute-force loop over all neighbours, and the same
// bits for 1 and 2 threads (the blocks and their carries do not depend on the threads).
#include "sph/neighbour_list.h"
#include "sph/particle_sort.h"
#include "sph/symmetric_pairs.h"

#include <omp.h>

#include <gtest/gtest.h>

#include <random>

namespace sloshlab {
namespace {

// A jittered lattice of `side`^D points at spacing d, sorted by cell, with h = 2 d.
template <int D>
struct Cloud {
  std::vector<Vec<D>> x;
  std::vector<double> a;  // a per-particle value for the antisymmetric term
  CubicSpline<D> kernel{0.02};
  NeighbourList half;

  explicit Cloud(int side) {
    const double d = 0.01;
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> jitter(-0.2 * d, 0.2 * d), value(-1.0, 1.0);
    const Vec<D> box(side * d);
    IVec<D> c(0);
    for (bool more = true; more;) {
      Vec<D> p;
      for (int k = 0; k < D; ++k) p[k] = (c[k] + 0.5) * d + jitter(rng);
      x.push_back(p);
      a.push_back(value(rng));
      more = false;
      for (int k = 0; k < D && !more; ++k) {
        if (++c[k] < side) more = true;
        else c[k] = 0;
      }
    }
    // Lists reach beyond h, as with a neighbour skin: the cache keeps only r < h.
    const double reach = 1.2 * kernel.h;
    NeighbourGrid<D> grid;
    grid.configure(Vec<D>(0.0), box, reach);
    ParticleSet<D> p;
    p.resize(x.size());
    p.x = x;
    p.addChannel(a);
    sortByCell(grid, p);
    x = p.x;
    half.buildLaterHalf<D>(grid, x, reach);
  }
};

template <int D>
struct Sums {
  std::vector<double> weight;  // sum_j W_ij (symmetric term)
  std::vector<Vec<D>> push;    // sum_j (a_i + a_j) V gradW_ij (antisymmetric term)
  std::size_t pairs = 0;
};

template <int D>
Sums<D> cachedSums(const Cloud<D>& cloud, double volume, int threads) {
  const int before = omp_get_max_threads();
  omp_set_num_threads(threads);
  SymmetricPairCache<D> cache;
  cache.build(cloud.half, cloud.x, cloud.kernel, volume, false);
  Sums<D> s;
  s.weight.resize(cloud.x.size());
  s.push.resize(cloud.x.size());
  cache.sum(s.weight, [](std::uint32_t, std::uint32_t, const auto&, float w, double& wi, double& wj) {
    wi += w, wj += w;
  });
  const auto& a = cloud.a;
  cache.sum(s.push,
            [&a](std::uint32_t i, std::uint32_t j, const auto& g, float, Vec<D>& pi, Vec<D>& pj) {
              const Vec<D> term = (a[i] + a[j]) * Vec<D>(g);
              pi += term, pj -= term;
            });
  s.pairs = cache.totalPairs();
  omp_set_num_threads(before);
  return s;
}

template <int D>
void expectBruteForceSums(int side) {
  const Cloud<D> cloud(side);
  const std::size_t n = cloud.x.size();
  ASSERT_GT(n, 4 * SymmetricPairCache<D>::kMinBlock);  // several blocks, with carries
  const double volume = 1e-4;
  const Sums<D> one = cachedSums<D>(cloud, volume, 1), two = cachedSums<D>(cloud, volume, 2);

  const double h2 = cloud.kernel.h * cloud.kernel.h;
  std::size_t pairs = 0;
  double worstWeight = 0.0, worstPush = 0.0, scalePush = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    double weight = 0.0;
    Vec<D> push(0.0);
    for (std::size_t j = 0; j < n; ++j) {
      const Vec<D> r = cloud.x[i] - cloud.x[j];
      if (j == i || lengthSquared<D>(r) >= h2) continue;
      ++pairs;
      weight += cloud.kernel.W(r);
      push += (cloud.a[i] + cloud.a[j]) * volume * cloud.kernel.gradW(r);
    }
    worstWeight = std::max(worstWeight, std::abs(one.weight[i] - weight) / cloud.kernel.W0());
    worstPush = std::max(worstPush, glm::length(one.push[i] - push));
    scalePush = std::max(scalePush, glm::length(push));
    ASSERT_EQ(one.weight[i], two.weight[i]) << "particle " << i;
    ASSERT_EQ(one.push[i], two.push[i]) << "particle " << i;
  }
  EXPECT_EQ(2 * one.pairs, pairs);
  // Stored in single precision: a few float roundings per term.
  EXPECT_LT(worstWeight, 1e-5);
  EXPECT_LT(worstPush, 1e-5 * scalePush);
  EXPECT_GT(scalePush, 0.0);
}

TEST(SymmetricPairCache, MatchesBruteForceSums2D) { expectBruteForceSums<2>(110); }
TEST(SymmetricPairCache, MatchesBruteForceSums3D) { expectBruteForceSums<3>(24); }

}  // namespace
}  // namespace sloshlab

namespace sloshlab {
namespace {

// buildAndSum gives what build and then sum give, bit for bit, for 1 and 2 threads: the
// pair cache is the same and every sum adds the same stored values in the same order.
template <int D>
void expectFusedBuildMatches(int side) {
  const Cloud<D> cloud(side);
  const double volume = 1e-4;
  const auto term = [&a = cloud.a](std::uint32_t i, std::uint32_t j, const auto& g, float w, Vec<D>& pi, Vec<D>& pj) {
    const Vec<D> t = (a[i] + a[j]) * Vec<D>(g) + static_cast<double>(w) * Vec<D>(1.0);
    pi += t, pj -= t;
  };
  const int before = omp_get_max_threads();
  for (int threads : {1, 2}) {
    omp_set_num_threads(threads);
    SymmetricPairCache<D> separate, fused;
    separate.build(cloud.half, cloud.x, cloud.kernel, volume, false);
    std::vector<Vec<D>> expected(cloud.x.size()), got(cloud.x.size());
    separate.sum(expected, term);
    fused.buildAndSum(cloud.half, cloud.x, cloud.kernel, volume, false, got, term);
    EXPECT_EQ(fused.totalPairs(), separate.totalPairs());
    for (std::size_t i = 0; i < cloud.x.size(); ++i)
      ASSERT_EQ(got[i], expected[i]) << threads << " threads, particle " << i;
    // The fused cache's own sums are the separate ones too.
    std::vector<Vec<D>> again(cloud.x.size());
    fused.sum(again, term);
    for (std::size_t i = 0; i < cloud.x.size(); ++i)
      ASSERT_EQ(again[i], expected[i]) << threads << " threads, particle " << i;
  }
  omp_set_num_threads(before);
}

TEST(SymmetricPairCache, FusedBuildAndSumMatchesSeparatePasses2D) { expectFusedBuildMatches<2>(110); }
TEST(SymmetricPairCache, FusedBuildAndSumMatchesSeparatePasses3D) { expectFusedBuildMatches<3>(24); }

}  // namespace
}  // namespace sloshlab
