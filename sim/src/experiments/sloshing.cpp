// Free sloshing of a rectangular tank, physics.md (11.4) and (11.7a): freeSlosh (see
// sloshlab/experiments.h) and the sloshing experiment, its default tank (L = 0.2 m,
// h = 0.1 m, shaken one period at A = 5 mm, four free periods).
#include "experiments/experiment_runs.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace sloshlab {

namespace {

Scene tankScene(const SloshTank& tank) {
  std::ostringstream s;
  s.precision(17);
  s << R"({"name": "slosh", "solver": "wcsph", "spacing": )" << tank.spacing << R"(, "spacing_3d": )"
    << tank.spacing << R"(, "gravity": [0, -9.81, 0], "container": {"size": [)" << tank.width << ", "
    << tank.height << ", " << tank.thickness << R"(], "position": [0, 0, 0], "angle": 0}, )"
    << R"("fluid": [{"box": {"min": [0, 0], "max": [)" << tank.width << ", " << tank.depth << "]}}]";
  if (tank.baffle > 0.0)  // the baffled_tank scene's baffle, scaled with the tank
    s << R"(, "obstacles": [{"box": {"min": [)" << 0.46 * tank.width << R"(, 0], "max": [)" << 0.54 * tank.width
      << ", " << tank.baffle << "]}}]";
  s << "}";
  return parseScene(s.str(), "experiment:sloshing");
}

// The curve every 2 ms (a few thousand rows, not every step's).
std::vector<std::vector<double>> thinned(const std::vector<std::vector<double>>& curve) {
  std::vector<std::vector<double>> rows;
  for (const auto& row : curve)
    if (rows.empty() || row[0] >= rows.back()[0] + 0.002) rows.push_back(row);
  return rows;
}

}  // namespace

namespace experiments {

double crossingPeriod(const std::vector<double>& upCrossings) {
  if (upCrossings.size() < 2) return kNotMeasured;
  return (upCrossings.back() - upCrossings.front()) / static_cast<double>(upCrossings.size() - 1);
}

ExperimentResult periodSoFar(double reference, double measured, const std::string& phase,
                             std::vector<std::string> columns, std::vector<std::vector<double>> rows) {
  ExperimentResult partial;
  partial.quantity = std::string("first mode period");
  partial.unit = std::string("s");
  partial.reference = reference;
  partial.measured = measured;
  partial.method = phase;
  partial.columns = std::move(columns);
  partial.rows = std::move(rows);
  return partial;
}

// freeSlosh with a run's progress (the share of the simulated time done) and observer:
// the sloshing experiment's. `run.spacing` is the tank's.
template <int D>
SloshFigures slosh(const Run& run, const SloshTank& tank,
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
  auto sim = start<D>(run, tankScene(tank), MotionScript::fromRows(std::move(rows)), overrides);
  const double rest = liquidCentre(*sim).x;
  const double end = shakeEnd + tank.freePeriods * period;
  f.swings.assign(tank.freePeriods, 0.0);
  double last = 0.0, lastT = 0.0;
  std::vector<double> upCrossings;
  while (sim->time() < end - 1e-12 && !sim->failed()) {
    sim->step(end);
    const double t = sim->time(), c = liquidCentre(*sim).x - rest;
    f.curve.push_back({t, c});
    if (t <= shakeEnd) {
      f.shakenSwing = std::max(f.shakenSwing, std::abs(c));
    } else {
      const int k = std::min(static_cast<int>((t - shakeEnd) / period), tank.freePeriods - 1);
      f.swings[k] = std::max(f.swings[k], std::abs(c));
      if (last < 0.0 && c >= 0.0 && lastT > shakeEnd) upCrossings.push_back(lastT + (t - lastT) * (-last) / (c - last));
    }
    last = c, lastT = t;
    run.report(t / end);
    run.watch(*sim);
    run.showCurve([&] {
      return periodSoFar(period, crossingPeriod(upCrossings), t <= shakeEnd ? "so far: shaken" : "so far: free",
                         {"t_s", "centre_of_mass_x_m"}, thinned(f.curve));
    });
  }
  if (upCrossings.size() >= 2) f.period = crossingPeriod(upCrossings);
  if (tank.freePeriods >= 4 && f.swings[0] > 0.0) {
    f.keptAfterThree = f.swings[3] / f.swings[0];
    f.lossPerPeriod = 1.0 - std::cbrt(f.keptAfterThree);
  }
  f.outside = sim->countOutside();
  f.particles = sim->particleCount();
  if (sim->failed()) f.failure = sim->failureMessage();
  return f;
}

}  // namespace experiments

