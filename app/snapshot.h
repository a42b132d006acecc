// What the simulation thread shows the UI thread: the latest state of the fluid,
// passed through a triple buffer so that neither thread ever waits for the other.
#pragma once

#include "sloshlab/bodies.h"
#include "sloshlab/container.h"
#include "sloshlab/diagnostics.h"
#include "sloshlab/export.h"
#include "sloshlab/params.h"
#include "sloshlab/pour.h"
#include "sloshlab/probes.h"
#include "sloshlab/solver.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace sloshlab::app {

// What the Export panel shows of the running (or last) export.
struct ExportStatus {
  bool active = false;
  std::string dir;
  ExportFormat format = ExportFormat::Csv;
  long frames = 0;
  std::string error;  // why the last start or frame failed ("" when all went well)
};

// The Motions panel's view of the container's motion.
struct MotionStatus {
  bool recording = false;      // the live drag is being recorded
  double recorded = 0.0;       // s of drag recorded (the last recording, or this one so far)
  bool scripted = false;       // the container follows a script (a motion played or replayed)
  double scriptEnd = 0.0;      // the script's last time (s)
  std::string saved;           // the file the last Save wrote
};

// The Probes panel's view of the wave gauges and pressure sensors (sloshlab/probes.h).
struct ProbeStatus {
  std::vector<Probe> probes;                // placed, in the order of the columns
  std::vector<std::string> columns;         // per probe: "h_m_at_x0.05", "p_Pa_at_x0_y0.03"
  std::vector<std::vector<double>> rows;    // the last kProbeWindow s: time, then a value per probe
  long recorded = 0;                        // rows recorded since the probes were set
  double rate = 50.0;                       // samples per simulated second
  std::string error;                        // a probe that could not be placed, or a save that failed
  std::string saved;                        // the file the last Save wrote
};
inline constexpr double kProbeWindow = 10.0;  // simulated s the panel plots

// A GPU solver's particles in GPU memory (sloshlab/solver.h, DeviceDrawTarget): the
// window draws them from there. The target stays with its snapshot slot and is written
// again each time the slot is; valid says this snapshot's particles are in it.
struct DeviceParticles {
  std::shared_ptr<DeviceDrawTarget> target;
  DeviceDrawFrame frame;
  bool valid = false;
};

// One pane of the side-by-side view (--compare, sloshlab/comparison.h). The first
// pane's particles are the snapshot's own; the others carry theirs here.
struct PaneView {
  std::string label;          // the solver and the parameters it changes: "flip pic_fraction=0.05"
  StepStats stats;
  ContainerState container;
  std::vector<float> positions, values;  // the other panes only (world frame, x y z)
  DeviceParticles device;                // the other panes only: their particles on the GPU
  std::vector<Obstacle> obstacles;       // the other panes only: their scene's (a pane may have its own)
  std::vector<BodyView> bodies;          // the other panes only: their floating bodies now
  bool fieldAvailable = true;
  float radius = 0.0f;
  double ownSpeed = 0.0;      // simulated s per wall s of its own steps: its real-time factor alone
  std::string failure;
};

