// Running one item of a sweep into its own folder, and merging the finished runs'
// summaries into one table (sloshlab/sweep.h).
#include "sloshlab/sweep.h"

#include "sloshlab/atomic_file.h"
#include "sloshlab/export.h"
#include "sloshlab/gauges.h"
#include "sloshlab/simulation.h"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace sloshlab {

namespace fs = std::filesystem;

namespace {

using json = nlohmann::ordered_json;

constexpr double kGaugeInterval = 0.01;  // simulated s between gauge rows

std::string hostName() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "host";
  return name;
}

// A process that still runs: one that exists and is not a zombie. A run killed with its
// sweep is reparented, and where nothing reaps orphans (a container's first process)
// it stays a zombie, which kill(pid, 0) still finds.
bool processRuns(long pid) {
  if (pid <= 0 || ::kill(static_cast<pid_t>(pid), 0) != 0) return false;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const std::size_t close = text.rfind(')');  // the name in parentheses may hold spaces
  return close == std::string::npos || close + 2 >= text.size() || text[close + 2] != 'Z';
}

// Work under way is kept as "run_0007.partial-HOST-PID" and renamed when complete. A
// partial folder of this host whose process is gone was left by a killed run.
void removeStalePartials(const std::string& outDir, const std::string& folderName) {
  const std::string prefix = folderName + ".partial-" + hostName() + "-";
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(outDir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const long pid = std::atol(name.c_str() + prefix.size());
    if (processRuns(pid)) continue;
    fs::remove_all(entry.path(), ec);
  }
}

json motionJson(const MotionSpec& m) {
  json j;
  j["kind"] = motionKindName(m.kind);
  j["axis"] = m.axis;
  switch (m.kind) {
    case MotionKind::Shake:
    case MotionKind::Swirl:
      j["amplitude"] = m.amplitude, j["frequency"] = m.frequency, j["duration"] = m.duration;
      break;
    case MotionKind::Sweep:
      j["amplitude"] = m.amplitude, j["frequency"] = m.frequency, j["frequency_end"] = m.frequencyEnd;
      j["duration"] = m.duration;
      break;
    case MotionKind::Acceleration: j["acceleration"] = m.acceleration, j["duration"] = m.duration; break;
    case MotionKind::Step: j["distance"] = m.distance, j["ramp_time"] = m.rampTime; break;
    case MotionKind::Rotation:
    case MotionKind::Spin:
      j["rate"] = m.rate, j["duration"] = m.duration, j["ramp_time"] = m.rampTime;
      break;
    case MotionKind::Tilt: j["angle"] = m.angle, j["ramp_time"] = m.rampTime; break;
    case MotionKind::Impulse: j["speed"] = m.speed, j["ramp_time"] = m.rampTime; break;
    case MotionKind::Count: break;
  }
  return j;
}

// A number with its shortest exact text; NaN (not measured) as null.
json numberOrNull(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }

std::string gaugeHeader(const std::vector<double>& x) {
  std::string header = "time";
  for (const double g : x) {
    char name[48];
    std::snprintf(name, sizeof name, ",eta_%g", g);
    header += name;
  }
  return header + "\n";
}

}  // namespace

std::string sweepRunFolder(const std::string& outDir, std::size_t index) {
  char name[32];
  std::snprintf(name, sizeof name, "run_%04zu", index);
  return (fs::path(outDir) / name).string();
}

bool sweepRunFinished(const std::string& outDir, std::size_t index) {
  std::error_code ec;
  return fs::is_regular_file(fs::path(sweepRunFolder(outDir, index)) / "summary.json", ec);
}

std::string sweepSummaryLine(const SweepRun& run, const SweepOutcome& o) {
  json j;
  j["index"] = run.index;
  j["label"] = run.label;
  j["scene"] = run.scene;
  j["solver"] = o.solver;
  j["dim"] = run.dim;
  j["spacing"] = o.spacing;
  j["duration"] = o.duration;
  j["seed"] = run.seed;
  json params = json::object();
  for (const auto& [key, value] : run.params) params[key] = value;
  j["params"] = params;
  j["motion"] = run.motion ? motionJson(*run.motion) : json(nullptr);
  j["failed"] = o.failed;
  j["failure"] = o.failure;
  j["particles"] = o.particles;
  j["steps"] = o.steps;
  j["time"] = o.time;
  j["wall_s"] = o.wallSeconds;
  j["kinetic_energy_end"] = numberOrNull(o.kineticEnergyEnd);
  j["density_error_max"] = numberOrNull(o.densityErrorMax);
  j["outside"] = o.outside;
  j["gauges"] = o.gaugeX;
  json hi = json::array(), lo = json::array();
  for (std::size_t k = 0; k < o.elevationMax.size(); ++k) {
    hi.push_back(numberOrNull(o.elevationMax[k]));
    lo.push_back(numberOrNull(o.elevationMin[k]));
  }
  j["elevation_max"] = hi;
  j["elevation_min"] = lo;
  return j.dump();
}

