// The neighbourhoods of an SPH solver (WCSPH, DFSPH, PBF): Verlet lists of the fluid
// particles among themselves, with the container's boundary samples and, if asked,
// from the samples to the fluid; rebuilt (and the particles sorted by cell) only when
// some particle has moved half the skin.
#pragma once

#include "sph/boundary_samples.h"
#include "sph/neighbour_list.h"
#include "sph/particle_sort.h"
#include "io/state_archive.h"
#include "sloshlab/particles.h"
#include "sloshlab/solver.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace sloshlab {

// How an SPH solver lays out its kernel and neighbourhoods (SphBasis::update).
template <int D>
struct SphLayout {
  double support = 0.0;          // h (m)
  double restDensity = 1000.0;   // rho0 the particle mass is calibrated for (kg/m^3)
  double spacing = 0.0;          // the emitter's particle spacing (m)
  Vec<D> box{1.0};               // the container's inner size; the box spans [0, box]
  const Solids<D>* solids = nullptr;  // obstacles in the box, sampled with the walls
  double skinFraction = 0.1;     // the Verlet skin over h
  bool adaptiveSkin = false;     // no skin while a step moves particles beyond a quarter of it
  bool halfLists = false;        // fluid() holds each pair once, j > i (for SymmetricPairCache)
};

// What SphNeighbourhood::update finds besides the fluid-fluid and fluid-wall pairs.
struct SphListOptions {
  bool wallToFluid = false;  // the wall-fluid pairs too (each boundary sample's fluid neighbours)
};

// Neighbourhoods with a skin (physics.md section 4; Verlet lists; Verlet 1967, doi:10.1103/PhysRev.159.98):
// lists hold every pair closer than h + skin, so they stay complete until some
// particle has moved skin/2 since they were built. Only then are particles re-sorted
// by cell and the lists rebuilt; kernels return 0 beyond h, so the extra pairs are
// harmless (loops skip them early). A calm SPH step moves particles by a few percent
// of h, so most steps reuse the lists.
//
// With an adaptive skin, a flow that moves some particle by more than a quarter of the
// skin per step (DFSPH's large steps do: 0.4 spacings at CFL 0.4) gets lists without
// a skin, rebuilt every step: a skin that lasts one step only adds pairs (1.5 times as
// many for a skin of 0.15 h in 3D). The skin comes back once the fastest particle moves
// less than that per step again.
template <int D>
class SphNeighbourhood {
 public:
  void configure(const SphLayout<D>& layout) {
    m_support = layout.support;
    m_nominalSkin = m_skin = layout.skinFraction * layout.support;
    m_adaptive = layout.adaptiveSkin;
    m_half = layout.halfLists;
    m_box = layout.box;
    const double reach = m_support + m_skin;
    m_grid.configure(Vec<D>(-reach), m_box + Vec<D>(reach), reach);
    m_walls.build(m_box, layout.spacing, m_support, reach, layout.solids);
    invalidate();
  }
  void invalidate() { m_valid = false; }

  // Rebuilds when needed: reorders particles (and the channels the solver registered
  // with them, ParticleSet::addChannel) by cell, then finds fluid-fluid, fluid-wall and,
  // if asked, wall-fluid pairs within h + skin. Returns true when it rebuilt (particle
  // order changed).
  bool update(ParticleSet<D>& p, const SphListOptions& options) {
    const bool rebuilt = updateLists(p, options);
    if (m_bodies) joinBodies(p, options.wallToFluid);  // every call: the bodies move
    return rebuilt;
  }

  // The floating bodies' samples (solver.h) for the update calls that follow; nullptr or
  // an empty set: none. While they are set, samples(), boundary() and wallFluid() hold the
  // walls' samples followed by the bodies', found anew at every update (physics.md (16.11)).
  void setBodies(const BodySamples<D>* bodies) { m_bodies = bodies && bodies->size() > 0 ? bodies : nullptr; }

