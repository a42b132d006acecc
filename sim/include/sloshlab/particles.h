// Particle storage: structure of arrays.
//
// Positions and velocities live in the container's frame (see container.h): the
// walls stand still there. Solvers keep their own per-particle channels (densities,
// pressures, warm starts, ...) next to these and register them with the set once
// (addChannel, in reset()): every reorder (the neighbour grid's sort by cell,
// sph/particle_sort.h) then permutes x, v, m, id and all registered channels together, so
// a reorder cannot miss one.
#pragma once

#include "sloshlab/math.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

namespace sloshlab {

// One reusable scratch buffer per channel type (per thread), for permute.
template <class T>
std::vector<T>& permuteScratch() {
  static thread_local std::vector<T> scratch;
  return scratch;
}

// Reorders one channel: out[k] = in[order[k]]. scratch is reused between calls.
template <class T>
void permute(std::vector<T>& channel, std::span<const std::uint32_t> order, std::vector<T>& scratch) {
  scratch.resize(channel.size());
  const std::int64_t n = static_cast<std::int64_t>(order.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < n; ++k) scratch[k] = channel[order[k]];
  channel.swap(scratch);
}

// The per-particle arrays a solver registered with a particle set. Each is either empty
// (not in use yet: a scratch filled later in the step) or holds one value per particle;
// resize keeps them so and reorder refuses any other length (a silent mis-order).
// Registrations belong to the set object, not to its value: a copy starts with none (it
// does not own the solver's arrays) and an assignment keeps the target's own.
class ParticleChannels {
 public:
  ParticleChannels() = default;
  ParticleChannels(const ParticleChannels&) {}
  ParticleChannels& operator=(const ParticleChannels&) { return *this; }

  template <class T>
  void add(std::vector<T>& channel) {
    for (const Entry& e : m_entries)
      if (e.data == &channel) return;
    m_entries.push_back({&channel, &sizeOf<T>, &resizeTo<T>, &permuteBy<T>});
  }
  void clear() { m_entries.clear(); }
  std::size_t count() const { return m_entries.size(); }

  void resize(std::size_t n) {
    for (const Entry& e : m_entries)
      if (e.size(e.data) != 0) e.resize(e.data, n);
  }
  void reorder(std::span<const std::uint32_t> order) {
    for (const Entry& e : m_entries) {
      const std::size_t size = e.size(e.data);
      if (size == 0) continue;
      if (size != order.size()) throw std::logic_error("a registered particle channel does not hold one value per particle");
      e.permute(e.data, order);
    }
  }

 private:
  // One function pointer per channel and reorder, never per particle.
  struct Entry {
    void* data;
    std::size_t (*size)(const void*);
    void (*resize)(void*, std::size_t);
    void (*permute)(void*, std::span<const std::uint32_t>);
  };
  template <class T>
  static std::size_t sizeOf(const void* c) {
    return static_cast<const std::vector<T>*>(c)->size();
  }
  template <class T>
  static void resizeTo(void* c, std::size_t n) {
    static_cast<std::vector<T>*>(c)->resize(n);
  }
  template <class T>
  static void permuteBy(void* c, std::span<const std::uint32_t> order) {
    permute(*static_cast<std::vector<T>*>(c), order, permuteScratch<T>());
  }

  std::vector<Entry> m_entries;
};

template <int D>
struct ParticleSet {
  std::vector<Vec<D>> x;   // position in the container frame (m)
  std::vector<Vec<D>> v;   // velocity relative to the container (m/s)
  std::vector<double> m;   // mass (kg)
  std::vector<std::uint32_t> id;  // a particle's own number, kept through every reorder (the inspector's pin)
  std::uint32_t nextId = 0;       // the number the next particle added gets (hybrid reseeding)
  double radius = 0.0;     // drawing and contact radius (m), half the spacing
  ParticleChannels channels;  // the solver's per-particle arrays, reordered with x, v, m and id

  std::size_t size() const { return x.size(); }
  void resize(std::size_t n) {
    x.resize(n);
    v.resize(n);
    m.resize(n);
    id.resize(n);
    channels.resize(n);
  }
  // Registers a solver's per-particle array (once, in reset(); again is harmless). The
  // array must outlive its registration: a solver re-registers after forgetChannels.
  template <class T>
  void addChannel(std::vector<T>& channel) {
    channels.add(channel);
  }
  // Forgets every registered array (a new solver takes the particles over).
  void forgetChannels() { channels.clear(); }
  // Permutes every particle quantity: out[k] = in[order[k]] for x, v, m, id and each
  // registered channel.
  void reorder(std::span<const std::uint32_t> order) {
    permute(x, order, permuteScratch<Vec<D>>());
    permute(v, order, permuteScratch<Vec<D>>());
    permute(m, order, permuteScratch<double>());
    permute(id, order, permuteScratch<std::uint32_t>());
    channels.reorder(order);
  }
  // Numbers 0 .. n-1, as emitted.
  void numberInOrder() {
    id.resize(x.size());
    for (std::size_t i = 0; i < id.size(); ++i) id[i] = static_cast<std::uint32_t>(i);
    nextId = static_cast<std::uint32_t>(id.size());
  }
  void clear() { resize(0); }
};

// The fastest particle's speed max_i |v_i| (m/s), for the time-step bounds (physics.md
// section 9). A maximum does not depend on the order it is taken in: the same for any
// thread count.
template <int D>
double maxSpeed(std::span<const Vec<D>> v) {
  double v2 = 0.0;
  const std::int64_t n = static_cast<std::int64_t>(v.size());
#pragma omp parallel for schedule(static) reduction(max : v2)
  for (std::int64_t i = 0; i < n; ++i) v2 = std::max(v2, lengthSquared<D>(v[i]));
  return std::sqrt(v2);
}

}  // namespace sloshlab
