#include "render/camera.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace sloshlab::render {

Ray CameraView::ray(const glm::vec2& pixel) const {
  const glm::vec2 ndc(2.0f * pixel.x / viewport.x - 1.0f, 1.0f - 2.0f * pixel.y / viewport.y);
  const glm::mat4 inverse = glm::inverse(projection * view);
  glm::vec4 nearPoint = inverse * glm::vec4(ndc, -1.0f, 1.0f);
  glm::vec4 farPoint = inverse * glm::vec4(ndc, 1.0f, 1.0f);
  nearPoint /= nearPoint.w;
  farPoint /= farPoint.w;
  return {glm::vec3(nearPoint), glm::normalize(glm::vec3(farPoint - nearPoint))};
}

glm::vec2 CameraView::toPixel(const glm::vec3& world) const {
  const glm::vec4 clip = projection * view * glm::vec4(world, 1.0f);
  const glm::vec2 ndc = glm::vec2(clip) / clip.w;
  return {(ndc.x + 1.0f) * 0.5f * viewport.x, (1.0f - ndc.y) * 0.5f * viewport.y};
}

glm::vec3 CameraView::forward() const {
  const glm::mat4 inverse = glm::inverse(view);
  return -glm::normalize(glm::vec3(inverse[2]));
}

CameraView OrthoCamera::view(const glm::vec2& viewport) const {
  CameraView v;
  v.viewport = viewport;
  const float aspect = viewport.x / std::max(viewport.y, 1.0f);
  const float hw = halfHeight * aspect;
  v.projection = glm::ortho(centre.x - hw, centre.x + hw, centre.y - halfHeight, centre.y + halfHeight, -10.0f, 10.0f);
  v.view = glm::mat4(1.0f);
  return v;
}

void OrbitCamera::orbit(float dYaw, float dPitch) {
  yaw += dYaw;
  pitch = std::clamp(pitch + dPitch, -1.5f, 1.5f);
}

void OrbitCamera::zoom(float factor) { distance = std::clamp(distance * factor, 0.05f, 100.0f); }

CameraView OrbitCamera::view(const glm::vec2& viewport) const {
  CameraView v;
  v.viewport = viewport;
  const glm::vec3 eye = target + distance * glm::vec3(std::cos(pitch) * std::sin(yaw), std::sin(pitch),
                                                      std::cos(pitch) * std::cos(yaw));
  v.view = glm::lookAt(eye, target, glm::vec3(0.0f, 1.0f, 0.0f));
  v.projection = glm::perspective(fovY, viewport.x / std::max(viewport.y, 1.0f), 0.01f * distance, 20.0f * distance);
  return v;
}

}  // namespace sloshlab::render
