#include "sloshlab/export.h"

#include "sloshlab/file_checks.h"

#include "io/atomic_file.h"
#include "io/export_formats.h"


#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <stdexcept>

namespace sloshlab {

namespace {

// A solver phase's stats column: ms_<phase>, with anything but letters, digits and
// underscores (the hybrid solvers' "pressure change", the GPU path's "gpu step") as an
// underscore, so that every header cell is one word ("ms_pressure change" was not).
std::string phaseColumn(const char* phase) {
  std::string column = std::string("ms_") + phase;
  for (char& c : column)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') c = '_';
  return column;
}

}  // namespace

// ---------------------------------------------------------------- stats

StatsWriter::StatsWriter(const std::string& path, int dim) : m_path(path), m_tmp(temporaryName(path)), m_dim(dim) {
  requireReplaceable(path);
  m_out.open(m_tmp, std::ios::trunc);
  if (!m_out) throw std::runtime_error("cannot write stats file '" + path + "'");
  m_out.precision(10);
}

StatsWriter::~StatsWriter() {
  if (!m_finished) {
    m_out.close();
    std::remove(m_tmp.c_str());
  }
}

void StatsWriter::write(const StepStats& s) {
  if (!m_headerDone) {
    if (s.solver.phaseCount == 0) {
      m_pending.push_back(s);
      return;
    }
    writeHeader(s.solver);
  }
  writeRow(s);
}

void StatsWriter::writeHeader(const SolverReport& phases) {
  const char* axes[] = {"x", "y", "z"};
  m_out << "step,time,dt,particles,mass";
  for (int k = 0; k < m_dim; ++k) m_out << ",momentum_" << axes[k];
  if (m_dim == 2) m_out << ",angular_momentum_z";
  else m_out << ",angular_momentum_x,angular_momentum_y,angular_momentum_z";
  m_out << ",kinetic_energy,potential_energy,max_speed,density_error_max,density_error_mean,divergence_max"
           ",iterations,divergence_iterations,residual,collisions,wall_ms,liquid_volume";
  for (int k = 0; k < phases.phaseCount; ++k) {
    m_phases.emplace_back(phases.phases[k].name);
    m_out << ',' << phaseColumn(phases.phases[k].name);
  }
  m_out << "\n";
  m_headerDone = true;
  for (const StepStats& pending : m_pending) writeRow(pending);
  m_pending.clear();
}

namespace {
// A figure for the stats file: NaN always as "nan" (the C library writes "-nan" for a
// negative one, as a blown-up step's energies were).
struct Figure {
  double value;
};
std::ostream& operator<<(std::ostream& out, Figure f) {
  if (std::isnan(f.value)) return out << "nan";
  return out << f.value;
}
}  // namespace

void StatsWriter::writeRow(const StepStats& s) {
  m_out << s.step << ',' << Figure{s.time} << ',' << Figure{s.dt} << ',' << s.particles << ',' << Figure{s.mass};
  for (int k = 0; k < m_dim; ++k) m_out << ',' << Figure{s.momentum[k]};
  if (m_dim == 2) m_out << ',' << Figure{s.angularMomentum.z};
  else
    m_out << ',' << Figure{s.angularMomentum.x} << ',' << Figure{s.angularMomentum.y} << ','
          << Figure{s.angularMomentum.z};
  const SolverReport& r = s.solver;
  m_out << ',' << Figure{s.kineticEnergy} << ',' << Figure{s.potentialEnergy} << ',' << Figure{s.maxSpeed} << ','
        << Figure{r.densityErrorMax} << ',' << Figure{r.densityErrorMean} << ',' << Figure{r.divergenceMax} << ','
        << r.iterations << ',' << r.divergenceIterations << ',' << Figure{r.residual} << ',' << r.collisions << ','
        << Figure{s.wallMs} << ',' << Figure{r.liquidVolume};
  // Phase columns follow the header; a row without phases (step 0) reads nan there.
  for (std::size_t k = 0; k < m_phases.size(); ++k) {
    m_out << ',';
    if (static_cast<int>(k) < r.phaseCount) m_out << Figure{r.phases[k].ms};
    else m_out << "nan";
  }
  m_out << '\n';
}

void StatsWriter::finish() {
  if (!m_headerDone) writeHeader(SolverReport{});
  m_out.flush();
  const bool ok = static_cast<bool>(m_out);
  m_out.close();
  m_finished = true;  // the temporary file is replaceWith's (or removed) from here on
  if (!ok) {
    std::remove(m_tmp.c_str());
    throw std::runtime_error("cannot write stats file '" + m_path + "'");
  }
  replaceWith(m_tmp, m_path);
}

// ---------------------------------------------------------------- particles

namespace {
constexpr const char* kContainerFile = "container.csv";
constexpr const char* kParticleIndex = "particles.pvd";
constexpr const char* kContainerIndex = "container.pvd";
constexpr const char* kObstacleIndex = "obstacles.pvd";
constexpr const char* kBodyIndex = "bodies.pvd";

std::string frameFileName(const char* prefix, long step, const char* extension) {
  return std::string(prefix) + "_" + std::to_string(step) + "." + extension;
}

bool isFrameFileName(const std::string& name, const std::string& prefix) {
  const auto dot = name.rfind('.');
  if (dot == std::string::npos || name.rfind(prefix + "_", 0) != 0) return false;
  const std::string extension = name.substr(dot + 1);
  if (extension != "csv" && extension != "vtp" && extension != "ply") return false;
  const std::string digits = name.substr(prefix.size() + 1, dot - prefix.size() - 1);
  return !digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

const char* exportFormatName(ExportFormat format) {
  switch (format) {
    case ExportFormat::Csv: return "csv";
    case ExportFormat::Vtk: return "vtk";
    case ExportFormat::Ply: return "ply";
  }
  return "?";
}

std::optional<ExportFormat> parseExportFormat(const std::string& name) {
  for (ExportFormat f : {ExportFormat::Csv, ExportFormat::Vtk, ExportFormat::Ply})
    if (name == exportFormatName(f)) return f;
  return std::nullopt;
}

bool isExportFileName(const std::string& name) {
  if (name == kContainerFile || name == kParticleIndex || name == kContainerIndex || name == kObstacleIndex ||
      name == kBodyIndex)
    return true;
  return isFrameFileName(name, "particles") || isFrameFileName(name, "container") || isFrameFileName(name, "obstacles") ||
         isFrameFileName(name, "bodies");
}

std::string exportDirProblem(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    // create_directories will make the missing levels under the nearest one that exists.
    fs::path existing = fs::absolute(dir, ec).parent_path();
    while (!fs::exists(existing, ec) && existing.has_relative_path()) existing = existing.parent_path();
    const std::string problem = writableDirectoryProblem(existing.string());
    return problem.empty() ? "" : "cannot be created: " + problem;
  }
  if (const std::string problem = writableDirectoryProblem(dir); !problem.empty()) return problem;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (!isExportFileName(name)) continue;
    if (const std::string problem = outputFileProblem(entry.path().string()); !problem.empty())
      return "'" + name + "' " + problem;
  }
  return {};
}

// The folder is valid after every frame, so that a run stopped at any point leaves a
// consistent folder. CSV: the header of container.csv replaces any old file at the
// start, and each frame appends its row (one flushed write) once its particle file is
// complete; rewriting the whole file each frame would cost time quadratic in the frames.
// VTK: empty .pvd indexes replace any old ones at the start; each frame's .vtp files
// come first, then both indexes are rewritten atomically (they are small: about 80
// bytes per frame, against megabytes of particles).
ParticleExporter::ParticleExporter(const std::string& dir, int dim, ExportFormat format)
    : m_dir(dir), m_dim(dim), m_format(format) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir))
    throw std::runtime_error("cannot create export directory '" + dir + "'");
  if (m_format == ExportFormat::Vtk) writeIndexes();
  if (m_format != ExportFormat::Csv) return;
  const std::string path = m_dir + "/" + kContainerFile;
  writeFileAtomically(path, m_dim == 2 ? "step,time,x,y,angle,size_x,size_y\n"
                                       : "step,time,x,y,z,angle,size_x,size_y,size_z,angle_x,angle_y\n");
  m_container.open(path, std::ios::app);
  if (!m_container) throw std::runtime_error("cannot write '" + path + "'");
}

