// The simulations the window runs: one, or side by side (sloshlab/comparison.h) two to
// four panes from the same scene. The first pane is the one the panels edit and the
// outputs follow. Besides the panes, their specs (labels and overrides) and each pane's
// own speed: simulated seconds per second of the wall time it spent stepping.
#pragma once

#include "sloshlab/comparison.h"
#include "sloshlab/simulation.h"

#include <memory>
#include <string>
#include <vector>

namespace sloshlab::app {

class PaneSet {
 public:
  // `specs` one per simulation when side by side; otherwise (or when the counts differ)
  // one view of the first simulation.
  PaneSet(std::vector<std::unique_ptr<Simulation>> sims, std::vector<PaneSpec> specs);

  Simulation& first() const { return *m_sims.front(); }
  std::vector<Simulation*> all() const;
  bool comparing() const { return m_sims.size() > 1; }
  const std::vector<PaneSpec>& specs() const { return m_specs; }  // empty for one view

  double earliestTime() const;  // the common clock follows the slowest
  double latestTime() const;
  bool anyFailed() const;
  std::string failure() const;  // the first failed pane's message, named by its pane

  void replaceFirst(std::unique_ptr<Simulation> sim);  // the other panes stay
  // Side by side from now: the panes after the first, and the specs of all.
  void setOthers(std::vector<std::unique_ptr<Simulation>> others, std::vector<PaneSpec> specs);
  void single();  // one view from now: the first pane alone

  // Each pane's own speed, measured since restartRates().
  void restartRates();
  void addWall(std::size_t pane, double seconds) { m_wall[pane] += seconds; }
  void measureSpeeds();
  double ownSpeed(std::size_t pane) const { return pane < m_ownSpeed.size() ? m_ownSpeed[pane] : 0.0; }

 private:
  std::vector<std::unique_ptr<Simulation>> m_sims;
  std::vector<PaneSpec> m_specs;
  std::vector<double> m_wall;      // wall s each pane spent stepping since restartRates
  std::vector<double> m_time0;     // and its simulated time then
  std::vector<double> m_ownSpeed;  // the last measured simulated-per-own-wall of each pane
};

}  // namespace sloshlab::app
