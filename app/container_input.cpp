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
  m = glm::rotate(m, static_cast<float>(pose.angle), glm::vec3(0.0f, 0.0f, 1.0f));
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

render::Ray transformRay(const glm::mat4& m, const render::Ray& r) {
  return {glm::vec3(m * glm::vec4(r.origin, 1.0f)), glm::normalize(glm::vec3(m * glm::vec4(r.direction, 0.0f)))};
}

}  // namespace

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
  const glm::mat4 worldFromDrawn = glm::inverse(drawnFromWorld);
  const render::Ray ray = transformRay(worldFromDrawn, camera.ray(mouse));
  const glm::vec3 centre(m_target.position);
  // The point under the mouse on the drag plane through the container's centre.
  auto onPlane = [&](const glm::vec3& normal) {
    const float denom = glm::dot(ray.direction, normal);
    if (std::abs(denom) < 1e-6f) return ray.origin;
    return ray.origin + ray.direction * (glm::dot(centre - ray.origin, normal) / denom);
  };
  const glm::vec3 forward = glm::normalize(glm::vec3(worldFromDrawn * glm::vec4(camera.forward(), 0.0f)));

  if (!io.WantCaptureMouse) {
    const glm::mat4 model = containerModel(snapshot.container.pose, snapshot.container.size, dim);
    const glm::vec3 size(snapshot.container.size);
    const bool onContainer = hitsBox(transformRay(glm::inverse(model), ray), size, dim);
    const bool orbitPress = orbit && (ImGui::IsMouseClicked(ImGuiMouseButton_Middle) ||
                                      (io.KeyAlt && ImGui::IsMouseClicked(ImGuiMouseButton_Left)));
    if (orbitPress) {
      m_mode = Mode::Orbit;
    } else if (ImGui::IsMouseClicked(ImGuiMouseButton_Left) && onContainer) {
      m_mode = Mode::Move;
      m_planeNormal = dim == 3 ? forward : glm::vec3(0.0f, 0.0f, 1.0f);
      m_grabOffset = centre - onPlane(m_planeNormal);
    } else if (ImGui::IsMouseClicked(ImGuiMouseButton_Right)) {
      m_mode = Mode::Tilt;
      m_pressAngle = m_target.angle;
      const glm::vec3 p = onPlane(glm::vec3(0.0f, 0.0f, 1.0f));
      m_pressMouseAngle = std::atan2(p.y - centre.y, p.x - centre.x);
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

  switch (m_mode) {
    case Mode::Move:
      if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
        m_mode = Mode::None;
        break;
      }
      if (io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f) {
        const glm::vec3 p = onPlane(m_planeNormal) + m_grabOffset;
        m_target.position = Vec3(p.x, p.y, dim == 3 ? p.z : m_target.position.z);
        if (dim == 2 && drawnFromWorld == glm::mat4(1.0f)) keepInView(snapshot, camera, free);
        send(sim, state);
      }
      break;
    case Mode::Tilt:
      if (!ImGui::IsMouseDown(ImGuiMouseButton_Right)) {
        m_mode = Mode::None;
        break;
      }
      if (io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f) {
        if (dim == 2) {
          const glm::vec3 p = onPlane(glm::vec3(0.0f, 0.0f, 1.0f));
          double delta = std::atan2(p.y - centre.y, p.x - centre.x) - m_pressMouseAngle;
          delta = std::remainder(delta, 2.0 * kPi);
          m_target.angle = m_pressAngle + delta;
        } else {
          m_target.angle = m_pressAngle - 0.01 * static_cast<double>(mouse.x - m_pressMouse.x);
        }
        send(sim, state);
      }
      break;
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
