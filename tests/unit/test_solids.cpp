// Obstacles (sloshlab/solids.h, physics.md §15): the signed distances and normals of the
// primitives (15.1)-(15.2) against their closed forms, the push out of them (15.3), the
// boundary samples (15.4), the mesh the window draws, and the scene key's round trip.
#include "sloshlab/scene.h"
#include "sloshlab/solids.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace sloshlab {
namespace {

Obstacle box(Vec3 lo, Vec3 hi, bool depth = false) {
  Obstacle o;
  o.shape = Obstacle::Shape::Box;
  o.min = lo, o.max = hi, o.hasDepth = depth;
  return o;
}
Obstacle round(Obstacle::Shape shape, Vec3 c, double r, bool depth = false) {
  Obstacle o;
  o.shape = shape;
  o.centre = c, o.radius = r, o.hasDepth = depth;
  return o;
}

const Vec3 kContainer(1.0, 1.0, 0.4);

TEST(Solids, BoxDistanceAndNormalOutsideOnAFaceAndInside) {
  const Solids<2> s({box({0.4, 0.2, 0}, {0.6, 0.5, 0})}, kContainer);
  Vec<2> n;
  EXPECT_NEAR(s.distance(Vec<2>(0.3, 0.3), n), 0.1, 1e-15);  // left of the left face
  EXPECT_EQ(n, Vec<2>(-1.0, 0.0));
  EXPECT_NEAR(s.distance(Vec<2>(0.7, 0.6), n), std::sqrt(0.02), 1e-15);  // off the corner
  EXPECT_NEAR(n.x, std::sqrt(0.5), 1e-12);
  EXPECT_NEAR(n.y, std::sqrt(0.5), 1e-12);
  EXPECT_NEAR(s.distance(Vec<2>(0.5, 0.45), n), -0.05, 1e-15);  // nearest the top face
  EXPECT_EQ(n, Vec<2>(0.0, 1.0));
}

// A face on a wall is moved beyond it: a point inside near the floor leaves through the
// top (0.07 m away), not through the floor (0.05 m away), and stays in the box.
TEST(Solids, ABoxOnTheFloorIsLeftUpwards) {
  const Solids<2> s({box({0.4, 0.0, 0}, {0.6, 0.12, 0})}, kContainer);
  Vec<2> x(0.5, 0.05), v(0.0, -1.0);
  ASSERT_TRUE(s.pushOut(x, v, 0.01));
  EXPECT_NEAR(x.y, 0.13, 1e-12);
  EXPECT_EQ(x.x, 0.5);
  EXPECT_EQ(v, Vec<2>(0.0, 0.0));  // the velocity into the box is gone
}

TEST(Solids, PushOutKeepsTheTangentialAndOutwardVelocity) {
  const Solids<3> s({round(Obstacle::Shape::Sphere, {0.5, 0.5, 0.2}, 0.1, true)}, kContainer);
  Vec3 x(0.5, 0.55, 0.2), v(0.3, -2.0, 0.1);  // inside, moving in
  ASSERT_TRUE(s.pushOut(x, v, 0.0));
  EXPECT_NEAR(glm::length(x - Vec3(0.5, 0.5, 0.2)), 0.1, 1e-15);
  EXPECT_EQ(v, Vec3(0.3, 0.0, 0.1));
  Vec3 y(0.5, 0.7, 0.2), w(0.0, -1.0, 0.0);  // outside the margin: untouched
  EXPECT_FALSE(s.pushOut(y, w, 0.05));
  EXPECT_EQ(w, Vec3(0.0, -1.0, 0.0));
}

TEST(Solids, RoundShapesAndTheirDepth) {
  // A disc runs through the depth in 3D: its distance ignores z.
  const Solids<3> disc({round(Obstacle::Shape::Disc, {0.5, 0.5, 0}, 0.1)}, kContainer);
  EXPECT_NEAR(disc.distance(Vec3(0.8, 0.5, 0.0)), 0.2, 1e-15);
  EXPECT_NEAR(disc.distance(Vec3(0.8, 0.5, 0.37)), 0.2, 1e-15);
  // A sphere given in x and y sits at mid-depth.
  const Solids<3> ball({round(Obstacle::Shape::Sphere, {0.5, 0.5, 0}, 0.1)}, kContainer);
  EXPECT_NEAR(ball.distance(Vec3(0.5, 0.5, 0.2)), -0.1, 1e-15);
  EXPECT_NEAR(ball.distance(Vec3(0.5, 0.5, 0.4)), 0.1, 1e-15);
  // A capsule: the distance to its segment less the radius, with round ends.
  Obstacle c;
  c.shape = Obstacle::Shape::Capsule;
  c.a = {0.2, 0.5, 0}, c.b = {0.6, 0.5, 0}, c.radius = 0.05;
  const Solids<2> cap({c}, kContainer);
  EXPECT_NEAR(cap.distance(Vec<2>(0.4, 0.6)), 0.05, 1e-15);
  EXPECT_NEAR(cap.distance(Vec<2>(0.7, 0.5)), 0.05, 1e-15);
  EXPECT_NEAR(cap.distance(Vec<2>(0.1, 0.4)), std::sqrt(0.02) - 0.05, 1e-15);
  EXPECT_EQ(cap.thinnest(), 0.1);
}

TEST(Solids, TheUnionIsTheNearestShape) {
  const Solids<2> s({box({0.1, 0.1, 0}, {0.2, 0.2, 0}), round(Obstacle::Shape::Disc, {0.7, 0.5, 0}, 0.1)},
                    kContainer);
  EXPECT_NEAR(s.distance(Vec<2>(0.5, 0.5)), 0.1, 1e-15);  // the disc is nearer
  EXPECT_NEAR(s.distance(Vec<2>(0.15, 0.25)), 0.05, 1e-15);
  EXPECT_EQ(s.size(), 2u);
}

// (15.1a): the container outside a shape: phi and n change sign, so the liquid is kept
// inside the shape; its samples lie outside it, within the depth; the 2D mesh fills the
// box less the disc (to the raster's 1/160 of the box), and the key reads back.
TEST(Solids, TheContainerAroundAShapeKeepsTheLiquidInside) {
  Obstacle o = round(Obstacle::Shape::Disc, {0.5, 0.5, 0}, 0.3);
  o.outside = true;
  const Solids<2> s({o}, kContainer);
  Vec<2> n;
  EXPECT_NEAR(s.distance(Vec<2>(0.5, 0.6), n), 0.2, 1e-15);  // inside the disc: outside the solid
  EXPECT_NEAR(s.distance(Vec<2>(0.9, 0.5), n), -0.1, 1e-15);
  EXPECT_NEAR(n.x, -1.0, 1e-15);  // out of the solid: back towards the centre
  Vec<2> x(0.85, 0.5), v(1.0, 0.5);
  ASSERT_TRUE(s.pushOut(x, v, 0.0));
  EXPECT_NEAR(x.x, 0.8, 1e-15);
  EXPECT_EQ(v, Vec<2>(0.0, 0.5));
  for (const Vec<2>& p : s.samples(0.01, 0.03, Vec<2>(1.0, 1.0))) {
    EXPECT_GT(glm::length(p - Vec<2>(0.5, 0.5)), 0.3);
    EXPECT_LT(glm::length(p - Vec<2>(0.5, 0.5)), 0.33 + 1e-12);
  }
  double area = 0.0;
  const ObstacleMesh mesh = obstacleMesh({o}, kContainer, 2);
  for (std::size_t k = 0; k + 2 < mesh.triangles.size(); k += 3)
    area += 0.5 * glm::length(glm::cross(mesh.triangles[k + 1] - mesh.triangles[k], mesh.triangles[k + 2] - mesh.triangles[k]));
  EXPECT_NEAR(area, 1.0 - kPi * 0.09, 0.02 * (1.0 - kPi * 0.09));
  EXPECT_EQ(s.thinnest(), std::numeric_limits<double>::infinity());
  const Scene scene = parseScene(R"({"container": {"size": [1, 1, 0.4]}, "fluid": [{"box": {"min": [0, 0], "max": [1, 0.3]}}],
      "obstacles": [{"outside_of": {"disc": {"centre": [0.5, 0.5], "radius": 0.3}}}]})", "test");
  ASSERT_EQ(scene.obstacles.size(), 1u);
  EXPECT_TRUE(scene.obstacles[0].outside);
  EXPECT_EQ(parseScene(sceneToJson(scene), "again").obstacles, scene.obstacles);
  EXPECT_THROW(parseScene(R"({"container": {"size": [1, 1, 0.4]}, "fluid": [{"box": {"min": [0, 0], "max": [1, 0.3]}}],
      "obstacles": [{"outside_of": {"outside_of": {"disc": {"centre": [0.5, 0.5], "radius": 0.3}}}}]})", "test"),
               SceneError);
}

