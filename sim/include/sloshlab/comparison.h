// Side by side (the lab's compare view, --compare): two to four simulations of one
// scene, each with its own solver or the same solver with other parameters (or a scene
// of its own), whose containers move along one path.
//
// The panes step with different dt, so a container driven by the mouse's follow
// spring in each would take slightly different paths (the spring is integrated over
// each pane's own steps). Instead one lead driver advances the spring in fixed 1 ms
// steps (physics.md (8.7)) and writes the path as rows; every pane follows those rows
// as a script (MotionScript, linear between rows). Each pane then has, at any time,
// exactly the pose every other pane has at that time, and measures its frame's
// velocity and acceleration from it over its own steps (physics.md (8.5)).
#pragma once

#include "sloshlab/container.h"
#include "sloshlab/simulation.h"

#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace sloshlab {

constexpr std::size_t kMinPanes = 2, kMaxPanes = 4;

// One pane: a solver and the parameters it changes (and its own scene, key `scene`).
struct PaneSpec {
  std::string solver;
  std::vector<std::pair<std::string, std::string>> overrides;  // key=value, after the scene's and --set's
  std::string label() const;  // "flip pic_fraction=0.5"
};

// "pic,flip,apic,flip:pic_fraction=0.5": items SOLVER or SOLVER:key=value[:key=value...].
// The key `scene` gives a pane a scene of its own (a built-in name or a JSON file:
// "apic,apic:scene=sloshing_tank" beside --scene baffled_tank). Throws
// std::runtime_error (one line naming the bad item) for a wrong count, an unknown
// solver or a malformed key=value. Unknown keys and scenes are found by createPanes.
std::vector<PaneSpec> parsePaneList(const std::string& text);
std::string paneListText(const std::vector<PaneSpec>& panes);  // the text parsePaneList reads back

// One simulation per pane: `base` (scene, dimension, spacing, seed, motion, --set) with
// the pane's solver, overrides and scene. Throws what Simulation::create throws, prefixed
// with the pane's item.
std::vector<std::unique_ptr<Simulation>> createPanes(const SimulationSetup& base, std::span<const PaneSpec> panes);

// The mouse's path for all panes (see the header comment).
class SharedContainerPath {
 public:
  static constexpr double kRowInterval = 1e-3;  // s: the lead driver's step, one row each

  // Starts a path at time t from the panes' pose there (they share it), following
  // `target`: every pane's driver takes the path from now (its script restarts at t).
  void start(double t, const ContainerPose& home, const ContainerState& state, const ContainerPose& target,
             std::span<Simulation* const> panes);
  bool active() const { return m_active; }
  void stop() { m_active = false; }  // the panes keep what they have (they hold after its last row)
  void setTarget(const ContainerPose& target) { m_lead.setTarget(target); }
  ParamRef followParams() { return m_lead.followParams(); }  // the mouse spring's settings (8.7)
  // Advances the lead driver until the path reaches time t, and appends the new rows to
  // every pane's script. Call before any pane steps to t.
  void extendTo(double t, std::span<Simulation* const> panes);
  double end() const { return m_time; }
  // The path's pose at time t (for tests: each pane's pose must equal it).
  ContainerPose poseAt(double t) const;

 private:
  bool m_active = false;
  ContainerDriver m_lead;
  ContainerState m_state;
  double m_time = 0.0;
  MotionScript m_rows;  // the whole path, as the panes have it
};

}  // namespace sloshlab
