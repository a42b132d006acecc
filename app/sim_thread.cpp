// The simulation thread (sim_thread.h).
//
// Contents
//   lifetime            construction, post, stop (files finished, --save-scene/--save-state)
//   outputs             --stats, --export (export_run.h, with the Export panel's frames)
//   run                 the loop: commands, the playback clock, steps, rates, publishing
//   stepping            advance, the video frame lock, recording the container's path
//   replacing the run   rebuilds, loaded states, motions played from the start
//   (the commands' handlers are in sim_thread_commands.cpp)
//   publish             the snapshot the UI draws
#include "sim_thread.h"

#include "sloshlab/motions.h"
#include "sloshlab/run_settings.h"
#include "sloshlab/state_file.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace sloshlab::app {

namespace {
using Clock = std::chrono::steady_clock;
constexpr auto kComputeBudget = std::chrono::milliseconds(33);  // then show what there is
// When ahead of real time: a frame a little shorter than 1/60 s, so that solvers whose
// own step is 1/60 s (the grid solvers at rest) take one step per frame, not two halves.
constexpr auto kPacing = std::chrono::microseconds(15000);
constexpr double kRecordInterval = 1e-3;                        // s of simulated time between rows

// A new simulation of the same solver takes the running one's parameters, edits and all.
void keepEditedParams(Simulation& from, Simulation& to) {
  ParamRef a = from.solverParams(), b = to.solverParams();
  for (const ParamInfo& info : a.table().entries) b.setClamped(info, a.get(info));
  to.solverParamsEdited();
}
constexpr double kInStep = 1.0 / 120.0;  // s: how far side-by-side panes may run ahead of the slowest
constexpr double kMaxLag = 0.1;  // s of simulated time the playback clock may be ahead of the simulation
}  // namespace

SimulationThread::SimulationThread(std::vector<std::unique_ptr<Simulation>> panes, SimThreadOptions options)
    : m_panes(std::move(panes), options.compare),
      m_options(std::move(options)),
      m_speed(std::clamp(m_options.speed, runSetting("speed").min, runSetting("speed").max)),
      m_saveSceneAtStop(m_options.saveScenePath),
      m_saveStateAtStop(m_options.saveStatePath) {
  openOutputs();
  record();
  for (const std::string& text : first().setup().scene.probes) m_probeSpecs.push_back(parseProbe(text));
  startProbes();
  publish();
  m_buffer.fetch();
  m_thread = std::thread([this] { run(); });
}

SimulationThread::~SimulationThread() { stop(); }

void SimulationThread::post(Command c) {
  {
    std::lock_guard lock(m_mutex);
    m_queue.push_back(std::move(c));
  }
  m_wake.notify_one();
}

std::string SimulationThread::stop() {
  if (m_thread.joinable()) {
    {
      std::lock_guard lock(m_mutex);
      m_stopRequested = true;
    }
    m_wake.notify_one();
    m_thread.join();
    closeOutputs();
    // The scene as it is when the window closes, edited parameters and all.
    if (!m_saveSceneAtStop.empty() && m_stopError.empty()) {
      try {
        writeFileAtomically(m_saveSceneAtStop, sceneToJson(sceneOfRun(first())));
      } catch (const std::exception& e) {
        m_stopError = e.what();
      }
    }
    if (!m_saveStateAtStop.empty() && m_stopError.empty()) {
      try {
        writeStateFile(m_saveStateAtStop, first());
      } catch (const std::exception& e) {
        m_stopError = "--save-state '" + m_saveStateAtStop + "': " + e.what();
      }
    }
  }
  return m_stopError;
}

