// The floating bodies' mechanics alone (sim/src/rigid_bodies.h, physics.md §16): mass
// and inertia against a numerical integral over the shape (16.2), a bounce off the floor
// with the restitution of (16.7), the exchange with particles keeping linear and angular
// momentum to rounding (16.6), and the exported surface where the body is.
#include "rigid_bodies.h"

#include "support/test_support.h"

#include "io/export_formats.h"

#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace sloshlab {
namespace {

BodySpec spec(BodySpec::Shape shape, double density = 500.0) {
  BodySpec b;
  b.shape = shape;
  b.density = density;
  b.size = Vec3(0.08, 0.05, 0.04);
  b.radius = 0.02;
  b.length = 0.06;
  b.bottom = 0.04;  // a hull's keel
  b.position = Vec3(0.25, 0.2, 0.1);
  b.hasDepth = true;
  return b;
}

// (16.2): mass and the moment of inertia about z within 1 % of a midpoint sum over a
// fine lattice of the shape's inside (its distance function < 0): 960 points across in
// 2D, 240 in 3D.
template <int D>
void expectMassAndInertia(BodySpec::Shape shape) {
  RigidBodies<D> bodies;
  const BodySpec b = spec(shape);
  bodies.configure({b}, Vec<D>(1.0), 0.005, Solids<D>());
  const BodyView v = bodies.views(-1.0).at(0);
  const Vec<D> centre = fromVec3<D>(v.position);
  const double reach = 0.06;
  const int n = D == 2 ? 960 : 240;  // 0.125 and 0.5 mm: the box's faces fall between lattice points
  const double h = 2.0 * reach / n;
  double mass = 0.0, inertiaZ = 0.0;
  Vec<D> normal;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < (D == 3 ? n : 1); ++k) {
        Vec<D> p = centre;
        p.x += -reach + (i + 0.5) * h, p.y += -reach + (j + 0.5) * h;
        if constexpr (D == 3) p.z += -reach + (k + 0.5) * h;
        if (bodies.distance(0, p, normal) >= 0.0) continue;
        const double dm = b.density * std::pow(h, D);
        const Vec<D> r = p - centre;
        mass += dm, inertiaZ += dm * (r.x * r.x + r.y * r.y);
      }
  const char* name = BodySpec::shapeName(shape);
  EXPECT_NEAR(v.mass, mass, 0.01 * mass) << name << " " << D << "D";
  EXPECT_NEAR(v.inertia.z, inertiaZ, 0.01 * inertiaZ) << name << " " << D << "D";
}

TEST(Bodies, MassAndInertiaMatchAnIntegralOverTheShape) {
  for (const auto shape : {BodySpec::Shape::Box, BodySpec::Shape::Ball, BodySpec::Shape::Capsule,
                           BodySpec::Shape::Hull}) {
    expectMassAndInertia<2>(shape);
    expectMassAndInertia<3>(shape);
  }
}

// (16.7): a ball falling at 1 m/s onto the floor (no gravity) leaves it at e = 0.3 of that,
// with no spin (the contact is head-on, so friction has nothing to act on).
TEST(Bodies, ABallBouncesOffTheFloorWithTheRestitution) {
  RigidBodies<2> bodies;
  BodySpec b = spec(BodySpec::Shape::Ball);
  b.position = Vec3(0.5, 0.1, 0.0);
  b.velocity = Vec3(0.0, -1.0, 0.0);
  bodies.configure({b}, Vec2(1.0), 0.005, Solids<2>());
  const FrameMotion<2> still;
  for (int s = 0; s < 200; ++s) bodies.advance(1e-3, still, Vec2(1.0), Solids<2>());
  const BodyView v = bodies.views(-1.0).at(0);
  EXPECT_NEAR(v.velocity.y, 0.3, 1e-12);
  EXPECT_NEAR(v.velocity.x, 0.0, 1e-12);
  EXPECT_NEAR(v.angularVelocity.z, 0.0, 1e-12);
  EXPECT_GT(v.position.y, b.radius);
}

