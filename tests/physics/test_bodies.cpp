// Floating bodies (sloshlab/bodies.h, physics.md §16): a box of half the liquid's density
// floats at its Archimedes draft (16.8) in the SPH solvers, 2D and 3D (the grid solvers
// refuse bodies for now); a ball of a tenth of it rises from the floor and floats at its
// draft; a box of twice the liquid's density sinks and stays on the floor; the momentum
// the bodies trade with the liquid is kept (16.6), (16.12), (16.14); under the violent
// shaking of the containment tests no particle ends inside a body and no body leaves the
// box; a state file resumes bit for bit.
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <cstdio>
#include <limits>

namespace sloshlab::test {
namespace {

// A tank 0.4 m wide (and 0.2 m deep in 3D) with 0.15 m of liquid, and a box 0.08 m wide
// and 0.06 m tall (0.08 m deep in 3D) of `density` let go with its bottom 5 mm above the
// surface.
std::string tankWithBox(double density, double dropFrom = 0.005) {
  const double y = 0.15 + 0.03 + dropFrom;
  return R"({"name": "floating_box_test", "gravity": [0, -9.81, 0], "container": {"size": [0.4, 0.3, 0.2]},
    "fluid": [{"box": {"min": [0, 0], "max": [0.4, 0.15]}}],
    "bodies": [{"box": {"size": [0.08, 0.06, 0.08]}, "density": )" +
         std::to_string(density) + R"(, "position": [0.2, )" + std::to_string(y) + R"(]}]})";
}

struct Settled {
  double draft = 0.0;       // mean over the last `window` seconds (m)
  double bottom = 0.0;      // mean height of the body's lowest point (m)
  double speed = 0.0;       // the body's largest speed in the window (m/s)
  double wander = 0.0;      // how far its centre strays from where it was when the window opened (m)
  double tilt = 0.0;        // the largest angle of its y axis from the vertical (rad)
};

template <int D>
Settled settle(const std::string& json, const std::string& solver, double spacing, double duration, double window) {
  SimSpec spec;
  spec.solver = solver;
  spec.spacing = spacing;
  auto sim = makeSimFromJson<D>(json, spec);
  Settled out;
  int samples = 0;
  Vec3 start(0.0);
  const double frame = 1.0 / 60.0;
  for (double t = frame; t <= duration + 1e-9; t += frame) {
    sim->advanceTo(t);
    if (sim->failed()) ADD_FAILURE() << solver << " " << D << "D: " << sim->failureMessage();
    if (sim->failed()) return out;
    if (t < duration - window) continue;
    const BodyView b = sim->bodies().at(0);
    out.draft += b.draft;
    const double half = 0.5 * std::abs(b.rotation[1].y) * 0.06 + 0.5 * std::abs(b.rotation[0].y) * 0.08 +
                        (D == 3 ? 0.5 * std::abs(b.rotation[2].y) * 0.08 : 0.0);
    out.bottom += b.position.y - half;
    out.speed = std::max(out.speed, glm::length(b.velocity));
    if (samples == 0) start = b.position;
    out.wander = std::max(out.wander, glm::length(b.position - start));
    out.tilt = std::max(out.tilt, std::acos(std::clamp(std::abs(b.rotation[1].y), 0.0, 1.0)));  // upside down is the same box
    ++samples;
  }
  out.draft /= samples;
  out.bottom /= samples;
  return out;
}

// (16.8): draft d = (rho_B / rho_0) H = 0.03 m for the 0.06 m box at half the density,
// averaged over the last second of a 4 s (2D) or 3 s (3D) run. The bound is 12 % of the
// draft (0.0036 m: 0.7 spacings at 5 mm in 2D, 0.36 at 1 cm in 3D). Measured on
// 2026-11-28 with the bodies' boundary samples (16.11): 2D WCSPH +2.2 %, DFSPH +3.0 %,
// PBF -7.5 %; 3D DFSPH -0.4 %, PBF +0.5 %. Before them, with the contacts' exchange
// alone (16.5)-(16.6), the bodies floated deep (2D +3.8 % to +13.5 %, 3D +20.1 % and
// +25.8 %): the particles next to a body missed the part of their neighbourhood it holds.
template <int D>
void expectArchimedes(const std::string& solver, double spacing, double bound) {
  const double rho0 = 1000.0;
  const Settled s = settle<D>(tankWithBox(0.5 * rho0), solver, spacing, D == 2 ? 4.0 : 3.0, 1.0);
  const double expected = 0.5 * 0.06;
  std::printf("[ figures  ] %s %dD at %.4g m: draft %.5f m against %.5f (%.1f %%), body speed <= %.3f m/s, "
              "tilt <= %.3f rad\n",
              solver.c_str(), D, spacing, s.draft, expected, 100.0 * (s.draft - expected) / expected, s.speed, s.tilt);
  EXPECT_NEAR(s.draft, expected, bound * expected) << solver << " " << D << "D";
  EXPECT_LT(s.tilt, 0.2) << "a box at half density floats flat";
}

class FloatingBox : public ::testing::TestWithParam<std::string> {};
TEST_P(FloatingBox, FloatsAtItsArchimedesDraft2D) { expectArchimedes<2>(GetParam(), 0.005, 0.12); }
INSTANTIATE_TEST_SUITE_P(SphSolvers, FloatingBox, ::testing::Values("wcsph", "dfsph", "pbf"),
                         [](const auto& param) { return param.param; });
// 3D: WCSPH takes a minute on two cores, so DFSPH and PBF alone (13.0 % measured for WCSPH
// on 2026-11-27).
class FloatingBox3D : public ::testing::TestWithParam<std::string> {};
TEST_P(FloatingBox3D, FloatsAtItsArchimedesDraft) { expectArchimedes<3>(GetParam(), 0.01, 0.12); }
INSTANTIATE_TEST_SUITE_P(SphSolvers, FloatingBox3D, ::testing::Values("dfsph", "pbf"),
                         [](const auto& param) { return param.param; });

// (16.8) for a ball of radius r and density ratio q: the draft d at which the immersed cap
// holds q of its volume. 2D (a disc): the segment of half-angle a = acos(1 - d/r) has
// area r^2 (a - sin a cos a) = q pi r^2; 3D: the cap pi d^2 (3r - d)/3 = q (4/3) pi r^3.
double ballDraft(int dim, double r, double q) {
  double lo = 0.0, hi = 2.0 * r;
  for (int k = 0; k < 100; ++k) {
    const double d = 0.5 * (lo + hi);
    const double a = std::acos(1.0 - d / r);
    const double share = dim == 2 ? (a - std::sin(a) * std::cos(a)) / kPi : d * d * (3.0 * r - d) / (4.0 * r * r * r);
    (share < q ? lo : hi) = d;
  }
  return 0.5 * (lo + hi);
}

// A ball of a tenth of the liquid's density let go one spacing above the floor of a tank
// 0.25 m deep rises, comes through the surface, and floats at its draft: the light end
// of the issue's range, where the exchange needs the share of (16.14) to stay stable.
// Measured 2026-11-28 (the draft averaged over the last second of 4 s), every solver
// floats it high: 2D WCSPH -12.5 %, DFSPH -14.3 %, PBF -33.6 % (3.2 mm, 0.6 spacings; its
// floating box too floats high, -7.5 %); 3D DFSPH -9.9 %, PBF -12.4 %. A draft of 9 mm is
// under two spacings in 2D: the bound is 35 % of it (2D 3.3 mm, 3D 4.1 mm).
template <int D>
void expectLightBallRises(const std::string& solver, double spacing) {
  const double r = 0.03, q = 0.1;
  const std::string json = R"({"name": "light_ball", "gravity": [0, -9.81, 0], "container": {"size": [0.3, 0.4, 0.2]},
    "fluid": [{"box": {"min": [0, 0], "max": [0.3, 0.25]}}],
    "bodies": [{"ball": {"radius": 0.03}, "density": 100, "position": [0.15, )" +
                           std::to_string(r + spacing) + R"(]}]})";
  SimSpec spec;
  spec.solver = solver;
  spec.spacing = spacing;
  auto sim = makeSimFromJson<D>(json, spec);
  double highest = 0.0, draft = 0.0;
  int samples = 0;
  for (double t = 1.0 / 60.0; t <= 4.0 + 1e-9; t += 1.0 / 60.0) {
    sim->advanceTo(t);
    ASSERT_FALSE(sim->failed()) << solver << " " << D << "D: " << sim->failureMessage();
    const BodyView b = sim->bodies().at(0);
    highest = std::max(highest, b.position.y);
    if (t > 3.0) draft += b.draft, ++samples;
  }
  draft /= samples;
  const double expected = ballDraft(D, r, q);
  std::printf("[ figures  ] %s %dD at %.4g m: the 0.1 rho0 ball rose to %.4f m (surface 0.25), floats at draft "
              "%.5f m against %.5f (%.1f %%)\n", solver.c_str(), D, spacing, highest, draft, expected,
              100.0 * (draft - expected) / expected);
  EXPECT_GT(highest, 0.25) << "its centre came up through the surface";
  EXPECT_NEAR(draft, expected, 0.35 * expected) << solver << " " << D << "D";
}
class LightBall : public ::testing::TestWithParam<std::string> {};
TEST_P(LightBall, RisesFromTheFloorAndFloats2D) { expectLightBallRises<2>(GetParam(), 0.005); }
INSTANTIATE_TEST_SUITE_P(SphSolvers, LightBall, ::testing::Values("wcsph", "dfsph", "pbf"),
                         [](const auto& param) { return param.param; });
// 3D: WCSPH takes minutes on two cores, so DFSPH and PBF alone.
class LightBall3D : public ::testing::TestWithParam<std::string> {};
TEST_P(LightBall3D, RisesFromTheFloorAndFloats) { expectLightBallRises<3>(GetParam(), 0.01); }
INSTANTIATE_TEST_SUITE_P(SphSolvers, LightBall3D, ::testing::Values("dfsph", "pbf"),
                         [](const auto& param) { return param.param; });

// (16.8), (16.16) for a hull: the draft d where the trapezoid below the waterline,
// b d + (a - b) d^2 / (2H), holds q of the section (a the deck, b the keel, H the height).
// A hull 10 cm across the deck, 6 cm across the keel and 4 cm high at half the liquid's
// density floats upright at d = 22.5 mm; 2D at 5 mm, the draft averaged over the last
// second of 4 s. Measured 2026-11-28: WCSPH -3.2 %, DFSPH -0.7 %, PBF -12.2 %; the bound
// is 12 % as the box's, 20 % for PBF, whose bodies float high (its samples push with the
// particle's own multiplier, as its walls do, whose hydrostatic gradient reads 18.7 % high:
// docs/decisions/pbf.md).
TEST(FloatingHull, FloatsUprightAtItsArchimedesDraft2D) {
  const double a = 0.1, b = 0.06, H = 0.04, q = 0.5;
  const double expected = (-b + std::sqrt(b * b + 2.0 * (a - b) / H * q * 0.5 * (a + b) * H)) / ((a - b) / H);
  for (const char* solver : {"wcsph", "dfsph", "pbf"}) {
    const std::string json = R"({"name": "floating_hull", "gravity": [0, -9.81, 0], "container": {"size": [0.4, 0.3, 0.2]},
      "fluid": [{"box": {"min": [0, 0], "max": [0.4, 0.15]}}],
      "bodies": [{"hull": {"size": [0.1, 0.04], "bottom": 0.06}, "density": 500, "position": [0.2, 0.175]}]})";
    SimSpec spec;
    spec.solver = solver;
    spec.spacing = 0.005;
    auto sim = makeSimFromJson<2>(json, spec);
    double draft = 0.0, tilt = 0.0;
    int samples = 0;
    for (double t = 1.0 / 60.0; t <= 4.0 + 1e-9; t += 1.0 / 60.0) {
      sim->advanceTo(t);
      ASSERT_FALSE(sim->failed()) << solver << ": " << sim->failureMessage();
      const BodyView hull = sim->bodies().at(0);
      if (t <= 3.0) continue;
      draft += hull.draft, ++samples;
      tilt = std::max(tilt, std::acos(std::clamp(hull.rotation[1].y, -1.0, 1.0)));
    }
    draft /= samples;
    std::printf("[ figures  ] %s 2D: the half-density hull floats at draft %.5f m against %.5f (%.1f %%), tilt <= %.3f rad\n",
                solver, draft, expected, 100.0 * (draft - expected) / expected, tilt);
    EXPECT_NEAR(draft, expected, (std::string(solver) == "pbf" ? 0.20 : 0.12) * expected) << solver;
    EXPECT_LT(tilt, 0.2) << solver << ": a wide hull floats upright";
  }
}

// The grid solvers refuse a body for now (a boat's liquid collapsed under it in FLIP,
// and a floating box rode 33-52 % high: docs/decisions/not_met_yet.md), in one line.
TEST(FloatingBoxOnAGrid, IsRefusedInOneLine) {
  for (const char* solver : {"pic", "flip", "apic"}) {
    SimSpec spec;
    spec.solver = solver;
    try {
      (void)makeSimFromJson<2>(tankWithBox(500.0), spec);
      ADD_FAILURE() << solver << " took a floating body";
    } catch (const std::runtime_error& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find(std::string(solver) + " does not take floating bodies yet"), std::string::npos) << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
  }
}

// A box of twice the liquid's density goes down and stays on the floor. With boundary
// samples (the SPH solvers) it rests on one layer of liquid, a spacing above the floor
// (16.15), which it could not squeeze out at this resolution; with the contacts alone, on
// the floor. Its bottom is asserted within 1.25 spacings of the floor and never below it.
// It does not stay quite still: measured 2026-11-28 it rocks at up to 2-4 cm/s and its
// centre strays 0.4-6.4 mm in half a second (with the contacts alone, before the
// samples: up to 9 cm/s and 10 mm); the bound is 10 mm.
template <int D>
void expectSinks(const std::string& solver, double spacing) {
  const Settled s = settle<D>(tankWithBox(2000.0), solver, spacing, 3.0, 0.5);
  std::printf("[ figures  ] %s %dD: the 2 rho0 box's bottom at %.4f m, its centre within %.2g m over 0.5 s "
              "(speed <= %.3f m/s)\n", solver.c_str(), D, s.bottom, s.wander, s.speed);
  EXPECT_LT(s.bottom, 1.25 * spacing) << solver << " " << D << "D";
  EXPECT_GT(s.bottom, -1e-9) << solver << " " << D << "D: through the floor";
  EXPECT_LT(s.wander, 0.010) << solver << " " << D << "D";
}
class HeavyBox : public ::testing::TestWithParam<std::string> {};
TEST_P(HeavyBox, SinksAndStaysOnTheFloor2D) { expectSinks<2>(GetParam(), 0.01); }
INSTANTIATE_TEST_SUITE_P(SphSolvers, HeavyBox, ::testing::Values("wcsph", "dfsph", "pbf"),
                         [](const auto& param) { return param.param; });
TEST(HeavyBox3D, SinksAndStaysOnTheFloor) {
  for (const char* solver : {"dfsph", "pbf"}) expectSinks<3>(solver, 0.01);
}

// (16.6) keeps the momentum of each pair: without gravity, a slab of liquid thrown at a
// resting ball in the middle of a large box moves it, and the liquid's and the ball's
// momentum together stay what the liquid's was, until anything reaches a wall.
template <int D>
void expectMomentumKept(const std::string& solver, double bound = 1e-12) {
  const std::string json = R"({"name": "momentum_test", "gravity": [0, 0, 0], "container": {"size": [1.0, 1.0, 1.0]},
    "fluid": [{"box": {"min": [0.2, 0.4, 0.4], "max": [0.3, 0.6, 0.6]}, "velocity": [1.0, 0, 0]}],
    "bodies": [{"ball": {"radius": 0.06}, "density": 300, "position": [0.45, 0.5, 0.5]}]})";
  SimSpec spec;
  spec.solver = solver;
  spec.spacing = D == 2 ? 0.01 : 0.02;
  auto sim = makeSimFromJson<D>(json, spec);
  const auto total = [&] {
    Vec<D> P = fromVec3<D>(sim->bodies().at(0).velocity) * sim->bodies().at(0).mass;
    const ParticleSet<D>& p = sim->particles();
    for (std::size_t i = 0; i < p.size(); ++i) P += p.m[i] * p.v[i];
    return P;
  };
  const Vec<D> before = total();
  sim->advanceTo(0.25);  // the slab's front reaches the ball at 0.09 s; nothing reaches a wall
  ASSERT_FALSE(sim->failed()) << sim->failureMessage();
  const Vec<D> after = total();
  const BodyView ball = sim->bodies().at(0);
  std::printf("[ figures  ] %s %dD: momentum %.6g -> %.6g (x), the ball's %.4g; |change| %.3g of it\n", solver.c_str(),
              D, before.x, after.x, ball.mass * ball.velocity.x, glm::length(after - before) / glm::length(before));
  EXPECT_GT(ball.mass * ball.velocity.x, 0.02 * before.x) << "the liquid pushed the ball";
  EXPECT_LT(glm::length(after - before), bound * glm::length(before)) << solver << " " << D << "D";
}
// The hard spheres, the toy SPH, DFSPH and PBF keep momentum to rounding without a body,
// so what is left is the coupling's: the contacts' exchange (16.6) for the first two, the
// samples' pushes (16.12) and their share (16.14) for the SPH solvers. WCSPH changes the
// momentum by 9.1e-7 of itself over the same run with the ball (measured 2026-11-28;
// 1.6e-6 with the contacts alone), and by 2e-16 without one: its own sums, which the
// ball disturbs (its laminar viscosity weighs each side by the other particle's density,
// not antisymmetric where the densities differ), not the exchange; its bound is 5e-6.
TEST(BodyMomentum, TheLiquidAndABallKeepTheirMomentumTogether) {
  for (const char* solver : {"collisions", "toy", "dfsph", "pbf"}) expectMomentumKept<2>(solver);
  expectMomentumKept<2>("wcsph", 5e-6);
  expectMomentumKept<3>("dfsph");
  expectMomentumKept<3>("pbf");  // with Chebyshev's sweeps (7.11)
}

// Under the containment tests' violent shaking, with two light bodies, a ball and a
// capsule, in the bottle: no particle ends a step deeper inside a body than the wall's
// margin (half a spacing: one squeezed between a body and a wall), none outside the box,
// and no body leaves the box.
template <int D>
void expectBodiesHold(const std::string& solver, double spacing, double duration) {
  const std::string json = R"({"name": "bodies_shaken", "gravity": [0, -9.81, 0], "container": {"size": [0.5, 0.4, 0.2]},
    "fluid": [{"box": {"min": [0, 0], "max": [0.5, 0.15]}}],
    "bodies": [{"ball": {"radius": 0.045}, "density": 100, "position": [0.15, 0.27]},
               {"capsule": {"length": 0.08, "radius": 0.035}, "density": 700, "position": [0.35, 0.27], "angle": 0.3}]})";
  SimSpec spec;
  spec.solver = solver;
  spec.spacing = spacing;
  spec.motion = violentMotion(duration);
  auto sim = makeSimFromJson<D>(json, spec);
  double deepest = -1.0;
  while (sim->time() < duration) {
    sim->step(duration);
    ASSERT_FALSE(sim->failed()) << solver << " " << D << "D: " << sim->failureMessage();
    ASSERT_EQ(sim->countOutside(), 0u) << solver << " " << D << "D at t = " << sim->time();
    const ParticleSet<D>& p = sim->particles();
    for (std::size_t i = 0; i < p.size(); ++i) {
      Vec<D> n;
      for (std::size_t k = 0; k < 2; ++k) deepest = std::max(deepest, -sim->rigidBodies().distance(k, p.x[i], n));
    }
    // A particle squeezed between a body and a wall stays at the wall's margin (16.5).
    ASSERT_LE(deepest, 0.5 * spacing * (1.0 + 1e-9)) << solver << " " << D << "D at t = " << sim->time();
    for (const BodyView& b : sim->bodies())
      for (int k = 0; k < D; ++k) {
        ASSERT_GE(b.position[k], 0.0) << "a body left the box";
        ASSERT_LE(b.position[k], sim->setup().scene.containerSize[k]) << "a body left the box";
      }
  }
  std::printf("[ figures  ] %s %dD shaken with two bodies: deepest particle inside a body %.3g m\n", solver.c_str(), D,
              deepest);
}
class ShakenBodies : public ::testing::TestWithParam<std::string> {};
TEST_P(ShakenBodies, NoParticleInsideABodyAndNoBodyOutsideTheBox2D) { expectBodiesHold<2>(GetParam(), 0.015, 1.0); }
TEST_P(ShakenBodies, NoParticleInsideABodyAndNoBodyOutsideTheBox3D) { expectBodiesHold<3>(GetParam(), 0.03, 0.5); }
INSTANTIATE_TEST_SUITE_P(ParticleSolvers, ShakenBodies,
                         ::testing::Values("collisions", "toy", "wcsph", "dfsph", "pbf"),
                         [](const auto& param) { return param.param; });

