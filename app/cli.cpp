#include "cli.h"
#include "cli_parsing.h"

#include "sloshlab/params.h"
#include "sloshlab/run_settings.h"

#include <CLI/CLI.hpp>

#include <charconv>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <limits>
#include <sstream>

namespace sloshlab::app {

namespace {

std::pair<std::string, std::string> splitAssignment(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw UsageError("--set expects key=value (got '" + text + "')");
  return {text.substr(0, eq), text.substr(eq + 1)};
}

}  // namespace

std::optional<Options> parseOptions(int argc, char** argv) {
  Options o;
  CLI::App cli{"sloshlab: a real-time particle-fluid lab. Without --headless it opens the window.", "sloshlab"};
  cli.set_version_flag("--version", "sloshlab 0.1.0");
  cli.add_flag("--headless", o.headless, "run without a window: simulate, write files, print a summary");
  auto* sceneOpt = cli.add_option("--scene", o.scene, "scene file (.json) or built-in scene name")->capture_default_str();
  auto* solverOpt = cli.add_option("--solver", o.solver, "solver name (default: the scene's)");
  cli.add_option("--device", o.device,
                 "cpu, or gpu: the solver's OpenGL 4.3 compute twin (pbf -> gpu-pbf; headless through EGL, no X "
                 "server needed)")
      ->check(CLI::IsMember({"cpu", "gpu"}))
      ->capture_default_str();
  auto* dimOpt = cli.add_option("--dim", o.dim, "dimension")->check(number(2, 3))->capture_default_str();
  auto* spacingOpt = cli.add_option("--spacing", o.spacing, "particle spacing in metres (default: the scene's)")
      ->check(number(runSetting("spacing").min, runSetting("spacing").max));
  std::vector<std::string> sets;
  auto* setOpt = cli.add_option("--set", sets, "solver parameter key=value (repeatable)")->take_all();
  auto* timeOpt = cli.add_option("--time", o.time, "simulated seconds to run")->check(number(0.0, 1e6));
  auto* stepsOpt = cli.add_option("--steps", o.steps, "number of steps to run")->check(number(0L, 1000000000L));
  timeOpt->excludes(stepsOpt);
  cli.add_option("--stats", o.statsPath, "write one CSV row of diagnostics per step");
  std::vector<std::string> probeTexts;
  auto* probeOpt = cli.add_option("--probe", probeTexts,
                                  "headless: a wave gauge (gauge:x=X[,z=Z]) or a pressure sensor "
                                  "(sensor:x=X,y=Y[,z=Z][,r=R]) in the container's frame, m (repeatable)");
  auto* probesOpt = cli.add_option("--probes", o.probesPath,
                                   "headless: write the readings of the scene's probes and of --probe to this CSV");
  cli.add_option("--probe-rate", o.probeRate, "probe samples per simulated second (default 100)")
      ->check(number(1e-3, 1e5))
      ->needs(probesOpt);
  probeOpt->needs(probesOpt);  // --probes alone records the scene's own probes
  auto* exportOpt = cli.add_option("--export", o.exportDir, "write particle files into this directory");
  cli.add_option("--every", o.every, "export every K steps")->check(number(1L, 1000000000L))->needs(exportOpt);
  std::string format = "csv";
  cli.add_option("--format", format,
                 "export format: csv (particles_<step>.csv, container.csv), vtk (.vtp with a .pvd index, for "
                 "ParaView) or ply (binary, for Blender)")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            return parseExportFormat(text) ? "" : "'" + text + "' is not an export format (known: csv, vtk, ply)";
          },
          "csv|vtk|ply"))
      ->capture_default_str()
      ->needs(exportOpt);
  cli.add_option("--save-scene", o.saveScenePath,
                 "write the run's scene, solver and parameters as JSON (headless: at the start; window: at exit)");
  cli.add_option("--save-state", o.saveStatePath,
                 "write the whole state at the end of the run (window: when it closes; F5 saves one any time)");
  auto* loadOpt = cli.add_option("--load-state", o.loadStatePath,
                                 "continue the run saved in this state file, with its scene, solver, parameters and "
                                 "particles; --time and --steps count on from its time and step");
  cli.add_option("--threads", o.threads, "OpenMP threads")->check(number(1, 1024));
  auto* motionOpt = cli.add_option("--motion", o.motionPath, "scripted container motion CSV: t,x,y[,z],angle");
  auto* seedOpt = cli.add_option("--seed", o.seed, "random seed (emitter jitter)")
      ->check(number<std::uint64_t>(0, std::numeric_limits<std::uint64_t>::max()));
  cli.add_option("--frames", o.frames, "window: render N frames (with --video: record N video frames), then exit")->check(number(1, 100000000));
  cli.add_option("--screenshot", o.screenshotPath, "window: save a PNG after the last frame");
  auto* videoOpt = cli.add_option("--video", o.videoPath,
                                  "window: record --frames N video frames (one per 1/fps simulated s) to FILE.mp4 "
                                  "(H.264) or FILE.gif through ffmpeg, then exit");
  const CLI::Validator thirtyOrSixty(
      [](std::string& text) { return text == "30" || text == "60" ? std::string() : "'" + text + "' is not 30 or 60"; },
      "30 or 60");
  cli.add_option("--video-fps", o.videoFps, "window: video frames per simulated second (.gif: 30)")
      ->check(thirtyOrSixty)
      ->needs(videoOpt)
      ->capture_default_str();
  cli.add_option("--record-motion", o.recordMotionPath, "window: record the container's path to this CSV");
  cli.add_flag("--hide-ui", o.hideUi, "window: start with the panels hidden (H shows them)");
  auto* speedOpt = cli.add_option("--speed", o.speed, "window: playback speed, simulated s per wall s")
                       ->check(number(runSetting("speed").min, runSetting("speed").max));
  cli.add_flag("--container-frame", o.containerFrame, "window: start in the container-frame view (View panel)");
  cli.add_flag("--no-layout-file", o.noLayoutFile,
               "window: start with the default panel layout and do not remember it ($XDG_CONFIG_HOME/sloshlab/imgui.ini)");
  cli.add_option("--lecture", o.lecturePath,
                 "window: start in the lecture view with these slides (JSON; PageDown/PageUp step, A adds one)");
  cli.add_option("--view", o.view,
                 "window: what the view shows: surface (the liquid's shaded surface, the default), particles, or "
                 "both (key W cycles them)")
      ->check(CLI::IsMember({"surface", "particles", "both"}));
  cli.add_option("--ui-scale", o.uiScale, "window: scale of text and panels (default: the monitor's)")
      ->check(number(1.0, 3.0));
  auto* experimentOpt = cli.add_option(
      "--experiment", o.experiment,
      "headless: run an experiment (--list-experiments) with --solver, --dim and --spacing; prints the measurement, "
      "its reference and the error, and with --stats writes the measured curve");
  std::string compareText;
  auto* compareOpt = cli.add_option(
      "--compare", compareText,
      "side by side: 2 to 4 panes, each SOLVER or SOLVER:key=value[:key=value...], comma-separated (e.g. "
      "pic,flip,apic,flip:pic_fraction=0.5); one scene and one container motion for all; headless: one line per pane");
  cli.add_flag("--list-experiments", o.listExperiments, "print the experiments, one per line, and exit");
  cli.add_flag("--list-scenes", o.listScenes, "print the built-in scenes and exit");
  cli.add_flag("--list-params", o.listParams, "print the solver's parameters and exit");

  for (CLI::Option* fromSetup : {sceneOpt, solverOpt, dimOpt, spacingOpt, setOpt, motionOpt, seedOpt})
    loadOpt->excludes(fromSetup);
  // An experiment sets up its own scene, motion and run length.
  for (CLI::Option* ownedByExperiment : {sceneOpt, setOpt, motionOpt, seedOpt, timeOpt, stepsOpt, exportOpt, loadOpt})
    experimentOpt->excludes(ownedByExperiment);

  // The panes name their solvers; a state, an export and the stats describe one run.
  for (CLI::Option* onePane : {solverOpt, loadOpt, experimentOpt, stepsOpt, probeOpt})
    compareOpt->excludes(onePane);
  experimentOpt->excludes(probeOpt);

  if (!parseCommandLine(cli, argc, argv)) return std::nullopt;
  for (const auto& s : sets) o.overrides.push_back(splitAssignment(s));
  for (const auto& text : probeTexts) {
    try {
      o.probes.push_back(parseProbe(text));
    } catch (const ProbeError& e) {
      throw UsageError(e.what());
    }
  }
  if (!o.probesPath.empty() && !o.headless)
    throw UsageError("--probe records headless runs: add --headless (the window does not place probes yet)");
  if (compareOpt->count() > 0) {
    try {
      o.compare = parsePaneList(compareText);
    } catch (const std::runtime_error& e) {
      throw UsageError(e.what());
    }
    if (!o.statsPath.empty() || !o.exportDir.empty() || !o.saveStatePath.empty() || !o.saveScenePath.empty() ||
        o.listParams)
      throw UsageError("--compare runs several simulations: --stats, --export, --save-state, --save-scene and "
                       "--list-params need one (run each pane on its own with --solver and --set)");
  }
  if (!o.experiment.empty() && !o.headless)
    throw UsageError("--experiment runs headless: add --headless (in the window, run it from the Experiments panel)");
  o.exportFormat = *parseExportFormat(format);
  if (o.headless && (o.frames > 0 || !o.screenshotPath.empty() || !o.recordMotionPath.empty() || o.hideUi ||
                     speedOpt->count() > 0 || o.containerFrame || o.uiScale > 0.0 || !o.videoPath.empty() ||
                     !o.lecturePath.empty() || !o.view.empty()))
    throw UsageError("--frames, --screenshot, --video, --record-motion, --hide-ui, --speed, --container-frame, "
                     "--view, --ui-scale and --lecture are for the window, not --headless");
  if (!o.screenshotPath.empty() && o.frames == 0)
    throw UsageError("--screenshot needs --frames N (the frame after which to save it)");
  if (!o.videoPath.empty()) {
    const std::string ext = std::filesystem::path(o.videoPath).extension().string();
    if (ext != ".mp4" && ext != ".gif" && ext != ".MP4" && ext != ".GIF")
      throw UsageError("--video '" + o.videoPath + "': the name must end in .mp4 or .gif");
    if (o.frames == 0) throw UsageError("--video needs --frames N (the number of video frames to record)");
    if (o.videoFps == 60 && (ext == ".gif" || ext == ".GIF"))
      throw UsageError("--video-fps 60 is for .mp4: GIF frame times are whole hundredths of a second");
  }
  return o;
}

}  // namespace sloshlab::app
