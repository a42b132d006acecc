#include "sloshlab/scene.h"

#include "sloshlab/embedded.h"
#include "sloshlab/file_checks.h"
#include "sloshlab/params.h"
#include "sloshlab/probes.h"
#include "sloshlab/run_settings.h"
#include "sloshlab/solver_registry.h"

#include "io/json_text.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace sloshlab {

namespace embedded {
extern const EmbeddedFile kScenes[];
extern const std::size_t kScenesCount;
}  // namespace embedded

namespace {

using nlohmann::json;

class Reader {
 public:
  explicit Reader(std::string origin) : m_origin(std::move(origin)) {}

  [[noreturn]] void fail(const std::string& where, const std::string& problem) const {
    throw SceneError("scene '" + m_origin + "': " + (where.empty() ? "" : where + ": ") + problem);
  }

  void allowOnly(const json& obj, const std::string& where, std::initializer_list<const char*> keys) const {
    if (!obj.is_object()) fail(where, "expected an object");
    std::set<std::string> allowed(keys.begin(), keys.end());
    for (auto it = obj.begin(); it != obj.end(); ++it)
      if (!allowed.count(it.key())) {
        std::string list;
        for (const auto& k : allowed) list += (list.empty() ? "" : ", ") + k;
        fail(where, "unknown key '" + it.key() + "' (known: " + list + ")");
      }
  }

  double number(const json& obj, const char* key, const std::string& where, double fallback, double lo,
                double hi) const {
    if (!obj.contains(key)) return fallback;
    const json& v = obj.at(key);
    if (!v.is_number()) fail(where, std::string("'") + key + "' must be a number");
    const std::optional<double> x = fitRange(v.get<double>(), lo, hi);
    if (!x)
      fail(where, std::string("'") + key + "' = " + formatNumber(v.get<double>()) + " is out of range " +
                      describeRange(lo, hi));
    return *x;
  }

  bool flag(const json& obj, const char* key, const std::string& where, bool fallback) const {
    if (!obj.contains(key)) return fallback;
    if (!obj.at(key).is_boolean()) fail(where, std::string("'") + key + "' must be true or false");
    return obj.at(key).get<bool>();
  }

  std::string text(const json& obj, const char* key, const std::string& where, std::string fallback) const {
    if (!obj.contains(key)) return fallback;
    if (!obj.at(key).is_string()) fail(where, std::string("'") + key + "' must be a string");
    return obj.at(key).get<std::string>();
  }

  // A vector of 2 or 3 finite numbers; hasZ reports whether z was given.
  Vec3 vector(const json& obj, const char* key, const std::string& where, Vec3 fallback, bool* hasZ = nullptr,
              bool requireThree = false) const {
    if (hasZ) *hasZ = false;
    if (!obj.contains(key)) return fallback;
    const json& v = obj.at(key);
    const std::string what = std::string("'") + key + "'";
    if (!v.is_array() || v.size() < 2 || v.size() > 3 || (requireThree && v.size() != 3))
      fail(where, what + (requireThree ? " must be [x, y, z]" : " must be [x, y] or [x, y, z]"));
    Vec3 out = fallback;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (!v[i].is_number() || !std::isfinite(v[i].get<double>())) fail(where, what + " must hold numbers");
      out[static_cast<int>(i)] = v[i].get<double>();
    }
    if (hasZ) *hasZ = v.size() == 3;
    return out;
  }

 private:
  std::string m_origin;
};

