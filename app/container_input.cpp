#include "container_input.h"

#include <imgui.h>

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace sloshlab::app {

glm::mat4 containerModel(const ContainerPose& pose, const Vec3& size, int dim) {
  const glm::vec3 half(0.5f * static_cast<float>(size.x), 0.5f * static_cast<float>(size.y),
                       dim == 3 ? 0.5f * static_cast<float>(size.z) : 0.0f);
  glm::mat4 m = glm::translate(glm::mat4(1.0f), glm::vec3(pose.position));
  m = m * glm::mat4(glm::mat3(pose.rotation()));
  return glm::translate(m, -half);
}

namespace {

// Ray against the box [0, size] (slab test); true when it hits in front.
bool hitsBox(const render::Ray& ray, const glm::vec3& size, int dim) {
  float t0 = 0.0f, t1 = 1e30f;
  for (int k = 0; k < (dim == 3 ? 3 : 2); ++k) {
    const float d = ray.direction[k], o = ray.origin[k];
    if (std::abs(d) < 1e-9f) {
      if (o < 0.0f || o > size[k]) return false;
      continue;
    }
    float a = (0.0f - o) / d, b = (size[k] - o) / d;
    if (a > b) std::swap(a, b);
    t0 = std::max(t0, a);
    t1 = std::min(t1, b);
  }
  return t0 <= t1;
}

}  // namespace

render::Ray transformRay(const glm::mat4& m, const render::Ray& r) {
  return {glm::vec3(m * glm::vec4(r.origin, 1.0f)), glm::normalize(glm::vec3(m * glm::vec4(r.direction, 0.0f)))};
}

// In 2D the point under the mouse on the plane z = 0; in 3D the first point along the ray,
// in steps of 2 mm through the box, that lies inside a body (bodyDistance < 0).
bool ContainerInput::pickBody(const Snapshot& snapshot, const render::Ray& local, std::size_t& body, Vec3& hit) {
  if (snapshot.bodies.empty()) return false;
  const int dim = snapshot.dim;
  const Vec3 o(local.origin), d(local.direction);
  const auto inside = [&](const Vec3& p) {
    for (std::size_t k = 0; k < snapshot.bodies.size(); ++k)
      if (bodyDistance(snapshot.bodies[k], p, dim) < 0.0) {
        body = k, hit = p;
        return true;
      }
    return false;
  };
  if (dim == 2) {
    if (std::abs(d.z) < 1e-12) return false;
    Vec3 p = o + d * (-o.z / d.z);
    p.z = 0.0;
    return inside(p);
  }
  const Vec3 size = snapshot.container.size;
  double t0 = 0.0, t1 = 1e30;
  for (int k = 0; k < 3; ++k) {
    if (std::abs(d[k]) < 1e-12) continue;
    double a = -o[k] / d[k], b = (size[k] - o[k]) / d[k];
    if (a > b) std::swap(a, b);
    t0 = std::max(t0, a), t1 = std::min(t1, b);
  }
  for (double t = t0; t <= t1; t += 0.002)
    if (inside(o + t * d)) return true;
  return false;
}

void ContainerInput::send(SimulationThread& sim, AppState& state) {
  sim.post(command::SetTarget{m_target});
  state.touched = true;
}

// The container's centre stays where the whole bottle, at any tilt, is on screen
// and clear of the panels: at least half its diagonal from the free rectangle's edges.
void ContainerInput::keepInView(const Snapshot& snapshot, const render::CameraView& camera, const glm::vec4& free) {
  const glm::vec3 lo = camera.ray(glm::vec2(free.x, free.w)).origin;  // bottom-left corner of the free area
  const glm::vec3 hi = camera.ray(glm::vec2(free.z, free.y)).origin;  // top-right
  const double reach = 0.5 * std::hypot(snapshot.container.size.x, snapshot.container.size.y);
  for (int k = 0; k < 2; ++k) {
    const double a = static_cast<double>(lo[k]) + reach, b = static_cast<double>(hi[k]) - reach;
    m_target.position[k] = a < b ? std::clamp(m_target.position[k], a, b) : 0.5 * (a + b);
  }
}

namespace {

// How far to move a span [lo, hi] to bring it inside [a, b]: into it where it fits,
// centred on it where it does not.
float shiftInto(float lo, float hi, float a, float b) {
  const float under = a - lo, over = hi - b;
  if (under > 0.0f && over > 0.0f) return 0.5f * (under - over);
  return std::max(under, 0.0f) - std::max(over, 0.0f);
}

}  // namespace

void ContainerInput::keepInView3D(const Snapshot& snapshot, const render::CameraView& camera,
                                  const glm::mat4& drawnFromWorld, const glm::vec4& free) {
  const glm::mat4 cameraToDrawn = glm::inverse(camera.view);
  const glm::vec3 right(cameraToDrawn[0]), up(cameraToDrawn[1]);
  const glm::mat3 drawnToWorld = glm::inverse(glm::mat3(drawnFromWorld));
  const Vec3& size = snapshot.container.size;
  // A few rounds: the perspective changes the box's size on screen as it moves.
  for (int round = 0; round < 4; ++round) {
    const glm::mat4 model = drawnFromWorld * containerModel(m_target, size, 3);
    glm::vec2 lo(1e30f), hi(-1e30f);
    for (int corner = 0; corner < 8; ++corner) {
      const glm::vec3 local(corner & 1 ? size.x : 0.0, corner & 2 ? size.y : 0.0, corner & 4 ? size.z : 0.0);
      const glm::vec4 clip = camera.projection * camera.view * model * glm::vec4(local, 1.0f);
      if (clip.w <= 0.0f) return;  // behind the camera: nothing sensible to clamp
      const glm::vec2 pixel = camera.toPixel(glm::vec3(model * glm::vec4(local, 1.0f)));
      lo = glm::min(lo, pixel), hi = glm::max(hi, pixel);
    }
    const glm::vec2 shift(shiftInto(lo.x, hi.x, free.x, free.z), shiftInto(lo.y, hi.y, free.y, free.w));
    if (glm::length(shift) < 0.5f) return;
    // Metres per pixel at the container's depth (pixels run down the screen).
    const glm::vec3 centre(drawnFromWorld * glm::vec4(glm::vec3(m_target.position), 1.0f));
    const float w = (camera.projection * camera.view * glm::vec4(centre, 1.0f)).w;
    const float perX = 2.0f * w / (camera.projection[0][0] * camera.viewport.x);
    const float perY = 2.0f * w / (camera.projection[1][1] * camera.viewport.y);
    const glm::vec3 move = drawnToWorld * (right * (shift.x * perX) - up * (shift.y * perY));
    m_target.position += Vec3(move);
  }
}

void ContainerInput::update(const Snapshot& snapshot, const render::CameraView& camera,
                            const glm::mat4& drawnFromWorld, render::OrbitCamera* orbit, const glm::vec4& free,
                            SimulationThread& sim, AppState& state) {
  const ImGuiIO& io = ImGui::GetIO();
  const int dim = snapshot.dim;
  // A reset (time ran backwards) or a new scene puts the target back home.
  if (snapshot.stats.time < m_lastTime || !m_haveTarget) {
    m_target = snapshot.container.pose;
    m_haveTarget = true;
    m_mode = Mode::None;
  }
  m_lastTime = snapshot.stats.time;

  const glm::vec2 mouse(io.MousePos.x * io.DisplayFramebufferScale.x, io.MousePos.y * io.DisplayFramebufferScale.y);
  // Presses are judged in the world (what is under the mouse now); drags in the drawn
  // space, against where the mouse was pressed. The container-frame view's transform
  // follows the bottle, so a drag read through it would feed the bottle's own motion
  // back into its target: the bottle ran away from the mouse. Read in the drawn space,
  // a drag moves the bottle by the mouse's distance in both views.
  const render::Ray drawnRay = camera.ray(mouse);
  const render::Ray ray = transformRay(glm::inverse(drawnFromWorld), drawnRay);
  // The point under the mouse on a drawn plane.
  auto onPlane = [&](const glm::vec3& point, const glm::vec3& normal) {
    const float denom = glm::dot(drawnRay.direction, normal);
    if (std::abs(denom) < 1e-6f) return drawnRay.origin;
    return drawnRay.origin + drawnRay.direction * (glm::dot(point - drawnRay.origin, normal) / denom);
  };

  if (!io.WantCaptureMouse) {
    const glm::mat4 model = containerModel(snapshot.container.pose, snapshot.container.size, dim);
    const glm::vec3 size(snapshot.container.size);
    const bool onContainer = hitsBox(transformRay(glm::inverse(model), ray), size, dim);
    const bool orbitPress = orbit && (ImGui::IsMouseClicked(ImGuiMouseButton_Middle) ||
                                      (io.KeyAlt && ImGui::IsMouseClicked(ImGuiMouseButton_Left)));
    const bool leftPress = ImGui::IsMouseClicked(ImGuiMouseButton_Left) && onContainer;
    const bool rightPress = ImGui::IsMouseClicked(ImGuiMouseButton_Right);
    std::size_t body = 0;
    Vec3 hit(0.0);
    if (orbitPress) {
      m_mode = Mode::Orbit;
    } else if (leftPress && pickBody(snapshot, transformRay(glm::inverse(model), ray), body, hit)) {
      // A press on a floating body holds it where it was pressed; the drag plane runs
      // through that point, facing the camera in 3D.
      m_mode = Mode::Body;
      m_body = body;
      state.inspectedBody = body;  // the inspector shows the body last pressed
      const BodyView& b = snapshot.bodies[body];
      m_bodyAnchor = glm::transpose(b.rotation) * (hit - b.position);
      m_planePoint = glm::vec3(drawnFromWorld * model * glm::vec4(glm::vec3(hit), 1.0f));
      m_planeNormal = dim == 3 ? camera.forward() : glm::vec3(0.0f, 0.0f, 1.0f);
    } else if (leftPress || rightPress) {
      // The drag plane through the container's centre, as drawn at the press: facing the
      // camera for a move in 3D, the xy plane otherwise.
      m_mode = leftPress ? Mode::Move : Mode::Tilt;
      m_tiltAxis = dim == 3 && io.KeyShift ? 0 : dim == 3 && io.KeyCtrl ? 1 : 2;
      const glm::vec3 right(glm::inverse(camera.view)[0]);  // drawn space
      m_pressRight = glm::normalize(Vec3(glm::inverse(glm::mat3(drawnFromWorld)) * right));
      m_planePoint = glm::vec3(drawnFromWorld * glm::vec4(glm::vec3(m_target.position), 1.0f));
      m_planeNormal = leftPress && dim == 3 ? camera.forward() : glm::vec3(0.0f, 0.0f, 1.0f);
      m_pressPoint = onPlane(m_planePoint, m_planeNormal);
      m_pressTarget = m_target;
    }
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left) || ImGui::IsMouseClicked(ImGuiMouseButton_Right) ||
        ImGui::IsMouseClicked(ImGuiMouseButton_Middle))
      m_pressMouse = mouse;
    if (io.MouseWheel != 0.0f) {
      if (orbit && io.KeyShift) {
        orbit->zoom(std::pow(0.9f, io.MouseWheel));
      } else {
        m_target.angle += 0.05 * io.MouseWheel;
        send(sim, state);
      }
    }
  }

  // A drag follows the mouse up to where it is released: the last move and the release
  // can arrive in the same frame.
  switch (m_mode) {
    case Mode::Move:
      if (io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f) {
        // World displacement = the mouse's displacement on the drag plane.
        const glm::vec3 d = onPlane(m_planePoint, m_planeNormal) - m_pressPoint;
        m_target.position = m_pressTarget.position + Vec3(d.x, d.y, dim == 3 ? d.z : 0.0f);
        if (dim == 2) keepInView(snapshot, camera, free);
        else keepInView3D(snapshot, camera, drawnFromWorld, free);
        send(sim, state);
      }
      if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
        m_mode = Mode::None;
        // A press and release in place is a click (the inspector pins what it hits).
        if (glm::length(mouse - m_pressMouse) < 3.0f * io.DisplayFramebufferScale.x) state.clickAt = mouse;
      }
      break;
    case Mode::Tilt:
      if (io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f) {
        if (dim == 2) {
          // The turn of the mouse about the drawn centre since the press.
          const glm::vec3 a = m_pressPoint - m_planePoint, b = onPlane(m_planePoint, m_planeNormal) - m_planePoint;
          const double delta = std::atan2(static_cast<double>(a.x * b.y - a.y * b.x), static_cast<double>(glm::dot(a, b)));
          m_target.angle = m_pressTarget.angle + delta;
        } else if (m_tiltAxis == 0) {
          // Down the screen tips the top towards the viewer: the turn about the camera's
          // horizontal axis composed onto the pose at the press, read back as angles
          // (physics.md (8.1a)). Short of a quarter turn, where the angles lose a degree.
          const double turn = 0.01 * static_cast<double>(mouse.y - m_pressMouse.y);
          const Vec3 angles = anglesOf(rotationAbout(m_pressRight, turn) * m_pressTarget.rotation(), m_pressTarget.angles());
          if (std::abs(angles.x) < 1.45) m_target.setAngles(angles);
        } else if (m_tiltAxis == 1) {
          // Across the screen spins it: the front follows the mouse.
          m_target.angleY = m_pressTarget.angleY + 0.01 * static_cast<double>(mouse.x - m_pressMouse.x);
        } else {
          m_target.angle = m_pressTarget.angle - 0.01 * static_cast<double>(mouse.x - m_pressMouse.x);
        }
        send(sim, state);
      }
      if (!ImGui::IsMouseDown(ImGuiMouseButton_Right)) m_mode = Mode::None;
      break;
    case Mode::Body: {
      // The point under the mouse on the drag plane, in the container's frame, is where
      // the held point is pulled: every frame, so that a still mouse keeps holding it.
      const glm::mat4 toLocal =
          glm::inverse(drawnFromWorld * containerModel(snapshot.container.pose, snapshot.container.size, dim));
      Vec3 target(glm::vec3(toLocal * glm::vec4(onPlane(m_planePoint, m_planeNormal), 1.0f)));
      if (dim == 2) target.z = 0.0;
      const bool hold = ImGui::IsMouseDown(ImGuiMouseButton_Left) && m_body < snapshot.bodies.size();
      sim.post(command::PullBody{m_body, m_bodyAnchor, target, hold});
      if (!hold) m_mode = Mode::None;
      break;
    }
    case Mode::Orbit:
      if (!ImGui::IsMouseDown(ImGuiMouseButton_Middle) && !ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
        m_mode = Mode::None;
        break;
      }
      if (orbit) orbit->orbit(-0.01f * io.MouseDelta.x, 0.01f * io.MouseDelta.y);
      break;
    case Mode::None: break;
  }
}

}  // namespace sloshlab::app
