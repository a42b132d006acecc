// The GL context the GPU path computes in, one per thread (gpu.h): made on first use with
// EGL and no surface, and checked for OpenGL 4.3 (compute shaders and storage buffers).
#pragma once

#include <stdexcept>
#include <string>

namespace sloshlab::gpu {

class GpuUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Makes this thread's context current (creating it the first time) and the GL entry
// points loaded; throws GpuUnavailable with one line when there is none to be had.
void requireCompute();

// The first member of a GPU solver: its context is ready before any program compiles.
struct ComputeContext {
  ComputeContext() { requireCompute(); }
};

// A number that changes each time this thread gets a new context: objects made in an
// older one (or on another thread) are not deleted through this one.
unsigned long contextGeneration();

}  // namespace sloshlab::gpu
