// The benchmark harness. Each case builds a built-in scene with one solver at one
// resolution, lets it run for a short warm-up, then times whole steps until a
// budget of wall time is spent. It prints particles, steps, ms per step, the wall
// time per particle-step (the figure the issues set targets for) and the average
// time of each solver phase, with the machine and the thread count.
//
//   sloshlab_bench [--filter TEXT] [--threads N] [--seconds S] [--markdown FILE] [--busy] [--gpu] [--obstacles]
//                  [--bodies] [--splash]
//
// --busy runs a busy loop on a thread of its own beside the cases: a user's machine,
// where something else always runs. --gpu runs the GPU path's cases instead (gpu-pbf at
// 100k to 3M particles, with the CPU pbf beside it at 100k), naming the GPU. --obstacles
// runs every CPU solver on the sloshing tank, on the same tank with a baffle and with the
// baffle less a window through it (physics.md §15): the cost of an obstacle per
// particle-step against the box alone.
// --bodies runs every CPU solver on a tank with 0, 1, 10 and 100 floating balls
// (physics.md §16): the coupling's cost per particle-step; with --gpu, the GPU solvers
// on the same tanks. --splash runs every CPU solver's default bottle shaken hard sideways,
// timed once the liquid splashes.
#include "simulation_impl.h"

#include "sloshlab/scene.h"
#ifdef SLOSHLAB_HAVE_GPU
#include "sloshlab/gpu.h"
#include "sloshlab/gpu_kernel_timing.h"

#include "gl_context.h"
#include "render/gl.h"
#include "render/liquid_renderer.h"
#include "render/particle_renderer.h"
#endif

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace sloshlab;

namespace {

struct Case {
  std::string label;
  std::string scene;
  std::string solver;
  int dim;
  double spacing;
  std::vector<std::pair<std::string, std::string>> overrides = {};
  bool shaken = false;  // --splash: the bottle shaken sideways, timed after 1 s of it
};

// a = 0.05715 m is the dam-break column width: spacings are a / n.
constexpr double kA = 0.05715;

// Dam breaks in a tall tank for the hybrid solvers' grid sizes (cells of 2 x spacing):
// 2D 0.5 x 1 m at spacing 1/512 m is 128 x 256 cells with 39,296 particles; 3D
// 0.5 x 1 x 0.5 m at 5 mm is 50 x 100 x 50 cells with 500,000 particles.
constexpr const char* kTallTank = R"({"name": "tall_tank", "solver": "flip", "spacing": 0.001953125,
  "spacing_3d": 0.005, "gravity": [0, -9.81, 0], "container": {"size": [0.5, 1.0, 0.5]},
  "fluid": [{"box": {"min": [0, 0], "max": [0.25, 0.6]}}]})";
constexpr const char* kTallTank3D = R"({"name": "tall_tank", "solver": "flip", "spacing": 0.001953125,
  "spacing_3d": 0.005, "gravity": [0, -9.81, 0], "container": {"size": [0.5, 1.0, 0.5]},
  "fluid": [{"box": {"min": [0, 0], "max": [0.25, 0.5]}}]})";

