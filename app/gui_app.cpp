// Frame loop after the Dear ImGui GLFW + OpenGL3 example: poll, sleep while
// iconified, new frame, input, panels, render the scene, render ImGui, swap.
//
// Contents
//   helpers      CPU time, the colour range, the shortcut keys, the menu
//   Window       the GLFW window and its GL context; ImGuiLayer, Dear ImGui's set-up
//   runGui       the frame loop
#include "gui_app.h"

#include "app_state.h"
#include "lecture.h"
#include "lecture_file.h"
#include "container_input.h"
#include "experiment_view.h"
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

#include <GLFW/glfw3.h>
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

std::string g_glfwError;

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

void drawMenu(AppState& state) {
  if (!state.panels.ui || state.lecture || !ImGui::BeginMainMenuBar()) return;
  if (ImGui::BeginMenu("Panels")) {
    ImGui::MenuItem("Scene", nullptr, &state.panels.scene);
    ImGui::MenuItem("Solver", nullptr, &state.panels.solver);
    ImGui::MenuItem("Playback", nullptr, &state.panels.playback);
    ImGui::MenuItem("View", nullptr, &state.panels.view);
    ImGui::MenuItem("Stats", nullptr, &state.panels.stats);
    ImGui::MenuItem("Export", nullptr, &state.panels.exportFiles);
    ImGui::MenuItem("Motions", nullptr, &state.panels.motions);
    ImGui::MenuItem("Experiments", nullptr, &state.panels.experiments);
    ImGui::MenuItem("Inspector", nullptr, &state.panels.inspector);
    ImGui::Separator();
    ImGui::MenuItem("Hide all (H)", nullptr, false, true) ? (void)(state.panels.ui = false) : (void)0;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    ImGui::MenuItem("Keys and mouse (F1)", nullptr, &state.panels.help);
    ImGui::EndMenu();
  }
  ImGui::EndMainMenuBar();
}


class Window {
 public:
  // The window is 1280x800 times the UI scale (by default the monitor's content scale,
  // which GLFW applies itself), at most the monitor's size.
  explicit Window(double uiScale) {
    glfwSetErrorCallback([](int, const char* text) { g_glfwError = text; });
    if (!glfwInit()) throw std::runtime_error("cannot open a window: " + (g_glfwError.empty() ? "GLFW failed" : g_glfwError));
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 1);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);  // macOS
    glfwWindowHint(GLFW_SCALE_TO_MONITOR, uiScale > 0.0 ? GLFW_FALSE : GLFW_TRUE);
    int width = 1280, height = 800;
    if (uiScale > 0.0) {
      width = static_cast<int>(std::lround(width * uiScale)), height = static_cast<int>(std::lround(height * uiScale));
      if (GLFWmonitor* monitor = glfwGetPrimaryMonitor())
        if (const GLFWvidmode* mode = glfwGetVideoMode(monitor))
          width = std::min(width, mode->width), height = std::min(height, mode->height);
    }
    window = glfwCreateWindow(width, height, "sloshlab", nullptr, nullptr);
    if (!window) {
      glfwTerminate();
      throw std::runtime_error("cannot open a window with OpenGL 4.1: " + g_glfwError);
    }
    glfwMakeContextCurrent(window);
    glfwSwapInterval(1);
    if (!gladLoadGL(glfwGetProcAddress)) {
      glfwDestroyWindow(window);
      glfwTerminate();
      throw std::runtime_error("cannot load the OpenGL 4.1 functions");
    }
  }
  ~Window() {
    glfwDestroyWindow(window);
    glfwTerminate();
  }
  GLFWwindow* window = nullptr;
};

