// Pieces shared by the SPH solvers (WCSPH, DFSPH, PBF): the cubic spline, the
// neighbourhoods of fluid particles among themselves and with the container's
// boundary samples, the particle mass that puts the initial lattice at rest density,
// cached pair gradients and vorticity.
//
//   [MM13] M. Macklin, M. Mueller, "Position based fluids", ACM TOG 32(4), 2013.
//          doi:10.1145/2461912.2461984
#pragma once

#include "boundary_samples.h"
#include "kernels.h"
#include "neighbour_list.h"
#include "particle_sort.h"
#include "state_archive.h"
#include "symmetric_pairs.h"
#include "sloshlab/emitter.h"
#include "sloshlab/solver.h"

#include <algorithm>
#include <span>

namespace sloshlab {

// The incompressible solvers (DFSPH, PBF) keep particle centres (physics.md (2.5)) at least this many
// spacings inside the walls. Their pressure alone does not: a particle at a wall with
// sparse fluid neighbours has the rest density with its centre on the wall (half its
// neighbourhood is boundary samples), and the 2D bottle drew particles half outside.
// Half a spacing (where the emitter puts the first layer) is too much: the bottom
// layer settles a little below it under its load, and clamping it there kept a 2D
// DFSPH tank 0.17 % compressed.
constexpr double kSphWallMargin = 0.25;

// m = rho0 / sum_j W(x_i - x_j) over the emitter's lattice (physics.md (4.5)): a particle inside the
// initial block then has exactly the rest density.
template <int D>
double calibratedMass(double rho0, double spacing, double support) {
  const CubicSpline<D> kernel(support);
  double sum = 0.0;
  for (const Vec<D>& p : latticeNeighbourhood<D>(spacing, support)) sum += kernel.W(p);
  return rho0 / sum;
}

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
// How an SPH solver lays out its kernel and neighbourhoods (SphBasis::update).
template <int D>
struct SphLayout {
  double support = 0.0;          // h (m)
  double restDensity = 1000.0;   // rho0 the particle mass is calibrated for (kg/m^3)
  double spacing = 0.0;          // the emitter's particle spacing (m)
  Vec<D> box{1.0};               // the container's inner size; the box spans [0, box]
  double skinFraction = 0.1;     // the Verlet skin over h
  bool adaptiveSkin = false;     // no skin while a step moves particles beyond a quarter of it
  bool halfLists = false;        // fluid() holds each pair once, j > i (for SymmetricPairCache)
};

// What SphNeighbourhood::update finds besides the fluid-fluid and fluid-wall pairs.
struct SphListOptions {
  bool wallToFluid = false;  // the wall-fluid pairs too (each boundary sample's fluid neighbours)
};

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
    m_walls.build(m_box, layout.spacing, m_support, reach);
    invalidate();
  }
  void invalidate() { m_valid = false; }

  // Rebuilds when needed: reorders particles (and the solver's channels) by cell,
  // then finds fluid-fluid, fluid-wall and, if asked, wall-fluid pairs within h + skin.
  // Returns true when it rebuilt (particle order changed).
  template <class... Channels>
  bool update(ParticleSet<D>& p, const SphListOptions& options, Channels&... extra) {
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
    sortByCell(m_grid, p, extra...);
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

  // Save and resume (state_archive.h). The lists are not stored: they are rebuilt from
  // the positions they were built at, which are still in cell order, so the rebuild
  // reproduces them pair for pair (and every sum over them bit for bit).
  void exchangeState(StateArchive& ar, std::size_t n) {
    ar.value(m_skin, "the neighbour lists' skin");
    ar.value(m_stepsSinceBuild, "the steps since the lists were built");
    ar.value(m_valid, "whether the neighbour lists are built");
    ar.value(m_wallToFluid, "whether the lists hold wall-fluid pairs");
    ar.channel(m_reference, n, "the positions the neighbour lists were built at");
    if (!ar.loading()) return;
    if (m_skin != m_nominalSkin && m_skin != 0.0) throw StateError("the neighbour lists' skin is not this solver's");
    if (m_stepsSinceBuild < 0) throw StateError("the steps since the lists were built are negative");
    m_valid = m_valid && m_reference.size() == n;
    if (!m_valid) return;
    for (const Vec<D>& x : m_reference)
      for (int k = 0; k < D; ++k)
        if (!(x[k] >= -m_box[k] && x[k] <= 2.0 * m_box[k]))
          throw StateError("a position the neighbour lists were built at lies far outside the container");
    const double reach = m_support + m_skin;
    m_grid.configure(Vec<D>(-reach), m_box + Vec<D>(reach), reach);
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
  const NeighbourList& boundary() const { return m_boundary; }
  const NeighbourList& wallFluid() const { return m_wallFluid; }
  const BoundarySamples<D>& walls() const { return m_walls; }
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
};

// What every SPH solver (WCSPH, DFSPH, PBF) re-derives when its support or rest density
// is edited: the kernel and neighbourhood for h = support x spacing, and the one
// particle mass that puts the emitter's lattice at rho0.
template <int D>
class SphBasis {
 public:
  CubicSpline<D> kernel;
  SphNeighbourhood<D> hood;
  double mass = 0.0;    // every particle's mass (kg)
  double volume = 0.0;  // V = m / rho0 (m^D)

  void invalidate() { m_support = m_density = 0.0; }
  void update(const SphLayout<D>& layout, ParticleSet<D>& p) {
    const double h = layout.support, rho0 = layout.restDensity;
    if (h != m_support) {
      kernel = CubicSpline<D>(h);
      hood.configure(layout);
      m_support = h;
      m_density = 0.0;
    }
    if (rho0 != m_density || p.m.empty() || p.m[0] == 0.0) {
      mass = calibratedMass<D>(rho0, layout.spacing, h);
      volume = mass / rho0;
      std::fill(p.m.begin(), p.m.end(), mass);
      m_density = rho0;
    }
  }

 private:
  double m_support = 0.0;  // h the kernel and lists were built for
  double m_density = 0.0;  // rho0 the mass was calibrated for
};

// The pairs closer than h, with V gradW_ij and W_ij stored once per step: DFSPH's pressure
// solves sweep its particle -> wall sample pairs several times per step, and reading a
// stored gradient is much cheaper than recomputing a square root and the kernel
// derivative each sweep. (Fluid pairs, symmetric, are in symmetric_pairs.h.)
// Values are kept in single precision (they weigh the solver's increments, whose own
// tolerance is 1e-3); the rows follow the query order, so sums over them are the same
// for any thread count. Queries and sources may differ (fluid -> wall samples).
template <int D>
class SphPairCache {
 public:
  using FVec = glm::vec<D, float, glm::defaultp>;

  std::span<const std::uint32_t> neighbours(std::size_t i) const { return row(m_j, i); }
  std::span<const FVec> gradients(std::size_t i) const { return row(m_grad, i); }  // V gradW(x_i - x_j)
  std::span<const float> weights(std::size_t i) const { return row(m_w, i); }      // W(x_i - x_j)
  std::size_t totalPairs() const { return m_pairs; }

  // Keeps the pairs of `lists` (which may reach beyond h) that are closer than h. Rows
  // are laid out by the list sizes (an upper bound) and each is filled in one pass, so
  // one test decides each pair (a count pass and a fill pass could round r^2 at r = h
  // differently and disagree). `exact`: the lists hold only such pairs (no skin) and
  // every entry is kept; their own test decided.
  void build(const NeighbourList& lists, std::span<const Vec<D>> queries, std::span<const Vec<D>> sources,
             const CubicSpline<D>& kernel, double volume, bool exact = false) {
    const std::int64_t n = static_cast<std::int64_t>(queries.size());
    const double h2 = kernel.h * kernel.h;
    lists.rowOffsets(m_start);
    m_end.resize(n);
    m_j.resize(m_start[n]);
    m_grad.resize(m_start[n]);
    m_w.resize(m_start[n]);
    std::uint64_t kept = 0;
#pragma omp parallel for schedule(static) reduction(+ : kept)
    for (std::int64_t i = 0; i < n; ++i) {
      std::uint32_t k = m_start[i];
      for (std::uint32_t j : lists[i]) {
        const Vec<D> r = queries[i] - sources[j];
        const double r2 = lengthSquared<D>(r);
        if (!exact && r2 >= h2) continue;
        double w, factor;
        kernel.weightAndGradFactor(r2, w, factor);
        m_j[k] = j;
        m_grad[k] = FVec((volume * factor) * r);
        m_w[k] = static_cast<float>(w);
        ++k;
      }
      m_end[i] = k;
      kept += k - m_start[i];
    }
    m_pairs = kept;
  }

 private:
  template <class T>
  std::span<const T> row(const std::vector<T>& values, std::size_t i) const {
    return {values.data() + m_start[i], values.data() + m_end[i]};
  }

  std::size_t m_pairs = 0;
  std::vector<std::uint32_t> m_end;  // row i is [m_start[i], m_end[i])
  std::vector<std::uint32_t> m_start, m_j;
  std::vector<FVec> m_grad;
  std::vector<float> m_w;
};

// Per-particle sums over the fluid pairs that the density and the DFSPH / PBF Jacobi
// diagonal need: sum_j W_ij, G_i = sum_j V gradW_ij and sum_j |V gradW_ij|^2.
template <int D>
struct DensitySums {
  double weight = 0.0;
  Vec<D> grad{0.0};
  double squares = 0.0;
  DensitySums() = default;
  explicit DensitySums(double zero) : weight(zero), grad(zero), squares(zero) {}
  DensitySums& operator+=(const DensitySums& o) {
    weight += o.weight, grad += o.grad, squares += o.squares;
    return *this;
  }
};

// The sums over pairs stored once: W_ij and |gradW_ij|^2 count for both particles,
// gradW_ij with opposite signs.
template <int D>
void densitySums(const SymmetricPairCache<D>& pairs, std::vector<DensitySums<D>>& out,
                 std::vector<DensitySums<D>>& carry) {
  pairs.sum(out, carry,
            [](std::uint32_t, std::uint32_t, const auto& g32, float w, DensitySums<D>& a, DensitySums<D>& b) {
              const Vec<D> g(g32);
              const double square = lengthSquared<D>(g);
              a.weight += w, a.grad += g, a.squares += square;
              b.weight += w, b.grad -= g, b.squares += square;
            });
}

// Vorticity omega_i = curl v = sum_j V gradW_ij x (v_j - v_i) ([MM13] Eq. 15; physics.md (7.9)), as a 3D
// vector (only its z component is non-zero in 2D). V is the particle volume m/rho0.
template <int D>
Vec3 vorticityAt(std::size_t i, const ParticleSet<D>& p, const NeighbourList& lists, const CubicSpline<D>& kernel,
                 double volume) {
  const double h2 = kernel.h * kernel.h;
  Vec3 omega(0.0);
  for (std::uint32_t j : lists[i]) {
    const Vec<D> r = p.x[i] - p.x[j];
    const double r2 = lengthSquared<D>(r);
    if (r2 >= h2) continue;
    omega += glm::cross(toVec3<D>((volume * kernel.gradFactor(r2)) * r), toVec3<D>(p.v[j] - p.v[i]));
  }
  return omega;
}

// The colour field for vorticity: omega_z in 2D (signed), |omega| in 3D.
template <int D>
void vorticityField(const ParticleSet<D>& p, const NeighbourList& lists, const CubicSpline<D>& kernel,
                    double volume, std::span<float> out) {
  if (lists.size() != p.size()) {
    std::fill(out.begin(), out.end(), 0.0f);
    return;
  }
  const std::int64_t n = static_cast<std::int64_t>(p.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    const Vec3 omega = vorticityAt<D>(i, p, lists, kernel, volume);
    out[i] = static_cast<float>(D == 2 ? omega.z : glm::length(omega));
  }
}

// The colour fields of the incompressible solvers (DFSPH, PBF): density from the
// density ratio, the solver's pressure and vorticity (each computed only when asked for).
template <int D, class PressureFn, class VorticityFn>
bool incompressibleField(FieldKind kind, const ParticleSet<D>& p, std::span<const double> rhoRatio, double rho0,
                         PressureFn pressure, VorticityFn vorticity, std::span<float> out) {
  if (rhoRatio.size() != p.size()) return false;
  switch (kind) {
    case FieldKind::Density:
      for (std::size_t i = 0; i < p.size(); ++i) out[i] = static_cast<float>(rhoRatio[i] * rho0);
      return true;
    case FieldKind::Pressure: {
      const std::vector<double> pr = pressure();
      for (std::size_t i = 0; i < p.size(); ++i) out[i] = static_cast<float>(pr[i]);
      return true;
    }
    case FieldKind::Vorticity:
      vorticity(out);
      return true;
    default:
      return false;
  }
}

// Sums a per-particle array in a fixed order, the same for any thread count (OpenMP's
// reduction order depends on the threads, and stopping criteria must not): chunks of
// kChunk values are summed in parallel, then the chunk sums in chunk order.
inline double orderedSum(std::span<const double> values) {
  constexpr std::size_t kChunk = 4096;
  const std::int64_t chunks = static_cast<std::int64_t>((values.size() + kChunk - 1) / kChunk);
  if (chunks <= 1) {
    double sum = 0.0;
    for (double v : values) sum += v;
    return sum;
  }
  std::vector<double> partial(chunks);
#pragma omp parallel for schedule(static)
  for (std::int64_t c = 0; c < chunks; ++c) {
    double sum = 0.0;
    const std::size_t end = std::min(values.size(), static_cast<std::size_t>(c + 1) * kChunk);
    for (std::size_t k = static_cast<std::size_t>(c) * kChunk; k < end; ++k) sum += values[k];
    partial[c] = sum;
  }
  double sum = 0.0;
  for (double p : partial) sum += p;
  return sum;
}

}  // namespace sloshlab