// A state file carries the bodies' motion: saved after 40 steps and resumed for 40 more,
// the run is the one that never stopped, bit for bit, particles and bodies.
template <int D>
void expectBodiesResume(const std::string& solver) {
  SimSpec spec;
  spec.solver = solver;
  spec.spacing = D == 2 ? 0.01 : 0.02;
  const auto runs = runStraightAndResumed<D>([&] { return makeSimFromJson<D>(tankWithBox(500.0, 0.02), spec); }, 40);
  ASSERT_NE(runs.resumed, nullptr);
  ASSERT_FALSE(runs.straight->failed() || runs.resumed->failed());
  EXPECT_EQ(particlesDifferingInBits<D>(runs.straight->particles(), runs.resumed->particles()), 0u)
      << solver << " " << D << "D";
  const BodyView a = runs.straight->bodies().at(0), b = runs.resumed->bodies().at(0);
  EXPECT_EQ(std::memcmp(&a.position, &b.position, sizeof a.position), 0) << solver << " " << D << "D";
  EXPECT_EQ(std::memcmp(&a.velocity, &b.velocity, sizeof a.velocity), 0) << solver << " " << D << "D";
  EXPECT_EQ(std::memcmp(&a.rotation, &b.rotation, sizeof a.rotation), 0) << solver << " " << D << "D";
}
TEST(Bodies, AStateFileResumesBitForBit) {
  for (const char* solver : {"dfsph", "pbf"}) {
    expectBodiesResume<2>(solver);
    expectBodiesResume<3>(solver);
  }
}

}  // namespace
}  // namespace sloshlab::test
