#include "sloshlab/gpu.h"

#include "gpu_pbf.h"

#include "sloshlab/solver_registry.h"

namespace sloshlab::gpu {

namespace {
template <int D>
std::unique_ptr<Solver<D>> makePbf() {
  return std::make_unique<GpuPbfSolver<D>>();
}
}  // namespace

void registerGpuSolvers() {
  registerSolver({{"gpu-pbf", "PBF (GPU)", "position-based fluids in OpenGL compute shaders: the pbf solver on the GPU",
                   "pbf"},
                  &makePbf<2>,
                  &makePbf<3>});
}

}  // namespace sloshlab::gpu