std::vector<Case> standardCases() {
  std::vector<Case> cases;
  // Every solver's default bottle (the window's first scene), at the scene's spacing.
  for (int dim : {2, 3})
    for (const char* solver : {"collisions", "toy", "wcsph", "dfsph", "pbf", "pic", "flip", "apic"})
      cases.push_back({std::string(solver) + " " + std::to_string(dim) + "D default bottle", "bottle", solver, dim, 0.0});
  std::vector<Case> rest = {
      {"collisions 2D gas", "gas", "collisions", 2, 0.005},
      {"collisions 2D gas", "gas", "collisions", 2, 0.0025},
      {"collisions 3D gas", "gas", "collisions", 3, 0.01},
      {"toy 2D bottle", "bottle", "toy", 2, 0.005},
      {"toy 2D bottle", "bottle", "toy", 2, 0.0025},
      {"toy 3D bottle", "bottle", "toy", 3, 0.01},
      {"wcsph 2D bottle (default)", "bottle", "wcsph", 2, 0.01},
      {"wcsph 2D dam break", "dam_break", "wcsph", 2, kA / 50},
      {"wcsph 2D dam break", "dam_break", "wcsph", 2, kA / 100},
      {"wcsph 3D dam break", "dam_break", "wcsph", 3, kA / 15},
      {"wcsph 3D dam break", "dam_break", "wcsph", 3, kA / 25},
      {"dfsph 2D dam break", "dam_break", "dfsph", 2, kA / 50},
      {"dfsph 3D dam break", "dam_break", "dfsph", 3, kA / 25},
      // PBF at its defaults: 2 sub-steps per 1/60 s frame, more where a particle would
      // cross more than 0.8 spacings in one (the 2D a/40 and 3D a/25 dam breaks run with
      // it; at 2 fixed sub-steps the a/40 front ran twice too fast and a/25 blew up).
      {"pbf 2D dam break", "dam_break", "pbf", 2, kA / 20},
      {"pbf 2D bottle", "bottle", "pbf", 2, 0.005},
      {"pbf 3D dam break", "dam_break", "pbf", 3, kA / 15},
      {"pbf 3D bottle", "bottle", "pbf", 3, 0.01},
      {"flip 2D dam break", "dam_break", "flip", 2, kA / 40},
      {"apic 2D dam break", "dam_break", "apic", 2, kA / 40},
      {"flip 2D tall tank 128x256", kTallTank, "flip", 2, 0.001953125},
      {"apic 2D tall tank 128x256", kTallTank, "apic", 2, 0.001953125},
      {"pic 2D tall tank 128x256", kTallTank, "pic", 2, 0.001953125},
      {"flip 3D dam break", "dam_break", "flip", 3, kA / 20},
      {"flip 3D tall tank 50x100x50", kTallTank3D, "flip", 3, 0.005},
      {"apic 3D tall tank 50x100x50", kTallTank3D, "apic", 3, 0.005},
  };
  cases.insert(cases.end(), rest.begin(), rest.end());
  return cases;
}

// --splash: every CPU solver's default bottle, 2D and 3D, shaken sideways without end
// (splashShake): what a step costs while the liquid splashes, where the time step of
// every solver but PBF's shrinks with the fastest particle.
std::vector<Case> splashCases() {
  std::vector<Case> cases;
  for (int dim : {2, 3})
    for (const char* solver : {"collisions", "toy", "wcsph", "dfsph", "pbf", "pic", "flip", "apic"}) {
      Case c{std::string(solver) + " " + std::to_string(dim) + "D default bottle, shaken", "bottle", solver, dim, 0.0};
      c.shaken = true;
      cases.push_back(c);
    }
  return cases;
}

// x = A sin(2 pi f t), A = 3 cm, f = 1.5 Hz (a peak acceleration of 2.7 m/s^2, a little
// above the bottle's first mode, 1.15 Hz): the liquid runs up the walls and breaks. The
// amplitude ramps up over the first half second; 10 minutes of it.
MotionScript splashShake() {
  std::vector<MotionScript::Row> rows;
  const double amplitude = 0.03, omega = 2.0 * kPi * 1.5;
  for (int k = 0; k <= 600 * 120; ++k) {
    MotionScript::Row r;
    r.t = k / 120.0;
    r.offset = Vec3(amplitude * std::min(1.0, r.t / 0.5) * std::sin(omega * r.t), 0.0, 0.0);
    rows.push_back(r);
  }
  return MotionScript::fromRows(std::move(rows));
}

// --obstacles: the sloshing tank and the baffled tank, every CPU solver in 2D and 3D.
// --bodies: a tank 1 m wide (0.3 m deep in 3D) filled to 0.2 m, with n balls of 15 mm
// radius at half the liquid's density let go on a lattice of 4 cm pitch just above the
// surface (layer by layer upward), for every CPU solver in 2D and 3D (or, with --gpu,
// every GPU solver).
std::string tankWithBalls(int n, int dim) {
  std::string bodies;
  int placed = 0;
  for (int layer = 0; placed < n; ++layer)
    for (int k = 0; k < (dim == 3 ? 7 : 1) && placed < n; ++k)
      for (int i = 0; i < 24 && placed < n; ++i, ++placed) {
        char entry[160];
        std::snprintf(entry, sizeof entry, R"(%s{"ball": {"radius": 0.015}, "density": 500, "position": [%.3f, %.3f, %.3f]})",
                      placed ? ", " : "", 0.04 + 0.04 * i, 0.22 + 0.04 * layer, 0.03 + 0.04 * k);
        bodies += entry;
      }
  return R"({"name": "tank_with_balls", "gravity": [0, -9.81, 0], "container": {"size": [1.0, 0.5, 0.3]},
    "spacing": 0.005, "spacing_3d": 0.01, "fluid": [{"box": {"min": [0, 0], "max": [1.0, 0.2]}}],
    "bodies": [)" + bodies + "]}";
}

