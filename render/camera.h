// Cameras: a fixed orthographic view for 2D and an orbit camera for 3D, both able
// to turn a mouse position into a world point or ray for dragging the container.
#pragma once

#include <glm/glm.hpp>

namespace sloshlab::render {

struct Ray {
  glm::vec3 origin{0.0f};
  glm::vec3 direction{0.0f, 0.0f, -1.0f};
};

// The matrices of one frame and the viewport they map to (pixels, origin top-left).
struct CameraView {
  glm::mat4 view{1.0f};
  glm::mat4 projection{1.0f};
  glm::vec2 viewport{1.0f};

  Ray ray(const glm::vec2& pixel) const;
  glm::vec2 toPixel(const glm::vec3& world) const;
  glm::vec3 forward() const;  // world direction the camera looks along
};

// 2D: shows the rectangle centred at `centre` with half-height `halfHeight` (m),
// widened to the viewport's aspect.
struct OrthoCamera {
  glm::vec2 centre{0.0f};
  float halfHeight = 1.0f;
  CameraView view(const glm::vec2& viewport) const;
};

// 3D: looks at `target` from yaw/pitch (radians) at `distance` (m), perspective.
struct OrbitCamera {
  glm::vec3 target{0.0f};
  float yaw = 0.5f;
  float pitch = 0.35f;
  float distance = 2.0f;
  float fovY = 0.7f;

  void orbit(float dYaw, float dPitch);
  void zoom(float factor);
  CameraView view(const glm::vec2& viewport) const;
};

}  // namespace sloshlab::render
