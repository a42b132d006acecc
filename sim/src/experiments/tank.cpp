// Liquid at rest in its container's frame: hydrostatic pressure, physics.md (11.1), and
// the free surface of a bottle under a steady acceleration, (11.2).
//
// Both settle the liquid first. A solver with a "damping" parameter (the SPH solvers)
// gets 20 /s for 0.5 s, then 2 /s for 1 s, then none: a tank that starts at uniform
// density rings (WCSPH) and its lattice rearranges, and the damping takes that out.
// The hybrid solvers, whose projection leaves no acoustic ringing, run the same 1.5 s
// without. Then the measurement runs on the solver's own, undamped parameters.
#include "experiments/experiment_runs.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sloshlab::experiments {

void settle(Simulation& sim, const Run& run, double shareOfRun) {
  const bool damped = setParamIfPresent(sim, "damping", 20.0);
  advance(sim, 0.5, run);
  run.report(shareOfRun * 0.5 / kSettled);
  if (damped) setParamIfPresent(sim, "damping", 2.0);
  advance(sim, kSettled, run);
  if (damped) setParamIfPresent(sim, "damping", 0.0);
  run.report(shareOfRun);
}

namespace {

double restDensity(Simulation& sim) {
  ParamRef params = sim.solverParams();
  const ParamInfo* info = params.table().find("rest_density");
  return info ? params.get(*info) : 1000.0;
}

// The mean of the slopes fitted so far (kNotMeasured before the first).
double meanSlope(const std::vector<double>& slopes) {
  if (slopes.empty()) return kNotMeasured;
  double mean = 0.0;
  for (double s : slopes) mean += s / static_cast<double>(slopes.size());
  return mean;
}

// The result so far for the observer: the rows and the mean slope measured so far.
ExperimentResult curveSoFar(const ExperimentResult& r, std::vector<std::vector<double>> rows,
                            const std::vector<double>& slopes) {
  ExperimentResult partial = r;
  partial.rows = std::move(rows);
  partial.measured = meanSlope(slopes);
  return partial;
}

}  // namespace

// The pressure against the height y in the tank, over the particles below 3/4 of the
// fill height (the surface layer's pressure is what a kernel near a free surface makes
// of it), fitted by a line at every step of the last 0.2 s: -dp/dy against rho0 g.
template <int D>
ExperimentResult hydrostatic(const Run& run) {
  const Scene scene = loadScene("hydrostatic");
  const double fill = scene.fluid.front().max.y, g = glm::length(scene.gravity);
  auto sim = start<D>(run, scene);
  settle(*sim, run, 0.8);
  std::vector<float> pressure;
  if (!sim->field(FieldKind::Pressure, pressure))
    throw std::runtime_error("solver '" + sim->solverName() + "' has no pressure to measure");
  advance(*sim, kSettled + 0.3, run);
  constexpr int kBins = 10;
  const double deepest = 0.75 * fill;
  const double rho0 = restDensity(*sim);
  std::vector<double> binSum(kBins, 0.0), binCount(kBins, 0.0), slopes;
  ExperimentResult r;
  r.quantity = std::string("pressure gradient -dp/dy");
  r.unit = std::string("Pa/m");
  r.reference = rho0 * g;
  r.columns = {"depth_m", "pressure_Pa", "rho_g_d_Pa"};
  // The bins' mean pressures (the curve), from the deepest up.
  auto binRows = [&] {
    std::vector<std::vector<double>> rows;
    for (int b = 0; b < kBins; ++b) {
      if (binCount[b] == 0.0) continue;
      const double depth = fill - (b + 0.5) * deepest / kBins;
      rows.push_back({depth, binSum[b] / binCount[b], rho0 * g * depth});
    }
    return rows;
  };
  while (sim->time() < kSettled + 0.5 - 1e-12) {
    sim->step(kSettled + 0.5);
    if (sim->failed()) throw ExperimentFailure(sim->failureMessage());
    run.watch(*sim);
    sim->field(FieldKind::Pressure, pressure);
    std::vector<double> y, p;
    const auto& x = sim->particles().x;
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (x[i].y >= deepest) continue;
      y.push_back(x[i].y), p.push_back(pressure[i]);
      const int b = std::min(kBins - 1, static_cast<int>(x[i].y / deepest * kBins));
      binSum[b] += pressure[i], binCount[b] += 1.0;
    }
    if (y.size() >= 2) slopes.push_back(-fitLine(y, p).first);
    run.showCurve([&] { return curveSoFar(r, binRows(), slopes); });
  }
  run.report(0.99);
  if (slopes.empty()) throw ExperimentFailure("no liquid below three quarters of the fill height");
  r.particles = sim->particleCount();
  r.measured = meanSlope(slopes);
  r.method = std::string("a line through p(y) below 3/4 of the fill at every step of 0.2 s, after settling");
  r.rows = binRows();
  return r;
}

