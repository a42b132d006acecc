// The container: scripted motion, the mouse-following spring, and the fictitious
// accelerations of its moving frame checked against the kinematics of a rigid frame
// (physics.md (8.3), (8.5), (8.7)).
#include "sloshlab/container.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

namespace sloshlab {
namespace {

TEST(MotionScript, InterpolatesLinearlyAndHoldsTheEnds) {
  auto s = MotionScript::fromRows({{0.0, Vec3(0.0), 0.0}, {1.0, Vec3(1.0, 2.0, 0.0), 0.5}, {3.0, Vec3(1.0, 0.0, 0.0), 0.5}});
  EXPECT_EQ(s.sample(-1.0).offset, Vec3(0.0));
  EXPECT_NEAR(s.sample(0.25).offset.y, 0.5, 1e-15);
  EXPECT_NEAR(s.sample(0.25).angle, 0.125, 1e-15);
  EXPECT_NEAR(s.sample(2.0).offset.y, 1.0, 1e-15);
  EXPECT_EQ(s.sample(10.0).offset, Vec3(1.0, 0.0, 0.0));
  EXPECT_THROW(MotionScript::fromRows({{0.0, Vec3(0.0), 0.0}, {0.0, Vec3(1.0), 0.0}}), std::runtime_error);
  EXPECT_THROW(MotionScript::fromRows({}), std::runtime_error);
}

TEST(MotionScript, LoadsCsvAndRejectsBadFiles) {
  const std::string path = ::testing::TempDir() + "/motion.csv";
  auto write = [&](const char* text) {
    std::ofstream(path) << text;
  };
  write("# a comment\nt,x,y,angle\n0,0,0,0\n0.5,0.1,0,0.2\n");
  auto s = MotionScript::load(path);
  ASSERT_EQ(s.rows().size(), 2u);
  EXPECT_DOUBLE_EQ(s.rows()[1].angle, 0.2);
  write("t,x,y,z,angle\n0,0,0,0.3,0\n");
  EXPECT_DOUBLE_EQ(MotionScript::load(path).rows()[0].offset.z, 0.3);

  auto message = [&](const char* text) {
    write(text);
    try {
      MotionScript::load(path);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("t,x,y\n0,0,0\n").find("t,x,y[,z],angle"), std::string::npos);
  EXPECT_NE(message("t,x,y,angle\n0,0,abc,0\n").find("'abc' is not a number (line 2)"), std::string::npos);
  EXPECT_NE(message("t,x,y,angle\n0,0,0\n").find("expected 4 values"), std::string::npos);
  EXPECT_NE(message("t,x,y,angle\n1,0,0,0\n0.5,0,0,0\n").find("times must increase"), std::string::npos);
  EXPECT_NE(message("").find("empty file"), std::string::npos);
  EXPECT_NE(message("t,x,y,angle\n").find("no data rows"), std::string::npos);
  EXPECT_THROW(MotionScript::load("/nonexistent/motion.csv"), std::runtime_error);
}

// The text entry point (the fuzzer's) reads as the file does, and names its origin.
TEST(MotionScript, ParsesTextLikeAFile) {
  auto s = MotionScript::parse("# a comment\nt,x,y,angle\n0,0,0,0\n0.5,0.1,0,0.2\n", "text.csv");
  ASSERT_EQ(s.rows().size(), 2u);
  EXPECT_DOUBLE_EQ(s.rows()[1].offset.x, 0.1);
  try {
    MotionScript::parse("t,x,y,angle\n0,0,abc,0\n", "text.csv");
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "motion file 'text.csv': 'abc' is not a number (line 2)");
  }
}

TEST(ContainerDriver, ScriptGivesStepVelocitiesAndAccelerations) {
  ContainerDriver driver;
  ContainerPose home{Vec3(1.0, 2.0, 0.0), 0.1};
  driver.reset(home);
  driver.setScript(MotionScript::fromRows({{0.0, Vec3(0.0), 0.0}, {1.0, Vec3(2.0, 0.0, 0.0), 1.0}}));
  ContainerState state;
  state.pose = home;
  const double dt = 0.01;
  driver.advance(state, 0.0, dt);
  // Speeds 2 m/s and 1 rad/s from rest: one step's acceleration is dv/dt.
  EXPECT_NEAR(state.velocity.x, 2.0, 1e-12);
  EXPECT_NEAR(state.angularVelocity, 1.0, 1e-12);
  EXPECT_NEAR(state.acceleration.x, 2.0 / dt, 1e-9);
  driver.advance(state, dt, dt);
  EXPECT_NEAR(state.acceleration.x, 0.0, 1e-9);
  EXPECT_NEAR(state.pose.position.x, 1.0 + 2.0 * 2.0 * dt, 1e-12);
  EXPECT_NEAR(state.pose.angle, 0.1 + 2.0 * dt, 1e-12);
}

TEST(ContainerDriver, FollowsTheTargetWithBoundedMotion) {
  ContainerDriver driver;
  driver.reset(ContainerPose{});
  ContainerState state;
  driver.setTarget(ContainerPose{Vec3(0.5, 0.2, 0.0), 0.4});
  const auto& f = driver.followSettings();
  double maxA = 0.0, maxV = 0.0;
  for (int i = 0; i < 2000; ++i) {
    driver.advance(state, i * 1e-3, 1e-3);
    maxA = std::max(maxA, glm::length(state.acceleration));
    maxV = std::max(maxV, glm::length(state.velocity));
  }
  EXPECT_NEAR(state.pose.position.x, 0.5, 1e-6);
  EXPECT_NEAR(state.pose.position.y, 0.2, 1e-6);
  EXPECT_NEAR(state.pose.angle, 0.4, 1e-6);
  EXPECT_LE(maxA, f.maxAcceleration * (1.0 + 1e-9));
  EXPECT_LE(maxV, f.maxSpeed * (1.0 + 1e-9));
}

// A point at rest in the world, seen from a frame that accelerates and turns, moves
// with exactly the fictitious acceleration R^T(-A) - alpha x r - omega x (omega x r)
// - 2 omega x v. Checked by central differences of its container-frame path.
template <int D>
void expectFictitiousAccelerationOfAWorldFixedPoint() {
  const Vec3 size(0.6, 0.4, 0.3);
  const Vec<D> X = fromVec3<D>(Vec3(0.2, -0.1, 0.05));  // fixed world point
  // Frame path: c(t) = (0.3 t^2, -0.2 t^3), theta(t) = 0.7 t + 0.4 t^2.
  auto stateAt = [&](double t) {
    ContainerState s;
    s.size = size;
    s.pose.position = Vec3(0.3 * t * t, -0.2 * t * t * t, 0.0);
    s.pose.angle = 0.7 * t + 0.4 * t * t;
    s.velocity = Vec3(0.6 * t, -0.6 * t * t, 0.0);
    s.angularVelocity = 0.7 + 0.8 * t;
    s.acceleration = Vec3(0.6, -1.2 * t, 0.0);
    s.angularAcceleration = 0.8;
    return s;
  };
  auto local = [&](double t) { return FrameTransform<D>::make(stateAt(t)).toLocal(X); };
  for (double t : {0.1, 0.5, 1.3}) {
    const double h = 1e-4;
    const Vec<D> x = local(t);
    const Vec<D> v = (local(t + h) - local(t - h)) / (2.0 * h);
    const Vec<D> a = (local(t + h) - 2.0 * x + local(t - h)) / (h * h);
    const FrameMotion<D> frame = FrameMotion<D>::make(stateAt(t), Vec3(0.0));
    const Vec<D> predicted = frame.acceleration(x, v);
    EXPECT_LT(glm::length(predicted - a), 1e-5) << D << "D t=" << t;
    // And back to the world: the point's world velocity is zero.
    const Vec<D> vWorld = FrameTransform<D>::make(stateAt(t)).velocityToWorld(x, v);
    EXPECT_LT(glm::length(vWorld), 1e-7);
  }
}

TEST(FrameMotion, FictitiousAccelerationsOfARigidFrame2D) { expectFictitiousAccelerationOfAWorldFixedPoint<2>(); }
TEST(FrameMotion, FictitiousAccelerationsOfARigidFrame3D) { expectFictitiousAccelerationOfAWorldFixedPoint<3>(); }

TEST(FrameMotion, GravityIsRotatedIntoTheFrame) {
  ContainerState s;
  s.pose.angle = 0.3;
  const auto f = FrameMotion<2>::make(s, Vec3(0.0, -9.81, 0.0));
  // In a frame turned by +0.3 rad, world "down" points to -y rotated by -0.3.
  EXPECT_NEAR(f.gravityMinusA.x, -9.81 * std::sin(0.3), 1e-12);
  EXPECT_NEAR(f.gravityMinusA.y, -9.81 * std::cos(0.3), 1e-12);
}

}  // namespace
}  // namespace sloshlab
