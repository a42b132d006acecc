#include "device_particles.h"

#include <cmath>
#include <cstring>

namespace sloshlab::gpu {

namespace {
constexpr unsigned kReduceGroup = 128;  // reduce_moments.comp's work group
constexpr int kFields = 21;             // and its record
}  // namespace

template <int D>
std::size_t uploadParticles(const ParticleSet<D>& p, Buffer& x, Buffer& v) {
  const std::size_t n = p.size();
  std::vector<float> xs(4 * n, 0.0f), vs(4 * n, 0.0f);
  for (std::size_t i = 0; i < n; ++i) {
    for (int k = 0; k < D; ++k) xs[4 * i + k] = static_cast<float>(p.x[i][k]), vs[4 * i + k] = static_cast<float>(p.v[i][k]);
    std::memcpy(&xs[4 * i + 3], &p.id[i], sizeof(float));  // the number travels in w
  }
  x.upload(xs.data(), 16 * n);
  v.upload(vs.data(), 16 * n);
  return n;
}

template <int D>
void downloadParticles(const Buffer& x, const Buffer& v, std::size_t n, double mass, ParticleSet<D>& p) {
  const std::vector<float> xs = readBuffer<float>(x, 4 * n), vs = readBuffer<float>(v, 4 * n);
  p.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (int k = 0; k < D; ++k) p.x[i][k] = xs[4 * i + k], p.v[i][k] = vs[4 * i + k];
    std::memcpy(&p.id[i], &xs[4 * i + 3], sizeof(float));
    p.m[i] = mass;
  }
}

std::vector<float> readComponent(const Buffer& values, std::size_t n, int component) {
  const std::vector<float> all = readBuffer<float>(values, 4 * n);
  std::vector<float> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = all[4 * i + component];
  return out;
}

MomentReducer::MomentReducer(int dim) : m_reduce(dim, {"common.glsl", "reduce_moments.comp"}) {}

// Two passes (per work group, then over the groups) and one read-back of a score of floats.
MomentReducer::Sums MomentReducer::sum(const Buffer& x, const Buffer& v, const Buffer& aux, std::size_t n,
                                       double mass, int scalar, float offset) {
  const unsigned groups = static_cast<unsigned>((n + kReduceGroup - 1) / kReduceGroup);
  m_partials.reserve(std::size_t(groups) * kFields * sizeof(float));
  m_result.reserve(kFields * sizeof(float));
  m_reduce.use({&x, &v, &aux, &m_partials, &m_result}).set("scalar", scalar).set("offset", offset).set("pass", 0);
  m_reduce.run(n, kReduceGroup);
  m_reduce.set("pass", 1).set("groups", groups);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  float r[kFields];
  m_result.download(r, sizeof r);
  Sums out;
  ParticleMoments& m = out.moments;
  m.mass = mass * static_cast<double>(n);
  m.position = mass * Vec3(r[0], r[1], r[2]);
  m.momentum = mass * Vec3(r[3], r[4], r[5]);
  m.speedSquares = mass * r[6];
  m.spin = mass * Vec3(r[7], r[8], r[9]);
  m.radiusSquares = mass * r[10];
  m.zMoments = mass * Vec3(r[11], r[12], r[13]);
  m.xMoments = mass * Vec3(r[19], r[20], r[11]);
  m.maxSpeedSquared = r[14];
  m.finite = r[15] == 0.0f && std::isfinite(r[6]) && std::isfinite(r[10]);
  out.positiveSum = r[16];
  out.positiveMax = r[17];
  out.rawMax = r[18];
  return out;
}

ScalarReducer::ScalarReducer(int dim) : m_reduce(dim, {"common.glsl", "reduce_scalar.comp"}) {}

ScalarReducer::Sums ScalarReducer::sum(const Buffer& values, std::size_t n, int component) {
  const unsigned groups = static_cast<unsigned>((n + kReduceGroup - 1) / kReduceGroup);
  m_partials.reserve(std::size_t(groups) * 16);
  m_result.reserve(16);
  m_reduce.use({&values, &m_partials, &m_result}).set("component", component).set("pass", 0).run(n, kReduceGroup);
  m_reduce.set("pass", 1).set("groups", groups);
  glDispatchCompute(1, 1, 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
  float r[4];
  m_result.download(r, sizeof r);
  return {r[0], r[1], r[2]};
}

template std::size_t uploadParticles<2>(const ParticleSet<2>&, Buffer&, Buffer&);
template std::size_t uploadParticles<3>(const ParticleSet<3>&, Buffer&, Buffer&);
template void downloadParticles<2>(const Buffer&, const Buffer&, std::size_t, double, ParticleSet<2>&);
template void downloadParticles<3>(const Buffer&, const Buffer&, std::size_t, double, ParticleSet<3>&);

}  // namespace sloshlab::gpu
