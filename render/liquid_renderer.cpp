#include "render/liquid_renderer.h"

#include <algorithm>
#include <cmath>

namespace sloshlab::render {

namespace {

constexpr float kBlobRadius = 1.5f;  // the 2D bumps' radius, in particle spacings
constexpr int kSmoothingRounds = 3;   // of the 3D depth's filter, each horizontal then vertical
constexpr float kSphereScale = 1.4f;  // the 3D depth pass's spheres, in half spacings
// The 2D surface's level: half a lone particle's peak, so that a drop is 1.4 spacings
// across, while inside a lattice the field stays above 1.8 (four bumps at 0.71 spacing).
constexpr float kIso = 0.5f;

// `filter` GL_NEAREST for depths: a depth blended with the background's 0 at a
// silhouette would be a point in front of the liquid.
void makeTexture(GLuint& texture, GLenum format, GLenum type, const glm::ivec2& size, GLenum internal,
                 GLint filter = GL_LINEAR) {
  if (!texture) glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexImage2D(GL_TEXTURE_2D, 0, static_cast<GLint>(internal), size.x, size.y, 0, format, type, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
}

void attach(GLuint& fbo, GLuint texture, GLuint depth = 0) {
  if (!fbo) glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
  if (depth) glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth);
}

}  // namespace

const char* liquidViewName(LiquidView view) {
  switch (view) {
    case LiquidView::Surface: return "surface";
    case LiquidView::Particles: return "particles";
    case LiquidView::Both: return "both";
    case LiquidView::Count: break;
  }
  return "?";
}

bool parseLiquidView(const std::string& name, LiquidView& view) {
  for (int k = 0; k < static_cast<int>(LiquidView::Count); ++k)
    if (name == liquidViewName(static_cast<LiquidView>(k))) {
      view = static_cast<LiquidView>(k);
      return true;
    }
  return false;
}

LiquidRenderer::LiquidRenderer()
    : m_depth("particles.vert", "liquid_depth.frag"),
      m_thickness("particles.vert", "liquid_thickness.frag"),
      m_blob("particles.vert", "liquid_blob.frag"),
      m_smooth("fullscreen.vert", "liquid_smooth.frag"),
      m_shade3d("fullscreen.vert", "liquid_shade3d.frag"),
      m_shade2d("fullscreen.vert", "liquid_shade2d.frag") {
  glGenVertexArrays(1, &m_emptyVao);
}

LiquidRenderer::~LiquidRenderer() {
  const GLuint fbos[] = {m_depthFbo, m_thicknessFbo, m_smoothFbo[0], m_smoothFbo[1]};
  glDeleteFramebuffers(4, fbos);
  const GLuint textures[] = {m_depthTexture, m_thicknessTexture, m_smoothTexture[0], m_smoothTexture[1], m_background};
  glDeleteTextures(5, textures);
  glDeleteRenderbuffers(1, &m_depthBuffer);
  glDeleteVertexArrays(1, &m_emptyVao);
}

void LiquidRenderer::resize(const glm::ivec2& size) {
  if (size == m_size) return;
  m_size = size;
  makeTexture(m_depthTexture, GL_RED, GL_FLOAT, size, GL_R32F, GL_NEAREST);
  makeTexture(m_thicknessTexture, GL_RGBA, GL_FLOAT, size, GL_RGBA16F);
  for (GLuint& t : m_smoothTexture) makeTexture(t, GL_RED, GL_FLOAT, size, GL_R32F, GL_NEAREST);
  if (!m_depthBuffer) glGenRenderbuffers(1, &m_depthBuffer);
  glBindRenderbuffer(GL_RENDERBUFFER, m_depthBuffer);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, size.x, size.y);
  attach(m_depthFbo, m_depthTexture, m_depthBuffer);
  attach(m_thicknessFbo, m_thicknessTexture);
  for (int k = 0; k < 2; ++k) attach(m_smoothFbo[k], m_smoothTexture[k]);
}

