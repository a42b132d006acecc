#include "sloshlab/gpu.h"

#include "gpu_dfsph.h"
#include "gpu_pbf.h"

#include "sloshlab/solver_registry.h"

namespace sloshlab::gpu {

namespace {
template <template <int> class SolverT, int D>
std::unique_ptr<Solver<D>> make() {
  return std::make_unique<SolverT<D>>();
}
}  // namespace

void registerGpuSolvers() {
  registerSolver({{"gpu-dfsph", "DFSPH (GPU)",
                   "divergence-free SPH in OpenGL compute shaders: the dfsph solver on the GPU", "dfsph"},
                  &make<GpuDfsphSolver, 2>,
                  &make<GpuDfsphSolver, 3>});
  registerSolver({{"gpu-pbf", "PBF (GPU)", "position-based fluids in OpenGL compute shaders: the pbf solver on the GPU",
                   "pbf"},
                  &make<GpuPbfSolver, 2>,
                  &make<GpuPbfSolver, 3>});
}

}  // namespace sloshlab::gpu
