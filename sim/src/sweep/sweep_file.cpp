// Sweep files (sloshlab/sweep.h): read, expanded into runs, every run checked before
// any of them starts.
#include "sloshlab/sweep.h"

#include "sloshlab/file_checks.h"
#include "sloshlab/params.h"
#include "sloshlab/run_settings.h"
#include "sloshlab/scene.h"
#include "sloshlab/solver_registry.h"

#include "io/json_text.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>

namespace sloshlab {

namespace {

// ordered_json keeps the file's order: a grid's last key varies fastest, as written.
using json = nlohmann::ordered_json;

constexpr std::size_t kMostRuns = 10000;  // a sweep larger than this is a typing error

// The keys of a run, and of its motion (MotionSpec's fields).
const std::set<std::string> kRunKeys{"scene", "solver", "dim", "spacing", "duration", "seed", "params", "motion", "gauges"};
const std::set<std::string> kMotionKeys{"kind",     "axis",  "amplitude", "frequency", "frequency_end", "duration",
                                        "acceleration", "distance", "rate", "angle", "speed", "ramp_time"};

std::string keyList(const std::set<std::string>& keys) {
  std::string out;
  for (const auto& k : keys) out += (out.empty() ? "" : ", ") + k;
  return out;
}

class SweepReader {
 public:
  explicit SweepReader(std::string origin) : m_origin(std::move(origin)) {}

  [[noreturn]] void fail(const std::string& where, const std::string& problem) const {
    throw SweepError("sweep '" + m_origin + "': " + (where.empty() ? "" : where + ": ") + problem);
  }

  void allowOnly(const json& obj, const std::string& where, const std::set<std::string>& keys) const {
    if (!obj.is_object()) fail(where, "expected an object");
    for (auto it = obj.begin(); it != obj.end(); ++it)
      if (!keys.count(it.key())) fail(where, "unknown key '" + it.key() + "' (known: " + keyList(keys) + ")");
  }

  double number(const json& v, const std::string& where, double lo, double hi) const {
    if (!v.is_number()) fail(where, "must be a number");
    const std::optional<double> x = fitRange(v.get<double>(), lo, hi);
    if (!x) fail(where, formatNumber(v.get<double>()) + " is out of range " + describeRange(lo, hi));
    return *x;
  }

  std::string text(const json& v, const std::string& where) const {
    if (!v.is_string()) fail(where, "must be a string");
    return v.get<std::string>();
  }

