// The neighbour grid and lists return exactly the brute-force neighbour sets, and the
// half lists (each pair once) exactly its pairs j > i.
#include "sph/neighbour_list.h"
#include "sph/neighbourhood.h"
#include "sph/particle_sort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>

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
  p.addChannel(tag);
  sortByCell(grid, p);
  for (std::size_t i = 0; i < 500; ++i) {
    EXPECT_EQ(p.v[i], 2.0 * p.x[i]);
    EXPECT_EQ(p.m[i], p.x[i].x + 10.0 * p.x[i].y);
    EXPECT_EQ(tag[i], 3.0 * p.x[i].y);
  }
  for (std::size_t i = 1; i < 500; ++i)
    EXPECT_LE(grid.flatten(grid.cellOf(p.x[i - 1])), grid.flatten(grid.cellOf(p.x[i])));
}

// The particle set owns the arrays a solver registers: a reorder permutes every one of
// them, skips those not in use yet (empty), and refuses one of another length (it would
// be mis-ordered silently); resize keeps those in use at one value per particle; a copy
// of the set does not hold the original's registrations.
TEST(ParticleChannels, ReorderResizeAndCopyKeepRegisteredArraysInStep) {
  ParticleSet<2> p;
  p.resize(4);
  std::vector<double> rho{10.0, 11.0, 12.0, 13.0}, unused;
  std::vector<Vec2> old{Vec2(0.0), Vec2(1.0), Vec2(2.0), Vec2(3.0)};
  for (std::size_t i = 0; i < 4; ++i) p.x[i] = Vec2(static_cast<double>(i));
  p.addChannel(rho);
  p.addChannel(old);
  p.addChannel(unused);
  p.addChannel(rho);  // again: still reordered once
  EXPECT_EQ(p.channels.count(), 3u);
  const std::vector<std::uint32_t> order{3, 1, 0, 2};
  p.reorder(order);
  for (std::size_t k = 0; k < 4; ++k) {
    EXPECT_EQ(p.x[k], Vec2(static_cast<double>(order[k])));
    EXPECT_EQ(rho[k], 10.0 + order[k]);
    EXPECT_EQ(old[k], Vec2(static_cast<double>(order[k])));
  }
  EXPECT_TRUE(unused.empty());

  ParticleSet<2> copy = p;
  EXPECT_EQ(copy.channels.count(), 0u);
  copy.reorder(order);  // must not touch p's arrays
  EXPECT_EQ(rho[0], 13.0);

  p.resize(6);
  EXPECT_EQ(rho.size(), 6u);
  EXPECT_EQ(old.size(), 6u);
  EXPECT_TRUE(unused.empty());
  rho.resize(5);
  const std::vector<std::uint32_t> six{0, 1, 2, 3, 4, 5};
  EXPECT_THROW(p.reorder(six), std::logic_error);
  p.forgetChannels();
  EXPECT_NO_THROW(p.reorder(six));
}

}  // namespace
}  // namespace sloshlab

namespace sloshlab {
namespace {

// (16.11): with a floating body's samples set, an SPH neighbourhood's boundary rows hold
// exactly the walls' samples and the body's within h + skin of each particle (against a
// brute-force search over samples()), and the samples' fluid rows are their transpose.
template <int D>
void expectBodySamplesJoined() {
  SphNeighbourhood<D> hood;
  SphLayout<D> layout;
  layout.support = 0.02, layout.spacing = 0.01, layout.box = Vec<D>(0.3);
  hood.configure(layout);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(0.0, 0.3);
  ParticleSet<D> p;
  for (int i = 0; i < 1500; ++i) {
    Vec<D> x;
    for (int k = 0; k < D; ++k) x[k] = u(rng);
    p.x.push_back(x), p.v.push_back(Vec<D>(0.0)), p.m.push_back(1.0);
  }
  p.numberInOrder();
  BodySamples<D> body;
  std::uniform_real_distribution<double> near(0.1, 0.2);
  for (int k = 0; k < 200; ++k) {
    Vec<D> x;
    for (int a = 0; a < D; ++a) x[a] = near(rng);
    body.x.push_back(x), body.v.push_back(Vec<D>(0.0)), body.owner.push_back(0);
  }
  body.centre = {Vec<D>(0.15)};
  body.reach = {0.05 * std::sqrt(double(D))};
  body.impulse.assign(body.x.size(), Vec<D>(0.0));
  hood.setBodies(&body);
  hood.update(p, {.wallToFluid = true});
  const auto samples = hood.samples();
  ASSERT_EQ(samples.size(), hood.walls().size() + body.size());
  const double reach = layout.support + hood.skin();
  for (std::size_t b = hood.firstBodySample(); b < samples.size(); ++b)
    ASSERT_EQ(samples[b], body.x[hood.bodySample(b)]);
  std::vector<std::vector<std::uint32_t>> fluidOf(samples.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    std::vector<std::uint32_t> got(hood.boundary()[i].begin(), hood.boundary()[i].end()), want;
    std::sort(got.begin(), got.end());
    for (std::uint32_t b = 0; b < samples.size(); ++b)
      if (lengthSquared<D>(p.x[i] - samples[b]) < reach * reach) want.push_back(b);
    ASSERT_EQ(got, want) << "particle " << i;
    for (std::uint32_t b : hood.boundary()[i]) fluidOf[b].push_back(static_cast<std::uint32_t>(i));
  }
  for (std::size_t b = hood.firstBodySample(); b < samples.size(); ++b) {
    std::vector<std::uint32_t> got(hood.wallFluid()[b].begin(), hood.wallFluid()[b].end());
    ASSERT_EQ(got, fluidOf[b]) << "sample " << b;
  }
  // Without the body, the walls alone again.
  hood.setBodies(nullptr);
  hood.update(p, {.wallToFluid = true});
  EXPECT_EQ(hood.samples().size(), hood.walls().size());
}

TEST(SphNeighbourhood, JoinsTheBodiesSamplesAfterTheWalls) {
  expectBodySamplesJoined<2>();
  expectBodySamplesJoined<3>();
}

}  // namespace
}  // namespace sloshlab
