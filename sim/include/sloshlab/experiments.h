// Experiments: the lab's measurements against their references (docs/physics.md
// section 11). Each sets up its own scene and container motion, runs a solver, measures
// one figure and compares it with the reference: the command line's --experiment
// prints that line and writes the measured curve with --stats; the tests hold the
// solvers to it.
//
//   dam_break      the surge front's speed dZ/dT against Martin & Moyce 1952 (11.8)
//   hydrostatic    the pressure's gradient with depth against rho g (11.1)
//   tilt           the free surface's slope under a steady acceleration against -a/g (11.2)
//   sloshing       the first mode's period after a shake against 2 pi / omega_1 (11.4)
//   baffle         the swing a baffle leaves after a shake against the open tank's (11.4b)
//   torricelli     a tank draining through a hole: its C_d against a sharp-edged orifice's (14.6)
//   forced_sway    a wave gauge in a swayed tank against Faltinsen et al. 2000 (11.10)
//   spinning_disc  the angular momentum a spinning disc keeps after 1 s, against 1 (10.3)
//   hard_spheres   the energy an elastic gas keeps after 1 s, against 1 (1.3)
#pragma once

#include "sloshlab/simulation.h"

#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace sloshlab {

struct ExperimentInfo {
  const char* name;         // what --experiment takes
  const char* description;  // one line: what is measured, against what
  const char* solver;       // the solver it runs by default
};

std::span<const ExperimentInfo> experimentInfos();
const ExperimentInfo* findExperiment(const std::string& name);
std::string experimentNameList();  // "dam_break, hydrostatic, ..."

struct ExperimentRequest {
  std::string name;
  std::string solver;    // empty: the experiment's own
  int dim = 2;
  double spacing = 0.0;  // particle spacing (m); 0: the experiment's own
};

struct ExperimentResult {
  std::string experiment, solver;
  int dim = 2;
  std::size_t particles = 0;
  std::string quantity;  // what was measured ("front speed dZ/dT")
  std::string unit;      // its unit ("1" for a ratio)
  double measured = 0.0;
  double reference = 0.0;
  double relativeError = 0.0;  // |measured / reference - 1|
  std::string method;          // how it was measured, in a few words (the dam break's time shift, ...)
  // The measured curve against time (or depth, or x), with the reference where it has one.
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
};

// A solver that failed during an experiment (blew up, or left nothing to measure).
class ExperimentFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What a running experiment shows while it runs (the Experiments panel draws both live).
// Both are called on the experiment's thread, each at most `rate` times per wall second
// (every time when rate <= 0; always the first time). They only read: an experiment's
// result is bit-identical with an observer and without. Either may throw to stop the
// run (the panel's Cancel); the exception leaves runExperiment as it came.
struct ExperimentObserver {
  // The running simulation, after one of its steps (for an experiment that runs several,
  // the one running now).
  std::function<void(const Simulation&)> simulation;
  // The measured curve so far: columns and rows as the result will have them, and
  // quantity, unit, measured, reference and relativeError so far where the experiment can
  // tell them already (measured NaN where not: before the measurement starts, or before
  // a first period).
  std::function<void(const ExperimentResult&)> curve;
  double rate = 30.0;
};

// Runs an experiment. Throws std::runtime_error for an unknown name or solver, or a bad
// spacing, and ExperimentFailure for a solver that fails on the way (its message).
// `progress`, if given, is called now and then with the share done, in [0, 1];
// `observer`, if given, sees the run as it goes.
ExperimentResult runExperiment(const ExperimentRequest& request,
                               const std::function<void(double)>& progress = {},
                               const ExperimentObserver* observer = nullptr);

// The published surge front of the dam break (assets/data/, embedded): T = t sqrt(2g/a),
// Z = x_front / a, physics.md (11.8).
struct FrontPoint {
  double T;
  double Z;
};
std::vector<FrontPoint> martinMoyceFront();

// A simulated front against the table: the rms error of Z with the simulated curve
// shifted by `shift` in T (the gate's lift) and without, and the front speeds dZ/dT
// fitted over the table's times.
struct FrontComparison {
  double shift = 0.25;
  double rmsShifted = 0.0, rmsUnshifted = 0.0;
  double slopeSimulated = 0.0, slopeMeasured = 0.0;
  double slopeError = 0.0;  // |slopeSimulated / slopeMeasured - 1|
};
// `simulated`: the front sampled in increasing T.
FrontComparison compareWithMartinMoyce(const std::vector<FrontPoint>& simulated, double shift = 0.25);

