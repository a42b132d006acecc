#include "render/particle_renderer.h"

namespace sloshlab::render {

ParticleRenderer::ParticleRenderer() : m_program("particles.vert", "particles.frag") {
  glGenVertexArrays(1, &m_vao);
  glGenBuffers(1, &m_positions);
  glGenBuffers(1, &m_values);
  glBindVertexArray(m_vao);
  glBindBuffer(GL_ARRAY_BUFFER, m_positions);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, nullptr);
  glBindBuffer(GL_ARRAY_BUFFER, m_values);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 1, GL_FLOAT, GL_FALSE, 0, nullptr);
  glBindVertexArray(0);
  glGenVertexArrays(1, &m_sharedVao);

  glGenTextures(static_cast<GLsizei>(m_colormaps.size()), m_colormaps.data());
  for (std::size_t k = 0; k < m_colormaps.size(); ++k) {
    const auto table = colormapTable(static_cast<Colormap>(k));
    glBindTexture(GL_TEXTURE_2D, m_colormaps[k]);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, 256, 1, 0, GL_RGB, GL_UNSIGNED_BYTE, table.data());
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  }
}

ParticleRenderer::~ParticleRenderer() {
  glDeleteTextures(static_cast<GLsizei>(m_colormaps.size()), m_colormaps.data());
  glDeleteBuffers(1, &m_values);
  glDeleteBuffers(1, &m_positions);
  glDeleteVertexArrays(1, &m_sharedVao);
  glDeleteVertexArrays(1, &m_vao);
}

ParticleSource ParticleRenderer::upload(std::span<const float> positions, std::span<const float> values) {
  m_count = static_cast<GLsizei>(values.size());
  // Orphan and refill: the driver need not wait for the previous frame's draw.
  glBindBuffer(GL_ARRAY_BUFFER, m_positions);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(positions.size_bytes()), nullptr, GL_STREAM_DRAW);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(positions.size_bytes()), positions.data(), GL_STREAM_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, m_values);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(values.size_bytes()), nullptr, GL_STREAM_DRAW);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(values.size_bytes()), values.data(), GL_STREAM_DRAW);
  return {m_vao, m_count};
}

ParticleSource ParticleRenderer::shared(GLuint buffer, GLsizei count) {
  if (buffer == 0) return {};
  glBindVertexArray(m_sharedVao);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 16, nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 1, GL_FLOAT, GL_FALSE, 16, reinterpret_cast<const void*>(12));
  glBindVertexArray(0);
  return {m_sharedVao, count};
}

void ParticleRenderer::draw(const ParticleSource& source, const CameraView& camera, const glm::mat4& model,
                            const ParticleStyle& style) {
  if (source.count == 0) return;
  glEnable(GL_PROGRAM_POINT_SIZE);
  // 2D particles lie in one plane and need no depth test (cheaper on software GL).
  if (style.depth) glEnable(GL_DEPTH_TEST);
  else glDisable(GL_DEPTH_TEST);
  m_program.use();
  m_program.set("uView", camera.view * model);
  m_program.set("uProjection", camera.projection);
  m_program.set("uRadius", style.radius);
  m_program.set("uViewportHeight", camera.viewport.y);
  m_program.set("uRange", style.range);
  m_program.set("uSolid", style.solid ? 1 : 0);
  m_program.set("uSolidColour", style.solidColour);
  m_program.set("uColormap", 0);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, m_colormaps[static_cast<std::size_t>(style.colormap)]);
  glBindVertexArray(source.vao);
  glDrawArrays(GL_POINTS, 0, source.count);
  glBindVertexArray(0);
}

}  // namespace sloshlab::render