void SimulationThread::openOutputs() {
  if (!m_options.statsPath.empty()) m_stats = std::make_unique<StatsWriter>(m_options.statsPath, first().dim());
  if (!m_options.exportDir.empty()) {
    // Errors here leave the constructor: the window does not open (as on the command line).
    m_exports.start(ExportSettings{m_options.exportDir, m_options.exportFormat, m_options.every, 0.0}, first());
    m_exportFromCommandLine = true;
    if (!m_exports.error().empty()) throw std::runtime_error(m_exports.error());
  }
  if (m_stats) m_stats->write(first().stats());
}

void SimulationThread::closeOutputs() {
  if (m_exportFromCommandLine && !m_exports.error().empty()) m_stopError = m_exports.error();
  const std::string before = m_exports.error();
  m_exports.stop();
  if (m_exports.error() != before) m_stopError = m_exports.error();  // finishing the files failed
  try {
    if (m_stats) m_stats->finish();
    if (!m_options.recordMotionPath.empty() && !m_recorded.empty())
      writeFileAtomically(m_options.recordMotionPath,
                          motionCsv(MotionScript::fromRows(std::move(m_recorded)), first().dim()));
  } catch (const std::exception& e) {
    m_stopError = e.what();
  }
  m_stats.reset();
  m_exportFromCommandLine = false;
}

void SimulationThread::run() {
  // OpenMP settings are per thread: this one gets its own. By default the solver
  // leaves one core to the UI, whose drawing (a software rasteriser under Xvfb) would
  // otherwise stall the solver's OpenMP barriers: on 2 cores the default bottle
  // stepped 2261 times per second with one solver thread and 1408 with two.
  omp_set_num_threads(m_options.threads > 0 ? m_options.threads : std::max(1, omp_get_num_procs() - 1));
  auto last = Clock::now();
  restartRates();
  while (true) {
    std::deque<Command> commands;
    {
      std::unique_lock lock(m_mutex);
      const bool idle = (m_paused && !m_stepOnce) || m_panes.anyFailed() || (m_frames.ready() && m_frames.untaken());
      if (idle && m_queue.empty() && !m_stopRequested) m_wake.wait_for(lock, std::chrono::milliseconds(20));
      if (m_stopRequested) break;
      commands.swap(m_queue);
    }
    const long serialBefore = m_serial;
    for (Command& c : commands) apply(c);
    const bool changed = !commands.empty() || m_serial != serialBefore;

    const auto now = Clock::now();
    const double elapsed = std::min(std::chrono::duration<double>(now - last).count(), 0.1);
    last = now;
    // Recording video: a frame is published once the UI has taken the one before, and
    // nothing else while the UI has not (the triple buffer would replace it).
    if (m_frames.publishable()) publishFrame();
    if (m_panes.anyFailed() || (m_paused && !m_stepOnce)) {
      m_clock = m_panes.earliestTime();
      if (changed && !m_frames.untaken()) publish();
      restartRates();
      continue;
    }
    if (m_frames.ready()) {
      // The next video frame is ready and the UI has not taken the one before: the
      // simulation waits (the video is made offline); the playback clock runs on, at
      // most kMaxLag ahead.
      m_clock = std::min(m_clock + elapsed * m_speed, m_panes.earliestTime() + kMaxLag);
      continue;
    }
    if (m_stepOnce) {
      m_stepOnce = false;
      if (m_frames.on()) stepToNextFrame(now, true);
      else if (m_panes.comparing()) advancePanes(m_panes.earliestTime() + 1.0 / 60.0, now);  // the panes' steps differ: a frame
      else advance(0.0);
    } else if (m_frames.on()) {
      // Recording: not clamped below by the simulation's time, so that a step that
      // passes the clock (it lands on a frame, not on the clock) is paid back.
      m_clock = std::min(m_clock + elapsed * m_speed, m_panes.earliestTime() + kMaxLag);
      stepToNextFrame(now, false);
    } else {
      // Follow the wall clock times the playback speed, for at most the compute
      // budget. Steps land on the frame's time (physics.md (9.1)) and never pass it:
      // a solver whose own step is longer than a frame (the grid solvers' 1/60 s)
      // once ran 1.9x real time. A solver slower than real time plays in slow motion.
      // The playback clock may run ahead of the simulation by up to kMaxLag (it keeps
      // the time of frames too short for a step: at 0.5x a 15 ms frame is 7.5 ms, less
      // than half the grid solvers' 1/60 s); beyond, a slow solver is in slow motion.
      // Side by side, the clock follows the slowest pane: all stay in step.
      const double behind = m_panes.earliestTime();
      m_clock = std::clamp(m_clock + elapsed * m_speed, behind, behind + kMaxLag);
      advancePanes(m_clock, now);
    }
    const double window = std::chrono::duration<double>(Clock::now() - m_rateStart).count();
    if (window > 0.5) {
      m_stepsPerSecond = static_cast<double>(first().stepCount() - m_rateSteps) / window;
      m_simPerSecond = (m_panes.earliestTime() - m_rateTime) / window;
      if (++m_rateWindows > 2 && m_speed > 0.0 && !m_frames.on()) {
        const double share = m_simPerSecond / m_speed;
        m_slowestShare = m_slowestShare > 0.0 ? std::min(m_slowestShare, share) : share;
      }
      m_panes.measureSpeeds();
      restartRates();
    }
    if (m_frames.publishable()) publishFrame();
    else if (!m_frames.untaken()) publish();
    std::this_thread::sleep_until(now + kPacing);
  }
}