// (16.6): 300 particles around and inside a turning, moving box, each approaching it: the
// exchange changes the particles' and the body's linear momentum by opposite amounts, and
// their angular momentum about the origin (the impulses act at the particles' places after
// (16.5)), to rounding.
template <int D>
void expectExchangeKeepsMomentum() {
  RigidBodies<D> bodies;
  BodySpec b = spec(BodySpec::Shape::Box);
  b.position = Vec3(0.5, 0.5, 0.5);
  b.angle = 0.3;
  b.velocity = Vec3(0.2, -0.1, 0.05);
  bodies.configure({b}, Vec<D>(1.0), 0.005, Solids<D>());
  ParticleSet<D> p;
  std::mt19937 random(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 0; i < 300; ++i) {
    Vec<D> x = fromVec3<D>(b.position), v(0.0);
    for (int k = 0; k < D; ++k) x[k] += 0.06 * u(random), v[k] = u(random);
    p.x.push_back(x), p.v.push_back(v), p.m.push_back(0.0125 + 0.01 * u(random));
  }
  const auto momenta = [&](Vec3& linear, Vec3& angular) {
    const BodyView body = bodies.views(-1.0).at(0);
    linear = body.mass * body.velocity;
    const Mat3 I = body.rotation * Mat3(body.inertia.x, 0, 0, 0, body.inertia.y, 0, 0, 0, body.inertia.z) *
                   glm::transpose(body.rotation);
    Vec3 spin = body.angularVelocity;
    if (D == 2) spin = Vec3(0.0, 0.0, spin.z);
    angular = glm::cross(body.position, linear) + I * spin;
    for (std::size_t i = 0; i < p.size(); ++i) {
      linear += p.m[i] * toVec3<D>(p.v[i]);
      angular += glm::cross(toVec3<D>(p.x[i]), p.m[i] * toVec3<D>(p.v[i]));
    }
  };
  // The places the exchange acts at: (16.5) alone, as couple() moves them first.
  ParticleSet<D> moved = p;
  for (std::size_t i = 0; i < moved.size(); ++i) {
    Vec<D> n;
    const double phi = bodies.distance(0, moved.x[i], n);
    if (phi < 0.0025) moved.x[i] += (0.0025 - phi) * n;
  }
  std::swap(p.x, moved.x);
  Vec3 linearBefore, angularBefore;
  momenta(linearBefore, angularBefore);
  std::swap(p.x, moved.x);
  bodies.couple(p, 0.0025, 1e-3, Vec<D>(1.0), Solids<D>());
  Vec3 linearAfter, angularAfter;
  momenta(linearAfter, angularAfter);
  const BodyView after = bodies.views(-1.0).at(0);
  EXPECT_GT(glm::length(after.velocity - b.velocity), 0.01) << "the particles pushed the body";
  EXPECT_LT(glm::length(linearAfter - linearBefore), 1e-13) << D << "D";
  EXPECT_LT(glm::length(angularAfter - angularBefore), 1e-13) << D << "D";
  for (std::size_t i = 0; i < p.size(); ++i) {
    Vec<D> n;
    EXPECT_GE(bodies.distance(0, p.x[i], n), 0.0025 * (1.0 - 1e-9));
  }
}

TEST(Bodies, TheExchangeWithParticlesKeepsMomentumAndAngularMomentum) {
  expectExchangeKeepsMomentum<2>();
  expectExchangeKeepsMomentum<3>();
}

