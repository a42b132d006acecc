// Parameter sweeps: one JSON file describes many runs; each run gets a folder of its
// own, and the runs' one-line summaries merge into one table (docs/sweeps.md).
//
//   {
//     "name": "slosh_frequency",
//     "base": {"scene": "sloshing_tank", "solver": "flip", "dim": 2, "spacing": 0.01,
//              "duration": 6, "seed": 1, "params": {"flip_ratio": 0.95},
//              "motion": {"kind": "shake", "amplitude": 0.005, "frequency": 1.5, "duration": 3},
//              "gauges": [0.01, 0.5]},
//     "grid": {"motion.frequency": [1.0, 1.25, 1.5], "solver": ["flip", "apic"]}
//   }
//
// The runs are the base with each item's changes: "grid" gives every combination of its
// lists (the last key varies fastest), "runs" a list of change objects. A change's key
// is a base key, or "params.KEY" / "motion.KEY" for one entry of those objects. Item N
// runs alone (--index N: Slurm job arrays, GNU parallel); a run's folder appears whole,
// under its final name, only when the run has finished, so a sweep that is stopped and
// started again skips what is done.
#pragma once

#include "sloshlab/motions.h"

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace sloshlab {

// A sweep file that cannot run, in one line naming the file and the problem.
class SweepError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct SweepRun {
  std::size_t index = 0;
  std::string label;   // the item's changes, "motion.frequency=1.25 solver=apic" ("base" for none)
  std::string scene = "bottle";
  std::string solver;  // empty: the scene's
  int dim = 2;
  double spacing = 0.0;   // m; 0: the scene's
  double duration = 0.0;  // simulated s; 0: the scene's
  std::uint64_t seed = 1;
  std::map<std::string, std::string> params;  // key -> value text, as --set takes them
  std::optional<MotionSpec> motion;           // none: the container stays still
  std::vector<double> gauges;                 // wave gauges' x in the container frame (m); empty: the defaults
};

struct Sweep {
  std::string name;    // the file's "name", else its stem
  std::string origin;  // the file's path, for messages
  std::vector<SweepRun> runs;
};

// Reads, expands and checks a sweep: every run's scene, solver, dimension, spacing,
// parameters and motion are checked before anything runs. Throws SweepError.
Sweep parseSweep(std::string_view jsonText, const std::string& origin);
Sweep loadSweep(const std::string& path);

// What one finished run measured: the line it writes as summary.json.
struct SweepOutcome {
  std::string solver;    // the solver that ran (the scene's when the run names none)
  double spacing = 0.0;  // m, the spacing it ran at
  double duration = 0.0; // simulated s asked for
  bool failed = false;
  std::string failure;  // the solver's message when it failed
  std::size_t particles = 0;
  long steps = 0;
  double time = 0.0;             // simulated s reached
  double wallSeconds = 0.0;      // the run's wall-clock time
  double kineticEnergyEnd = 0.0; // J/kg at the end
  double densityErrorMax = 0.0;  // the largest density error over the run (the solver's measure; NaN: none)
  std::size_t outside = 0;       // particles outside the container at the end
  std::vector<double> gaugeX;              // m, container frame
  std::vector<double> elevationMax, elevationMin;  // m, against each gauge's level at t = 0
};

// The folder of run `index` under `outDir` ("run_0007"), and whether it has finished.
std::string sweepRunFolder(const std::string& outDir, std::size_t index);
bool sweepRunFinished(const std::string& outDir, std::size_t index);

// Runs one item into its folder: stats.csv (one row per step), gauges.csv (the surface
// height at each gauge every 0.01 simulated s) and summary.json (one line), written
// under a temporary name and renamed when complete. A solver that blows up is a
// finished run whose summary says so. Returns the summary line.
std::string runSweepItem(const Sweep& sweep, std::size_t index, const std::string& outDir);

// The summary line of a run (for runSweepItem and the tests).
std::string sweepSummaryLine(const SweepRun& run, const SweepOutcome& outcome);

// Writes outDir/summary.csv: one row per finished run in index order, its columns every
// key of the summaries (nested objects flattened as "params.KEY"). Returns how many runs
// it holds; those not finished are listed in `missing`.
std::size_t mergeSweep(const Sweep& sweep, const std::string& outDir, std::vector<std::size_t>* missing = nullptr);

}  // namespace sloshlab
