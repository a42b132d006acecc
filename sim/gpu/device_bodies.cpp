#include "device_bodies.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace sloshlab::gpu {

std::uint32_t bodyBucketOf(std::uint32_t cell, std::uint32_t buckets) {
  std::uint32_t v = cell;
  v ^= v >> 16;
  v *= 0x7feb352du;
  v ^= v >> 15;
  v *= 0x846ca68bu;
  v ^= v >> 16;
  return v & (buckets - 1u);
}

template <int D>
void SolidSamples<D>::setObstacles(const Solids<D>& solids, double spacing, double depth, const Vec<D>& box,
                                   StepUniforms& u) {
  m_fixed = solids.samples(spacing, depth, box);
  m_fixedOnly = false;
  u.obstacles = static_cast<std::uint32_t>(solids.size());
  std::vector<float> packed(16 * std::max<std::size_t>(solids.size(), 1), 0.0f);
  std::size_t k = 0;
  for (const typename Solids<D>::Prim& p : solids.primitives()) {
    float* o = &packed[16 * k++];
    for (int a = 0; a < D; ++a) {
      o[a] = static_cast<float>(p.lo[a]);
      o[4 + a] = static_cast<float>(p.hi[a]);
      o[8 + a] = static_cast<float>(p.a[a]);
      o[12 + a] = static_cast<float>(p.b[a]);
    }
    // Box 0, Sphere 1, Disc 2, Capsule 3; a hole adds 4 (common.glsl, groupDistance)
    o[3] = static_cast<float>(static_cast<int>(p.shape) + (p.hole ? 4 : 0));
    o[7] = static_cast<float>(p.radius);
    o[11] = p.planar ? 1.0f : 0.0f;
    o[15] = p.outside ? 1.0f : 0.0f;
  }
  m_obstacles.reserve(packed.size() * sizeof(float));
  m_obstacles.upload(packed.data(), packed.size() * sizeof(float));
  setOpening(solids.opening(), u);
}

template <int D>
void SolidSamples<D>::setOpening(const WallOpening<D>& opening, StepUniforms& u) {
  u.openingWall = opening.exists() ? 2 * opening.axis + opening.side : -1;
  for (int a = 0; a < 4; ++a) u.opening[a] = 0.0f;
  for (int a = 0; a < D; ++a) u.opening[a] = static_cast<float>(opening.centre[a]);
  u.opening[3] = static_cast<float>(opening.radius);
}

// Each sample's cell as the shaders find it (common.glsl: cellIndex(cellOf(x)), in
// float32), then a counting sort by bucket that keeps the samples' order within one.
template <int D>
void SolidSamples<D>::upload(const BodySamples<D>* bodies, StepUniforms& u) {
  const std::size_t moving = bodies ? bodies->size() : 0;
  if (moving == 0 && m_fixedOnly) return;  // the obstacles' alone are there already
  m_fixedOnly = moving == 0;
  const std::size_t fixed = m_fixed.size(), count = fixed + moving;
  u.bodySamples = static_cast<std::uint32_t>(count);
  m_order.clear();
  if (count == 0) {
    u.bodyBuckets = 1;
    return;
  }
  const auto position = [&](std::size_t k) { return k < fixed ? m_fixed[k] : bodies->x[k - fixed]; };
  const auto velocity = [&](std::size_t k) { return k < fixed ? Vec<D>(0.0) : bodies->v[k - fixed]; };
  std::uint32_t buckets = 16;
  while (buckets < 2 * count) buckets *= 2;
  u.bodyBuckets = buckets;
  std::vector<std::uint32_t> cell(count), start(buckets + 1, 0);
  Vec<D> lo(std::numeric_limits<double>::infinity()), hi(-std::numeric_limits<double>::infinity());
  for (std::size_t k = 0; k < count; ++k) {
    const Vec<D> x = position(k);
    lo = glm::min(lo, x), hi = glm::max(hi, x);
    std::uint32_t index = 0;
    for (int a = D - 1; a >= 0; --a) {
      const int c = std::clamp(static_cast<int>(std::floor(static_cast<float>(x[a]) / u.cellSize)), 0, u.gridDims[a] - 1);
      index = index * static_cast<std::uint32_t>(u.gridDims[a]) + static_cast<std::uint32_t>(c);
    }
    cell[k] = index;
    ++start[bodyBucketOf(index, buckets) + 1];
  }
  for (std::uint32_t q = 0; q < buckets; ++q) start[q + 1] += start[q];
  std::vector<std::uint32_t> cursor(start.begin(), start.end() - 1);
  m_order.assign(count, 0);
  for (std::size_t k = 0; k < count; ++k) m_order[cursor[bodyBucketOf(cell[k], buckets)]++] = static_cast<std::uint32_t>(k);
  std::vector<float> data(8 * count, 0.0f);
  for (std::size_t s = 0; s < count; ++s) {
    const std::uint32_t k = m_order[s];
    const Vec<D> x = position(k), v = velocity(k);
    for (int a = 0; a < D; ++a) data[8 * s + a] = static_cast<float>(x[a]), data[8 * s + 4 + a] = static_cast<float>(v[a]);
    std::memcpy(&data[8 * s + 3], &cell[k], sizeof(float));
    data[8 * s + 7] = k < fixed ? 0.0f : 1.0f;  // a body's: the push gathers skip the obstacles'
  }
  m_data.reserve(data.size() * sizeof(float));
  m_data.upload(data.data(), data.size() * sizeof(float));
  m_buckets.reserve(start.size() * sizeof(std::uint32_t));
  m_buckets.upload(start.data(), start.size() * sizeof(std::uint32_t));
  for (int a = 0; a < 4; ++a) u.bodyLo[a] = u.bodyHi[a] = 0.0f;
  for (int a = 0; a < D; ++a) {
    u.bodyLo[a] = static_cast<float>(lo[a] - u.h);
    u.bodyHi[a] = static_cast<float>(hi[a] + u.h);
  }
}

