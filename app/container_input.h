// The mouse and the bottle: left-drag on the container moves it (in 3D, in the
// plane facing the camera), or, pressed on a floating body, pulls that body by a spring
// (physics.md (16.10)), right-drag or the wheel tilts it about z, middle-drag or
// Alt+left orbits the 3D camera, Shift+wheel zooms. The result is a target pose
// that the simulation's container follows through a critically damped spring, so
// its velocity and acceleration stay smooth and bounded.
#pragma once

#include "app_state.h"
#include "render/camera.h"
#include "sim_thread.h"

namespace sloshlab::app {

// Container-local [0, size] -> world, for a pose.
glm::mat4 containerModel(const ContainerPose& pose, const Vec3& size, int dim);
// A ray through the affine map m (the direction normalised).
render::Ray transformRay(const glm::mat4& m, const render::Ray& r);

class ContainerInput {
 public:
  // `drawnFromWorld` maps world to the drawn space (identity, or the container-frame
  // view's transform); `orbit` is null in 2D. A left drag moves the bottle by the
  // mouse's displacement in either view (on screen axes, which are the world's axes),
  // a right drag turns it by the angle the mouse turns about its drawn centre (in 3D by
  // the horizontal distance, about z). In 3D, Shift with a right drag tips it about the
  // camera's horizontal axis (up and down the screen), Ctrl with a right drag spins it about
  // the vertical (across the screen). In 2D
  // the bottle is kept where the world view would draw it inside the pixel rectangle
  // `free` (the part of the window no panel covers).
  void update(const Snapshot& snapshot, const render::CameraView& camera, const glm::mat4& drawnFromWorld,
              render::OrbitCamera* orbit, const glm::vec4& free, SimulationThread& sim, AppState& state);
  bool dragging() const { return m_mode != Mode::None; }

 private:
  enum class Mode { None, Move, Tilt, Orbit, Body };
  // The body under the mouse's ray (container-local), its number and the point hit;
  // false when the ray meets none.
  static bool pickBody(const Snapshot& snapshot, const render::Ray& local, std::size_t& body, Vec3& hit);
  void send(SimulationThread& sim, AppState& state);
  void keepInView(const Snapshot& snapshot, const render::CameraView& camera, const glm::vec4& free);
  // 3D: the target moved across the view, in the camera's plane, until the container's
  // corners at the target pose lie inside `free` (centred where it is too big for it).
  void keepInView3D(const Snapshot& snapshot, const render::CameraView& camera, const glm::mat4& drawnFromWorld,
                    const glm::vec4& free);

  Mode m_mode = Mode::None;
  int m_tiltAxis = 2;  // what a right drag turns: 0 about the camera's horizontal, 1 about y, 2 about z
  Vec3 m_pressRight{1.0, 0.0, 0.0};  // the camera's horizontal axis at the press, world axes
  bool m_haveTarget = false;
  ContainerPose m_target;
  double m_lastTime = 0.0;
  // The press, in the drawn space: the drag plane and the point under the mouse on it,
  // and the target pose then.
  glm::vec2 m_pressMouse{0.0f};
  glm::vec3 m_planePoint{0.0f};
  glm::vec3 m_planeNormal{0.0f, 0.0f, 1.0f};
  glm::vec3 m_pressPoint{0.0f};
  ContainerPose m_pressTarget;
  std::size_t m_body = 0;   // Mode::Body: the body held, and the held point in its axes
  Vec3 m_bodyAnchor{0.0};
};

}  // namespace sloshlab::app