FluidBlock readBlock(const Reader& r, const json& b, const std::string& where) {
  r.allowOnly(b, where, {"box", "sphere", "disc", "velocity", "angular_velocity"});
  FluidBlock block;
  int shapes = 0;
  if (b.contains("box")) {
    ++shapes;
    const json& box = b.at("box");
    r.allowOnly(box, where + ".box", {"min", "max"});
    if (!box.contains("min") || !box.contains("max")) r.fail(where + ".box", "needs 'min' and 'max'");
    bool zMin = false, zMax = false;
    block.shape = FluidBlock::Shape::Box;
    block.min = r.vector(box, "min", where + ".box", Vec3(0.0), &zMin);
    block.max = r.vector(box, "max", where + ".box", Vec3(0.0), &zMax);
    if (zMin != zMax) r.fail(where + ".box", "'min' and 'max' must both have 2 or both have 3 components");
    block.boxHasDepth = zMin;
    for (int k = 0; k < (zMin ? 3 : 2); ++k)
      if (!(block.max[k] > block.min[k])) r.fail(where + ".box", "'max' must exceed 'min' on every axis");
  }
  for (const char* round : {"sphere", "disc"}) {
    if (!b.contains(round)) continue;
    ++shapes;
    const json& s = b.at(round);
    const std::string w = where + "." + round;
    r.allowOnly(s, w, {"centre", "radius"});
    if (!s.contains("centre") || !s.contains("radius")) r.fail(w, "needs 'centre' and 'radius'");
    block.shape = std::string(round) == "sphere" ? FluidBlock::Shape::Sphere : FluidBlock::Shape::Disc;
    block.centre = r.vector(s, "centre", w, Vec3(0.0), &block.centreHasDepth);
    block.radius = r.number(s, "radius", w, 0.0, 1e-6, 1e3);
  }
  if (shapes != 1) r.fail(where, "needs exactly one shape: 'box', 'sphere' or 'disc'");
  block.velocity = r.vector(b, "velocity", where, Vec3(0.0));
  if (glm::length(block.velocity) > 1000.0) r.fail(where, "'velocity' exceeds 1000 m/s");
  block.angularVelocity = r.number(b, "angular_velocity", where, 0.0, -1e3, 1e3);
  return block;
}

// One obstacle: {"box": {"min", "max"}}, {"sphere"|"disc": {"centre", "radius"}} or
// {"capsule": {"a", "b", "radius"}} (solids.h); "inner" (inside "outside_of", or a hole
// of a "difference"): a plain shape only.
Obstacle readObstacle(const Reader& r, const json& o, const std::string& where, bool inner = false) {
  if (inner) r.allowOnly(o, where, {"box", "sphere", "disc", "capsule"});
  else r.allowOnly(o, where, {"box", "sphere", "disc", "capsule", "outside_of"});
  if (o.size() != 1)
    r.fail(where, std::string("needs exactly one shape: 'box', 'sphere', 'disc' or 'capsule'") +
                      (inner ? "" : " (or 'outside_of' one)"));
  if (o.begin().key() == "outside_of") {
    // The solid around a shape: the liquid stays inside it (solids.h).
    Obstacle out = readObstacle(r, o.begin().value(), where + ".outside_of", true);
    out.outside = true;
    return out;
  }
  Obstacle out;
  const std::string shape = o.begin().key();
  const json& s = o.begin().value();
  const std::string w = where + "." + shape;
  bool zA = false, zB = false;
  if (shape == "box") {
    out.shape = Obstacle::Shape::Box;
    r.allowOnly(s, w, {"min", "max"});
    if (!s.contains("min") || !s.contains("max")) r.fail(w, "needs 'min' and 'max'");
    out.min = r.vector(s, "min", w, Vec3(0.0), &zA);
    out.max = r.vector(s, "max", w, Vec3(0.0), &zB);
    if (zA != zB) r.fail(w, "'min' and 'max' must both have 2 or both have 3 components");
    for (int k = 0; k < (zA ? 3 : 2); ++k)
      if (!(out.max[k] > out.min[k])) r.fail(w, "'max' must exceed 'min' on every axis");
  } else if (shape == "capsule") {
    out.shape = Obstacle::Shape::Capsule;
    r.allowOnly(s, w, {"a", "b", "radius"});
    if (!s.contains("a") || !s.contains("b") || !s.contains("radius")) r.fail(w, "needs 'a', 'b' and 'radius'");
    out.a = r.vector(s, "a", w, Vec3(0.0), &zA);
    out.b = r.vector(s, "b", w, Vec3(0.0), &zB);
    if (zA != zB) r.fail(w, "'a' and 'b' must both have 2 or both have 3 components");
    out.radius = r.number(s, "radius", w, 0.0, 1e-6, 1e3);
  } else {
    out.shape = shape == "sphere" ? Obstacle::Shape::Sphere : Obstacle::Shape::Disc;
    r.allowOnly(s, w, {"centre", "radius"});
    if (!s.contains("centre") || !s.contains("radius")) r.fail(w, "needs 'centre' and 'radius'");
    out.centre = r.vector(s, "centre", w, Vec3(0.0), &zA);
    out.radius = r.number(s, "radius", w, 0.0, 1e-6, 1e3);
  }
  out.hasDepth = zA;
  for (const Vec3* v : {&out.min, &out.max, &out.centre, &out.a, &out.b})
    if (glm::length(*v) > 1e6) r.fail(w, "a coordinate exceeds 1e6 m");
  return out;
}

