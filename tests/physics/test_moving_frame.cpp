// The moving container: solving in its frame with fictitious accelerations must give
// the physics of a world-frame simulation with moving walls (physics.md (8.3),
// (11.2)-(11.3)).
#include "support/test_support.h"

#include <gtest/gtest.h>

namespace sloshlab::test {
namespace {

// One hard sphere thrown from the middle of a large container (2D: its x and y).
constexpr const char* kThrownBall = R"({"solver": "collisions", "spacing": 0.05, "gravity": [0, -9.81, 0],
    "container": {"size": [2.4, 2.4, 2.4], "position": [0, 0, 0]},
    "fluid": [{"box": {"min": [1.2, 1.2, 1.2], "max": [1.25, 1.25, 1.25]}, "velocity": [0.3, 1.0, 0.1]}]})";

// A lone hard sphere thrown inside a container that slides and turns: seen from the
// world it flies on the free-fall parabola x0 + v0 t + g t^2/2, whatever the
// container does. Checks every fictitious term (A, Euler, centrifugal, Coriolis).
TEST(MovingFrame, ABallisticParticleFollowsTheWorldParabola) {
  std::vector<MotionScript::Row> rows;
  for (int k = 0; k <= 600; ++k) {
    const double t = k * 1e-3;
    rows.push_back({t, Vec3(0.2 * t * t, 0.1 * std::sin(3.0 * t), 0.05 * t), 0.8 * t + 0.5 * t * t});
  }
  for (int dim : {2, 3}) {
    SCOPED_TRACE(dim);
    SimSpec spec;
    spec.motion = MotionScript::fromRows(rows);
    spec.overrides = {{"cfl", "0.01"}};
    std::vector<Vec3> x, v;
    Vec3 x0;
    auto check = [&](auto sim) {
      sim->worldParticles(x, v);
      ASSERT_EQ(x.size(), 1u);
      x0 = x[0];
      const Vec3 v0 = dim == 2 ? Vec3(0.3, 1.0, 0.0) : Vec3(0.3, 1.0, 0.1);
      const double T = 0.5;
      sim->advanceTo(T);
      ASSERT_FALSE(sim->failed());
      ASSERT_EQ(sim->stats().solver.wallImpulse, Vec3(0.0));  // free flight: no wall touched
      sim->worldParticles(x, v);
      const Vec3 expected = x0 + v0 * T + 0.5 * Vec3(0.0, -9.81, 0.0) * T * T;
      const double error = glm::length(x[0] - expected);
      std::printf("[ figures  ] %dD ballistic flight in a turning container: world position error %.2e m after %.1f s "
                  "(container turned %.2f rad)\n",
                  dim, error, T, sim->container().pose.angle);
      EXPECT_LT(error, 2e-3);
      EXPECT_LT(glm::length(v[0] - (v0 + Vec3(0.0, -9.81, 0.0) * T)), 1e-2);
    };
    if (dim == 2) check(makeSimFromJson<2>(kThrownBall, spec));
    else check(makeSimFromJson<3>(kThrownBall, spec));
  }
}

// The same in 3D with the container turning about an axis that wanders: it tips about
// x, spins about the vertical and turns about z at once (physics.md (8.1a), (8.3), (8.5)).
TEST(MovingFrame, ABallisticParticleFollowsTheWorldParabolaWhileTheAxisTilts) {
  std::vector<MotionScript::Row> rows;
  for (int k = 0; k <= 600; ++k) {
    const double t = k * 1e-3;
    MotionScript::Row r{t, Vec3(0.2 * t * t, 0.1 * std::sin(3.0 * t), 0.05 * t), 0.4 * t};
    r.angleX = 0.3 * std::sin(2.0 * t);
    r.angleY = 0.6 * t + 0.4 * t * t;
    rows.push_back(r);
  }
  SimSpec spec;
  spec.motion = MotionScript::fromRows(rows);
  spec.overrides = {{"cfl", "0.01"}};
  auto sim = makeSimFromJson<3>(kThrownBall, spec);
  std::vector<Vec3> x, v;
  sim->worldParticles(x, v);
  ASSERT_EQ(x.size(), 1u);
  const Vec3 x0 = x[0], v0(0.3, 1.0, 0.1), g(0.0, -9.81, 0.0);
  const double T = 0.5;
  sim->advanceTo(T);
  ASSERT_FALSE(sim->failed());
  ASSERT_EQ(sim->stats().solver.wallImpulse, Vec3(0.0));  // free flight: no wall touched
  sim->worldParticles(x, v);
  const double error = glm::length(x[0] - (x0 + v0 * T + 0.5 * g * T * T));
  const ContainerPose& pose = sim->container().pose;
  std::printf("[ figures  ] 3D ballistic flight while the axis tilts: world position error %.2e m after %.1f s "
              "(angles x %.2f, y %.2f, z %.2f rad)\n",
              error, T, pose.angleX, pose.angleY, pose.angle);
  EXPECT_GT(std::abs(pose.angleX), 0.2);
  EXPECT_LT(error, 2e-3);
  EXPECT_LT(glm::length(v[0] - (v0 + g * T)), 1e-2);
}