TEST(Solids, AnObstacleOutsideTheContainerIsRefused) {
  EXPECT_THROW(Solids<2>({box({1.2, 0, 0}, {1.5, 1, 0})}, kContainer), std::runtime_error);
  EXPECT_THROW(Solids<3>({round(Obstacle::Shape::Sphere, {0.5, 0.5, 0.9}, 0.1, true)}, kContainer),
               std::runtime_error);
}

// (15.4): a box 0.1 x 0.06 m at s = 0.01 m, sampled to a depth of 0.02 m: its lattice fits
// the faces (10 x 6 points, the outer ones half a spacing inside), and only points within
// the depth of the surface are kept: 60 less the 6 x 2 core deeper than 0.02 m.
TEST(Solids, SamplesFitABoxsFacesToTheDepth) {
  const Solids<2> s({box({0.4, 0.3, 0}, {0.5, 0.36, 0})}, kContainer);
  const auto samples = s.samples(0.01, 0.02, Vec<2>(1.0, 1.0));
  double lowest = 1.0, leftmost = 1.0;
  for (const Vec<2>& x : samples) {
    EXPECT_LT(s.distance(x), 0.0);
    EXPECT_GT(s.distance(x), -0.02);
    lowest = std::min(lowest, x.y), leftmost = std::min(leftmost, x.x);
  }
  EXPECT_NEAR(lowest, 0.305, 1e-12);
  EXPECT_NEAR(leftmost, 0.405, 1e-12);
  EXPECT_EQ(samples.size(), 60u - 12u);
}

