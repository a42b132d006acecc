#include "sloshlab/emitter.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

namespace sloshlab {

namespace {

// Offset of lattice layer k (z index) in the xy plane: every other layer moves by s/2.
template <int D>
Vec<D> layerOffset(int k, double s) {
  Vec<D> off(0.0);
  if constexpr (D == 3) {
    if (k & 1) off.x = off.y = 0.5 * s;
  }
  return off;
}

// Boxes are half open, [min, max): a site on a face shared by two blocks (the offset
// layers put sites on faces) belongs to one of them. eps absorbs rounding of the site.
template <int D>
bool insideBlock(const FluidBlock& b, const Vec<D>& p, const Vec<D>& box, double eps) {
  switch (b.shape) {
    case FluidBlock::Shape::Box:
      for (int k = 0; k < D; ++k) {
        if (k == 2 && !b.boxHasDepth) continue;
        if (p[k] < b.min[k] - eps || p[k] >= b.max[k] - eps) return false;
      }
      return true;
    case FluidBlock::Shape::Sphere: {
      Vec<D> c = fromVec3<D>(b.centre);
      if constexpr (D == 3)
        if (!b.centreHasDepth) c.z = 0.5 * box.z;
      return lengthSquared<D>(p - c) < b.radius * b.radius;
    }
    case FluidBlock::Shape::Disc: {
      const double dx = p.x - b.centre.x, dy = p.y - b.centre.y;
      return dx * dx + dy * dy < b.radius * b.radius;
    }
  }
  return false;
}

template <int D>
Vec<D> blockCentre(const FluidBlock& b, const Vec<D>& box) {
  if (b.shape == FluidBlock::Shape::Box) {
    Vec<D> c = 0.5 * fromVec3<D>(b.min + b.max);
    if constexpr (D == 3)
      if (!b.boxHasDepth) c.z = 0.5 * box.z;
    return c;
  }
  Vec<D> c = fromVec3<D>(b.centre);
  if constexpr (D == 3)
    if (b.shape == FluidBlock::Shape::Disc || !b.centreHasDepth) c.z = 0.5 * box.z;
  return c;
}

}  // namespace

template <int D>
void emitFluid(const Scene& scene, double s, std::uint64_t seed, ParticleSet<D>& out) {
  const Vec<D> box = fromVec3<D>(scene.containerSize);
  double siteCount = 1.0;
  for (int k = 0; k < D; ++k) siteCount *= std::floor(box[k] / s + 1e-9) + 1.0;
  if (siteCount > 2e8)
    throw std::runtime_error("spacing " + std::to_string(s) + " m is too fine for a " + std::to_string(D) +
                             "D container of this size (" + std::to_string(siteCount) + " lattice sites)");
  IVec<D> sites;
  for (int k = 0; k < D; ++k) sites[k] = std::max(1, static_cast<int>(std::floor(box[k] / s + 1e-9)));
  std::vector<std::uint8_t> taken(static_cast<std::size_t>(product<D>(Vec<D>(sites))), 0);

  out.clear();
  out.radius = 0.5 * s;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> jitter(-0.5 * scene.jitter * s, 0.5 * scene.jitter * s);

  for (const FluidBlock& block : scene.fluid) {
    const Vec<D> centre = blockCentre<D>(block, box);
    IVec<D> idx(0);
    // Visit every lattice site once; the shape test keeps those inside the block.
    while (true) {
      const int layer = D == 3 ? idx[D - 1] : 0;
      Vec<D> p = (Vec<D>(idx) + 0.5) * s + layerOffset<D>(layer, s);
      const double eps = 1e-9 * s;
      bool inside = insideBlock<D>(block, p, box, eps);
      for (int k = 0; k < D; ++k) inside = inside && p[k] < box[k] - eps;
      std::size_t flat = 0;
      for (int k = D - 1; k >= 0; --k) flat = flat * static_cast<std::size_t>(sites[k]) + static_cast<std::size_t>(idx[k]);
      if (inside && !taken[flat]) {
        taken[flat] = 1;
        out.x.push_back(p);
        out.v.push_back(fromVec3<D>(block.velocity) + crossZ<D>(block.angularVelocity, p - centre));
        out.m.push_back(0.0);
      }
      int k = 0;
      while (k < D && ++idx[k] == sites[k]) idx[k++] = 0;
      if (k == D) break;
    }
  }
  if (scene.thermalSpeed > 0.0) {
    std::normal_distribution<double> gauss(0.0, 1.0);
    for (Vec<D>& v : out.v) {
      Vec<D> dir;
      do {
        for (int k = 0; k < D; ++k) dir[k] = gauss(rng);
      } while (lengthSquared<D>(dir) < 1e-12);
      v += scene.thermalSpeed * glm::normalize(dir);
    }
  }
  if (scene.jitter > 0.0) {
    const double margin = 1e-6 * s;
    for (Vec<D>& p : out.x)
      for (int k = 0; k < D; ++k) p[k] = std::clamp(p[k] + jitter(rng), margin, box[k] - margin);
  }
}

template <int D>
std::vector<Vec<D>> latticeNeighbourhood(double s, double radius) {
  std::vector<Vec<D>> points;
  const int n = static_cast<int>(std::ceil(radius / s)) + 1;
  IVec<D> idx(-n);
  while (true) {
    const int layer = D == 3 ? idx[D - 1] : 0;
    const Vec<D> p = Vec<D>(idx) * s + layerOffset<D>(std::abs(layer), s);
    if (lengthSquared<D>(p) < radius * radius) points.push_back(p);
    int k = 0;
    while (k < D && ++idx[k] > n) idx[k++] = -n;
    if (k == D) break;
  }
  return points;
}

template void emitFluid<2>(const Scene&, double, std::uint64_t, ParticleSet<2>&);
template void emitFluid<3>(const Scene&, double, std::uint64_t, ParticleSet<3>&);
template std::vector<Vec<2>> latticeNeighbourhood<2>(double, double);
template std::vector<Vec<3>> latticeNeighbourhood<3>(double, double);

}  // namespace sloshlab