// Slope dy/dx of the free surface in the frame whose transform is given: a line fit
// through the highest particle of each column of width `bin`.
template <int D>
double surfaceSlope(SimulationImpl<D>& sim, bool world, double bin) {
  std::vector<Vec3> xs;
  if (world) {
    std::vector<Vec3> v;
    sim.worldParticles(xs, v);
  } else {
    for (const auto& x : sim.particles().x) xs.push_back(toVec3<D>(x));
  }
  double lo = 1e9, hi = -1e9;
  for (const auto& x : xs) lo = std::min(lo, x.x), hi = std::max(hi, x.x);
  const int bins = static_cast<int>((hi - lo) / bin);
  std::vector<double> top(bins, -1e9);
  for (const auto& x : xs) {
    const int b = std::min(bins - 1, static_cast<int>((x.x - lo) / bin));
    top[b] = std::max(top[b], x.y);
  }
  // Fit over the inner columns (away from the walls' meniscus-like edges).
  double n = 0, st = 0, sz = 0, stt = 0, stz = 0;
  for (int b = 2; b < bins - 2; ++b) {
    const double t = lo + (b + 0.5) * bin;
    n += 1, st += t, sz += top[b], stt += t * t, stz += t * top[b];
  }
  return (n * stz - st * sz) / (n * stt - st * st);
}

// A bottle held still at a tilt of 0.3 rad: the liquid, emitted level in the bottle,
// flows until its surface is level in the world.
TEST(MovingFrame, LiquidInATiltedBottleFindsItsLevel) {
  const std::string json = R"({"solver": "wcsph", "spacing": 0.01, "container": {"size": [0.5, 0.4, 0.2], "angle": 0.3},
    "fluid": [{"box": {"min": [0, 0], "max": [0.5, 0.15]}}]})";
  SimSpec spec;
  spec.overrides = {{"damping", "4"}};
  auto sim = makeSimFromJson<2>(json, spec);
  const double before = surfaceSlope(*sim, true, 0.02);
  sim->advanceTo(2.5);
  ASSERT_FALSE(sim->failed());
  const double after = surfaceSlope(*sim, true, 0.02);
  std::printf("[ figures  ] tilted bottle (0.3 rad): world surface slope %.3f at start, %.4f after 2.5 s\n", before,
              after);
  EXPECT_NEAR(before, std::tan(0.3), 0.02);
  EXPECT_LT(std::abs(after), 0.02);
}