// The mesh the window draws covers each shape: a 2D box's triangles add up to its area
// (clipped to the container), a disc's to a 48-gon's, pi r^2 sin(2 pi/48) 48 / (2 pi).
TEST(Solids, TheMeshCoversTheShapes) {
  auto area = [](const ObstacleMesh& m) {
    double a = 0.0;
    for (std::size_t k = 0; k + 2 < m.triangles.size(); k += 3)
      a += 0.5 * glm::length(glm::cross(m.triangles[k + 1] - m.triangles[k], m.triangles[k + 2] - m.triangles[k]));
    return a;
  };
  EXPECT_NEAR(area(obstacleMesh({box({0.8, -0.5, 0}, {1.5, 0.3, 0})}, kContainer, 2)), 0.2 * 0.3, 1e-12);
  const double r = 0.1;
  EXPECT_NEAR(area(obstacleMesh({round(Obstacle::Shape::Disc, {0.5, 0.5, 0}, r)}, kContainer, 2)),
              0.5 * 48 * r * r * std::sin(2.0 * kPi / 48), 1e-12);
  const ObstacleMesh prism = obstacleMesh({box({0.1, 0.1, 0}, {0.2, 0.3, 0})}, kContainer, 3);
  EXPECT_NEAR(area(prism), 2.0 * (0.1 * 0.2 + 0.1 * 0.4 + 0.2 * 0.4), 1e-12);  // the prism's surface
  EXPECT_EQ(prism.edges.size() % 2, 0u);
}

TEST(Solids, TheSceneKeyReadsAndWritesBack) {
  const Scene scene = parseScene(R"({"container": {"size": [1, 1, 0.4]}, "fluid": [{"box": {"min": [0, 0], "max": [1, 0.3]}}],
      "obstacles": [{"box": {"min": [0.4, 0], "max": [0.45, 0.2]}}, {"sphere": {"centre": [0.2, 0.5, 0.1], "radius": 0.05}},
                    {"capsule": {"a": [0.6, 0.5], "b": [0.8, 0.6], "radius": 0.02}}]})",
                                 "test");
  ASSERT_EQ(scene.obstacles.size(), 3u);
  EXPECT_EQ(scene.obstacles[1].shape, Obstacle::Shape::Sphere);
  EXPECT_TRUE(scene.obstacles[1].hasDepth);
  EXPECT_EQ(scene.obstacles[2].b, Vec3(0.8, 0.6, 0.0));
  const Scene back = parseScene(sceneToJson(scene), "again");
  ASSERT_EQ(back.obstacles.size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(back.obstacles[k].shape, scene.obstacles[k].shape);
    EXPECT_EQ(back.obstacles[k].min, scene.obstacles[k].min);
    EXPECT_EQ(back.obstacles[k].max, scene.obstacles[k].max);
    EXPECT_EQ(back.obstacles[k].centre, scene.obstacles[k].centre);
    EXPECT_EQ(back.obstacles[k].a, scene.obstacles[k].a);
    EXPECT_EQ(back.obstacles[k].b, scene.obstacles[k].b);
    EXPECT_EQ(back.obstacles[k].radius, scene.obstacles[k].radius);
    EXPECT_EQ(back.obstacles[k].hasDepth, scene.obstacles[k].hasDepth);
  }
}