std::vector<Case> bodyCases(bool gpu) {
  const std::vector<const char*> cpuSolvers = {"collisions", "toy", "wcsph", "dfsph", "pbf", "pic", "flip", "apic"};
  const std::vector<const char*> gpuSolvers = {"gpu-pbf", "gpu-dfsph"};
  std::vector<Case> cases;
  for (int dim : {2, 3})
    for (const char* solver : gpu ? gpuSolvers : cpuSolvers)
      for (int n : {0, 1, 10, 100})
        cases.push_back({std::string(solver) + " " + std::to_string(dim) + "D tank, " + std::to_string(n) + " balls",
                         tankWithBalls(n, dim), solver, dim, 0.0});
  return cases;
}

// The baffled tank's baffle with a round window through it (a difference, physics.md
// (15.1b)): two shapes for every distance where the baffle has one.
const char* const kWindowedBaffle = R"({"name": "windowed_baffle", "gravity": [0, -9.81, 0],
    "spacing": 0.005, "spacing_3d": 0.008, "container": {"size": [0.2, 0.2, 0.04]},
    "fluid": [{"box": {"min": [0, 0], "max": [0.2, 0.1]}}],
    "obstacles": [{"difference": [{"box": {"min": [0.092, 0], "max": [0.108, 0.06]}},
                                  {"disc": {"centre": [0.1, 0.03], "radius": 0.012}}]}]})";

std::vector<Case> obstacleCases() {
  std::vector<Case> cases;
  for (int dim : {2, 3})
    for (const char* solver : {"collisions", "toy", "wcsph", "dfsph", "pbf", "pic", "flip", "apic"}) {
      for (const char* scene : {"sloshing_tank", "baffled_tank"})
        cases.push_back({std::string(solver) + " " + std::to_string(dim) + "D " + scene, scene, solver, dim, 0.0});
      cases.push_back({std::string(solver) + " " + std::to_string(dim) + "D windowed_baffle", kWindowedBaffle, solver,
                       dim, 0.0});
    }
  return cases;
}

// The GPU path (--gpu): PBF and DFSPH in 3D at 100k, 300k, 1M and 3M particles in the
// Martin & Moyce column (a x 2a x 2a, spacing (V / N)^(1/3)), each CPU twin at 100k beside
// them on the same machine and run, and the default bottles; then the 3D bottle (its liquid
// 0.5 x 0.2 x 0.2 m) refined to the same counts, at rest, where PBF's sub-step is the
// weight limit of physics.md (9.6a).
std::vector<Case> gpuCases() {
  std::vector<Case> cases;
  const std::pair<const char*, double> sizes[] = {{"100k", 1e5}, {"300k", 3e5}, {"1M", 1e6}, {"3M", 3e6}};
  constexpr double kBottleLiquid = 0.5 * 0.2 * 0.2;  // m^3, assets/scenes/bottle.json in 3D
  for (const char* solver : {"pbf", "dfsph"}) {
    const std::string gpu = std::string("gpu-") + solver;
    for (const auto& [name, n] : sizes)
      cases.push_back({gpu + " 3D dam break " + name, "dam_break", gpu, 3, std::cbrt(kA * 4.0 * kA * kA / n)});
    cases.push_back({std::string(solver) + " 3D dam break 100k (CPU)", "dam_break", solver, 3,
                     std::cbrt(kA * 4.0 * kA * kA / 1e5)});
    for (const auto& [name, n] : sizes)
      cases.push_back({gpu + " 3D bottle " + name, "bottle", gpu, 3, std::cbrt(kBottleLiquid / n)});
    cases.push_back({std::string(solver) + " 3D bottle 100k (CPU)", "bottle", solver, 3, std::cbrt(kBottleLiquid / 1e5)});
    for (int dim : {2, 3}) cases.push_back({gpu + " " + std::to_string(dim) + "D default bottle", "bottle", gpu, dim, 0.0});
  }
  return cases;
}

