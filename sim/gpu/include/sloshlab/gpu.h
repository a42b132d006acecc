// The GPU path: OpenGL 4.3 compute twins of the engine's solvers (design.md, "The GPU
// path"). The engine library (sim/) links no GL; this one does, and the app links it.
//
// registerGpuSolvers() adds the twins to the solver list (sloshlab/solver_registry.h):
//     gpu-pbf    position-based fluids, the CPU pbf's equations and parameters
//     gpu-dfsph  divergence-free SPH, the CPU dfsph's
// Any thread may drive them; their GL work runs on one compute thread that holds a
// headless EGL context (sim/gpu/gl_context.h; no X server needed). Where no context can
// be had, creating one throws a std::runtime_error with one line that says why.
#pragma once

#include <string>

namespace sloshlab::gpu {

void registerGpuSolvers();

// Empty when this thread can run compute shaders (making its context if needed), else
// the one-line reason it cannot.
std::string unavailableReason();

// The GL renderer and version the GPU path computes on (GL_RENDERER, GL_VERSION); empty
// when unavailable.
std::string deviceName();

}  // namespace sloshlab::gpu
