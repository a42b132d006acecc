// Forced sway, physics.md (11.10): a wave gauge near the wall of a tank swayed from rest,
// against the measurements of Faltinsen et al. (2000) and against the linear modal
// solution (sloshlab/experiments.h).
#include "experiments/experiment_runs.h"

#include "io/csv_reader.h"
#include "sloshlab/gauges.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace sloshlab {

double swayLinearElevation(const SwayTank& tank, double x, double t, int modes, double g) {
  const double sigma = 2.0 * kPi / tank.period;
  double eta = 0.0;
  for (int n = 1; n < 2 * modes; n += 2) {  // the even modes are not forced (11.10)
    const double k = n * kPi / tank.width;
    const double omega2 = g * k * std::tanh(k * tank.depth);
    const double forcing = -4.0 * omega2 * tank.amplitude * sigma * sigma / (g * tank.width * k * k);
    eta += forcing * (std::cos(sigma * t) - std::cos(std::sqrt(omega2) * t)) / (omega2 - sigma * sigma) * std::cos(k * x);
  }
  return eta;
}

std::vector<SwayPoint> faltinsenSway() {
  const CsvTable table = validationTable("faltinsen_2000_sway_h0.6_T1.3_elevation.csv");
  const int ct = table.column("t_s"), ceta = table.column("eta_m");
  std::vector<SwayPoint> points;
  for (const auto& row : table.rows) points.push_back({row[ct], row[ceta]});
  return points;
}

SwayComparison compareWithFaltinsen(const std::vector<SwayPoint>& curve) {
  SwayComparison c;
  if (curve.size() < 2) return c;
  std::vector<double> a, b;
  std::size_t j = 1;
  for (const SwayPoint& p : faltinsenSway()) {
    if (p.t < 0.1 || p.t > 9.9 || p.t < curve.front().t || p.t > curve.back().t) continue;
    while (j + 1 < curve.size() && curve[j].t < p.t) ++j;
    const SwayPoint &lo = curve[j - 1], &hi = curve[j];
    const double w = hi.t > lo.t ? (p.t - lo.t) / (hi.t - lo.t) : 0.0;
    a.push_back(lo.eta + w * (hi.eta - lo.eta));
    b.push_back(p.eta);
  }
  c.points = a.size();
  if (a.size() < 3) return c;
  const double n = static_cast<double>(a.size());
  double ma = 0.0, mb = 0.0, sq = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) ma += a[k] / n, mb += b[k] / n, sq += (a[k] - b[k]) * (a[k] - b[k]);
  double sab = 0.0, saa = 0.0, sbb = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    sab += (a[k] - ma) * (b[k] - mb), saa += (a[k] - ma) * (a[k] - ma), sbb += (b[k] - mb) * (b[k] - mb);
  }
  c.correlation = saa > 0.0 && sbb > 0.0 ? sab / std::sqrt(saa * sbb) : 0.0;
  c.rms = std::sqrt(sq / n);
  return c;
}

