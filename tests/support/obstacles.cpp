#include "support/obstacles.h"

#include "sloshlab/scene.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

namespace sloshlab::test {

// The bottle with a baffle standing on its floor, a post (a disc; in 3D a cylinder
// through the depth), a ball (in 2D a disc) and a slanted capsule.
std::string obstacleScene(double fill) {
  return R"({"name": "obstacles_test", "gravity": [0, -9.81, 0], "container": {"size": [0.5, 0.4, 0.2]},
    "fluid": [{"box": {"min": [0, 0], "max": [0.5, )" + std::to_string(fill) + R"(]}}],
    "obstacles": [{"box": {"min": [0.22, 0], "max": [0.28, 0.12]}},
                  {"disc": {"centre": [0.4, 0.25], "radius": 0.04}},
                  {"sphere": {"centre": [0.1, 0.28], "radius": 0.04}},
                  {"capsule": {"a": [0.05, 0.15], "b": [0.16, 0.19], "radius": 0.03}}]})";
}

// The deepest any particle lies inside an obstacle (m; <= 0 when none is inside).
template <int D>
double deepestInside(SimulationImpl<D>& sim, const Solids<D>& solids) {
  double deepest = -std::numeric_limits<double>::infinity();
  const ParticleSet<D>& p = sim.particles();
  for (std::size_t i = 0; i < p.size(); ++i) deepest = std::max(deepest, -solids.distance(p.x[i]));
  return deepest;
}

// A round glass: the container outside a vertical cylinder of radius 0.09 m (a capsule
// from below the floor to above the lid), in a box 0.2 m wide and deep.
const char* const kRoundGlass = R"({"name": "glass_test", "gravity": [0, -9.81, 0],
    "container": {"size": [0.2, 0.25, 0.2]}, "fluid": [{"box": {"min": [0, 0], "max": [0.2, 0.1]}}],
    "obstacles": [{"outside_of": {"capsule": {"a": [0.1, -0.1, 0.1], "b": [0.1, 0.35, 0.1], "radius": 0.09}}}]})";

const char* const kNeckedBottle = R"({"name": "necked_bottle_test", "gravity": [0, -9.81, 0],
    "container": {"size": [0.24, 0.36, 0.24]}, "fluid": [{"box": {"min": [0, 0], "max": [0.24, 0.16]}}],
    "obstacles": [
      {"difference": [{"box": {"min": [0, 0, 0], "max": [0.24, 0.36, 0.24]}},
                      {"capsule": {"a": [0.12, -0.1, 0.12], "b": [0.12, 0.18, 0.12], "radius": 0.1}},
                      {"capsule": {"a": [0.12, 0.18, 0.12], "b": [0.12, 0.6, 0.12], "radius": 0.03}}]},
      {"difference": [{"box": {"min": [0, 0.06, 0], "max": [0.24, 0.1, 0.24]}},
                      {"sphere": {"centre": [0.12, 0.08, 0.12], "radius": 0.035}}]}]})";

template <int D>
void expectKeptOut(const std::string& solver, double spacing, double duration, const std::string& json, bool tumble) {
  SimSpec spec;
  spec.solver = solver;
  spec.spacing = spacing;
  spec.motion = tumble ? tumblingMotion(duration) : violentMotion(duration);
  auto sim = makeSimFromJson<D>(json, spec);
  const Solids<D> solids(sim->setup().scene.obstacles, sim->setup().scene.containerSize);
  double worst = deepestInside<D>(*sim, solids);
  ASSERT_LE(worst, -0.5 * spacing * (1.0 - 1e-6)) << "the emitter keeps half a spacing from every obstacle";
  double maxAcceleration = 0.0;
  while (sim->time() < duration) {
    sim->step(duration);
    ASSERT_FALSE(sim->failed()) << sim->failureMessage();
    ASSERT_EQ(sim->countOutside(), 0u) << solver << " " << D << "D at t = " << sim->time();
    worst = std::max(worst, deepestInside<D>(*sim, solids));
    // Rounding only: a particle put back on an obstacle's surface lies on it to 1e-12 m.
    ASSERT_LE(worst, 1e-12) << solver << " " << D << "D at t = " << sim->time();
    maxAcceleration = std::max(maxAcceleration, glm::length(sim->container().acceleration));
  }
  EXPECT_GT(maxAcceleration, 5.0 * 9.81);
  std::printf("[ figures  ] %s %s %dD: %zu particles, %ld steps, peak container acceleration %.0f m/s^2, "
              "0 outside, deepest inside an obstacle %.2g m\n",
              sim->setup().scene.name.c_str(), solver.c_str(), D, sim->particleCount(), sim->stepCount(),
              maxAcceleration, worst);
}

