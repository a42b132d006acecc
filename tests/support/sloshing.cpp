#include "support/sloshing.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace sloshlab::test {

namespace {

template <int D>
double totalMass(SimulationImpl<D>& sim) {
  double m = 0.0;
  for (double mi : sim.particles().m) m += mi;
  return m;
}

}  // namespace

void printSlosh(const std::string& solver, int dim, const SloshTank& tank, const SloshFigures& f) {
  std::printf("[ figures  ] %s %dD slosh L %.3f h %.3f A %.4f m, %zu particles: period %.4f s (reference %.4f, %+.1f %%), "
              "swing shaken %.2f mm, free",
              solver.c_str(), dim, tank.width, tank.depth, tank.amplitude, f.particles, f.period, f.referencePeriod,
              f.period > 0.0 ? 100.0 * (f.period / f.referencePeriod - 1.0) : 0.0, 1e3 * f.shakenSwing);
  for (double s : f.swings) std::printf(" %.2f", 1e3 * s);
  std::printf(" mm; kept after three periods %.1f %% (loss %.1f %% per period)%s\n", 100.0 * f.keptAfterThree,
              100.0 * f.lossPerPeriod, f.failure.empty() ? "" : (" FAILED: " + f.failure).c_str());
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

template AfterDragFigures afterDrag<2>(const std::string&, double, const MotionScript&, double,
                                               const std::vector<std::pair<std::string, std::string>>&);
template AfterDragFigures afterDrag<3>(const std::string&, double, const MotionScript&, double,
                                               const std::vector<std::pair<std::string, std::string>>&);

}  // namespace sloshlab::test
