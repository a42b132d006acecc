// A linked GLSL program built from shaders compiled into the binary (shaders/).
#pragma once

#include "render/gl.h"

#include <glm/glm.hpp>

#include <string>
#include <unordered_map>

namespace sloshlab::render {

class ShaderProgram {
 public:
  ShaderProgram() = default;
  // Compiles and links the embedded shaders of these file names; throws
  // std::runtime_error with the driver's log on failure.
  ShaderProgram(const char* vertexFile, const char* fragmentFile);
  ~ShaderProgram();
  ShaderProgram(ShaderProgram&& other) noexcept;
  ShaderProgram& operator=(ShaderProgram&& other) noexcept;
  ShaderProgram(const ShaderProgram&) = delete;
  ShaderProgram& operator=(const ShaderProgram&) = delete;

  void use() const { glUseProgram(m_program); }
  void set(const char* name, float v);
  void set(const char* name, int v);
  void set(const char* name, const glm::vec2& v);
  void set(const char* name, const glm::vec3& v);
  void set(const char* name, const glm::vec4& v);
  void set(const char* name, const glm::mat4& v);

 private:
  GLint location(const char* name);

  GLuint m_program = 0;
  std::unordered_map<std::string, GLint> m_locations;
};

}  // namespace sloshlab::render
