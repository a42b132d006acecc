#include "render/shader_program.h"

#include "sloshlab/embedded.h"

#include <glm/gtc/type_ptr.hpp>

#include <stdexcept>

namespace sloshlab {
namespace embedded {
extern const EmbeddedFile kShaders[];
extern const std::size_t kShadersCount;
}  // namespace embedded

namespace render {

namespace {

const char* shaderSource(const char* file) {
  const char* text = embedded::findEmbedded({embedded::kShaders, embedded::kShadersCount}, file);
  if (!text) throw std::runtime_error(std::string("shader '") + file + "' is not compiled into the binary");
  return text;
}

GLuint compile(GLenum stage, const char* file) {
  const char* source = shaderSource(file);
  GLuint shader = glCreateShader(stage);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[2048] = {};
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    glDeleteShader(shader);
    throw std::runtime_error(std::string("shader '") + file + "' does not compile: " + log);
  }
  return shader;
}

}  // namespace

ShaderProgram::ShaderProgram(const char* vertexFile, const char* fragmentFile) {
  const GLuint vs = compile(GL_VERTEX_SHADER, vertexFile);
  const GLuint fs = compile(GL_FRAGMENT_SHADER, fragmentFile);
  m_program = glCreateProgram();
  glAttachShader(m_program, vs);
  glAttachShader(m_program, fs);
  glLinkProgram(m_program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(m_program, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[2048] = {};
    glGetProgramInfoLog(m_program, sizeof log, nullptr, log);
    throw std::runtime_error(std::string("shaders '") + vertexFile + "' + '" + fragmentFile +
                             "' do not link: " + log);
  }
}

ShaderProgram::~ShaderProgram() {
  if (m_program) glDeleteProgram(m_program);
}

ShaderProgram::ShaderProgram(ShaderProgram&& other) noexcept
    : m_program(other.m_program), m_locations(std::move(other.m_locations)) {
  other.m_program = 0;
}

ShaderProgram& ShaderProgram::operator=(ShaderProgram&& other) noexcept {
  if (this != &other) {
    if (m_program) glDeleteProgram(m_program);
    m_program = other.m_program;
    m_locations = std::move(other.m_locations);
    other.m_program = 0;
  }
  return *this;
}

GLint ShaderProgram::location(const char* name) {
  auto it = m_locations.find(name);
  if (it != m_locations.end()) return it->second;
  const GLint loc = glGetUniformLocation(m_program, name);
  m_locations.emplace(name, loc);
  return loc;
}

void ShaderProgram::set(const char* name, float v) { glUniform1f(location(name), v); }
void ShaderProgram::set(const char* name, int v) { glUniform1i(location(name), v); }
void ShaderProgram::set(const char* name, const glm::vec2& v) { glUniform2fv(location(name), 1, glm::value_ptr(v)); }
void ShaderProgram::set(const char* name, const glm::vec3& v) { glUniform3fv(location(name), 1, glm::value_ptr(v)); }
void ShaderProgram::set(const char* name, const glm::vec4& v) { glUniform4fv(location(name), 1, glm::value_ptr(v)); }
void ShaderProgram::set(const char* name, const glm::mat4& v) {
  glUniformMatrix4fv(location(name), 1, GL_FALSE, glm::value_ptr(v));
}

}  // namespace render
}  // namespace sloshlab
