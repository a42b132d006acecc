#include "headless.h"

#include "sloshlab/experiments.h"
#include "sloshlab/export.h"
#include "sloshlab/solver_registry.h"
#include "sloshlab/state_file.h"

#include <omp.h>

#include <signal.h>

#include <chrono>
#include <csignal>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

namespace sloshlab::app {

namespace {

// SIGINT and SIGTERM ask the run loop to stop at the next step, so that the stats file
// is renamed into place with every step so far and no temporary file is left (a killed
// run left .tmp files). The handler only sets a flag, the one thing that is safe
// there. A repeated signal does not kill the run either: timeout(1) sends its signal
// twice (to the process and to its group), and a step is short; SIGKILL still works.
volatile std::sig_atomic_t g_stopSignal = 0;

extern "C" void requestStop(int signal) { g_stopSignal = signal; }

void installStopHandlers() {
  struct sigaction action {};
  action.sa_handler = requestStop;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

}  // namespace

std::unique_ptr<Simulation> createSimulation(const Options& options) {
  if (!options.loadStatePath.empty()) return readStateFile(options.loadStatePath);
  return Simulation::create(setupFromOptions(options));
}

SimulationSetup setupFromOptions(const Options& options) {
  SimulationSetup setup;
  setup.scene = loadScene(options.scene);
  setup.dim = options.dim;
  setup.solver = options.solver;
  if (options.device != "cpu") setup.solver = solverOnDevice(setup.solver.empty() ? setup.scene.solver : setup.solver,
                                                             options.device);
  if (!setup.solver.empty() && !findSolverInfo(setup.solver))
    throw std::runtime_error("unknown solver '" + setup.solver + "' (known: " + solverNameList() + ")");
  setup.spacing = options.spacing;
  setup.overrides = options.overrides;
  setup.seed = options.seed;
  if (!options.motionPath.empty()) setup.motion = MotionScript::load(options.motionPath);
  return setup;
}

int runHeadless(const Options& options) {
  if (!options.compare.empty()) return runCompareHeadless(options);
  installStopHandlers();
  auto sim = createSimulation(options);
  // The scene's probes, then --probe's, placed in this container before any file is written.
  std::vector<Probe> probes;
  if (!options.probesPath.empty()) {
    for (const std::string& text : sim->setup().scene.probes) probes.push_back(parseProbe(text));
    probes.insert(probes.end(), options.probes.begin(), options.probes.end());
    if (probes.empty()) throw UsageError("--probes: no probe to record: add --probe, or run a scene with \"probes\"");
  }
  for (Probe& p : probes)
    if (const std::string problem = placeProbe(p, *sim); !problem.empty()) throw UsageError(problem);
  // Parameters do not change during a headless run: the scene is written at its start.
  if (!options.saveScenePath.empty()) writeFileAtomically(options.saveScenePath, sceneToJson(sceneOfRun(*sim)));
  std::unique_ptr<StatsWriter> stats;
  if (!options.statsPath.empty()) stats = std::make_unique<StatsWriter>(options.statsPath, sim->dim());
  std::unique_ptr<ParticleExporter> exporter;
  if (!options.exportDir.empty())
    exporter = std::make_unique<ParticleExporter>(options.exportDir, sim->dim(), options.exportFormat);

  // --time and --steps count from the run's start: t = 0, or a loaded state's time and step.
  const double startTime = sim->time();
  const long startStep = sim->stepCount();
  const double endTime = startTime + (options.time ? *options.time : sim->setup().scene.duration);
  const long endStep = startStep + (options.steps ? *options.steps : 0);
  auto done = [&] {
    if (sim->failed() || g_stopSignal) return true;
    if (options.steps) return sim->stepCount() >= endStep;
    return sim->time() >= endTime - 1e-12;
  };

  std::unique_ptr<ProbeRecorder> recorder;
  if (!probes.empty()) recorder = std::make_unique<ProbeRecorder>(probes, options.probeRate, options.probesPath);
  if (stats) stats->write(sim->stats());
  if (exporter) exporter->exportStep(*sim);
  if (recorder) recorder->sample(*sim);
  double solverMs = 0.0;
  long stepsOnMaxThreads = 0;
  const auto start = std::chrono::steady_clock::now();
  while (!done()) {
    const long before = sim->stepCount();
    sim->step(options.steps ? 0.0 : endTime);
    if (sim->stepCount() == before) continue;  // stopped before stepping: no new row
    solverMs += sim->stats().wallMs;
    stepsOnMaxThreads += sim->stats().threads == omp_get_max_threads();
    if (stats) stats->write(sim->stats());
    if (exporter && sim->stepCount() % options.every == 0) exporter->exportStep(*sim);
    if (recorder && !sim->failed()) recorder->sample(*sim);
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (stats) stats->finish();
  if (exporter) exporter->finish();
  if (recorder) recorder->finish();
  if (!options.saveStatePath.empty() && !sim->failed()) writeStateFile(options.saveStatePath, *sim);

  if (g_stopSignal) {
    std::fprintf(stderr, "sloshlab: stopped by %s at step %ld (t = %.6g s); the files hold every step until then\n",
                 g_stopSignal == SIGINT ? "SIGINT" : "SIGTERM", sim->stepCount(), sim->time());
    return 128 + g_stopSignal;  // the shell's convention for a signal
  }
  if (sim->failed()) {
    std::fprintf(stderr, "sloshlab: error: %s%s\n", sim->failureMessage().c_str(),
                 options.saveStatePath.empty() ? "" : " (no state saved)");
    return 3;
  }
  const StepStats& s = sim->stats();
  const long steps = sim->stepCount() - startStep;  // this run's
  const double simulated = sim->time() - startTime;
  const double particleSteps = static_cast<double>(s.particles) * static_cast<double>(steps);
  std::printf("sloshlab: %s, solver %s, %dD, %zu particles, spacing %.4g m\n", sim->setup().scene.name.c_str(),
              sim->solverName().c_str(), sim->dim(), s.particles, sim->spacing());
  if (!options.loadStatePath.empty())
    std::printf("  resumed from '%s' at t = %.6g s, step %ld; now t = %.6g s, step %ld\n",
                options.loadStatePath.c_str(), startTime, startStep, sim->time(), sim->stepCount());
  // The thread governor (sim/src/thread_governor.h) may run steps on fewer threads.
  std::printf("  simulated %.4f s in %ld steps (last dt %.3g s) in %.3f s wall, %d threads (%.0f %% of steps on all)\n",
              simulated, steps, s.dt, wall, omp_get_max_threads(),
              steps > 0 ? 100.0 * static_cast<double>(stepsOnMaxThreads) / static_cast<double>(steps) : 100.0);
  std::printf("  %.3g particle-steps/s (solver only: %.3g us per particle-step), %.2fx real time\n",
              particleSteps / wall, particleSteps > 0 ? solverMs * 1e3 / particleSteps : 0.0,
              wall > 0 ? simulated / wall : 0.0);
  std::printf("  kinetic energy %.6g J, max speed %.4g m/s, particles outside the container %zu\n",
              s.kineticEnergy, s.maxSpeed, sim->countOutside());
  if (s.solver.densityErrorMax == s.solver.densityErrorMax)
    std::printf("  density error: max %.3g %%, mean %.3g %%\n", 100.0 * s.solver.densityErrorMax,
                100.0 * s.solver.densityErrorMean);
  const PourStats pour = sim->pourStats();
  if (pour.hasFaucet || pour.hasOutlet)
    std::printf("  faucet: %ld particles in (%.6g kg, %ld points blocked; rate %.4g m^%d/s); outlet: %ld particles out "
                "(%.6g kg); held %.6g kg\n",
                pour.particlesIn, pour.massIn, pour.blocked, pour.rate, sim->dim(), pour.particlesOut, pour.massOut,
                s.mass);
  return 0;
}

int runCompareHeadless(const Options& options) {
  installStopHandlers();
  const SimulationSetup base = setupFromOptions(options);
  auto panes = createPanes(base, options.compare);  // every pane is built before any runs
  const double endTime = options.time ? *options.time : base.scene.duration;
  std::printf("sloshlab: %s, %dD, %zu panes side by side, %.4g s each, %d threads%s\n", base.scene.name.c_str(),
              base.dim, panes.size(), endTime, omp_get_max_threads(),
              base.motion.empty() ? "" : ", one scripted motion for all");
  bool anyFailed = false;
  for (std::size_t k = 0; k < panes.size() && !g_stopSignal; ++k) {
    Simulation& sim = *panes[k];
    const auto start = std::chrono::steady_clock::now();
    while (!sim.failed() && !g_stopSignal && sim.time() < endTime - 1e-12) sim.step(endTime);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const StepStats& s = sim.stats();
    const double particleSteps = static_cast<double>(s.particles) * static_cast<double>(sim.stepCount());
    std::printf("  pane %zu %s: %zu particles, %.4f s in %ld steps, %.3f s wall, %.2fx real time, "
                "%.3g particle-steps/s; kinetic energy %.6g J, max speed %.4g m/s, outside %zu",
                k + 1, options.compare[k].label().c_str(), s.particles, sim.time(), sim.stepCount(), wall,
                wall > 0.0 ? sim.time() / wall : 0.0, wall > 0.0 ? particleSteps / wall : 0.0, s.kineticEnergy,
                s.maxSpeed, sim.countOutside());
    if (s.solver.densityErrorMax == s.solver.densityErrorMax)
      std::printf(", density error max %.3g %%", 100.0 * s.solver.densityErrorMax);
    if (sim.failed()) std::printf("; stopped: %s", sim.failureMessage().c_str());
    std::printf("\n");
    anyFailed = anyFailed || sim.failed();
  }
  if (g_stopSignal) {
    std::fprintf(stderr, "sloshlab: stopped by %s\n", g_stopSignal == SIGINT ? "SIGINT" : "SIGTERM");
    return 128 + g_stopSignal;
  }
  if (anyFailed) {
    std::fprintf(stderr, "sloshlab: error: a pane's solver stopped (its line says why)\n");
    return 3;
  }
  return 0;
}

int runExperimentHeadless(const Options& options) {
  std::string solver = options.solver;
  if (options.device != "cpu") {
    const ExperimentInfo* info = findExperiment(options.experiment);
    if (solver.empty() && info) solver = info->solver;
    solver = solverOnDevice(solver, options.device);
  }
  const ExperimentRequest request{options.experiment, solver, options.dim, options.spacing};
  const auto start = std::chrono::steady_clock::now();
  ExperimentResult r;
  try {
    r = runExperiment(request);
  } catch (const ExperimentFailure& e) {
    std::fprintf(stderr, "sloshlab: error: experiment %s: %s\n", options.experiment.c_str(), e.what());
    return 3;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!options.statsPath.empty()) {
    std::ostringstream csv;
    csv.precision(10);
    csv << "# experiment " << r.experiment << ", solver " << r.solver << ", " << r.dim << "D: " << r.quantity << " "
        << r.measured << " against " << r.reference << "; " << r.method << "\n";
    for (std::size_t c = 0; c < r.columns.size(); ++c) csv << (c ? "," : "") << r.columns[c];
    csv << "\n";
    for (const auto& row : r.rows) {
      for (std::size_t c = 0; c < row.size(); ++c) {
        if (c) csv << ",";
        if (std::isfinite(row[c])) csv << row[c];
        else csv << "nan";
      }
      csv << "\n";
    }
    writeFileAtomically(options.statsPath, csv.str());
  }
  const std::string unit = r.unit == "1" ? "" : " " + r.unit;
  std::printf("sloshlab: experiment %s, solver %s, %dD, %zu particles: %s %.4g%s, reference %.4g%s, error %.1f %% "
              "(%.1f s wall)\n",
              r.experiment.c_str(), r.solver.c_str(), r.dim, r.particles, r.quantity.c_str(), r.measured, unit.c_str(),
              r.reference, unit.c_str(), 100.0 * r.relativeError, wall);
  return 0;
}

void printExperiments() {
  for (const ExperimentInfo& e : experimentInfos()) std::printf("%-14s %s\n", e.name, e.description);
}

void printScenes() {
  for (const auto& name : builtinSceneNames()) {
    const Scene scene = loadScene(name);
    std::printf("%-12s %s\n", name.c_str(), scene.description.c_str());
  }
}

void printParams(const Options& options) {
  auto sim = createSimulation(options);
  ParamRef params = sim->solverParams();
  std::printf("parameters of solver '%s' (set with --set key=value):\n", sim->solverName().c_str());
  for (const ParamInfo& info : params.table().entries) {
    std::printf("  %-26s = %-10s %s %s\n      %s\n", info.key, params.formatValue(info).c_str(),
                describeRange(info.min, info.max).c_str(), info.unit, info.description);
  }
}

}  // namespace sloshlab::app
