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
  EXPECT_EQ(state.angularVelocity.x, 0.0);
  EXPECT_EQ(state.angularVelocity.y, 0.0);
  EXPECT_NEAR(state.angularVelocity.z, 1.0, 1e-12);
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
    s.angularVelocity = Vec3(0.0, 0.0, 0.7 + 0.8 * t);
    s.acceleration = Vec3(0.6, -1.2 * t, 0.0);
    s.angularAcceleration = Vec3(0.0, 0.0, 0.8);
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

// --- Turning about any axis in 3D (physics.md (8.1)-(8.5)) --------------------------

// The skew matrix [w]x (column-major, as glm) and the vector of a matrix's skew part.
Mat3 skew(const Vec3& w) {
  Mat3 k(0.0);
  k[1][0] = -w.z, k[2][0] = w.y;  // row 0: (0, -wz, wy)
  k[0][1] = w.z, k[2][1] = -w.x;  // row 1: (wz, 0, -wx)
  k[0][2] = -w.y, k[1][2] = w.x;  // row 2: (-wy, wx, 0)
  return k;
}
Vec3 axialOf(const Mat3& m) {  // the w of (m - m^T)/2 = [w]x
  auto at = [&m](int row, int col) { return m[col][row]; };
  return 0.5 * Vec3(at(2, 1) - at(1, 2), at(0, 2) - at(2, 0), at(1, 0) - at(0, 1));
}
// A turn by a about a coordinate axis, with its first and second derivatives for a
// given rate and acceleration of a: R' = a' K R, R'' = a'' K R + a'^2 K K R.
struct AxisTurn {
  Mat3 R, dR, ddR;
  AxisTurn(int axis, double a, double da, double dda) {
    Vec3 e(0.0);
    e[axis] = 1.0;
    const Mat3 K = skew(e);
    R = Mat3(1.0) + std::sin(a) * K + (1.0 - std::cos(a)) * K * K;  // Rodrigues
    dR = da * K * R;
    ddR = dda * K * R + da * da * K * K * R;
  }
};

// A container turned by R(t) = Ry(psi) Rx(phi) Rz(theta), all three angles changing, so
// that omega changes direction and alpha is not along it; its centre accelerating. A
// particle falls freely in the world. Its container-frame path x = R^T (x_w - c) + L/2
// is differentiated exactly by the product rule, and its acceleration must be the
// frame's (8.3), within 1e-9 m/s^2; omega and alpha come from [omega]x = R' R^T and
// [alpha]x = R'' R^T + R' R'^T, independently of the driver.
TEST(FrameMotion, TurningAboutATiltedAxisMatchesTheWorldFrame) {
  const Vec3 size(0.6, 0.4, 0.3), g(0.0, -9.81, 0.0);
  for (double t : {0.0, 0.37, 1.2, 2.9}) {
    // Angles, rates and accelerations of theta (z), phi (x), psi (y).
    const double th = 0.3 + 0.9 * t - 0.2 * t * t, dth = 0.9 - 0.4 * t, ddth = -0.4;
    const double ph = -0.25 + 0.6 * t * t, dph = 1.2 * t, ddph = 1.2;
    const double ps = 1.1 - 1.7 * t + 0.3 * t * t * t, dps = -1.7 + 0.9 * t * t, ddps = 1.8 * t;
    const AxisTurn z(2, th, dth, ddth), x(0, ph, dph, ddph), y(1, ps, dps, ddps);
    const Mat3 R = y.R * x.R * z.R;
    const Mat3 dR = y.dR * x.R * z.R + y.R * x.dR * z.R + y.R * x.R * z.dR;
    const Mat3 ddR = y.ddR * x.R * z.R + y.R * x.ddR * z.R + y.R * x.R * z.ddR +
                     2.0 * (y.dR * x.dR * z.R + y.dR * x.R * z.dR + y.R * x.dR * z.dR);
    // The centre and a freely falling particle (world).
    const Vec3 c(0.2 * t * t, 1.0 - 0.1 * t, 0.3 * t * t * t), dc(0.4 * t, -0.1, 0.9 * t * t), ddc(0.4, 0.0, 1.8 * t);
    const Vec3 xw0(0.5, 1.1, -0.2), vw0(0.3, 0.8, -0.6);
    const Vec3 xw = xw0 + t * vw0 + 0.5 * t * t * g, vw = vw0 + t * g, aw = g;
    const Vec3 d = xw - c, dd = vw - dc, ddd = aw - ddc;
    const Vec3 local = glm::transpose(R) * d + 0.5 * size;
    const Vec3 v = glm::transpose(dR) * d + glm::transpose(R) * dd;
    const Vec3 a = glm::transpose(ddR) * d + 2.0 * glm::transpose(dR) * dd + glm::transpose(R) * ddd;

    ContainerState s;
    s.size = size;
    s.pose.position = c;
    s.pose.angle = th, s.pose.angleX = ph, s.pose.angleY = ps;
    s.velocity = dc;
    s.acceleration = ddc;
    s.angularVelocity = axialOf(dR * glm::transpose(R));
    s.angularAcceleration = axialOf(ddR * glm::transpose(R) + dR * glm::transpose(dR));
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) ASSERT_NEAR(s.pose.rotation()[i][j], R[i][j], 1e-15) << "orientationMatrix";
    const FrameMotion<3> frame = FrameMotion<3>::make(s, g);
    ASSERT_FALSE(frame.aboutZ);
    EXPECT_LT(glm::length(frame.acceleration(local, v) - a), 1e-9) << "t = " << t;
    // And back: the frame transform gives the world position and velocity.
    const FrameTransform<3> to = FrameTransform<3>::make(s);
    EXPECT_LT(glm::length(to.toWorld(local) - xw), 1e-12) << "t = " << t;
    EXPECT_LT(glm::length(to.velocityToWorld(local, v) - vw), 1e-12) << "t = " << t;
    EXPECT_LT(glm::length(to.toLocal(xw) - local), 1e-12) << "t = " << t;
  }
}

