// The window's frame loop, one method per step of the Dear ImGui GLFW + OpenGL3
// example: poll (sleep while iconified), fetch the simulation's latest state, new
// frame, lay out the view and read the mouse, panels, render the scene, render ImGui
// (reading pictures between its layers), swap and pace. The window and Dear ImGui's
// set-up are in gui_window.h, the view's drawing in scene_view.h.
//
// Contents
//   helpers      CPU time, the colour range, the shortcut keys, the menu
//   set-up       what is checked before a window opens, the solver's threads
//   GuiApp       the frame's steps, and the run's summary at exit
//   runGui
#include "gui_app.h"

#include "app_state.h"
#include "lecture.h"
#include "lecture_file.h"
#include "container_input.h"
#include "experiment_view.h"
#include "gui_window.h"
#include "headless.h"
#include "layout_file.h"
#include "panels.h"
#include "render/capture.h"
#include "render/gl.h"
#include "render/overlay_renderer.h"
#include "render/particle_renderer.h"
#include "scene_view.h"
#include "sim_thread.h"
#include "teaching_overlay.h"
#include "video_recorder.h"

#include "sloshlab/solver_registry.h"
#ifdef SLOSHLAB_HAVE_GPU
#include "sloshlab/gpu.h"
#endif

#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <glm/gtc/matrix_transform.hpp>

#include <omp.h>

#include <algorithm>
#include <sys/resource.h>

#include <chrono>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace sloshlab::app {

