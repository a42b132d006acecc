// The particle inspector (Simulation::inspect): a particle keeps its number through
// every reorder (the neighbour sort, the hybrids' binning and reseeding), and the
// inspector's neighbours and cubic-spline weights rebuild the solver's own density:
// for a WCSPH particle away from the walls, m (W(0) + sum_j W_ij) is its density
// (physics.md (4.7)) within 0.1 kg/m^3: the solver's is from the start of the last
// step, before it moved the particles by v dt (0.03 kg/m^3 in the settling tank); a
// support 1 % off would miss by several kg/m^3.
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace sloshlab::test {
namespace {

TEST(Inspector, NeighboursAndWeightsRebuildTheSolversDensity) {
  SimSpec spec;
  spec.scene = "hydrostatic";
  spec.solver = "wcsph";
  auto sim = makeSim<2>(spec);
  for (int s = 0; s < 50; ++s) sim->step(0.0);
  // A particle in the middle of the tank, more than h from every wall.
  const auto& p = sim->particles();
  const double h = sim->interactionRadius();
  std::size_t checked = 0;
  for (std::size_t i = 0; i < p.size() && checked < 20; ++i) {
    const Vec2 x = p.x[i];
    if (x.x < 2 * h || x.x > 0.2 - 2 * h || x.y < 2 * h || x.y > 0.2 - 2 * h) continue;
    ParticleInspection in;
    ASSERT_TRUE(sim->inspect(p.id[i], in));
    double sum = in.selfWeight;
    for (const InspectedNeighbour& nb : in.neighbours) sum += nb.weight;
    EXPECT_NEAR(in.mass * sum, in.density, 0.1) << "particle " << p.id[i];
    EXPECT_GE(in.neighbours.size(), 8u);  // h = 2 spacings in 2D
    for (std::size_t k = 1; k < in.neighbours.size(); ++k)
      EXPECT_LE(in.neighbours[k - 1].distance, in.neighbours[k].distance);
    ++checked;
  }
  EXPECT_EQ(checked, 20u);
}

template <int D>
void expectNumbersFollowTheParticles(const std::string& solver) {
  SimSpec spec;
  spec.solver = solver;
  spec.spacing = D == 2 ? 0.01 : 0.025;
  spec.motion = violentMotion(1.0);
  auto sim = makeSim<D>(spec);
  // Follow particle 7 by its number through 150 violent steps, and check its position
  // against where it is in the particle arrays now.
  for (int s = 0; s < 150 && !sim->failed(); ++s) sim->step(0.0);
  ASSERT_FALSE(sim->failed()) << sim->failureMessage();
  const auto& p = sim->particles();
  const std::set<std::uint32_t> unique(p.id.begin(), p.id.end());
  EXPECT_EQ(unique.size(), p.size()) << "numbers are unique";
  EXPECT_LT(*unique.rbegin(), p.nextId);
  const auto at = std::find(p.id.begin(), p.id.end(), 7u);
  ParticleInspection in;
  if (at == p.id.end()) {
    EXPECT_FALSE(sim->inspect(7, in)) << "reseeding removed it: not found";
    return;
  }
  ASSERT_TRUE(sim->inspect(7, in));
  std::vector<Vec3> x, v;
  sim->worldParticles(x, v);
  EXPECT_LT(glm::length(in.position - x[static_cast<std::size_t>(at - p.id.begin())]), 1e-12);
}

class InspectorNumbers : public ::testing::TestWithParam<std::string> {};
TEST_P(InspectorNumbers, FollowTheParticles2D) { expectNumbersFollowTheParticles<2>(GetParam()); }
TEST_P(InspectorNumbers, FollowTheParticles3D) { expectNumbersFollowTheParticles<3>(GetParam()); }

INSTANTIATE_TEST_SUITE_P(EverySolver, InspectorNumbers, ::testing::ValuesIn(allSolverNames()),
                         [](const auto& param) { return param.param; });

}  // namespace
}  // namespace sloshlab::test
