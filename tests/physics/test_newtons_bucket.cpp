// Newton's bucket (physics.md (11.12)): the 3D bottle spun about the vertical at
// omega = 5 rad/s (the Motions panel's spin). Once the liquid turns with it, its free
// surface in the bottle is the paraboloid y = y0 + omega^2 r^2 / (2 g), r the distance
// from the axis. A fit y = a + b r^2 through the highest particle of each column of one
// spacing, off the walls, averaged over samples 0.25 s apart, against
// b = omega^2 / (2 g) = 1.274 1/m. The box is spun up over 1 s; the liquid follows at
// its solver's pace (its dissipation drives it), so each solver is measured once it has.
// The hybrids keep a slosh going round on top of the paraboloid (they dissipate least):
// their samples span 5 s, a few of its periods, the SPH solvers' 1 s.
#include "support/test_support.h"

#include "sloshlab/motions.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <ostream>

namespace sloshlab::test {
namespace {

struct BucketCase {
  std::string solver;
  double spinUp = 0.0;     // s of spin before the first sample
  double window = 1.0;     // s the samples span
  double tolerance = 0.1;  // of omega^2 / (2 g)
};

void PrintTo(const BucketCase& c, std::ostream* os) { *os << c.solver; }

// The curvature b of y = a + b r^2 over the columns' highest particles (container frame).
double surfaceCurvature(SimulationImpl<3>& sim, double spacing) {
  const Vec3 size = toVec3<3>(sim.boxSize());
  std::map<std::pair<int, int>, double> top;
  for (const Vec3& x : sim.particles().x) {
    const std::pair<int, int> column(static_cast<int>(x.x / spacing), static_cast<int>(x.z / spacing));
    auto it = top.find(column);
    if (it == top.end()) top.emplace(column, x.y);
    else it->second = std::max(it->second, x.y);
  }
  double n = 0, sr = 0, sh = 0, srr = 0, srh = 0;
  for (const auto& [column, y] : top) {
    const double px = (column.first + 0.5) * spacing, pz = (column.second + 0.5) * spacing;
    if (px < spacing || px > size.x - spacing || pz < spacing || pz > size.z - spacing) continue;  // off the walls
    const double r2 = (px - 0.5 * size.x) * (px - 0.5 * size.x) + (pz - 0.5 * size.z) * (pz - 0.5 * size.z);
    n += 1, sr += r2, sh += y, srr += r2 * r2, srh += r2 * y;
  }
  return (n * srh - sr * sh) / (n * srr - sr * sr);
}

class NewtonsBucket : public ::testing::TestWithParam<BucketCase> {};

TEST_P(NewtonsBucket, TheSurfaceBecomesTheParaboloid) {
  const BucketCase& c = GetParam();
  const double omega = 5.0, spacing = 0.02, expected = omega * omega / (2.0 * 9.81);
  MotionSpec spin;
  spin.kind = MotionKind::Spin;
  spin.rate = omega, spin.duration = c.spinUp + c.window + 2.0, spin.rampTime = 1.0;
  SimSpec spec;
  spec.scene = "bottle";
  spec.solver = c.solver;
  spec.spacing = spacing;
  spec.motion = makeMotion(spin, 3);
  auto sim = makeSim<3>(spec);
  const int samples = static_cast<int>(std::lround(c.window / 0.25)) + 1;
  double sum = 0.0;
  for (int k = 0; k < samples; ++k) {
    sim->advanceTo(c.spinUp + 0.25 * k);
    ASSERT_FALSE(sim->failed()) << sim->failureMessage();
    ASSERT_EQ(sim->countOutside(), 0u);
    sum += surfaceCurvature(*sim, spacing);
  }
  const double b = sum / samples;
  std::printf("[ figures  ] %s 3D bottle spun at %.0f rad/s for %.0f s: surface curvature %.3f 1/m, omega^2/(2g) = %.3f "
              "(%.1f %%)\n", c.solver.c_str(), omega, c.spinUp, b, expected, 100.0 * (b / expected - 1.0));
  EXPECT_NEAR(b, expected, c.tolerance * expected);
}

// Spin-up times from runs of each: PBF turns at the bottle's rate within 2 s, DFSPH
// (and WCSPH, left out for its cost: 31 s of wall time) within 4 s; FLIP reaches 4.5,
// 4.7 and 5.0 rad/s after 10, 20 and 40 s (its PIC share of 0.02 is what spins it up).
// The hybrids' grid at this spacing has 4 cm cells, five across the bottle's depth: a
// paraboloid that rises 8 cm from the axis to the ends is resolved coarsely, and their
// curvature reads 8-10 % low once the liquid turns with the bottle; 15 % for them.
INSTANTIATE_TEST_SUITE_P(SphAndHybrids, NewtonsBucket,
                         ::testing::Values(BucketCase{"pbf", 3.0, 1.0, 0.1}, BucketCase{"dfsph", 4.0, 1.0, 0.1},
                                           BucketCase{"pic", 12.0, 5.0, 0.15}, BucketCase{"flip", 40.0, 5.0, 0.15},
                                           BucketCase{"apic", 30.0, 5.0, 0.15}),
                         [](const auto& p) { return p.param.solver; });

}  // namespace
}  // namespace sloshlab::test