bool SimulationThread::advance(double limit) {
  if (limit > 0.0) {
    if (!first().stepToward(limit)) return false;
  } else {
    first().step(0.0);
  }
  if (m_stats) m_stats->write(first().stats());
  m_exports.afterStep(first());
  record();
  sampleProbes();
  return true;
}

// Each step lands on the frame's time or short of it (Simulation::stepToward), so no
// frame is skipped or repeated whatever the solver's step. Less than half a step
// before the frame, stepToward declines (physics.md (9.1)): the state then is the frame.
// The simulation may reach a frame while the UI still draws the one before: the two
// overlap.
void SimulationThread::stepToNextFrame(Clock::time_point start, bool once) {
  const double next = m_frames.nextTime();
  const std::vector<Simulation*> all = m_panes.all();
  m_path.extendTo(next, all);
  std::vector<char> due(all.size());
  for (std::size_t k = 0; k < all.size(); ++k) due[k] = all[k]->time() >= next - 1e-12;
  auto allDue = [&due] { return std::all_of(due.begin(), due.end(), [](char d) { return d != 0; }); };
  while (!allDue() && !m_panes.anyFailed()) {
    if (!once && (m_panes.earliestTime() >= m_clock || Clock::now() - start >= kComputeBudget)) break;
    for (std::size_t k = 0; k < all.size(); ++k) {
      if (due[k]) continue;
      const auto before = Clock::now();
      const bool stepped = k == 0 ? advance(next) : all[k]->stepToward(next);
      m_panes.addWall(k, std::chrono::duration<double>(Clock::now() - before).count());
      due[k] = stepped ? all[k]->time() >= next - 1e-12 : !all[k]->failed();
    }
    if (once) break;
  }
  m_frames.setReady(allDue());
}

bool SimulationThread::advancePanes(double limit, Clock::time_point start) {
  const std::vector<Simulation*> all = m_panes.all();
  m_path.extendTo(limit, all);
  bool any = false, progressed = true;
  while (progressed && !m_panes.anyFailed() && Clock::now() - start < kComputeBudget) {
    progressed = false;
    // In step: a pane more than half a frame ahead of the slowest waits for it.
    const double slowest = m_panes.earliestTime();
    for (std::size_t k = 0; k < all.size(); ++k) {
      if (all[k]->time() >= limit - 1e-12 || all[k]->time() > slowest + kInStep) continue;
      const auto before = Clock::now();
      progressed = (k == 0 ? advance(limit) : all[k]->stepToward(limit)) || progressed;
      m_panes.addWall(k, std::chrono::duration<double>(Clock::now() - before).count());
    }
    any = any || progressed;
  }
  return any;
}