template <int D>
SloshFigures freeSlosh(const std::string& solver, const SloshTank& tank,
                       const std::vector<std::pair<std::string, std::string>>& overrides) {
  return experiments::slosh<D>(experiments::Run(solver, D, tank.spacing), tank, overrides);
}

template SloshFigures freeSlosh<2>(const std::string&, const SloshTank&,
                                   const std::vector<std::pair<std::string, std::string>>&);
template SloshFigures freeSlosh<3>(const std::string&, const SloshTank&,
                                   const std::vector<std::pair<std::string, std::string>>&);

namespace experiments {

template <int D>
ExperimentResult sloshing(const Run& run) {
  SloshTank tank;
  if (run.spacing > 0.0) tank.spacing = run.spacing;
  const SloshFigures f = slosh<D>(Run(run.solver, D, tank.spacing, run.progress, run.observer), tank, {});
  if (!f.failure.empty()) throw ExperimentFailure(f.failure);
  if (f.period == 0.0) throw ExperimentFailure("the liquid did not swing back and forth: no period to measure");
  ExperimentResult r;
  r.particles = f.particles;
  r.quantity = std::string("first mode period");
  r.unit = std::string("s");
  r.measured = f.period;
  r.reference = f.referencePeriod;
  char method[200];
  std::snprintf(method, sizeof method,
                "upward zero crossings of the centre of mass over 4 free periods; the swing keeps %.0f %% per period",
                100.0 * (1.0 - f.lossPerPeriod));
  r.method = method;
  r.columns = {"t_s", "centre_of_mass_x_m"};
  r.rows = thinned(f.curve);
  return r;
}

template ExperimentResult sloshing<2>(const Run&);
template ExperimentResult sloshing<3>(const Run&);

// Why tank trucks have baffles (physics.md (11.4b)): the sloshing experiment's tank
// shaken two periods at its first mode, once open and once with the baffled_tank scene's
// baffle (0.6 of the depth high) standing at mid-tank. The swing kept after three free
// periods with the baffle, against the open tank's.
template <int D>
ExperimentResult baffle(const Run& run) {
  SloshTank tank;
  if (run.spacing > 0.0) tank.spacing = run.spacing;
  tank.cycles = 2;
  const auto half = [&](double from) {
    return Run(run.solver, D, tank.spacing, [&run, from](double share) { run.report(from + 0.5 * share); },
               run.observer);
  };
  const SloshFigures open = slosh<D>(half(0.0), tank, {});
  if (!open.failure.empty()) throw ExperimentFailure("the open tank: " + open.failure);
  tank.baffle = 0.6 * tank.depth;
  const SloshFigures baffled = slosh<D>(half(0.5), tank, {});
  if (!baffled.failure.empty()) throw ExperimentFailure("the baffled tank: " + baffled.failure);
  if (!(open.keptAfterThree > 0.0))
    throw ExperimentFailure("the open tank did not swing: no swing to compare the baffled tank's with");
  ExperimentResult r;
  r.particles = baffled.particles;
  r.quantity = std::string("swing kept after three free periods, baffled");
  r.unit = std::string("1");
  r.measured = baffled.keptAfterThree;
  r.reference = open.keptAfterThree;
  char method[240];
  std::snprintf(method, sizeof method,
                "the open tank's share is the reference; the largest swing of the centre of mass per free period; "
                "free period %.3f s baffled, %.3f s open (2 pi / omega_1 = %.3f s)",
                baffled.period, open.period, open.referencePeriod);
  r.method = method;
  // The baffled tank's curve at the open one's times (both thinned to 2 ms), linearly.
  r.columns = {"t_s", "open_centre_of_mass_x_m", "baffled_centre_of_mass_x_m"};
  std::size_t j = 0;
  for (const auto& row : thinned(open.curve)) {
    const double t = row[0];
    while (j + 1 < baffled.curve.size() && baffled.curve[j + 1][0] < t) ++j;
    double b = baffled.curve.empty() ? 0.0 : baffled.curve[j][1];
    if (j + 1 < baffled.curve.size() && baffled.curve[j + 1][0] > baffled.curve[j][0]) {
      const double a = std::clamp((t - baffled.curve[j][0]) / (baffled.curve[j + 1][0] - baffled.curve[j][0]), 0.0, 1.0);
      b += a * (baffled.curve[j + 1][1] - b);
    }
    r.rows.push_back({t, row[1], b});
  }
  return r;
}

template ExperimentResult baffle<2>(const Run&);
template ExperimentResult baffle<3>(const Run&);

}  // namespace experiments
}  // namespace sloshlab
