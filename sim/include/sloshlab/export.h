// Files a run writes for outside scripts: the per-step stats table, particle dumps
// and the container's pose at each dump (design.md, headless command line).
// Every file is written under a temporary name and renamed when complete, so a
// reader never sees half a file; only a new name or a regular file is replaced
// (outputFileProblem in file_checks.h), never a device, FIFO or symbolic link.
#pragma once

#include "sloshlab/simulation.h"

#include <fstream>
#include <string>
#include <vector>

namespace sloshlab {

// Writes `text` to path atomically (a temporary "<path>.<pid>-<n>.tmp" in the same
// directory, then rename). Throws on failure.
void writeFileAtomically(const std::string& path, const std::string& text);

// One row per step: step,time,dt,particles,mass,momentum_*,angular_momentum_*,
// kinetic_energy,potential_energy,max_speed,density_error_max,density_error_mean,
// divergence_max,iterations,divergence_iterations,residual,collisions,wall_ms, then
// ms_<phase> for the solver's phases. A figure the solver does not measure is "nan".
// Rows stream to "<path>.<pid>-<n>.tmp"; finish() renames. The header waits for the first row
// that carries the solver's phases (step 0, before any step, has none).
class StatsWriter {
 public:
  StatsWriter(const std::string& path, int dim);
  ~StatsWriter();
  void write(const StepStats& stats);
  void finish();

 private:
  void writeHeader(const SolverReport& phases);
  void writeRow(const StepStats& stats);

  std::string m_path, m_tmp;
  std::ofstream m_out;
  int m_dim;
  bool m_headerDone = false;
  bool m_finished = false;
  std::vector<std::string> m_phases;
  std::vector<StepStats> m_pending;
};

// Why `dir` cannot take a run's exports, or "" when it can: it must be a writable
// directory, or one that can be created (its nearest existing ancestor a writable
// directory), and hold no export name (container.csv, particles_<step>.csv) that
// outputFileProblem refuses.
std::string exportDirProblem(const std::string& dir);
bool isExportFileName(const std::string& name);

// DIR/particles_<step>.csv (x,y[,z],vx,vy[,vz], world frame), and one container row
// per export appended to DIR/container.csv, so the folder is whole after every frame.
class ParticleExporter {
 public:
  ParticleExporter(const std::string& dir, int dim);
  void exportStep(const Simulation& sim);
  void finish();

 private:
  std::string m_dir;
  int m_dim;
  std::ofstream m_container;
  std::vector<Vec3> m_x, m_v;
};

}  // namespace sloshlab
