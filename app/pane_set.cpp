// The window's simulations, one or side by side (pane_set.h).
#include "pane_set.h"

#include <algorithm>

namespace sloshlab::app {

PaneSet::PaneSet(std::vector<std::unique_ptr<Simulation>> sims, std::vector<PaneSpec> specs)
    : m_sims(std::move(sims)), m_specs(std::move(specs)) {
  if (m_specs.size() != m_sims.size() || m_sims.size() < 2) single();
  restartRates();
}

std::vector<Simulation*> PaneSet::all() const {
  std::vector<Simulation*> out;
  for (const auto& sim : m_sims) out.push_back(sim.get());
  return out;
}

double PaneSet::earliestTime() const {
  double t = first().time();
  for (const auto& sim : m_sims) t = std::min(t, sim->time());
  return t;
}

double PaneSet::latestTime() const {
  double t = first().time();
  for (const auto& sim : m_sims) t = std::max(t, sim->time());
  return t;
}

bool PaneSet::anyFailed() const {
  return std::any_of(m_sims.begin(), m_sims.end(), [](const auto& sim) { return sim->failed(); });
}

std::string PaneSet::failure() const {
  for (std::size_t k = 0; k < m_sims.size(); ++k)
    if (m_sims[k]->failed())
      return comparing() ? "pane " + std::to_string(k + 1) + " (" + m_specs[k].label() + "): " +
                               m_sims[k]->failureMessage()
                         : m_sims[k]->failureMessage();
  return {};
}

void PaneSet::replaceFirst(std::unique_ptr<Simulation> sim) {
  m_sims.front() = std::move(sim);
}

void PaneSet::setOthers(std::vector<std::unique_ptr<Simulation>> others, std::vector<PaneSpec> specs) {
  m_sims.resize(1);
  for (auto& sim : others) m_sims.push_back(std::move(sim));
  m_specs = std::move(specs);
  if (m_specs.size() != m_sims.size() || m_sims.size() < 2) single();
}

void PaneSet::single() {
  m_sims.resize(1);
  m_specs.clear();
}

void PaneSet::restartRates() {
  m_wall.assign(m_sims.size(), 0.0);
  m_time0.resize(m_sims.size());
  for (std::size_t k = 0; k < m_sims.size(); ++k) m_time0[k] = m_sims[k]->time();
}

void PaneSet::measureSpeeds() {
  m_ownSpeed.resize(m_sims.size());
  for (std::size_t k = 0; k < m_sims.size(); ++k)
    m_ownSpeed[k] = k < m_wall.size() && m_wall[k] > 0.0 ? (m_sims[k]->time() - m_time0[k]) / m_wall[k] : 0.0;
}

}  // namespace sloshlab::app
