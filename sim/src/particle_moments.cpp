#include "sloshlab/particle_moments.h"

#include <algorithm>
#include <cmath>

namespace sloshlab {

namespace {
// R u for the container's rotation about z.
Vec3 rotate(const Vec3& u, double c, double s) { return {c * u.x - s * u.y, s * u.x + c * u.y, u.z}; }
}  // namespace

// physics.md (10.11), term by term as in the header.
template <int D>
WorldSums worldSums(const ParticleMoments& m, const FrameTransform<D>& frame, const Vec3& gravity) {
  const Vec3 z(0.0, 0.0, 1.0);
  const double w = frame.omega;
  const Vec3 V = frame.velocity;
  const Vec3 relative = rotate(m.momentum + w * glm::cross(z, m.position), frame.c, frame.s);
  const double inPlaneSquares = m.radiusSquares - m.zMoments.z;  // sum m (r_x^2 + r_y^2)
  WorldSums out;
  out.mass = m.mass;
  out.momentum = m.mass * V + relative;
  out.kineticEnergy = 0.5 * m.mass * glm::dot(V, V) + glm::dot(V, relative) +
                      0.5 * (m.speedSquares + 2.0 * w * m.spin.z + w * w * inPlaneSquares);
  const Vec3 Sr = rotate(m.position, frame.c, frame.s);
  out.potentialEnergy = -glm::dot(gravity, m.mass * frame.position + Sr);
  out.angularMomentum = glm::cross(Sr, V) + rotate(m.spin + w * (m.radiusSquares * z - m.zMoments), frame.c, frame.s);
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
    out.zMoments += mi * r.z * r;
    out.maxSpeedSquared = std::max(out.maxSpeedSquared, v2);
    out.finite = out.finite && std::isfinite(v2) && std::isfinite(glm::dot(r, r));
  }
  return out;
}

template WorldSums worldSums<2>(const ParticleMoments&, const FrameTransform<2>&, const Vec3&);
template WorldSums worldSums<3>(const ParticleMoments&, const FrameTransform<3>&, const Vec3&);
template ParticleMoments momentsOf<2>(const ParticleSet<2>&, const Vec<2>&);
template ParticleMoments momentsOf<3>(const ParticleSet<3>&, const Vec<3>&);

}  // namespace sloshlab
