// The command line: one set of options for the headless runner and the window
// (design.md, "Headless command line").
#pragma once

#include "sloshlab/comparison.h"
#include "sloshlab/export.h"
#include "sloshlab/probes.h"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace sloshlab::app {

struct Options {
  bool headless = false;
  std::string scene = "bottle";
  std::string solver;        // empty: the scene's
  std::string device = "cpu";  // "gpu": the solver's GPU twin (solverOnDevice)
  int dim = 2;
  double spacing = 0.0;      // 0: the scene's
  std::vector<std::pair<std::string, std::string>> overrides;
  std::optional<double> time;
  std::optional<long> steps;
  std::string statsPath;
  std::vector<Probe> probes;   // --probe (sloshlab/probes.h); recorded into probesPath
  std::string probesPath;
  double probeRate = 100.0;    // samples per simulated second
  std::string exportDir;
  ExportFormat exportFormat = ExportFormat::Csv;
  std::string saveScenePath;  // write the run's scene (with edited parameters) as JSON
  std::string saveStatePath;  // write the whole state at the end (window: when it closes)
  std::string loadStatePath;  // continue the run saved in this state file
  long every = 1;
  int threads = 0;           // 0: OpenMP's default
  std::string motionPath;
  std::uint64_t seed = 1;
  // Window only.
  int frames = 0;            // render this many frames, then exit (0: run until closed)
  std::string screenshotPath;
  std::string videoPath;     // record --frames N video frames to this .mp4 or .gif
  int videoFps = 30;         // 30 or 60 video frames per simulated second
  std::string recordMotionPath;
  bool hideUi = false;       // start with the panels hidden (H shows them)
  double speed = 1.0;        // playback speed: simulated seconds per wall second
  bool containerFrame = false;  // start in the container-frame view
  bool noLayoutFile = false;    // neither read nor write the remembered panel layout (layout_file.h)
  std::string view;          // window: surface, particles or both ("": the remembered or default view)
  double uiScale = 0.0;      // text and panel scale, [1, 3]; 0: the monitor's content scale
  std::string lecturePath;   // --lecture FILE.json: slides (lecture_file.h), shown in the lecture view
  std::string experiment;  // --experiment NAME (headless): measure against a reference
  std::vector<PaneSpec> compare;  // --compare A,B[,C,D]: side by side (sloshlab/comparison.h)
  // Informational.
  bool listExperiments = false;
  bool listScenes = false;
  bool listParams = false;
};

// A bad command line: the message is one line naming the problem.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses argv. Returns nullopt when --help or --version printed and the program
// should exit 0. Throws UsageError for bad input.
std::optional<Options> parseOptions(int argc, char** argv);

}  // namespace sloshlab::app