void SimulationThread::rebuildPanes(const SimulationSetup& setup, std::vector<PaneSpec> specs, bool keepEdits) {
  try {
    std::vector<std::unique_ptr<Simulation>> sims = createPanes(setup, specs);
    const std::vector<Simulation*> old = m_panes.all();
    for (std::size_t k = 0; k < sims.size() && k < old.size(); ++k)
      if (keepEdits && k < m_panes.specs().size() && m_panes.specs()[k].label() == specs[k].label())
        keepEditedParams(*old[k], *sims[k]);
    m_panes.single();
    replaceSimulation(std::move(sims.front()));
    sims.erase(sims.begin());
    m_panes.setOthers(std::move(sims), std::move(specs));
    restartRates();
  } catch (const std::exception& e) {
    m_lastError = e.what();
  }
}

void SimulationThread::publishFrame() {
  publish(m_frames.publish());
}

void SimulationThread::record() {
  const ContainerState& c = first().container();
  const ContainerPose& home = first().driver().home();
  const MotionScript::Row row = MotionScript::relative(first().time(), home, c.pose);
  if (!m_options.recordMotionPath.empty() &&
      (m_recorded.empty() || first().time() - m_recorded.back().t >= kRecordInterval))
    m_recorded.push_back(row);
  if (m_liveRecording && (m_live.empty() || row.t - m_liveStart - m_live.back().t >= kRecordInterval))
    m_live.push_back({row.t - m_liveStart, row.offset, row.angle, row.angleX, row.angleY});
}

void SimulationThread::replaceSimulation(std::unique_ptr<Simulation> sim) {
  // Outputs and recordings describe one run: they stop at a rebuild.
  if (m_stats || m_exports.active() || !m_options.recordMotionPath.empty()) {
    closeOutputs();
    m_options = SimThreadOptions{};
  }
  const bool newScene = first().setup().scene.name != sim->setup().scene.name;
  m_panes.replaceFirst(std::move(sim));
  if (newScene) {  // a new scene brings its own probes
    m_probeSpecs.clear();
    for (const std::string& text : first().setup().scene.probes) m_probeSpecs.push_back(parseProbe(text));
  }
  startProbes();
  m_path.stop();
  m_clock = first().time();
  m_frames.restartAt(first().time());
  m_recorded.clear();
  m_lastError.clear();
  restartRates();  // a loaded state goes back in time: its rate counts from here
}

void SimulationThread::restartWithMotion(MotionScript script) {
  if (m_panes.comparing()) {
    SimulationSetup setup = first().setup();
    setup.motion = std::move(script);
    rebuildPanes(setup, m_panes.specs(), true);
    return;
  }
  try {
    SimulationSetup setup = first().setup();
    setup.motion = std::move(script);
    auto sim = Simulation::create(setup);
    keepEditedParams(first(), *sim);
    replaceSimulation(std::move(sim));
  } catch (const std::exception& e) {
    m_lastError = e.what();
  }
}

void SimulationThread::restartRates() {
  m_rateStart = Clock::now();
  m_rateSteps = first().stepCount();
  m_rateTime = m_panes.earliestTime();
  m_panes.restartRates();
}

// Reset (the running setup, edited parameters kept) or Rebuild (a new setup, and with
// `panes` a new side-by-side list, or one view for an empty one).
void SimulationThread::restart(SimulationSetup setup, const std::optional<std::vector<PaneSpec>>& panes, bool reset) {
  if (panes && !panes->empty()) {
    rebuildPanes(setup, *panes, false);
    return;
  }
  if (panes) m_panes.single();  // one view from now
  if (m_panes.comparing()) {
    rebuildPanes(setup, m_panes.specs(), reset);
    return;
  }
  try {
    auto sim = Simulation::create(setup);
    // Keep the edited parameters when only resetting the same solver.
    if (reset) keepEditedParams(first(), *sim);
    replaceSimulation(std::move(sim));
  } catch (const std::exception& e) {
    m_lastError = e.what();
  }
}

