// Free sloshing of a rectangular tank (the engine's freeSlosh, sloshlab/experiments.h)
// and the liquid after a drag: the protocols of tests/physics/test_sloshing.cpp.
#pragma once

#include "support/test_support.h"

#include "sloshlab/experiments.h"

#include <string>
#include <vector>

namespace sloshlab::test {

using sloshlab::firstModeOmega;
using sloshlab::SloshFigures;
using sloshlab::SloshTank;

// Prints the figures of a freeSlosh run under the solver's name.
void printSlosh(const std::string& solver, int dim, const SloshTank& tank, const SloshFigures& f);

// The engine's freeSlosh (sloshlab/experiments.h), printed.
template <int D>
SloshFigures printedFreeSlosh(const std::string& solver, const SloshTank& tank,
                       const std::vector<std::pair<std::string, std::string>>& overrides = {}) {
  const SloshFigures f = sloshlab::freeSlosh<D>(solver, tank, overrides);
  printSlosh(solver, D, tank, f);
  return f;
}

// The liquid after a drag: the bottle scene, driven by `motion` and then still.
struct AfterDragFigures {
  double stillFrom = 0.0;           // time the bottle came to rest (s)
  double energyAtStill = 0.0;       // kinetic + potential energy per kg when it did (J/kg)
  double largestGain = 0.0;         // largest rise of that energy above its running minimum since (J/kg)
  double kineticAtStill = 0.0;      // kinetic energy per kg at rest start (J/kg)
  double kineticAtEnd = 0.0;        // kinetic energy per kg at the end (J/kg)
  double meanSpeedAtEnd = 0.0;      // m/s
  std::size_t outside = 0;          // largest count of particles outside over the run
  bool failed = false;
  std::string failure;
};

template <int D>
AfterDragFigures afterDrag(const std::string& solver, double spacing, const MotionScript& motion, double restTime,
                           const std::vector<std::pair<std::string, std::string>>& overrides = {});

// An ordinary fast drag: the bottle pulled 0.3 m sideways in 0.2 s (smoothstep; peak
// 2.25 m/s, 45 m/s^2), then still.
MotionScript fastDrag();
// Violent: 0.25 m throws back and forth at 8.2 g with +-60 degree turns, ending in a
// sudden stop from 1.9 m/s (a velocity step in one 5 ms row), then still.
MotionScript violentDrag();

}  // namespace sloshlab::test
