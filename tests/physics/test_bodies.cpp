// Floating bodies (sloshlab/bodies.h, physics.md §16): a box of half the liquid's density
// floats at its Archimedes draft (16.8) in the SPH and the grid solvers, 2D and 3D; an
// impulsively started ball in a grid solver's liquid takes the liquid's added mass with it
// (16.18); a ball of a tenth of it rises from the floor and floats at its
// draft; a box of twice the liquid's density sinks and stays on the floor; the momentum
// the bodies trade with the liquid is kept (16.6), (16.12), (16.14); under the violent
// shaking of the containment tests no particle ends inside a body and no body leaves the
// box; a state file resumes bit for bit.
#include "sloshlab/state_file.h"
#include "support/floating.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <cstdio>
#include <limits>

namespace sloshlab::test {
namespace {

// (16.8): draft d = (rho_B / rho_0) H = 0.03 m for the 0.06 m box at half the density,
// averaged over the last second of a 4 s (2D) or 3 s (3D) run. The bound is 12 % of the
// draft (0.0036 m: 0.7 spacings at 5 mm in 2D, 0.36 at 1 cm in 3D). Measured on
// 2026-11-28 with the bodies' boundary samples (16.11): 2D WCSPH +2.2 %, DFSPH +3.0 %,
// PBF -7.5 %; 3D DFSPH -0.4 %, PBF +0.5 %. Before them, with the contacts' exchange
// alone (16.5)-(16.6), the bodies floated deep (2D +3.8 % to +13.5 %, 3D +20.1 % and
// +25.8 %): the particles next to a body missed the part of their neighbourhood it holds.
// (expectArchimedes: support/floating.h.)
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

// The grid solvers (16.17)-(16.19), with a box 0.12 m wide: the 0.08 m box, barely stable
// (metacentric height 2.8 mm), rolls there by up to 0.35 rad: a grid's liquid keeps its
// heave, at twice the roll's frequency, which pumps the roll (parametric roll; the SPH
// solvers damp the heave first). The wide box (metacentric height 25 mm) floats flat.
// 2D at 2.5 mm: at 5 mm PIC's calm liquid lies in layers a spacing apart, and the draft,
// read from the top particles, was 18.7 % shallow (at 2.5 mm the box sits 5 mm lower: the
// surface the pressure sees and the particles' top differ by half a cell at 5 mm).
// Measured 2026-11-28: 2D PIC +0.7 %, FLIP +1.8 %, APIC -1.3 %; 3D at 1 cm -0.9 %,
// -2.2 %, -2.0 %.
class FloatingBoxOnAGrid : public ::testing::TestWithParam<std::string> {};
TEST_P(FloatingBoxOnAGrid, FloatsAtItsArchimedesDraft2D) { expectArchimedes<2>(GetParam(), 0.0025, 0.12, 0.12); }
TEST_P(FloatingBoxOnAGrid, FloatsAtItsArchimedesDraft3D) { expectArchimedes<3>(GetParam(), 0.01, 0.12, 0.12); }
INSTANTIATE_TEST_SUITE_P(GridSolvers, FloatingBoxOnAGrid, ::testing::Values("pic", "flip", "apic"),
                         [](const auto& param) { return param.param; });

// (16.18): a ball moving at V0 through a liquid at rest, no gravity, set going at once:
// the pressure's first impulse makes the ball and the liquid about it one system, and the
// ball keeps V = V0 M / (M + m_a), with the added mass m_a = rho0 pi r^2 of a disc (2D) and
// rho0 (2/3) pi r^3 of a ball (3D) in an unbounded liquid (Lamb, Hydrodynamics, 6th ed.
// 1932, sections 68 and 92). The walls and the surface, 0.4 m and more from a ball of
// radius r = 0.1 m (2D) or 0.22 m from r = 0.08 m (3D), add a few percent; the grid more:
// a cell whose centre the ball holds is the ball's unless it holds a particle, so the ball
// the liquid sees is up to half a cell wider (r is 5 cells in 2D, 4 in 3D). Measured
// 2026-11-28 after one step: +8.1 % (2D) and +11.8 % (3D) for all three transfers (the
// first projection comes before any transfer differs). The bound is 15 % of m_a: a grid
// solver that moved the ball alone (m_a = 0) or the liquid alone (V = 0) is far outside
// it. The ball moves along x alone, up to the 3D lattice's stagger (its layers are offset,
// so the cells about the ball are not quite mirror images): 0.2 % of V0 sideways measured,
// 1 % allowed.
template <int D>
void expectAddedMass(const std::string& solver) {
  const double r = D == 2 ? 0.1 : 0.08, L = D == 2 ? 1.0 : 0.6, rho0 = 1000.0, rhoB = 500.0, v0 = 0.1;  // v0 as in the scene
  const std::string json = R"({"name": "added_mass", "gravity": [0, 0, 0], "container": {"size": [)" +
                           std::to_string(L) + ", " + std::to_string(1.2 * L) + ", " + std::to_string(L) +
                           R"(]}, "fluid": [{"box": {"min": [0, 0, 0], "max": [)" + std::to_string(L) + ", " +
                           std::to_string(L) + ", " + std::to_string(L) + R"(]}}],
    "bodies": [{"ball": {"radius": )" + std::to_string(r) + R"(}, "density": 500, "position": [)" +
                           std::to_string(0.5 * L) + ", " + std::to_string(0.5 * L) + ", " + std::to_string(0.5 * L) +
                           R"(], "velocity": [0.1, 0, 0]}]})";
  SimSpec spec;
  spec.solver = solver;
  spec.spacing = 0.01;
  auto sim = makeSimFromJson<D>(json, spec);
  sim->step(0.0);
  ASSERT_FALSE(sim->failed()) << sim->failureMessage();
  const double volume = D == 2 ? kPi * r * r : 4.0 / 3.0 * kPi * r * r * r;
  const double mass = rhoB * volume, added = (D == 2 ? 1.0 : 0.5) * rho0 * volume;
  const double v = sim->bodies().at(0).velocity.x;
  const double measured = mass * (v0 / v - 1.0);  // m_a from V = V0 M / (M + m_a)
  std::printf("[ figures  ] %s %dD: the ball's speed %.5f m/s after a step from %.2g (sideways %.2g); added mass %.4g "
              "against %.4g (%.1f %%)\n", solver.c_str(), D, v, v0, sim->bodies().at(0).velocity.y, measured, added,
              100.0 * (measured - added) / added);
  EXPECT_NEAR(measured, added, 0.15 * added) << solver << " " << D << "D";
  EXPECT_LT(glm::length(Vec2(sim->bodies().at(0).velocity.y, sim->bodies().at(0).velocity.z)), 0.01 * v0)
      << "no sideways push in a (nearly) symmetric liquid";
}
class AddedMass : public ::testing::TestWithParam<std::string> {};
TEST_P(AddedMass, AnImpulsivelyStartedBallCarriesItsAddedMass2D) { expectAddedMass<2>(GetParam()); }
TEST_P(AddedMass, AnImpulsivelyStartedBallCarriesItsAddedMass3D) { expectAddedMass<3>(GetParam()); }
INSTANTIATE_TEST_SUITE_P(GridSolvers, AddedMass, ::testing::Values("pic", "flip", "apic"),
                         [](const auto& param) { return param.param; });

// (16.8) for a ball of radius r and density ratio q: the draft d at which the immersed cap
// holds q of its volume. 2D (a disc): the segment of half-angle a = acos(1 - d/r) has
// area r^2 (a - sin a cos a) = q pi r^2; 3D: the cap pi d^2 (3r - d)/3 = q (4/3) pi r^3.
// A ball of a tenth of the liquid's density let go one spacing above the floor of a tank
// 0.25 m deep rises, comes through the surface, and floats at its draft: the light end
// of the issue's range, where the exchange needs the share of (16.14) to stay stable.
// Measured 2026-11-28 (the draft averaged over the last second of 4 s), every solver
// floats it high: 2D WCSPH -12.5 %, DFSPH -14.3 %, PBF -33.6 % (3.2 mm, 0.6 spacings; its
// floating box too floats high, -7.5 %); 3D DFSPH -9.9 %, PBF -12.4 %. A draft of 9 mm is
// under two spacings in 2D: the bound is 35 % of it (2D 3.3 mm, 3D 4.1 mm).
class LightBall : public ::testing::TestWithParam<std::string> {};
TEST_P(LightBall, RisesFromTheFloorAndFloats2D) { expectLightBallRises<2>(GetParam(), 0.005); }
INSTANTIATE_TEST_SUITE_P(SphSolvers, LightBall, ::testing::Values("wcsph", "dfsph", "pbf"),
                         [](const auto& param) { return param.param; });

// The grid solvers, at 2.5 mm (the draft is then two cells): the 0.1 rho0 ball rises from
// the floor through the surface at about 0.5 m/s, stable without a share (its velocity is
// solved with the pressure, (16.18)); then FLIP's and APIC's liquid sloshes on for seconds
// (they keep 93-98 % of a slosh per period), and the draft read after 4 s wanders (-26 %
// to -57 % measured). So the draft is asserted for the ball let go at rest at its draft
// in a still tank: measured 2026-11-28 over the last second of 3 s, PIC -6.8 %, FLIP
// -18.5 %, APIC -18.6 %; the bound is 20 %. The ball itself sits where it should (its
// centre 0.5-1 mm above where it was let go, as the 0.9 mm the liquid it displaces lifts
// the surface); the draft is read against the top particles, which FLIP's and APIC's
// noise (up to 0.2 m/s in a still tank) lifts off the surface by about a millimetre.
template <int D>
void expectLightBallOnAGrid(const std::vector<std::string>& solvers, double r, double spacing, double bound) {
  const double q = 0.1, expected = ballDraft(D, r, q);
  const auto tank = [&](double y) {
    return R"({"name": "light_ball", "gravity": [0, -9.81, 0], "container": {"size": [0.3, 0.4, 0.3]},
      "fluid": [{"box": {"min": [0, 0, 0], "max": [0.3, 0.25, 0.3]}}],
      "bodies": [{"ball": {"radius": )" + std::to_string(r) + R"(}, "density": 100, "position": [0.15, )" +
           std::to_string(y) + "]}]}";
  };
  for (const std::string& solver : solvers) {
    SimSpec spec;
    spec.solver = solver;
    spec.spacing = spacing;
    auto rising = makeSimFromJson<D>(tank(r + 2.0 * spacing), spec);
    double highest = 0.0;
    for (double t = 1.0 / 60.0; t <= 1.5 + 1e-9; t += 1.0 / 60.0) {
      rising->advanceTo(t);
      ASSERT_FALSE(rising->failed()) << solver << " " << D << "D: " << rising->failureMessage();
      highest = std::max(highest, rising->bodies().at(0).position.y);
    }
    auto resting = makeSimFromJson<D>(tank(0.25 + r - expected), spec);
    double draft = 0.0;
    int samples = 0;
    for (double t = 1.0 / 60.0; t <= 3.0 + 1e-9; t += 1.0 / 60.0) {
      resting->advanceTo(t);
      ASSERT_FALSE(resting->failed()) << solver << " " << D << "D: " << resting->failureMessage();
      if (t > 2.0) draft += resting->bodies().at(0).draft, ++samples;
    }
    draft /= samples;
    std::printf("[ figures  ] %s %dD at %.4g m: the 0.1 rho0 ball (r %.3g m) rose to %.4f m (surface 0.25); let go "
                "at its draft it floats at %.5f m against %.5f (%.1f %%)\n", solver.c_str(), D, spacing, r, highest,
                draft, expected, 100.0 * (draft - expected) / expected);
    EXPECT_GT(highest, 0.25) << solver << ": its centre came up through the surface";
    EXPECT_NEAR(draft, expected, bound * expected) << solver;
  }
}
TEST(LightBallOnAGrid, RisesFromTheFloorAndFloatsAtItsDraft2D) {
  expectLightBallOnAGrid<2>({"pic", "flip", "apic"}, 0.03, 0.0025, 0.20);
}
// 3D: a ball of 5 cm at 5 mm (10 cells of 1 cm across; its draft of 19.6 mm two cells).
// Measured 2026-11-28: PIC -13.2 %, FLIP -11.7 %, APIC -10.4 % (at 1 cm, 5 cells across,
// FLIP read -29.3 %); the bound is 20 %. FLIP and APIC in the suite (PIC, the same
// transfer's other end, in 2D: each 3D run takes 22 s).
TEST(LightBallOnAGrid, RisesFromTheFloorAndFloatsAtItsDraft3D) {
  expectLightBallOnAGrid<3>({"flip", "apic"}, 0.05, 0.005, 0.20);
}
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

// A box of twice the liquid's density goes down and stays on the floor. With boundary
// samples (the SPH solvers) it rests on one layer of liquid, a spacing above the floor
// (16.15), which it could not squeeze out at this resolution; on a grid on a row of liquid
// cells, a cell (two spacings) above it; with the contacts alone, on the floor. Its bottom
// is asserted within a quarter spacing above that gap and never below the floor.
// It does not stay quite still: measured 2026-11-28 it rocks at up to 2-4 cm/s and its
// centre strays 0.4-6.4 mm in half a second (with the contacts alone, before the
// samples: up to 9 cm/s and 10 mm); the bound is 10 mm.
class HeavyBox : public ::testing::TestWithParam<std::string> {};
TEST_P(HeavyBox, SinksAndStaysOnTheFloor2D) { expectSinks<2>(GetParam(), 0.01); }
INSTANTIATE_TEST_SUITE_P(SphSolvers, HeavyBox, ::testing::Values("wcsph", "dfsph", "pbf"),
                         [](const auto& param) { return param.param; });
TEST(HeavyBox3D, SinksAndStaysOnTheFloor) {
  for (const char* solver : {"dfsph", "pbf"}) expectSinks<3>(solver, 0.01);
}
class HeavyBoxOnAGrid : public ::testing::TestWithParam<std::string> {};
TEST_P(HeavyBoxOnAGrid, SinksAndStaysOnTheFloor2D) { expectSinks<2>(GetParam(), 0.01, 2.0); }
TEST_P(HeavyBoxOnAGrid, SinksAndStaysOnTheFloor3D) { expectSinks<3>(GetParam(), 0.01, 2.0); }
INSTANTIATE_TEST_SUITE_P(GridSolvers, HeavyBoxOnAGrid, ::testing::Values("pic", "flip", "apic"),
                         [](const auto& param) { return param.param; });

// (16.6) keeps the momentum of each pair: without gravity, a slab of liquid thrown at a
// resting ball in the middle of a large box moves it, and the liquid's and the ball's
// momentum together stay what the liquid's was, until anything reaches a wall.
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
// The grid solvers keep a free slab's momentum exactly (no pressure in a uniform flow);
// with the ball, the projection's impulses on the liquid's faces and on the ball balance
// (16.18), but the particles take the faces' change through G2P with the particles' own
// weights, not the cells' volume, and next to the ball the face masses are short of
// rho V_f: measured 2026-11-28, the total changes by 0.7-1.6 % over the 0.25 s (2D and
// 3D, PIC, FLIP, APIC). With the ball's whole velocity on the faces inside it (before the
// free-slip continuation of (16.19)) the liquid sliding past was dragged and lost
// 2.5-7 %: the bound is 3 %.
TEST(BodyMomentum, OnAGrid) {
  for (const char* solver : {"pic", "flip", "apic"}) {
    expectMomentumKept<2>(solver, 0.03);
    expectMomentumKept<3>(solver, 0.03);
  }
}

// Under the containment tests' violent shaking, with two light bodies, a ball and a
// capsule, in the bottle: no particle ends a step deeper inside a body than the wall's
// margin (half a spacing: one squeezed between a body and a wall), none outside the box,
// and no body leaves the box.
class ShakenBodies : public ::testing::TestWithParam<std::string> {};
TEST_P(ShakenBodies, NoParticleInsideABodyAndNoBodyOutsideTheBox2D) { expectBodiesHold<2>(GetParam(), 0.015, 1.0); }
TEST_P(ShakenBodies, NoParticleInsideABodyAndNoBodyOutsideTheBox3D) { expectBodiesHold<3>(GetParam(), 0.03, 0.5); }
INSTANTIATE_TEST_SUITE_P(ParticleSolvers, ShakenBodies,
                         ::testing::Values("collisions", "toy", "wcsph", "dfsph", "pbf", "pic", "flip", "apic"),
                         [](const auto& param) { return param.param; });

// A state file carries the bodies' motion: saved after 40 steps and resumed for 40 more,
// the run is the one that never stopped, bit for bit, particles and bodies.
TEST(Bodies, AStateFileResumesBitForBit) {
  for (const char* solver : {"dfsph", "pbf", "flip", "apic"}) {
    expectBodiesResume<2>(solver);
    expectBodiesResume<3>(solver);
  }
}

// A state file's body that is not finite, not turned by a rotation or not in the
// container is refused in one line, and one thrown too fast is a blow-up (the state
// fuzz target once grew a NaN body from a finite state, which reached the contacts'
// binning). Each damage overwrites bytes of the saved centre or those after it.
TEST(Bodies, ADamagedBodyInAStateFileIsRefused) {
  SimSpec spec;
  spec.solver = "dfsph";
  spec.spacing = 0.01;
  auto sim = makeSimFromJson<2>(tankWithBox(500.0, 0.02), spec);
  for (int s = 0; s < 5; ++s) sim->step(0.0);
  const std::string good = saveState(*sim);
  const Vec3 x = sim->bodies().at(0).position;
  const double centre[2] = {x.x, x.y};
  const std::size_t at = good.find(std::string(reinterpret_cast<const char*>(centre), sizeof centre));
  ASSERT_NE(at, std::string::npos);
  ASSERT_NO_THROW(loadStateUnchecked(good, "x.state", 1e5));
  const auto refusal = [&](double value, std::size_t offset) {
    std::string damaged = good;
    std::memcpy(damaged.data() + at + offset, &value, sizeof value);
    try {
      loadStateUnchecked(damaged, "x.state", 1e5);
    } catch (const StateFileError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(refusal(nan, 0).find("a body's position is not finite"), std::string::npos);
  EXPECT_NE(refusal(-1e300, 0).find("a body's centre is outside the container"), std::string::npos);
  EXPECT_NE(refusal(5.0, 8).find("a body's centre is outside the container"), std::string::npos);
  // The orientation's first entry (after x, v (2 doubles each) and w (3)): 2 is no rotation.
  EXPECT_NE(refusal(2.0, 7 * sizeof(double)).find("a body's orientation is not a rotation"), std::string::npos);
  // A body thrown faster than the runaway speed loads as a run that blew up, and says so.
  std::string thrown = good;
  const double fast = 1e6;
  std::memcpy(thrown.data() + at + 2 * sizeof(double), &fast, sizeof fast);
  auto loaded = loadStateUnchecked(thrown, "x.state", 1e5);
  EXPECT_TRUE(loaded->failed());
  EXPECT_NE(loaded->failureMessage().find("a floating body's speed"), std::string::npos) << loaded->failureMessage();
  // A density typed past the window's slider is held to the scene's bounds, which a
  // state file checks: what the window saves, it loads.
  sim->setBodyDensity(0, 1e7);
  EXPECT_EQ(sim->bodies().at(0).spec.density, 1e5);
  EXPECT_NO_THROW(loadStateUnchecked(saveState(*sim), "x.state", 1e5));
}

}  // namespace
}  // namespace sloshlab::test