namespace {

double cpuSeconds(int who) {
  rusage u{};
  getrusage(who, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

// The smoothed colour range for the current field.
void updateRange(ViewSettings& v, const Snapshot& s) {
  if (!v.autoRange || v.colourBy == ColourBy::Solid) return;
  float lo = s.valueLow, hi = s.valueHigh;
  switch (v.colourBy) {
    // Below 0.5 m/s the liquid reads as still: the settling jiggle of SPH is not motion.
    case ColourBy::Speed: lo = 0.0f, hi = std::max(hi, 0.5f); break;
    case ColourBy::Pressure: lo = std::min(lo, 0.0f), hi = std::max(hi, 1.0f); break;
    case ColourBy::Vorticity: hi = std::max({std::abs(lo), std::abs(hi), 0.1f}), lo = -hi; break;
    case ColourBy::Density: {
      const float mid = 0.5f * (lo + hi), half = std::max(0.5f * (hi - lo), 0.005f * std::abs(mid));
      lo = mid - half, hi = mid + half;
      break;
    }
    case ColourBy::Solid: break;
  }
  const float rate = 0.1f;  // per frame: the legend settles in ~10 frames instead of flickering
  v.low += rate * (lo - v.low);
  v.high += rate * (hi - v.high);
}

// Shortcut keys are queued from GLFW's key callback: ImGui 1.86 only sees key state
// once per frame, and loses a press and release that both arrive between frames.
struct KeyPress {
  int key;
  int mods;
};
std::vector<KeyPress> g_keyPresses;

void onKey(GLFWwindow*, int key, int, int action, int mods) {
  if (action == GLFW_PRESS || action == GLFW_REPEAT) g_keyPresses.push_back({key, mods});
}

// The switches of scene, dimension and solver go the Scene and Solver panels' way
// (chooseScene and the others in panels.h), so that a lecturer can change them with the
// panels hidden, or from a presenter's remote (PageUp and PageDown).
void handleKeys(AppState& state, SimulationThread& sim, const Snapshot& s, const SimulationSetup& baseSetup) {
  std::vector<KeyPress> presses;
  presses.swap(g_keyPresses);
  if (ImGui::GetIO().WantCaptureKeyboard) return;  // typing into a panel
  const SceneSwitch to{state, sim, baseSetup};
  bool paused = s.paused;
  for (const KeyPress& p : presses) {
    switch (p.key) {
      case GLFW_KEY_SPACE: paused = !paused, sim.post(command::SetPaused{paused}); break;
      case GLFW_KEY_N: sim.post(command::StepOnce{}); break;
      case GLFW_KEY_R: sim.post(command::Reset{}); break;
      case GLFW_KEY_LEFT_BRACKET: chooseSolver(to, state.choice.solver - 1); break;
      case GLFW_KEY_RIGHT_BRACKET: chooseSolver(to, state.choice.solver + 1); break;
      case GLFW_KEY_D: chooseDim(to, state.choice.dim == 2 ? 3 : 2); break;
      // In the lecture view with slides, a presenter's remote steps through them.
      case GLFW_KEY_PAGE_UP:
        if (state.lecture && !state.slides.slides.empty()) showSlide(state, sim, state.slide - 1);
        else chooseScene(to, state.choice.scene - 1);
        break;
      case GLFW_KEY_PAGE_DOWN:
        if (state.lecture && !state.slides.slides.empty()) showSlide(state, sim, state.slide + 1);
        else chooseScene(to, state.choice.scene + 1);
        break;
      case GLFW_KEY_A:
        if (state.lecture) addSlide(state);
        break;
      case GLFW_KEY_1:
      case GLFW_KEY_2:
      case GLFW_KEY_3:
      case GLFW_KEY_4:
        for (const FieldInfo& f : fieldInfos())
          if (f.key == p.key - GLFW_KEY_0) {
            state.view.colourBy = f.colourBy;
            sim.post(command::SetField{f.field});
          }
        break;
      case GLFW_KEY_H: state.panels.ui = !state.panels.ui; break;
      case GLFW_KEY_W: {  // the liquid, the particles, both
        const int next = (static_cast<int>(state.view.liquidView) + 1) % static_cast<int>(render::LiquidView::Count);
        state.view.liquidView = static_cast<render::LiquidView>(next);
        break;
      }
      case GLFW_KEY_L: state.lecture = !state.lecture; break;  // the projector view (lecture.h)
      case GLFW_KEY_EQUAL:
      case GLFW_KEY_KP_ADD:
      case GLFW_KEY_MINUS:
      case GLFW_KEY_KP_SUBTRACT:
        if (p.mods & GLFW_MOD_CONTROL) {
          const bool up = p.key == GLFW_KEY_EQUAL || p.key == GLFW_KEY_KP_ADD;
          state.view.uiScale = std::clamp(state.view.uiScale + (up ? 0.25f : -0.25f), 1.0f, 3.0f);
        }
        break;
      case GLFW_KEY_F1: state.panels.help = !state.panels.help; break;
      case GLFW_KEY_S:
        if (p.mods & GLFW_MOD_CONTROL) state.screenshotRequested = true;
        break;
      case GLFW_KEY_V: state.recordToggleRequested = true; break;
      case GLFW_KEY_F5:  // save the whole state (sloshlab/state_file.h)
        state.statePath = uniqueCaptureName(".slosh");
        state.stateChoice = state.choice;
        sim.post(command::SaveState{state.statePath});
        break;
      case GLFW_KEY_F9:  // back to the state F5 saved
        if (state.statePath.empty()) {
          state.toast = "no state saved yet: F5 saves one";
        } else {
          sim.post(command::LoadState{state.statePath});
          state.choice = state.stateChoice;
          state.toast = "back to " + state.statePath;
        }
        state.toastUntil = ImGui::GetTime() + 4.0;
        break;
      case GLFW_KEY_F11: state.fullscreenRequested = true; break;
      case GLFW_KEY_ESCAPE: state.quitRequested = true; break;
      default: break;
    }
  }
}

void showMessage(AppState& state, const std::string& text) {
  state.toast = text;
  state.toastUntil = ImGui::GetTime() + 4.0;
}

// ---------------------------------------------------------------- set-up

// A video for a script needs ffmpeg, and a lecture file is read with each slide
// checked: both say so before any window opens.
Lecture checkedLecture(const Options& options) {
  if (!options.videoPath.empty())
    if (const std::string problem = ffmpegProblem(); !problem.empty()) throw std::runtime_error(problem);
  return options.lecturePath.empty() ? Lecture{} : loadCheckedLecture(options.lecturePath);
}

// The simulation, or side by side the panes: bad input fails before any window opens.
std::vector<std::unique_ptr<Simulation>> createPanesFor(const Options& options) {
  if (!options.compare.empty()) return createPanes(setupFromOptions(options), options.compare);
  std::vector<std::unique_ptr<Simulation>> one;
  one.push_back(createSimulation(options));
  return one;
}

// A software rasteriser (llvmpipe under Xvfb) draws on the CPU: the solver leaves it
// one core. Hardware GL leaves the CPU to the solver, which takes all cores; the
// thread governor (sim/src/thread_governor.h) backs off when they are busy.
bool softwareRasteriser() {
  const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  return renderer && (std::strstr(renderer, "llvmpipe") || std::strstr(renderer, "softpipe"));
}

SimThreadOptions threadOptionsFor(const Options& options, bool softwareRaster) {
  const int threads =
      options.threads > 0 ? options.threads : std::max(1, omp_get_num_procs() - (softwareRaster ? 1 : 0));
  return {.statsPath = options.statsPath,
          .exportDir = options.exportDir,
          .every = options.every,
          .recordMotionPath = options.recordMotionPath,
          .threads = threads,
          .speed = options.speed,
          .saveScenePath = options.saveScenePath,
          .saveStatePath = options.saveStatePath,
          .exportFormat = options.exportFormat,
          .compare = options.compare,
#ifdef SLOSHLAB_HAVE_GPU
          // The window draws GPU solvers' particles from GPU memory where it shares the
          // compute context (gui_window.h, SharedComputeContext).
          .makeDrawTarget = gpu::sharesWithWindow() ? gpu::makeDrawTarget
                                                    : std::function<std::shared_ptr<DeviceDrawTarget>()>()
#endif
  };
}

// ---------------------------------------------------------------- GuiApp

class GuiApp {
 public:
  explicit GuiApp(const Options& options);
  bool running() const { return !glfwWindowShouldClose(m_window) && !m_state.quitRequested && !m_done; }
  // One pass of the example's loop.
  void runFrame() {
    Frame f;
    f.start = Clock::now();
    if (!pollEvents()) return;
    const Snapshot& snap = fetchSnapshot();
    newFrame(snap, f);
    layoutView(snap, f);
    drawUi(snap, f);
    renderScene(f);
    renderImGuiAndCapture(snap, f);
    present(f);
  }
  // Stops the simulation, prints the run's summary; returns the exit status.
  int finish();

 private:
  using Clock = std::chrono::steady_clock;
  // What one frame's steps hand on to the next ones.
  struct Frame {
    Clock::time_point start;
    int fbw = 0, fbh = 0;
    glm::vec2 viewport{1.0f}, fbScale{1.0f};
    bool videoDue = false;   // this frame is one of the recording's
    bool lastFrame = false;  // --frames: the run ends after it
    bool screenshot = false, capturing = false, panelsShown = true;
    Layout layout;
    glm::vec4 bottleArea{0.0f};  // framebuffer pixels where the bottle may go
    const Snapshot* shown = nullptr;  // what the view draws: the simulation's, or a running experiment's
    SceneFrame scene;
    KernelProbe probe;
  };

  bool pollEvents();                                  // false while iconified
  const Snapshot& fetchSnapshot();                    // the latest state, its history, messages, title
  void newFrame(const Snapshot& snap, Frame& f);      // ImGui's frame, the keys, video start and stop
  void layoutView(const Snapshot& snap, Frame& f);    // the panes and cameras; the mouse moves the bottle
  void drawUi(const Snapshot& snap, Frame& f);        // menu, panels, overlays, the probe; ImGui::Render
  void renderScene(const Frame& f);  // the simulation's liquid, or a running experiment's
  void renderImGuiAndCapture(const Snapshot& snap, Frame& f);  // pictures read between ImGui's layers
  void present(const Frame& f);                       // swap, full screen, pacing, fps

  const Options& m_options;
  SharedComputeContext m_computeContext;  // before the simulation: see gui_window.h
  Lecture m_lecture;
  std::vector<std::unique_ptr<Simulation>> m_panes;  // handed to m_sim
  SimulationSetup m_baseSetup;                       // the command line's
  Window m_win;
  GLFWwindow* m_window;
  ImGuiLayer m_imgui;
  LayoutFile m_layoutFile;
  render::ParticleRenderer m_particles;
  render::LiquidRenderer m_liquid;
  render::OverlayRenderer m_overlays;
  AppState m_state;
  bool m_softwareRaster;
  SimulationThread m_sim;
  VideoRecorder m_recorder;
  std::string m_videoError;  // --video could not be completed
  render::OrbitCamera m_orbit;
  ContainerInput m_input;
  std::size_t m_inputPane = 0;  // side by side: the pane whose camera reads the mouse
  long m_lastSerial = -1;
  std::string m_title, m_reportedFailure;
  int m_frame = 0;
  float m_appliedScale = 0.0f;
  glm::vec3 m_smoothedA{0.0f};
  int m_windowedPos[2] = {0, 0}, m_windowedSize[2] = {1280, 800};
  Clock::time_point m_fpsStart = Clock::now();
  int m_fpsFrames = 0;
  std::chrono::microseconds m_framePeriod;
  Clock::time_point m_runStart;
  double m_uiCpuStart = 0.0, m_processCpuStart = 0.0;
  long m_firstStep = -1;
  double m_firstTime = 0.0;
  bool m_done = false;  // the last frame is drawn, or the video failed
  bool m_wantHost = false;  // command::WantHostParticles, as last posted
};

GuiApp::GuiApp(const Options& options)
    : m_options(options),
      m_computeContext(),
      m_lecture(checkedLecture(options)),
      m_panes(createPanesFor(options)),
      m_baseSetup(m_panes.front()->setup()),
      m_win(options.uiScale, m_computeContext),
      m_window(m_win.window),
      m_imgui(m_window, onKey),
      m_layoutFile(options.noLayoutFile ? std::string() : layoutFilePath()),  // before the first frame
      m_softwareRaster(softwareRasteriser()),
      m_sim(std::move(m_panes), threadOptionsFor(options, m_softwareRaster)),
      m_recorder(m_sim),
      m_framePeriod(m_softwareRaster ? 33333 : 16667) {
#ifdef SLOSHLAB_HAVE_GPU
  m_state.gpuUnavailable = gpu::unavailableReason();
  m_state.gpuDevice = gpu::deviceName();
#endif
  m_state.panels.ui = !options.hideUi;
  m_state.view.containerFrame = options.containerFrame;
  // --view, else the view last chosen (layout_file.h), else the surface.
  render::parseLiquidView(options.view.empty() ? m_layoutFile.value("view") : options.view, m_state.view.liquidView);
  m_state.view.liquidResolution = m_softwareRaster ? 0.5f : 1.0f;
  float contentScale = 1.0f, unused = 1.0f;
  glfwGetWindowContentScale(m_window, &contentScale, &unused);
  m_state.view.uiScale =
      options.uiScale > 0.0 ? static_cast<float>(options.uiScale) : std::clamp(contentScale, 1.0f, 3.0f);
  m_state.choice = initialChoice(m_baseSetup);
  if (!options.lecturePath.empty()) {
    m_state.slides = m_lecture;
    m_state.lecturePath = options.lecturePath;
  }
  if (!options.exportDir.empty())
    initExportChoice(m_state.exportChoice, options.exportDir, options.exportFormat, options.every);
  if (!m_state.slides.slides.empty()) showSlide(m_state, m_sim, 0);  // --lecture starts at its first slide
  m_runStart = Clock::now();
  m_uiCpuStart = cpuSeconds(RUSAGE_THREAD), m_processCpuStart = cpuSeconds(RUSAGE_SELF);
}

bool GuiApp::pollEvents() {
  glfwPollEvents();
  if (glfwGetWindowAttrib(m_window, GLFW_ICONIFIED)) {
    glfwWaitEventsTimeout(0.05);
    return false;
  }
  if (m_state.view.uiScale != m_appliedScale && !ImGui::IsAnyItemActive()) {
    m_imgui.setScale(m_appliedScale = m_state.view.uiScale);
    m_state.relayout = m_frame > 0;
  }
  return true;
}

const Snapshot& GuiApp::fetchSnapshot() {
  AppState& state = m_state;
  m_sim.fetch();
  const Snapshot& snap = m_sim.snapshot();
  if (m_firstStep < 0) m_firstStep = snap.stats.step, m_firstTime = snap.stats.time;
  if (snap.serial != m_lastSerial) {
    state.history.add(snap);
    state.paneHistory.resize(snap.panes.size());
    state.compareList = snap.compare;
    for (std::size_t k = 0; k < snap.panes.size(); ++k) state.paneHistory[k].add(snap.panes[k].stats, snap.dim);
    // Parameters: follow the simulation unless a slider is being dragged.
    if (!ImGui::IsAnyItemActive() || state.paramTable != snap.params) {
      state.paramTable = snap.params;
      state.params = snap.paramValues;
    }
    m_lastSerial = snap.serial;
  }
  if (snap.savedState != state.stateShown) {
    state.stateShown = snap.savedState;
    if (snap.savedState == state.statePath && !state.statePath.empty())
      showMessage(state, "state saved to " + (std::filesystem::current_path() / state.statePath).string() +
                             " (F9 goes back to it; --load-state continues it)");
  }
  // A solver that stops (blew up, or gained energy at rest) says so on stdout as well
  // as in the view's banner, once, for the scripts that drive the window
  // (tests/gui/window_soak.sh counts them).
  if (snap.failure != m_reportedFailure) {
    if (!snap.failure.empty()) std::printf("sloshlab: stopped: %s\n", snap.failure.c_str()), std::fflush(stdout);
    m_reportedFailure = snap.failure;
  }
  std::string methods = snap.solver;  // side by side: every pane's
  for (std::size_t k = 0; k < snap.panes.size(); ++k)
    methods = k == 0 ? snap.panes[0].label : methods + " | " + snap.panes[k].label;
  const std::string title = "sloshlab - " + snap.scene + " - " + methods + " " + std::to_string(snap.dim) + "D";
  if (title != m_title) glfwSetWindowTitle(m_window, (m_title = title).c_str());
  return snap;
}

void GuiApp::newFrame(const Snapshot& snap, Frame& f) {
  AppState& state = m_state;
  glfwGetFramebufferSize(m_window, &f.fbw, &f.fbh);
  f.viewport = glm::vec2(static_cast<float>(std::max(f.fbw, 1)), static_cast<float>(std::max(f.fbh, 1)));
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  handleKeys(state, m_sim, snap, m_baseSetup);
  if (m_frame == 0 && !m_options.videoPath.empty()) {
    VideoSettings settings{.fps = m_options.videoFps};
    videoFormatFor(m_options.videoPath, settings.format);
    if (const std::string error = m_recorder.start(m_options.videoPath, f.fbw, f.fbh, settings); !error.empty())
      throw std::runtime_error(error);
  }
  if (state.recordToggleRequested) {  // V, or the Record button last frame
    state.recordToggleRequested = false;
    if (m_recorder.recording()) {
      state.videoMessage.clear();
      showMessage(state, m_recorder.stop());
    } else {
      const std::string name = uniqueCaptureName(state.video.format == VideoFormat::Gif ? ".gif" : ".mp4");
      state.videoMessage = m_recorder.start(name, f.fbw, f.fbh, state.video);
      if (!state.videoMessage.empty()) showMessage(state, state.videoMessage);
    }
  }
  // A video frame of the recording: the simulation steps on toward the next one.
  f.videoDue = m_recorder.takeFrame(snap);
  // With --video, --frames counts video frames; a solver that stops ends the video early.
  f.lastFrame = m_options.frames > 0 &&
                (m_options.videoPath.empty() ? m_frame + 1 >= m_options.frames
                                             : !m_recorder.recording() || !snap.failure.empty() ||
                                                   (f.videoDue && m_recorder.frames() + 1 >= m_options.frames));
  f.screenshot = state.screenshotRequested || (f.lastFrame && !m_options.screenshotPath.empty());
  // The kernel probe stays out of pictures and videos.
  f.capturing = f.screenshot || m_recorder.recording();
  f.panelsShown = state.panels.ui && !state.lecture;
}

void GuiApp::layoutView(const Snapshot& snap, Frame& f) {
  f.layout = windowLayout(f.panelsShown);
  const Layout& layout = f.layout;
  // Where the bottle may go (framebuffer pixels): the free area, above the legend's row.
  f.fbScale = glm::vec2(ImGui::GetIO().DisplayFramebufferScale.x, ImGui::GetIO().DisplayFramebufferScale.y);
  f.bottleArea = glm::vec4(layout.free.x, layout.free.y, layout.free.z, layout.free.w - 3.0f * layout.em) *
                 glm::vec4(f.fbScale, f.fbScale);
  // Side by side, the panes also leave the legend's row to it (their labels sit at their feet).
  const glm::vec4 paneArea = f.bottleArea - glm::vec4(0.0f, 0.0f, 0.0f, 2.5f * layout.em * f.fbScale.y);
  // While an experiment runs, the view shows its liquid (experiment_view.h).
  f.shown = &experimentInView(m_state.experiment, snap, m_state.view.colourBy, layout.free);
  f.scene = frameScene(*f.shown, m_state.view, m_orbit, f.viewport, paneArea, m_frame == 0);
  // Side by side, a drag on any pane moves every pane's bottle: the pane under the
  // press is the one whose camera reads the mouse until the release.
  if (!m_input.dragging()) {
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    m_inputPane = paneAt(f.scene, glm::vec2(mouse.x, mouse.y) * f.fbScale);
  }
  const PaneFrame& held = f.scene.panes[std::min(m_inputPane, f.scene.panes.size() - 1)];
  if (f.shown == &snap)  // an experiment's liquid is not the bottle: nothing to drag or orbit
    m_input.update(snap, held.camera, f.scene.drawnFromWorld, f.scene.is3d ? &m_orbit : nullptr,
                   f.scene.panes.size() > 1 ? held.rect : f.bottleArea, m_sim, m_state);
  updateRange(m_state.view, *f.shown);
}

void GuiApp::drawUi(const Snapshot& snap, Frame& f) {
  AppState& state = m_state;
  drawMenuBar(state);
  PanelContext ctx{state, snap, m_sim, m_baseSetup, f.layout};
  if (state.lecture) drawLectureHud(ctx);
  if (f.panelsShown) drawPanels(ctx);
  state.videoRecording = m_recorder.recording();
  state.videoSeconds = m_recorder.seconds(), state.videoBytes = m_recorder.bytes(), state.videoPath = m_recorder.path();
  const glm::mat4& drawnFromWorld = f.scene.drawnFromWorld;
  const render::CameraView& camera = f.scene.panes.front().camera;  // the first pane's: probes and pins
  drawOverlays(ctx, ImGui::GetTime());
  drawPaneLabels(f.scene, snap, state.view.uiScale);
  drawFrameForcesLegend(state.view, snap, drawnFromWorld, f.layout.free, state.legendRect);
  const ImGuiIO& io = ImGui::GetIO();
  drawProbeMarkers(ctx, camera, drawnFromWorld, state.clickAt);
  if (state.panels.inspector) drawBodyForces(ctx, camera, drawnFromWorld);
  // A click on a particle pins it in the inspector (with the kernel view on, or the
  // inspector open).
  if (state.clickAt && (state.view.showKernel || state.panels.inspector)) {
    const KernelProbe hit = probeKernel(camera, drawnFromWorld, snap, *state.clickAt);
    if (hit.active && hit.index < snap.ids.size()) {
      m_sim.post(command::Pin{true, snap.ids[hit.index]});
      state.panels.inspector = true;
    }
  }
  state.clickAt.reset();
  // A GPU solver's particles come to the host only while something here reads them.
  const bool wantHost = state.view.showVelocity || (state.view.showFictitious && state.view.containerFrame) ||
                        state.view.showKernel || state.panels.inspector;
  if (wantHost != m_wantHost) m_sim.post(command::WantHostParticles{m_wantHost = wantHost});
  if (snap.inspected.found && !f.capturing) {
    f.probe = pinnedProbe(drawnFromWorld, snap);
  } else if (state.view.showKernel && !io.WantCaptureMouse && !m_input.dragging() && !f.capturing) {
    const glm::vec2 mouse(io.MousePos.x * io.DisplayFramebufferScale.x, io.MousePos.y * io.DisplayFramebufferScale.y);
    f.probe = probeKernel(camera, drawnFromWorld, snap, mouse);
    if (f.probe.active) {
      ImGui::BeginTooltip();
      ImGui::Text("%zu neighbours within h = %.1f mm", f.probe.neighbours.size(),
                  1e3 * static_cast<double>(f.probe.radius));
      ImGui::EndTooltip();
    }
  }
  ImGui::Render();
  m_layoutFile.remember("view", render::liquidViewName(state.view.liquidView));
  m_layoutFile.update();
}

void GuiApp::renderScene(const Frame& f) {
  glViewport(0, 0, f.fbw, f.fbh);
  const glm::vec3& background = m_state.view.background;
  glClearColor(background.x, background.y, background.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  drawScene(f.scene, *f.shown, m_state.view, m_particles, m_liquid, m_overlays, f.probe, m_smoothedA,
            glm::ivec2(f.fbw, f.fbh));
}

// The pictures are read between ImGui's layers: a video frame of the view after the
// legend, a screenshot or a video frame with the panels after the windows; the
// messages come after both, below the windows (drawn again over them after a capture).
void GuiApp::renderImGuiAndCapture(const Snapshot& snap, Frame& f) {
  AppState& state = m_state;
  renderLayer(Layer::Legend);
  auto takeVideoFrame = [&] {
    const std::string error = m_recorder.readFrame(f.fbw, f.fbh);
    if (error.empty()) return;
    showMessage(state, state.videoMessage = error);
    if (!m_options.videoPath.empty()) m_videoError = error;
  };
  if (f.videoDue && !m_recorder.panels()) takeVideoFrame();
  const bool windowsFirst = f.screenshot || (f.videoDue && m_recorder.panels());
  if (windowsFirst) renderLayer(Layer::Windows);
  if (f.videoDue && m_recorder.panels()) takeVideoFrame();
  ++m_frame;

  if (f.lastFrame && !m_options.screenshotPath.empty()) {
    render::saveFramebufferPng(m_options.screenshotPath, f.fbw, f.fbh);
    // Where the container is in the picture: its corners' bounding box in pixels.
    const Vec3& size = snap.container.size;
    const render::CameraView& camera = f.scene.panes.front().camera;
    glm::vec2 lo(1e9f), hi(-1e9f);
    for (int corner = 0; corner < (f.scene.is3d ? 8 : 4); ++corner) {
      const glm::vec3 local((corner & 1) ? size.x : 0.0, (corner & 2) ? size.y : 0.0, (corner & 4) ? size.z : 0.0);
      const glm::vec2 px =
          camera.toPixel(glm::vec3(f.scene.drawnFromWorld * f.scene.model * glm::vec4(local, 1.0f)));
      lo = glm::min(lo, px), hi = glm::max(hi, px);
    }
    std::printf("sloshlab: saved %s (%dx%d); container at pixels x %.0f..%.0f, y %.0f..%.0f",
                m_options.screenshotPath.c_str(), f.fbw, f.fbh, static_cast<double>(lo.x), static_cast<double>(hi.x),
                static_cast<double>(lo.y), static_cast<double>(hi.y));
    const glm::vec4 legend = state.legendRect * glm::vec4(f.fbScale, f.fbScale);
    if (legend != glm::vec4(0.0f))
      std::printf("; legend at pixels x %.0f..%.0f, y %.0f..%.0f", static_cast<double>(legend.x),
                  static_cast<double>(legend.z), static_cast<double>(legend.y), static_cast<double>(legend.w));
    std::printf("; the state of step %ld, t = %.6f s\n", snap.stats.step, snap.stats.time);
  }
  if (state.screenshotRequested) {
    state.screenshotRequested = false;
    const std::string name = uniqueCaptureName(".png");
    try {
      render::saveFramebufferPng(name, f.fbw, f.fbh);
      showMessage(state, "saved " + (std::filesystem::current_path() / name).string());
    } catch (const std::exception& e) {
      showMessage(state, e.what());
    }
  }
  renderLayer(Layer::Messages);
  renderLayer(Layer::Windows);
}

void GuiApp::present(const Frame& f) {
  glfwSwapBuffers(m_window);
  if (f.lastFrame || !m_videoError.empty()) {
    m_done = true;
    return;
  }
  if (m_state.fullscreenRequested) {
    m_state.fullscreenRequested = false;
    if (glfwGetWindowMonitor(m_window)) {
      glfwSetWindowMonitor(m_window, nullptr, m_windowedPos[0], m_windowedPos[1], m_windowedSize[0], m_windowedSize[1],
                           0);
    } else if (GLFWmonitor* monitor = glfwGetPrimaryMonitor()) {
      glfwGetWindowPos(m_window, &m_windowedPos[0], &m_windowedPos[1]);
      glfwGetWindowSize(m_window, &m_windowedSize[0], &m_windowedSize[1]);
      const GLFWvidmode* mode = glfwGetVideoMode(monitor);
      glfwSetWindowMonitor(m_window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
    }
  }
  // At most 60 frames per second (30 on a software rasteriser, where each frame
  // costs the solver a core's worth of time): the rest belongs to the solver. While
  // recording, as many as the video has per second of simulation: each is one of its
  // frames (at 60 fps on the software rasteriser, the window kept the video to 0.5x).
  const auto videoPeriod = std::chrono::microseconds(m_recorder.recording() ? 1000000 / m_recorder.fps() : 1000000);
  std::this_thread::sleep_until(f.start + std::min<std::chrono::microseconds>(m_framePeriod, videoPeriod));
  ++m_fpsFrames;
  const double fpsWindow = std::chrono::duration<double>(Clock::now() - m_fpsStart).count();
  if (fpsWindow > 0.5) {
    m_state.uiFps = static_cast<float>(m_fpsFrames / fpsWindow);
    m_state.uiFrameMs = static_cast<float>(1e3 * fpsWindow / m_fpsFrames);
    m_fpsFrames = 0;
    m_fpsStart = Clock::now();
  }
}

int GuiApp::finish() {
  // One line on how the run went: what the Stats panel showed, over the whole run
  // (until the last frame: not the wait for ffmpeg to finish a video).
  const double wall = std::chrono::duration<double>(Clock::now() - m_runStart).count();
  const Snapshot& last = m_sim.snapshot();
  const double uiCpu = cpuSeconds(RUSAGE_THREAD) - m_uiCpuStart, processCpu = cpuSeconds(RUSAGE_SELF) - m_processCpuStart;
  if (m_recorder.recording()) {
    const std::string saved = m_recorder.stop();
    if (saved.rfind("saved ", 0) != 0) m_videoError = saved;
    else std::printf("sloshlab: %s\n", saved.c_str());
  }
  std::printf("sloshlab: %d frames in %.2f s (%.1f fps); solver %.0f steps/s, %.3f simulated s per wall s "
              "(slowest half-second %.2f of the asked speed); UI thread %.0f %% of a core, whole process %.0f %%\n",
              m_frame, wall, m_frame / wall, static_cast<double>(last.stats.step - m_firstStep) / wall,
              (last.stats.time - m_firstTime) / wall, last.slowestShareOfSpeed, 100.0 * uiCpu / wall,
              100.0 * processCpu / wall);
  // Side by side: one line per pane (its own steps' speed: what it would do alone).
  for (std::size_t k = 0; k < last.panes.size(); ++k) {
    const PaneView& v = last.panes[k];
    std::printf("sloshlab: pane %zu %s: %zu particles, t = %.3f s in %ld steps, alone %.2fx real time, kinetic energy "
                "%.4g %s%s%s\n",
                k + 1, v.label.c_str(), v.stats.particles, v.stats.time, v.stats.step, v.ownSpeed,
                v.stats.kineticEnergy, last.dim == 2 ? "J/m" : "J", v.failure.empty() ? "" : "; stopped: ",
                v.failure.c_str());
  }
  const std::string failure = last.failure;
  std::string error = m_sim.stop();
  if (error.empty()) error = m_videoError;
  if (!error.empty()) {
    std::fprintf(stderr, "sloshlab: error: %s\n", error.c_str());
    return 2;
  }
  // A solver that blew up (or gained energy at rest) was paused and shown; the exit
  // status says so too, as on the command line.
  if (!failure.empty()) {
    std::fprintf(stderr, "sloshlab: error: %s\n", failure.c_str());
    return 3;
  }
  return 0;
}

}  // namespace

int runGui(const Options& options) {
  GuiApp app(options);
  while (app.running()) app.runFrame();
  return app.finish();
}

}  // namespace sloshlab::app