// (16.11): each shape's boundary samples lie inside it and shallower than the depth asked;
// they fill the shell between the surface and that depth at about one per s^D (the count
// times s^D within 20 % of the shell's area or volume, measured on a fine lattice); and
// every point of the surface has a sample within a spacing (a cube's corner is sqrt(3)/2 s
// from its lattice, a capsule's seams 0.93 s from theirs; a hull's slanted sides cut the
// lattice, 1.03 s at its 3D corners, so 1.1 s there; checked on 2000 points).
template <int D>
void expectSamplesFillTheShell(BodySpec::Shape shape) {
  const BodySpec b = spec(shape);
  const double s = 0.005, depth = 0.01;
  const auto samples = RigidBodies<D>::shapeSamples(b, s, depth);
  const char* name = BodySpec::shapeName(shape);
  ASSERT_FALSE(samples.empty()) << name;
  Vec<D> n;
  for (const Vec<D>& x : samples) {
    const double phi = RigidBodies<D>::shapeDistance(b, x, n);
    ASSERT_LT(phi, 0.0) << name << " " << D << "D: a sample outside";
    ASSERT_GT(phi, -depth) << name << " " << D << "D: a sample deeper than asked";
  }
  const double reach = 0.06;
  const int cells = D == 2 ? 600 : 150;
  const double h = 2.0 * reach / cells;
  double shell = 0.0;
  for (int i = 0; i < cells; ++i)
    for (int j = 0; j < cells; ++j)
      for (int k = 0; k < (D == 3 ? cells : 1); ++k) {
        Vec<D> p(0.0);
        p.x = -reach + (i + 0.5) * h, p.y = -reach + (j + 0.5) * h;
        if constexpr (D == 3) p.z = -reach + (k + 0.5) * h;
        const double phi = RigidBodies<D>::shapeDistance(b, p, n);
        if (phi < 0.0 && phi > -depth) shell += std::pow(h, D);
      }
  const double sampled = static_cast<double>(samples.size()) * std::pow(s, D);
  EXPECT_NEAR(sampled, shell, 0.2 * shell) << name << " " << D << "D: " << samples.size() << " samples";
  std::mt19937 random(11);
  std::uniform_real_distribution<double> u(-reach, reach);
  int checked = 0;
  while (checked < 2000) {
    Vec<D> p;
    for (int k = 0; k < D; ++k) p[k] = u(random);
    const double phi = RigidBodies<D>::shapeDistance(b, p, n);
    p -= phi * n;  // onto the surface
    double nearest = 1e9;
    for (const Vec<D>& x : samples) nearest = std::min(nearest, glm::length(x - p));
    ASSERT_LT(nearest, (shape == BodySpec::Shape::Hull ? 1.1 : 1.0) * s) << name << " " << D << "D: a bare patch of surface";
    ++checked;
  }
}

TEST(Bodies, BoundarySamplesFillTheShellUnderTheSurface) {
  for (const auto shape : {BodySpec::Shape::Box, BodySpec::Shape::Ball, BodySpec::Shape::Capsule,
                           BodySpec::Shape::Hull}) {
    expectSamplesFillTheShell<2>(shape);
    expectSamplesFillTheShell<3>(shape);
  }
}

