// Teaching overlays drawn over the particles: the kernel support of the particle
// under the mouse with its neighbours marked, and the grid of grid-based solvers.
#pragma once

#include "app_state.h"
#include "render/camera.h"
#include "render/overlay_renderer.h"
#include "snapshot.h"

#include <glm/glm.hpp>

#include <vector>

namespace sloshlab::app {

// The particle under the mouse and its neighbours, in the drawn space.
struct KernelProbe {
  bool active = false;
  std::size_t index = 0;  // the particle's index in the snapshot
  glm::vec3 centre{0.0f};
  float radius = 0.0f;  // the interaction radius h
  std::vector<glm::vec3> neighbours;
};

// Picks the particle nearest the mouse ray (nearest the camera in 3D) and finds the
// particles within its interaction radius. `mouse` is in framebuffer pixels.
KernelProbe probeKernel(const render::CameraView& camera, const glm::mat4& drawnFromWorld, const Snapshot& snapshot,
                        const glm::vec2& mouse);

// The pinned particle (Snapshot::inspected) as a probe: it, its support and its neighbours.
KernelProbe pinnedProbe(const glm::mat4& drawnFromWorld, const Snapshot& snapshot);

// Draws the grid (when asked and the solver has one), the velocity arrows (when asked)
// and the probe.
void drawTeachingOverlays(render::OverlayRenderer& overlays, const render::CameraView& camera,
                          const glm::mat4& drawnFromWorld, const glm::mat4& drawnContainer, const Snapshot& snapshot,
                          const ViewSettings& view, const KernelProbe& probe);

}  // namespace sloshlab::app