void ParticleExporter::exportStep(const Simulation& sim) {
  sim.worldParticles(m_x, m_v);
  switch (m_format) {
    case ExportFormat::Csv: exportCsv(sim); break;
    case ExportFormat::Vtk: exportVtk(sim); break;
    case ExportFormat::Ply: exportPly(sim); break;
  }
  ++m_frames;
}

void ParticleExporter::exportCsv(const Simulation& sim) {
  // Each number the shortest text that reads back as the same double: lossless.
  std::string out = m_dim == 2 ? "x,y,vx,vy\n" : "x,y,z,vx,vy,vz\n";
  out.reserve(out.size() + m_x.size() * 2 * m_dim * 21);
  for (std::size_t i = 0; i < m_x.size(); ++i) {
    for (int k = 0; k < m_dim; ++k) appendShortest(out, m_x[i][k]), out += ',';
    for (int k = 0; k < m_dim; ++k) appendShortest(out, m_v[i][k]), out += k + 1 < m_dim ? ',' : '\n';
  }
  writeFileAtomically(m_dir + "/" + frameFileName("particles", sim.stepCount(), "csv"), out);

  const ContainerState& c = sim.container();
  std::ostringstream row;
  row.precision(10);
  row << sim.stepCount() << ',' << sim.time();
  for (int k = 0; k < m_dim; ++k) row << ',' << c.pose.position[k];
  row << ',' << c.pose.angle;
  for (int k = 0; k < m_dim; ++k) row << ',' << c.size[k];
  if (m_dim == 3) row << ',' << c.pose.angleX << ',' << c.pose.angleY;
  m_container << row.str() << '\n' << std::flush;
  if (!m_container) throw std::runtime_error("cannot write '" + m_dir + "/" + kContainerFile + "'");
}