// Side by side: each pane's label, figures and particles, and one colour range for all
// (the union of the panes' ranges).
void SimulationThread::publishPanes(Snapshot& s) {
  const std::vector<Simulation*> all = m_panes.comparing() ? m_panes.all() : std::vector<Simulation*>{};
  s.panes.resize(all.size());
  for (std::size_t k = 0; k < all.size(); ++k) {
    PaneView& v = s.panes[k];
    const Simulation& sim = *all[k];
    v.label = m_panes.specs()[k].label();
    v.stats = sim.stats();
    v.container = sim.container();
    v.radius = static_cast<float>(sim.particleRadius());
    v.ownSpeed = m_panes.ownSpeed(k);
    v.failure = sim.failed() ? sim.failureMessage() : std::string();
    if (k == 0) continue;  // the snapshot's own particles, obstacles and bodies
    v.obstacles = sim.setup().scene.obstacles;
    v.bodies = sim.bodies();
    float lo = s.valueLow, hi = s.valueHigh;
    if (drawOnDevice(sim, v.device)) {
      v.positions.clear(), v.values.clear();
      v.fieldAvailable = v.device.frame.fieldAvailable;
      lo = v.device.frame.low, hi = v.device.frame.high;
    } else {
      sim.worldParticles(m_x, m_v);
      v.positions.resize(3 * m_x.size());
      for (std::size_t i = 0; i < m_x.size(); ++i)
        for (int c = 0; c < 3; ++c) v.positions[3 * i + c] = static_cast<float>(m_x[i][c]);
      v.fieldAvailable = sim.field(m_field, v.values);
      if (!v.fieldAvailable) std::fill(v.values.begin(), v.values.end(), 0.0f);
      robustRange(v.values, lo, hi);
    }
    if (v.fieldAvailable) s.valueLow = std::min(s.valueLow, lo), s.valueHigh = std::max(s.valueHigh, hi);
  }
}

bool SimulationThread::drawOnDevice(const Simulation& sim, DeviceParticles& d) {
  d.valid = false;
  if (!m_options.makeDrawTarget) return false;
  if (!d.target) d.target = m_options.makeDrawTarget();
  if (!d.target) return false;
  try {
    d.valid = sim.drawFrame(m_field, *d.target, d.frame);
  } catch (const std::exception&) {
    d.valid = false;  // the host's copy is drawn instead
  }
  return d.valid;
}

