// The dam break against Martin & Moyce (1952), physics.md (11.8).
//
// The scene: a water column of width a = 0.05715 m and height 2a at the left wall of a
// tank 6a long. The front Z = (max x + s/2) / a is sampled every dT = 0.05 up to
// T = 3.6 (the table's range), T = t sqrt(2g/a). Simulated fronts lead the experiment
// by about dT = 0.25 because the experiment's gate took time to lift; the measured
// front speed dZ/dT is fitted over the table's times on the curve shifted by that, and
// compared with the table's own fit (1.124).
#include "experiments/experiment_runs.h"

#include "io/csv_reader.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace sloshlab {

std::vector<FrontPoint> martinMoyceFront() {
  const CsvTable table = validationTable("martin_moyce_1952_front_n2_2_table2.csv");
  const int cT = table.column("T"), cZ = table.column("Z");
  std::vector<FrontPoint> points;
  for (const auto& row : table.rows) points.push_back({row[cT], row[cZ]});
  return points;
}

namespace experiments {

namespace {

constexpr double kColumnWidth = 0.05715;  // a (m)
constexpr double kShift = 0.25;           // dT the simulated curve leads by (see the header)

// Linear interpolation of Z at T in a curve sampled in increasing T.
double interpolate(const std::vector<FrontPoint>& curve, double T) {
  if (T <= curve.front().T) return curve.front().Z;
  for (std::size_t i = 1; i < curve.size(); ++i)
    if (curve[i].T >= T) {
      const double w = (T - curve[i - 1].T) / (curve[i].T - curve[i - 1].T);
      return curve[i - 1].Z + w * (curve[i].Z - curve[i - 1].Z);
    }
  return curve.back().Z;
}

}  // namespace

}  // namespace experiments

FrontComparison compareWithMartinMoyce(const std::vector<FrontPoint>& simulated, double shift) {
  const std::vector<FrontPoint> table = martinMoyceFront();
  FrontComparison c;
  c.shift = shift;
  double sumShifted = 0, sumPlain = 0;
  std::vector<double> T, Zsim, Zexp;
  for (const FrontPoint& p : table) {
    const double shifted = experiments::interpolate(simulated, p.T - shift);
    const double plain = experiments::interpolate(simulated, p.T);
    sumShifted += (shifted - p.Z) * (shifted - p.Z);
    sumPlain += (plain - p.Z) * (plain - p.Z);
    T.push_back(p.T), Zsim.push_back(shifted), Zexp.push_back(p.Z);
  }
  const double n = static_cast<double>(table.size());
  c.rmsShifted = std::sqrt(sumShifted / n);
  c.rmsUnshifted = std::sqrt(sumPlain / n);
  c.slopeSimulated = experiments::fitLine(T, Zsim).first;
  c.slopeMeasured = experiments::fitLine(T, Zexp).first;
  c.slopeError = std::abs(c.slopeSimulated / c.slopeMeasured - 1.0);
  return c;
}

namespace experiments {

template <int D>
ExperimentResult damBreak(const Run& run) {
  auto sim = start<D>(run, loadScene("dam_break"));
  const double a = kColumnWidth, s = sim->spacing();
  const double timeScale = std::sqrt(2.0 * 9.81 / a);  // T = t sqrt(2g/a)
  auto front = [&] {
    double xmax = 0.0;
    for (const auto& x : sim->particles().x) xmax = std::max(xmax, x.x);
    return (xmax + 0.5 * s) / a;
  };
  const std::vector<FrontPoint> table = martinMoyceFront();
  ExperimentResult r;
  r.quantity = std::string("front speed dZ/dT");
  r.unit = std::string("1");
  r.columns = {"T", "Z_simulated", "T_shifted", "Z_martin_moyce"};
  auto addRow = [&](const FrontPoint& p) {
    const double shifted = p.T + kShift;
    const bool inTable = shifted >= table.front().T && shifted <= table.back().T;
    r.rows.push_back({p.T, p.Z, shifted, inTable ? interpolate(table, shifted) : kNotMeasured});
  };
  // So far: the front speeds fitted over the rows inside the table's times (both
  // against T_shifted), once there are three.
  auto sofar = [&] {
    ExperimentResult partial = r;
    partial.measured = partial.reference = kNotMeasured;
    std::vector<double> T, Zsim, Zexp;
    for (const auto& row : r.rows)
      if (std::isfinite(row[3])) T.push_back(row[2]), Zsim.push_back(row[1]), Zexp.push_back(row[3]);
    if (T.size() >= 3) partial.measured = fitLine(T, Zsim).first, partial.reference = fitLine(T, Zexp).first;
    partial.method = std::string("so far: both fronts' speeds fitted over the same times");
    return partial;
  };
  std::vector<FrontPoint> curve{{0.0, front()}};
  addRow(curve.back());
  constexpr double kEnd = 3.6, kEvery = 0.05;
  for (int k = 1; k * kEvery <= kEnd + 1e-9; ++k) {
    advance(*sim, k * kEvery / timeScale, run);
    curve.push_back({k * kEvery, front()});
    addRow(curve.back());
    run.showCurve(sofar);
    run.report(k * kEvery / kEnd);
  }
  const FrontComparison c = compareWithMartinMoyce(curve, kShift);
  r.particles = sim->particleCount();
  r.measured = c.slopeSimulated;
  r.reference = c.slopeMeasured;
  r.method = std::string("Martin & Moyce 1952, Table 2; the simulated front shifted by dT = 0.25 (the gate's lift)");
  return r;
}

template ExperimentResult damBreak<2>(const Run&);
template ExperimentResult damBreak<3>(const Run&);

}  // namespace experiments
}  // namespace sloshlab
