// Flat-coloured geometry over and around the particles: the container as a thick
// outline (2D) or a glass box (3D), arrows (the fictitious force -A), grid lines.
#pragma once

#include "render/camera.h"
#include "render/shader_program.h"

#include <vector>

namespace sloshlab::render {

class OverlayRenderer {
 public:
  OverlayRenderer();
  ~OverlayRenderer();
  OverlayRenderer(const OverlayRenderer&) = delete;
  OverlayRenderer& operator=(const OverlayRenderer&) = delete;

  // The box [0, size] in the frame `model`: an outline `pixels` wide in 2D; glass
  // faces and edges in 3D.
  void drawContainer(const CameraView& camera, const glm::mat4& model, const glm::vec3& size, bool is3d,
                     const glm::vec4& colour, float pixels);
  // Solid obstacles in the frame `model`: `triangles` (three points each) filled, and
  // `edges` (two points each) drawn over them. 2D: opaque, over the particles; 3D:
  // translucent, behind what is nearer.
  void drawSolids(const CameraView& camera, const glm::mat4& model, const std::vector<glm::vec3>& triangles,
                  const std::vector<glm::vec3>& edges, bool is3d, const glm::vec4& fill, const glm::vec4& edge);
  // An arrow from `from` along `vector` (world units), `pixels` wide (2D look).
  void drawArrow(const CameraView& camera, const glm::vec3& from, const glm::vec3& vector, const glm::vec4& colour,
                 float pixels);
  // 2D: the stretch a-b of the container's outline (drawContainer, `pixels` wide) painted
  // over in `colour`; `outward` is the wall's outward normal. A hole in the wall shows as a
  // gap in the background's colour.
  void drawWallGap(const CameraView& camera, const glm::mat4& model, const glm::vec3& a, const glm::vec3& b,
                   const glm::vec3& outward, const glm::vec4& colour, float pixels);
  // A circle of `radius` about `centre` in the plane spanned by the unit vectors u, v.
  void drawCircle(const CameraView& camera, const glm::vec3& centre, float radius, const glm::vec3& u,
                  const glm::vec3& v, const glm::vec4& colour);
  // Round dots of `pixels` diameter at world points.
  void drawDots(const CameraView& camera, const std::vector<glm::vec3>& points, const glm::vec4& colour, float pixels);
  // Translucent squares of `pixels` side at world points (the colour's alpha blends).
  void drawSquares(const CameraView& camera, const std::vector<glm::vec3>& points, const glm::vec4& colour,
                   float pixels);
  // Line segments (pairs of world points), one pixel wide, over everything.
  void drawLines(const CameraView& camera, const std::vector<glm::vec3>& segments, const glm::vec4& colour);
  // Grid lines of the box [0, size] with cells of side `cell`, in the plane z = 0 (2D).
  void drawGrid(const CameraView& camera, const glm::mat4& model, const glm::vec3& size, float cell,
                const glm::vec4& colour);

 private:
  void draw(const CameraView& camera, const glm::mat4& model, const std::vector<glm::vec3>& vertices, GLenum mode,
            const glm::vec4& colour);
  // Triangles for a segment a-b of width w in the xy plane.
  static void thickSegment(std::vector<glm::vec3>& out, const glm::vec3& a, const glm::vec3& b, float w);

  ShaderProgram m_program;
  GLuint m_vao = 0;
  GLuint m_vbo = 0;
  std::vector<glm::vec3> m_scratch;
};

// Metres per pixel at the origin of an orthographic view (2D drawing widths).
float worldPerPixel(const CameraView& camera);

}  // namespace sloshlab::render
