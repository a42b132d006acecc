// The simulation thread: owns the Simulation and steps it in real time (times the
// playback speed) while the UI thread draws. UI -> simulation: commands in a queue,
// applied between steps. Simulation -> UI: snapshots through a triple buffer.
// A slow solver lags behind real time (slow motion) instead of stalling the UI.
#pragma once

#include "export_run.h"
#include "frame_lock.h"
#include "pane_set.h"
#include "snapshot.h"

#include "sloshlab/comparison.h"
#include "sloshlab/export.h"
#include "sloshlab/simulation.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>

namespace sloshlab::app {

namespace command {
struct SetParam {
  std::string key;
  double value;
};
struct Reset {};
struct Rebuild {
  SimulationSetup setup;
  // Side by side from now: these panes (empty: one view); unset: the panes stay as they are.
  std::optional<std::vector<PaneSpec>> panes;
};
struct SetPaused {
  bool paused;
};
struct StepOnce {};
struct SetSpeed {
  double speed;
};
struct SetTarget {
  ContainerPose pose;
};
struct SetField {
  FieldKind field;
};
struct SaveScene {  // the running scene, solver and parameters, as JSON
  std::string path;
};
// Save and resume (sloshlab/state_file.h): the whole state to a file, or a new
// simulation from one (which replaces the running one, as a rebuild does).
struct SaveState {
  std::string path;
};
struct LoadState {
  std::string path;
};
// The Motions panel: record the live drag from now, stop, replay it from the scene's
// start (the running solver and parameters), or save it (or else the running script) as a
// --motion CSV.
struct StartRecording {};
struct StopRecording {};
struct ReplayRecording {};
struct SaveMotion {
  std::string path;
};
// The scene from its start, driven by `script` (a motion made or loaded in the panel),
// with the running solver and its edited parameters; StopMotion leaves the container
// where it is, still.
struct PlayMotion {
  MotionScript script;
};
struct StopMotion {};
// The particle inspector: follow the particle numbered `id` (ParticleSet::id) in every
// snapshot; `on` false lets it go.
struct Pin {
  bool on = false;
  std::uint32_t id = 0;
};
// Particle files from now on (the Export panel; export_run.h): a frame now, then one
// every everySteps steps or every everySeconds of simulated time. Replaces a running export.
using StartExport = ExportSettings;
struct StopExport {};
// Side by side: the panes (2 to 4) from the running scene's start; an empty list goes
// back to one view, of the first pane's solver.
struct SetCompare {
  std::vector<PaneSpec> panes;
};
// The mouse spring's settings (ContainerDriver::followTable), for every pane.
struct SetFollow {
  std::string key;
  double value;
};
// Video recording (app/video_recorder.h): with period > 0, steps land on every
// multiple of `period` after the current time. Each such state is published as a frame
// once the UI has fetched the frame before (FrameTaken: from then on the triple buffer
// keeps it for the UI), and nothing is published while a frame waits to be fetched, so
// that none is lost. The simulation steps on toward the next frame meanwhile, and waits
// when it gets there first. Period 0 ends the lock.
// `lock` names the recording, so that a frame of an earlier one is never taken for it.
struct SetFrameLock {
  double period;
  long lock;
};
struct FrameTaken {
  long lock;
  long frame;
};
// The UI reads the particles on the CPU (velocity arrows, the kernel probe, the
// inspector): a GPU solver's are then copied to the host for each snapshot too, besides
// the draw from GPU memory.
struct WantHostParticles {
  bool on = false;
};
// The Probes panel (sloshlab/probes.h): these gauges and sensors, sampled at `rate` per
// simulated second from now on; the list replaces the one before and its readings. A
// probe that does not fit the container is left out, the reason in the snapshot. A new
// scene brings its own probes (its file's "probes").
struct SetProbes {
  std::vector<Probe> probes;
  double rate = 50.0;
};
// Every reading since the probes were set, as the CSV --probes writes.
struct SaveProbes {
  std::string path;
};
// The scene's faucet and outlet switched on or off (sloshlab/pour.h), in every pane.
struct SetPour {
  bool faucetOn;
  bool outletOn;
};
// A floating body's density (kg/m^3) edited in the Scene panel, in every pane
// (sloshlab/bodies.h).
struct SetBodyDensity {
  std::size_t body;
  double density;
};
// The mouse's hand on a floating body (physics.md (16.10)): its point `anchor` (the body's
// axes) pulled to `target` (the container's frame), or let go (`hold` false).
struct PullBody {
  std::size_t body;
  Vec3 anchor;
  Vec3 target;
  bool hold;
};
}  // namespace command

using Command = std::variant<command::SetParam, command::Reset, command::Rebuild, command::SetPaused,
                             command::StepOnce, command::SetSpeed, command::SetTarget, command::SetField,
                             command::SaveScene, command::SaveState, command::LoadState,
                             command::StartRecording, command::StopRecording, command::ReplayRecording,
                             command::SaveMotion, command::PlayMotion, command::StopMotion, command::Pin,
                             command::StartExport, command::StopExport, command::SetCompare, command::SetFollow,
                             command::SetFrameLock, command::FrameTaken, command::WantHostParticles,
                             command::SetProbes, command::SaveProbes, command::SetPour,
                             command::SetBodyDensity, command::PullBody>;

struct SimThreadOptions {
  std::string statsPath;          // --stats in the window
  std::string exportDir;          // --export DIR
  long every = 1;                 // --every K
  std::string recordMotionPath;   // --record-motion FILE
  int threads = 0;                // --threads; 0: one core left to the UI (at least 1)
  double speed = 1.0;             // --speed, in the range of runSetting("speed")
  std::string saveScenePath;      // --save-scene: written when the window closes
  std::string saveStatePath;      // --save-state: written when the window closes
  ExportFormat exportFormat = ExportFormat::Csv;  // --format
  std::vector<PaneSpec> compare;  // --compare: the panes (the simulation given is the first)
  // Set where the window can draw from GPU memory (sloshlab/gpu.h, shareWithWindow): makes
  // the draw targets GPU solvers write their frames into.
  std::function<std::shared_ptr<DeviceDrawTarget>()> makeDrawTarget;
};


class SimulationThread {
 public:
  // Takes a built simulation (errors in the setup are reported before the window opens);
  // with options.compare, the panes built from it (createPanes), the first one first.
  SimulationThread(std::vector<std::unique_ptr<Simulation>> panes, SimThreadOptions options);
  ~SimulationThread();  // stops, joins, finishes the files it was writing
  SimulationThread(const SimulationThread&) = delete;
  SimulationThread& operator=(const SimulationThread&) = delete;

