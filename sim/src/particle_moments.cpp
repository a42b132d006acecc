#include "sloshlab/particle_moments.h"

#include <algorithm>
#include <cmath>

namespace sloshlab {

// physics.md (10.11), term by term as in the header; omega in the container's axes.
template <int D>
WorldSums worldSums(const ParticleMoments& m, const FrameTransform<D>& frame, const Vec3& gravity) {
  const Vec3 w = frame.omega;
  const Vec3 V = frame.velocity;
  const Mat3& R = frame.rotation;
  // I w with I = sum m r r^T, from its columns X, Y (Y_y = Q_r - X_x - Z_z) and Z.
  const Vec3 yMoments(m.xMoments.y, m.radiusSquares - m.xMoments.x - m.zMoments.z, m.zMoments.y);
  const Vec3 Iw = w.x * m.xMoments + w.y * yMoments + w.z * m.zMoments;
  const Vec3 relative = R * (m.momentum + glm::cross(w, m.position));
  WorldSums out;
  out.mass = m.mass;
  out.momentum = m.mass * V + relative;
  // sum m |w x r|^2 = |w|^2 Q_r - w . I w.
  out.kineticEnergy = 0.5 * m.mass * glm::dot(V, V) + glm::dot(V, relative) +
                      0.5 * (m.speedSquares + 2.0 * glm::dot(w, m.spin) + glm::dot(w, w) * m.radiusSquares - glm::dot(w, Iw));
  const Vec3 Sr = R * m.position;
  out.potentialEnergy = -glm::dot(gravity, m.mass * frame.position + Sr);
  // sum m r x (w x r) = Q_r w - I w.
  out.angularMomentum = glm::cross(Sr, V) + R * (m.spin + m.radiusSquares * w - Iw);
  if constexpr (D == 2) out.momentum.z = 0.0, out.angularMomentum.x = out.angularMomentum.y = 0.0;
  out.maxSpeedSquared = m.maxSpeedSquared;
  out.finite = m.finite;
  return out;
}

template <int D>
ParticleMoments momentsOf(const ParticleSet<D>& p, const Vec<D>& boxSize) {
  ParticleMoments out;
  const Vec<D> centre = 0.5 * boxSize;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double mi = p.m[i];
    const Vec3 r = toVec3<D>(p.x[i] - centre), v = toVec3<D>(p.v[i]);
    const double v2 = glm::dot(v, v);
    out.mass += mi;
    out.position += mi * r;
    out.momentum += mi * v;
    out.speedSquares += mi * v2;
    out.spin += mi * glm::cross(r, v);
    out.radiusSquares += mi * glm::dot(r, r);
    out.xMoments += mi * r.x * r;
    out.zMoments += mi * r.z * r;
    out.maxSpeedSquared = std::max(out.maxSpeedSquared, v2);
    out.finite = out.finite && std::isfinite(v2) && std::isfinite(glm::dot(r, r));
  }
  return out;
}

double depthAlong(const ParticleMoments& m, const Vec3& down) {
  if (!(m.mass > 0.0)) return 0.0;
  // I = sum m r r^T from its columns X, Z and Q_r (the header): I_yy = Q_r - X_x - Z_z.
  const Vec3 yMoments(m.xMoments.y, m.radiusSquares - m.xMoments.x - m.zMoments.z, m.zMoments.y);
  const Vec3 Id = down.x * m.xMoments + down.y * yMoments + down.z * m.zMoments;
  const double mean = glm::dot(down, m.position) / m.mass;
  const double variance = glm::dot(down, Id) / m.mass - mean * mean;
  return std::sqrt(12.0 * std::max(variance, 0.0));
}

template WorldSums worldSums<2>(const ParticleMoments&, const FrameTransform<2>&, const Vec3&);
template WorldSums worldSums<3>(const ParticleMoments&, const FrameTransform<3>&, const Vec3&);
template ParticleMoments momentsOf<2>(const ParticleSet<2>&, const Vec<2>&);
template ParticleMoments momentsOf<3>(const ParticleSet<3>&, const Vec<3>&);

}  // namespace sloshlab