template <int D>
void SolidSamples<D>::bind() {
  if (m_data.bytes() == 0) m_data.reserve(32);
  if (m_buckets.bytes() == 0) m_buckets.reserve(16);
  if (m_obstacles.bytes() == 0) m_obstacles.reserve(64);
  m_data.bind(10);
  m_buckets.bind(11);
  m_obstacles.bind(12);
}

template <int D>
void SolidSamples<D>::addImpulses(const Buffer& pushes, unsigned stride, BodySamples<D>& bodies) const {
  const std::size_t fixed = m_fixed.size();
  const std::vector<float> p = readBuffer<float>(pushes, 4 * stride * m_order.size());
  for (std::size_t s = 0; s < m_order.size(); ++s) {
    if (m_order[s] < fixed) continue;
    Vec<D> j;
    for (int a = 0; a < D; ++a) j[a] = p[4 * stride * s + a];
    bodies.impulse[m_order[s] - fixed] += j;
  }
}

template <int D>
NearParticles<D>::NearParticles(int dim) : m_program(dim, {"common.glsl", "near_particles.comp"}) {}

template <int D>
void NearParticles<D>::gather(const Buffer& x, const Buffer& v, std::size_t n, double mass,
                              std::span<const Vec<D>> centres, std::span<const double> radii, ParticleSet<D>& out) {
  m_index.clear();
  out.resize(0);
  if (centres.empty() || n == 0) return;
  float lo[4], hi[4];
  uploadSpheres(centres, radii, lo, hi);
  m_list.reserve(4 * (n + 1));
  const std::uint32_t zero = 0;
  m_list.upload(&zero, sizeof zero);
  m_compact.reserve(32);
  m_program.use({&x, &v, &m_spheres, &m_list, &m_compact})
      .set("pass", 0)
      .set("items", static_cast<unsigned>(n))
      .set("spheres", static_cast<unsigned>(centres.size()))
      .setVec4("lo", lo)
      .setVec4("hi", hi)
      .run(n);
  std::uint32_t count = 0;
  m_list.download(&count, sizeof count);
  if (count == 0) return;
  m_index.resize(count);
  m_list.download(m_index.data(), 4 * count, 4);
  std::sort(m_index.begin(), m_index.end());  // the appends' order varies from run to run
  m_list.upload(m_index.data(), 4 * count);
  m_compact.reserve(32 * std::size_t(count));
  m_program.use({&x, &v, &m_spheres, &m_list, &m_compact}).set("pass", 1).set("items", count).run(count);
  const std::vector<float> c = readBuffer<float>(m_compact, 8 * std::size_t(count));
  out.resize(count);
  for (std::size_t k = 0; k < count; ++k) {
    for (int a = 0; a < D; ++a) out.x[k][a] = c[8 * k + a], out.v[k][a] = c[8 * k + 4 + a];
    std::memcpy(&out.id[k], &c[8 * k + 3], sizeof(float));
    out.m[k] = mass;
  }
}

