#include "support/sloshing.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace sloshlab::test {

namespace {
constexpr double kG = 9.81;

std::string tankJson(const SloshTank& tank) {
  std::ostringstream s;
  s << R"({"name": "slosh", "solver": "wcsph", "spacing": )" << tank.spacing << R"(, "spacing_3d": )"
    << tank.spacing << R"(, "gravity": [0, -9.81, 0], "container": {"size": [)" << tank.width << ", "
    << tank.height << ", " << tank.thickness << R"(], "position": [0, 0, 0], "angle": 0}, )"
    << R"("fluid": [{"box": {"min": [0, 0], "max": [)" << tank.width << ", " << tank.depth << "]}}]}";
  return s.str();
}

// The liquid's centre of mass along x in the container's frame.
template <int D>
double centreX(SimulationImpl<D>& sim) {
  const ParticleSet<D>& p = sim.particles();
  double mx = 0.0, m = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) mx += p.m[i] * p.x[i].x, m += p.m[i];
  return m > 0.0 ? mx / m : 0.0;
}

template <int D>
double totalMass(SimulationImpl<D>& sim) {
  double m = 0.0;
  for (double mi : sim.particles().m) m += mi;
  return m;
}
}  // namespace

double firstModeOmega(double width, double depth) {
  const double k = kPi / width;
  return std::sqrt(kG * k * std::tanh(k * depth));
}

template <int D>
SloshFigures freeSlosh(const std::string& solver, const SloshTank& tank,
                       const std::vector<std::pair<std::string, std::string>>& overrides) {
  SloshFigures f;
  const double omega = firstModeOmega(tank.width, tank.depth);
  const double period = 2.0 * kPi / omega;
  f.referencePeriod = period;
  const double shakeEnd = tank.cycles * period;
  std::vector<MotionScript::Row> rows;
  const int perPeriod = 200;
  for (int k = 0; k <= tank.cycles * perPeriod; ++k) {
    MotionScript::Row r;
    r.t = k * period / perPeriod;
    r.offset = Vec3(tank.amplitude * (1.0 - std::cos(omega * r.t)), 0.0, 0.0);
    rows.push_back(r);
  }
  SimSpec spec;
  spec.solver = solver;
  spec.spacing = tank.spacing;
  spec.overrides = overrides;
  spec.motion = MotionScript::fromRows(std::move(rows));
  auto sim = makeSimFromJson<D>(tankJson(tank), spec);
  const double rest = centreX(*sim);
  const double end = shakeEnd + tank.freePeriods * period;
  f.swings.assign(tank.freePeriods, 0.0);
  double last = 0.0, lastT = 0.0;
  std::vector<double> upCrossings;
  while (sim->time() < end - 1e-12 && !sim->failed()) {
    sim->step(end);
    const double t = sim->time(), c = centreX(*sim) - rest;
    if (t <= shakeEnd) {
      f.shakenSwing = std::max(f.shakenSwing, std::abs(c));
    } else {
      const int k = std::min(static_cast<int>((t - shakeEnd) / period), tank.freePeriods - 1);
      f.swings[k] = std::max(f.swings[k], std::abs(c));
      if (last < 0.0 && c >= 0.0 && lastT > shakeEnd) upCrossings.push_back(lastT + (t - lastT) * (-last) / (c - last));
    }
    last = c, lastT = t;
  }
  if (upCrossings.size() >= 2)
    f.period = (upCrossings.back() - upCrossings.front()) / static_cast<double>(upCrossings.size() - 1);
  if (tank.freePeriods >= 4 && f.swings[0] > 0.0) {
    f.keptAfterThree = f.swings[3] / f.swings[0];
    f.lossPerPeriod = 1.0 - std::cbrt(f.keptAfterThree);
  }
  f.outside = sim->countOutside();
  std::printf("[ figures  ] %s %dD slosh L %.3f h %.3f A %.4f m, %zu particles: period %.4f s (reference %.4f, %+.1f %%), "
              "swing shaken %.2f mm, free",
              solver.c_str(), D, tank.width, tank.depth, tank.amplitude, sim->particleCount(), f.period, period,
              f.period > 0.0 ? 100.0 * (f.period / period - 1.0) : 0.0, 1e3 * f.shakenSwing);
  for (double s : f.swings) std::printf(" %.2f", 1e3 * s);
  std::printf(" mm; kept after three periods %.1f %% (loss %.1f %% per period)%s\n", 100.0 * f.keptAfterThree,
              100.0 * f.lossPerPeriod, sim->failed() ? (" FAILED: " + sim->failureMessage()).c_str() : "");
  return f;
}

