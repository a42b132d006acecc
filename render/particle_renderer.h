// Draws particles as lit sphere sprites coloured by a scalar field through a colour map.
#pragma once

#include "render/camera.h"
#include "render/colormap.h"
#include "render/shader_program.h"

#include <array>
#include <span>

namespace sloshlab::render {

struct ParticleStyle {
  Colormap colormap = Colormap::Water;
  bool solid = false;
  glm::vec3 solidColour{0.16f, 0.45f, 0.85f};
  glm::vec2 range{0.0f, 1.0f};  // field values mapped to the ends of the colour map
  float radius = 0.005f;         // metres
  bool depth = true;             // depth-test (3D)
};

// Particles ready to draw: a vertex array with the position at attribute 0 and the
// colour field's value at attribute 1 (ParticleRenderer::upload or ::shared).
struct ParticleSource {
  GLuint vao = 0;
  GLsizei count = 0;
};

class ParticleRenderer {
 public:
  ParticleRenderer();
  ~ParticleRenderer();
  ParticleRenderer(const ParticleRenderer&) = delete;
  ParticleRenderer& operator=(const ParticleRenderer&) = delete;

  // Positions as x, y, z triples and one field value per particle.
  ParticleSource upload(std::span<const float> positions, std::span<const float> values);
  // `count` points in a buffer of another context that shares this one's objects (the
  // GPU path's, sloshlab/gpu.h): x, y, z, value per particle, 16 bytes. Attached again
  // for every frame: a buffer changed in another context is seen after its fence once it
  // is bound anew (OpenGL 4.5 core, 5.3.3).
  ParticleSource shared(GLuint buffer, GLsizei count);
  // `model` maps the source's positions into the world drawn by the camera.
  void draw(const ParticleSource& source, const CameraView& camera, const glm::mat4& model,
            const ParticleStyle& style);
  // The colour maps' textures (the liquid's tint reads them too).
  GLuint colormapTexture(Colormap map) const { return m_colormaps[static_cast<std::size_t>(map)]; }

 private:
  ShaderProgram m_program;
  GLuint m_vao = 0;
  GLuint m_sharedVao = 0;  // reads the other context's buffer (drawShared)
  GLuint m_positions = 0;
  GLuint m_values = 0;
  GLsizei m_count = 0;
  std::array<GLuint, static_cast<std::size_t>(Colormap::Count)> m_colormaps{};
};

}  // namespace sloshlab::render