// {"box": {"size": [w, h(, d)]}, "density": 500, "position": [x, y(, z)], "angle": 0,
//  "velocity": [...]}; "ball": {"radius": r}; "capsule": {"length": L, "radius": r};
//  "hull": {"size": [deck, height(, length)], "bottom": keel}.
BodySpec readBody(const Reader& r, const json& o, const std::string& where) {
  r.allowOnly(o, where, {"box", "ball", "capsule", "hull", "density", "position", "angle", "velocity"});
  BodySpec out;
  int shapes = 0;
  for (const char* name : {"box", "ball", "capsule", "hull"})
    if (o.contains(name)) ++shapes;
  if (shapes != 1) r.fail(where, "needs exactly one shape: 'box', 'ball', 'capsule' or 'hull'");
  if (!o.contains("position")) r.fail(where, "needs a 'position' (its centre, in the container's frame)");
  if (o.contains("box")) {
    const std::string w = where + ".box";
    const json& s = o.at("box");
    r.allowOnly(s, w, {"size"});
    if (!s.contains("size")) r.fail(w, "needs 'size'");
    bool z = false;
    out.shape = BodySpec::Shape::Box;
    out.size = r.vector(s, "size", w, Vec3(0.0), &z);
    for (int k = 0; k < (z ? 3 : 2); ++k)
      if (!(out.size[k] > 0.0) || out.size[k] > 1e3) r.fail(w, "'size' must be positive (and at most 1000 m) on every axis");
  } else if (o.contains("hull")) {
    const std::string w = where + ".hull";
    const json& s = o.at("hull");
    r.allowOnly(s, w, {"size", "bottom"});
    if (!s.contains("size") || !s.contains("bottom")) r.fail(w, "needs 'size' (deck width, height[, length]) and 'bottom' (the keel's width)");
    bool z = false;
    out.shape = BodySpec::Shape::Hull;
    out.size = r.vector(s, "size", w, Vec3(0.0), &z);
    for (int k = 0; k < (z ? 3 : 2); ++k)
      if (!(out.size[k] > 0.0) || out.size[k] > 1e3) r.fail(w, "'size' must be positive (and at most 1000 m) on every axis");
    out.bottom = r.number(s, "bottom", w, 0.0, 1e-6, 1e3);
  } else {
    const bool ball = o.contains("ball");
    const std::string w = where + (ball ? ".ball" : ".capsule");
    const json& s = o.at(ball ? "ball" : "capsule");
    if (ball) r.allowOnly(s, w, {"radius"});
    else r.allowOnly(s, w, {"length", "radius"});
    if (!s.contains("radius") || (!ball && !s.contains("length")))
      r.fail(w, ball ? "needs 'radius'" : "needs 'length' and 'radius'");
    out.shape = ball ? BodySpec::Shape::Ball : BodySpec::Shape::Capsule;
    out.radius = r.number(s, "radius", w, 0.0, 1e-6, 1e3);
    if (!ball) out.length = r.number(s, "length", w, 0.0, 0.0, 1e3);
  }
  out.density = r.number(o, "density", where, out.density, 1.0, 1e5);
  out.position = r.vector(o, "position", where, Vec3(0.0), &out.hasDepth);
  out.angle = r.number(o, "angle", where, 0.0, -1e3, 1e3);
  out.velocity = r.vector(o, "velocity", where, Vec3(0.0));
  if (glm::length(out.position) > 1e6 || glm::length(out.velocity) > 1e3)
    r.fail(where, "a coordinate exceeds 1e6 m or a speed 1000 m/s");
  return out;
}

