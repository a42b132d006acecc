// The UI thread's state: which panels are open, how the fluid is drawn, the
// history the plots show, and the choices the Scene panel edits.
#pragma once

#include "render/colormap.h"
#include "render/liquid_renderer.h"
#include "snapshot.h"
#include "video_recorder.h"

#include "lecture_file.h"
#include "sloshlab/experiments.h"
#include "sloshlab/motions.h"

#include <glm/glm.hpp>

#include <atomic>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <span>
#include <string>
#include <vector>

namespace sloshlab::app {

struct PanelFlags {
  bool ui = true;  // H hides every panel
  bool scene = true;
  bool solver = true;
  bool view = true;
  bool stats = true;
  bool playback = true;
  bool exportFiles = false;
  bool motions = false;
  bool experiments = false;
  bool inspector = false;
  bool probes = false;
  bool help = false;
};

enum class ColourBy { Speed, Density, Pressure, Vorticity, Solid };

struct ViewSettings {
  ColourBy colourBy = ColourBy::Speed;
  render::Colormap colormap = render::Colormap::Water;
  bool autoRange = true;
  float low = 0.0f, high = 1.0f;  // the colour range in use (field units)
  float radiusScale = 1.0f;       // drawn radius / physical radius
  glm::vec3 background{0.11f, 0.12f, 0.14f};
  glm::vec3 solidColour{0.16f, 0.45f, 0.85f};
  bool containerFrame = false;    // draw in the container's frame, with the arrow of -A
  bool showGrid = false;          // the hybrid solvers' MAC grid (2D)
  bool showKernel = false;        // the support and neighbours of the particle under the mouse
  bool showVelocity = false;      // velocity arrows (teaching_overlay.h)
  bool showFictitious = false;    // centrifugal and Coriolis arrows in the container-frame view (frame_forces.h)
  render::LiquidView liquidView = render::LiquidView::Surface;  // the liquid, the particles or both (--view, W)
  float liquidResolution = 1.0f;  // the liquid's passes, a fraction of the window's pixels (half on software GL)
  float uiScale = 1.0f;           // text and panel size (1 to 3), applied when no widget is active
};

// Recent diagnostics for the plots, one sample per new snapshot.
struct History {
  static constexpr std::size_t kLength = 600;
  std::deque<float> time, kinetic, total, momentum, angular, densityError, divergence, volumeDrift, dt, mass;
  std::deque<float> massIn, massOut;  // a faucet's and an outlet's totals since the start (physics.md §14)
  double firstVolume = 0.0;  // the liquid volume after the last reset (volume drift's reference)
  double startMass = -1.0;   // the mass at the start (held - in + out at the first sample after a reset)
  void add(const Snapshot& s);
  void add(const StepStats& stats, int dim);
  void clear();
};

struct SceneChoice {
  std::vector<std::string> scenes;  // built-in names, plus a file given on the command line
  int scene = 0;
  int dim = 2;
  int solver = 0;      // index into solverInfos()
  float spacing = 0;   // m; 0 = the scene's
  char savePath[256] = "my_scene.json";  // "Save scene as"
};

// The Export panel's fields (what the next Start sends).
struct ExportChoice {
  char dir[512] = "sloshlab_export";
  int format = 0;            // csv, vtk, ply
  bool bySeconds = false;    // every S simulated seconds, else every K steps
  int everySteps = 10;
  float everySeconds = 1.0f / 30.0f;
};

// The Motions panel's fields (sloshlab/motions.h).
struct MotionChoice {
  MotionSpec spec;
  char path[512] = "my_motion.csv";
};

// The Probes panel's fields (probes_panel.cpp): the next probe to add, where the CSV goes.
struct ProbeChoice {
  int kind = 0;            // 0: gauge, 1: sensor
  float x = 0.01f, y = 0.05f, z = 0.0f, radius = 0.0f;  // container frame (m); radius 0: two spacings
  bool placing = false;    // the next click in place on the bottle puts the probe there (2D)
  float rate = 50.0f;      // samples per simulated second
  char path[512] = "probes.csv";
};

// The Experiments panel's choices, and the run in the background (experiments_panel.cpp).
struct ExperimentChoice {
  int experiment = 0;  // index into experimentInfos()
  int solver = -1;     // index into solverInfos(); -1: the experiment's own
  int dim = 2;
};
struct ExperimentRun {
  std::thread worker;
  std::atomic<double> progress{0.0};
  std::atomic<bool> cancel{false}, finished{false};
  std::atomic<FieldKind> field{FieldKind::Speed};  // what the view colours by (the worker copies that)
  bool running = false;  // the UI thread's view: started and not yet joined
  std::mutex mutex;      // guards result and error, written once by the worker, and the live view
  ExperimentResult result;
  std::string error;
  // While it runs (experiment_view.h): its liquid as the worker last copied it, with
  // `liveSerial` counting the copies, and its curve so far.
  std::string name;
  Snapshot live;
  long liveSerial = 0;
  ExperimentResult sofar;
  Snapshot shown;  // the UI thread's copy of `live`, which the view draws
  ~ExperimentRun() {
    cancel = true;
    if (worker.joinable()) worker.join();
  }
};

struct AppState {
  // Why the GPU path's solvers (those with a CPU twin, sloshlab/gpu.h) are not offered in
  // this window; empty when they are.
  std::string gpuUnavailable;
  std::string gpuDevice;  // the GPU path's renderer and GL version, where it runs
  PanelFlags panels;
  ViewSettings view;
  History history;
  std::vector<History> paneHistory;  // side by side: one per pane (their plots overlay)
  std::string compareList;           // the running panes as --compare lists them ("": one view)
  char compareField[256] = "";       // the Scene panel's side-by-side list
  SceneChoice choice;
  ExportChoice exportChoice;
  MotionChoice motionChoice;
  ExperimentChoice experimentChoice;
  ProbeChoice probeChoice;
  ExperimentRun experiment;
  std::vector<double> params;   // the UI's copy of the parameters (sliders edit it)
  const ParamTable* paramTable = nullptr;
  float uiFps = 0.0f;
  float uiFrameMs = 0.0f;
  bool touched = false;         // the user has moved the bottle (hides the hint)
  bool screenshotRequested = false;
  VideoSettings video;                 // the Playback panel's choices for the next recording
  bool recordToggleRequested = false;  // Record button or V: start or stop a recording
  bool videoRecording = false;         // the recorder's state, for the panel and the view
  double videoSeconds = 0.0;           // video time recorded so far
  std::uintmax_t videoBytes = 0;       // the file's size so far
  std::string videoPath;
  std::string videoMessage;            // why the last recording could not start, or how it ended
  std::optional<glm::vec2> clickAt;  // a left click in place on the bottle, framebuffer pixels (this frame)
  std::optional<std::size_t> inspectedBody;  // the floating body the inspector shows (the last one pressed)
  bool lecture = false;         // L: the projector view (lecture.h)
  std::vector<std::string> lecturePins{"Time", "Real time", "Kinetic energy"};  // its figures (lecture.h)
  Lecture slides;               // --lecture's slides (lecture_file.h); PageDown/PageUp in the lecture view
  std::string lecturePath;      // where "add slide" (A in the lecture view) writes them
  int slide = -1;               // the slide shown; -1: none
  std::optional<MotionSpec> playedMotion;  // the Motions panel's last Play (an added slide keeps it)
  std::string statePath;        // the state F5 saved last (F9 goes back to it)
  SceneChoice stateChoice;      // the Scene panel's choices when it was saved
  std::string stateShown;       // the saved state the view has announced
  bool quitRequested = false;
  bool fullscreenRequested = false;
  std::string toast;            // a short message (screenshot saved, ...)
  double toastUntil = 0.0;
  double slowSince = -1.0;      // since when the solver has been behind the speed asked for (ImGui time)
  double slowUntil = 0.0;       // the slow-motion message shows until then
  double slowFactor = 0.0;      // with this measured factor
  bool relayout = false;        // put the panels back in their columns (after a change of UI scale)
  glm::vec4 legendRect{0.0f};   // where the colour legend was drawn (x0 y0 x1 y1, ImGui units; 0: none)
};

// Every colour the particles can take, described once: the View panel's list, the
// number keys, the legend's title and unit, and the engine's field behind it.
struct FieldInfo {
  ColourBy colourBy;
  const char* label;   // in the View panel's list
  const char* legend;  // the colour legend's title
  const char* unit;
  int key;             // the number key that selects it; 0: none
  FieldKind field;     // what the simulation thread sends (Speed for the solid colour)
};
std::span<const FieldInfo> fieldInfos();  // in ColourBy's order
const FieldInfo& fieldInfo(ColourBy c);

}  // namespace sloshlab::app
