// Files a run writes for outside scripts: the per-step stats table, particle dumps
// and the container's pose at each dump (design.md, headless command line), as CSV,
// VTK XML PolyData (ParaView) or binary PLY (Blender).
// Every file is written under a temporary name and renamed when complete, so a
// reader never sees half a file; only a new name or a regular file is replaced
// (outputFileProblem in file_checks.h), never a device, FIFO or symbolic link.
#pragma once

#include "sloshlab/atomic_file.h"  // every file here is written as writeFileAtomically does
#include "sloshlab/simulation.h"

#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace sloshlab {

// One row per step: step,time,dt,particles,mass,momentum_*,angular_momentum_*,
// kinetic_energy,potential_energy,max_speed,density_error_max,density_error_mean,
// divergence_max,iterations,divergence_iterations,residual,collisions,wall_ms,liquid_volume
// (the hybrid solvers' cells holding particles times a cell's volume: m^2 in 2D), then
// ms_<phase> for the solver's phases (a space in a phase's name as "_": ms_pressure_change).
// A figure the solver does not measure is "nan".
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

// How particle files are written: CSV tables (the default), VTK XML PolyData with a
// .pvd time-series index, or binary little-endian PLY.
enum class ExportFormat { Csv, Vtk, Ply };
const char* exportFormatName(ExportFormat format);  // "csv", "vtk", "ply"
std::optional<ExportFormat> parseExportFormat(const std::string& name);

// Why `dir` cannot take a run's exports, or "" when it can: it must be a writable
// directory, or one that can be created (its nearest existing ancestor a writable
// directory), and hold no export name (isExportFileName) that outputFileProblem
// refuses.
std::string exportDirProblem(const std::string& dir);
// The names an export of any format writes: container.csv, particles.pvd,
// container.pvd, and particles_<step> / container_<step> with .csv, .vtp or .ply.
bool isExportFileName(const std::string& name);

// Writes one frame per exportStep into DIR, the world frame, 2D with z = 0:
// - Csv: particles_<step>.csv (x,y[,z],vx,vy[,vz]) and one container row per frame
//   appended to container.csv (step,time,x,y[,z],angle,size_x,size_y[,size_z]).
// - Vtk: particles_<step>.vtp (points; velocity, and density and pressure where the
//   solver has them) and container_<step>.vtp (the box's outline), each listed with
//   its simulated time in particles.pvd and container.pvd.
// - Ply: particles_<step>.ply (x y z vx vy vz float, red green blue uchar from the
//   speed in the container) and container_<step>.ply (the walls as quads).
// - With obstacles (sloshlab/solids.h), Vtk and Ply also write obstacles_<step>.vtp
//   (listed in obstacles.pvd) or .ply: their surface as triangles, where the container
//   stands; with floating bodies (sloshlab/bodies.h), bodies_<step>.vtp (bodies.pvd) or
//   .ply: theirs, where they are at the frame.
// Every file is written atomically and the indexes are rewritten after each frame's
// files, so the folder is whole after every frame, however the run ends.
class ParticleExporter {
 public:
  ParticleExporter(const std::string& dir, int dim, ExportFormat format = ExportFormat::Csv);
  void exportStep(const Simulation& sim);
  void finish();
  long framesWritten() const { return m_frames; }
  ExportFormat format() const { return m_format; }
  const std::string& dir() const { return m_dir; }

 private:
  struct IndexEntry {
    double time;
    long step;
  };
  void exportCsv(const Simulation& sim);
  void exportVtk(const Simulation& sim);
  void exportPly(const Simulation& sim);
  void writeIndexes();

  std::string m_dir;
  int m_dim;
  ExportFormat m_format;
  long m_frames = 0;
  std::ofstream m_container;
  std::vector<IndexEntry> m_index;
  bool m_obstacles = false;  // the scene has obstacles: their meshes and index are written too
  bool m_bodies = false;     // the scene has floating bodies: likewise
  std::vector<Vec3> m_x, m_v;
  std::vector<float> m_speed, m_density, m_pressure;
};

}  // namespace sloshlab