class ImGuiLayer {
 public:
  explicit ImGuiLayer(GLFWwindow* window) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;  // the layout is the program's, not a file in the current directory
    glfwSetKeyCallback(window, onKey);  // ImGui's callback chains to it
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 410 core");
    ImGui_ImplOpenGL3_CreateDeviceObjects();  // so that setScale() can replace the font texture
  }
  ~ImGuiLayer() {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
  }
  // Text and sizes at `scale`: the font is rasterised again at its new size (sharper
  // than stretching the 13 px one), the style's sizes scaled from the defaults. Call
  // between frames.
  void setScale(float scale) {
    ImGuiStyle style;
    ImGui::StyleColorsDark(&style);
    style.ScaleAllSizes(scale);
    ImGui::GetStyle() = style;
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    ImFontConfig font;
    font.SizePixels = std::round(13.0f * scale);
    io.Fonts->AddFontDefault(&font);
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
  }
};

// ImGui's draw data in three layers, so that a picture can be read between them: the
// background list (the colour legend), the foreground list, which holds the view's
// messages (drawOverlays) and is drawn here below the windows, and the windows (panels,
// menu bar, tooltips).
enum class Layer { Legend, Messages, Windows };

void renderLayer(Layer layer) {
  ImDrawData* all = ImGui::GetDrawData();
  ImDrawList* const background = ImGui::GetBackgroundDrawList();
  ImDrawList* const foreground = ImGui::GetForegroundDrawList();
  std::vector<ImDrawList*> lists;
  for (int i = 0; i < all->CmdListsCount; ++i) {
    ImDrawList* list = all->CmdLists[i];
    const Layer of = list == background ? Layer::Legend : list == foreground ? Layer::Messages : Layer::Windows;
    if (of == layer) lists.push_back(list);
  }
  if (lists.empty()) return;
  ImDrawData part = *all;
  part.CmdLists = lists.data();
  part.CmdListsCount = static_cast<int>(lists.size());
  part.TotalVtxCount = part.TotalIdxCount = 0;
  for (const ImDrawList* list : lists) part.TotalVtxCount += list->VtxBuffer.Size, part.TotalIdxCount += list->IdxBuffer.Size;
  ImGui_ImplOpenGL3_RenderDrawData(&part);
}

void showMessage(AppState& state, const std::string& text) {
  state.toast = text;
  state.toastUntil = ImGui::GetTime() + 4.0;
}

}  // namespace

