// Particle storage: structure of arrays.
//
// Positions and velocities live in the container's frame (see container.h): the
// walls stand still there. Solvers keep their own per-particle channels (densities,
// pressures, APIC matrices, ...) next to these and permute them together when the
// neighbour grid reorders particles by cell.
#pragma once

#include "sloshlab/math.h"

#include <cstdint>
#include <span>
#include <vector>

namespace sloshlab {

template <int D>
struct ParticleSet {
  std::vector<Vec<D>> x;   // position in the container frame (m)
  std::vector<Vec<D>> v;   // velocity relative to the container (m/s)
  std::vector<double> m;   // mass (kg)
  double radius = 0.0;     // drawing and contact radius (m), half the spacing

  std::size_t size() const { return x.size(); }
  void resize(std::size_t n) {
    x.resize(n);
    v.resize(n);
    m.resize(n);
  }
  void clear() { resize(0); }
};

// Reorders one channel: out[k] = in[order[k]]. scratch is reused between calls.
template <class T>
void permute(std::vector<T>& channel, std::span<const std::uint32_t> order, std::vector<T>& scratch) {
  scratch.resize(channel.size());
  const std::int64_t n = static_cast<std::int64_t>(order.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < n; ++k) scratch[k] = channel[order[k]];
  channel.swap(scratch);
}

}  // namespace sloshlab
