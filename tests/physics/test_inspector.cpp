// The particle inspector (Simulation::inspect): a particle keeps its number through
// every reorder (the neighbour sort, the hybrids' binning and reseeding), and the
// inspector's neighbours and cubic-spline weights rebuild the solver's own density:
// for a WCSPH particle away from the walls, m (W(0) + sum_j W_ij) is its density
// (physics.md (4.7)) within 0.1 kg/m^3: the solver's is from the start of the last
// step, before it moved the particles by v dt (0.03 kg/m^3 in the settling tank); a
// support 1 % off would miss by several kg/m^3.
//
// For the grid solvers the inspector lists the faces of the particle's transfer stencil
// with their weights: per velocity component they sum to 1 (physics.md (3.5)) within
// 1e-12, each equals the B-spline product (3.1) evaluated here by brute force and the
// mass a one-particle P2G puts on that face over the particle's mass (the scatter's own
// weight) within 1e-12; the cells around it report the solver's pressure array exactly
// and the divergence (3.11) of its grid velocity within 1e-9 1/s.
#include "support/test_support.h"

#include "solvers/hybrid.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
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

// N(u) of physics.md (3.2)-(3.4), written out again from the formulas.
double bsplineN(const std::string& kernel, double u) {
  u = std::abs(u);
  if (kernel == "linear") return u < 1.0 ? 1.0 - u : 0.0;
  if (kernel == "quadratic") return u < 0.5 ? 0.75 - u * u : (u < 1.5 ? 0.5 * (1.5 - u) * (1.5 - u) : 0.0);
  return u < 1.0 ? 0.5 * u * u * u - u * u + 2.0 / 3.0 : (u < 2.0 ? (2.0 - u) * (2.0 - u) * (2.0 - u) / 6.0 : 0.0);
}