// A case's simulation set-up: its scene (a built-in name or JSON text), solver, spacing
// and parameter overrides, in `dim` dimensions.
SimulationSetup setupOf(const Case& c, int dim) {
  SimulationSetup setup;
  setup.scene = c.scene.front() == '{' ? parseScene(c.scene, "bench") : loadScene(c.scene);
  setup.dim = dim;
  setup.solver = c.solver;
  setup.spacing = c.spacing;
  setup.overrides = c.overrides;
  if (c.shaken) setup.motion = splashShake();
  return setup;
}

struct Result {
  std::size_t particles = 0;
  long steps = 0;
  double msPerStep = 0.0;
  double nsPerParticleStep = 0.0;
  double simSecondsPerWallSecond = 0.0;
  std::vector<std::pair<std::string, double>> phases;  // mean ms per step
  double iterations = 0.0;            // mean pressure-solver iterations per step
  double divergenceIterations = 0.0;  // mean divergence-solver iterations per step (DFSPH)
  // The GPU path's profile (a GPU case): device time per kernel over kProfileSteps steps
  // after the timed ones, and the storage buffers' bytes while the case ran.
  std::vector<std::pair<std::string, std::string>> kernelRows;
  double deviceBytes = 0.0;
};

constexpr int kProfileSteps = 10;

template <int D>
Result run(const Case& c, double seconds, long fixedSteps) {
  SimulationImpl<D> sim(setupOf(c, D));
  for (int i = 0; i < 20; ++i) sim.step(0.0);  // warm-up: caches, allocations, the flow starts
  while (c.shaken && sim.time() < 1.0 && !sim.failed()) sim.step(0.0);  // the splash is under way
  Result r;
  std::map<std::string, double> phaseSums;
  std::vector<std::string> phaseOrder;
  const double t0 = sim.time();
  const auto start = std::chrono::steady_clock::now();
  double elapsed = 0.0;
  while (fixedSteps > 0 ? r.steps < fixedSteps : (elapsed < seconds || r.steps < 5)) {
    sim.step(0.0);
    if (sim.failed()) {
      std::fprintf(stderr, "%s: %s\n", c.label.c_str(), sim.failureMessage().c_str());
      break;
    }
    ++r.steps;
    const SolverReport& rep = sim.stats().solver;
    r.iterations += rep.iterations;
    r.divergenceIterations += rep.divergenceIterations;
    for (int k = 0; k < rep.phaseCount; ++k) {
      if (!phaseSums.count(rep.phases[k].name)) phaseOrder.emplace_back(rep.phases[k].name);
      phaseSums[rep.phases[k].name] += rep.phases[k].ms;
    }
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  r.particles = sim.particleCount();
  r.msPerStep = 1e3 * elapsed / static_cast<double>(r.steps);
  r.nsPerParticleStep = 1e9 * elapsed / (static_cast<double>(r.steps) * static_cast<double>(r.particles));
  r.simSecondsPerWallSecond = (sim.time() - t0) / elapsed;
  if (r.steps > 0) {
    r.iterations /= static_cast<double>(r.steps);
    r.divergenceIterations /= static_cast<double>(r.steps);
  }
  for (const auto& name : phaseOrder) r.phases.emplace_back(name, phaseSums[name] / static_cast<double>(r.steps));
#ifdef SLOSHLAB_HAVE_GPU
  if (c.solver.rfind("gpu-", 0) == 0 && !sim.failed()) {
    r.deviceBytes = static_cast<double>(gpu::deviceBufferBytes());
    gpu::setKernelTiming(true);
    gpu::takeKernelTimes();
    for (int i = 0; i < kProfileSteps && !sim.failed(); ++i) sim.step(0.0);
    gpu::setKernelTiming(false);
    double total = 0.0;
    const std::vector<gpu::KernelTime> kernels = gpu::takeKernelTimes();
    for (const gpu::KernelTime& k : kernels) total += k.ms;
    for (const gpu::KernelTime& k : kernels) {
      std::ostringstream cells;
      cells.precision(3);
      // calls and ms per step; share of the device time; bound bytes / time (GB/s)
      cells << static_cast<double>(k.calls) / kProfileSteps << " | " << k.ms / kProfileSteps << " | "
            << std::fixed << std::setprecision(1) << 100.0 * k.ms / std::max(total, 1e-12) << " % | "
            << std::setprecision(0) << (k.ms > 0.0 ? 1e-6 * k.bytes / k.ms : 0.0);
      r.kernelRows.emplace_back(k.name, cells.str());
    }
  }
#endif
  return r;
}

#ifdef SLOSHLAB_HAVE_GPU
// The window's frame on the GPU path (--gpu; issue 25 part 4): what the simulation
// thread spends per published frame to hand the particles to the window. The host copy
// (download, world frame, speed field, its percentiles, as app/sim_thread.cpp does
// without a shared context) against the frame written on the device (draw_frame.h):
// the mean over `frames` frames, a step before each.
template <int D>
std::string framePublishRow(const Case& c, int frames) {
  SimulationImpl<D> sim(setupOf(c, D));
  const std::shared_ptr<DeviceDrawTarget> target = gpu::makeDrawTarget();
  std::vector<Vec3> x, v;
  std::vector<float> values;
  double hostMs = 0.0, deviceMs = 0.0;
  using Clock = std::chrono::steady_clock;
  const auto ms = [](Clock::time_point a, Clock::time_point b) { return 1e3 * std::chrono::duration<double>(b - a).count(); };
  DeviceDrawFrame first;
  sim.drawFrame(FieldKind::Speed, *target, first);  // compiles the programs: not timed
  for (int f = 0; f < frames; ++f) {
    sim.step(0.0);
    const auto a = Clock::now();
    DeviceDrawFrame frame;
    sim.drawFrame(FieldKind::Speed, *target, frame);
    const auto b = Clock::now();
    sim.worldParticles(x, v);
    sim.field(FieldKind::Speed, values);
    std::vector<float> sorted = values;
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 100), sorted.end());
    std::nth_element(sorted.begin(), sorted.end() - 1 - static_cast<std::ptrdiff_t>(sorted.size() / 100), sorted.end());
    const auto e = Clock::now();
    deviceMs += ms(a, b), hostMs += ms(b, e);
  }
  std::ostringstream row;
  row.precision(3);
  row << "| " << c.label << " | " << sim.particleCount() << " | " << hostMs / frames << " | " << deviceMs / frames
      << " |\n";
  return row.str();
}

