// The liquid drawn as a liquid (issue 26): screen-space fluid rendering in 3D, a
// level set of splatted bumps in 2D. Both read the particles from a ParticleSource, the
// host's upload or a GPU solver's own buffer, and tint the liquid with the colour field.
//
// 3D, after van der Laan, Green and Sainz (2009), "Screen space fluid rendering with
// curvature flow", with a bilateral filter in place of the curvature flow:
//   1. depth: each particle a sphere of 0.7 spacings, so that no ray slips between the
//      spheres of a lattice, the nearest surface kept (liquid_depth.frag);
//   2. thickness: the spheres' chords added up along each ray, with the colour field's
//      tint weighted by them (liquid_thickness.frag);
//   3. smoothing: a separable bilateral filter over the depth (liquid_smooth.frag);
//   4. shading: normals from the smoothed depth, Beer-Lambert absorption by thickness,
//      the background seen through it, Fresnel reflection, a highlight
//      (liquid_shade3d.frag). An isolated particle stays a drop.
// 2D: the particles' bumps (1 - q^2)^3 summed into a field, its level set the surface,
//   shaded by the field's slope with a rim along the edge (liquid_blob.frag,
//   liquid_shade2d.frag).
//
// The passes run in textures at a fraction of the framebuffer's resolution (half on a
// software rasteriser), and the result is drawn into the framebuffer bound at the call.
#pragma once

#include "render/camera.h"
#include "render/particle_renderer.h"
#include "render/shader_program.h"

#include <string>

namespace sloshlab::render {

// What the view shows of the particles: the liquid, the particles, or the particles
// over the liquid.
enum class LiquidView { Surface, Particles, Both, Count };
const char* liquidViewName(LiquidView view);  // "surface", "particles", "both"
// False (and `view` unchanged) for a name that is none of these.
bool parseLiquidView(const std::string& name, LiquidView& view);

struct LiquidStyle {
  bool threeD = true;
  float radius = 0.005f;     // drawn particle radius (m)
  float spacing = 0.01f;     // particle spacing (m): the 3D spheres' radius is 0.7 of it (or the
                             // drawn radius, if larger), the 2D bumps' 1.5
  float resolution = 1.0f;   // the passes' resolution, a fraction of the framebuffer's
  float absorption = 40.0f;  // Beer-Lambert sigma (1/m)
  // Where the liquid can be, in framebuffer pixels from the bottom left (x0, y0, x1, y1):
  // the passes work there alone (the container's box on screen). Empty: everywhere.
  glm::vec4 area{0.0f};
  // 2D: the container, whose inside alone shows liquid (the bumps reach a fraction of a
  // spacing past the walls): local [0, size] -> the camera's world, and the size (m).
  glm::mat4 container{1.0f};
  glm::vec2 containerSize{0.0f};
};

class LiquidRenderer {
 public:
  LiquidRenderer();
  ~LiquidRenderer();
  LiquidRenderer(const LiquidRenderer&) = delete;
  LiquidRenderer& operator=(const LiquidRenderer&) = delete;

  // Draws `source`'s particles (mapped by `model` into the camera's world) as a liquid
  // into the framebuffer bound now, of size `framebuffer`; `colormap` and `style`
  // (range, solid colour) tint it as they colour the particles.
  void draw(const ParticleSource& source, const CameraView& camera, const glm::mat4& model,
            const ParticleStyle& style, GLuint colormap, const LiquidStyle& liquid, const glm::ivec2& framebuffer);

 private:
  void resize(const glm::ivec2& size);
  void splat(ShaderProgram& program, const ParticleSource& source, const CameraView& camera, const glm::mat4& model,
             const ParticleStyle& style, GLuint colormap, float radius);
  void fullscreen();

  ShaderProgram m_depth, m_thickness, m_blob, m_smooth, m_shade3d, m_shade2d;
  GLuint m_depthFbo = 0, m_thicknessFbo = 0, m_smoothFbo[2] = {0, 0};
  GLuint m_depthTexture = 0, m_depthBuffer = 0, m_thicknessTexture = 0, m_smoothTexture[2] = {0, 0};
  GLuint m_background = 0;
  GLuint m_emptyVao = 0;
  glm::ivec2 m_size{0}, m_backgroundSize{0};
};

}  // namespace sloshlab::render
