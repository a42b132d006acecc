// Free sloshing of a rectangular tank and the liquid after a drag: the protocols of
// tests/physics/test_sloshing.cpp.
//
// Free sloshing. A tank of width L filled to depth h is shaken sideways at its first
// mode, x(t) = A (1 - cos(omega1 t)) for `cycles` periods (it starts and ends at rest
// where it began), then left free. The liquid's centre of mass in the tank's frame
// swings about its rest position; its largest swing in each free period (one reference
// period long) gives the decay. The period is measured between upward zero crossings.
// Reference: omega1^2 = g k tanh(k h), k = pi / L (physics.md (11.4); decay per period (11.7a)).
#pragma once

#include "support/test_support.h"

#include <string>
#include <vector>

namespace sloshlab::test {

struct SloshTank {
  double width = 0.2;        // L (m), the sloshing direction
  double height = 0.2;       // container height (m)
  double depth = 0.1;        // liquid depth h (m)
  double thickness = 0.04;   // container size across (m), 3D only
  double spacing = 0.005;    // particle spacing (m)
  double amplitude = 0.005;  // A (m), the shake's half swing
  int cycles = 1;            // shaking periods before the tank is left free
  int freePeriods = 4;       // free periods measured
};

struct SloshFigures {
  double referencePeriod = 0.0;  // 2 pi / omega1 (s)
  double period = 0.0;           // measured, mean of the free periods (s); 0 if none
  std::vector<double> swings;    // largest |x_com - x_rest| in each free period (m)
  double keptAfterThree = 0.0;   // swings[3] / swings[0]
  double lossPerPeriod = 0.0;    // 1 - keptAfterThree^(1/3)
  double shakenSwing = 0.0;      // largest swing while shaken (m)
  std::size_t outside = 0;       // particles outside the tank at the end
};

// omega1 of the tank's first mode (rad/s), g = 9.81 m/s^2.
double firstModeOmega(double width, double depth);

// Runs the protocol above with `solver` (and key=value overrides) and prints the
// figures under the solver's name.
template <int D>
SloshFigures freeSlosh(const std::string& solver, const SloshTank& tank,
                       const std::vector<std::pair<std::string, std::string>>& overrides = {});

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