// The window's GPU work per frame at a GPU's sizes (--gpu --filter window; issue 25
// part 4), headless: the device machines have no display, so the window itself cannot
// open there. Per 1/60 s frame at Speed 1x: the solver's sub-steps (Simulation::advanceTo),
// the frame written in GPU memory (draw_frame.h) and the view drawn from it into a
// 1920 x 1080 framebuffer as the window draws it (scene_view.cpp: the liquid's surface
// passes, or the particles as sprites), each timed to glFinish on the compute context.
// What the window adds is left out: ImGui's panels, the overlays and the swap.
template <int D>
std::string windowFrameRow(const Case& c, int frames, const std::string& imagePath) {
  SimulationImpl<D> sim(setupOf(c, D));
  const std::shared_ptr<DeviceDrawTarget> target = gpu::makeDrawTarget();
  constexpr int kWidth = 1920, kHeight = 1080;
  const Vec3 size = sim.container().size;
  const double spacing = sim.spacing();
  std::unique_ptr<render::ParticleRenderer> particles;
  std::unique_ptr<render::LiquidRenderer> liquid;
  GLuint fbo = 0, colour = 0, depth = 0;
  gpu::onComputeThread([&] {
    particles = std::make_unique<render::ParticleRenderer>();
    liquid = std::make_unique<render::LiquidRenderer>();
    glGenTextures(1, &colour);
    glBindTexture(GL_TEXTURE_2D, colour);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, kWidth, kHeight);
    glGenRenderbuffers(1, &depth);
    glBindRenderbuffer(GL_RENDERBUFFER, depth);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, kWidth, kHeight);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, colour, 0);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth);
  });
  render::OrbitCamera orbit;
  orbit.target = glm::vec3(size) * 0.5f;
  orbit.distance = 2.4f * static_cast<float>(glm::length(size));  // as the window's first frame
  const render::CameraView camera = orbit.view(glm::vec2(kWidth, kHeight));
  using Clock = std::chrono::steady_clock;
  const auto ms = [](Clock::time_point a, Clock::time_point b) { return 1e3 * std::chrono::duration<double>(b - a).count(); };
  // One view of the frame in `target`, finished on the device; its wall time (ms).
  const auto draw = [&](const DeviceDrawFrame& frame, bool surface) {
    double took = 0.0;
    gpu::onComputeThread([&] {
      const auto a = Clock::now();
      glBindFramebuffer(GL_FRAMEBUFFER, fbo);
      glViewport(0, 0, kWidth, kHeight);
      glClearColor(0.08f, 0.09f, 0.11f, 1.0f);
      glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
      render::ParticleStyle style;
      style.range = glm::vec2(frame.low, frame.high);
      style.radius = static_cast<float>(0.5 * spacing);
      const render::ParticleSource source = particles->shared(target->buffer(), static_cast<GLsizei>(frame.count));
      if (surface) {
        render::LiquidStyle look;
        look.radius = style.radius;
        look.spacing = static_cast<float>(spacing);
        look.containerSize = glm::vec2(size.x, size.y);
        liquid->draw(source, camera, glm::mat4(1.0f), style, particles->colormapTexture(style.colormap), look,
                     glm::ivec2(kWidth, kHeight));
      } else {
        particles->draw(source, camera, glm::mat4(1.0f), style);
      }
      glFinish();
      took = ms(a, Clock::now());
    });
    return took;
  };
  DeviceDrawFrame frame;
  for (int warm = 0; warm < 3; ++warm) {  // compiles the programs, sizes the passes: not timed
    sim.advanceTo(sim.time() + 1.0 / 60.0);
    sim.drawFrame(FieldKind::Speed, *target, frame);
    draw(frame, true), draw(frame, false);
  }
  double stepMs = 0.0, copyMs = 0.0, surfaceMs = 0.0, spritesMs = 0.0;
  const long stepsBefore = sim.stepCount();
  for (int f = 0; f < frames && !sim.failed(); ++f) {
    const auto a = Clock::now();
    sim.advanceTo(sim.time() + 1.0 / 60.0);
    gpu::onComputeThread([] { glFinish(); });
    const auto b = Clock::now();
    sim.drawFrame(FieldKind::Speed, *target, frame);
    gpu::onComputeThread([] { glFinish(); });
    const auto e = Clock::now();
    stepMs += ms(a, b), copyMs += ms(b, e);
    surfaceMs += draw(frame, true);
    spritesMs += draw(frame, false);
  }
  if (!imagePath.empty()) {  // the last frame's surface, as a binary PPM
    draw(frame, true);
    std::vector<unsigned char> rgb(static_cast<std::size_t>(kWidth) * kHeight * 3);
    gpu::onComputeThread([&] {
      glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
      glReadBuffer(GL_COLOR_ATTACHMENT0);
      glPixelStorei(GL_PACK_ALIGNMENT, 1);
      glReadPixels(0, 0, kWidth, kHeight, GL_RGB, GL_UNSIGNED_BYTE, rgb.data());
    });
    std::ofstream out(imagePath, std::ios::binary);
    out << "P6\n" << kWidth << " " << kHeight << "\n255\n";
    for (int y = kHeight - 1; y >= 0; --y)
      out.write(reinterpret_cast<const char*>(rgb.data()) + static_cast<std::ptrdiff_t>(y) * kWidth * 3, kWidth * 3);
  }
  gpu::onComputeThread([&] {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
    glDeleteRenderbuffers(1, &depth);
    glDeleteTextures(1, &colour);
    particles.reset();
    liquid.reset();
  });
  const double n = frames;
  const double subSteps = static_cast<double>(sim.stepCount() - stepsBefore) / n;
  const double frameMs = (stepMs + copyMs + surfaceMs) / n;
  std::ostringstream row;
  row.precision(3);
  row << "| " << c.label << " | " << sim.particleCount() << " | " << subSteps << " | " << stepMs / n << " | "
      << copyMs / n << " | " << surfaceMs / n << " | " << spritesMs / n << " | " << 1000.0 / frameMs << " | "
      << (1000.0 / 60.0) / frameMs << (sim.failed() ? " (failed: " + sim.failureMessage() + ")" : std::string())
      << " |\n";
  return row.str();
}
#endif

