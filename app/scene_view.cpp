#include "scene_view.h"

#include "container_input.h"
#include "format.h"
#include "panels.h"

#include "sloshlab/comparison.h"

#include <imgui.h>

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdio>

namespace sloshlab::app {

namespace {

// The panes' rectangles in `area`: a row of n for 2 and 3, 2 x 2 for 4.
std::vector<glm::vec4> paneRects(const glm::vec4& area, std::size_t n) {
  const int columns = n == 4 ? 2 : static_cast<int>(n), rows = n == 4 ? 2 : 1;
  const float w = (area.z - area.x) / static_cast<float>(columns), h = (area.w - area.y) / static_cast<float>(rows);
  std::vector<glm::vec4> rects;
  for (std::size_t k = 0; k < n; ++k) {
    const float x0 = area.x + w * static_cast<float>(static_cast<int>(k) % columns);
    const float y0 = area.y + h * static_cast<float>(static_cast<int>(k) / columns);
    rects.emplace_back(x0, y0, x0 + w, y0 + h);
  }
  return rects;
}

// `camera`, made for a viewport of the rectangle's size, maps into the rectangle of a
// `viewport`-sized window: clip x' = s_x x + t_x w (and the same for y), so that
// toPixel and ray work in window pixels.
render::CameraView squeezeInto(render::CameraView camera, const glm::vec4& rect, const glm::vec2& viewport) {
  const float sx = (rect.z - rect.x) / viewport.x, sy = (rect.w - rect.y) / viewport.y;
  const float tx = (rect.x + rect.z) / viewport.x - 1.0f, ty = 1.0f - (rect.y + rect.w) / viewport.y;
  glm::mat4 squeeze(1.0f);
  squeeze[0][0] = sx, squeeze[1][1] = sy, squeeze[3][0] = tx, squeeze[3][1] = ty;
  camera.projection = squeeze * camera.projection;
  camera.viewport = viewport;
  return camera;
}

render::CameraView ortho2d(const Snapshot& s, const glm::vec2& viewport, float margin) {
  render::OrthoCamera ortho;
  const Vec3& size = s.container.size;
  ortho.centre = glm::vec2(static_cast<float>(s.home.position.x), static_cast<float>(s.home.position.y));
  ortho.halfHeight = margin * static_cast<float>(std::max(size.y, size.x * viewport.y / viewport.x));
  return ortho.view(viewport);
}

}  // namespace

SceneFrame frameScene(const Snapshot& s, const ViewSettings& view, render::OrbitCamera& orbit,
                      const glm::vec2& viewport, const glm::vec4& area, bool firstFrame) {
  SceneFrame f;
  f.is3d = s.dim == 3;
  const Vec3& size = s.container.size;
  if (f.is3d) {
    orbit.target = glm::vec3(s.home.position);
    if (firstFrame) orbit.distance = 2.4f * static_cast<float>(glm::length(size));
  }
  const glm::mat4 homeModel = containerModel(s.home, size, s.dim);
  f.model = containerModel(s.container.pose, size, s.dim);
  // Container-frame view: draw the world as seen from the container, parked at home.
  f.drawnFromWorld = view.containerFrame ? homeModel * glm::inverse(f.model) : glm::mat4(1.0f);

  PaneFrame first;
  first.positions = &s.positions, first.values = &s.values, first.device = &s.device;
  first.obstacles = &s.obstacles, first.bodies = &s.bodies;
  first.container = s.container, first.radius = s.radius, first.fieldAvailable = s.fieldAvailable;
  if (s.panes.size() < 2) {
    first.camera = f.is3d ? orbit.view(viewport) : ortho2d(s, viewport, 1.2f);
    first.rect = glm::vec4(0.0f, 0.0f, viewport);
    f.panes.push_back(first);
    return f;
  }
  const std::vector<glm::vec4> rects = paneRects(area, s.panes.size());
  for (std::size_t k = 0; k < s.panes.size(); ++k) {
    PaneFrame pane = first;
    if (k > 0) {
      const PaneView& v = s.panes[k];
      pane.positions = &v.positions, pane.values = &v.values, pane.device = &v.device;
      pane.obstacles = &v.obstacles, pane.bodies = &v.bodies;
      pane.container = v.container, pane.radius = v.radius, pane.fieldAvailable = v.fieldAvailable;
    }
    pane.rect = rects[k];
    const glm::vec2 shape(std::max(rects[k].z - rects[k].x, 1.0f), std::max(rects[k].w - rects[k].y, 1.0f));
    // Room at the top for the pane's label.
    pane.camera = squeezeInto(f.is3d ? orbit.view(shape) : ortho2d(s, shape, 1.12f), rects[k], viewport);
    f.panes.push_back(pane);
  }
  return f;
}

std::size_t paneAt(const SceneFrame& frame, const glm::vec2& pixel) {
  for (std::size_t k = 0; k < frame.panes.size(); ++k) {
    const glm::vec4& r = frame.panes[k].rect;
    if (pixel.x >= r.x && pixel.x < r.z && pixel.y >= r.y && pixel.y < r.w) return k;
  }
  return 0;
}

// The container's box on screen, in framebuffer pixels from the bottom left (x0, y0, x1,
// y1): where the liquid can be drawn. Empty when a corner lies behind the camera.
glm::vec4 containerOnScreen(const render::CameraView& camera, const glm::mat4& model, const Vec3& size, int dim,
                            const glm::ivec2& framebuffer) {
  glm::vec2 lo(1e30f), hi(-1e30f);
  for (int corner = 0; corner < 8; ++corner) {
    const glm::vec3 local(corner & 1 ? size.x : 0.0, corner & 2 ? size.y : 0.0, dim == 3 && (corner & 4) ? size.z : 0.0);
    const glm::vec4 clip = camera.projection * camera.view * model * glm::vec4(local, 1.0f);
    if (clip.w <= 0.0f) return glm::vec4(0.0f);
    const glm::vec2 pixel = (glm::vec2(clip) / clip.w * 0.5f + 0.5f) * glm::vec2(framebuffer);
    lo = glm::min(lo, pixel), hi = glm::max(hi, pixel);
  }
  return {lo, hi};
}

void drawScene(const SceneFrame& f, const Snapshot& snap, const ViewSettings& view,
               render::ParticleRenderer& particles, render::LiquidRenderer& liquid, render::OverlayRenderer& overlays,
               const KernelProbe& probe, glm::vec3& smoothedA, const glm::ivec2& framebuffer) {
  const bool sideBySide = f.panes.size() > 1;
  const glm::vec4 outline(0.9f, 0.92f, 0.95f, 1.0f);
  for (std::size_t k = 0; k < f.panes.size(); ++k) {
    const PaneFrame& pane = f.panes[k];
    const Vec3& size = pane.container.size;  // a pane may run a scene of its own
    const render::CameraView& camera = pane.camera;
    if (sideBySide) {
      glEnable(GL_SCISSOR_TEST);
      glScissor(static_cast<GLint>(pane.rect.x), framebuffer.y - static_cast<GLint>(pane.rect.w),
                static_cast<GLsizei>(pane.rect.z - pane.rect.x), static_cast<GLsizei>(pane.rect.w - pane.rect.y));
    }
    render::ParticleStyle style;
    style.colormap = view.colormap;
    style.solid = view.colourBy == ColourBy::Solid || !pane.fieldAvailable;
    style.solidColour = view.solidColour;
    style.range = glm::vec2(view.low, view.high);  // one colour scale for every pane
    style.radius = pane.radius * view.radiusScale;
    style.depth = f.is3d;
    // Every pane's container has the first pane's pose (sloshlab/comparison.h).
    const glm::mat4 model = containerModel(pane.container.pose, size, snap.dim);
    const bool surface = view.liquidView != render::LiquidView::Particles;
    // The 3D liquid shows what lies behind it: the container's far side first. In 2D the
    // particles lie over the walls' line, and the surface under it (its edge reaches a
    // fifth of a spacing past the walls).
    if (f.is3d ? surface : !surface)
      overlays.drawContainer(camera, f.drawnFromWorld * model, glm::vec3(size), f.is3d, outline, f.is3d ? 1.0f : 3.0f);
    // From GPU memory the positions are in the container frame, so drawn through its model.
    const bool onDevice = pane.device && pane.device->valid;
    DeviceDrawTarget* target = onDevice ? pane.device->target.get() : nullptr;
    if (target) target->waitBeforeDraw();
    const render::ParticleSource source =
        target ? particles.shared(target->buffer(), static_cast<GLsizei>(pane.device->frame.count))
               : particles.upload(*pane.positions, *pane.values);
    const glm::mat4 drawn = target ? f.drawnFromWorld * model : f.drawnFromWorld;
    if (surface) {
      render::LiquidStyle look;
      look.threeD = f.is3d;
      look.radius = style.radius;
      look.spacing = static_cast<float>(snap.spacing) * view.radiusScale;
      look.resolution = view.liquidResolution;
      look.area = containerOnScreen(camera, f.drawnFromWorld * model, size, snap.dim, framebuffer);
      look.container = f.drawnFromWorld * model;
      look.containerSize = glm::vec2(size.x, size.y);
      liquid.draw(source, camera, drawn, style, particles.colormapTexture(style.colormap), look, framebuffer);
    }
    if (view.liquidView == render::LiquidView::Both) {
      style.radius *= 0.4f;  // the particles as beads over the liquid
      particles.draw(source, camera, drawn, style);
    } else if (!surface) {
      particles.draw(source, camera, drawn, style);
    }
    if (target) target->markDrawn();
    // What left through the outlet's hole, falling outside the container (physics.md
    // (14.7)), and, where the liquid is drawn as a surface (within the container only), the
    // jet in the hole's spout: drops in the liquid's colours, the first pane's (side by
    // side, the others' jets are not drawn).
    if (k == 0 && (!snap.jet.empty() || (surface && snap.pour.outletInWall && snap.hostParticles))) {
      std::vector<float> x = snap.jet, values = snap.jetValues;
      if (surface && snap.values.size() * 3 == snap.positions.size())
        for (std::size_t i = 0; i < snap.values.size(); ++i)
          if (inOutletSpout(snap, i)) {
            x.insert(x.end(), snap.positions.begin() + 3 * i, snap.positions.begin() + 3 * i + 3);
            values.push_back(snap.values[i]);
          }
      render::ParticleStyle drops = style;
      drops.radius = pane.radius * view.radiusScale;
      if (!x.empty()) particles.draw(particles.upload(x, values), camera, f.drawnFromWorld, drops);
    }
    if (pane.obstacles && !pane.obstacles->empty()) {
      // The obstacles (sloshlab/solids.h): slate grey, filled in 2D, glassy in 3D. Each
      // pane's mesh is made again only when its obstacles or its container change.
      struct Mesh {
        std::vector<Obstacle> of;
        Vec3 size{0.0};
        int dim = 0;
        std::vector<glm::vec3> tris, edges;
      };
      static std::array<Mesh, kMaxPanes> meshes;
      Mesh& m = meshes[std::min(k, kMaxPanes - 1)];
      if (m.of != *pane.obstacles || m.size != size || m.dim != snap.dim) {
        const ObstacleMesh mesh = obstacleMesh(*pane.obstacles, size, snap.dim);
        m.tris.assign(mesh.triangles.begin(), mesh.triangles.end());
        m.edges.assign(mesh.edges.begin(), mesh.edges.end());
        m.of = *pane.obstacles, m.size = size, m.dim = snap.dim;
      }
      const std::vector<glm::vec3>& tris = m.tris;
      const std::vector<glm::vec3>& edges = m.edges;
      overlays.drawSolids(camera, f.drawnFromWorld * model, tris, edges, f.is3d,
                          f.is3d ? glm::vec4(0.55f, 0.6f, 0.68f, 0.45f) : glm::vec4(0.36f, 0.39f, 0.45f, 1.0f),
                          glm::vec4(0.85f, 0.88f, 0.92f, f.is3d ? 0.7f : 1.0f));
    }
    if (pane.bodies && !pane.bodies->empty()) {
      // The floating bodies (sloshlab/bodies.h): warm wood, filled in 2D, nearly opaque in 3D,
      // meshed where they are each frame (a few hundred triangles each).
      std::vector<glm::vec3> tris, edges;
      for (const BodyView& b : *pane.bodies) {
        const ObstacleMesh mesh = bodyMesh(b, snap.dim);
        tris.insert(tris.end(), mesh.triangles.begin(), mesh.triangles.end());
        edges.insert(edges.end(), mesh.edges.begin(), mesh.edges.end());
      }
      overlays.drawSolids(camera, f.drawnFromWorld * model, tris, edges, f.is3d,
                          f.is3d ? glm::vec4(0.86f, 0.6f, 0.32f, 0.9f) : glm::vec4(0.8f, 0.55f, 0.28f, 1.0f),
                          glm::vec4(0.35f, 0.22f, 0.1f, 1.0f));
    }
    if (f.is3d || surface)
      overlays.drawContainer(camera, f.drawnFromWorld * model, glm::vec3(size), f.is3d, outline, f.is3d ? 1.0f : 3.0f);
    // The outlet's hole in its wall (physics.md (14.3)): a gap in the outline while open,
    // a plug (rust red) while closed; in 3D a ring on the wall. Drawn in every pane that
    // runs the first pane's scene.
    const PourStats& pour = snap.pour;
    if (pour.outletInWall && (k == 0 || (pane.obstacles && *pane.obstacles == snap.obstacles))) {
      const glm::vec3 centre(pour.outletCentre);
      const float r = static_cast<float>(pour.outletRadius);
      const glm::vec4 plug(0.72f, 0.3f, 0.18f, 1.0f);
      if (!f.is3d) {
        glm::vec3 along(0.0f), out(0.0f);
        along[1 - pour.outletAxis] = 1.0f;
        out[pour.outletAxis] = pour.outletSide == 0 ? -1.0f : 1.0f;
        overlays.drawWallGap(camera, f.drawnFromWorld * model, centre - r * along, centre + r * along, out,
                             pour.outletOn ? glm::vec4(view.background, 1.0f) : plug, 3.0f);
      } else {
        glm::vec3 u(0.0f), w(0.0f);
        u[(pour.outletAxis + 1) % 3] = 1.0f;
        w[(pour.outletAxis + 2) % 3] = 1.0f;
        const glm::mat4 m = f.drawnFromWorld * model;
        overlays.drawCircle(camera, glm::vec3(m * glm::vec4(centre, 1.0f)), r, glm::mat3(m) * u, glm::mat3(m) * w,
                            pour.outletOn ? glm::vec4(0.1f, 0.1f, 0.12f, 1.0f) : plug);
      }
    }
    if (k == 0) drawTeachingOverlays(overlays, camera, f.drawnFromWorld, f.drawnFromWorld * model, snap, view, probe);
    if (view.containerFrame) {
      // Arrows at the centre: -A (the fictitious acceleration, orange) and g - A (white).
      const Vec3 A = glm::transpose(pane.container.pose.rotation()) * pane.container.acceleration;
      const glm::vec3 minusA(static_cast<float>(-A.x), static_cast<float>(-A.y), 0.0f);
      if (k == 0) smoothedA += 0.15f * (minusA - smoothedA);
      const float scale = 0.25f * static_cast<float>(size.y) / 9.81f;
      const glm::vec3 centre(snap.home.position);
      const glm::vec3 g(0.0f, -9.81f, 0.0f);
      overlays.drawArrow(camera, centre, scale * (g + smoothedA), glm::vec4(1.0f, 1.0f, 1.0f, 0.8f), 3.0f);
      overlays.drawArrow(camera, centre, scale * smoothedA, glm::vec4(1.0f, 0.55f, 0.1f, 1.0f), 4.0f);
    }
  }
  if (sideBySide) glDisable(GL_SCISSOR_TEST);
}

void drawPaneLabels(const SceneFrame& f, const Snapshot& snap, float uiScale) {
  if (f.panes.size() < 2) return;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  const ImVec2 fbScale = ImGui::GetIO().DisplayFramebufferScale;
  const float pad = 6.0f * uiScale;
  for (std::size_t k = 0; k < f.panes.size() && k < snap.panes.size(); ++k) {
    const PaneView& v = snap.panes[k];
    const glm::vec4& r = f.panes[k].rect;
    const ImVec2 lo(r.x / fbScale.x, r.y / fbScale.y), hi(r.z / fbScale.x, r.w / fbScale.y);
    if (k > 0) draw->AddLine(ImVec2(lo.x, lo.y), ImVec2(lo.x, hi.y), IM_COL32(90, 95, 105, 255), 2.0f);
    if (f.panes.size() == 4 && k >= 2)
      draw->AddLine(ImVec2(lo.x, lo.y), ImVec2(hi.x, lo.y), IM_COL32(90, 95, 105, 255), 2.0f);
    // At the pane's foot: the view's banners and messages take the top centre.
    char text[200];
    std::snprintf(text, sizeof text, "%zu  %s   alone %.2fx real time", k + 1, v.label.c_str(), v.ownSpeed);
    // Wrapped within the pane (three panes in a row leave each a narrow column).
    const float wrap = std::max(hi.x - lo.x - 2.0f * pad, 10.0f);
    ImFont* font = ImGui::GetFont();
    const float size = ImGui::GetFontSize();
    const std::string stopped = v.failure.empty() ? std::string() : "stopped: " + v.failure;
    const float height = font->CalcTextSizeA(size, FLT_MAX, wrap, text).y +
                         (stopped.empty() ? 0.0f : font->CalcTextSizeA(size, FLT_MAX, wrap, stopped.c_str()).y);
    const float y = hi.y - pad - height;
    draw->AddText(font, size, ImVec2(lo.x + pad, y), IM_COL32(235, 238, 242, 255), text, nullptr, wrap);
    if (!stopped.empty())
      draw->AddText(font, size, ImVec2(lo.x + pad, y + font->CalcTextSizeA(size, FLT_MAX, wrap, text).y),
                    IM_COL32(255, 110, 100, 255), stopped.c_str(), nullptr, wrap);
  }
}

}  // namespace sloshlab::app