template <int D>
void NearParticles<D>::uploadSpheres(std::span<const Vec<D>> centres, std::span<const double> radii, float (&lo)[4],
                                     float (&hi)[4]) {
  std::vector<float> spheres(4 * std::max<std::size_t>(centres.size(), 1), 0.0f);
  for (int a = 0; a < 4; ++a) lo[a] = hi[a] = 0.0f;
  for (int a = 0; a < D; ++a) lo[a] = std::numeric_limits<float>::max(), hi[a] = -std::numeric_limits<float>::max();
  for (std::size_t s = 0; s < centres.size(); ++s) {
    for (int a = 0; a < D; ++a) {
      spheres[4 * s + a] = static_cast<float>(centres[s][a]);
      lo[a] = std::min(lo[a], static_cast<float>(centres[s][a] - radii[s]));
      hi[a] = std::max(hi[a], static_cast<float>(centres[s][a] + radii[s]));
    }
    spheres[4 * s + 3] = static_cast<float>(radii[s]);
  }
  m_spheres.reserve(spheres.size() * sizeof(float));
  m_spheres.upload(spheres.data(), spheres.size() * sizeof(float));
}

template <int D>
void NearParticles<D>::columnTops(const Buffer& x, std::size_t n, const Vec<D>& box, double width,
                                  std::span<const Vec<D>> centres, std::span<const double> radii,
                                  std::vector<double>& tops) {
  tops.clear();
  if (n == 0) return;
  float lo[4], hi[4];
  uploadSpheres(centres, radii, lo, hi);
  const auto count = [&](int a) { return static_cast<unsigned>(std::max(1.0, std::ceil(box[a] / width))); };
  const unsigned columnsX = count(0), columnsZ = D == 3 ? count(D - 1) : 1u;
  const std::size_t columns = std::size_t(columnsX) * columnsZ;
  m_columns.reserve(4 * columns);
  const std::vector<std::uint32_t> empty(columns, 0u);
  m_columns.upload(empty.data(), 4 * columns);
  m_compact.reserve(32);
  m_program.use({&x, &x, &m_spheres, &m_columns, &m_compact})
      .set("pass", 3)
      .set("items", static_cast<unsigned>(n))
      .set("spheres", static_cast<unsigned>(centres.size()))
      .set("width", static_cast<float>(width))
      .set("columnsX", columnsX)
      .set("columnsZ", columnsZ)
      .run(n);
  const std::vector<std::uint32_t> top = readBuffer<std::uint32_t>(m_columns, columns);
  for (const std::uint32_t t : top) {
    if (t == 0u) continue;
    const std::uint32_t bits = t - 1u;
    float y;
    std::memcpy(&y, &bits, sizeof y);
    tops.push_back(y);
  }
}

template <int D>
void NearParticles<D>::scatter(const ParticleSet<D>& near, Buffer& x, Buffer& v) {
  const std::size_t count = m_index.size();
  if (count == 0 || near.size() != count) return;
  std::vector<float> c(8 * count, 0.0f);
  for (std::size_t k = 0; k < count; ++k)
    for (int a = 0; a < D; ++a)
      c[8 * k + a] = static_cast<float>(near.x[k][a]), c[8 * k + 4 + a] = static_cast<float>(near.v[k][a]);
  m_compact.upload(c.data(), c.size() * sizeof(float));
  m_program.use({&x, &v, &m_spheres, &m_list, &m_compact})
      .set("pass", 2)
      .set("items", static_cast<unsigned>(count))
      .run(count);
}

template class SolidSamples<2>;
template class SolidSamples<3>;
template class NearParticles<2>;
template class NearParticles<3>;

}  // namespace sloshlab::gpu