template <int D>
void expectBaffledTankRests(const std::string& solver) {
  auto settle = [&](bool baffle, double& speed, double& step) {
    SimSpec spec;
    spec.scene = "baffled_tank";
    spec.solver = solver;
    Scene scene = loadScene("baffled_tank");
    if (!baffle) scene.obstacles.clear();
    auto sim = makeSimFromJson<D>(sceneToJson(scene), spec);
    sim->advanceTo(1.5);
    EXPECT_FALSE(sim->failed()) << sim->failureMessage();
    speed = 0.0;
    for (const auto& v : sim->particles().v) speed = std::max(speed, glm::length(v));
    // The surface either side: the mean height of the particles within a spacing of
    // the highest on each side of the middle.
    const double s = sim->spacing();
    double top[2] = {0.0, 0.0};
    for (const auto& x : sim->particles().x) top[x.x > 0.1] = std::max(top[x.x > 0.1], x.y);
    double sum[2] = {0.0, 0.0}, n[2] = {0.0, 0.0};
    for (const auto& x : sim->particles().x)
      if (x.y > top[x.x > 0.1] - s) sum[x.x > 0.1] += x.y, n[x.x > 0.1] += 1.0;
    step = std::abs(sum[0] / n[0] - sum[1] / n[1]) / s;
  };
  double withBaffle = 0.0, without = 0.0, stepWith = 0.0, stepWithout = 0.0;
  settle(true, withBaffle, stepWith);
  settle(false, without, stepWithout);
  std::printf("[ figures  ] baffled tank at rest %s %dD: fastest %.4f m/s (%.4f without the baffle), surface step "
              "across the middle %.2f spacings (%.2f without)\n",
              solver.c_str(), D, withBaffle, without, stepWith, stepWithout);
  EXPECT_LE(withBaffle, 2.0 * without + 0.01);
  EXPECT_LE(stepWith, 0.5);
}

template <int D>
void expectUTubePeriod(const std::string& solver, double tolerance) {
  SimSpec spec;
  spec.scene = "u_tube";
  spec.solver = solver;
  auto sim = makeSim<D>(spec);
  const double leg = 0.06, g = 9.81;
  const double s = sim->spacing();
  // L = V / A (15.6): the column's volume over a leg's cross-section, per unit depth:
  // the two legs (0.2 and 0.1 m high above the floor) and the channel between them.
  const double length = (0.2 * leg + 0.1 * leg + (0.3 - 2.0 * leg) * leg) / leg;
  // A particle's share of that, for the swing (only its sign matters).
  const double cell = D == 2 ? s * s : s * s * s / sim->setup().scene.containerSize.z;
  const auto count = sim->particleCount();
  const double period = 2.0 * kPi * std::sqrt(length / (2.0 * g));
  auto swing = [&] {
    long left = 0, right = 0;
    for (const auto& x : sim->particles().x) {
      if (x.y < leg) continue;
      if (x.x < leg) ++left;
      else if (x.x > 0.3 - leg) ++right;
    }
    return static_cast<double>(left - right) * cell / leg;
  };
  const double start = swing();
  std::vector<double> crossings;
  double before = start, tBefore = 0.0;
  const double dtSample = 0.005;
  while (sim->time() < 2.6 && crossings.size() < 5) {
    sim->advanceTo(sim->time() + dtSample);
    ASSERT_FALSE(sim->failed()) << sim->failureMessage();
    const double now = swing();
    if ((before > 0.0) != (now > 0.0)) crossings.push_back(tBefore + dtSample * before / (before - now));
    before = now, tBefore = sim->time();
  }
  ASSERT_GE(crossings.size(), 3u) << solver << ": the liquid swings through the middle at least three times";
  const double measured = 2.0 * (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
  std::printf("[ figures  ] U-tube %s %dD: %zu particles, L = %.4f m, swing %.4f m at the start; period %.4f s "
              "over %zu crossings against 2 pi sqrt(L / 2g) = %.4f s (%+.1f %%)\n",
              solver.c_str(), D, count, length, start, measured, crossings.size(), period,
              100.0 * (measured / period - 1.0));
  EXPECT_NEAR(measured, period, tolerance * period) << solver << " " << D << "D";
}

template void expectKeptOut<2>(const std::string&, double, double, const std::string&, bool);
template void expectKeptOut<3>(const std::string&, double, double, const std::string&, bool);
template void expectBaffledTankRests<2>(const std::string&);
template void expectBaffledTankRests<3>(const std::string&);
template void expectUTubePeriod<2>(const std::string&, double);
template void expectUTubePeriod<3>(const std::string&, double);

}  // namespace sloshlab::test
