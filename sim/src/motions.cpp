// Scripted container motions (sloshlab/motions.h).
#include "sloshlab/motions.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>
#include <stdexcept>

namespace sloshlab {

namespace {

constexpr double kRowInterval = 0.005;  // s between rows

// 0 before 0, 1 after 1, 3u^2 - 2u^3 between: no velocity jump at either end.
double smoothstep(double u) {
  u = std::clamp(u, 0.0, 1.0);
  return u * u * (3.0 - 2.0 * u);
}

void require(bool ok, const std::string& what) {
  if (!ok) throw std::runtime_error("motion: " + what);
}

// Rows every kRowInterval over [0, end], then one more: x and angle from f(t).
MotionScript sample(double end, const std::function<void(double, MotionScript::Row&)>& f) {
  std::vector<MotionScript::Row> rows;
  const int n = static_cast<int>(std::ceil(end / kRowInterval));
  for (int k = 0; k <= n; ++k) {
    MotionScript::Row r;
    r.t = std::min(k * kRowInterval, end);
    f(r.t, r);
    if (!rows.empty() && r.t <= rows.back().t) continue;
    rows.push_back(r);
  }
  // Said in the motion's terms rather than as the script's rows (physics.md (9.9)).
  double speed = 0.0, spin = 0.0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const double span = rows[i].t - rows[i - 1].t;
    speed = std::max(speed, glm::length(rows[i].offset - rows[i - 1].offset) / span);
    spin = std::max(spin, MotionScript::turnBetween(rows[i - 1], rows[i]) / span);
  }
  auto tooFast = [](const char* verb, double value, double limit, const char* unit) {
    std::ostringstream s;
    s << "at its fastest it would " << verb << " the container at " << value << " " << unit << ", beyond the limit of "
      << limit << " " << unit;
    return s.str();
  };
  require(speed <= MotionScript::kMaxScriptSpeed * (1.0 + 1e-9),
          tooFast("move", speed, MotionScript::kMaxScriptSpeed, "m/s") + " (amplitude, frequency, distance or speed)");
  require(spin <= MotionScript::kMaxScriptAngularSpeed * (1.0 + 1e-9),
          tooFast("turn", spin, MotionScript::kMaxScriptAngularSpeed, "rad/s") + " (angle or ramp time)");
  return MotionScript::fromRows(std::move(rows));
}

}  // namespace

const char* motionKindName(MotionKind kind) {
  switch (kind) {
    case MotionKind::Shake: return "shake";
    case MotionKind::Sweep: return "sweep";
    case MotionKind::Acceleration: return "acceleration";
    case MotionKind::Step: return "step";
    case MotionKind::Rotation: return "rotation";
    case MotionKind::Tilt: return "tilt";
    case MotionKind::Impulse: return "impulse";
    case MotionKind::Swirl: return "swirl";
    case MotionKind::Spin: return "spin";
    case MotionKind::Count: break;
  }
  return "?";
}