// omega_1 of a rectangular tank's first sloshing mode, physics.md (11.4) (rad/s).
double firstModeOmega(double width, double depth, double g = 9.81);

// Forced sway, physics.md (11.10): Faltinsen, Rognebakke, Lukovsky & Timokha (2000)'s 2D
// tank (L = 1.73 m, water h = 0.6 m) swayed from rest as x = A (cos(sigma t) - 1), A =
// 0.032 m, period 2 pi / sigma = 1.3 s, the wave gauge 0.05 m from the left wall.
struct SwayTank {
  double width = 1.73;      // L (m)
  double height = 1.15;     // container height (m)
  double depth = 0.6;       // h (m)
  double thickness = 0.12;  // across (m), 3D only
  double amplitude = 0.032; // A (m)
  double period = 1.3;      // 2 pi / sigma (s)
  double gaugeX = 0.05;     // from the left wall (m)
  double duration = 10.0;   // simulated s
};
// The linear modal solution (11.10) from rest: the elevation at x (from the left wall)
// and time t, summed over the first `modes` odd modes.
double swayLinearElevation(const SwayTank& tank, double x, double t, int modes = 200, double g = 9.81);
// The measured gauge record (assets/data/faltinsen_2000_sway_h0.6_T1.3_elevation.csv,
// embedded): t (s from the start of forcing), eta (m).
struct SwayPoint {
  double t;
  double eta;
};
std::vector<SwayPoint> faltinsenSway();
// The gauge of `tank` swayed with `solver` at `spacing` (m), read every 0.01 s from the
// sway's start (t = 0), from the level the liquid settled to in 1.5 s before it: the
// forced_sway experiment's run, for any tank. Throws ExperimentFailure.
template <int D>
std::vector<SwayPoint> swayGauge(const std::string& solver, double spacing, const SwayTank& tank);
// The correlation and the RMS difference (m) of a curve, linearly interpolated, against
// the measured record over 0.1 s <= t <= min(9.9 s, the curve's end).
struct SwayComparison {
  double correlation = 0.0;
  double rms = 0.0;
  std::size_t points = 0;
};
SwayComparison compareWithFaltinsen(const std::vector<SwayPoint>& curve);

// Free sloshing (the sloshing experiment, and the tests' variations of it). A tank of
// width L filled to depth h is shaken sideways at its first mode, x(t) = A (1 -
// cos(omega_1 t)), for `cycles` periods (it starts and ends at rest where it began),
// then left free. The liquid's centre of mass in the tank's frame swings about its
// rest position; its largest swing in each free period (one reference period long)
// gives the decay, physics.md (11.7a); the period is the mean time between upward zero
// crossings.
struct SloshTank {
  double width = 0.2;        // L (m), the sloshing direction
  double height = 0.2;       // container height (m)
  double depth = 0.1;        // liquid depth h (m)
  double thickness = 0.04;   // container size across (m), 3D only
  double spacing = 0.005;    // particle spacing (m)
  double amplitude = 0.005;  // A (m), the shake's half swing
  int cycles = 1;            // shaking periods before the tank is left free
  int freePeriods = 4;       // free periods measured
  double baffle = 0.0;       // height (m) of a baffle 0.08 L thick standing on the floor at mid-tank; 0: none
};

struct SloshFigures {
  double referencePeriod = 0.0;  // 2 pi / omega1 (s)
  double period = 0.0;           // measured, mean of the free periods (s); 0 if none
  std::vector<double> swings;    // largest |x_com - x_rest| in each free period (m)
  double keptAfterThree = 0.0;   // swings[3] / swings[0]
  double lossPerPeriod = 0.0;    // 1 - keptAfterThree^(1/3)
  double shakenSwing = 0.0;      // largest swing while shaken (m)
  std::size_t outside = 0;       // particles outside the tank at the end
  std::size_t particles = 0;
  std::string failure;           // the solver's message if it failed on the way
  std::vector<std::vector<double>> curve;  // t (s), x_com - x_rest (m) after every step
};

template <int D>
SloshFigures freeSlosh(const std::string& solver, const SloshTank& tank,
                       const std::vector<std::pair<std::string, std::string>>& overrides = {});

}  // namespace sloshlab
