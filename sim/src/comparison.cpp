#include "sloshlab/comparison.h"

#include "sloshlab/scene.h"
#include "sloshlab/solver_registry.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace sloshlab {

std::string PaneSpec::label() const {
  std::string text = solver;
  for (const auto& [key, value] : overrides) text += " " + key + "=" + value;
  return text;
}

namespace {

PaneSpec parsePane(const std::string& item) {
  if (item.empty()) throw std::runtime_error("--compare: an empty item (two commas, or one at an end)");
  std::vector<std::string> parts;
  std::istringstream in(item);
  for (std::string part; std::getline(in, part, ':');) parts.push_back(part);
  if (item.back() == ':') parts.emplace_back();
  PaneSpec spec;
  spec.solver = parts.front();
  if (!findSolverInfo(spec.solver))
    throw std::runtime_error("--compare: unknown solver '" + spec.solver + "' in '" + item +
                             "' (known: " + solverNameList() + ")");
  for (std::size_t k = 1; k < parts.size(); ++k) {
    const std::string& kv = parts[k];
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == kv.size())
      throw std::runtime_error("--compare: '" + item + "': expected SOLVER:key=value (got '" + kv + "')");
    spec.overrides.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  return spec;
}

}  // namespace

std::vector<PaneSpec> parsePaneList(const std::string& text) {
  std::vector<PaneSpec> panes;
  std::size_t from = 0;
  while (true) {
    const std::size_t comma = text.find(',', from);
    panes.push_back(parsePane(text.substr(from, comma == std::string::npos ? std::string::npos : comma - from)));
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  if (panes.size() < kMinPanes || panes.size() > kMaxPanes)
    throw std::runtime_error("--compare takes 2 to 4 items, SOLVER or SOLVER:key=value (got " +
                             std::to_string(panes.size()) + ")");
  return panes;
}

std::string paneListText(const std::vector<PaneSpec>& panes) {
  std::string text;
  for (const PaneSpec& p : panes) {
    if (!text.empty()) text += ",";
    text += p.solver;
    for (const auto& [key, value] : p.overrides) text += ":" + key + "=" + value;
  }
  return text;
}

std::vector<std::unique_ptr<Simulation>> createPanes(const SimulationSetup& base, std::span<const PaneSpec> panes) {
  std::vector<std::unique_ptr<Simulation>> sims;
  for (const PaneSpec& pane : panes) {
    SimulationSetup setup = base;
    setup.solver = pane.solver;
    try {
      // `scene=NAME|FILE.json` gives the pane a scene of its own (a baffled tank beside
      // the open one); every other key is a parameter.
      for (const auto& [key, value] : pane.overrides)
        if (key == "scene") setup.scene = loadScene(value);
        else setup.overrides.emplace_back(key, value);
      sims.push_back(Simulation::create(setup));
    } catch (const std::exception& e) {
      throw std::runtime_error("--compare pane '" + pane.label() + "': " + e.what());
    }
  }
  return sims;
}

// ---------------------------------------------------------------- the shared path

void SharedContainerPath::start(double t, const ContainerPose& home, const ContainerState& state,
                                const ContainerPose& target, std::span<Simulation* const> panes) {
  m_lead = ContainerDriver{};
  if (!panes.empty()) m_lead.setFollowSettings(panes.front()->driver().followSettings());  // edited ones too
  m_lead.reset(home);
  m_lead.setTarget(target);  // from rest: the spring's velocity starts at 0, as a single pane's does
  m_state = state;
  m_time = t;
  const MotionScript::Row first = MotionScript::relative(t, home, state.pose);
  m_rows = MotionScript::fromRows({first});
  for (Simulation* pane : panes) pane->driver().setScript(m_rows);
  m_active = true;
}

void SharedContainerPath::extendTo(double t, std::span<Simulation* const> panes) {
  if (!m_active) return;
  while (m_time < t - 1e-12) {
    m_lead.advance(m_state, m_time, kRowInterval);
    m_time += kRowInterval;
    const MotionScript::Row row = MotionScript::relative(m_time, m_lead.home(), m_state.pose);
    m_rows.append(row);
    for (Simulation* pane : panes) pane->driver().appendToScript(row);
  }
}

ContainerPose SharedContainerPath::poseAt(double t) const {
  const MotionScript::Row r = m_rows.sample(t);
  return MotionScript::applied(m_lead.home(), r);
}

}  // namespace sloshlab