void LiquidRenderer::splat(ShaderProgram& program, const ParticleSource& source, const CameraView& camera,
                           const glm::mat4& model, const ParticleStyle& style, GLuint colormap, float radius) {
  program.use();
  program.set("uView", camera.view * model);
  program.set("uProjection", camera.projection);
  program.set("uRadius", radius);
  program.set("uViewportHeight", static_cast<float>(m_size.y));
  program.set("uRange", style.range);
  program.set("uSolid", style.solid ? 1 : 0);
  program.set("uSolidColour", style.solidColour);
  program.set("uColormap", 0);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, colormap);
  glBindVertexArray(source.vao);
  glDrawArrays(GL_POINTS, 0, source.count);
  glBindVertexArray(0);
}

void LiquidRenderer::fullscreen() {
  glBindVertexArray(m_emptyVao);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
}

void LiquidRenderer::draw(const ParticleSource& source, const CameraView& camera, const glm::mat4& model,
                          const ParticleStyle& style, GLuint colormap, const LiquidStyle& liquid,
                          const glm::ivec2& framebuffer) {
  if (source.count == 0 || framebuffer.x <= 0 || framebuffer.y <= 0) return;
  GLint drawFbo = 0, readFbo = 0, viewport[4] = {0, 0, 0, 0};
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &drawFbo);
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &readFbo);
  glGetIntegerv(GL_VIEWPORT, viewport);
  const GLboolean scissor = glIsEnabled(GL_SCISSOR_TEST);
  const float scale = std::clamp(liquid.resolution, 0.25f, 1.0f);
  resize(glm::max(glm::ivec2(glm::round(glm::vec2(framebuffer) * scale)), glm::ivec2(1)));
  glEnable(GL_PROGRAM_POINT_SIZE);
  glViewport(0, 0, m_size.x, m_size.y);
  const glm::vec2 texel = 1.0f / glm::vec2(m_size);
  // The passes work inside the liquid's area alone (a margin of a few particles for the
  // filter and the splats' edges); the last one also inside the pane's scissor box.
  const bool bounded = liquid.area.z > liquid.area.x && liquid.area.w > liquid.area.y;
  const float margin = 8.0f;
  const glm::vec4 area = bounded ? liquid.area + glm::vec4(-margin, -margin, margin, margin)
                                 : glm::vec4(0.0f, 0.0f, framebuffer.x, framebuffer.y);
  GLint paneBox[4] = {0, 0, framebuffer.x, framebuffer.y};
  if (scissor) glGetIntegerv(GL_SCISSOR_BOX, paneBox);
  const auto scissorTo = [](glm::vec4 r, const glm::vec2& limit) {
    r = glm::clamp(r, glm::vec4(0.0f), glm::vec4(limit, limit));
    glScissor(static_cast<GLint>(std::floor(r.x)), static_cast<GLint>(std::floor(r.y)),
              std::max(static_cast<GLsizei>(std::ceil(r.z - std::floor(r.x))), 0),
              std::max(static_cast<GLsizei>(std::ceil(r.w - std::floor(r.y))), 0));
  };
  glEnable(GL_SCISSOR_TEST);
  scissorTo(area * scale, glm::vec2(m_size));
  const auto finalScissor = [&] {
    const glm::vec4 pane(paneBox[0], paneBox[1], paneBox[0] + paneBox[2], paneBox[1] + paneBox[3]);
    scissorTo(glm::vec4(glm::max(glm::vec2(area), glm::vec2(pane)), glm::min(glm::vec2(area.z, area.w),
                                                                             glm::vec2(pane.z, pane.w))),
              glm::vec2(framebuffer));
  };
  const auto restoreScissor = [&] {
    glScissor(paneBox[0], paneBox[1], paneBox[2], paneBox[3]);
    if (!scissor) glDisable(GL_SCISSOR_TEST);
  };

  if (liquid.threeD) {
    // What lies behind the liquid, for the refraction.
    if (m_backgroundSize != framebuffer) {
      m_backgroundSize = framebuffer;
      makeTexture(m_background, GL_RGBA, GL_UNSIGNED_BYTE, framebuffer, GL_RGBA8);
    }
    // Only inside the liquid's area: the refraction reads nothing else.
    glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(readFbo));
    glBindTexture(GL_TEXTURE_2D, m_background);
    const glm::ivec4 copy(glm::clamp(glm::ivec4(glm::floor(area)), glm::ivec4(0),
                                     glm::ivec4(framebuffer.x, framebuffer.y, framebuffer.x, framebuffer.y)));
    if (copy.z > copy.x && copy.w > copy.y)
      glCopyTexSubImage2D(GL_TEXTURE_2D, 0, copy.x, copy.y, copy.x, copy.y, copy.z - copy.x, copy.w - copy.y);

    // Spheres a little larger than half the spacing: rays between the spheres of a
    // lattice would otherwise reach the layer behind, and show as dark pits.
    const float sphere = kSphereScale * std::max(style.radius, 0.5f * liquid.spacing);
    glBindFramebuffer(GL_FRAMEBUFFER, m_depthFbo);
    glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    splat(m_depth, source, camera, model, style, colormap, sphere);

    glBindFramebuffer(GL_FRAMEBUFFER, m_thicknessFbo);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE);
    splat(m_thickness, source, camera, model, style, colormap, 2.0f * sphere);
    glDisable(GL_BLEND);

    // Horizontal, then vertical.
    const glm::mat4& p = camera.projection;
    m_smooth.use();
    m_smooth.set("uDepth", 0);
    m_smooth.set("uPixelsPerMetre", 0.5f * p[1][1] * static_cast<float>(m_size.y));
    m_smooth.set("uRadius", sphere);
    m_smooth.set("uPerspective", p[2][3] != 0.0f ? 1 : 0);
    glActiveTexture(GL_TEXTURE0);
    GLuint input = m_depthTexture;
    for (int pass = 0; pass < 2 * kSmoothingRounds; ++pass) {
      const int k = pass % 2;
      glBindFramebuffer(GL_FRAMEBUFFER, m_smoothFbo[k]);
      m_smooth.set("uStep", k == 0 ? glm::vec2(texel.x, 0.0f) : glm::vec2(0.0f, texel.y));
      glBindTexture(GL_TEXTURE_2D, input);
      fullscreen();
      input = m_smoothTexture[k];
    }

    glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(drawFbo));
    glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(readFbo));
    glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
    finalScissor();
    glEnable(GL_DEPTH_TEST);
    m_shade3d.use();
    m_shade3d.set("uDepth", 0);
    m_shade3d.set("uThickness", 1);
    m_shade3d.set("uBackground", 2);
    m_shade3d.set("uProjection", camera.projection);
    m_shade3d.set("uTexel", texel);
    m_shade3d.set("uAbsorption", liquid.absorption);
    m_shade3d.set("uRefraction", 0.35f);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, m_smoothTexture[1]);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, m_thicknessTexture);
    glActiveTexture(GL_TEXTURE2);
    glBindTexture(GL_TEXTURE_2D, m_background);
    fullscreen();
    glActiveTexture(GL_TEXTURE0);
    restoreScissor();
    return;
  }

  glBindFramebuffer(GL_FRAMEBUFFER, m_thicknessFbo);
  glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glDisable(GL_DEPTH_TEST);
  glEnable(GL_BLEND);
  glBlendFunc(GL_ONE, GL_ONE);
  splat(m_blob, source, camera, model, style, colormap, kBlobRadius * liquid.spacing);

  glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(drawFbo));
  glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(readFbo));
  glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
  finalScissor();
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  m_shade2d.use();
  m_shade2d.set("uField", 0);
  m_shade2d.set("uTexel", texel);
  m_shade2d.set("uIso", kIso);
  m_shade2d.set("uLocalFromNdc", glm::inverse(camera.projection * camera.view * liquid.container));
  m_shade2d.set("uSize", liquid.containerSize);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, m_thicknessTexture);
  fullscreen();
  glDisable(GL_BLEND);
  restoreScissor();
}

}  // namespace sloshlab::render
