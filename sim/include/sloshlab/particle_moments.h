// The step diagnostics of physics.md (10.1)-(10.6) from a few sums over the particles.
//
// The world-frame figures (momentum, angular momentum about the container's centre,
// kinetic and potential energy) are sums over particles of world positions and
// velocities, x_w = c + R r and v_w = V + R (v + omega x r), with r = x - L/2 the
// position relative to the box centre and omega the turn rate, both in the container's
// axes (physics.md (8.1)-(8.2)). Expanding them leaves sums that do not involve the
// pose at all (physics.md (10.11)):
//     P = M V + R (S_v + omega x S_r)
//     E_k = M |V|^2 / 2 + V . R (S_v + omega x S_r) + (Q_v + 2 omega . S_rxv + |omega|^2 Q_r - omega . I omega) / 2
//     E_p = -g . (M c + R S_r)
//     L = (R S_r) x V + R (S_rxv + Q_r omega - I omega)
// with M = sum m, S_r = sum m r, S_v = sum m v, Q_v = sum m |v|^2, S_rxv = sum m r x v,
// Q_r = sum m |r|^2 and I = sum m r r^T (kept as its columns X = sum m r_x r and
// Z = sum m r_z r; its middle one follows from Q_r). A solver whose particles live in another
// memory (the GPU path, sim/gpu/) sums these there and sends back a score of numbers
// per step instead of the particles.
#pragma once

#include "sloshlab/container.h"
#include "sloshlab/math.h"
#include "sloshlab/particles.h"

namespace sloshlab {

// Frame-independent sums over the particles, in the container frame (see above).
struct ParticleMoments {
  double mass = 0.0;           // M
  Vec3 position{0.0};          // S_r = sum m r (kg m)
  Vec3 momentum{0.0};          // S_v = sum m v (kg m/s)
  double speedSquares = 0.0;   // Q_v = sum m |v|^2 (J, twice the container-frame energy)
  Vec3 spin{0.0};              // S_rxv = sum m r x v (kg m^2/s)
  double radiusSquares = 0.0;  // Q_r = sum m |r|^2 (kg m^2)
  Vec3 xMoments{0.0};          // X = sum m r_x r (kg m^2)
  Vec3 zMoments{0.0};          // Z = sum m r_z r (kg m^2)
  double maxSpeedSquared = 0.0;  // max |v|^2 relative to the container (m^2/s^2)
  bool finite = true;          // every position and velocity finite
};

// The world-frame figures that SimulationImpl reports.
struct WorldSums {
  double mass = 0.0, kineticEnergy = 0.0, potentialEnergy = 0.0, maxSpeedSquared = 0.0;
  Vec3 momentum{0.0}, angularMomentum{0.0};
  bool finite = true;
};

// The figures of the header's formulas for one container pose and motion.
template <int D>
WorldSums worldSums(const ParticleMoments& m, const FrameTransform<D>& frame, const Vec3& gravity);

// The moments of a host particle set (the reference the GPU sums are tested against).
template <int D>
ParticleMoments momentsOf(const ParticleSet<D>& p, const Vec<D>& boxSize);

// The liquid's depth along the unit vector `down`, from its spread about its centre of
// mass: H = sqrt(12 var), var = d.I d / M - (d.S_r / M)^2, exact for a level layer
// (physics.md (9.6a)). 0 for no mass.
double depthAlong(const ParticleMoments& m, const Vec3& down);

}  // namespace sloshlab
