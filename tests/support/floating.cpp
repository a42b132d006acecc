#include "support/floating.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace sloshlab::test {

std::string tankWithBox(double density, double dropFrom, double width) {
  const double y = 0.15 + 0.03 + dropFrom;
  const std::string w = std::to_string(width);
  return R"({"name": "floating_box_test", "gravity": [0, -9.81, 0], "container": {"size": [0.4, 0.3, 0.2]},
    "fluid": [{"box": {"min": [0, 0], "max": [0.4, 0.15]}}],
    "bodies": [{"box": {"size": [)" + w + ", 0.06, " + w + R"(]}, "density": )" +
         std::to_string(density) + R"(, "position": [0.2, )" + std::to_string(y) + R"(]}]})";
}

template <int D>
Settled settle(const std::string& json, const std::string& solver, double spacing, double duration, double window,
               double width) {
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
    const double half = 0.5 * std::abs(b.rotation[1].y) * 0.06 + 0.5 * std::abs(b.rotation[0].y) * width +
                        (D == 3 ? 0.5 * std::abs(b.rotation[2].y) * width : 0.0);
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

template <int D>
void expectArchimedes(const std::string& solver, double spacing, double bound, double width) {
  const double rho0 = 1000.0;
  const Settled s = settle<D>(tankWithBox(0.5 * rho0, 0.005, width), solver, spacing, D == 2 ? 4.0 : 3.0, 1.0, width);
  const double expected = 0.5 * 0.06;
  std::printf("[ figures  ] %s %dD at %.4g m: draft %.5f m against %.5f (%.1f %%), body speed <= %.3f m/s, "
              "tilt <= %.3f rad\n",
              solver.c_str(), D, spacing, s.draft, expected, 100.0 * (s.draft - expected) / expected, s.speed, s.tilt);
  EXPECT_NEAR(s.draft, expected, bound * expected) << solver << " " << D << "D";
  EXPECT_LT(s.tilt, 0.2) << "a box at half density floats flat";
}

template <int D>
void expectMomentumKept(const std::string& solver, double bound) {
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

template <int D>
void expectLightBallRises(const std::string& solver, double spacing, double duration, double bound) {
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
  for (double t = 1.0 / 60.0; t <= duration + 1e-9; t += 1.0 / 60.0) {
    sim->advanceTo(t);
    ASSERT_FALSE(sim->failed()) << solver << " " << D << "D: " << sim->failureMessage();
    const BodyView b = sim->bodies().at(0);
    highest = std::max(highest, b.position.y);
    if (t > duration - 1.0) draft += b.draft, ++samples;
  }
  draft /= samples;
  const double expected = ballDraft(D, r, q);
  std::printf("[ figures  ] %s %dD at %.4g m: the 0.1 rho0 ball rose to %.4f m (surface 0.25), floats at draft "
              "%.5f m against %.5f (%.1f %%)\n", solver.c_str(), D, spacing, highest, draft, expected,
              100.0 * (draft - expected) / expected);
  EXPECT_GT(highest, 0.25) << "its centre came up through the surface";
  EXPECT_NEAR(draft, expected, bound * expected) << solver << " " << D << "D";
}

template <int D>
void expectSinks(const std::string& solver, double spacing, double gap, double duration) {
  const Settled s = settle<D>(tankWithBox(2000.0), solver, spacing, duration, 0.5);
  std::printf("[ figures  ] %s %dD: the 2 rho0 box's bottom at %.4f m, its centre within %.2g m over 0.5 s "
              "(speed <= %.3f m/s)\n", solver.c_str(), D, s.bottom, s.wander, s.speed);
  EXPECT_LT(s.bottom, (gap + 0.25) * spacing) << solver << " " << D << "D";
  EXPECT_GT(s.bottom, -1e-9) << solver << " " << D << "D: through the floor";
  EXPECT_LT(s.wander, 0.010) << solver << " " << D << "D";
}

template Settled settle<2>(const std::string&, const std::string&, double, double, double, double);
template Settled settle<3>(const std::string&, const std::string&, double, double, double, double);
template void expectArchimedes<2>(const std::string&, double, double, double);
template void expectArchimedes<3>(const std::string&, double, double, double);
template void expectMomentumKept<2>(const std::string&, double);
template void expectMomentumKept<3>(const std::string&, double);
template void expectBodiesHold<2>(const std::string&, double, double);
template void expectBodiesHold<3>(const std::string&, double, double);
template void expectBodiesResume<2>(const std::string&);
template void expectBodiesResume<3>(const std::string&);
template void expectLightBallRises<2>(const std::string&, double, double, double);
template void expectLightBallRises<3>(const std::string&, double, double, double);
template void expectSinks<2>(const std::string&, double, double, double);
template void expectSinks<3>(const std::string&, double, double, double);

}  // namespace sloshlab::test
