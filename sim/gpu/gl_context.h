// The GL context the GPU path computes in: made on first use with EGL and no surface,
// checked for OpenGL 4.3 (compute shaders and storage buffers), and current on one thread
// of its own, the compute thread. Every GL call of the GPU path runs there: any thread
// may drive a GPU solver (the window's simulation thread, the main thread that builds the
// first panes, a test), and none has to give up a GL context of its own (the window's GLX
// one) for it. The hand-over costs a few microseconds per call: a solver makes one or two
// per step.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>

namespace sloshlab::gpu {

class GpuUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Runs `job` on the compute thread with the context current (made the first time) and
// waits for it; rethrows what it threw, and GpuUnavailable (one line) where no context can
// be had. On the compute thread itself it runs at once.
void onComputeThread(const std::function<void()>& job);

// For destructors: runs `job` on the compute thread, with the context current when there
// still is one and without it otherwise (what was made in a context that is gone is not
// deleted: see contextGeneration). Never throws GpuUnavailable.
void deleteOnComputeThread(const std::function<void()>& job);

// A number that changes each time this thread gets a new context: objects made in an
// older one (or on another thread) are not deleted through this one.
unsigned long contextGeneration();

}  // namespace sloshlab::gpu