json parseJson(const Reader& r, const std::string& jsonText) {
  // A number too large for a double (1e999) is reported without a position, so the
  // parse callback remembers the last key read, for the message to name.
  std::string lastKey;
  auto track = [&lastKey](int, json::parse_event_t event, json& value) {
    if (event == json::parse_event_t::key) lastKey = value.get<std::string>();
    return true;
  };
  try {
    return json::parse(jsonText, track);
  } catch (const json::parse_error& e) {
    r.fail("", "invalid JSON: " + withoutJsonTag(e.what()));
  } catch (const json::exception& e) {
    r.fail(lastKey.empty() ? "" : "'" + lastKey + "'", withoutJsonTag(e.what()));
  }
}

// "spacing": 0.01, or per solver: {"default": 0.01, "flip": 0.0035}.
double readSpacing(const Reader& r, const json& doc, const char* key, double fallback,
                   std::map<std::string, double>& bySolver) {
  const ParamInfo& range = runSetting("spacing");
  if (!doc.contains(key) || !doc.at(key).is_object()) return r.number(doc, key, "", fallback, range.min, range.max);
  const json& s = doc.at(key);
  const double byDefault = r.number(s, "default", key, fallback, range.min, range.max);
  for (auto it = s.begin(); it != s.end(); ++it) {
    if (it.key() == "default") continue;
    if (!findSolverInfo(it.key()))
      r.fail(key, "unknown solver '" + it.key() + "' (known: default, " + solverNameList() + ")");
    bySolver[it.key()] = r.number(s, it.key().c_str(), key, byDefault, range.min, range.max);
  }
  return byDefault;
}

// "params": {"wcsph": {"speed_of_sound": 15}}: solver -> key -> value, validated.
void readParams(const Reader& r, const json& doc, const char* key,
                std::map<std::string, std::map<std::string, std::string>>& params) {
  if (!doc.contains(key)) return;
  const std::string where = key;
  const json& p = doc.at(key);
  if (!p.is_object()) r.fail(where, "expected an object of solver names");
  for (auto it = p.begin(); it != p.end(); ++it) {
    if (!findSolverInfo(it.key()))
      r.fail(where, "unknown solver '" + it.key() + "' (known: " + solverNameList() + ")");
    if (!it.value().is_object()) r.fail(where + "." + it.key(), "expected an object");
    auto& out = params[it.key()];
    for (auto kv = it.value().begin(); kv != it.value().end(); ++kv) {
      if (kv.value().is_object() || kv.value().is_array() || kv.value().is_null())
        r.fail(where + "." + it.key(), "'" + kv.key() + "' must be a number, boolean or name");
      out[kv.key()] = jsonValueText(kv.value());
    }
    try {
      validateSolverParams(it.key(), out);
    } catch (const std::exception& e) {
      r.fail(where + "." + it.key(), e.what());
    }
  }
}

}  // namespace

double Scene::spacingFor(const std::string& solverName, int dim) const {
  const auto& bySolver = dim == 3 ? spacing3dBySolver : spacingBySolver;
  const auto it = bySolver.find(solverName);
  if (it != bySolver.end()) return it->second;
  return dim == 3 ? spacing3d : spacing;
}

