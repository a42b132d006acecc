// Particle files written while the window runs: the Export panel's (command::StartExport)
// or --export's. A frame when it starts, then one every `everySteps` steps or, when
// everySeconds > 0, at the first step on or after each multiple of everySeconds of
// simulated time since the start. Errors never leave it: error() says what went wrong,
// and a failed frame ends the export with the frames before it whole.
#pragma once

#include "sloshlab/export.h"
#include "sloshlab/simulation.h"

#include <memory>
#include <string>

namespace sloshlab::app {

struct ExportSettings {
  std::string dir;
  ExportFormat format = ExportFormat::Csv;
  long everySteps = 1;
  double everySeconds = 0.0;
};

class ExportRun {
 public:
  // Replaces a running export; writes the first frame of `sim` at once.
  void start(const ExportSettings& settings, const Simulation& sim);
  void stop();                             // finishes the files
  void afterStep(const Simulation& sim);   // a frame when one is due
  bool active() const { return m_exporter != nullptr; }
  const ExportSettings& settings() const { return m_settings; }
  long frames() const { return m_frames; }  // written by the last export started
  const std::string& error() const { return m_error; }

 private:
  void frame(const Simulation& sim);

  std::unique_ptr<ParticleExporter> m_exporter;
  ExportSettings m_settings;
  double m_start = 0.0;  // simulated time of the first frame
  double m_next = 0.0;   // with everySeconds: the time of the next frame
  long m_frames = 0;
  std::string m_error;
};

}  // namespace sloshlab::app
