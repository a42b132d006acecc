#include "sloshlab/emitter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
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

// Lattice sites per axis: the emitter's sites are (i + 1/2) s, i < sites.
template <int D>
IVec<D> latticeSites(const Vec<D>& box, double s) {
  IVec<D> sites;
  // Clamped before the conversion (undefined beyond int's range): a count that large is
  // refused by checkParticleBudget anyway.
  for (int k = 0; k < D; ++k) sites[k] = static_cast<int>(std::clamp(std::floor(box[k] / s + 1e-9), 1.0, 1e9));
  return sites;
}

// Sites (i + 1/2) s with i in [0, n) that lie in [lo, hi).
double sitesWithin(double lo, double hi, double s, double n) {
  const double first = std::max(0.0, std::ceil(lo / s - 0.5));
  const double end = std::min(n, std::ceil(hi / s - 0.5));
  return std::max(0.0, end - first);
}

template <int D>
double blockEstimate(const FluidBlock& b, const Vec<D>& sites, double s) {
  switch (b.shape) {
    case FluidBlock::Shape::Box: {
      double n = 1.0;
      for (int k = 0; k < D; ++k)
        n *= (k == 2 && !b.boxHasDepth) ? sites[k] : sitesWithin(b.min[k], b.max[k], s, sites[k]);
      return n;
    }
    case FluidBlock::Shape::Sphere:
      return D == 2 ? kPi * b.radius * b.radius / (s * s) : 4.0 / 3.0 * kPi * std::pow(b.radius / s, 3.0);
    case FluidBlock::Shape::Disc: return kPi * b.radius * b.radius / (s * s) * (D == 3 ? sites[D - 1] : 1.0);
  }
  return 0.0;
}

}  // namespace

template <int D>
double estimateParticleCount(const Scene& scene, double s) {
  const Vec<D> box = fromVec3<D>(scene.containerSize);
  const Vec<D> sites = Vec<D>(latticeSites<D>(box, s));
  double n = 0.0;
  for (const FluidBlock& block : scene.fluid) n += blockEstimate<D>(block, sites, s);
  return std::min(n, product<D>(sites));
}

template <int D>
void checkParticleBudget(const Scene& scene, double s) {
  // Measured peak memory per particle: PBF in 3D takes the most, 2.4 KB (90,387
  // particles, 216 MB); DFSPH 1.3 KB, WCSPH 0.65 KB, the hybrid solvers 0.3 KB.
  constexpr double kLimit = 2e7, kBytesPerParticle = 2.4e3;
  const double n = estimateParticleCount<D>(scene, s);
  if (n <= kLimit) return;
  char text[256];
  std::snprintf(text, sizeof text,
                "spacing %g m is too fine: the scene would emit about %.3g particles, over the limit of %.0e "
                "(about %.0f GB at up to %.1f KB per particle)",
                s, n, kLimit, kLimit * kBytesPerParticle / 1e9, kBytesPerParticle / 1e3);
  throw std::runtime_error(text);
}

template <int D>
void emitFluid(const Scene& scene, double s, std::uint64_t seed, ParticleSet<D>& out) {
  const Vec<D> box = fromVec3<D>(scene.containerSize);
  double siteCount = 1.0;
  for (int k = 0; k < D; ++k) siteCount *= std::floor(box[k] / s + 1e-9) + 1.0;
  if (siteCount > 2e8)
    throw std::runtime_error("spacing " + std::to_string(s) + " m is too fine for a " + std::to_string(D) +
                             "D container of this size (" + std::to_string(siteCount) + " lattice sites)");
  const IVec<D> sites = latticeSites<D>(box, s);
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
  out.numberInOrder();
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

template double estimateParticleCount<2>(const Scene&, double);
template double estimateParticleCount<3>(const Scene&, double);
template void checkParticleBudget<2>(const Scene&, double);
template void checkParticleBudget<3>(const Scene&, double);
template void emitFluid<2>(const Scene&, double, std::uint64_t, ParticleSet<2>&);
template void emitFluid<3>(const Scene&, double, std::uint64_t, ParticleSet<3>&);
template std::vector<Vec<2>> latticeNeighbourhood<2>(double, double);
template std::vector<Vec<3>> latticeNeighbourhood<3>(double, double);

}  // namespace sloshlab
