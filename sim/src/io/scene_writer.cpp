// Scenes written back to JSON: the format loadScene reads (sloshlab/scene.h), so that
// a run's scene, with the parameters edited in the window, can be saved and run again.
#include "sloshlab/params.h"
#include "sloshlab/scene.h"
#include "sloshlab/simulation.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>

namespace sloshlab {

namespace {

using nlohmann::ordered_json;

ordered_json vec(const Vec3& v, bool withZ = true) {
  return withZ ? ordered_json::array({v.x, v.y, v.z}) : ordered_json::array({v.x, v.y});
}

// A parameter's text as a JSON value: numbers as numbers, true/false as booleans,
// choice names as strings (the reader turns each back into the same text).
ordered_json paramValue(const std::string& text) {
  if (text == "true") return true;
  if (text == "false") return false;
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (!text.empty() && end && *end == '\0') return x;
  return text;
}

ordered_json spacingValue(double byDefault, const std::map<std::string, double>& bySolver) {
  if (bySolver.empty()) return byDefault;
  ordered_json s = ordered_json::object();
  s["default"] = byDefault;
  for (const auto& [solver, spacing] : bySolver) s[solver] = spacing;
  return s;
}

ordered_json paramsValue(const std::map<std::string, std::map<std::string, std::string>>& params) {
  ordered_json p = ordered_json::object();
  for (const auto& [solver, values] : params) {
    ordered_json one = ordered_json::object();
    for (const auto& [key, text] : values) one[key] = paramValue(text);
    p[solver] = one;
  }
  return p;
}

ordered_json block(const FluidBlock& b) {
  ordered_json out = ordered_json::object();
  if (b.shape == FluidBlock::Shape::Box) {
    out["box"] = {{"min", vec(b.min, b.boxHasDepth)}, {"max", vec(b.max, b.boxHasDepth)}};
  } else {
    const char* shape = b.shape == FluidBlock::Shape::Sphere ? "sphere" : "disc";
    out[shape] = {{"centre", vec(b.centre, b.centreHasDepth)}, {"radius", b.radius}};
  }
  out["velocity"] = vec(b.velocity);
  out["angular_velocity"] = b.angularVelocity;
  return out;
}

// Exact text for a real parameter (formatNumber keeps 6 digits, for people).
std::string exactText(const ParamRef& params, const ParamInfo& info) {
  if (info.kind != ParamKind::Real) return params.formatValue(info);
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", params.get(info));
  return text;
}

}  // namespace

std::string sceneToJson(const Scene& scene) {
  ordered_json doc = ordered_json::object();
  doc["name"] = scene.name;
  doc["description"] = scene.description;
  doc["solver"] = scene.solver;
  doc["spacing"] = spacingValue(scene.spacing, scene.spacingBySolver);
  doc["spacing_3d"] = spacingValue(scene.spacing3d, scene.spacing3dBySolver);
  doc["duration"] = scene.duration;
  doc["gravity"] = vec(scene.gravity);
  doc["container"] = {{"size", vec(scene.containerSize)},
                      {"position", vec(scene.containerPose.position)},
                      {"angle", scene.containerPose.angle}};
  if (!scene.containerPose.turnsAboutZOnly()) {
    doc["container"]["angle_x"] = scene.containerPose.angleX;
    doc["container"]["angle_y"] = scene.containerPose.angleY;
  }
  doc["emitter"] = {{"jitter", scene.jitter}, {"thermal_speed", scene.thermalSpeed}};
  ordered_json fluid = ordered_json::array();
  for (const FluidBlock& b : scene.fluid) fluid.push_back(block(b));
  doc["fluid"] = fluid;
  if (!scene.params.empty()) doc["params"] = paramsValue(scene.params);
  if (!scene.params3d.empty()) doc["params_3d"] = paramsValue(scene.params3d);
  if (!scene.probes.empty()) doc["probes"] = scene.probes;
  if (scene.faucet) {
    const Faucet& f = *scene.faucet;
    doc["faucet"] = {{"position", vec(f.position, f.positionHasDepth)}, {"direction", vec(f.direction)},
                     {"width", f.width}, {"speed", f.speed}, {"on", f.on}};
  }
  if (scene.outlet) {
    const Outlet& o = *scene.outlet;
    doc["outlet"] = {{"position", vec(o.position, o.positionHasDepth)}, {"radius", o.radius}, {"on", o.on}};
  }
  if (!scene.obstacles.empty()) {
    ordered_json list = ordered_json::array();
    for (const Obstacle& o : scene.obstacles) {
      ordered_json shape;
      if (o.shape == Obstacle::Shape::Box)
        shape = {{"min", vec(o.min, o.hasDepth)}, {"max", vec(o.max, o.hasDepth)}};
      else if (o.shape == Obstacle::Shape::Capsule)
        shape = {{"a", vec(o.a, o.hasDepth)}, {"b", vec(o.b, o.hasDepth)}, {"radius", o.radius}};
      else
        shape = {{"centre", vec(o.centre, o.hasDepth)}, {"radius", o.radius}};
      ordered_json entry = {{Obstacle::shapeName(o.shape), shape}};
      if (o.outside) entry = {{"outside_of", entry}};
      if (o.hole && !list.empty()) {  // a hole joins the difference of the shape before it
        ordered_json& last = list.back();
        if (!last.contains("difference")) last = {{"difference", ordered_json::array({last})}};
        last["difference"].push_back(entry);
        continue;
      }
      list.push_back(entry);
    }
    doc["obstacles"] = list;
  }
  if (!scene.bodies.empty()) {
    ordered_json list = ordered_json::array();
    for (const BodySpec& b : scene.bodies) {
      ordered_json shape;
      if (b.shape == BodySpec::Shape::Box) shape = {{"size", vec(b.size, b.size.z > 0.0)}};
      else if (b.shape == BodySpec::Shape::Hull) shape = {{"size", vec(b.size, b.size.z > 0.0)}, {"bottom", b.bottom}};
      else if (b.shape == BodySpec::Shape::Capsule) shape = {{"length", b.length}, {"radius", b.radius}};
      else shape = {{"radius", b.radius}};
      ordered_json entry = {{BodySpec::shapeName(b.shape), shape},
                            {"density", b.density},
                            {"position", vec(b.position, b.hasDepth)}};
      if (b.angle != 0.0) entry["angle"] = b.angle;
      if (b.velocity != Vec3(0.0)) entry["velocity"] = vec(b.velocity, true);
      list.push_back(entry);
    }
    doc["bodies"] = list;
  }
  return doc.dump(2) + "\n";
}

Scene sceneOfRun(Simulation& sim) {
  const SimulationSetup& setup = sim.setup();
  Scene scene = setup.scene;
  const std::string solver = sim.solverName();
  const int dim = sim.dim();
  scene.solver = solver;
  (dim == 3 ? scene.spacing3dBySolver : scene.spacingBySolver)[solver] = sim.spacing();
  // Every parameter of the running solver, in the dimension it runs in: a 3D run's
  // values go to params_3d, which applies after params.
  auto& values = (dim == 3 ? scene.params3d : scene.params)[solver];
  values.clear();
  ParamRef params = sim.solverParams();
  for (const ParamInfo& info : params.table().entries) values[info.key] = exactText(params, info);
  return scene;
}

}  // namespace sloshlab
