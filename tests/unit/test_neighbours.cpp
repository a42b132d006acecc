// The neighbour grid and lists return exactly the brute-force neighbour sets, and the
// half lists (each pair once) exactly its pairs j > i.
#include "neighbour_list.h"
#include "particle_sort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace sloshlab {
namespace {

template <int D>
void expectBruteForceSets(double radius, double cellSize, std::size_t n) {
  std::mt19937 rng(11);
  const Vec<D> box(1.0);
  std::uniform_real_distribution<double> u(-0.05, 1.05);  // some points outside the grid
  std::vector<Vec<D>> x(n);
  for (auto& p : x)
    for (int k = 0; k < D; ++k) p[k] = u(rng);
  x[1] = x[0];  // a coincident pair

  NeighbourGrid<D> grid;
  grid.configure(Vec<D>(0.0), box, cellSize);
  grid.build(x);
  // The order is a permutation and cells are delimited monotonically.
  std::vector<std::uint32_t> order(grid.order().begin(), grid.order().end());
  std::vector<std::uint32_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(sorted[i], i);
  EXPECT_TRUE(std::is_sorted(grid.cellStart().begin(), grid.cellStart().end()));
  EXPECT_EQ(grid.cellStart().back(), n);

  std::vector<Vec<D>> xs(n);
  for (std::size_t k = 0; k < n; ++k) xs[k] = x[order[k]];
  NeighbourList list, half;
  list.build<D>(grid, xs, xs, radius, true);
  half.buildLaterHalf<D>(grid, xs, radius);

  std::size_t pairs = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<std::uint32_t> expected;
    for (std::size_t j = 0; j < n; ++j)
      if (j != i && lengthSquared<D>(xs[i] - xs[j]) < radius * radius) expected.push_back(static_cast<std::uint32_t>(j));
    std::vector<std::uint32_t> got(list[i].begin(), list[i].end());
    std::sort(got.begin(), got.end());
    ASSERT_EQ(got, expected) << "particle " << i;
    pairs += got.size();
    // The half list: the same pairs with j > i, in increasing order as built.
    expected.erase(expected.begin(), std::upper_bound(expected.begin(), expected.end(), i));
    ASSERT_EQ(std::vector<std::uint32_t>(half[i].begin(), half[i].end()), expected) << "particle " << i;
  }
  EXPECT_EQ(list.totalPairs(), pairs);
  EXPECT_EQ(2 * half.totalPairs(), pairs);
  EXPECT_GT(pairs, n);  // the test has neighbours to find
}

TEST(NeighbourGrid, MatchesBruteForce2D) { expectBruteForceSets<2>(0.05, 0.05, 3000); }
TEST(NeighbourGrid, MatchesBruteForce3D) { expectBruteForceSets<3>(0.1, 0.1, 3000); }
TEST(NeighbourGrid, MatchesBruteForceWithLargerCells) {
  expectBruteForceSets<2>(0.03, 0.05, 2000);
  expectBruteForceSets<3>(0.07, 0.1, 2000);
}

TEST(NeighbourGrid, SortByCellPermutesEveryChannelTogether) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  ParticleSet<2> p;
  p.resize(500);
  std::vector<double> tag(500);
  for (std::size_t i = 0; i < 500; ++i) {
    p.x[i] = Vec2(u(rng), u(rng));
    p.v[i] = 2.0 * p.x[i];
    p.m[i] = p.x[i].x + 10.0 * p.x[i].y;
    tag[i] = 3.0 * p.x[i].y;
  }
  NeighbourGrid<2> grid;
  grid.configure(Vec2(0.0), Vec2(1.0), 0.1);
  sortByCell(grid, p, tag);
  for (std::size_t i = 0; i < 500; ++i) {
    EXPECT_EQ(p.v[i], 2.0 * p.x[i]);
    EXPECT_EQ(p.m[i], p.x[i].x + 10.0 * p.x[i].y);
    EXPECT_EQ(tag[i], 3.0 * p.x[i].y);
  }
  for (std::size_t i = 1; i < 500; ++i)
    EXPECT_LE(grid.flatten(grid.cellOf(p.x[i - 1])), grid.flatten(grid.cellOf(p.x[i])));
}

}  // namespace
}  // namespace sloshlab
