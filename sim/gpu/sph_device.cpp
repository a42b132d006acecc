#include "sph_device.h"

#include "sph/boundary_samples.h"
#include "sph/smoothing_kernel.h"
#include "sph/basis.h"
#include "sph/fields.h"

#include <algorithm>
#include <cmath>

namespace sloshlab::gpu {

template <int D>
SphSizes configureSph(StepUniforms& u, const Vec<D>& box, double spacing, double h, double rho0, double cellSize) {
  SphSizes sizes;
  sizes.mass = calibratedMass<D>(rho0, spacing, h);
  sizes.volume = sizes.mass / rho0;
  BoundarySamples<D> walls;
  walls.build(box, spacing, h, h);
  sizes.samples = walls.size();
  sizes.cells = 1;
  for (int k = 0; k < 4; ++k) u.box[k] = 0.0f, u.gridDims[k] = 1, u.innerCount[k] = 1, u.innerStep[k] = 1.0f;
  for (int k = 0; k < D; ++k) {
    u.box[k] = static_cast<float>(box[k]);
    u.gridDims[k] = std::max(1, static_cast<int>(std::ceil(box[k] / cellSize)));
    sizes.cells *= static_cast<std::size_t>(u.gridDims[k]);
    u.innerCount[k] = BoundarySamples<D>::innerCountFor(box[k], spacing);
    u.innerStep[k] = static_cast<float>(box[k] / u.innerCount[k]);
    u.frameCentre[k] = static_cast<float>(0.5 * box[k]);
  }
  u.gridDims[3] = static_cast<std::int32_t>(sizes.cells);
  u.cellSize = static_cast<float>(cellSize);
  u.h = static_cast<float>(h);
  u.sigma = static_cast<float>(CubicSpline<D>(h).W0());
  u.volume = static_cast<float>(sizes.volume);
  u.wallVolume = static_cast<float>(walls.volume());
  u.spacing = static_cast<float>(spacing);
  u.margin = static_cast<float>(kSphWallMargin * spacing);
  u.layers = BoundarySamples<D>::layersFor(spacing, h);
  u.listCapacity = CellSort::listCapacity(D, cellSize / spacing);
  u.firstBodySample = static_cast<std::uint32_t>(sizes.samples);
  return sizes;
}

template <int D>
void setStepFrame(StepUniforms& u, const StepContext<D>& ctx) {
  for (int k = 0; k < D; ++k) {
    u.gravityMinusA[k] = static_cast<float>(ctx.frame.gravityMinusA[k]);
    u.frameCentre[k] = static_cast<float>(ctx.frame.centre[k]);
  }
  for (int k = 0; k < 3; ++k) {
    u.frameOmega[k] = static_cast<float>(ctx.frame.omega[k]);
    u.frameAlpha[k] = static_cast<float>(ctx.frame.alpha[k]);
  }
  u.dt = static_cast<float>(ctx.dt);
}

void computeVorticity(const ComputeProgram& vorticity, const StepBlock& step, const CellSort& sort,
                      const Buffer& x, const Buffer& v, Buffer& omega, std::size_t n) {
  step.bind();
  sort.bindNeighbours();
  vorticity.use({&x, &v, &omega}).run(n);
}

template <int D>
void vorticityField(const ComputeProgram& vorticity, const StepBlock& step, const CellSort& sort, const Buffer& x,
                    const Buffer& v, Buffer& omega, std::size_t n, std::span<float> out) {
  computeVorticity(vorticity, step, sort, x, v, omega, n);
  const std::vector<float> w = readBuffer<float>(omega, 4 * n);
  for (std::size_t i = 0; i < n && i < out.size(); ++i)
    out[i] = vorticityColour<D>(Vec3(w[4 * i], w[4 * i + 1], w[4 * i + 2]));
}

template SphSizes configureSph<2>(StepUniforms&, const Vec<2>&, double, double, double, double);
template SphSizes configureSph<3>(StepUniforms&, const Vec<3>&, double, double, double, double);
template void setStepFrame<2>(StepUniforms&, const StepContext<2>&);
template void setStepFrame<3>(StepUniforms&, const StepContext<3>&);
template void vorticityField<2>(const ComputeProgram&, const StepBlock&, const CellSort&, const Buffer&,
                                const Buffer&, Buffer&, std::size_t, std::span<float>);
template void vorticityField<3>(const ComputeProgram&, const StepBlock&, const CellSort&, const Buffer&,
                                const Buffer&, Buffer&, std::size_t, std::span<float>);

}  // namespace sloshlab::gpu