template <int D>
void expectGridInspectionMatchesTheSolver(const std::string& kernel) {
  SimSpec spec;
  spec.solver = "flip";
  spec.spacing = D == 2 ? 0.01 : 0.025;
  spec.overrides = {{"kernel", kernel}};
  // Turned and shifted, so that the world positions are not the container's.
  spec.motion = MotionScript::fromRows({{0.0, Vec3(0.0), 0.0}, {0.3, Vec3(0.02, 0.01, 0.0), 0.25}});
  auto sim = makeSim<D>(spec);
  for (int s = 0; s < 30 && !sim->failed(); ++s) sim->step(0.0);
  ASSERT_FALSE(sim->failed()) << sim->failureMessage();
  ASSERT_GT(std::abs(sim->container().pose.angle), 0.01);
  const auto& hybrid = dynamic_cast<const HybridSolver<D>&>(sim->solver());
  const MacGrid<D>& grid = hybrid.grid();
  const auto& p = sim->particles();
  const FrameTransform<D> frame = FrameTransform<D>::make(sim->container());
  constexpr int kWidth[] = {2, 3, 4};
  const int width = kWidth[kernel == "linear" ? 0 : kernel == "quadratic" ? 1 : 2];
  int stencil = 1;
  for (int b = 0; b < D; ++b) stencil *= width;

  // A lone particle's P2G on an identical grid: the mass on a face over its mass is the
  // weight the scatter uses.
  ParticleSet<D> lone;
  lone.resize(1);
  HybridSolver<D> single(Transfer::Flip);
  single.params().setFromText("kernel", kernel);
  SolverSetup<D> setup;
  setup.boxSize = sim->boxSize();
  setup.spacing = sim->spacing();
  single.reset(lone, setup);
  ASSERT_EQ(single.grid().cells(), grid.cells());

  double deepest = 0.0;
  int checked = 0;
  const std::size_t step = std::max<std::size_t>(1, p.size() / 12);
  for (std::size_t i = 0; i < p.size(); i += step, ++checked) {
    ParticleInspection in;
    ASSERT_TRUE(sim->inspect(p.id[i], in));
    const GridInspection& g = in.grid;
    ASSERT_EQ(g.faces.size(), static_cast<std::size_t>(D * stencil));
    const Vec<D> x = p.x[i];
    lone.x[0] = x;
    lone.v[0] = Vec<D>(0.0);
    single.transferToGrid(lone);
    double sums[3] = {0.0, 0.0, 0.0};
    for (const InspectedFace& f : g.faces) {
      IVec<D> node;
      double brute = 1.0;
      for (int b = 0; b < D; ++b) {
        node[b] = f.node[b];
        brute *= bsplineN(kernel, x[b] / grid.h()[b] - (node[b] + (b == f.component ? 0.0 : 0.5)));
      }
      sums[f.component] += f.weight;
      EXPECT_NEAR(f.weight, brute, 1e-12) << "particle " << p.id[i] << ", component " << f.component;
      const double scattered = single.gridMass()[f.component][grid.faceIndex(f.component, node)] / lone.m[0];
      EXPECT_NEAR(f.weight, scattered, 1e-12) << "particle " << p.id[i] << ", component " << f.component;
      const Vec3 world = toVec3<D>(frame.toWorld(grid.facePosition(f.component, node)));
      EXPECT_LT(glm::length(f.position - world), 1e-12);
    }
    for (int a = 0; a < D; ++a) {
      EXPECT_NEAR(sums[a], 1.0, 1e-12) << "particle " << p.id[i] << ", component " << a;
      double onGrid = 0.0;  // all of the lone particle's mass lies on the listed faces
      for (double m : single.gridMass()[a]) onGrid += m;
      EXPECT_NEAR(onGrid / lone.m[0], 1.0, 1e-12);
    }

    ASSERT_GE(g.cells.size(), static_cast<std::size_t>(D == 2 ? 4 : 8));  // a corner cell has 2^D - 1 neighbours
    for (int b = 0; b < D; ++b) EXPECT_EQ(g.cells[0].cell[b], grid.cellOf(x)[b]);
    for (const InspectedCell& c : g.cells) {
      IVec<D> cell;
      Vec<D> centre;
      for (int b = 0; b < D; ++b) cell[b] = c.cell[b], centre[b] = (cell[b] + 0.5) * grid.h()[b];
      EXPECT_EQ(c.pressure, hybrid.cellPressure()[grid.cellIndex(cell)]);
      EXPECT_LT(glm::length(c.position - toVec3<D>(frame.toWorld(centre))), 1e-12);
      double div = 0.0;
      for (int a = 0; a < D; ++a) {
        IVec<D> right = cell;
        right[a] += 1;
        div += (hybrid.gridVelocity()[a][grid.faceIndex(a, right)] - hybrid.gridVelocity()[a][grid.faceIndex(a, cell)]) /
               grid.h()[a];
      }
      EXPECT_NEAR(c.divergence, div, 1e-9);
      EXPECT_EQ(c.fluid, std::isfinite(c.divergenceBefore));
      deepest = std::max(deepest, c.pressure);
    }
  }
  // The pressure compared above is not all zeros: the tank's bottom holds rho g d.
  EXPECT_GT(deepest, 200.0);
  std::printf("[ figures  ] %dD %s: %d particles of %zu checked, %d faces each, container turned %.3f rad, "
              "largest cell pressure %.0f Pa\n",
              D, kernel.c_str(), checked, p.size(), D * stencil, sim->container().pose.angle, deepest);
}

class GridInspector : public ::testing::TestWithParam<std::string> {};
TEST_P(GridInspector, StencilAndCellsMatchTheSolver2D) { expectGridInspectionMatchesTheSolver<2>(GetParam()); }
TEST_P(GridInspector, StencilAndCellsMatchTheSolver3D) { expectGridInspectionMatchesTheSolver<3>(GetParam()); }
INSTANTIATE_TEST_SUITE_P(EveryKernel, GridInspector, ::testing::Values("linear", "quadratic", "cubic"),
                         [](const auto& param) { return param.param; });

TEST(GridInspector, SphSolversHaveNoGrid) {
  SimSpec spec;
  spec.solver = "wcsph";
  auto sim = makeSim<2>(spec);
  sim->step(0.0);
  ParticleInspection in;
  ASSERT_TRUE(sim->inspect(sim->particles().id[0], in));
  EXPECT_TRUE(in.grid.faces.empty());
  EXPECT_TRUE(in.grid.cells.empty());
}

}  // namespace
}  // namespace sloshlab::test