// About z alone the closed form of (8.4) and the general cross products agree.
TEST(FrameMotion, TheClosedFormAboutZIsTheGeneralFormula) {
  ContainerState s;
  s.size = Vec3(0.6, 0.4, 0.3);
  s.pose.angle = 0.7;
  s.acceleration = Vec3(1.0, -2.0, 0.5);
  s.angularVelocity = Vec3(0.0, 0.0, -2.1);
  s.angularAcceleration = Vec3(0.0, 0.0, 3.3);
  FrameMotion<3> closed = FrameMotion<3>::make(s, Vec3(0.0, -9.81, 0.0));
  ASSERT_TRUE(closed.aboutZ);
  FrameMotion<3> general = closed;
  general.aboutZ = false;
  const Vec3 x(0.1, 0.35, 0.27), v(-0.4, 0.2, 0.9);
  EXPECT_LT(glm::length(closed.acceleration(x, v) - general.acceleration(x, v)), 1e-13);
}

// The log map recovers the axis and angle of Rodrigues' rotation, near 0 and near pi too.
TEST(Rotation, RotationVectorOfInvertsRodrigues) {
  const Vec3 axes[] = {glm::normalize(Vec3(1.0, 2.0, -0.5)), Vec3(0.0, 1.0, 0.0), glm::normalize(Vec3(-3.0, 0.1, 0.2))};
  for (const Vec3& n : axes)
    for (double angle : {1e-9, 0.3, 1.7, 3.0, kPi - 1e-7}) {
      const Mat3 K = skew(n);
      const Mat3 R = Mat3(1.0) + std::sin(angle) * K + (1.0 - std::cos(angle)) * K * K;
      EXPECT_LT(glm::length(rotationVectorOf(R) - angle * n), 1e-9 * std::max(1.0, angle)) << angle;
    }
}

// anglesOf inverts orientationMatrix, keeping the whole turns nearest the given angles;
// rotationAbout is Rodrigues' rotation (the mouse's tip about the camera's horizontal).
TEST(Rotation, AnglesOfInvertsTheOrientationMatrix) {
  const Vec3 cases[] = {{0.3, -2.0, 0.7}, {-1.2, 0.4, -3.0}, {0.0, 7.0, 0.0}, {1.4, -9.5, 12.0}};
  for (const Vec3& a : cases) {
    const Vec3 back = anglesOf(orientationMatrix(a.z, a.x, a.y), a + Vec3(0.0, 0.4, -0.3));
    EXPECT_LT(glm::length(back - a), 1e-12) << a.x << " " << a.y << " " << a.z;
  }
  // Tipping about x composed onto a spin about y is angleX in the order of (8.1a) only
  // when it acts first; about the world x axis after the spin it mixes the angles.
  const Mat3 spun = orientationMatrix(0.0, 0.0, 0.5);
  const Vec3 tipped = anglesOf(rotationAbout(Vec3(1.0, 0.0, 0.0), 0.3) * spun, Vec3(0.0, 0.5, 0.0));
  const Mat3 again = orientationMatrix(tipped.z, tipped.x, tipped.y);
  const Mat3 expected = rotationAbout(Vec3(1.0, 0.0, 0.0), 0.3) * spun;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(again[i][j], expected[i][j], 1e-12);
  EXPECT_NE(tipped.z, 0.0);  // the composed turn needs all three angles
}

// A script that tips and spins the bottle: the driver's step rate is the rotation vector
// of R_(n+1) R_n^T over dt (8.5), which for a turn at a constant rate about a fixed axis
// is that rate; about z alone it is the change of angle exactly as before.
TEST(ContainerDriver, TurnsAboutAnyAxisIn3DAndAboutZAloneIn2D) {
  for (bool planar : {false, true}) {
    ContainerDriver driver;
    driver.setPlanar(planar);
    driver.reset(ContainerPose{});
    MotionScript::Row start, end;
    end.t = 1.0, end.angleY = 2.0, end.angle = 0.5;  // spin about y, then turn about z
    driver.setScript(MotionScript::fromRows({start, end}));
    ContainerState state;
    const double dt = 1e-3;
    for (int i = 0; i < 400; ++i) driver.advance(state, i * dt, dt);
    if (planar) {
      EXPECT_EQ(state.pose.angleY, 0.0);
      EXPECT_EQ(state.angularVelocity.x, 0.0);
      EXPECT_EQ(state.angularVelocity.y, 0.0);
      EXPECT_NEAR(state.angularVelocity.z, 0.5, 1e-9) << "2D: about z, the change of angle";
      continue;
    }
    EXPECT_NEAR(state.pose.angleY, 0.8, 1e-12);
    // R = Ry(2t) Rz(0.5t): omega = 2 e_y + 0.5 Ry e_z (world), over one step to O(dt).
    const Vec3 expected = 2.0 * Vec3(0.0, 1.0, 0.0) + 0.5 * (AxisTurn(1, state.pose.angleY, 0, 0).R * Vec3(0.0, 0.0, 1.0));
    EXPECT_LT(glm::length(state.angularVelocity - expected), 5e-3);
  }
}

}  // namespace
}  // namespace sloshlab
