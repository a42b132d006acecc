// What every GPU solver shares about its particles: positions as vec4 with the
// particle's number in w (so a reorder carries it along), velocities as vec4, the copy
// to and from a host ParticleSet, and the reductions a step ends with (reduce_moments.comp:
// the moments of physics.md (10.11), and one per-particle scalar summed and maxed).
#pragma once

#include "compute.h"

#include "sloshlab/particle_moments.h"
#include "sloshlab/particles.h"

#include <vector>

namespace sloshlab::gpu {

// x and v of the host set into vec4 arrays (numbers in x.w); returns the count.
template <int D>
std::size_t uploadParticles(const ParticleSet<D>& p, Buffer& x, Buffer& v);
// The reverse, every mass set to `mass`.
template <int D>
void downloadParticles(const Buffer& x, const Buffer& v, std::size_t n, double mass, ParticleSet<D>& p);
// One component of a vec4 array, in the device's order.
std::vector<float> readComponent(const Buffer& values, std::size_t n, int component);

class MomentReducer {
 public:
  explicit MomentReducer(int dim);

  // The moments of n particles of one mass, and over the `scalar` component of `aux`,
  // the sum and the largest of max(aux - offset, 0) and the largest raw value.
  struct Sums {
    ParticleMoments moments;
    double positiveSum = 0.0, positiveMax = 0.0, rawMax = 0.0;
  };
  Sums sum(const Buffer& x, const Buffer& v, const Buffer& aux, std::size_t n, double mass, int scalar,
           float offset);

 private:
  ComputeProgram m_reduce;
  Buffer m_partials, m_result;
};

// Over one component s of a vec4 array: sum and max of max(s, 0), and max s
// (reduce_scalar.comp), read back as three numbers.
class ScalarReducer {
 public:
  explicit ScalarReducer(int dim);
  struct Sums {
    double positiveSum = 0.0, positiveMax = 0.0, rawMax = 0.0;
  };
  Sums sum(const Buffer& values, std::size_t n, int component);

 private:
  ComputeProgram m_reduce;
  Buffer m_partials, m_result;
};

}  // namespace sloshlab::gpu