 private:
  bool updateLists(ParticleSet<D>& p, const SphListOptions& options) {
    const bool wallToFluid = options.wallToFluid;
    const bool comparable = m_valid && m_wallToFluid == wallToFluid && p.size() == m_reference.size();
    const double moved = comparable ? maxDisplacement(p) : 0.0;
    ++m_stepsSinceBuild;
    if (comparable && moved <= 0.5 * m_skin) return false;
    if (m_adaptive && comparable) {
      const double perStep = moved / static_cast<double>(m_stepsSinceBuild);
      const double skin = perStep > 0.25 * m_nominalSkin ? 0.0 : m_nominalSkin;
      if (skin != m_skin) {
        m_skin = skin;
        const double cell = m_support + m_skin;
        m_grid.configure(Vec<D>(-cell), m_box + Vec<D>(cell), cell);
      }
    }
    const double reach = m_support + m_skin;
    sortByCell(m_grid, p);
    if (m_half)
      m_fluid.buildLaterHalf<D>(m_grid, p.x, reach);
    else
      m_fluid.build<D>(m_grid, p.x, p.x, reach, true);
    m_walls.findNeighbours(p.x, m_boundary, reach);
    if (wallToFluid) m_wallFluid.build<D>(m_grid, p.x, m_walls.positions(), reach, false);
    m_reference = p.x;
    m_wallToFluid = wallToFluid;
    m_valid = true;
    m_stepsSinceBuild = 0;
    return true;
  }