// The bottle driven at a = 0.2 g along x (x = a t^2 / 2, so the container's velocity
// grows steadily): in its frame the liquid sees g_eff = (-a, -g), and at rest its
// surface has the slope -a/g. The surface height in 12 columns across the bottle is
// its highest particle (plus s/2); a line through the inner 10 every 0.05 s of the
// last second gives the slope.
template <int D>
ExperimentResult tilt(const Run& run) {
  const Scene scene = loadScene("bottle");
  const double g = glm::length(scene.gravity), a = 0.2 * g, width = scene.containerSize.x;
  constexpr double kEnd = 3.0;
  std::vector<MotionScript::Row> rows;
  for (int k = 0; k <= 600; ++k) {
    MotionScript::Row row;
    row.t = k * kEnd / 600.0;
    row.offset = Vec3(0.5 * a * row.t * row.t, 0.0, 0.0);
    rows.push_back(row);
  }
  auto sim = start<D>(run, scene, MotionScript::fromRows(std::move(rows)));
  settle(*sim, run, 0.5);
  constexpr int kColumns = 12;
  std::vector<double> heightSum(kColumns, 0.0), slopes;
  int samples = 0;
  ExperimentResult r;
  r.quantity = std::string("surface slope dy/dx");
  r.unit = std::string("1");
  r.reference = -a / g;
  r.columns = {"x_m", "surface_m", "reference_m"};
  // The mean surface across the bottle, with the reference line through its middle.
  auto surfaceRows = [&] {
    std::vector<std::vector<double>> surface;
    double mean = 0.0;
    for (int c = 1; c + 1 < kColumns; ++c) mean += heightSum[c] / samples / (kColumns - 2);
    for (int c = 0; c < kColumns; ++c) {
      const double x = (c + 0.5) * width / kColumns;
      surface.push_back({x, heightSum[c] / samples, mean + r.reference * (x - 0.5 * width)});
    }
    return surface;
  };
  for (double t = kEnd - 1.0; t <= kEnd + 1e-9; t += 0.05) {
    advance(*sim, t, run);
    std::vector<double> top(kColumns, -1.0);
    for (const auto& x : sim->particles().x) {
      const int c = std::clamp(static_cast<int>(x.x / width * kColumns), 0, kColumns - 1);
      top[c] = std::max(top[c], x.y + 0.5 * sim->spacing());
    }
    std::vector<double> xs, hs;
    for (int c = 1; c + 1 < kColumns; ++c)
      if (top[c] >= 0.0) xs.push_back((c + 0.5) * width / kColumns), hs.push_back(top[c]);
    if (xs.size() >= 2) slopes.push_back(fitLine(xs, hs).first);
    for (int c = 0; c < kColumns; ++c) heightSum[c] += std::max(top[c], 0.0);
    ++samples;
    run.showCurve([&] { return curveSoFar(r, surfaceRows(), slopes); });
    run.report(0.5 + 0.5 * (t - (kEnd - 1.0)));
  }
  if (slopes.empty()) throw ExperimentFailure("the bottle holds no surface to measure");
  r.particles = sim->particleCount();
  r.measured = meanSlope(slopes);
  r.method = std::string("a line through the surface in 10 columns every 0.05 s of the last second, after settling");
  r.rows = surfaceRows();
  return r;
}

template ExperimentResult hydrostatic<2>(const Run&);
template ExperimentResult hydrostatic<3>(const Run&);
template ExperimentResult tilt<2>(const Run&);
template ExperimentResult tilt<3>(const Run&);

}  // namespace sloshlab::experiments