Scene parseScene(const std::string& jsonText, const std::string& origin) {
  Reader r(origin);
  const json doc = parseJson(r, jsonText);
  r.allowOnly(doc, "", {"name", "description", "solver", "spacing", "spacing_3d", "duration", "gravity", "container", "emitter",
                        "fluid", "params", "params_3d", "probes", "faucet", "outlet", "obstacles", "bodies"});
  Scene scene;
  scene.origin = origin;
  scene.name = r.text(doc, "name", "", std::filesystem::path(origin).stem().string());
  scene.description = r.text(doc, "description", "", "");
  scene.solver = r.text(doc, "solver", "", "wcsph");
  if (!findSolverInfo(scene.solver))
    r.fail("", "unknown solver '" + scene.solver + "' (known: " + solverNameList() + ")");
  scene.spacing = readSpacing(r, doc, "spacing", 0.01, scene.spacingBySolver);
  scene.spacing3d = readSpacing(r, doc, "spacing_3d", scene.spacing, scene.spacing3dBySolver);
  scene.duration = r.number(doc, "duration", "", 2.0, 0.0, 1e6);
  scene.gravity = r.vector(doc, "gravity", "", Vec3(0.0, -9.81, 0.0));
  if (glm::length(scene.gravity) > 1000.0) r.fail("", "'gravity' exceeds 1000 m/s^2");

  if (!doc.contains("container")) r.fail("", "missing 'container'");
  const json& c = doc.at("container");
  r.allowOnly(c, "container", {"size", "position", "angle", "angle_x", "angle_y"});
  if (!c.contains("size")) r.fail("container", "missing 'size'");
  scene.containerSize = r.vector(c, "size", "container", Vec3(1.0), nullptr, true);
  for (int k = 0; k < 3; ++k)
    if (!(scene.containerSize[k] > 0.0) || scene.containerSize[k] > 1000.0)
      r.fail("container", "'size' must lie in (0, 1000] m on every axis");
  scene.containerPose.position = r.vector(c, "position", "container", 0.5 * scene.containerSize);
  // Finite is not enough: world coordinates near 1e300 overflow the energies to inf.
  if (glm::length(scene.containerPose.position) > 1e6) r.fail("container", "'position' exceeds 1e6 m");
  scene.containerPose.angle = r.number(c, "angle", "container", 0.0, -2.0 * kPi, 2.0 * kPi);
  // 3D only (ContainerPose): a 2D run turns about z alone.
  scene.containerPose.angleX = r.number(c, "angle_x", "container", 0.0, -0.5 * kPi, 0.5 * kPi);
  scene.containerPose.angleY = r.number(c, "angle_y", "container", 0.0, -2.0 * kPi, 2.0 * kPi);

  if (doc.contains("emitter")) {
    const json& e = doc.at("emitter");
    r.allowOnly(e, "emitter", {"jitter", "thermal_speed"});
    scene.jitter = r.number(e, "jitter", "emitter", 0.0, 0.0, 1.0);
    scene.thermalSpeed = r.number(e, "thermal_speed", "emitter", 0.0, 0.0, 1e3);
  }

  if (!doc.contains("fluid") || !doc.at("fluid").is_array() || doc.at("fluid").empty())
    r.fail("", "'fluid' must be a non-empty list of blocks");
  const json& fluid = doc.at("fluid");
  for (std::size_t i = 0; i < fluid.size(); ++i)
    scene.fluid.push_back(readBlock(r, fluid[i], "fluid[" + std::to_string(i) + "]"));

  readParams(r, doc, "params", scene.params);
  readParams(r, doc, "params_3d", scene.params3d);
  if (doc.contains("probes")) {
    const json& probes = doc.at("probes");
    if (!probes.is_array()) r.fail("probes", "expected a list of probes as --probe takes them (\"gauge:x=0.05\")");
    for (std::size_t i = 0; i < probes.size(); ++i) {
      const std::string where = "probes[" + std::to_string(i) + "]";
      if (!probes[i].is_string()) r.fail(where, "expected a string as --probe takes it (\"gauge:x=0.05\")");
      try {
        (void)parseProbe(probes[i].get<std::string>());
      } catch (const ProbeError& e) {
        r.fail(where, e.what());
      }
      scene.probes.push_back(probes[i].get<std::string>());
    }
  }
  // Pour and drain (pour.h); whether they fit the container is checked when a run starts,
  // at its spacing (Pour::configure).
  if (doc.contains("faucet")) {
    const json& f = doc.at("faucet");
    r.allowOnly(f, "faucet", {"position", "direction", "width", "speed", "on"});
    if (!f.contains("position")) r.fail("faucet", "missing 'position'");
    Faucet faucet;
    faucet.position = r.vector(f, "position", "faucet", Vec3(0.0), &faucet.positionHasDepth);
    faucet.direction = r.vector(f, "direction", "faucet", faucet.direction);
    if (!(glm::length(faucet.direction) > 0.0)) r.fail("faucet", "'direction' must not be zero");
    faucet.width = r.number(f, "width", "faucet", faucet.width, 1e-6, 1e3);
    faucet.speed = r.number(f, "speed", "faucet", faucet.speed, 1e-3, 50.0);
    faucet.on = r.flag(f, "on", "faucet", true);
    scene.faucet = faucet;
  }
  if (doc.contains("outlet")) {
    const json& o = doc.at("outlet");
    r.allowOnly(o, "outlet", {"position", "radius", "on"});
    if (!o.contains("position")) r.fail("outlet", "missing 'position'");
    Outlet outlet;
    outlet.position = r.vector(o, "position", "outlet", Vec3(0.0), &outlet.positionHasDepth);
    outlet.radius = r.number(o, "radius", "outlet", outlet.radius, 1e-6, 1e3);
    outlet.on = r.flag(o, "on", "outlet", true);
    scene.outlet = outlet;
  }
  // Obstacles (solids.h); whether they meet the container and leave the liquid room is
  // checked here, and their thickness against the spacing when a run starts.
  if (doc.contains("obstacles")) {
    const json& list = doc.at("obstacles");
    if (!list.is_array()) r.fail("obstacles", "expected a list of shapes ({\"box\": {...}}, ...)");
    if (list.size() > 64) r.fail("obstacles", "at most 64 obstacles");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string where = "obstacles[" + std::to_string(i) + "]";
      if (list[i].is_object() && list[i].size() == 1 && list[i].contains("difference")) {
        // {"difference": [A, B, ...]}: A less B, less ... (solids.h, (15.1b)).
        const json& parts = list[i].at("difference");
        const std::string w = where + ".difference";
        if (!parts.is_array() || parts.size() < 2)
          r.fail(w, "expected a list of two shapes or more: the first less the others");
        for (std::size_t k = 0; k < parts.size(); ++k) {
          Obstacle part = readObstacle(r, parts[k], w + "[" + std::to_string(k) + "]", k > 0);
          part.hole = k > 0;
          scene.obstacles.push_back(part);
          if (scene.obstacles.size() > 64) r.fail("obstacles", "at most 64 shapes, holes included");
        }
      } else {
        scene.obstacles.push_back(readObstacle(r, list[i], where));
      }
      if (scene.obstacles.size() > 64) r.fail("obstacles", "at most 64 shapes, holes included");
    }
    try {
      (void)Solids<2>(scene.obstacles, scene.containerSize);
      (void)Solids<3>(scene.obstacles, scene.containerSize);
    } catch (const std::runtime_error& e) {
      r.fail("", e.what());
    }
  }
  // Floating bodies (bodies.h): their shapes and numbers here; whether they fit the
  // container, clear of the obstacles and of each other, when a run starts, in its
  // dimension (balls side by side in depth are apart in 3D and one on another in 2D).
  if (doc.contains("bodies")) {
    const json& list = doc.at("bodies");
    if (!list.is_array()) r.fail("bodies", "expected a list of bodies ({\"box\": {...}, \"density\": ...}, ...)");
    if (list.size() > 256) r.fail("bodies", "at most 256 bodies");
    for (std::size_t i = 0; i < list.size(); ++i)
      scene.bodies.push_back(readBody(r, list[i], "bodies[" + std::to_string(i) + "]"));
  }
  return scene;
}