 private:
  std::string m_origin;
};

MotionKind motionKindFrom(const SweepReader& r, const json& v, const std::string& where) {
  const std::string name = r.text(v, where);
  std::string known;
  for (int k = 0; k < static_cast<int>(MotionKind::Count); ++k) {
    const auto kind = static_cast<MotionKind>(k);
    if (name == motionKindName(kind)) return kind;
    known += (known.empty() ? "" : ", ") + std::string(motionKindName(kind));
  }
  r.fail(where, "unknown motion '" + name + "' (known: " + known + ")");
}

MotionSpec readMotion(const SweepReader& r, const json& m, const std::string& where, int dim) {
  r.allowOnly(m, where, kMotionKeys);
  MotionSpec s;
  if (m.contains("kind")) s.kind = motionKindFrom(r, m.at("kind"), where + ".kind");
  auto num = [&](const char* key, double& field, double lo, double hi) {
    if (m.contains(key)) field = r.number(m.at(key), where + "." + key, lo, hi);
  };
  if (m.contains("axis")) {
    const double axis = r.number(m.at("axis"), where + ".axis", 0, 1);
    if (axis != 0.0 && axis != 1.0) r.fail(where + ".axis", "is 0 (x) or 1 (y)");
    s.axis = static_cast<int>(axis);
  }
  num("amplitude", s.amplitude, 0.0, 10.0);
  num("frequency", s.frequency, 0.0, 100.0);
  num("frequency_end", s.frequencyEnd, 0.0, 100.0);
  num("duration", s.duration, 0.0, 600.0);
  num("acceleration", s.acceleration, -1000.0, 1000.0);
  num("distance", s.distance, -10.0, 10.0);
  num("rate", s.rate, -100.0, 100.0);
  num("angle", s.angle, -10.0, 10.0);
  num("speed", s.speed, -100.0, 100.0);
  num("ramp_time", s.rampTime, 0.0, 10.0);
  try {
    (void)makeMotion(s, dim);  // its own checks: the axis, positive durations, a spin in 2D, ...
  } catch (const std::exception& e) {
    r.fail(where, e.what());
  }
  return s;
}

// One run from its JSON object (the base with an item's changes).
// `scenes` keeps each scene read once: a grid of thousands of runs names a handful.
SweepRun readRun(const SweepReader& r, const json& o, const std::string& where, std::map<std::string, Scene>& scenes) {
  r.allowOnly(o, where, kRunKeys);
  SweepRun run;
  if (o.contains("scene")) run.scene = r.text(o.at("scene"), where + ".scene");
  if (!scenes.count(run.scene)) {
    try {
      scenes[run.scene] = loadScene(run.scene);
    } catch (const std::exception& e) {
      r.fail(where + ".scene", e.what());
    }
  }
  const Scene& scene = scenes.at(run.scene);
  if (o.contains("solver")) run.solver = r.text(o.at("solver"), where + ".solver");
  const std::string solver = run.solver.empty() ? scene.solver : run.solver;
  if (!findSolverInfo(solver)) r.fail(where + ".solver", "unknown solver '" + solver + "' (known: " + solverNameList() + ")");
  if (o.contains("dim")) {
    const double d = r.number(o.at("dim"), where + ".dim", 2, 3);
    if (d != 2.0 && d != 3.0) r.fail(where + ".dim", "must be 2 or 3");
    run.dim = static_cast<int>(d);
  }
  if (o.contains("spacing")) {
    const ParamInfo& s = runSetting("spacing");
    run.spacing = r.number(o.at("spacing"), where + ".spacing", s.min, s.max);
  }
  if (o.contains("duration")) {
    run.duration = r.number(o.at("duration"), where + ".duration", 0.0, 1e6);
    if (run.duration <= 0.0) r.fail(where + ".duration", "must be positive");
  }
  if (o.contains("seed")) {
    const double seed = r.number(o.at("seed"), where + ".seed", 0.0, 9007199254740992.0);
    if (seed != std::floor(seed)) r.fail(where + ".seed", "must be a whole number");
    run.seed = static_cast<std::uint64_t>(seed);
  }
  if (o.contains("params")) {
    const json& p = o.at("params");
    if (!p.is_object()) r.fail(where + ".params", "expected an object of key: value");
    for (auto it = p.begin(); it != p.end(); ++it) run.params[it.key()] = jsonValueText(it.value());
    try {
      validateSolverParams(solver, run.params);
    } catch (const std::exception& e) {
      r.fail(where + ".params", e.what());
    }
  }
  if (o.contains("motion") && !o.at("motion").is_null()) run.motion = readMotion(r, o.at("motion"), where + ".motion", run.dim);
  if (o.contains("gauges")) {
    const json& g = o.at("gauges");
    if (!g.is_array() || g.empty() || g.size() > 16) r.fail(where + ".gauges", "must be a list of 1 to 16 x positions (m)");
    for (std::size_t k = 0; k < g.size(); ++k) {
      const double x = r.number(g[k], where + ".gauges[" + std::to_string(k) + "]", 0.0, scene.containerSize.x);
      run.gauges.push_back(x);
    }
  }
  return run;
}

// base with one change: "key", or "params.KEY" / "motion.KEY" into those objects.
void applyChange(const SweepReader& r, json& run, const std::string& key, const json& value, const std::string& where) {
  const auto dot = key.find('.');
  if (dot == std::string::npos) {
    if (!kRunKeys.count(key)) r.fail(where, "unknown key '" + key + "' (known: " + keyList(kRunKeys) + ", params.KEY, motion.KEY)");
    run[key] = value;
    return;
  }
  const std::string outer = key.substr(0, dot), inner = key.substr(dot + 1);
  if ((outer != "params" && outer != "motion") || inner.empty())
    r.fail(where, "unknown key '" + key + "' (a dotted key is params.KEY or motion.KEY)");
  if (!run.contains(outer) || run[outer].is_null()) run[outer] = json::object();
  if (!run[outer].is_object()) r.fail(where, "'" + outer + "' of the base must be an object to take '" + key + "'");
  run[outer][inner] = value;
}

std::string labelOf(const std::vector<std::pair<std::string, const json*>>& changes) {
  std::string label;
  for (const auto& [key, value] : changes) label += (label.empty() ? "" : " ") + key + "=" + jsonValueText(*value);
  return label.empty() ? "base" : label;
}

}  // namespace

Sweep parseSweep(std::string_view jsonText, const std::string& origin) {
  const SweepReader r(origin);
  json doc;
  try {
    doc = json::parse(jsonText.begin(), jsonText.end());
  } catch (const json::exception& e) {
    r.fail("", "not valid JSON: " + withoutJsonTag(e.what()));
  }
  r.allowOnly(doc, "", {"name", "base", "grid", "runs"});
  Sweep sweep;
  sweep.origin = origin;
  sweep.name = doc.contains("name") ? r.text(doc.at("name"), "name") : std::filesystem::path(origin).stem().string();
  const json base = doc.contains("base") ? doc.at("base") : json::object();
  if (!base.is_object()) r.fail("base", "expected an object");
  if (doc.contains("grid") == doc.contains("runs")) r.fail("", "needs exactly one of 'grid' and 'runs'");

  // Every item as its list of changes to the base.
  std::vector<std::vector<std::pair<std::string, const json*>>> items;
  if (doc.contains("grid")) {
    const json& grid = doc.at("grid");
    if (!grid.is_object() || grid.empty()) r.fail("grid", "expected an object of key: [values], with at least one key");
    std::size_t count = 1;
    std::vector<std::pair<std::string, const json*>> axes;
    for (auto it = grid.begin(); it != grid.end(); ++it) {
      if (!it.value().is_array() || it.value().empty())
        r.fail("grid." + it.key(), "expected a list of at least one value");
      count *= it.value().size();
      if (count > kMostRuns) r.fail("grid", "expands to more than " + std::to_string(kMostRuns) + " runs");
      axes.emplace_back(it.key(), &it.value());
    }
    for (std::size_t n = 0; n < count; ++n) {
      std::vector<std::pair<std::string, const json*>> changes(axes.size());
      std::size_t rest = n;
      for (std::size_t k = axes.size(); k-- > 0;) {
        const auto& [key, values] = axes[k];
        changes[k] = {key, &(*values)[rest % values->size()]};
        rest /= values->size();
      }
      items.push_back(std::move(changes));
    }
  } else {
    const json& runs = doc.at("runs");
    if (!runs.is_array() || runs.empty()) r.fail("runs", "expected a list of at least one object of changes");
    if (runs.size() > kMostRuns) r.fail("runs", "holds more than " + std::to_string(kMostRuns) + " runs");
    for (std::size_t n = 0; n < runs.size(); ++n) {
      const json& change = runs[n];
      if (!change.is_object()) r.fail("runs[" + std::to_string(n) + "]", "expected an object of changes");
      std::vector<std::pair<std::string, const json*>> changes;
      for (auto it = change.begin(); it != change.end(); ++it) changes.emplace_back(it.key(), &it.value());
      items.push_back(std::move(changes));
    }
  }

  std::map<std::string, Scene> scenes;
  for (std::size_t n = 0; n < items.size(); ++n) {
    json run = base;
    const std::string where = doc.contains("grid") ? "grid item " + std::to_string(n) : "runs[" + std::to_string(n) + "]";
    for (const auto& [key, value] : items[n]) applyChange(r, run, key, *value, where);
    SweepRun parsed = readRun(r, run, where, scenes);
    parsed.index = n;
    parsed.label = labelOf(items[n]);
    sweep.runs.push_back(std::move(parsed));
  }
  return sweep;
}

Sweep loadSweep(const std::string& path) {
  const std::string problem = inputFileProblem(path);
  if (!problem.empty()) throw SweepError("sweep '" + path + "': " + problem);
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) throw SweepError("sweep '" + path + "': cannot be read");
  return parseSweep(text.str(), path);
}

}  // namespace sloshlab
