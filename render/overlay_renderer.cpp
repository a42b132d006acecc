#include "render/overlay_renderer.h"

#include <cmath>

namespace sloshlab::render {

float worldPerPixel(const CameraView& camera) { return 2.0f / (camera.projection[1][1] * camera.viewport.y); }

OverlayRenderer::OverlayRenderer() : m_program("flat.vert", "flat.frag") {
  glGenVertexArrays(1, &m_vao);
  glGenBuffers(1, &m_vbo);
  glBindVertexArray(m_vao);
  glBindBuffer(GL_ARRAY_BUFFER, m_vbo);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
  glBindVertexArray(0);
}

OverlayRenderer::~OverlayRenderer() {
  glDeleteBuffers(1, &m_vbo);
  glDeleteVertexArrays(1, &m_vao);
}

void OverlayRenderer::draw(const CameraView& camera, const glm::mat4& model, const std::vector<glm::vec3>& vertices,
                           GLenum mode, const glm::vec4& colour) {
  if (vertices.empty()) return;
  m_program.use();
  m_program.set("uModel", model);
  m_program.set("uView", camera.view);
  m_program.set("uProjection", camera.projection);
  m_program.set("uColour", colour);
  glBindVertexArray(m_vao);
  glBindBuffer(GL_ARRAY_BUFFER, m_vbo);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(glm::vec3)), vertices.data(),
               GL_STREAM_DRAW);
  glDrawArrays(mode, 0, static_cast<GLsizei>(vertices.size()));
  glBindVertexArray(0);
}

void OverlayRenderer::thickSegment(std::vector<glm::vec3>& out, const glm::vec3& a, const glm::vec3& b, float w) {
  const glm::vec3 d = b - a;
  const float len = std::sqrt(d.x * d.x + d.y * d.y);
  if (len <= 0.0f) return;
  const glm::vec3 n = glm::vec3(-d.y, d.x, 0.0f) * (0.5f * w / len);
  const glm::vec3 e = glm::vec3(d.x, d.y, 0.0f) * (0.5f * w / len);  // square caps close the corners
  const glm::vec3 p0 = a - e + n, p1 = a - e - n, p2 = b + e - n, p3 = b + e + n;
  out.insert(out.end(), {p0, p1, p2, p0, p2, p3});
}