  void post(Command c);
  bool fetch() { return m_buffer.fetch(); }
  const Snapshot& snapshot() const { return m_buffer.front(); }
  // Stops the thread and writes the recorded motion and exports; returns an error
  // message (empty when all went well).
  std::string stop();

 private:
  void run();
  void apply(Command& c);  // to its handler below (sim_thread_commands.cpp)
  // One handler per command (namespace command above says what each does).
  void on(command::SetParam& cmd);
  void on(command::Reset& cmd);
  void on(command::Rebuild& cmd);
  void on(command::SetPaused& cmd);
  void on(command::StepOnce& cmd);
  void on(command::SetSpeed& cmd);
  void on(command::SetTarget& cmd);
  void on(command::SetField& cmd);
  void on(command::SaveScene& cmd);
  void on(command::SetPour& cmd);
  void on(command::SetBodyDensity& cmd);
  void on(command::PullBody& cmd);
  void on(command::SaveState& cmd);
  void on(command::LoadState& cmd);
  void on(command::StartRecording& cmd);
  void on(command::StopRecording& cmd);
  void on(command::ReplayRecording& cmd);
  void on(command::SaveMotion& cmd);
  void on(command::PlayMotion& cmd);
  void on(command::StopMotion& cmd);
  void on(command::Pin& cmd);
  void on(command::StartExport& cmd);
  void on(command::StopExport& cmd);
  void on(command::SetCompare& cmd);
  void on(command::SetFollow& cmd);
  void on(command::SetFrameLock& cmd);
  void on(command::FrameTaken& cmd);
  void on(command::WantHostParticles& cmd);
  void on(command::SetProbes& cmd);
  void on(command::SaveProbes& cmd);
  // The probes placed again in the running simulation, their readings from now.
  void startProbes();
  void sampleProbes();  // after each step of the first pane
  // Reset and Rebuild: `setup` from its start; with `panes` set, a new side-by-side list
  // (empty: one view); `reset` keeps the edited parameters of the same solver.
  void restart(SimulationSetup setup, const std::optional<std::vector<PaneSpec>>& panes, bool reset);
  // The Save commands: runs `write`; `saved` names the file, or the error says why not.
  void save(const char* what, const std::string& path, std::string& saved, const std::function<void()>& write);
  // A rebuilt or loaded simulation takes over: the run's outputs stop with the old one.
  void replaceSimulation(std::unique_ptr<Simulation> sim);
  // The running scene from its start with `script`, the solver and its edited parameters kept.
  void restartWithMotion(MotionScript script);
  void restartRates();  // the steps-per-second and real-time measures start over now
  bool advance(double limit);  // one step toward `limit` (0: the solver's own); false: none taken
  // The first pane: the simulation the panels edit and the outputs follow.
  Simulation& first() const { return m_panes.first(); }
  // Every pane one step toward `limit` at most, in turn, until all reach it or the
  // budget ends; false when none stepped.
  bool advancePanes(double limit, std::chrono::steady_clock::time_point start);
  // New panes for `specs` from `setup` (its solver aside), each keeping its edited
  // parameters when it runs the same solver as before.
  void rebuildPanes(const SimulationSetup& setup, std::vector<PaneSpec> specs, bool keepEdits);
  // Frame lock: steps toward the next frame's time while the playback clock allows
  // (one step when `once`); publishes nothing.
  void stepToNextFrame(std::chrono::steady_clock::time_point start, bool once);
  void publishFrame();  // the state at the next frame's time, as that video frame
  void publish(long videoFrame = -1);
  void publishPanes(Snapshot& s);
  // `sim`'s particles and colour field into `d`'s target when its solver is on the GPU
  // and the window draws from there; false otherwise (and d.valid false).
  bool drawOnDevice(const Simulation& sim, DeviceParticles& d);
  void record();
  void openOutputs();
  void closeOutputs();