// The world slope (dy/dx, dy/dz) of a 3D free surface: a plane fit through the highest
// particle of each (x, z) column of width `bin`, over the columns whose four neighbours
// hold liquid too (away from the walls).
glm::dvec2 worldSurfaceGradient(SimulationImpl<3>& sim, double bin) {
  std::vector<Vec3> xs, v;
  sim.worldParticles(xs, v);
  Vec3 lo(1e9), hi(-1e9);
  for (const auto& x : xs) lo = glm::min(lo, x), hi = glm::max(hi, x);
  const int nx = static_cast<int>((hi.x - lo.x) / bin) + 1, nz = static_cast<int>((hi.z - lo.z) / bin) + 1;
  std::vector<double> top(static_cast<std::size_t>(nx * nz), -1e9);
  for (const auto& x : xs) {
    const int i = static_cast<int>((x.x - lo.x) / bin), k = static_cast<int>((x.z - lo.z) / bin);
    top[static_cast<std::size_t>(i + nx * k)] = std::max(top[static_cast<std::size_t>(i + nx * k)], x.y);
  }
  auto held = [&](int i, int k) { return i >= 0 && k >= 0 && i < nx && k < nz && top[static_cast<std::size_t>(i + nx * k)] > -1e8; };
  // Least squares y = a + b x + c z: the normal equations, solved by Cramer's rule.
  double m[3][3] = {}, r[3] = {};
  for (int k = 0; k < nz; ++k)
    for (int i = 0; i < nx; ++i) {
      if (!held(i, k) || !held(i - 1, k) || !held(i + 1, k) || !held(i, k - 1) || !held(i, k + 1)) continue;
      const double f[3] = {1.0, lo.x + (i + 0.5) * bin, lo.z + (k + 0.5) * bin};
      for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b) m[a][b] += f[a] * f[b];
        r[a] += f[a] * top[static_cast<std::size_t>(i + nx * k)];
      }
    }
  auto det = [](double q[3][3]) {
    return q[0][0] * (q[1][1] * q[2][2] - q[1][2] * q[2][1]) - q[0][1] * (q[1][0] * q[2][2] - q[1][2] * q[2][0]) +
           q[0][2] * (q[1][0] * q[2][1] - q[1][1] * q[2][0]);
  };
  double out[3];
  for (int c = 0; c < 3; ++c) {
    double q[3][3];
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) q[a][b] = b == c ? r[a] : m[a][b];
    out[c] = det(q) / det(m);
  }
  return {out[1], out[2]};
}

// A 3D bottle held still, tipped 0.3 rad towards the viewer (about x) and spun 0.6 rad
// about the vertical: the liquid, emitted level in the bottle, flows until its surface
// is level in the world.
TEST(MovingFrame, LiquidInABottleTippedTowardsTheViewerFindsItsLevel) {
  const std::string json = R"({"solver": "wcsph", "spacing": 0.02,
    "container": {"size": [0.3, 0.3, 0.3], "angle_x": 0.3, "angle_y": 0.6},
    "fluid": [{"box": {"min": [0, 0, 0], "max": [0.3, 0.12, 0.3]}}]})";
  SimSpec spec;
  spec.overrides = {{"damping", "4"}};
  auto sim = makeSimFromJson<3>(json, spec);
  const glm::dvec2 before = worldSurfaceGradient(*sim, 0.03);
  sim->advanceTo(2.0);
  ASSERT_FALSE(sim->failed());
  const glm::dvec2 after = worldSurfaceGradient(*sim, 0.03);
  std::printf("[ figures  ] 3D bottle tipped 0.3 rad about x: world surface gradient %.3f at start (tan 0.3 = %.3f), "
              "%.4f after 2 s\n",
              glm::length(before), std::tan(0.3), glm::length(after));
  EXPECT_NEAR(glm::length(before), std::tan(0.3), 0.03);
  EXPECT_LT(glm::length(after), 0.03);
}

// A bottle accelerating steadily at A along x: in its frame the liquid feels g - A,
// so its surface settles at dy/dx = -A/g (Euler's relative equilibrium).
TEST(MovingFrame, SteadilyAcceleratedLiquidTiltsToMinusAOverG) {
  const double A = 3.0;
  std::vector<MotionScript::Row> rows;
  for (int k = 0; k <= 2500; ++k) {
    const double t = k * 1e-3;
    rows.push_back({t, Vec3(0.5 * A * t * t, 0.0, 0.0), 0.0});
  }
  SimSpec spec;
  spec.scene = "bottle";
  spec.spacing = 0.01;
  spec.motion = MotionScript::fromRows(rows);
  spec.overrides = {{"damping", "4"}};
  auto sim = makeSim<2>(spec);
  sim->advanceTo(2.5);
  ASSERT_FALSE(sim->failed());
  const double slope = surfaceSlope(*sim, false, 0.02);
  std::printf("[ figures  ] bottle accelerating at %.1f m/s^2: surface slope %.4f, expected -A/g = %.4f\n", A, slope,
              -A / 9.81);
  EXPECT_NEAR(slope, -A / 9.81, 0.05 * A / 9.81);
}

}  // namespace
}  // namespace sloshlab::test
