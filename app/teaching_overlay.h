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
  // A grid solver's pinned particle: its transfer stencil's faces (drawn square,
  // coloured by velocity component, opaque in proportion to the weight) and the
  // outlines of its cell and the cells around it (segment pairs), in the drawn space.
  struct Face {
    glm::vec3 at;
    int component;
    float weight;  // w_ip over the component's largest
  };
  std::vector<Face> faces;
  std::vector<glm::vec3> cellOutlines, ownCellOutline;
  float cell = 0.0f;  // the grid's cell edge (m)
};

// Picks the particle nearest the mouse ray (nearest the camera in 3D) and finds the
// particles within its interaction radius. `mouse` is in framebuffer pixels.
KernelProbe probeKernel(const render::CameraView& camera, const glm::mat4& drawnFromWorld, const Snapshot& snapshot,
                        const glm::vec2& mouse);

// The pinned particle (Snapshot::inspected) as a probe: it, its support and its
// neighbours, and for a grid solver its stencil's faces and the cells around it.
KernelProbe pinnedProbe(const glm::mat4& drawnFromWorld, const Snapshot& snapshot);

// Draws the grid (when asked and the solver has one), the velocity arrows (when asked),
// the centrifugal and Coriolis arrows (when asked, in the container-frame view) and the
// probe.
void drawTeachingOverlays(render::OverlayRenderer& overlays, const render::CameraView& camera,
                          const glm::mat4& drawnFromWorld, const glm::mat4& drawnContainer, const Snapshot& snapshot,
                          const ViewSettings& view, const KernelProbe& probe);

// The fictitious forces' legend (ImGui's background list, before ImGui::Render): the
// two colours, the rate of turn and the longest arrow's acceleration, in the free
// area's bottom-right corner above the colour legend (legendRect; 0: none).
void drawFrameForcesLegend(const ViewSettings& view, const Snapshot& snapshot, const glm::mat4& drawnFromWorld,
                           const glm::vec4& free, const glm::vec4& legendRect);

}  // namespace sloshlab::app