int runGui(const Options& options) {
  // A video for a script needs ffmpeg: say so before anything opens.
  if (!options.videoPath.empty())
    if (const std::string problem = ffmpegProblem(); !problem.empty()) throw std::runtime_error(problem);
  // A lecture file is read, and each slide checked, before any window opens.
  const Lecture lecture = options.lecturePath.empty() ? Lecture{} : loadCheckedLecture(options.lecturePath);
  // Bad input fails before any window opens.
  std::vector<std::unique_ptr<Simulation>> panes;
  if (options.compare.empty()) panes.push_back(createSimulation(options));
  else panes = createPanes(setupFromOptions(options), options.compare);
  const SimulationSetup baseSetup = panes.front()->setup();
  Window win(options.uiScale);
  GLFWwindow* window = win.window;
  ImGuiLayer imguiLayer(window);
  LayoutFile layoutFile(options.noLayoutFile ? std::string() : layoutFilePath());  // before the first frame
  render::ParticleRenderer particles;
  render::OverlayRenderer overlays;

  AppState state;
  state.panels.ui = !options.hideUi;
  state.view.containerFrame = options.containerFrame;
  float contentScale = 1.0f, unused = 1.0f;
  glfwGetWindowContentScale(window, &contentScale, &unused);
  state.view.uiScale = options.uiScale > 0.0 ? static_cast<float>(options.uiScale) : std::clamp(contentScale, 1.0f, 3.0f);
  float appliedScale = 0.0f;
  state.choice = initialChoice(baseSetup);
  if (!options.lecturePath.empty()) {
    state.slides = lecture;
    state.lecturePath = options.lecturePath;
  }
  // A software rasteriser (llvmpipe under Xvfb) draws on the CPU: the solver leaves it
  // one core. Hardware GL leaves the CPU to the solver, which takes all cores; the
  // thread governor (sim/src/thread_governor.h) backs off when they are busy.
  const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const bool softwareRaster = renderer && (std::strstr(renderer, "llvmpipe") || std::strstr(renderer, "softpipe"));
  const int solverThreads =
      options.threads > 0 ? options.threads : std::max(1, omp_get_num_procs() - (softwareRaster ? 1 : 0));
  const SimThreadOptions threadOptions{.statsPath = options.statsPath,
                                       .exportDir = options.exportDir,
                                       .every = options.every,
                                       .recordMotionPath = options.recordMotionPath,
                                       .threads = solverThreads,
                                       .speed = options.speed,
                                       .saveScenePath = options.saveScenePath,
                                       .saveStatePath = options.saveStatePath,
                                       .exportFormat = options.exportFormat,
                                       .compare = options.compare};
  if (!options.exportDir.empty())
    initExportChoice(state.exportChoice, options.exportDir, options.exportFormat, options.every);
  SimulationThread sim(std::move(panes), threadOptions);
  if (!state.slides.slides.empty()) showSlide(state, sim, 0);  // --lecture starts at its first slide
  VideoRecorder recorder(sim);
  std::string videoError;  // --video could not be completed

  render::OrbitCamera orbit;
  ContainerInput input;
  std::size_t inputPane = 0;  // side by side: the pane whose camera reads the mouse
  long lastSerial = -1;
  std::string title, reportedFailure;
  int frame = 0;
  glm::vec3 smoothedA(0.0f);
  int windowedPos[2] = {0, 0}, windowedSize[2] = {1280, 800};
  auto fpsStart = std::chrono::steady_clock::now();
  int fpsFrames = 0;
  const auto framePeriod = std::chrono::microseconds(softwareRaster ? 33333 : 16667);
  const auto runStart = std::chrono::steady_clock::now();
  const double uiCpuStart = cpuSeconds(RUSAGE_THREAD), processCpuStart = cpuSeconds(RUSAGE_SELF);
  long firstStep = -1;
  double firstTime = 0.0;

  while (!glfwWindowShouldClose(window) && !state.quitRequested) {
    const auto frameStart = std::chrono::steady_clock::now();
    glfwPollEvents();
    if (glfwGetWindowAttrib(window, GLFW_ICONIFIED)) {
      glfwWaitEventsTimeout(0.05);
      continue;
    }
    if (state.view.uiScale != appliedScale && !ImGui::IsAnyItemActive()) {
      imguiLayer.setScale(appliedScale = state.view.uiScale);
      state.relayout = frame > 0;
    }
    sim.fetch();
    const Snapshot& snap = sim.snapshot();
    if (firstStep < 0) firstStep = snap.stats.step, firstTime = snap.stats.time;
    if (snap.serial != lastSerial) {
      state.history.add(snap);
      state.paneHistory.resize(snap.panes.size());
      state.compareList = snap.compare;
      for (std::size_t k = 0; k < snap.panes.size(); ++k) state.paneHistory[k].add(snap.panes[k].stats, snap.dim);
      // Parameters: follow the simulation unless a slider is being dragged.
      if (!ImGui::IsAnyItemActive() || state.paramTable != snap.params) {
        state.paramTable = snap.params;
        state.params = snap.paramValues;
      }
      lastSerial = snap.serial;
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
    if (snap.failure != reportedFailure) {
      if (!snap.failure.empty()) std::printf("sloshlab: stopped: %s\n", snap.failure.c_str()), std::fflush(stdout);
      reportedFailure = snap.failure;
    }
    std::string methods = snap.solver;  // side by side: every pane's
    for (std::size_t k = 0; k < snap.panes.size(); ++k)
      methods = k == 0 ? snap.panes[0].label : methods + " | " + snap.panes[k].label;
    const std::string wantTitle = "sloshlab - " + snap.scene + " - " + methods + " " + std::to_string(snap.dim) + "D";
    if (wantTitle != title) glfwSetWindowTitle(window, (title = wantTitle).c_str());

    int fbw = 0, fbh = 0;
    glfwGetFramebufferSize(window, &fbw, &fbh);
    const glm::vec2 viewport(static_cast<float>(std::max(fbw, 1)), static_cast<float>(std::max(fbh, 1)));
    const bool is3d = snap.dim == 3;
    const Vec3& size = snap.container.size;

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    handleKeys(state, sim, snap, baseSetup);
    if (frame == 0 && !options.videoPath.empty()) {
      VideoSettings settings{.fps = options.videoFps};
      videoFormatFor(options.videoPath, settings.format);
      if (const std::string error = recorder.start(options.videoPath, fbw, fbh, settings); !error.empty())
        throw std::runtime_error(error);
    }
    if (state.recordToggleRequested) {  // V, or the Record button last frame
      state.recordToggleRequested = false;
      if (recorder.recording()) {
        state.videoMessage.clear();
        showMessage(state, recorder.stop());
      } else {
        const std::string name = uniqueCaptureName(state.video.format == VideoFormat::Gif ? ".gif" : ".mp4");
        state.videoMessage = recorder.start(name, fbw, fbh, state.video);
        if (!state.videoMessage.empty()) showMessage(state, state.videoMessage);
      }
    }
    // A video frame of the recording: the simulation steps on toward the next one.
    const bool videoDue = recorder.takeFrame(snap);
    // With --video, --frames counts video frames; a solver that stops ends the video early.
    const bool lastFrame =
        options.frames > 0 && (options.videoPath.empty() ? frame + 1 >= options.frames
                                                         : !recorder.recording() || !snap.failure.empty() ||
                                                               (videoDue && recorder.frames() + 1 >= options.frames));
    const bool screenshot = state.screenshotRequested || (lastFrame && !options.screenshotPath.empty());
    // The kernel probe stays out of pictures and videos.
    const bool capturing = screenshot || recorder.recording();
    const bool panelsShown = state.panels.ui && !state.lecture;
    const Layout layout = windowLayout(panelsShown);
    // Where the bottle may go (framebuffer pixels): the free area, above the legend's row.
    const glm::vec2 fbScale(ImGui::GetIO().DisplayFramebufferScale.x, ImGui::GetIO().DisplayFramebufferScale.y);
    const glm::vec4 bottleArea = glm::vec4(layout.free.x, layout.free.y, layout.free.z, layout.free.w - 3.0f * layout.em) *
                                 glm::vec4(fbScale, fbScale);
    // Side by side, the panes also leave the legend's row to it (their labels sit at their feet).
    const glm::vec4 paneArea = bottleArea - glm::vec4(0.0f, 0.0f, 0.0f, 2.5f * layout.em * fbScale.y);
    // While an experiment runs, the view shows its liquid (experiment_view.h).
    const Snapshot& shown = experimentInView(state.experiment, snap, state.view.colourBy, layout.free);
    const SceneFrame scene = frameScene(shown, state.view, orbit, viewport, paneArea, frame == 0);
    const render::CameraView& camera = scene.panes.front().camera;  // the first pane's: probes and pins
    const glm::mat4& drawnFromWorld = scene.drawnFromWorld;
    const glm::mat4& model = scene.model;
    // Side by side, a drag on any pane moves every pane's bottle: the pane under the
    // press is the one whose camera reads the mouse until the release.
    if (!input.dragging()) {
      const ImVec2 mouse = ImGui::GetIO().MousePos;
      inputPane = paneAt(scene, glm::vec2(mouse.x, mouse.y) * fbScale);
    }
    const PaneFrame& held = scene.panes[std::min(inputPane, scene.panes.size() - 1)];
    if (&shown == &snap)  // an experiment's liquid is not the bottle: nothing to drag or orbit
      input.update(snap, held.camera, drawnFromWorld, is3d ? &orbit : nullptr,
                   scene.panes.size() > 1 ? held.rect : bottleArea, sim, state);
    updateRange(state.view, shown);
    drawMenu(state);
    PanelContext ctx{state, snap, sim, baseSetup, layout};
    if (state.lecture) drawLectureHud(ctx);
    if (panelsShown) {
      drawScenePanel(&state.panels.scene, ctx);
      drawSolverPanel(&state.panels.solver, ctx);
      drawPlaybackPanel(&state.panels.playback, ctx);
      drawViewPanel(&state.panels.view, ctx);
      drawStatsPanel(&state.panels.stats, ctx);
      drawExportPanel(&state.panels.exportFiles, ctx);
      drawMotionsPanel(&state.panels.motions, ctx);
      drawExperimentsPanel(&state.panels.experiments, ctx);
      drawInspectorPanel(&state.panels.inspector, ctx);
      drawHelpPanel(&state.panels.help);
      state.relayout = false;
    }
    state.videoRecording = recorder.recording();
    state.videoSeconds = recorder.seconds(), state.videoBytes = recorder.bytes(), state.videoPath = recorder.path();
    drawOverlays(ctx, ImGui::GetTime());
    drawPaneLabels(scene, snap, state.view.uiScale);
    drawFrameForcesLegend(state.view, snap, drawnFromWorld, layout.free, state.legendRect);
    KernelProbe probe;
    const ImGuiIO& io = ImGui::GetIO();
    // A click on a particle pins it in the inspector (with the kernel view on, or the
    // inspector open).
    if (state.clickAt && (state.view.showKernel || state.panels.inspector)) {
      const KernelProbe hit = probeKernel(camera, drawnFromWorld, snap, *state.clickAt);
      if (hit.active && hit.index < snap.ids.size()) {
        sim.post(command::Pin{true, snap.ids[hit.index]});
        state.panels.inspector = true;
      }
    }
    state.clickAt.reset();
    if (snap.inspected.found && !capturing) {
      probe = pinnedProbe(drawnFromWorld, snap);
    } else if (state.view.showKernel && !io.WantCaptureMouse && !input.dragging() && !capturing) {
      const glm::vec2 mouse(io.MousePos.x * io.DisplayFramebufferScale.x, io.MousePos.y * io.DisplayFramebufferScale.y);
      probe = probeKernel(camera, drawnFromWorld, snap, mouse);
      if (probe.active) {
        ImGui::BeginTooltip();
        ImGui::Text("%zu neighbours within h = %.1f mm", probe.neighbours.size(), 1e3 * static_cast<double>(probe.radius));
        ImGui::EndTooltip();
      }
    }
    ImGui::Render();
    layoutFile.update();

    glViewport(0, 0, fbw, fbh);
    glClearColor(state.view.background.x, state.view.background.y, state.view.background.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    drawScene(scene, shown, state.view, particles, overlays, probe, smoothedA, glm::ivec2(fbw, fbh));
    // The pictures are read between ImGui's layers: a video frame of the view after the
    // legend, a screenshot or a video frame with the panels after the windows; the
    // messages come after both, below the windows (drawn again over them after a capture).
    renderLayer(Layer::Legend);
    auto takeVideoFrame = [&] {
      const std::string error = recorder.readFrame(fbw, fbh);
      if (error.empty()) return;
      showMessage(state, state.videoMessage = error);
      if (!options.videoPath.empty()) videoError = error;
    };
    if (videoDue && !recorder.panels()) takeVideoFrame();
    const bool windowsFirst = screenshot || (videoDue && recorder.panels());
    if (windowsFirst) renderLayer(Layer::Windows);
    if (videoDue && recorder.panels()) takeVideoFrame();
    ++frame;

    if (lastFrame && !options.screenshotPath.empty()) {
      render::saveFramebufferPng(options.screenshotPath, fbw, fbh);
      // Where the container is in the picture: its corners' bounding box in pixels.
      glm::vec2 lo(1e9f), hi(-1e9f);
      for (int corner = 0; corner < (is3d ? 8 : 4); ++corner) {
        const glm::vec3 local((corner & 1) ? size.x : 0.0, (corner & 2) ? size.y : 0.0, (corner & 4) ? size.z : 0.0);
        const glm::vec2 px = camera.toPixel(glm::vec3(drawnFromWorld * model * glm::vec4(local, 1.0f)));
        lo = glm::min(lo, px), hi = glm::max(hi, px);
      }
      std::printf("sloshlab: saved %s (%dx%d); container at pixels x %.0f..%.0f, y %.0f..%.0f",
                  options.screenshotPath.c_str(), fbw, fbh, static_cast<double>(lo.x), static_cast<double>(hi.x),
                  static_cast<double>(lo.y), static_cast<double>(hi.y));
      const glm::vec4 legend = state.legendRect * glm::vec4(fbScale, fbScale);
      if (legend != glm::vec4(0.0f))
        std::printf("; legend at pixels x %.0f..%.0f, y %.0f..%.0f", static_cast<double>(legend.x),
                    static_cast<double>(legend.z), static_cast<double>(legend.y), static_cast<double>(legend.w));
      std::printf("\n");
    }
    if (state.screenshotRequested) {
      state.screenshotRequested = false;
      const std::string name = uniqueCaptureName(".png");
      try {
        render::saveFramebufferPng(name, fbw, fbh);
        showMessage(state, "saved " + (std::filesystem::current_path() / name).string());
      } catch (const std::exception& e) {
        showMessage(state, e.what());
      }
    }
    renderLayer(Layer::Messages);
    renderLayer(Layer::Windows);
    glfwSwapBuffers(window);
    if (lastFrame || !videoError.empty()) break;

    if (state.fullscreenRequested) {
      state.fullscreenRequested = false;
      if (glfwGetWindowMonitor(window)) {
        glfwSetWindowMonitor(window, nullptr, windowedPos[0], windowedPos[1], windowedSize[0], windowedSize[1], 0);
      } else if (GLFWmonitor* monitor = glfwGetPrimaryMonitor()) {
        glfwGetWindowPos(window, &windowedPos[0], &windowedPos[1]);
        glfwGetWindowSize(window, &windowedSize[0], &windowedSize[1]);
        const GLFWvidmode* mode = glfwGetVideoMode(monitor);
        glfwSetWindowMonitor(window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
      }
    }
    // At most 60 frames per second (30 on a software rasteriser, where each frame
    // costs the solver a core's worth of time): the rest belongs to the solver. While
    // recording, as many as the video has per second of simulation: each is one of its
    // frames (at 60 fps on the software rasteriser, the window kept the video to 0.5x).
    const auto videoPeriod = std::chrono::microseconds(recorder.recording() ? 1000000 / recorder.fps() : 1000000);
    std::this_thread::sleep_until(frameStart + std::min<std::chrono::microseconds>(framePeriod, videoPeriod));
    ++fpsFrames;
    const double fpsWindow = std::chrono::duration<double>(std::chrono::steady_clock::now() - fpsStart).count();
    if (fpsWindow > 0.5) {
      state.uiFps = static_cast<float>(fpsFrames / fpsWindow);
      state.uiFrameMs = static_cast<float>(1e3 * fpsWindow / fpsFrames);
      fpsFrames = 0;
      fpsStart = std::chrono::steady_clock::now();
    }
  }
  // One line on how the run went: what the Stats panel showed, over the whole run
  // (until the last frame: not the wait for ffmpeg to finish a video).
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - runStart).count();
  const Snapshot& last = sim.snapshot();
  const double uiCpu = cpuSeconds(RUSAGE_THREAD) - uiCpuStart, processCpu = cpuSeconds(RUSAGE_SELF) - processCpuStart;
  if (recorder.recording()) {
    const std::string saved = recorder.stop();
    if (saved.rfind("saved ", 0) != 0) videoError = saved;
    else std::printf("sloshlab: %s\n", saved.c_str());
  }
  std::printf("sloshlab: %d frames in %.2f s (%.1f fps); solver %.0f steps/s, %.3f simulated s per wall s; "
              "UI thread %.0f %% of a core, whole process %.0f %%\n",
              frame, wall, frame / wall, static_cast<double>(last.stats.step - firstStep) / wall,
              (last.stats.time - firstTime) / wall, 100.0 * uiCpu / wall, 100.0 * processCpu / wall);
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
  std::string error = sim.stop();
  if (error.empty()) error = videoError;
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

}  // namespace sloshlab::app
