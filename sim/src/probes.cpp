// Probes (sloshlab/probes.h): wave gauges (11.9) and pressure sensors (11.11).
#include "sloshlab/probes.h"

#include "sloshlab/file_checks.h"
#include "sloshlab/gauges.h"
#include "sloshlab/params.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <sstream>

namespace sloshlab {

namespace {

[[noreturn]] void fail(const std::string& text, const std::string& problem) {
  throw ProbeError("--probe '" + text + "': " + problem);
}

double readNumber(const std::string& text, const std::string& key, const std::string& value) {
  std::size_t used = 0;
  double x = 0.0;
  try {
    x = std::stod(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != value.size() || !std::isfinite(x)) fail(text, "'" + key + "' needs a finite number (got '" + value + "')");
  return x;
}

}  // namespace

Probe parseProbe(const std::string& text) {
  Probe p;
  p.text = text;
  const auto colon = text.find(':');
  const std::string kind = text.substr(0, colon);
  if (kind == "gauge") p.kind = Probe::Kind::Gauge;
  else if (kind == "sensor") p.kind = Probe::Kind::Sensor;
  else fail(text, "a probe is gauge:x=X or sensor:x=X,y=Y[,z=Z][,r=R] (got '" + kind + "')");
  if (colon == std::string::npos) fail(text, "needs its position after ':', e.g. " + kind + ":x=0.05");
  bool hasX = false;
  std::stringstream rest(text.substr(colon + 1));
  for (std::string item; std::getline(rest, item, ',');) {
    const auto eq = item.find('=');
    if (eq == std::string::npos) fail(text, "'" + item + "' is not key=value");
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    const double x = readNumber(text, key, value);
    if (key == "x") p.at.x = x, hasX = true;
    else if (key == "y" && p.kind == Probe::Kind::Sensor) p.at.y = x, p.hasY = true;
    else if (key == "z") p.at.z = x, p.hasZ = true;
    else if (key == "r" && p.kind == Probe::Kind::Sensor) {
      if (!(x > 0.0)) fail(text, "the radius r must be positive (got " + value + ")");
      p.radius = x;
    } else {
      fail(text, "unknown key '" + key + "' (a " + kind + " takes " +
                     (p.kind == Probe::Kind::Gauge ? "x and z" : "x, y, z and r") + ")");
    }
  }
  if (!hasX) fail(text, "needs x=");
  if (p.kind == Probe::Kind::Sensor && !p.hasY) fail(text, "a sensor needs y=");
  return p;
}

std::string placeProbe(Probe& p, const Simulation& sim) {
  const Vec3 size = sim.container().size;
  const int dim = sim.dim();
  const std::string where = "--probe '" + p.text + "': ";
  if (dim == 2 && p.hasZ) return where + "z is for 3D runs";
  if (dim == 3 && !p.hasZ) p.at.z = 0.5 * size.z;
  const char* axes = "xyz";
  for (int k = 0; k < dim; ++k) {
    if (k == 1 && p.kind == Probe::Kind::Gauge) continue;
    if (p.at[k] < 0.0 || p.at[k] > size[k])
      return where + std::string(1, axes[k]) + " = " + formatNumber(p.at[k]) + " m lies outside the container, [0, " +
             formatNumber(size[k]) + "] m";
  }
  if (p.kind == Probe::Kind::Sensor) {
    if (p.radius == 0.0) p.radius = 2.0 * sim.spacing();
    const double most = 0.5 * std::min(size.x, std::min(size.y, dim == 3 ? size.z : size.y));
    if (p.radius > most) return where + "the radius " + formatNumber(p.radius) + " m exceeds half the container, " + formatNumber(most) + " m";
  }
  return "";
}

double pressureAt(const Simulation& sim, const Vec3& at, double radius) {
  std::vector<float> pressure;
  if (!sim.field(FieldKind::Pressure, pressure)) return std::numeric_limits<double>::quiet_NaN();
  std::vector<Vec3> x, v;
  sim.containerParticles(x, v);
  double sum = 0.0;
  std::size_t count = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const Vec3 d = x[i] - at;
    if (glm::dot(d, d) > radius * radius) continue;
    sum += pressure[i];
    ++count;
  }
  return count > 0 ? sum / static_cast<double>(count) : 0.0;
}

ProbeSampler::ProbeSampler(std::vector<Probe> probes, double rate)
    : m_probes(std::move(probes)),
      m_pressureSum(m_probes.size(), 0.0),
      m_pressureTime(m_probes.size(), 0.0),
      m_interval(1.0 / rate) {}

std::string ProbeSampler::columnName(const Probe& p) {
  char name[96];
  if (p.kind == Probe::Kind::Gauge) std::snprintf(name, sizeof name, "h_m_at_x%g", p.at.x);
  else std::snprintf(name, sizeof name, "p_Pa_at_x%g_y%g", p.at.x, p.at.y);
  std::string out = name;
  if (p.hasZ) {
    std::snprintf(name, sizeof name, "_z%g", p.at.z);
    out += name;
  }
  return out;
}

std::string ProbeSampler::header() const {
  std::string out = "time";
  for (const Probe& p : m_probes) {
    out += ',';
    out += columnName(p);
  }
  return out;
}

bool ProbeSampler::sample(const Simulation& sim, std::vector<double>& row) {
  // The sensors' pressure of this step, weighted by its dt (the first call: weight 1).
  const double weight = m_next == 0 ? 1.0 : sim.time() - m_lastTime;
  m_lastTime = sim.time();
  for (std::size_t k = 0; k < m_probes.size(); ++k) {
    if (m_probes[k].kind != Probe::Kind::Sensor) continue;
    const double p = pressureAt(sim, m_probes[k].at, m_probes[k].radius);
    if (std::isfinite(p)) m_pressureSum[k] += weight * p, m_pressureTime[k] += weight;
  }
  if (sim.time() < static_cast<double>(m_next) * m_interval - 1e-12) return false;
  row.assign(1, sim.time());
  for (std::size_t k = 0; k < m_probes.size(); ++k) {
    const Probe& p = m_probes[k];
    if (p.kind == Probe::Kind::Gauge) {
      row.push_back(WaveGauges({p.at.x}, {p.at.z}).heights(sim).front());
    } else {
      row.push_back(m_pressureTime[k] > 0.0 ? m_pressureSum[k] / m_pressureTime[k] : std::nan(""));
      m_pressureSum[k] = m_pressureTime[k] = 0.0;
    }
  }
  while (static_cast<double>(m_next) * m_interval <= sim.time() + 1e-12) ++m_next;
  return true;
}

ProbeRecorder::ProbeRecorder(std::vector<Probe> probes, double rate, std::string path)
    : m_sampler(std::move(probes), rate), m_path(std::move(path)) {
  m_tmp = m_path + "." + std::to_string(::getpid()) + ".tmp";
  m_out.open(m_tmp, std::ios::binary);
  if (!m_out) throw std::runtime_error("cannot write '" + m_path + "'");
  m_out.precision(10);
  m_out << m_sampler.header() << '\n';
}

ProbeRecorder::~ProbeRecorder() {
  if (!m_finished) {
    m_out.close();
    std::error_code ec;
    std::filesystem::remove(m_tmp, ec);
  }
}

void ProbeRecorder::sample(const Simulation& sim) {
  if (!m_sampler.sample(sim, m_row)) return;
  for (std::size_t k = 0; k < m_row.size(); ++k) m_out << (k ? "," : "") << m_row[k];
  m_out << '\n';
}

void ProbeRecorder::finish() {
  m_out.close();
  if (!m_out) throw std::runtime_error("cannot write '" + m_path + "'");
  std::filesystem::rename(m_tmp, m_path);
  m_finished = true;
}

std::string probeCsv(const ProbeSampler& sampler, const std::vector<std::vector<double>>& rows) {
  std::ostringstream out;
  out.precision(10);
  out << sampler.header() << '\n';
  for (const auto& row : rows) {
    for (std::size_t k = 0; k < row.size(); ++k) out << (k ? "," : "") << row[k];
    out << '\n';
  }
  return out.str();
}

}  // namespace sloshlab
