// Wave gauges, docs/physics.md (11.9): a still tank's gauges read its depth; over a
// sloped surface each reads the column under it; spray above a gap and dry columns do
// not fool it.
#include "support/test_support.h"

#include "sloshlab/gauges.h"

#include <gtest/gtest.h>

namespace sloshlab::test {
namespace {

template <int D>
void expectStillTankReadsItsDepth() {
  SimSpec spec;
  spec.scene = "sloshing_tank";
  spec.solver = "dfsph";
  spec.spacing = D == 2 ? 0.005 : 0.01;  // whole layers up to the fill level
  auto sim = makeSim<D>(spec);
  // The lattice fills [0, 0.1] m: the top centres at 0.1 - s/2, the surface at 0.1 m.
  WaveGauges gauges = WaveGauges::atWallsAndCentre(0.2, sim->spacing());
  ASSERT_EQ(gauges.positions().size(), 3u);
  for (double h : gauges.heights(*sim)) EXPECT_NEAR(h, 0.1, 1e-9);
}

TEST(WaveGauges, StillTankReadsItsDepth2D) { expectStillTankReadsItsDepth<2>(); }
TEST(WaveGauges, StillTankReadsItsDepth3D) { expectStillTankReadsItsDepth<3>(); }

// The tank's particles rearranged by hand: a surface sloping from 0.06 m at x = 0 to
// 0.14 m at x = 0.2 (slope 0.4), one drop 3 cm above the surface at x = 0.05, and
// nothing at all beyond x = 0.18 (a dry strip).
TEST(WaveGauges, ReadTheColumnUnderThemAndIgnoreSpray) {
  SimSpec spec;
  spec.scene = "sloshing_tank";
  spec.solver = "pbf";
  auto sim = makeSim<2>(spec);
  const double s = sim->spacing();
  ParticleSet<2>& p = sim->particles();
  std::size_t used = 0;
  auto surface = [](double x) { return 0.06 + 0.4 * x; };
  for (double x = 0.5 * s; x < 0.18 && used < p.size(); x += s)
    for (double y = 0.5 * s; y < surface(x) && used < p.size(); y += s) p.x[used++] = Vec<2>(x, y);
  ASSERT_LT(used, p.size());
  const std::size_t drop = used++;
  p.x[drop] = Vec<2>(0.05 + 0.5 * s, surface(0.05) + 0.03);
  for (std::size_t i = used; i < p.size(); ++i) p.x[i] = p.x[i % drop];  // the rest stacked on others
  sim->particlesEdited();

  WaveGauges gauges({0.05, 0.1, 0.195});  // the first two between lattice columns
  const std::vector<double> h = gauges.heights(*sim);
  // The highest lattice centre below the surface, plus s/2: within one spacing of it.
  EXPECT_NEAR(h[0], surface(0.05), s) << "the drop 3 cm above is spray";
  EXPECT_NEAR(h[1], surface(0.1), s);
  EXPECT_EQ(h[2], 0.0) << "a dry column";
  EXPECT_GT(h[1] - h[0], 0.4 * 0.05 - s) << "the slope shows";
}

}  // namespace
}  // namespace sloshlab::test