std::string cpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

}  // namespace

int main(int argc, char** argv) {
  std::string filter, markdownPath;
  double seconds = 3.0;
  long fixedSteps = 0;  // > 0: exactly this many steps per case (for profiling), not a duration
  bool busy = false, gpu = false, obstacles = false, bodies = false, splash = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "sloshlab_bench: error: %s needs a value\n", arg.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    // A positive number, or one error line and exit code 2.
    auto number = [&]() {
      const std::string text = next();
      char* end = nullptr;
      const double value = std::strtod(text.c_str(), &end);
      if (end == text.c_str() || *end != '\0' || !(value > 0.0) || value > 1e9) {
        std::fprintf(stderr, "sloshlab_bench: error: %s needs a positive number, got '%s'\n", arg.c_str(),
                     text.c_str());
        std::exit(2);
      }
      return value;
    };
    if (arg == "--filter") filter = next();
    else if (arg == "--threads") omp_set_num_threads(static_cast<int>(number()));
    else if (arg == "--seconds") seconds = number();
    else if (arg == "--markdown") markdownPath = next();
    else if (arg == "--steps") fixedSteps = static_cast<long>(number());
    else if (arg == "--busy") busy = true;
    else if (arg == "--gpu") gpu = true;
    else if (arg == "--obstacles") obstacles = true;
    else if (arg == "--bodies") bodies = true;
    else if (arg == "--splash") splash = true;
    else {
      std::fprintf(stderr,
                   "sloshlab_bench: error: unknown option '%s' (--filter, --threads, --seconds, --steps, --markdown, "
                   "--busy, --gpu, --obstacles, --bodies, --splash)\n",
                   arg.c_str());
      return 2;
    }
  }
  std::string gpuName;
  if (gpu) {
#ifdef SLOSHLAB_HAVE_GPU
    gpu::registerGpuSolvers();
    const std::string reason = gpu::unavailableReason();
    if (!reason.empty()) {
      std::fprintf(stderr, "sloshlab_bench: error: %s\n", reason.c_str());
      return 2;
    }
    gpuName = gpu::deviceName();
#else
    std::fprintf(stderr, "sloshlab_bench: error: --gpu: this build has no GPU path (configured with SLOSHLAB_GUI=OFF)\n");
    return 2;
#endif
  }
  std::atomic<bool> stopBusy{false};
  std::thread busyLoop;
  if (busy)
    busyLoop = std::thread([&stopBusy] {
      volatile unsigned long spin = 0;
      while (!stopBusy.load(std::memory_order_relaxed)) spin = spin + 1;
    });
  std::ostringstream table;
  table << "Machine: " << cpuModel() << ", " << omp_get_max_threads() << " threads, " << seconds
        << " s per case after 20 warm-up steps" << (busy ? ", a busy loop on a thread beside them" : "")
        << (gpu ? ". GPU: " + gpuName : std::string()) << ".\n\n";
  table << "| case | particles | steps | ms/step | ns/particle-step | sim s / wall s | phases (ms/step) |\n";
  table << "|---|---:|---:|---:|---:|---:|---|\n";
  std::ostringstream profiles;
  std::printf("%s", table.str().c_str());
  const std::vector<Case> cases = bodies      ? bodyCases(gpu)
                                  : gpu       ? gpuCases()
                                  : obstacles ? obstacleCases()
                                  : splash    ? splashCases()
                                              : standardCases();
  for (const Case& c : cases) {
    if (!filter.empty() && c.label.find(filter) == std::string::npos) continue;
    const Result r = c.dim == 2 ? run<2>(c, seconds, fixedSteps) : run<3>(c, seconds, fixedSteps);
    std::ostringstream row;
    row.precision(3);
    row << "| " << c.label << " | " << r.particles << " | " << r.steps << " | " << std::fixed << r.msPerStep
        << " | " << std::defaultfloat << r.nsPerParticleStep << " | " << r.simSecondsPerWallSecond << " | ";
    for (std::size_t k = 0; k < r.phases.size(); ++k)
      row << (k ? ", " : "") << r.phases[k].first << " " << r.phases[k].second;
    if (r.iterations > 0.0) row << "; iterations " << r.iterations;
    if (r.divergenceIterations > 0.0)
      row << (r.iterations > 0.0 ? ", " : "; ") << "divergence iterations " << r.divergenceIterations;
    row << " |\n";
    std::printf("%s", row.str().c_str());
    std::fflush(stdout);
    table << row.str();
    if (!r.kernelRows.empty()) {  // the 12 costliest kernels, then the memory
      profiles << "\n| " << c.label << " | calls/step | ms/step | share | GB/s |\n|---|---:|---:|---:|---:|\n";
      for (std::size_t i = 0; i < std::min<std::size_t>(r.kernelRows.size(), 12); ++i)
        profiles << "| " << r.kernelRows[i].first << " | " << r.kernelRows[i].second << " |\n";
      profiles << std::setprecision(4) << "\nGPU memory: " << r.deviceBytes / static_cast<double>(r.particles)
               << " bytes per particle (" << r.deviceBytes / 1048576.0 << " MiB of storage buffers).\n";
    }
  }
  if (!profiles.str().empty()) {
    const std::string text =
        "\nThe device time per kernel (GL timestamp queries, " + std::to_string(kProfileSteps) +
        " steps after the timed ones). GB/s: the bytes of the buffers bound to a kernel (each array read or "
        "written once) over its time, a lower bound on its memory traffic; `copy buffer` counts its bytes read "
        "and written.\n" + profiles.str();
    std::printf("%s", text.c_str());
    table << text;
  }