struct Snapshot {
  long serial = 0;  // increases with every publish
  int dim = 2;
  std::string scene, solver;
  std::string sceneDescription;
  double spacing = 0.0;
  float radius = 0.0f;  // particle radius (m)
  float interactionRadius = 0.0f;  // kernel support / contact distance (m), 0: none
  float gridCell = 0.0f;           // grid cell of hybrid solvers (m), 0: none
  StepStats stats;
  ContainerState container;
  ContainerPose home;  // the scene's pose of the container
  std::vector<Obstacle> obstacles;  // the scene's, in the container's frame (sloshlab/solids.h)
  std::vector<BodyView> bodies;     // the floating bodies as they are now (sloshlab/bodies.h)
  Vec3 gravity{0.0};                // the scene's gravity, world frame (m/s^2)
  std::vector<float> positions;  // world frame, x y z per particle
  std::vector<float> velocities; // world frame, x y z per particle (m/s; the velocity arrows)
  FieldKind field = FieldKind::Speed;
  bool fieldAvailable = true;
  std::vector<float> values;  // the colour field, one per particle
  // What left through the outlet's hole, falling (physics.md (14.7)): world x y z per
  // drop, and its colour value (its speed; pressure 0; else mid-range).
  std::vector<float> jet, jetValues;
  // On the GPU path with the window sharing its context, the particles are drawn from
  // `device`, and positions, velocities, values and ids are filled only while the UI asks
  // for them (command::WantHostParticles: the arrows, the kernel probe, the inspector).
  DeviceParticles device;
  bool hostParticles = true;
  float valueLow = 0.0f, valueHigh = 1.0f;  // 1st and 99th percentiles of the field
  const ParamTable* params = nullptr;        // static table of the running solver
  std::vector<double> paramValues;           // current values, in table order
  bool paused = false;
  std::string failure;      // the solver blew up: shown and paused
  std::string lastError;    // a command that could not be applied (bad scene, ...)
  std::string savedScene;   // the file the last "save scene" wrote
  PourStats pour;           // the first pane's faucet and outlet
  std::string savedState;   // the state file last saved (F5) or loaded (F9)
  double stepsPerSecond = 0.0;       // solver steps per wall second
  double simSecondsPerSecond = 0.0;  // simulated seconds per wall second
  double slowestShareOfSpeed = 0.0;  // the slowest half-second's simSecondsPerSecond / speed since the start (0: none yet)
  double speed = 1.0;                // playback speed asked for
  bool recording = false;           // the container's path (--record-motion)
  MotionStatus motion;
  std::vector<std::uint32_t> ids;   // the particles' numbers, in the order of positions (picking)
  ParticleInspection inspected;     // the pinned particle (Pin); found false when none
  long videoLock = 0;                // the video recording whose frames are locked (SetFrameLock)
  long videoFrame = -1;              // this state is that recording's frame videoFrame; -1: none
  ExportStatus exporting;
  ProbeStatus probes;
  std::vector<PaneView> panes;  // side by side: every pane, the first being this snapshot's; empty: one view
  std::string compare;          // and their list as --compare takes it ("" for one view)
  std::vector<double> follow;   // the mouse spring's settings, in ContainerDriver::followTable's order
};

// A colour field's robust range: its 1st and 99th percentiles (unchanged when there
// are no values).
inline void robustRange(const std::vector<float>& values, float& low, float& high) {
  if (values.empty()) return;
  std::vector<float> sorted = values;
  const std::size_t lo = sorted.size() / 100, hi = sorted.size() - 1 - sorted.size() / 100;
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(lo), sorted.end());
  low = sorted[lo];
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(hi), sorted.end());
  high = sorted[hi];
}

// A wait-free single-producer single-consumer triple buffer. The writer fills
// back() and publish()es it; the reader fetch()es the latest published slot into
// front(). Slot indices travel in one atomic with a "fresh" bit.
template <class T>
class TripleBuffer {
 public:
  T& back() { return m_slots[m_back]; }
  void publish() { m_back = m_middle.exchange(m_back | kFresh, std::memory_order_acq_rel) & kIndex; }

  // True when a newer slot than the current front was taken.
  bool fetch() {
    if (!(m_middle.load(std::memory_order_acquire) & kFresh)) return false;
    m_front = m_middle.exchange(m_front, std::memory_order_acq_rel) & kIndex;
    return true;
  }
  const T& front() const { return m_slots[m_front]; }

 private:
  static constexpr int kIndex = 3, kFresh = 4;
  T m_slots[3];
  std::atomic<int> m_middle{1};
  int m_back = 0;
  int m_front = 2;
};

}  // namespace sloshlab::app
