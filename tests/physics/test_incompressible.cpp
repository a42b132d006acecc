// DFSPH's colour fields. Its hydrostatic tanks and its dam break are rows of the
// every-solver tests (test_hydrostatic.cpp, test_dam_break.cpp).
#include "support/test_support.h"

#include "sloshlab/solver.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

namespace sloshlab {
namespace {

// The vorticity colour field (curl v from the solver's pairs, each stored once): a rigid
// rotation v = Omega x (x - c) has curl 2 Omega. Particles a support away from the
// walls and the surface have full neighbourhoods and must read it within 3 %.
template <int D>
void expectCurlOfRigidRotation(double spacing) {
  test::SimSpec spec;
  spec.scene = "hydrostatic";
  spec.solver = "dfsph";
  spec.spacing = spacing;
  auto sim = test::makeSim<D>(spec);
  sim->step(0.0);  // builds the pairs
  auto& p = sim->particles();
  const double omega = 1.5, h = sim->solver().interactionRadius();
  Vec<D> lo(1e9), hi(-1e9);
  for (const Vec<D>& x : p.x) lo = glm::min(lo, x), hi = glm::max(hi, x);
  const Vec<D> c = 0.5 * (lo + hi);
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Vec<D> r = p.x[i] - c;
    p.v[i] = Vec<D>(0.0);
    p.v[i].x = -omega * r.y, p.v[i].y = omega * r.x;  // about the z axis
  }
  std::vector<float> curl;
  ASSERT_TRUE(sim->field(FieldKind::Vorticity, curl));
  int inside = 0;
  double worst = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    bool interior = true;
    for (int k = 0; k < D; ++k) interior = interior && p.x[i][k] > lo[k] + h && p.x[i][k] < hi[k] - h;
    if (!interior) continue;
    ++inside;
    worst = std::max(worst, std::abs(curl[i] / (2.0 * omega) - 1.0));
  }
  std::printf("[ figures  ] dfsph %dD vorticity of a rigid rotation: %d interior particles, worst error %.3f %%\n", D,
              inside, 100.0 * worst);
  EXPECT_GT(inside, 50);
  EXPECT_LT(worst, 0.03);
}

TEST(DfsphFields, VorticityOfARigidRotation2D) { expectCurlOfRigidRotation<2>(0.01); }
TEST(DfsphFields, VorticityOfARigidRotation3D) { expectCurlOfRigidRotation<3>(0.01); }

}  // namespace
}  // namespace sloshlab