MotionScript makeMotion(const MotionSpec& s, int dim) {
  require(dim == 3 || s.kind != MotionKind::Spin, "a spin turns about the vertical: 3D only");
  require(s.axis == 0 || s.axis == 1, "the axis is x (0) or y (1)");
  require(s.duration > 0.0 && s.duration <= 600.0, "the duration lies in (0, 600] s");
  require(s.rampTime > 0.0 && s.rampTime <= 10.0, "the ramp time lies in (0, 10] s");
  Vec3 dir(0.0);
  dir[s.axis] = 1.0;
  switch (s.kind) {
    case MotionKind::Shake:
    case MotionKind::Sweep: {
      require(s.amplitude > 0.0 && s.amplitude <= 1.0, "the amplitude lies in (0, 1] m");
      require(s.frequency > 0.0 && s.frequency <= 20.0, "the frequency lies in (0, 20] Hz");
      const double f1 = s.kind == MotionKind::Sweep ? s.frequencyEnd : s.frequency;
      require(f1 > 0.0 && f1 <= 20.0, "the sweep's end frequency lies in (0, 20] Hz");
      const double ramp = std::min(1.0 / s.frequency, 0.5 * s.duration), T = s.duration;
      return sample(T, [&](double t, MotionScript::Row& r) {
        const double phase = 2.0 * kPi * (s.frequency * t + 0.5 * (f1 - s.frequency) * t * t / T);  // chirp
        const double envelope = smoothstep(t / ramp) * smoothstep((T - t) / ramp);
        r.offset = (s.amplitude * envelope * std::sin(phase)) * dir;
      });
    }
    case MotionKind::Acceleration: {
      require(std::abs(s.acceleration) > 0.0 && std::abs(s.acceleration) <= 100.0,
              "the acceleration lies in [-100, 100] m/s^2, not 0");
      const double a = s.acceleration, T = s.duration;
      return sample(2.0 * T, [&](double t, MotionScript::Row& r) {
        // x = a t^2/2 up to T, then braking at -a: x = a T^2/2 + a T (t - T) - a (t - T)^2/2.
        const double u = t - T;
        r.offset = (t <= T ? 0.5 * a * t * t : 0.5 * a * T * T + a * T * u - 0.5 * a * u * u) * dir;
      });
    }
    case MotionKind::Step:
      require(std::abs(s.distance) > 0.0 && std::abs(s.distance) <= 10.0, "the distance lies in [-10, 10] m, not 0");
      return sample(s.rampTime, [&](double t, MotionScript::Row& r) {
        r.offset = (s.distance * smoothstep(t / s.rampTime)) * dir;
      });
    case MotionKind::Impulse:
      require(std::abs(s.speed) > 0.0 && std::abs(s.speed) <= 20.0, "the speed lies in [-20, 20] m/s, not 0");
      // A smoothstep over the ramp peaks at 1.5 x its mean speed: the mean is speed/1.5.
      return sample(s.rampTime, [&](double t, MotionScript::Row& r) {
        r.offset = (s.speed * s.rampTime / 1.5 * smoothstep(t / s.rampTime)) * dir;
      });
    case MotionKind::Rotation:
    case MotionKind::Spin: {
      require(std::abs(s.rate) > 0.0 && std::abs(s.rate) <= 20.0, "the rate lies in [-20, 20] rad/s, not 0");
      const double ramp = std::min(s.rampTime, 0.5 * s.duration), T = s.duration;
      // The angle is the integral of the rate times a trapezoid whose ramps are smoothsteps;
      // sampled finely enough, the running sum is that integral.
      double angle = 0.0, last = 0.0;
      const bool spin = s.kind == MotionKind::Spin;
      return sample(T, [&](double t, MotionScript::Row& r) {
        const double h = t - last, mid = 0.5 * (t + last);
        angle += h * s.rate * smoothstep(mid / ramp) * smoothstep((T - mid) / ramp);
        last = t;
        (spin ? r.angleY : r.angle) = angle;
      });
    }
    case MotionKind::Swirl: {
      // The centre on a horizontal circle (x and z; x and y in 2D), its radius ramped
      // up over the first period and down over the last, as a shake's amplitude.
      require(s.amplitude > 0.0 && s.amplitude <= 1.0, "the amplitude lies in (0, 1] m");
      require(s.frequency > 0.0 && s.frequency <= 20.0, "the frequency lies in (0, 20] Hz");
      const double ramp = std::min(1.0 / s.frequency, 0.5 * s.duration), T = s.duration;
      const int across = dim == 3 ? 2 : 1;
      return sample(T, [&](double t, MotionScript::Row& r) {
        const double phase = 2.0 * kPi * s.frequency * t;
        const double radius = s.amplitude * smoothstep(t / ramp) * smoothstep((T - t) / ramp);
        r.offset.x = radius * std::cos(phase);
        r.offset[across] = radius * std::sin(phase);
      });
    }
    case MotionKind::Tilt:
      require(std::abs(s.angle) > 0.0 && std::abs(s.angle) <= kPi, "the angle lies in [-pi, pi] rad, not 0");
      return sample(s.rampTime, [&](double t, MotionScript::Row& r) { r.angle = s.angle * smoothstep(t / s.rampTime); });
    case MotionKind::Count: break;
  }
  throw std::runtime_error("motion: unknown kind");
}

std::string motionCsv(const MotionScript& script, int dim) {
  std::ostringstream out;
  out.precision(10);
  // The 3D angles only when the script turns about more than z: older readers read it.
  bool turns3d = false;
  for (const auto& r : script.rows()) turns3d = turns3d || r.angleX != 0.0 || r.angleY != 0.0;
  turns3d = turns3d && dim == 3;
  out << (dim == 3 ? "t,x,y,z,angle" : "t,x,y,angle") << (turns3d ? ",angle_x,angle_y\n" : "\n");
  for (const auto& r : script.rows()) {
    out << r.t << ',' << r.offset.x << ',' << r.offset.y;
    if (dim == 3) out << ',' << r.offset.z;
    out << ',' << r.angle;
    if (turns3d) out << ',' << r.angleX << ',' << r.angleY;
    out << '\n';
  }
  return out.str();
}

}  // namespace sloshlab