  PaneSet m_panes;  // one simulation, or side by side
  SharedContainerPath m_path;                          // the mouse's path for every pane
  SimThreadOptions m_options;
  TripleBuffer<Snapshot> m_buffer;
  std::thread m_thread;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  std::deque<Command> m_queue;
  bool m_stopRequested = false;
  std::string m_stopError;

  // Owned by the simulation thread.
  bool m_paused = false;
  bool m_stepOnce = false;
  double m_speed = 1.0;
  double m_clock = 0.0;  // playback clock (simulated s): where the simulation should be
  FieldKind m_field = FieldKind::Speed;
  FrameLock m_frames;          // SetFrameLock, FrameTaken
  std::string m_lastError;
  std::string m_savedScene;
  std::string m_saveSceneAtStop;  // survives rebuilds, unlike m_options' outputs
  std::string m_saveStateAtStop;  // the same for --save-state
  std::string m_savedState;       // the file the last SaveState wrote, or LoadState read
  long m_serial = 0;
  double m_stepsPerSecond = 0.0, m_simPerSecond = 0.0;
  // The slowest measured half-second while playing (not the first second after the start,
  // which pays for it, nor video frames, which wait for the encoder), over the asked speed.
  double m_slowestShare = 0.0;
  int m_rateWindows = 0;
  std::chrono::steady_clock::time_point m_rateStart;  // since when they are measured
  long m_rateSteps = 0;                                // the step count then
  double m_rateTime = 0.0;                             // and the simulated time
  std::unique_ptr<StatsWriter> m_stats;
  ExportRun m_exports;  // --export or the Export panel's; errors go to the snapshot
  bool m_exportFromCommandLine = false;  // its error is the run's exit error too
  std::vector<MotionScript::Row> m_recorded;
  bool m_liveRecording = false;               // the Motions panel's recording
  double m_liveStart = 0.0;                   // simulated time it started
  std::vector<MotionScript::Row> m_live;      // its rows, t from its start
  std::string m_savedMotion;
  std::optional<std::uint32_t> m_pinned;      // the inspector's particle
  bool m_wantHost = false;                    // WantHostParticles
  std::vector<Probe> m_probeSpecs;            // SetProbes, or the scene's
  double m_probeRate = 50.0;
  std::optional<ProbeSampler> m_probeSampler; // the placed ones; none: no probes
  std::vector<std::vector<double>> m_probeRows;
  std::vector<double> m_probeRow;
  std::string m_probeError, m_savedProbes;
  std::vector<Vec3> m_x, m_v;
  std::vector<Vec3> m_jetX, m_jetV;  // the outflow jet (physics.md (14.7))
};

}  // namespace sloshlab::app