namespace experiments {

namespace {

Scene swayScene(const SwayTank& tank, double spacing2d, double spacing3d) {
  std::ostringstream s;
  s.precision(17);
  s << R"({"name": "forced_sway", "solver": "apic", "spacing": )" << spacing2d << R"(, "spacing_3d": )" << spacing3d
    << R"(, "gravity": [0, -9.81, 0], "container": {"size": [)" << tank.width << ", " << tank.height << ", "
    << tank.thickness << R"(], "position": [0, 0, 0], "angle": 0}, )"
    << R"("fluid": [{"box": {"min": [0, 0], "max": [)" << tank.width << ", " << tank.depth << "]}}]}";
  return parseScene(s.str(), "experiment:forced_sway");
}

// The tank still until `start`, then x = A (cos(sigma (t - start)) - 1), sampled every
// 5 ms: it sets off from rest where it stands.
MotionScript swayMotion(const SwayTank& tank, double start) {
  const double sigma = 2.0 * kPi / tank.period;
  std::vector<MotionScript::Row> rows{MotionScript::Row{}};
  const int n = static_cast<int>(std::ceil(tank.duration / 0.005));
  for (int k = 0; k <= n; ++k) {
    MotionScript::Row r;
    r.t = start + k * 0.005;
    r.offset = Vec3(tank.amplitude * (std::cos(sigma * k * 0.005) - 1.0), 0.0, 0.0);
    rows.push_back(r);
  }
  return MotionScript::fromRows(std::move(rows));
}

// The liquid settled (settle: the SPH solvers' lattice sinks by up to half a spacing
// as it settles, which a gauge zeroed on the fresh lattice read as a wave), the gauge
// zeroed on the still level, then the tank swayed for its duration, the gauge read every
// 0.01 s: `reading(t, eta)` after each reading, t from the sway's start. Returns the
// particle count.
template <int D, class Reading>
std::size_t sway(const Run& run, const SwayTank& tank, double spacing, Reading&& reading) {
  auto sim = start<D>(Run(run.solver, D, spacing), swayScene(tank, spacing, spacing), swayMotion(tank, kSettled));
  const double total = kSettled + tank.duration;
  settle(*sim, run, kSettled / total);
  WaveGauges gauge({tank.gaugeX});
  const double level = gauge.heights(*sim).front();
  const double every = 0.01;  // s between gauge readings
  while (sim->time() < total - 1e-12) {
    advance(*sim, std::min(total, sim->time() + every), run);
    run.report(sim->time() / total);
    reading(sim->time() - kSettled, gauge.heights(*sim).front() - level);
  }
  return sim->particleCount();
}

}  // namespace

template <int D>
ExperimentResult forcedSway(const Run& run) {
  const SwayTank tank;
  const double spacing = run.spacing > 0.0 ? run.spacing : (D == 2 ? 0.02 : 0.03);
  const std::vector<SwayPoint> measured = faltinsenSway();

  std::vector<SwayPoint> curve{{0.0, 0.0}};
  std::vector<std::vector<double>> rows;
  // The measured record at t, linearly interpolated; NaN outside it.
  auto measuredAt = [&measured](double t) {
    if (t < measured.front().t || t > measured.back().t) return kNotMeasured;
    const auto hi = std::lower_bound(measured.begin(), measured.end(), t,
                                     [](const SwayPoint& p, double x) { return p.t < x; });
    if (hi == measured.begin()) return hi->eta;
    const auto lo = hi - 1;
    return lo->eta + (t - lo->t) / (hi->t - lo->t) * (hi->eta - lo->eta);
  };
  auto addRow = [&](double t, double eta) {
    rows.push_back({t, eta, swayLinearElevation(tank, tank.gaugeX, t), measuredAt(t)});
  };
  addRow(0.0, 0.0);
  const std::size_t particles = sway<D>(run, tank, spacing, [&](double t, double eta) {
    curve.push_back({t, eta});
    addRow(t, eta);
    run.showCurve([&] {
      ExperimentResult partial;
      partial.quantity = std::string("correlation with the measured gauge");
      partial.unit = std::string("1");
      partial.reference = 1.0;
      partial.measured = t > 1.0 ? compareWithFaltinsen(curve).correlation : kNotMeasured;
      partial.method = std::string("so far");
      partial.columns = {"t_s", "eta_simulated_m", "eta_linear_m", "eta_measured_m"};
      partial.rows = rows;
      return partial;
    });
  });
  const SwayComparison simulated = compareWithFaltinsen(curve);
  std::vector<SwayPoint> linear;
  for (const auto& row : rows) linear.push_back({row[0], row[2]});
  const SwayComparison theory = compareWithFaltinsen(linear);

  ExperimentResult r;
  r.particles = particles;
  r.quantity = std::string("correlation with the measured gauge");
  r.unit = std::string("1");
  r.measured = simulated.correlation;
  r.reference = 1.0;
  char method[240];
  std::snprintf(method, sizeof method,
                "gauge 0.05 m from the wall, 0.1-9.9 s, %zu points of Faltinsen et al. 2000; RMS %.1f mm; the linear "
                "solution (11.10): correlation %.3f, RMS %.1f mm",
                simulated.points, 1000.0 * simulated.rms, theory.correlation, 1000.0 * theory.rms);
  r.method = method;
  r.columns = {"t_s", "eta_simulated_m", "eta_linear_m", "eta_measured_m"};
  r.rows = std::move(rows);
  return r;
}

template ExperimentResult forcedSway<2>(const Run&);
template ExperimentResult forcedSway<3>(const Run&);

}  // namespace experiments

template <int D>
std::vector<SwayPoint> swayGauge(const std::string& solver, double spacing, const SwayTank& tank) {
  std::vector<SwayPoint> curve{{0.0, 0.0}};
  experiments::sway<D>(experiments::Run(solver, D, spacing), tank, spacing,
                       [&](double t, double eta) { curve.push_back({t, eta}); });
  return curve;
}

template std::vector<SwayPoint> swayGauge<2>(const std::string&, double, const SwayTank&);
template std::vector<SwayPoint> swayGauge<3>(const std::string&, double, const SwayTank&);

}  // namespace sloshlab