void OverlayRenderer::drawContainer(const CameraView& camera, const glm::mat4& model, const glm::vec3& size, bool is3d,
                                    const glm::vec4& colour, float pixels) {
  m_scratch.clear();
  if (!is3d) {
    const float w = pixels * worldPerPixel(camera);
    const glm::vec3 c[4] = {{0, 0, 0}, {size.x, 0, 0}, {size.x, size.y, 0}, {0, size.y, 0}};
    // Grow the outline outwards so it never covers liquid touching the wall.
    const glm::vec3 out[4] = {{-0.5f * w, -0.5f * w, 0}, {0.5f * w, -0.5f * w, 0}, {0.5f * w, 0.5f * w, 0},
                              {-0.5f * w, 0.5f * w, 0}};
    for (int k = 0; k < 4; ++k) thickSegment(m_scratch, c[k] + out[k], c[(k + 1) % 4] + out[(k + 1) % 4], w);
    glDisable(GL_DEPTH_TEST);
    draw(camera, model, m_scratch, GL_TRIANGLES, colour);
    return;
  }
  // Glass: the six faces, faintly, without writing depth; then the twelve edges.
  const glm::vec3 v[8] = {{0, 0, 0},           {size.x, 0, 0},      {size.x, size.y, 0},      {0, size.y, 0},
                          {0, 0, size.z},      {size.x, 0, size.z}, {size.x, size.y, size.z}, {0, size.y, size.z}};
  const int faces[6][4] = {{0, 1, 2, 3}, {4, 5, 6, 7}, {0, 1, 5, 4}, {3, 2, 6, 7}, {0, 3, 7, 4}, {1, 2, 6, 5}};
  for (const auto& f : faces) m_scratch.insert(m_scratch.end(), {v[f[0]], v[f[1]], v[f[2]], v[f[0]], v[f[2]], v[f[3]]});
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glEnable(GL_DEPTH_TEST);
  glDepthMask(GL_FALSE);
  draw(camera, model, m_scratch, GL_TRIANGLES, glm::vec4(glm::vec3(colour), 0.07f));
  glDepthMask(GL_TRUE);
  m_scratch.clear();
  const int edges[12][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6}, {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
  for (const auto& e : edges) m_scratch.insert(m_scratch.end(), {v[e[0]], v[e[1]]});
  draw(camera, model, m_scratch, GL_LINES, colour);
  glDisable(GL_BLEND);
}

void OverlayRenderer::drawWallGap(const CameraView& camera, const glm::mat4& model, const glm::vec3& a,
                                  const glm::vec3& b, const glm::vec3& outward, const glm::vec4& colour, float pixels) {
  m_scratch.clear();
  const float w = pixels * worldPerPixel(camera);
  // The outline lies half its width outside the wall: cover it with a pixel to spare.
  const glm::vec3 shift = 0.5f * w * outward;
  thickSegment(m_scratch, a + shift, b + shift, w + 2.0f * worldPerPixel(camera));
  glDisable(GL_DEPTH_TEST);
  draw(camera, model, m_scratch, GL_TRIANGLES, colour);
}

void OverlayRenderer::drawSolids(const CameraView& camera, const glm::mat4& model,
                                 const std::vector<glm::vec3>& triangles, const std::vector<glm::vec3>& edges,
                                 bool is3d, const glm::vec4& fill, const glm::vec4& edge) {
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  if (is3d) {
    glEnable(GL_DEPTH_TEST);
    glDepthMask(GL_FALSE);
  } else {
    glDisable(GL_DEPTH_TEST);
  }
  draw(camera, model, triangles, GL_TRIANGLES, fill);
  draw(camera, model, edges, GL_LINES, edge);
  glDepthMask(GL_TRUE);
  glDisable(GL_BLEND);
}

void OverlayRenderer::drawArrow(const CameraView& camera, const glm::vec3& from, const glm::vec3& vector,
                                const glm::vec4& colour, float pixels) {
  m_scratch.clear();
  const float w = pixels * worldPerPixel(camera);
  const float len = std::sqrt(vector.x * vector.x + vector.y * vector.y);
  if (len < 2.0f * w) return;
  const glm::vec3 dir = vector / len;
  const glm::vec3 side(-dir.y, dir.x, 0.0f);
  const float head = std::min(6.0f * w, 0.4f * len);
  const glm::vec3 tip = from + vector, base = tip - head * dir;
  thickSegment(m_scratch, from, base, w);
  m_scratch.insert(m_scratch.end(), {tip, base + 0.6f * head * side, base - 0.6f * head * side});
  glDisable(GL_DEPTH_TEST);
  draw(camera, glm::mat4(1.0f), m_scratch, GL_TRIANGLES, colour);
}

void OverlayRenderer::drawCircle(const CameraView& camera, const glm::vec3& centre, float radius, const glm::vec3& u,
                                 const glm::vec3& v, const glm::vec4& colour) {
  m_scratch.clear();
  constexpr int kSegments = 64;
  for (int k = 0; k < kSegments; ++k) {
    const float a = 6.2831853f * static_cast<float>(k) / kSegments;
    m_scratch.push_back(centre + radius * (std::cos(a) * u + std::sin(a) * v));
  }
  glDisable(GL_DEPTH_TEST);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  draw(camera, glm::mat4(1.0f), m_scratch, GL_LINE_LOOP, colour);
  glDisable(GL_BLEND);
}

void OverlayRenderer::drawDots(const CameraView& camera, const std::vector<glm::vec3>& points, const glm::vec4& colour,
                               float pixels) {
  glDisable(GL_PROGRAM_POINT_SIZE);  // the flat shader leaves the size to glPointSize
  glPointSize(pixels);
  glDisable(GL_DEPTH_TEST);
  draw(camera, glm::mat4(1.0f), points, GL_POINTS, colour);
}

void OverlayRenderer::drawSquares(const CameraView& camera, const std::vector<glm::vec3>& points,
                                  const glm::vec4& colour, float pixels) {
  glDisable(GL_PROGRAM_POINT_SIZE);  // the flat shader's points are squares of glPointSize
  glPointSize(pixels);
  glDisable(GL_DEPTH_TEST);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  draw(camera, glm::mat4(1.0f), points, GL_POINTS, colour);
  glDisable(GL_BLEND);
}

void OverlayRenderer::drawLines(const CameraView& camera, const std::vector<glm::vec3>& segments,
                                const glm::vec4& colour) {
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glDisable(GL_DEPTH_TEST);
  draw(camera, glm::mat4(1.0f), segments, GL_LINES, colour);
  glDisable(GL_BLEND);
}

void OverlayRenderer::drawGrid(const CameraView& camera, const glm::mat4& model, const glm::vec3& size, float cell,
                               const glm::vec4& colour) {
  if (cell <= 0.0f) return;
  m_scratch.clear();
  for (float x = 0.0f; x <= size.x + 1e-6f; x += cell) m_scratch.insert(m_scratch.end(), {{x, 0, 0}, {x, size.y, 0}});
  for (float y = 0.0f; y <= size.y + 1e-6f; y += cell) m_scratch.insert(m_scratch.end(), {{0, y, 0}, {size.x, y, 0}});
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glDisable(GL_DEPTH_TEST);
  draw(camera, model, m_scratch, GL_LINES, colour);
  glDisable(GL_BLEND);
}

}  // namespace sloshlab::render
