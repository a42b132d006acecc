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
  std::vector<std::uint32_t> id;  // a particle's own number, kept through every reorder (the inspector's pin)
  std::uint32_t nextId = 0;       // the number the next particle added gets (hybrid reseeding)
  double radius = 0.0;     // drawing and contact radius (m), half the spacing

  std::size_t size() const { return x.size(); }
  void resize(std::size_t n) {
    x.resize(n);
    v.resize(n);
    m.resize(n);
    id.resize(n);
  }
  // Numbers 0 .. n-1, as emitted.
  void numberInOrder() {
    id.resize(x.size());
    for (std::size_t i = 0; i < id.size(); ++i) id[i] = static_cast<std::uint32_t>(i);
    nextId = static_cast<std::uint32_t>(id.size());
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