void SimulationThread::publish(long videoFrame) {
  Snapshot& s = m_buffer.back();
  s.serial = ++m_serial;
  s.dim = first().dim();
  s.scene = first().setup().scene.name;
  s.sceneDescription = first().setup().scene.description;
  s.solver = first().solverName();
  s.spacing = first().spacing();
  s.radius = static_cast<float>(first().particleRadius());
  s.interactionRadius = static_cast<float>(first().interactionRadius());
  s.gridCell = static_cast<float>(first().gridCellSize());
  s.stats = first().stats();
  s.container = first().container();
  s.home = first().driver().home();
  s.obstacles = first().setup().scene.obstacles;
  s.bodies = first().bodies();
  s.gravity = first().setup().scene.gravity;
  s.field = m_field;
  const bool onDevice = drawOnDevice(first(), s.device);
  s.hostParticles = !onDevice || m_wantHost;
  if (s.hostParticles) {
    first().worldParticles(m_x, m_v);
    s.positions.resize(3 * m_x.size());
    s.velocities.resize(3 * m_x.size());
    for (std::size_t i = 0; i < m_x.size(); ++i) {
      for (int k = 0; k < 3; ++k) s.positions[3 * i + k] = static_cast<float>(m_x[i][k]);
      for (int k = 0; k < 3; ++k) s.velocities[3 * i + k] = static_cast<float>(m_v[i][k]);
    }
    s.fieldAvailable = first().field(m_field, s.values);
    if (!s.fieldAvailable) std::fill(s.values.begin(), s.values.end(), 0.0f);
    robustRange(s.values, s.valueLow, s.valueHigh);
    first().particleIds(s.ids);
  } else {
    s.positions.clear(), s.velocities.clear(), s.values.clear(), s.ids.clear();
  }
  if (onDevice) {
    s.fieldAvailable = s.device.frame.fieldAvailable;
    s.valueLow = s.device.frame.low, s.valueHigh = s.device.frame.high;
  }
  publishPanes(s);
  ParamRef params = first().solverParams();
  s.params = &params.table();
  s.paramValues.clear();
  for (const ParamInfo& info : params.table().entries) s.paramValues.push_back(params.get(info));
  s.paused = m_paused;
  s.failure = m_panes.failure();
  s.lastError = m_lastError;
  s.savedScene = m_savedScene;
  s.pour = first().pourStats();
  first().outflowJet(m_jetX, m_jetV);
  s.jet.resize(3 * m_jetX.size());
  s.jetValues.resize(m_jetX.size());
  for (std::size_t i = 0; i < m_jetX.size(); ++i) {
    for (int k = 0; k < 3; ++k) s.jet[3 * i + k] = static_cast<float>(m_jetX[i][k]);
    s.jetValues[i] = m_field == FieldKind::Speed      ? static_cast<float>(glm::length(m_jetV[i]))
                     : m_field == FieldKind::Pressure ? 0.0f
                                                      : 0.5f * (s.valueLow + s.valueHigh);
  }
  s.savedState = m_savedState;
  if (m_pinned) first().inspect(*m_pinned, s.inspected);
  else s.inspected = ParticleInspection{};
  s.motion.recording = m_liveRecording;
  s.motion.recorded = m_live.empty() ? 0.0 : m_live.back().t;
  s.motion.scripted = first().driver().mode() == ContainerDriver::Mode::Script && !m_path.active();
  s.motion.scriptEnd = first().setup().motion.empty() ? 0.0 : first().setup().motion.rows().back().t;
  s.motion.saved = m_savedMotion;
  s.compare = paneListText(m_panes.specs());
  ParamRef follow = first().driver().followParams();
  s.follow.clear();
  for (const ParamInfo& info : follow.table().entries) s.follow.push_back(follow.get(info));
  s.stepsPerSecond = m_stepsPerSecond;
  s.simSecondsPerSecond = m_simPerSecond;
  s.slowestShareOfSpeed = m_slowestShare;
  s.speed = m_speed;
  s.recording = !m_options.recordMotionPath.empty();
  s.exporting.active = m_exports.active();
  s.exporting.dir = m_exports.settings().dir;
  s.exporting.format = m_exports.settings().format;
  s.exporting.frames = m_exports.frames();
  s.exporting.error = m_exports.error();
  s.probes.probes = m_probeSampler ? m_probeSampler->probes() : std::vector<Probe>{};
  s.probes.columns.clear();
  for (const Probe& p : s.probes.probes) s.probes.columns.push_back(ProbeSampler::columnName(p));
  s.probes.rows.clear();
  for (auto row = m_probeRows.rbegin(); row != m_probeRows.rend() && row->front() >= first().time() - kProbeWindow; ++row)
    s.probes.rows.push_back(*row);
  std::reverse(s.probes.rows.begin(), s.probes.rows.end());
  s.probes.recorded = static_cast<long>(m_probeRows.size());
  s.probes.rate = m_probeRate;
  s.probes.error = m_probeError;
  s.probes.saved = m_savedProbes;
  s.videoLock = m_frames.lock();
  s.videoFrame = videoFrame;
  m_buffer.publish();
}

}  // namespace sloshlab::app
