// Particle files written while the window runs (export_run.h).
#include "export_run.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sloshlab::app {

void ExportRun::start(const ExportSettings& settings, const Simulation& sim) {
  stop();
  m_error.clear();
  m_frames = 0;
  m_settings = settings;
  m_settings.everySteps = std::max(1L, settings.everySteps);
  m_settings.everySeconds = std::isfinite(settings.everySeconds) ? std::max(0.0, settings.everySeconds) : 0.0;
  try {
    if (settings.dir.empty()) throw std::runtime_error("no directory given");
    if (const std::string problem = exportDirProblem(settings.dir); !problem.empty())
      throw std::runtime_error("'" + settings.dir + "': " + problem);
    m_exporter = std::make_unique<ParticleExporter>(settings.dir, sim.dim(), settings.format);
  } catch (const std::exception& e) {
    m_error = std::string("cannot export: ") + e.what();
    return;
  }
  m_start = sim.time();
  frame(sim);
}

void ExportRun::stop() {
  if (!m_exporter) return;
  try {
    m_exporter->finish();
  } catch (const std::exception& e) {
    m_error = e.what();
  }
  m_exporter.reset();
}

void ExportRun::afterStep(const Simulation& sim) {
  if (!m_exporter) return;
  if (m_settings.everySeconds > 0.0 ? sim.time() >= m_next - 1e-12 : sim.stepCount() % m_settings.everySteps == 0)
    frame(sim);
}

void ExportRun::frame(const Simulation& sim) {
  try {
    m_exporter->exportStep(sim);
    m_frames = m_exporter->framesWritten();
  } catch (const std::exception& e) {
    m_error = e.what();
    m_exporter.reset();
    return;
  }
  if (m_settings.everySeconds > 0.0) {
    const double interval = m_settings.everySeconds;
    const double done = std::floor((sim.time() - m_start) / interval + 1e-9);  // intervals passed
    m_next = m_start + (done + 1.0) * interval;
  }
}

}  // namespace sloshlab::app
