#include "compute.h"

#include "gl_context.h"
#include "sloshlab/gpu_kernel_timing.h"
#include "step_uniforms.h"

#include "sloshlab/embedded.h"

#include <algorithm>
#include <utility>

namespace sloshlab {
namespace embedded {
extern const EmbeddedFile kComputeShaders[];
extern const std::size_t kComputeShadersCount;
}  // namespace embedded

namespace gpu {

namespace {

const char* computeSource(const char* file) {
  const char* text = embedded::findEmbedded({embedded::kComputeShaders, embedded::kComputeShadersCount}, file);
  if (!text) throw GpuUnavailable(std::string("compute shader '") + file + "' is not compiled into the binary");
  return text;
}

// A part's text with each line `#include "file"` replaced by that embedded file's text
// (GLSL has no #include of its own; one level is enough).
std::string expandIncludes(const char* part) {
  std::string text = computeSource(part), out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(at, end - at);
    const std::string directive = "#include \"";
    if (line.rfind(directive, 0) == 0 && line.size() > directive.size() + 1 && line.back() == '"')
      out += computeSource(line.substr(directive.size(), line.size() - directive.size() - 1).c_str());
    else
      out += line;
    out += '\n';
    at = end + 1;
  }
  return out;
}

std::string firstLine(const char* log) {
  std::string s(log);
  const auto end = s.find('\n');
  return end == std::string::npos ? s : s.substr(0, end);
}

}  // namespace

Buffer::~Buffer() {
  if (m_id) countBufferBytes(-static_cast<long long>(m_bytes));
  // Only through the context that made it: a context that is gone took it along.
  if (m_id && m_generation == contextGeneration()) glDeleteBuffers(1, &m_id);
}

Buffer& Buffer::operator=(Buffer&& o) noexcept {
  swap(o);
  return *this;
}

void Buffer::swap(Buffer& o) noexcept {
  std::swap(m_id, o.m_id);
  std::swap(m_bytes, o.m_bytes);
  std::swap(m_generation, o.m_generation);
}

void Buffer::reserve(std::size_t bytes) {
  if (bytes <= m_bytes && m_id) return;
  if (!m_id) {
    glGenBuffers(1, &m_id);
    m_generation = contextGeneration();
  }
  const std::size_t grown = std::max<std::size_t>(bytes, 16);
  countBufferBytes(static_cast<long long>(grown) - static_cast<long long>(m_bytes));
  m_bytes = grown;
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, m_id);
  glBufferData(GL_SHADER_STORAGE_BUFFER, static_cast<GLsizeiptr>(m_bytes), nullptr, GL_DYNAMIC_DRAW);
}

void Buffer::upload(const void* data, std::size_t bytes, std::size_t offset) {
  reserve(offset + bytes);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, m_id);
  glBufferSubData(GL_SHADER_STORAGE_BUFFER, static_cast<GLintptr>(offset), static_cast<GLsizeiptr>(bytes), data);
}

void Buffer::download(void* data, std::size_t bytes, std::size_t offset) const {
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, m_id);
  glGetBufferSubData(GL_SHADER_STORAGE_BUFFER, static_cast<GLintptr>(offset), static_cast<GLsizeiptr>(bytes), data);
}

void Buffer::fillZero() {
  const GLuint zero = 0;
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, m_id);
  glClearBufferData(GL_SHADER_STORAGE_BUFFER, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

void copyBuffer(const Buffer& from, Buffer& to, std::size_t bytes) {
  to.reserve(bytes);
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glBindBuffer(GL_COPY_READ_BUFFER, from.id());
  glBindBuffer(GL_COPY_WRITE_BUFFER, to.id());
  beginKernel();
  glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, static_cast<GLsizeiptr>(bytes));
  endKernel("copy buffer", 2 * bytes);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

ComputeProgram::ComputeProgram(int dim, std::initializer_list<const char*> parts) {
  std::string source = "#version 430\n#define DIM " + std::to_string(dim) + "\n";
  const char* name = "";
  for (const char* part : parts) source += expandIncludes(part), name = part;
  m_name = name;
  const char* text = source.c_str();
  const GLuint shader = glCreateShader(GL_COMPUTE_SHADER);
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  char log[4096] = {};
  if (!ok) {
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    glDeleteShader(shader);
    throw GpuUnavailable(std::string("compute shader '") + name + "' does not compile: " + firstLine(log));
  }
  m_program = glCreateProgram();
  m_generation = contextGeneration();
  glAttachShader(m_program, shader);
  glLinkProgram(m_program);
  glDeleteShader(shader);
  glGetProgramiv(m_program, GL_LINK_STATUS, &ok);
  if (!ok) {
    glGetProgramInfoLog(m_program, sizeof log, nullptr, log);
    throw GpuUnavailable(std::string("compute shader '") + name + "' does not link: " + firstLine(log));
  }
}

ComputeProgram::~ComputeProgram() {
  if (m_program && m_generation == contextGeneration()) glDeleteProgram(m_program);
}

ComputeProgram& ComputeProgram::operator=(ComputeProgram&& o) noexcept {
  std::swap(m_program, o.m_program);
  std::swap(m_generation, o.m_generation);
  std::swap(m_name, o.m_name);
  return *this;
}

const ComputeProgram& ComputeProgram::use(std::initializer_list<const Buffer*> buffers) const {
  glUseProgram(m_program);
  GLuint binding = 1;
  m_boundBytes = 0;
  for (const Buffer* b : buffers) b->bind(binding++), m_boundBytes += b->bytes();
  return *this;
}

const ComputeProgram& ComputeProgram::set(const char* name, int value) const {
  glUniform1i(glGetUniformLocation(m_program, name), value);
  return *this;
}
const ComputeProgram& ComputeProgram::set(const char* name, unsigned value) const {
  glUniform1ui(glGetUniformLocation(m_program, name), value);
  return *this;
}
const ComputeProgram& ComputeProgram::set(const char* name, float value) const {
  glUniform1f(glGetUniformLocation(m_program, name), value);
  return *this;
}

const ComputeProgram& ComputeProgram::setVec4(const char* name, const float (&value)[4]) const {
  glUniform4fv(glGetUniformLocation(m_program, name), 1, value);
  return *this;
}

void ComputeProgram::run(std::size_t items, unsigned groupSize) const {
  const std::size_t groups = (items + groupSize - 1) / groupSize;
  beginKernel();
  if (groups > 0) glDispatchCompute(static_cast<GLuint>(groups), 1, 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_UNIFORM_BARRIER_BIT);
  endKernel(m_name, m_boundBytes);
}

StepBlock::~StepBlock() {
  if (m_id && m_generation == contextGeneration()) glDeleteBuffers(1, &m_id);
}

void StepBlock::upload() {
  if (!m_id) {
    glGenBuffers(1, &m_id);
    m_generation = contextGeneration();
    glBindBuffer(GL_UNIFORM_BUFFER, m_id);
    glBufferData(GL_UNIFORM_BUFFER, sizeof(StepUniforms), nullptr, GL_DYNAMIC_DRAW);
  }
  glBindBuffer(GL_UNIFORM_BUFFER, m_id);
  glBufferSubData(GL_UNIFORM_BUFFER, 0, sizeof(StepUniforms), &values);
  glBindBufferBase(GL_UNIFORM_BUFFER, 0, m_id);
}

void StepBlock::bind() const {
  if (m_id) glBindBufferBase(GL_UNIFORM_BUFFER, 0, m_id);
}

}  // namespace gpu
}  // namespace sloshlab
