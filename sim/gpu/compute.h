// The compute layer of the GPU path: storage buffers, compute programs built from the
// embedded GLSL in shaders/gpu/ (each with DIM defined and the shared headers before it),
// and the step's uniform block (common.glsl, `Step`).
#pragma once

#include <glad/gl.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace sloshlab::gpu {

// A shader storage buffer owned by this thread's context (gl_context.h).
class Buffer {
 public:
  Buffer() = default;
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& o) noexcept { *this = std::move(o); }
  Buffer& operator=(Buffer&& o) noexcept;

  // At least `bytes` of storage (contents lost when it grows).
  void reserve(std::size_t bytes);
  void upload(const void* data, std::size_t bytes, std::size_t offset = 0);
  void download(void* data, std::size_t bytes, std::size_t offset = 0) const;
  void fillZero();
  void bind(GLuint binding) const { glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, m_id); }
  GLuint id() const { return m_id; }
  std::size_t bytes() const { return m_bytes; }
  void swap(Buffer& o) noexcept;

 private:
  GLuint m_id = 0;
  std::size_t m_bytes = 0;
  unsigned long m_generation = 0;
};

// The first `count` values of a buffer, read back.
template <class T>
std::vector<T> readBuffer(const Buffer& buffer, std::size_t count) {
  std::vector<T> out(count);
  if (count) buffer.download(out.data(), count * sizeof(T));
  return out;
}

// Copies `bytes` from one buffer to another on the device.
void copyBuffer(const Buffer& from, Buffer& to, std::size_t bytes);

// A compute program from the embedded files `parts` (joined after the #version line and
// `#define DIM dim`, each line `#include "file"` replaced by that file); throws
// GpuUnavailable naming the file and the compiler's first line.
class ComputeProgram {
 public:
  ComputeProgram() = default;
  ComputeProgram(int dim, std::initializer_list<const char*> parts);
  ~ComputeProgram();
  ComputeProgram(const ComputeProgram&) = delete;
  ComputeProgram& operator=(const ComputeProgram&) = delete;
  ComputeProgram(ComputeProgram&& o) noexcept { *this = std::move(o); }
  ComputeProgram& operator=(ComputeProgram&& o) noexcept;

  // Binds the program, then `buffers` to bindings 1, 2, ... in order.
  const ComputeProgram& use(std::initializer_list<const Buffer*> buffers) const;
  const ComputeProgram& set(const char* name, int value) const;
  const ComputeProgram& set(const char* name, unsigned value) const;
  const ComputeProgram& set(const char* name, float value) const;
  const ComputeProgram& setVec4(const char* name, const float (&value)[4]) const;
  // Runs ceil(items / groupSize) work groups, then a barrier on storage writes.
  void run(std::size_t items, unsigned groupSize = 128) const;

 private:
  GLuint m_program = 0;
  unsigned long m_generation = 0;
  std::string m_name;                    // the last shader file: the kernel's name in a profile
  mutable std::size_t m_boundBytes = 0;  // the buffers of the last use()
};

}  // namespace sloshlab::gpu