// (16.12), (16.14): the samples' impulses taken by a ball of a tenth of the liquid's
// density in a ring of particles: the body's and the particles' momentum change by the
// impulses plus the body's weight over the step, to rounding, and the push is shared (the
// particles near it moved, the body took less than the impulses alone would give it).
template <int D>
void expectSharedPushKeepsMomentum() {
  RigidBodies<D> bodies;
  BodySpec b = spec(BodySpec::Shape::Ball, 100.0);
  b.position = Vec3(0.5, 0.5, 0.5);
  bodies.configure({b}, Vec<D>(1.0), 0.005, Solids<D>());
  BodySamples<D> samples;
  bodies.layOutSamples(0.005, 0.01, samples);
  samples.restDensity = 1000.0;
  std::mt19937 random(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (std::size_t k = 0; k < samples.size(); ++k)
    for (int a = 0; a < D; ++a) samples.impulse[k][a] = 1e-4 * (u(random) + (a == 1 ? 0.8 : 0.0));
  ParticleSet<D> p;
  const Vec<D> centre = fromVec3<D>(b.position);
  for (int i = 0; i < 2000; ++i) {
    Vec<D> x;
    for (int a = 0; a < D; ++a) x[a] = centre[a] + 0.05 * u(random);
    Vec<D> n;
    if (bodies.distance(0, x, n) < 0.0025) continue;
    p.x.push_back(x), p.v.push_back(Vec<D>(0.0)), p.m.push_back(D == 2 ? 0.025 : 1.25e-4);
  }
  FrameMotion<D> frame;
  frame.gravityMinusA = Vec<D>(0.0);
  frame.gravityMinusA.y = -9.81;
  const double dt = 1e-3;
  Vec<D> pushed(0.0);
  for (const Vec<D>& j : samples.impulse) pushed += j;
  const BodyView before = bodies.views(-1.0).at(0);
  bodies.takeImpulses(samples, dt, frame, p, 0.02);
  const BodyView after = bodies.views(-1.0).at(0);
  Vec<D> change = fromVec3<D>(after.velocity - before.velocity) * after.mass;
  for (std::size_t i = 0; i < p.size(); ++i) change += p.m[i] * p.v[i];
  const Vec<D> expected = pushed + (after.mass * dt) * frame.gravityMinusA;
  EXPECT_LT(glm::length(change - expected), 1e-13 * glm::length(expected)) << D << "D";
  const double alone = glm::length(expected) / after.mass;
  EXPECT_LT(glm::length(after.velocity - before.velocity), 0.5 * alone) << D << "D: the push was shared";
}

TEST(Bodies, ALightBodySharesItsPushAndKeepsTheMomentum) {
  expectSharedPushKeepsMomentum<2>();
  expectSharedPushKeepsMomentum<3>();
}

// (16.10): the hand's spring, critically damped at 2 Hz, brings a held ball to the mouse's
// point 0.1 m away within 1 mm and to rest within 1 cm/s in 1 s (no gravity: e^(-4 pi)
// of the distance is left), and lets go when released.
TEST(Bodies, TheHandPullsABodyToTheMouseAndLetsGo) {
  RigidBodies<2> bodies;
  BodySpec b = spec(BodySpec::Shape::Ball);
  b.position = Vec3(0.4, 0.5, 0.0);
  bodies.configure({b}, Vec2(1.0), 0.005, Solids<2>());
  const FrameMotion<2> still;
  bodies.pull(0, Vec2(0.0), Vec2(0.5, 0.5));
  for (int s = 0; s < 1000; ++s) bodies.advance(1e-3, still, Vec2(1.0), Solids<2>());
  BodyView v = bodies.views(-1.0).at(0);
  EXPECT_LT(glm::length(v.position - Vec3(0.5, 0.5, 0.0)), 1e-3);
  EXPECT_LT(glm::length(v.velocity), 0.01);
  bodies.release();
  bodies.advance(1e-3, still, Vec2(1.0), Solids<2>());
  const Vec3 before = bodies.views(-1.0).at(0).velocity;
  bodies.advance(1e-3, still, Vec2(1.0), Solids<2>());
  EXPECT_EQ(bodies.views(-1.0).at(0).velocity, before) << "released: nothing pulls it";
  EXPECT_FALSE(bodies.pulled());
}

// The exported surface (bodyTriangles) lies on the body where it is, in the world frame
// of a tilted, moved container: every vertex, taken back to the body's axes, on the box.
TEST(Bodies, TheExportedSurfaceIsWhereTheBodyIs) {
  const ContainerState c = test::movedAndTurnedContainer();
  BodyView body;
  body.spec = spec(BodySpec::Shape::Box);
  body.position = Vec3(0.2, 0.15, 0.1);
  body.rotation = glm::mat3_cast(glm::angleAxis(0.4, glm::normalize(Vec3(0.3, 1.0, -0.2))));
  const std::vector<Vec3> world = bodyTriangles({body}, c, 3);
  ASSERT_GT(world.size(), 0u);
  const FrameTransform<3> frame = FrameTransform<3>::make(c);
  const Vec3 half = 0.5 * body.spec.size;
  for (const Vec3& w : world) {
    const Vec3 local = glm::transpose(body.rotation) * (frame.toLocal(w) - body.position);
    const double onFace = std::max({std::abs(local.x) / half.x, std::abs(local.y) / half.y, std::abs(local.z) / half.z});
    ASSERT_NEAR(onFace, 1.0, 1e-9);
  }
}

}  // namespace
}  // namespace sloshlab
