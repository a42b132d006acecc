// The Martin & Moyce (1952) dam break: the published surge-front table and the
// figures every solver's dam-break test reports (physics.md (11.8)).
#pragma once

#include "support/test_support.h"

#include "sloshlab/experiments.h"

#include <string>
#include <vector>

namespace sloshlab::test {

using sloshlab::FrontPoint;
using sloshlab::martinMoyceFront;  // assets/data/martin_moyce_1952_front_n2_2_table2.csv (its header cites it)

struct DamBreakFigures {
  double shift = 0.25;         // dT by which the simulated curve is shifted (see below)
  double rmsShifted = 0.0;     // rms of Z_sim(T - shift) - Z_exp(T) over the table
  double rmsUnshifted = 0.0;   // rms of Z_sim(T) - Z_exp(T)
  double slopeSim = 0.0;       // dZ/dT fitted over the table's T range (shifted curve)
  double slopeExp = 0.0;
  double slopeError = 0.0;     // |slopeSim / slopeExp - 1|
  std::vector<FrontPoint> simulated;
};

// Runs a 2D dam break with the given solver (scene "dam_break", column width a =
// 0.05715 m, spacing a/resolution) to T = 3.6 and compares its front with the table.
// Published SPH fronts lead the experiment by about dT = 0.25 because the experiment's
// gate took time to lift; the shifted curve and the slope compare the motion itself.
// The front is sampled every dT = 0.05 (2.7 ms), which also caps the solver's step at
// that; with solverSteps it is sampled after every step instead, so that a solver with
// a fixed step (PBF's sub-steps) runs at its own step.
DamBreakFigures runDamBreak(const std::string& solver, int resolution,
                            std::vector<std::pair<std::string, std::string>> overrides = {},
                            bool solverSteps = false);

void printDamBreak(const std::string& label, const DamBreakFigures& f);

}  // namespace sloshlab::test
