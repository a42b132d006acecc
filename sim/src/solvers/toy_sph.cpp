#include "solvers/toy_sph.h"

#include "containment.h"
#include "io/state_archive.h"

#include "sph/smoothing_kernel.h"
#include "sph/particle_sort.h"
#include "sloshlab/emitter.h"

#include <algorithm>
#include <cmath>

namespace sloshlab {

template <int D>
const ParamTable& ToySphSolver<D>::paramTable() {
  using P = ToySphParams;
  static const ParamInfo entries[] = {
      {"rest_density", "Rest density", "1", "Pressure", SLOSHLAB_PARAM_FIELD(P, restDensity), 0.5, 10.0, false,
       "DENSITY: p_i = K(rho_i - rho0), rho_i = sum_j (1 - r/R)^2 clamped to >= rho0"},
      {"pressure", "Pressure factor", "1", "Pressure", SLOSHLAB_PARAM_FIELD(P, pressure), 0.05, 10.0, true,
       "PRESSURE: f_i += (1 - r/R)(p_i + p_j)/(2 rho_ij), rho_ij the pair's mean density PRESSURE e_ji per frame"},
      {"viscosity", "Viscosity factor", "1", "Viscosity", SLOSHLAB_PARAM_FIELD(P, viscosity), 0.0, 1.0, false,
       "VISCOSITY: f_i -= (v_i - v_j)(1 - r/R)/rho_ij VISCOSITY per frame"},
      {"gravity", "Demo gravity", "px/frame^2", "Time", SLOSHLAB_PARAM_FIELD(P, gravity), 0.005, 0.5, true,
       "GRAVITY of the demo; sets the frame length tau = sqrt(G l/|g|) that maps its units to seconds"},
      {"wall_stiffness", "Wall spring", "1/frame^2", "Walls", SLOSHLAB_PARAM_FIELD(P, wallStiffness), 0.0, 2.0,
       false, "k in v += k (wall - x) per frame for a particle past the spring wall"},
      {"wall_margin", "Wall margin", "px", "Walls", SLOSHLAB_PARAM_FIELD(P, wallMargin), 0.0, 8.0, false,
       "distance of the spring walls inside the container (the demo's 4 px)"},
  };
  static const ParamTable table{"toy", entries};
  return table;
}

template <int D>
double ToySphSolver<D>::restSpacingPx(double rho0) {
  auto densityAt = [](double d) {
    double sum = 0.0;
    for (const Vec<D>& q : latticeNeighbourhood<D>(d, kRangePx)) {
      const double r = glm::length(q);
      if (r > 0.0) sum += toyDensityWeight(r, kRangePx);
    }
    return sum;
  };
  double lo = 0.05 * kRangePx, hi = kRangePx;  // density falls as the spacing grows
  for (int it = 0; it < 60; ++it) {
    const double mid = 0.5 * (lo + hi);
    (densityAt(mid) > rho0 ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

template <int D>
void ToySphSolver<D>::reset(ParticleSet<D>& p, const SolverSetup<D>& setup) {
  m_box = setup.boxSize;
  m_solids = setup.solids;
  m_spacing = setup.spacing;
  const double g = glm::length(setup.gravity);
  m_gravityNorm = g > 0.0 ? g : 9.81;
  m_pixel = m_spacing / restSpacingPx(m_params.restDensity);
  m_grid.configure(Vec<D>(0.0), m_box, kRangePx * m_pixel);
  paramsChanged(p);
  // Unit masses in the demo; report them as water of the particle's volume.
  std::fill(p.m.begin(), p.m.end(), 1000.0 * std::pow(m_spacing, D));
}

template <int D>
void ToySphSolver<D>::paramsChanged(ParticleSet<D>&) {
  m_frame = std::sqrt(m_params.gravity * m_pixel / m_gravityNorm);
}

template <int D>
double ToySphSolver<D>::maxTimeStep(const ParticleSet<D>&, const StepContext<D>&) const {
  return m_frame;
}

template <int D>
void ToySphSolver<D>::step(ParticleSet<D>& p, const StepContext<D>& ctx, SolverReport& report) {
  PhaseClock clock;
  const double R = kRangePx * m_pixel;
  sortByCell(m_grid, p);
  m_neighbours.build<D>(m_grid, p.x, p.x, R, true);
  clock.lap(report, "neighbours");
  computeDensity(p);
  double errMax = 0.0, errSum = 0.0;
  for (double rho : m_rho) {
    errMax = std::max(errMax, (rho - m_params.restDensity) / m_params.restDensity);
    errSum += std::max(rho - m_params.restDensity, 0.0) / m_params.restDensity;
  }
  report.densityErrorMax = errMax;
  report.densityErrorMean = m_rho.empty() ? 0.0 : errSum / static_cast<double>(m_rho.size());
  clock.lap(report, "density");
  accumulateForces(p, ctx);
  clock.lap(report, "forces");
  integrate(p, ctx);
  clock.lap(report, "integrate");
}

// rho_i = sum_{j != i} (1 - r/R)^2 (unit masses); p_i = rho_i - rho0 with rho_i >= rho0
// (physics.md (5.3)-(5.4)).
template <int D>
void ToySphSolver<D>::computeDensity(const ParticleSet<D>& p) {
  const double R = kRangePx * m_pixel;
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  m_rho.resize(n);
  m_p.resize(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    double rho = 0.0;
    for (std::uint32_t j : m_neighbours[i]) rho += toyDensityWeight(glm::length(p.x[i] - p.x[j]), R);
    m_rho[i] = rho;
    const double clamped = std::max(rho, m_params.restDensity);
    m_p[i] = clamped - m_params.restDensity;
  }
}

// Demo forces in px/frame^2, converted to m/s^2 by l/tau^2, plus gravity and the
// container's fictitious accelerations (the demo's "-bottle_f"): physics.md (5.5)-(5.7).
template <int D>
void ToySphSolver<D>::accumulateForces(const ParticleSet<D>& p, const StepContext<D>& ctx) {
  const double R = kRangePx * m_pixel;
  const double toSI = m_pixel / (m_frame * m_frame);  // px/frame^2 -> m/s^2
  const double toPx = m_frame / m_pixel;              // m/s -> px/frame
  const double rho0 = m_params.restDensity;
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  m_a.resize(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    const Vec<D> xi = p.x[i], vi = p.v[i];
    const double pi = m_p[i];
    Vec<D> f(0.0);
    for (std::uint32_t j : m_neighbours[i]) {
      const Vec<D> d = xi - p.x[j];
      const double r = glm::length(d);
      const double w = toyForceWeight(r, R);
      // The pair's mean density where the demo has rho_j: an antisymmetric pair force
      // (physics.md (5.5)-(5.6); with rho_j the bottle gained energy after a shake).
      const double rhoij = 0.5 * (std::max(m_rho[i], rho0) + std::max(m_rho[j], rho0));
      if (r > 1e-9 * R) f += (w * (pi + m_p[j]) / (2.0 * rhoij) * m_params.pressure / r) * d;
      f -= (w / rhoij * m_params.viscosity * toPx) * (vi - p.v[j]);
    }
    m_a[i] = toSI * f + ctx.frame.acceleration(xi, vi);
  }
}

// v += f; x += v (per frame), then the walls push back like springs: v += k (wall - x)
// (physics.md (5.8)).
template <int D>
void ToySphSolver<D>::integrate(ParticleSet<D>& p, const StepContext<D>& ctx) {
  const double dt = ctx.dt;
  const double spring = m_params.wallStiffness * dt / (m_frame * m_frame);
  const double margin = m_params.wallMargin * m_pixel;
  const std::int64_t n = static_cast<std::int64_t>(p.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    Vec<D>& x = p.x[i];
    Vec<D>& v = p.v[i];
    v += dt * m_a[i];
    x += dt * v;
    for (int k = 0; k < D; ++k) {
      if (passesWall<D>(m_solids.opening(), k, x, m_box, margin)) continue;  // the outlet (14.3)
      if (x[k] < margin) v[k] += spring * (margin - x[k]);
      if (x[k] > m_box[k] - margin) v[k] += spring * (m_box[k] - margin - x[k]);
    }
    contain<D>(x, v, m_box, 0.0, m_solids);
  }
}

template <int D>
bool ToySphSolver<D>::field(FieldKind kind, const ParticleSet<D>& p, std::span<float> out) const {
  if (m_rho.size() != p.size()) return false;
  if (kind == FieldKind::Density) {
    for (std::size_t i = 0; i < m_rho.size(); ++i) out[i] = static_cast<float>(m_rho[i]);
    return true;
  }
  if (kind == FieldKind::Pressure) {
    for (std::size_t i = 0; i < m_p.size(); ++i) out[i] = static_cast<float>(m_p[i]);
    return true;
  }
  return false;
}

// The grid and the neighbours are rebuilt in every step; the density and pressure are
// kept for the colour fields.
template <int D>
void ToySphSolver<D>::exchangeState(StateArchive& ar, ParticleSet<D>& p) {
  ar.channel(m_rho, p.size(), "the toy density");
  ar.channel(m_p, p.size(), "the toy pressure");
}

template class ToySphSolver<2>;
template class ToySphSolver<3>;

}  // namespace sloshlab