std::vector<std::string> builtinSceneNames() {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < embedded::kScenesCount; ++i)
    names.push_back(std::filesystem::path(embedded::kScenes[i].name).stem().string());
  return names;
}

bool isScenePath(const std::string& pathOrName) {
  return pathOrName.find('/') != std::string::npos || std::filesystem::path(pathOrName).extension() == ".json";
}

Scene loadScene(const std::string& pathOrName) {
  if (!isScenePath(pathOrName)) {
    for (std::size_t i = 0; i < embedded::kScenesCount; ++i)
      if (pathOrName + ".json" == embedded::kScenes[i].name)
        return parseScene(embedded::kScenes[i].text, "builtin:" + pathOrName);
    std::string list;
    for (const auto& n : builtinSceneNames()) list += (list.empty() ? "" : ", ") + n;
    throw SceneError("scene '" + pathOrName + "': no such built-in scene (built in: " + list +
                     "; give a path to load a file)");
  }
  if (const std::string problem = inputFileProblem(pathOrName); !problem.empty())
    throw SceneError("scene '" + pathOrName + "': " + problem);
  std::ifstream in(pathOrName, std::ios::binary);
  if (!in) throw SceneError("scene '" + pathOrName + "': cannot open");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parseScene(buffer.str(), pathOrName);
}

}  // namespace sloshlab
