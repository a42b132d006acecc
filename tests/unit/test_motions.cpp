// The lab's scripted motions (sloshlab/motions.h): each does what its parameters say
// (amplitude, frequency, acceleration, distance, angle, rate, speed), starts and ends at
// rest, and round-trips through the --motion CSV.
#include "sloshlab/motions.h"

#include <gtest/gtest.h>

#include <cmath>

namespace sloshlab {
namespace {

// Velocity of the scripted offset along x (or the angle's rate) between rows k and k+1.
double rate(const MotionScript& m, std::size_t k, bool angle = false) {
  const auto& a = m.rows()[k];
  const auto& b = m.rows()[k + 1];
  return ((angle ? b.angle - a.angle : b.offset.x - a.offset.x)) / (b.t - a.t);
}

int signChanges(const MotionScript& m, double from, double to) {
  int changes = 0;
  double last = 0.0;
  for (const auto& r : m.rows()) {
    if (r.t < from || r.t > to || r.offset.x == 0.0) continue;
    if (last != 0.0 && (last < 0.0) != (r.offset.x < 0.0)) ++changes;
    last = r.offset.x;
  }
  return changes;
}

TEST(Motions, ShakeHasItsAmplitudeAndFrequencyAndStartsAndEndsAtRest) {
  MotionSpec s;
  s.kind = MotionKind::Shake, s.amplitude = 0.03, s.frequency = 2.0, s.duration = 4.0;
  const MotionScript m = makeMotion(s, 2);
  double peak = 0.0;
  for (const auto& r : m.rows()) peak = std::max(peak, std::abs(r.offset.x));
  EXPECT_NEAR(peak, 0.03, 0.03 * 0.01);
  EXPECT_NEAR(signChanges(m, 0.0, 4.0), 2 * 2.0 * 4.0, 1.0);  // two per period
  EXPECT_EQ(m.rows().front().offset.x, 0.0);
  EXPECT_NEAR(m.rows().back().offset.x, 0.0, 1e-12);
  EXPECT_NEAR(m.rows().back().t, 4.0, 1e-12);
  EXPECT_LT(std::abs(rate(m, 0)), 0.01 * 2.0 * kPi * 2.0 * 0.03);  // no velocity jump at the start
  EXPECT_LT(std::abs(rate(m, m.rows().size() - 2)), 0.01 * 2.0 * kPi * 2.0 * 0.03);
}

TEST(Motions, SweepRisesInFrequency) {
  MotionSpec s;
  s.kind = MotionKind::Sweep, s.frequency = 1.0, s.frequencyEnd = 3.0, s.duration = 6.0;
  const MotionScript m = makeMotion(s, 2);
  // Mean frequency 1.5 Hz over the first half, 2.5 Hz over the second: 9 and 15 periods.
  EXPECT_NEAR(signChanges(m, 0.0, 3.0), 2 * 4.5, 1.5);
  EXPECT_NEAR(signChanges(m, 3.0, 6.0), 2 * 7.5, 1.5);
}

TEST(Motions, AccelerationThenBrakingToRest) {
  MotionSpec s;
  s.kind = MotionKind::Acceleration, s.acceleration = 3.0, s.duration = 1.0;
  const MotionScript m = makeMotion(s, 2);
  const std::size_t mid = m.rows().size() / 2;
  EXPECT_NEAR((rate(m, mid - 3) - rate(m, 10)) / (m.rows()[mid - 3].t - m.rows()[10].t), 3.0, 1e-6);
  EXPECT_NEAR((rate(m, m.rows().size() - 5) - rate(m, mid + 3)) / (m.rows()[m.rows().size() - 5].t - m.rows()[mid + 3].t),
              -3.0, 1e-6);
  EXPECT_NEAR(m.rows().back().offset.x, 3.0 * 1.0 * 1.0, 1e-9);  // a T^2: half accelerating, half braking
  EXPECT_NEAR(rate(m, m.rows().size() - 2), 0.0, 3.0 * 0.01);
}

TEST(Motions, StepImpulseTiltAndRotationReachTheirValues) {
  MotionSpec s;
  s.kind = MotionKind::Step, s.distance = -0.1, s.rampTime = 0.2;
  EXPECT_NEAR(makeMotion(s, 2).rows().back().offset.x, -0.1, 1e-12);
  s.kind = MotionKind::Impulse, s.speed = 1.2, s.rampTime = 0.1;
  MotionScript m = makeMotion(s, 2);
  double peak = 0.0;
  for (std::size_t k = 0; k + 1 < m.rows().size(); ++k) peak = std::max(peak, rate(m, k));
  EXPECT_NEAR(peak, 1.2, 1.2 * 0.02);
  s.kind = MotionKind::Tilt, s.angle = 0.4, s.rampTime = 0.3;
  EXPECT_NEAR(makeMotion(s, 2).rows().back().angle, 0.4, 1e-12);
  s.kind = MotionKind::Rotation, s.rate = 2.0, s.duration = 2.0, s.rampTime = 0.2;
  m = makeMotion(s, 2);
  EXPECT_NEAR(rate(m, m.rows().size() / 2, true), 2.0, 1e-9);
  EXPECT_NEAR(m.rows().back().angle, 2.0 * (2.0 - 0.2), 0.01);  // the smoothstep ramps lose half of each
  s.axis = 1, s.kind = MotionKind::Step, s.distance = 0.05;
  EXPECT_NEAR(makeMotion(s, 2).rows().back().offset.y, 0.05, 1e-12);
}

TEST(Motions, BadParametersAreRefusedWithTheirName) {
  MotionSpec s;
  s.frequency = 0.0;
  EXPECT_THROW(makeMotion(s, 2), std::runtime_error);
  s = MotionSpec{};
  s.duration = -1.0;
  try {
    makeMotion(s, 2);
    ADD_FAILURE();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("duration"), std::string::npos) << e.what();
  }
  s = MotionSpec{};
  s.axis = 2;
  EXPECT_THROW(makeMotion(s, 2), std::runtime_error);
}

// The script limits of physics.md (9.9), said in the motion's terms: a 1 m shake at 20 Hz
// peaks at 2 pi f A = 126 m/s (117.6 m/s between its 5 ms rows); a half turn in 10 ms peaks at 1.5 pi / 0.01 = 471 rad/s.
// Their edges pass: a 0.39 m shake at 20 Hz (49 m/s), and rows at exactly the limits.
TEST(Motions, ScriptsFasterThanTheLimitsAreRefused) {
  auto message = [](const MotionSpec& spec) {
    try {
      makeMotion(spec, 2);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  MotionSpec shake;
  shake.kind = MotionKind::Shake;
  shake.amplitude = 1.0, shake.frequency = 20.0, shake.duration = 1.0;
  EXPECT_NE(message(shake).find("move the container at 117.5"), std::string::npos) << message(shake);
  EXPECT_NE(message(shake).find("beyond the limit of 50 m/s"), std::string::npos) << message(shake);
  shake.amplitude = 0.39;
  EXPECT_EQ(message(shake), "");
  MotionSpec tilt;
  tilt.kind = MotionKind::Tilt;
  tilt.angle = kPi, tilt.rampTime = 0.01;
  EXPECT_NE(message(tilt).find("beyond the limit of 100 rad/s"), std::string::npos) << message(tilt);
  using Row = MotionScript::Row;
  EXPECT_NO_THROW(MotionScript::fromRows({Row{0.0, Vec3(0.0), 0.0}, Row{0.1, Vec3(5.0, 0.0, 0.0), 10.0}}));
  EXPECT_THROW(MotionScript::fromRows({Row{0.0, Vec3(0.0), 0.0}, Row{0.1, Vec3(5.01, 0.0, 0.0), 0.0}}),
               std::runtime_error);
  EXPECT_THROW(MotionScript::fromRows({Row{0.0, Vec3(0.0), 0.0}, Row{0.1, Vec3(0.0), 10.01}}), std::runtime_error);
}

TEST(Motions, CsvRoundTrip) {
  MotionSpec s;
  s.kind = MotionKind::Shake;
  const MotionScript m = makeMotion(s, 2);
  for (int dim : {2, 3}) {
    const MotionScript back = MotionScript::parse(motionCsv(m, dim), "memory");
    ASSERT_EQ(back.rows().size(), m.rows().size());
    for (std::size_t k = 0; k < m.rows().size(); ++k) {
      EXPECT_NEAR(back.rows()[k].t, m.rows()[k].t, 1e-9);
      EXPECT_NEAR(back.rows()[k].offset.x, m.rows()[k].offset.x, 1e-10);
    }
  }
}

// A swirl runs the centre round a horizontal circle of radius A; a spin turns about the
// vertical; both end at rest where they began, and a spin is refused in 2D.
TEST(Motions, SwirlCirclesAndSpinTurnsAboutTheVertical) {
  MotionSpec swirl;
  swirl.kind = MotionKind::Swirl;
  swirl.amplitude = 0.02, swirl.frequency = 2.0, swirl.duration = 3.0;
  const MotionScript m = makeMotion(swirl, 3);
  double radiusAtHalf = 0.0;
  for (const auto& r : m.rows()) {
    EXPECT_EQ(r.offset.y, 0.0);
    EXPECT_LE(std::hypot(r.offset.x, r.offset.z), 0.02 + 1e-15);
    if (std::abs(r.t - 1.5) < 1e-9) radiusAtHalf = std::hypot(r.offset.x, r.offset.z);
  }
  EXPECT_NEAR(radiusAtHalf, 0.02, 1e-12);  // full radius between the ramps
  EXPECT_LT(glm::length(m.rows().back().offset), 1e-12);
  const MotionScript flat = makeMotion(swirl, 2);  // in 2D the circle stands in x and y
  EXPECT_NEAR(std::hypot(flat.sample(1.5).offset.x, flat.sample(1.5).offset.y), 0.02, 1e-12);

  MotionSpec spin;
  spin.kind = MotionKind::Spin;
  spin.rate = 3.0, spin.duration = 2.0, spin.rampTime = 0.2;
  const MotionScript turn = makeMotion(spin, 3);
  // The rate ramps in and out over 0.2 s with smoothsteps: the turn is 3 (2 - 0.2) rad.
  EXPECT_NEAR(turn.rows().back().angleY, 3.0 * 1.8, 1e-3);
  EXPECT_EQ(turn.rows().back().angle, 0.0);
  EXPECT_NEAR((turn.sample(1.0).angleY - turn.sample(0.9).angleY) / 0.1, 3.0, 1e-9);
  EXPECT_THROW(makeMotion(spin, 2), std::runtime_error);
}

// The 3D angles travel through the CSV; a file without them reads as before, and a
// row that turns about a tilted axis faster than the limit is refused.
TEST(Motions, CsvCarriesTheFullOrientation) {
  MotionSpec spin;
  spin.kind = MotionKind::Spin;
  const MotionScript m = makeMotion(spin, 3);
  const std::string csv = motionCsv(m, 3);
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "t,x,y,z,angle,angle_x,angle_y");
  const MotionScript back = MotionScript::parse(csv, "memory");
  ASSERT_EQ(back.rows().size(), m.rows().size());
  for (std::size_t k = 0; k < m.rows().size(); ++k) EXPECT_NEAR(back.rows()[k].angleY, m.rows()[k].angleY, 1e-9);
  EXPECT_EQ(motionCsv(m, 2).substr(0, 12), "t,x,y,angle\n");  // 2D turns about z alone
  const MotionScript old = MotionScript::parse("t,x,y,angle\n0,0,0,0\n1,0.1,0,0.5\n", "old");
  EXPECT_EQ(old.rows().back().angleX, 0.0);
  EXPECT_EQ(old.rows().back().angleY, 0.0);
  EXPECT_THROW(MotionScript::parse("t,x,y,angle,angle_x\n0,0,0,0,0\n0.01,0,0,0.5,0.6\n", "fast"), std::runtime_error);
  EXPECT_NO_THROW(MotionScript::parse("t,x,y,angle,angle_x\n0,0,0,0,0\n0.01,0,0,0.5,0.4\n", "edge"));
}

}  // namespace
}  // namespace sloshlab