  // The particle -> body sample pairs within h + skin at the current positions, joined
  // after the walls' pairs; with wallToFluid the samples' particles too, after the walls'
  // rows.
  void joinBodies(const ParticleSet<D>& p, bool wallToFluid) {
    const BodySamples<D>& b = *m_bodies;
    const double reach = m_support + m_skin;
    const Vec<D> margin(reach);
    m_bodyGrid.configure(-margin, m_box + margin, reach);
    m_bodyGrid.build(b.x);
    const auto order = m_bodyGrid.order();
    m_bodyOf.assign(order.begin(), order.end());
    m_samples.resize(m_walls.size() + b.size());
    const auto walls = m_walls.positions();
    std::copy(walls.begin(), walls.end(), m_samples.begin());
    for (std::size_t k = 0; k < b.size(); ++k) m_samples[m_walls.size() + k] = b.x[m_bodyOf[k]];
    // Only particles in the box about every body's sphere look; the grid's empty cells
    // cost the rest little.
    Vec<D> lo(std::numeric_limits<double>::infinity()), hi(-std::numeric_limits<double>::infinity());
    for (std::size_t k = 0; k < b.centre.size(); ++k)
      lo = glm::min(lo, b.centre[k] - Vec<D>(b.reach[k] + reach)), hi = glm::max(hi, b.centre[k] + Vec<D>(b.reach[k] + reach));
    const std::int64_t n = static_cast<std::int64_t>(p.size());
    m_near.resize(static_cast<std::size_t>(n));
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i)
      m_near[i] = !glm::any(glm::lessThan(p.x[i], lo)) && !glm::any(glm::greaterThan(p.x[i], hi));
    const std::span<const Vec<D>> bodyX(m_samples.data() + m_walls.size(), b.size());
    m_bodyRows.buildNear<D>(m_bodyGrid, bodyX, p.x, reach, m_near);
    const auto offset = static_cast<std::uint32_t>(m_walls.size());
    m_joinedBoundary.join(m_boundary, m_bodyRows, offset);
    if (wallToFluid) {
      m_bodyFluid.transpose(m_bodyRows, b.size());
      m_joinedWallFluid.stack(m_wallFluid, m_bodyFluid, 0);
    }
  }

 public:
  // Save and resume (state_archive.h). The lists are not stored: they are rebuilt from
  // the positions they were built at, which are still in cell order, so the rebuild
  // reproduces them pair for pair (and every sum over them bit for bit).
  void exchangeState(StateArchive& ar, std::size_t n) {
    ar.value(m_skin, "the neighbour lists' skin");
    ar.value(m_stepsSinceBuild, "the steps since the lists were built");
    if (!ar.loading() && m_reference.size() != n) {
      // Particles were added or removed since the lists were built (a faucet, an
      // outlet): the next update rebuilds them, here as in the resumed run.
      bool valid = false;
      std::vector<Vec<D>> none;
      ar.value(valid, "whether the neighbour lists are built");
      ar.value(m_wallToFluid, "whether the lists hold wall-fluid pairs");
      ar.channel(none, n, "the positions the neighbour lists were built at");
      return;
    }
    ar.value(m_valid, "whether the neighbour lists are built");
    ar.value(m_wallToFluid, "whether the lists hold wall-fluid pairs");
    ar.channel(m_reference, n, "the positions the neighbour lists were built at");
    if (!ar.loading()) return;
    if (m_skin != m_nominalSkin && m_skin != 0.0) throw StateError("the neighbour lists' skin is not this solver's");
    if (m_stepsSinceBuild < 0) throw StateError("the steps since the lists were built are negative");
    m_valid = m_valid && m_reference.size() == n;
    // The cells follow the saved skin (an adaptive one may be 0) also when the lists are
    // to be rebuilt: their size sets the order the rebuild sorts the particles into.
    const double reach = m_support + m_skin;
    m_grid.configure(Vec<D>(-reach), m_box + Vec<D>(reach), reach);
    if (!m_valid) return;
    for (const Vec<D>& x : m_reference)
      for (int k = 0; k < D; ++k)
        if (!(x[k] >= -m_box[k] && x[k] <= 2.0 * m_box[k]))
          throw StateError("a position the neighbour lists were built at lies far outside the container");
    m_grid.build(m_reference);
    const auto order = m_grid.order();
    for (std::size_t k = 0; k < order.size(); ++k)
      if (order[k] != k) throw StateError("the particles are not in the order their neighbour lists were built in");
    if (m_half)
      m_fluid.buildLaterHalf<D>(m_grid, m_reference, reach);
    else
      m_fluid.build<D>(m_grid, m_reference, m_reference, reach, true);
    m_walls.findNeighbours(m_reference, m_boundary, reach);
    if (m_wallToFluid) m_wallFluid.build<D>(m_grid, m_reference, m_walls.positions(), reach, false);
  }

  const NeighbourList& fluid() const { return m_fluid; }
  // Each particle's boundary samples (the walls', then the bodies'), as indices into samples().
  const NeighbourList& boundary() const { return m_bodies ? m_joinedBoundary : m_boundary; }
  // Each boundary sample's particles (with SphListOptions::wallToFluid).
  const NeighbourList& wallFluid() const { return m_bodies ? m_joinedWallFluid : m_wallFluid; }
  const BoundarySamples<D>& walls() const { return m_walls; }
  // The boundary samples: the walls' (fixed), then the bodies' (this step's).
  std::span<const Vec<D>> samples() const { return m_bodies ? std::span<const Vec<D>>(m_samples) : m_walls.positions(); }
  std::size_t sampleCount() const { return m_walls.size() + (m_bodies ? m_bodies->size() : 0); }
  double sampleVolume() const { return m_walls.volume(); }  // V_b, every sample's
  // The bodies' samples are samples() from firstBodySample() on; bodySample(j) is sample
  // j's index in the BodySamples set.
  const BodySamples<D>* bodies() const { return m_bodies; }
  std::size_t firstBodySample() const { return m_walls.size(); }
  std::uint32_t bodySample(std::size_t j) const { return m_bodyOf[j - m_walls.size()]; }
  double support() const { return m_support; }
  double skin() const { return m_skin; }  // the current lists' skin (m)

 private:
  double maxDisplacement(const ParticleSet<D>& p) const {
    double worst = 0.0;
    const std::int64_t n = static_cast<std::int64_t>(p.size());
#pragma omp parallel for schedule(static) reduction(max : worst)
    for (std::int64_t i = 0; i < n; ++i) worst = std::max(worst, lengthSquared<D>(p.x[i] - m_reference[i]));
    return std::sqrt(worst);
  }

  double m_support = 0.0;
  double m_skin = 0.0;         // of the current lists
  double m_nominalSkin = 0.0;  // skinFraction x h
  bool m_adaptive = false;
  bool m_half = false;
  long m_stepsSinceBuild = 0;
  Vec<D> m_box{0.0};
  bool m_valid = false;
  bool m_wallToFluid = false;
  NeighbourGrid<D> m_grid;
  BoundarySamples<D> m_walls;
  NeighbourList m_fluid;
  NeighbourList m_boundary;
  NeighbourList m_wallFluid;
  std::vector<Vec<D>> m_reference;  // positions when the lists were built
  // The floating bodies' samples and their pairs (joinBodies).
  const BodySamples<D>* m_bodies = nullptr;
  NeighbourGrid<D> m_bodyGrid;
  std::vector<std::uint32_t> m_bodyOf;  // body sample in cell order -> its index in m_bodies
  std::vector<Vec<D>> m_samples;        // walls, then the bodies' in cell order
  std::vector<std::uint8_t> m_near;     // per particle: within reach of some body
  NeighbourList m_bodyRows, m_bodyFluid, m_joinedBoundary, m_joinedWallFluid;
};

}  // namespace sloshlab
