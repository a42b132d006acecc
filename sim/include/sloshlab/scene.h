// Scenes: a container, gravity, and blocks of fluid, read from JSON.
//
// A scene is written once for both dimensions. Lengths are metres in the container's
// frame, whose origin is the container's inner corner: the box spans [0, size].
// 2D uses x and y; 3D extends the layout in depth: a box given with two components
// spans the whole depth, a disc becomes a cylinder along z, a sphere stays a sphere.
//
//   {
//     "name": "bottle", "description": "...", "solver": "wcsph",
//     "spacing": 0.01, "spacing_3d": 0.02, "duration": 3, "gravity": [0, -9.81, 0],
//     "container": {"size": [0.5, 0.4, 0.2], "position": [0, 0.2, 0], "angle": 0},
//       (and in 3D "angle_x", "angle_y": the orientation of ContainerPose; 2D ignores them)
//     "emitter": {"jitter": 0, "thermal_speed": 0},
//     "fluid": [{"box": {"min": [0, 0], "max": [0.5, 0.2]}, "velocity": [0, 0]},
//               {"sphere": {"centre": [0.25, 0.3], "radius": 0.05}},
//               {"disc": {"centre": [0.25, 0.3], "radius": 0.1}, "angular_velocity": 2}],
//     "params": {"wcsph": {"viscosity": 0.05}},
//     "params_3d": {"dfsph": {"support": 2}},
//     "probes": ["gauge:x=0.01", "sensor:x=0,y=0.05"],
//     "faucet": {"position": [0.1, 0.35], "direction": [0, -1], "width": 0.03, "speed": 1},
//     "outlet": {"position": [0.45, 0], "radius": 0.02},
//     "obstacles": [{"box": {"min": [0.24, 0], "max": [0.26, 0.1]}},
//                   {"sphere": {"centre": [0.1, 0.1], "radius": 0.03}},
//                   {"disc": {"centre": [0.4, 0.1], "radius": 0.02}},
//                   {"capsule": {"a": [0.1, 0.2], "b": [0.2, 0.25], "radius": 0.01}}]
//   }
// (faucet and outlet: sloshlab/pour.h; obstacles: sloshlab/solids.h; bodies:
// sloshlab/bodies.h).
//
// "spacing" and "spacing_3d" may also name a spacing per solver, with a default:
// {"default": 0.01, "flip": 0.0035}. "params_3d" applies after "params" in 3D.
#pragma once

#include "sloshlab/container.h"
#include "sloshlab/math.h"
#include "sloshlab/pour.h"
#include "sloshlab/bodies.h"
#include "sloshlab/solids.h"

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace sloshlab {

class SceneError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct FluidBlock {
  enum class Shape { Box, Sphere, Disc };
  Shape shape = Shape::Box;
  Vec3 min{0.0}, max{0.0};  // Box
  bool boxHasDepth = false;  // Box given with z bounds
  Vec3 centre{0.0};          // Sphere, Disc
  bool centreHasDepth = false;
  double radius = 0.0;
  Vec3 velocity{0.0};
  double angularVelocity = 0.0;  // rad/s about z through the block's centre
};

struct Scene {
  std::string name;
  std::string description;
  std::string origin;          // file path or "builtin:<name>"
  std::string solver = "wcsph";
  double spacing = 0.01;       // particle spacing (m) in 2D
  double spacing3d = 0.01;     // particle spacing (m) in 3D (default: spacing)
  std::map<std::string, double> spacingBySolver, spacing3dBySolver;  // solver -> spacing (m)
  double duration = 2.0;       // suggested run length (s)
  Vec3 gravity{0.0, -9.81, 0.0};
  Vec3 containerSize{1.0, 1.0, 0.5};
  ContainerPose containerPose;  // world pose of the container's centre
  double jitter = 0.0;          // emitter jitter, fraction of the spacing
  double thermalSpeed = 0.0;    // emitter: random velocity of this speed (m/s), random direction
  std::vector<FluidBlock> fluid;
  // Solver parameter overrides: solver -> key -> value text (validated on load);
  // params3d is applied after params in 3D.
  std::map<std::string, std::map<std::string, std::string>> params, params3d;
  // Wave gauges and pressure sensors as --probe takes them ("gauge:x=0.05"), checked
  // when read and placed in the container when a run starts (sloshlab/probes.h).
  std::vector<std::string> probes;
  // A faucet that pours and an outlet that drains while the run goes (sloshlab/pour.h).
  std::optional<Faucet> faucet;
  std::optional<Outlet> outlet;
  // Solids fixed to the container (sloshlab/solids.h), in the container's frame.
  std::vector<Obstacle> obstacles;
  // Floating bodies (sloshlab/bodies.h), placed in the container's frame.
  std::vector<BodySpec> bodies;

  // The spacing a solver starts with in a dimension: its own entry, else the default.
  double spacingFor(const std::string& solverName, int dim) const;
};

// Reads a scene from a file path, or a built-in scene by name ("bottle", ...).
Scene loadScene(const std::string& pathOrName);
// Whether loadScene reads `pathOrName` as a file (it holds a '/' or ends in .json).
bool isScenePath(const std::string& pathOrName);
Scene parseScene(const std::string& jsonText, const std::string& origin);

// The scene as JSON that parseScene reads back to the same scene (sim/src/scene_writer.cpp).
std::string sceneToJson(const Scene& scene);

// Names of the scenes compiled into the library (assets/scenes/*.json).
std::vector<std::string> builtinSceneNames();

}  // namespace sloshlab