#ifdef SLOSHLAB_HAVE_GPU
  if (gpu && !bodies && (filter.empty() || filter == "frame")) {  // --filter frame: this table alone
    std::ostringstream frames;
    frames << "\nThe window's frame (ms per published frame, speed field): the host copy against the frame "
              "written in GPU memory.\n\n| case | particles | host copy | GPU frame |\n|---|---:|---:|---:|\n";
    for (const Case& c : gpuCases())
      if (c.label.find("3D dam break 100k") != std::string::npos ||
          (c.label.find("3D dam break 1M") != std::string::npos && gpuName.find("llvmpipe") == std::string::npos))
        if (c.solver.rfind("gpu-", 0) == 0) frames << framePublishRow<3>(c, 10);
    std::printf("%s", frames.str().c_str());
    table << frames.str();
  }
  if (gpu && !bodies && filter == "window") {  // --filter window: the window's GPU work per frame
    std::ostringstream frames;
    frames << "\nThe window's GPU work per 1/60 s frame at Speed 1x, headless (ms): the solver's sub-steps, the "
              "frame written in GPU memory, and the view drawn from it at 1920 x 1080 as the liquid's surface "
              "or as sprites. fps and real time: with the surface, the three in series.\n\n"
              "| case | particles | sub-steps/frame | solver | frame copy | surface | sprites | fps | real time |\n"
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    std::printf("%s", frames.str().c_str());
    std::fflush(stdout);
    const bool software = gpuName.find("llvmpipe") != std::string::npos;
    for (const Case& c : gpuCases()) {
      if (c.solver.rfind("gpu-", 0) != 0 || c.label.find("bottle") == std::string::npos) continue;
      if (software != (c.label.find("default") != std::string::npos)) continue;  // llvmpipe: the default bottles
      if (c.dim != 3 || c.label.find("3M") != std::string::npos) continue;
      std::string image;
      if ((software || c.label.find("1M") != std::string::npos) && !markdownPath.empty())
        image = markdownPath.substr(0, markdownPath.find_last_of('.')) + "_" + c.label + ".ppm";
      std::replace(image.begin(), image.end(), ' ', '_');
      const std::string row = windowFrameRow<3>(c, software ? 5 : 20, image);
      std::printf("%s", row.c_str());
      std::fflush(stdout);
      frames << row;
    }
    table << frames.str();
  }
#endif
  stopBusy = true;
  if (busyLoop.joinable()) busyLoop.join();
  if (!markdownPath.empty()) std::ofstream(markdownPath) << table.str();
  return 0;
}