std::string runSweepItem(const Sweep& sweep, std::size_t index, const std::string& outDir) {
  if (index >= sweep.runs.size())
    throw SweepError("sweep '" + sweep.origin + "': index " + std::to_string(index) + " is out of range [0, " +
                     std::to_string(sweep.runs.size() - 1) + "]");
  const SweepRun& run = sweep.runs[index];
  const auto start = std::chrono::steady_clock::now();

  SimulationSetup setup;
  setup.scene = loadScene(run.scene);
  setup.dim = run.dim;
  setup.solver = run.solver;
  setup.spacing = run.spacing;
  for (const auto& [key, value] : run.params) setup.overrides.emplace_back(key, value);
  setup.seed = run.seed;
  if (run.motion) setup.motion = makeMotion(*run.motion, run.dim);
  auto sim = Simulation::create(setup);

  const std::string folder = sweepRunFolder(outDir, index);
  const std::string folderName = fs::path(folder).filename().string();
  fs::create_directories(outDir);
  removeStalePartials(outDir, folderName);
  const std::string partial = folder + ".partial-" + hostName() + "-" + std::to_string(::getpid());
  fs::create_directories(partial);

  SweepOutcome o;
  o.solver = sim->solverName();
  o.spacing = sim->spacing();
  o.duration = run.duration > 0.0 ? run.duration : setup.scene.duration;
  WaveGauges gauges = run.gauges.empty() ? WaveGauges::atWallsAndCentre(sim->container().size.x, sim->spacing())
                                         : WaveGauges(run.gauges);
  o.gaugeX = gauges.positions();
  const std::vector<double> level = gauges.heights(*sim);
  o.elevationMax.assign(level.size(), 0.0);
  o.elevationMin.assign(level.size(), 0.0);
  std::ostringstream gaugeRows;
  gaugeRows.precision(10);
  gaugeRows << gaugeHeader(o.gaugeX);
  auto sampleGauges = [&] {
    const std::vector<double> h = gauges.heights(*sim);
    gaugeRows << sim->time();
    for (std::size_t k = 0; k < h.size(); ++k) {
      const double eta = h[k] - level[k];
      o.elevationMax[k] = std::max(o.elevationMax[k], eta);
      o.elevationMin[k] = std::min(o.elevationMin[k], eta);
      gaugeRows << ',' << eta;
    }
    gaugeRows << '\n';
  };

  StatsWriter stats(partial + "/stats.csv", sim->dim());
  stats.write(sim->stats());
  sampleGauges();
  double nextSample = kGaugeInterval;
  o.densityErrorMax = kNotMeasured;
  while (!sim->failed() && sim->time() < o.duration - 1e-12) {
    sim->step(o.duration);
    stats.write(sim->stats());
    const double e = sim->stats().solver.densityErrorMax;
    if (std::isfinite(e)) o.densityErrorMax = std::isfinite(o.densityErrorMax) ? std::max(o.densityErrorMax, e) : e;
    if (!sim->failed() && sim->time() >= nextSample - 1e-12) {
      sampleGauges();
      while (nextSample <= sim->time() + 1e-12) nextSample += kGaugeInterval;
    }
  }
  stats.finish();
  writeFileAtomically(partial + "/gauges.csv", gaugeRows.str());

  o.failed = sim->failed();
  o.failure = sim->failureMessage();
  o.particles = sim->particleCount();
  o.steps = sim->stepCount();
  o.time = sim->time();
  const double mass = sim->stats().mass;
  o.kineticEnergyEnd = mass > 0.0 ? sim->stats().kineticEnergy / mass : kNotMeasured;
  o.outside = o.failed ? 0 : sim->countOutside();
  o.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::string line = sweepSummaryLine(run, o);
  writeFileAtomically(partial + "/summary.json", line + "\n");

  // The whole folder appears at once. Another process may have finished the same item
  // first (two array tasks given one index): its folder stays, this one goes.
  std::error_code ec;
  fs::rename(partial, folder, ec);
  if (ec) fs::remove_all(partial, ec);
  return line;
}

std::size_t mergeSweep(const Sweep& sweep, const std::string& outDir, std::vector<std::size_t>* missing) {
  std::vector<std::string> columns;
  std::vector<std::map<std::string, std::string>> rows;
  auto cell = [](const json& v) -> std::string {
    if (v.is_null()) return "nan";
    if (v.is_string()) {
      const std::string s = v.get<std::string>();
      if (s.find_first_of(",\"\n") == std::string::npos) return s;
      std::string quoted = "\"";
      for (const char c : s) quoted += c == '"' ? std::string("\"\"") : std::string(1, c == '\n' ? ' ' : c);
      return quoted + "\"";
    }
    if (v.is_boolean()) return v.get<bool>() ? "1" : "0";
    return v.dump();
  };
  for (const SweepRun& run : sweep.runs) {
    if (!sweepRunFinished(outDir, run.index)) {
      if (missing) missing->push_back(run.index);
      continue;
    }
    const std::string path = (fs::path(sweepRunFolder(outDir, run.index)) / "summary.json").string();
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    json j;
    try {
      j = json::parse(text.str());
    } catch (const json::exception&) {
      throw SweepError("sweep '" + sweep.origin + "': '" + path + "' is not a summary line");
    }
    std::map<std::string, std::string> row;
    auto put = [&](const std::string& key, const json& v) {
      if (!row.count(key) && std::find(columns.begin(), columns.end(), key) == columns.end()) columns.push_back(key);
      row[key] = cell(v);
    };
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (it.value().is_object()) {
        for (auto in2 = it.value().begin(); in2 != it.value().end(); ++in2) put(it.key() + "." + in2.key(), in2.value());
      } else if (it.value().is_array()) {
        for (std::size_t k = 0; k < it.value().size(); ++k) put(it.key() + "." + std::to_string(k), it.value()[k]);
      } else {
        put(it.key(), it.value());
      }
    }
    rows.push_back(std::move(row));
  }
  std::string csv;
  for (std::size_t c = 0; c < columns.size(); ++c) csv += (c ? "," : "") + columns[c];
  csv += "\n";
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const auto it = row.find(columns[c]);
      csv += (c ? "," : "") + (it == row.end() ? std::string("nan") : it->second);
    }
    csv += "\n";
  }
  writeFileAtomically((fs::path(outDir) / "summary.csv").string(), csv);
  return rows.size();
}

}  // namespace sloshlab