// A difference (15.1b): a plate 0.3 m thick with a round hole of radius 0.1 through it.
// In the hole the distance is the way to its rim, and its normal points into the hole;
// in the plate, the nearest of its faces and the rim; a point pushed out of the plate at
// the rim goes into the hole. Its boundary samples ring the hole too, and its 2D mesh
// covers the plate less the hole.
TEST(Solids, APlateWithAHoleIsThePlateLessTheHole) {
  Obstacle hole = round(Obstacle::Shape::Disc, {0.5, 0.5, 0}, 0.1);
  hole.hole = true;
  const std::vector<Obstacle> plate = {box({0.2, 0.35, 0}, {0.8, 0.65, 0}), hole};
  const Solids<2> s(plate, kContainer);
  Vec<2> n;
  EXPECT_NEAR(s.distance(Vec<2>(0.5, 0.5), n), 0.1, 1e-15);  // the hole's centre: 0.1 from its rim
  EXPECT_NEAR(s.distance(Vec<2>(0.55, 0.5), n), 0.05, 1e-15);
  EXPECT_NEAR(n.x, -1.0, 1e-15);  // out of the solid: into the hole
  EXPECT_NEAR(s.distance(Vec<2>(0.62, 0.5), n), -0.02, 1e-15);  // in the plate, by the rim
  EXPECT_NEAR(n.x, -1.0, 1e-15);
  EXPECT_NEAR(s.distance(Vec<2>(0.75, 0.63), n), -0.02, 1e-15);  // in the plate, by its top face
  EXPECT_EQ(n, Vec<2>(0.0, 1.0));
  EXPECT_NEAR(s.distance(Vec<2>(0.5, 0.9)), 0.25, 1e-15);  // above the plate
  Vec<2> x(0.61, 0.5), v(1.0, 0.3);
  ASSERT_TRUE(s.pushOut(x, v, 0.0));
  EXPECT_NEAR(x.x, 0.6, 1e-15);
  EXPECT_EQ(v, Vec<2>(0.0, 0.3));
  int rim = 0;
  const auto samples = s.samples(0.01, 0.03, Vec<2>(1.0, 1.0));
  for (const Vec<2>& p : samples) {
    EXPECT_LT(s.distance(p), 0.0);
    EXPECT_GT(s.distance(p), -0.03);
    rim += glm::length(p - Vec<2>(0.5, 0.5)) < 0.13;
  }
  EXPECT_GT(rim, 2.0 * kPi * 0.1 / 0.01 * 2);  // two rings at least about the hole
  double area = 0.0;
  const ObstacleMesh mesh = obstacleMesh(plate, kContainer, 2);
  for (std::size_t k = 0; k + 2 < mesh.triangles.size(); k += 3)
    area += 0.5 * glm::length(glm::cross(mesh.triangles[k + 1] - mesh.triangles[k], mesh.triangles[k + 2] - mesh.triangles[k]));
  EXPECT_NEAR(area, 0.6 * 0.3 - kPi * 0.01, 0.01 * (0.6 * 0.3 - kPi * 0.01));
  double outline = 0.0;  // the plate's rim and the hole's: 2 (0.6 + 0.3) + 2 pi 0.1
  for (std::size_t k = 0; k + 1 < mesh.edges.size(); k += 2) outline += glm::length(mesh.edges[k + 1] - mesh.edges[k]);
  EXPECT_NEAR(outline, 1.8 + 2.0 * kPi * 0.1, 0.01 * (1.8 + 2.0 * kPi * 0.1));
}