template <int D>
AfterDragFigures afterDrag(const std::string& solver, double spacing, const MotionScript& motion, double restTime,
                           const std::vector<std::pair<std::string, std::string>>& overrides) {
  AfterDragFigures f;
  SimSpec spec;
  spec.scene = "bottle";
  spec.solver = solver;
  spec.spacing = spacing;
  spec.motion = motion;
  spec.overrides = overrides;
  auto sim = makeSim<D>(spec);
  const double mass = totalMass(*sim);
  f.stillFrom = motion.rows().back().t;
  const double end = f.stillFrom + restTime;
  double lowest = 0.0;
  bool still = false;
  while (sim->time() < end - 1e-12 && !sim->failed()) {
    sim->step(still ? end : f.stillFrom);
    f.outside = std::max(f.outside, sim->countOutside());
    if (sim->time() < f.stillFrom - 1e-12) continue;
    const StepStats& s = sim->stats();
    const double energy = (s.kineticEnergy + s.potentialEnergy) / mass;
    if (!still) {
      still = true;
      f.energyAtStill = lowest = energy;
      f.kineticAtStill = s.kineticEnergy / mass;
    }
    lowest = std::min(lowest, energy);
    f.largestGain = std::max(f.largestGain, energy - lowest);
  }
  f.failed = sim->failed();
  f.failure = sim->failureMessage();
  f.kineticAtEnd = sim->stats().kineticEnergy / mass;
  double speed = 0.0;
  for (const Vec<D>& v : sim->particles().v) speed += glm::length(v);
  f.meanSpeedAtEnd = speed / static_cast<double>(std::max<std::size_t>(1, sim->particleCount()));
  std::printf("[ figures  ] %s %dD after the drag: %zu particles; at rest from t = %.2f s: KE %.3f J/kg, then largest "
              "energy gain %.4f J/kg; after %.1f s KE %.5f J/kg (%.2f %%), mean speed %.4f m/s; outside %zu%s\n",
              solver.c_str(), D, sim->particleCount(), f.stillFrom, f.kineticAtStill, f.largestGain, restTime,
              f.kineticAtEnd, f.kineticAtStill > 0.0 ? 100.0 * f.kineticAtEnd / f.kineticAtStill : 0.0,
              f.meanSpeedAtEnd, f.outside, f.failed ? (" FAILED: " + f.failure).c_str() : "");
  return f;
}

MotionScript fastDrag() {
  std::vector<MotionScript::Row> rows;
  for (int k = 0; k <= 40; ++k) {
    MotionScript::Row r;
    r.t = 0.005 * k;
    const double s = r.t / 0.2;
    r.offset = Vec3(0.3 * s * s * (3.0 - 2.0 * s), 0.0, 0.0);
    rows.push_back(r);
  }
  return MotionScript::fromRows(std::move(rows));
}

MotionScript violentDrag() {
  // x = 0.22 sin(2 pi 3 t): 80 m/s^2 (8.2 g) at the ends, 4.1 m/s through the middle;
  // angle = (pi/3) sin(2 pi 1.5 t): +-60 degrees, up to 9.9 rad/s. At t = 1 s both
  // are back at zero with full speed, and the script holds: a sudden stop.
  std::vector<MotionScript::Row> rows;
  for (int k = 0; k <= 200; ++k) {
    MotionScript::Row r;
    r.t = 0.005 * k;
    r.offset = Vec3(0.22 * std::sin(2.0 * kPi * 3.0 * r.t), 0.0, 0.0);
    r.angle = kPi / 3.0 * std::sin(2.0 * kPi * 1.5 * r.t);
    rows.push_back(r);
  }
  return MotionScript::fromRows(std::move(rows));
}

template SloshFigures freeSlosh<2>(const std::string&, const SloshTank&,
                                   const std::vector<std::pair<std::string, std::string>>&);
template SloshFigures freeSlosh<3>(const std::string&, const SloshTank&,
                                   const std::vector<std::pair<std::string, std::string>>&);
template AfterDragFigures afterDrag<2>(const std::string&, double, const MotionScript&, double,
                                               const std::vector<std::pair<std::string, std::string>>&);
template AfterDragFigures afterDrag<3>(const std::string&, double, const MotionScript&, double,
                                               const std::vector<std::pair<std::string, std::string>>&);

}  // namespace sloshlab::test
