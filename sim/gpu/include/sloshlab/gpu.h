// The GPU path: OpenGL 4.3 compute twins of the engine's solvers (design.md, "The GPU
// path"). The engine library (sim/) links no GL; this one does, and the app links it.
//
// registerGpuSolvers() adds the twins to the solver list (sloshlab/solver_registry.h):
//     gpu-pbf    position-based fluids, the CPU pbf's equations and parameters
//     gpu-dfsph  divergence-free SPH, the CPU dfsph's
// Any thread may drive them; their GL work runs on one compute thread that holds a
// headless EGL context (sim/gpu/gl_context.h; no X server needed), or, in the window, a
// context that shares its objects with the window's (shareWithWindow), so that the
// window draws the particles from the solvers' own memory. Where no context can be had,
// creating one throws a std::runtime_error with one line that says why.
#pragma once

#include "sloshlab/solver.h"

#include <functional>
#include <memory>
#include <string>

namespace sloshlab::gpu {

void registerGpuSolvers();

// Empty when this thread can run compute shaders (making its context if needed), else
// the one-line reason it cannot.
std::string unavailableReason();

// The GL renderer and version the GPU path computes on (GL_RENDERER, GL_VERSION); empty
// when unavailable.
std::string deviceName();

// The window's offer of a context that shares objects with its own (a hidden window's),
// for the compute thread to use instead of a headless EGL one: `makeCurrent` is called
// once on the compute thread, `loader` finds the GL entry points there
// (glfwGetProcAddress), `release` is called on it when the window closes. Call before
// anything uses the GPU path; false (and nothing changed) when the compute context was
// already made, or when the offered one is not OpenGL 4.3 (it is then released and the
// GPU path makes its own when first used).
using GlProc = void (*)();
using GlLoader = GlProc (*)(const char* name);
bool shareWithWindow(std::function<void()> makeCurrent, GlLoader loader, std::function<void()> release);
// True when the compute context shares objects with the window's: draw targets
// (makeDrawTarget) can then be drawn by the window.
bool sharesWithWindow();
// Before the window's context goes: the compute thread lets the shared one go, and the
// GPU path is unavailable from then on.
void releaseWindowContext();

// A buffer of the compute context for GPU solvers to write frames into
// (Solver::drawFrame); made on the compute thread, deleted there.
std::shared_ptr<DeviceDrawTarget> makeDrawTarget();

}  // namespace sloshlab::gpu
