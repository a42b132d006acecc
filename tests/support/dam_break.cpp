#include "support/dam_break.h"

#include "csv_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sloshlab::test {

std::vector<FrontPoint> martinMoyceFront() {
  const CsvTable table = readCsv(dataPath("martin_moyce_1952_front_n2_2_table2.csv"), "validation data");
  const int cT = table.column("T"), cZ = table.column("Z");
  std::vector<FrontPoint> points;
  for (const auto& row : table.rows) points.push_back({row[cT], row[cZ]});
  return points;
}

namespace {

// Linear interpolation of Z at T in a simulated curve sampled densely.
double interpolate(const std::vector<FrontPoint>& curve, double T) {
  if (T <= curve.front().T) return curve.front().Z;
  for (std::size_t i = 1; i < curve.size(); ++i)
    if (curve[i].T >= T) {
      const double w = (T - curve[i - 1].T) / (curve[i].T - curve[i - 1].T);
      return curve[i - 1].Z + w * (curve[i].Z - curve[i - 1].Z);
    }
  return curve.back().Z;
}

double fitSlope(const std::vector<double>& T, const std::vector<double>& Z) {
  const double n = static_cast<double>(T.size());
  double st = 0, sz = 0, stt = 0, stz = 0;
  for (std::size_t i = 0; i < T.size(); ++i) st += T[i], sz += Z[i], stt += T[i] * T[i], stz += T[i] * Z[i];
  return (n * stz - st * sz) / (n * stt - st * st);
}

}  // namespace

DamBreakFigures runDamBreak(const std::string& solver, int resolution,
                            std::vector<std::pair<std::string, std::string>> overrides, bool solverSteps) {
  const double a = 0.05715, g = 9.81;
  const double spacing = a / resolution;
  SimSpec spec;
  spec.scene = "dam_break";
  spec.solver = solver;
  spec.spacing = spacing;
  spec.overrides = std::move(overrides);
  auto sim = makeSim<2>(spec);
  const double timeScale = std::sqrt(2.0 * g / a);  // T = t sqrt(2g/a)
  DamBreakFigures f;
  auto front = [&] {
    double xmax = 0.0;
    for (const auto& x : sim->particles().x) xmax = std::max(xmax, x.x);
    return (xmax + 0.5 * spacing) / a;
  };
  f.simulated.push_back({0.0, front()});
  if (solverSteps) {
    while (sim->time() * timeScale < 3.6 && !sim->failed()) {
      sim->step(0.0);  // no limit: the solver's own step
      if (!sim->failed()) f.simulated.push_back({sim->time() * timeScale, front()});
    }
  } else {
    for (double T = 0.05; T <= 3.6 + 1e-9; T += 0.05) {
      sim->advanceTo(T / timeScale);
      if (sim->failed()) break;
      f.simulated.push_back({T, front()});
    }
  }
  if (sim->failed()) {
    ADD_FAILURE() << sim->failureMessage();
    return f;
  }
  const auto table = martinMoyceFront();
  double sumShifted = 0, sumPlain = 0;
  std::vector<double> Ts, Zsim, Zexp;
  for (const FrontPoint& p : table) {
    const double shifted = interpolate(f.simulated, p.T - f.shift);
    sumShifted += (shifted - p.Z) * (shifted - p.Z);
    const double plain = interpolate(f.simulated, p.T);
    sumPlain += (plain - p.Z) * (plain - p.Z);
    Ts.push_back(p.T);
    Zsim.push_back(shifted);
    Zexp.push_back(p.Z);
  }
  f.rmsShifted = std::sqrt(sumShifted / static_cast<double>(table.size()));
  f.rmsUnshifted = std::sqrt(sumPlain / static_cast<double>(table.size()));
  f.slopeSim = fitSlope(Ts, Zsim);
  f.slopeExp = fitSlope(Ts, Zexp);
  f.slopeError = std::abs(f.slopeSim / f.slopeExp - 1.0);
  return f;
}

void printDamBreak(const std::string& label, const DamBreakFigures& f) {
  std::printf("[ figures  ] %s dam break: rms(Z) shifted by dT=%.2f: %.3f, unshifted: %.3f; slope dZ/dT %.3f vs "
              "experiment %.3f (%.1f %%)\n",
              label.c_str(), f.shift, f.rmsShifted, f.rmsUnshifted, f.slopeSim, f.slopeExp, 100.0 * f.slopeError);
  std::printf("[ figures  ] %s front Z(T):", label.c_str());
  for (std::size_t i = 0; i < f.simulated.size(); i += 8) std::printf(" %.2f:%.2f", f.simulated[i].T, f.simulated[i].Z);
  std::printf("\n");
}

}  // namespace sloshlab::test
