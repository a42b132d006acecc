// The view of the liquid: where each pane is and how its camera sees it, and the GL
// drawing of containers, particles, teaching overlays and the container-frame arrows.
//
// One view fills the window. Side by side (--compare) the free area splits into a row
// of 2 or 3 panes, or 2 x 2 for 4. A pane's camera is the view's camera for the pane's
// shape, squeezed into its rectangle in clip space, so that it maps the world to
// window pixels like the single view's: picking, dragging and the ImGui overlays work
// on any pane unchanged. In 3D all panes share the orbit camera.
#pragma once

#include "app_state.h"
#include "render/camera.h"
#include "render/overlay_renderer.h"
#include "render/particle_renderer.h"
#include "render/liquid_renderer.h"
#include "snapshot.h"
#include "teaching_overlay.h"

#include <glm/glm.hpp>

#include <vector>

namespace sloshlab::app {

struct PaneFrame {
  render::CameraView camera;      // world -> window pixels
  glm::vec4 rect{0.0f};           // framebuffer pixels x0 y0 x1 y1 (the whole window for one view)
  const std::vector<float>* positions = nullptr;
  const std::vector<float>* values = nullptr;
  const DeviceParticles* device = nullptr;  // drawn from GPU memory when valid
  const std::vector<Obstacle>* obstacles = nullptr;  // the pane's scene's
  const std::vector<BodyView>* bodies = nullptr;
  ContainerState container;
  float radius = 0.0f;
  bool fieldAvailable = true;
};

struct SceneFrame {
  std::vector<PaneFrame> panes;   // one, or one per pane side by side
  bool is3d = false;
  glm::mat4 drawnFromWorld{1.0f}; // identity, or the container-frame view's transform
  glm::mat4 model{1.0f};          // the first pane's container, local -> world
};

// `viewport` is the framebuffer's size, `area` the free part of it (x0 y0 x1 y1) where
// side-by-side panes go; `firstFrame` sets the 3D camera's distance.
SceneFrame frameScene(const Snapshot& snapshot, const ViewSettings& view, render::OrbitCamera& orbit,
                      const glm::vec2& viewport, const glm::vec4& area, bool firstFrame);

// The pane under a framebuffer pixel (0 when none or one view).
std::size_t paneAt(const SceneFrame& frame, const glm::vec2& pixel);

// Draws every pane (scissored to its rectangle side by side); the teaching overlays
// and the probe in the first pane. `smoothedA` carries the container-frame arrow's
// smoothing from frame to frame.
void drawScene(const SceneFrame& frame, const Snapshot& snapshot, const ViewSettings& view,
               render::ParticleRenderer& particles, render::LiquidRenderer& liquid, render::OverlayRenderer& overlays,
               const KernelProbe& probe, glm::vec3& smoothedA, const glm::ivec2& framebuffer);

// Side by side: each pane's method, changed parameters and own real-time factor, at its
// bottom left, and a red line when its solver stopped (ImGui's background list).
void drawPaneLabels(const SceneFrame& frame, const Snapshot& snapshot, float uiScale);

}  // namespace sloshlab::app
