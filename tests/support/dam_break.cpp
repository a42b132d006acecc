#include "support/dam_break.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sloshlab::test {

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
  const FrontComparison c = compareWithMartinMoyce(f.simulated, f.shift);
  f.rmsShifted = c.rmsShifted;
  f.rmsUnshifted = c.rmsUnshifted;
  f.slopeSim = c.slopeSimulated;
  f.slopeExp = c.slopeMeasured;
  f.slopeError = c.slopeError;
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
