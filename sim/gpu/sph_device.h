// The GPU path's SPH toolkit, what gpu-pbf and gpu-dfsph both derive and run: the
// kernel, mass and walls of a support (as the CPU twins' SphBasis and BoundarySamples),
// the cell grid of the sort, the frame's motion for a step, all into the Step block
// (common.glsl); and the vorticity colour field.
#pragma once

#include "cell_sort.h"
#include "compute.h"
#include "step_uniforms.h"

#include "sloshlab/solver.h"

#include <span>

namespace sloshlab::gpu {

// The scalars a solver keeps on the host from configureSph.
struct SphSizes {
  double mass = 0.0;         // every particle's, calibrated to rho0 on the emitter's lattice (4.5)
  double volume = 0.0;       // V = m / rho0
  std::size_t cells = 0;     // of the sort's grid
  std::size_t samples = 0;   // boundary samples of the box
};

// Kernel support h, rest density rho0, the box, the spacing s and the sort's cell size
// into `u` (box, grid, boundary-sample lattice, kernel, volumes, wall margin).
template <int D>
SphSizes configureSph(StepUniforms& u, const Vec<D>& box, double spacing, double h, double rho0, double cellSize);

// The step's dt and frame motion (physics.md (8.3)) into `u`.
template <int D>
void setStepFrame(StepUniforms& u, const StepContext<D>& ctx);

// The vorticity omega (physics.md (7.9)) of n particles into `omega`, through
// sph_vorticity.comp, with the solver's Step block `step`.
void computeVorticity(const ComputeProgram& vorticity, const StepBlock& step, const CellSort& sort,
                      const Buffer& x, const Buffer& v, Buffer& omega, std::size_t n);

// The vorticity colour (omega_z in 2D, |omega| in 3D) of n particles in their device
// order, read back.
template <int D>
void vorticityField(const ComputeProgram& vorticity, const StepBlock& step, const CellSort& sort, const Buffer& x,
                    const Buffer& v, Buffer& omega, std::size_t n, std::span<float> out);

}  // namespace sloshlab::gpu