void ParticleExporter::exportVtk(const Simulation& sim) {
  const bool hasDensity = sim.field(FieldKind::Density, m_density);
  const bool hasPressure = sim.field(FieldKind::Pressure, m_pressure);
  const ExportFrame frame{m_dim, sim.time(), m_x, m_v};
  std::vector<NamedArray> arrays;
  if (hasDensity) arrays.push_back({"density", &m_density});
  if (hasPressure) arrays.push_back({"pressure", &m_pressure});
  const long step = sim.stepCount();
  writeFileAtomically(m_dir + "/" + frameFileName("particles", step, "vtp"), vtkParticles(frame, arrays));
  writeFileAtomically(m_dir + "/" + frameFileName("container", step, "vtp"), vtkContainer(sim.container(), m_dim, sim.time()));
  // The obstacles where the container stands (physics.md §15), for ParaView beside it.
  const std::vector<Obstacle>& obstacles = sim.setup().scene.obstacles;
  m_obstacles = !obstacles.empty();
  if (m_obstacles)
    writeFileAtomically(m_dir + "/" + frameFileName("obstacles", step, "vtp"),
                        vtkTriangles(obstacleTriangles(obstacles, sim.container(), m_dim), sim.time()));
  // The floating bodies where they are now (physics.md §16).
  const std::vector<BodyView> bodies = sim.bodies();
  m_bodies = !bodies.empty();
  if (m_bodies)
    writeFileAtomically(m_dir + "/" + frameFileName("bodies", step, "vtp"),
                        vtkTriangles(bodyTriangles(bodies, sim.container(), m_dim), sim.time()));
  m_index.push_back({sim.time(), step});
  writeIndexes();
}

void ParticleExporter::exportPly(const Simulation& sim) {
  sim.field(FieldKind::Speed, m_speed);
  const ExportFrame frame{m_dim, sim.time(), m_x, m_v};
  const long step = sim.stepCount();
  writeFileAtomically(m_dir + "/" + frameFileName("particles", step, "ply"), plyParticles(frame, step, m_speed));
  writeFileAtomically(m_dir + "/" + frameFileName("container", step, "ply"),
                      plyContainer(sim.container(), m_dim, step, sim.time()));
  const std::vector<Obstacle>& obstacles = sim.setup().scene.obstacles;
  if (!obstacles.empty())
    writeFileAtomically(m_dir + "/" + frameFileName("obstacles", step, "ply"),
                        plyTriangles(obstacleTriangles(obstacles, sim.container(), m_dim), step, sim.time()));
  const std::vector<BodyView> bodies = sim.bodies();
  if (!bodies.empty())
    writeFileAtomically(m_dir + "/" + frameFileName("bodies", step, "ply"),
                        plyTriangles(bodyTriangles(bodies, sim.container(), m_dim), step, sim.time()));
}

void ParticleExporter::writeIndexes() {
  std::vector<TimeSeriesEntry> particles, container, obstacles, bodies;
  for (const IndexEntry& e : m_index) {
    particles.push_back({e.time, frameFileName("particles", e.step, "vtp")});
    container.push_back({e.time, frameFileName("container", e.step, "vtp")});
    obstacles.push_back({e.time, frameFileName("obstacles", e.step, "vtp")});
    bodies.push_back({e.time, frameFileName("bodies", e.step, "vtp")});
  }
  writeFileAtomically(m_dir + "/" + kParticleIndex, vtkTimeSeries(particles));
  writeFileAtomically(m_dir + "/" + kContainerIndex, vtkTimeSeries(container));
  if (m_obstacles) writeFileAtomically(m_dir + "/" + kObstacleIndex, vtkTimeSeries(obstacles));
  if (m_bodies) writeFileAtomically(m_dir + "/" + kBodyIndex, vtkTimeSeries(bodies));
}

void ParticleExporter::finish() {
  if (m_format != ExportFormat::Csv) return;
  m_container.close();
  if (m_container.fail()) throw std::runtime_error("cannot write '" + m_dir + "/" + kContainerFile + "'");
}

}  // namespace sloshlab
