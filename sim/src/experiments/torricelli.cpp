// Torricelli's outflow, physics.md (14.5)-(14.6): a tank B = 0.1 m wide filled 0.4 m deep
// drains through a hole in the middle of its floor: in 2D a slot b = 0.02 m wide, in 3D
// (a square column B x B) a round hole of radius 0.02 m. Every 0.01 s from 0.1 s (the
// flow set in) to 0.55 s: the depth h (the liquid's volume over the floor's area), and
// the speed of the particles the outlet took. By (14.6) sqrt(h) falls linearly in t; its
// least-squares slope gives the discharge coefficient C_d, against a sharp-edged
// orifice's (14.6b). The method line adds C_d over the last 0.1 s against the first 0.1 s
// (Torricelli's law: it does not change as h falls) and the outflow speed against (14.5).
#include "experiments/experiment_runs.h"

#include <cmath>
#include <sstream>
#include <vector>

namespace sloshlab {

namespace {

constexpr double kWidth = 0.1, kFill = 0.4, kG = 9.81;
constexpr double kStart = 0.1, kWindow = 0.1, kEnd = 0.55, kSample = 0.01;

double holeRadius(int dim) { return dim == 2 ? 0.01 : 0.02; }
// (14.6b): a sharp-edged slot with b/B = 0.2 (von Mises' contraction 0.616, with the
// approach speed); a sharp-edged round hole (handbook, about 0.61).
double sharpEdgedDischarge(int dim) { return dim == 2 ? 0.621 : 0.61; }
// The hole's area over the floor's: b / B in 2D, pi r^2 / B^2 in 3D.
double areaRatio(int dim) {
  const double r = holeRadius(dim);
  return dim == 2 ? 2.0 * r / kWidth : kPi * r * r / (kWidth * kWidth);
}

Scene drainScene(int dim) {
  std::ostringstream s;
  s.precision(17);
  s << R"({"name": "torricelli", "solver": "dfsph", "spacing": 0.0025, "spacing_3d": 0.005,)"
    << R"( "gravity": [0, -9.81, 0], "container": {"size": [)" << kWidth << ", 0.5, " << kWidth << R"(]},)"
    << R"( "fluid": [{"box": {"min": [0, 0], "max": [)" << kWidth << ", " << kFill << "]}}],"
    << R"( "outlet": {"position": [)" << 0.5 * kWidth << R"(, 0], "radius": )" << holeRadius(dim) << "}}";
  return parseScene(s.str(), "experiment:torricelli");
}

}  // namespace

namespace experiments {

template <int D>
ExperimentResult torricelli(const Run& run) {
  auto sim = start<D>(run, drainScene(D));
  const double floorArea = D == 2 ? kWidth : kWidth * kWidth;
  const double share = kFill * floorArea / static_cast<double>(sim->particleCount());  // each particle's volume
  auto depth = [&] { return static_cast<double>(sim->particleCount()) * share / floorArea; };
  ExperimentResult r;
  r.quantity = "discharge coefficient C_d from sqrt(h) against t";
  r.unit = "1";
  r.reference = sharpEdgedDischarge(D);
  r.columns = {"t_s", "depth_m", "depth_torricelli_m", "outflow_speed_m_s", "torricelli_speed_m_s"};
  advance(*sim, kStart, run);
  // C_d over [from, from + window] from the rows: Q / (a sqrt(2 g h)), h and sqrt(2 g h)
  // averaged over the window's samples.
  auto dischargeOver = [&](double from) {
    double h0 = 0.0, h1 = 0.0, root = 0.0;
    int n = 0;
    for (const std::vector<double>& row : r.rows) {
      if (row[0] < from - 1e-9 || row[0] > from + kWindow + 1e-9) continue;
      if (n == 0) h0 = row[1];
      h1 = row[1], root += row[4], ++n;
    }
    return n > 1 ? (h0 - h1) / kWindow / (areaRatio(D) * root / n) : kNotMeasured;
  };
  double earlyCd = kNotMeasured, h1 = 0.0;
  PourStats before = sim->pourStats();
  r.rows.push_back({kStart, depth(), depth(), kNotMeasured, std::sqrt(2.0 * kG * depth())});
  while (sim->time() < kEnd - 1e-9) {
    const double hStart = depth();
    advance(*sim, sim->time() + kSample, run);
    const PourStats now = sim->pourStats();
    const long out = now.particlesOut - before.particlesOut;
    const double speed = out > 0 ? (now.outflowSpeedSum - before.outflowSpeedSum) / static_cast<double>(out) : kNotMeasured;
    before = now;
    const double t = sim->time(), h = depth();
    // (14.6) from the end of the first window with its C_d: sqrt(h) falls linearly.
    double predicted = h;
    if (std::isfinite(earlyCd)) {
      const double root = std::sqrt(h1) - earlyCd * areaRatio(D) * std::sqrt(0.5 * kG) * (t - kStart - kWindow);
      predicted = root > 0.0 ? root * root : 0.0;
    }
    r.rows.push_back({t, h, predicted, speed, std::sqrt(2.0 * kG * 0.5 * (hStart + h))});
    if (!std::isfinite(earlyCd) && t >= kStart + kWindow - 1e-9) earlyCd = dischargeOver(kStart), h1 = h;
    run.report(t / kEnd);
    run.showCurve([&] {
      ExperimentResult sofar = r;
      sofar.measured = kNotMeasured;
      return sofar;
    });
  }
  const double lateCd = dischargeOver(kEnd - kWindow);
  // The outflow speed over sqrt(2 g h), particle by particle's interval (14.5).
  double speeds = 0.0, reference = 0.0;
  for (const std::vector<double>& row : r.rows)
    if (std::isfinite(row[3])) speeds += row[3], reference += row[4];
  // (14.6): sqrt(h) = sqrt(h_1) - C_d (a/A) sqrt(g/2) (t - t_1).
  std::vector<double> t, root;
  for (const std::vector<double>& row : r.rows) t.push_back(row[0]), root.push_back(std::sqrt(row[1]));
  r.measured = -fitLine(t, root).first / (areaRatio(D) * std::sqrt(0.5 * kG));
  std::ostringstream m;
  m.precision(3);
  m << "late C_d over early " << lateCd / earlyCd << " (C_d " << earlyCd << " at h " << r.rows[static_cast<std::size_t>(kWindow / kSample / 2)][1] << " m, " << lateCd
    << " at h " << r.rows[r.rows.size() - 1 - static_cast<std::size_t>(kWindow / kSample / 2)][1]
    << " m); outflow speed " << speeds / reference << " of sqrt(2 g h)";
  r.method = m.str();
  r.particles = sim->particleCount();
  if (!(r.measured > 0.0) || !std::isfinite(lateCd / earlyCd))
    throw ExperimentFailure("the tank did not drain: nothing left through the hole");
  return r;
}

template ExperimentResult torricelli<2>(const Run&);
template ExperimentResult torricelli<3>(const Run&);

}  // namespace experiments

}  // namespace sloshlab