// In 3D a box that fills the container less a ball: its mesh (marching tetrahedra) is
// the ball's sphere, area 4 pi r^2 within 2 %, each triangle facing out of the solid,
// into the ball. Through the depth (a box less a disc, given in x and y) it is a prism:
// the hole's wall 2 pi r deep.
TEST(Solids, TheMeshOfADifferenceIsItsSurface) {
  Obstacle ball = round(Obstacle::Shape::Sphere, {0.5, 0.5, 0.2}, 0.15, true);
  ball.hole = true;
  const std::vector<Obstacle> cavity = {box({0, 0, 0}, {1, 1, 0.4}, true), ball};
  const ObstacleMesh mesh = obstacleMesh(cavity, kContainer, 3);
  double area = 0.0;
  for (std::size_t k = 0; k + 2 < mesh.triangles.size(); k += 3) {
    const Vec3 a = mesh.triangles[k], b = mesh.triangles[k + 1], c = mesh.triangles[k + 2];
    const Vec3 normal = glm::cross(b - a, c - a);
    area += 0.5 * glm::length(normal);
    EXPECT_LT(glm::dot(normal, (a + b + c) / 3.0 - Vec3(0.5, 0.5, 0.2)), 0.0);
  }
  EXPECT_NEAR(area, 4.0 * kPi * 0.15 * 0.15, 0.02 * 4.0 * kPi * 0.15 * 0.15);
  EXPECT_FALSE(mesh.edges.empty());  // the rings on three slices

  Obstacle disc = round(Obstacle::Shape::Disc, {0.5, 0.5, 0}, 0.2);
  disc.hole = true;
  const ObstacleMesh prism = obstacleMesh({box({0.2, 0.2, 0}, {0.8, 0.8, 0}), disc}, kContainer, 3);
  double side = 0.0;  // the triangles not in a cap (normal in the xy plane)
  for (std::size_t k = 0; k + 2 < prism.triangles.size(); k += 3) {
    const Vec3 normal = glm::cross(prism.triangles[k + 1] - prism.triangles[k], prism.triangles[k + 2] - prism.triangles[k]);
    if (std::abs(normal.z) < 1e-12) side += 0.5 * glm::length(normal);
  }
  EXPECT_NEAR(side, (4.0 * 0.6 + 2.0 * kPi * 0.2) * 0.4, 0.01 * (4.0 * 0.6 + 2.0 * kPi * 0.2) * 0.4);
}

// The scene file's "difference": its first shape less the others, written back as one.
// A difference of one shape, a hole turned inside out, a nested difference and a hole
// first in the list are refused.
TEST(Solids, TheDifferenceKeyReadsAndWritesBack) {
  const std::string head = R"({"container": {"size": [1, 1, 0.4]}, "fluid": [{"box": {"min": [0, 0], "max": [1, 0.3]}}],
      "obstacles": [)";
  const Scene scene = parseScene(head + R"({"disc": {"centre": [0.2, 0.6], "radius": 0.05}},
      {"difference": [{"box": {"min": [0.3, 0.4], "max": [0.9, 0.5]}}, {"disc": {"centre": [0.6, 0.45], "radius": 0.03}},
                      {"sphere": {"centre": [0.8, 0.45, 0.2], "radius": 0.02}}]}]})",
                                 "test");
  ASSERT_EQ(scene.obstacles.size(), 4u);
  EXPECT_FALSE(scene.obstacles[0].hole);
  EXPECT_FALSE(scene.obstacles[1].hole);
  EXPECT_TRUE(scene.obstacles[2].hole);
  EXPECT_TRUE(scene.obstacles[3].hole);
  EXPECT_EQ(obstacleGroups(scene.obstacles).size(), 2u);
  EXPECT_EQ(parseScene(sceneToJson(scene), "again").obstacles, scene.obstacles);
  for (const char* bad : {
           R"({"difference": [{"box": {"min": [0.3, 0.4], "max": [0.9, 0.5]}}]}]})",
           R"({"difference": [{"box": {"min": [0.3, 0.4], "max": [0.9, 0.5]}}, {"outside_of": {"disc": {"centre": [0.6, 0.45], "radius": 0.03}}}]}]})",
           R"({"difference": [{"difference": [{"box": {"min": [0.3, 0.4], "max": [0.9, 0.5]}}, {"disc": {"centre": [0.6, 0.45], "radius": 0.03}}]}, {"disc": {"centre": [0.6, 0.45], "radius": 0.03}}]}]})",
           R"({"difference": {"box": {"min": [0.3, 0.4], "max": [0.9, 0.5]}}}]})"})
    EXPECT_THROW(parseScene(head + bad, "test"), SceneError) << bad;
  Obstacle first = box({0.3, 0.4, 0}, {0.9, 0.5, 0});
  first.hole = true;
  EXPECT_THROW(Solids<2>({first}, kContainer), std::runtime_error);
}

}  // namespace
}  // namespace sloshlab
