// The simulation thread's commands (sim_thread.h, namespace command): apply() hands
// each to its handler, on the simulation thread, between steps.
#include "sim_thread.h"

#include "sloshlab/motions.h"
#include "sloshlab/run_settings.h"
#include "sloshlab/state_file.h"

#include <algorithm>
#include <stdexcept>

namespace sloshlab::app {

void SimulationThread::apply(Command& c) {
  std::visit([this](auto& cmd) { on(cmd); }, c);
}

// Runs `write` (which throws on failure): on success `saved` names `path` and the last
// error is cleared; on failure the error says "<what> not saved: why".
void SimulationThread::save(const char* what, const std::string& path, std::string& saved,
                            const std::function<void()>& write) {
  try {
    write();
    saved = path;
    m_lastError.clear();
  } catch (const std::exception& e) {
    m_lastError = std::string(what) + " not saved: " + e.what();
  }
}

void SimulationThread::on(command::SetParam& cmd) {
  // Side by side, every pane takes the edit unless its item sets that key itself.
  const std::vector<Simulation*> all = m_panes.all();
  for (std::size_t k = 0; k < all.size(); ++k) {
    if (k > 0 && std::any_of(m_panes.specs()[k].overrides.begin(), m_panes.specs()[k].overrides.end(),
                             [&](const auto& kv) { return kv.first == cmd.key; }))
      continue;
    ParamRef params = all[k]->solverParams();
    if (const ParamInfo* info = params.table().find(cmd.key)) {
      params.setClamped(*info, cmd.value);
      all[k]->solverParamsEdited();
    }
  }
}

void SimulationThread::on(command::Reset&) { restart(first().setup(), std::nullopt, true); }

void SimulationThread::on(command::Rebuild& cmd) { restart(cmd.setup, cmd.panes, false); }


void SimulationThread::on(command::SetPaused& cmd) {
  m_paused = cmd.paused;
}

void SimulationThread::on(command::StepOnce&) {
  m_paused = true;
  m_stepOnce = true;
}

void SimulationThread::on(command::SetSpeed& cmd) {
  m_speed = std::clamp(cmd.speed, runSetting("speed").min, runSetting("speed").max);
}

void SimulationThread::on(command::SetTarget& cmd) {
  if (!m_panes.comparing()) {
    first().driver().setTarget(cmd.pose);
  } else if (m_path.active()) {
    m_path.setTarget(cmd.pose);
  } else {
    // From the latest pane's time: no pane has passed it, so none misses the path's start.
    m_path.start(m_panes.latestTime(), first().driver().home(), first().container(), cmd.pose, m_panes.all());
  }
}

void SimulationThread::on(command::SetField& cmd) {
  m_field = cmd.field;
}

void SimulationThread::on(command::SaveScene& cmd) {
  save("scene", cmd.path, m_savedScene, [&] { writeFileAtomically(cmd.path, sceneToJson(sceneOfRun(first()))); });
}

void SimulationThread::on(command::SetPour& cmd) {
  for (Simulation* sim : m_panes.all()) sim->setFaucetOn(cmd.faucetOn), sim->setOutletOn(cmd.outletOn);
}

void SimulationThread::on(command::SetBodyDensity& cmd) {
  for (Simulation* sim : m_panes.all()) sim->setBodyDensity(cmd.body, cmd.density);
}

void SimulationThread::on(command::PullBody& cmd) {
  for (Simulation* sim : m_panes.all()) {
    if (cmd.hold) sim->pullBody(cmd.body, cmd.anchor, cmd.target);
    else sim->releaseBody();
  }
}

void SimulationThread::on(command::SaveState& cmd) {
  save("state", cmd.path, m_savedState, [&] { writeStateFile(cmd.path, first()); });
}

void SimulationThread::on(command::LoadState& cmd) {
  try {
    replaceSimulation(readStateFile(cmd.path));  // one view: a state holds one simulation
    m_panes.single();
    restartRates();
    m_savedState = cmd.path;
  } catch (const std::exception& e) {
    m_lastError = e.what();
  }
}

void SimulationThread::on(command::StartRecording&) {
  m_live.clear();
  m_liveRecording = true;
  m_liveStart = first().time();
  record();
}

void SimulationThread::on(command::StopRecording&) {
  m_liveRecording = false;
}

void SimulationThread::on(command::ReplayRecording&) {
  m_liveRecording = false;
  if (m_live.size() < 2) m_lastError = "no drag recorded yet: Record, drag the bottle, Stop";
  else restartWithMotion(MotionScript::fromRows(m_live));
}

void SimulationThread::on(command::PlayMotion& cmd) {
  m_liveRecording = false;
  restartWithMotion(std::move(cmd.script));
}

void SimulationThread::on(command::Pin& cmd) {
  m_pinned = cmd.on ? std::optional<std::uint32_t>(cmd.id) : std::nullopt;
}

void SimulationThread::on(command::StopMotion&) {
  m_path.stop();
  for (Simulation* pane : m_panes.all()) pane->driver().setScript(MotionScript{});
}

void SimulationThread::on(command::SetFollow& cmd) {
  if (const ParamInfo* info = ContainerDriver::followTable().find(cmd.key)) {
    for (Simulation* pane : m_panes.all()) pane->driver().followParams().setClamped(*info, cmd.value);
    m_path.followParams().setClamped(*info, cmd.value);
  }
}

void SimulationThread::on(command::SetCompare& cmd) {
  if (cmd.panes.empty()) {
    m_panes.single();
    m_path.stop();
    restartRates();
  } else {
    rebuildPanes(first().setup(), std::move(cmd.panes), true);
  }
}

void SimulationThread::on(command::SaveMotion& cmd) {
  save("motion", cmd.path, m_savedMotion, [&] {
    const MotionScript script = m_live.size() >= 2 ? MotionScript::fromRows(m_live) : first().setup().motion;
    if (script.empty()) throw std::runtime_error("no motion to save: record a drag or play a motion first");
    writeFileAtomically(cmd.path, motionCsv(script, first().dim()));
  });
}

void SimulationThread::on(command::StartExport& cmd) {
  m_exportFromCommandLine = false;
  m_exports.start(cmd, first());
}

void SimulationThread::on(command::StopExport&) {
  m_exports.stop();
  m_exportFromCommandLine = false;
}

void SimulationThread::on(command::SetFrameLock& cmd) {
  m_clock = m_panes.earliestTime();
  m_frames.start(cmd.period, cmd.lock, m_clock);
}

void SimulationThread::on(command::FrameTaken& cmd) {
  m_frames.taken(cmd.lock, cmd.frame);
}

void SimulationThread::on(command::WantHostParticles& cmd) {
  m_wantHost = cmd.on;
}

void SimulationThread::on(command::SetProbes& cmd) {
  m_probeSpecs = std::move(cmd.probes);
  m_probeRate = cmd.rate;
  startProbes();
}

void SimulationThread::on(command::SaveProbes& cmd) {
  save("probes", cmd.path, m_savedProbes, [&] {
    if (!m_probeSampler) throw std::runtime_error("no probes to save: add a gauge or a sensor first");
    writeFileAtomically(cmd.path, probeCsv(*m_probeSampler, m_probeRows));
  });
}

void SimulationThread::startProbes() {
  m_probeSampler.reset();
  m_probeRows.clear();
  m_probeError.clear();
  std::vector<Probe> placed;
  for (Probe p : m_probeSpecs) {
    const std::string problem = placeProbe(p, first());
    if (problem.empty()) placed.push_back(p);
    else m_probeError = problem;
  }
  if (placed.empty()) return;
  m_probeSampler.emplace(std::move(placed), m_probeRate);
  sampleProbes();
}

void SimulationThread::sampleProbes() {
  if (m_probeSampler && !first().failed() && m_probeSampler->sample(first(), m_probeRow)) m_probeRows.push_back(m_probeRow);
}

}  // namespace sloshlab::app
