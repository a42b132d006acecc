#include "solvers/wcsph.h"

#include "containment.h"
#include "sph/density_error.h"
#include "sph/sums.h"
#include "io/state_archive.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace sloshlab {

// By continuity, a particle whose kernel sum reads under this share of rho0 is in the air.
constexpr double kAirborne = 0.7;

template <int D>
const ParamTable& WcsphSolver<D>::paramTable() {
  using P = WcsphParams;
  static const ParamInfo entries[] = {
      {"rest_density", "Rest density", "kg/m^3", "Fluid", SLOSHLAB_PARAM_FIELD(P, restDensity), 100.0, 3000.0,
       false, "rho0 in the Tait equation p = B((rho/rho0)^gamma - 1) and in the particle mass"},
      {"speed_of_sound", "Speed of sound", "m/s", "Pressure", SLOSHLAB_PARAM_FIELD(P, speedOfSound), 2.0, 200.0,
       true, "c: stiffness B = rho0 c^2/gamma; density error ~ (|v|/c)^2; dt <= cfl h/c"},
      {"gamma", "Tait exponent", "1", "Pressure", SLOSHLAB_PARAM_FIELD(P, gamma), 1.0, 7.0, false,
       "gamma in p = B((rho/rho0)^gamma - 1); 7 for water [BT07]"},
      {"artificial_viscosity", "Artificial viscosity", "1", "Viscosity",
       SLOSHLAB_PARAM_FIELD(P, artificialViscosity), 0.0, 1.0, false,
       "alpha in Pi_ij = -alpha c h (v_ij.x_ij)/((|x_ij|^2 + 0.01h^2) rho_ij) for approaching pairs [Mon92]"},
      {"viscosity", "Kinematic viscosity", "m^2/s", "Viscosity", SLOSHLAB_PARAM_FIELD(P, viscosity), 1e-7, 0.1,
       true, "nu in a_i += 2(d+2) nu sum_j m_j/rho_j (v_ij.x_ij)/(|x_ij|^2 + 0.01h^2) gradW_ij [Mon05]"},
      {"damping", "Settling damping", "1/s", "Viscosity", SLOSHLAB_PARAM_FIELD(P, damping), 0.0, 100.0, false,
       "zeta in a_i -= zeta v_i: removes kinetic energy, to let a scene settle to rest (0 for physics)"},
      {"cfl", "CFL number", "1", "Time step", SLOSHLAB_PARAM_FIELD(P, cfl), 0.01, 1.0, false,
       "dt = cfl h/(c + |v|max), also dt <= 0.25 sqrt(h/|a|max)"},
      {"support", "Kernel support / spacing", "1", "Kernel", SLOSHLAB_PARAM_FIELD(P, support), 1.5, 3.0, false,
       "h / spacing: the cubic spline W(r, h) vanishes for r >= h"},
      {"clamp_negative_pressure", "Clamp negative pressure", "", "Pressure",
       SLOSHLAB_PARAM_FIELD(P, clampNegativePressure), 0.0, 1.0, false,
       "p = max(p, 0): no tension at the free surface"},
      {"continuity", "Density by continuity", "", "Density", SLOSHLAB_PARAM_FIELD(P, continuity), 0.0, 1.0, false,
       "d rho_i/dt = sum_j m_j (v_i - v_j).gradW_ij (physics.md (4.7b)) instead of rho_i = sum_j m_j W_ij"},
      {"density_diffusion", "Density diffusion", "1", "Density", SLOSHLAB_PARAM_FIELD(P, densityDiffusion), 0.0,
       1.0, false,
       "delta of delta-SPH: + delta h c sum_j V_j psi_ij.gradW_ij, psi the density difference less the hydrostatic "
       "one (4.7c); with continuity"},
  };
  static const ParamTable table{"wcsph", entries};
  return table;
}

template <int D>
void WcsphSolver<D>::reset(ParticleSet<D>& p, const SolverSetup<D>& setup) {
  m_box = setup.boxSize;
  m_solids = setup.solids;
  m_spacing = setup.spacing;
  m_sph.invalidate();
  // The density and pressure the colour fields show go with the particles when the
  // neighbour lists reorder them (the rest is recomputed every step).
  p.addChannel(m_rho);
  p.addChannel(m_p);
  paramsChanged(p);
  m_maxAcceleration = 0.0;
  m_densityKnown = false;
  m_fromRest = true;
}

template <int D>
void WcsphSolver<D>::paramsChanged(ParticleSet<D>& p) {
  m_sph.update({.support = m_params.support * m_spacing,
                .restDensity = m_params.restDensity,
                .spacing = m_spacing,
                .box = m_box,
                .solids = &m_solids,
                .skinFraction = 0.1,
                .halfLists = true},
               p);
}

template <int D>
double WcsphSolver<D>::maxTimeStep(const ParticleSet<D>& p, const StepContext<D>& ctx) const {
  const double vmax = maxSpeed<D>(p.v);
  const double h = m_sph.kernel.h;
  double dt = m_params.cfl * h / (m_params.speedOfSound + vmax);
  const double a = std::max(m_maxAcceleration, ctx.frame.bound(m_box, vmax));
  if (a > 0.0) dt = std::min(dt, 0.25 * std::sqrt(h / a));
  return viscousStepLimit(dt, h, m_params.viscosity, m_params.damping);
}

template <int D>
void WcsphSolver<D>::step(ParticleSet<D>& p, const StepContext<D>& ctx, SolverReport& report) {
  PhaseClock clock;
  m_sph.hood.setBodies(ctx.bodies);
  if (ctx.bodies) ctx.bodies->restDensity = m_params.restDensity;
  m_sph.hood.update(p, {.wallToFluid = true});
  clock.lap(report, "neighbours");
  computeDensity(p);
  if (m_params.continuity && m_fromRest) hydrostaticDensity(p, ctx);
  m_fromRest = false;
  clock.lap(report, "density");
  computePressure(report);
  wallPressure(p, ctx);
  computeAccelerations(p, ctx);
  clock.lap(report, "forces");
  integrate(p, ctx);
  clock.lap(report, "integrate");
}

// rho_i = sum_j m_j W_ij, including j = i and the boundary samples (physics.md (4.7);
// [Aki12] Eq. 5).
template <int D>
void WcsphSolver<D>::computeDensity(const ParticleSet<D>& p) {
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  m_rho.resize(n);
  const double boundaryMass = m_params.restDensity * m_sph.hood.sampleVolume();
  const auto walls = m_sph.hood.samples();
  const CubicSpline<D>& kernel = m_sph.kernel;
  // The pairs closer than h (the cache: each pair once, j > i, with W_ij and gradW_ij in
  // double), summing W_ij on the way. With the single-precision cache of DFSPH and PBF
  // the settled 3D tank's fastest particle read 4.2 cm/s (float W) and 3.1 cm/s (float
  // gradW), against 2.5 cm/s before the cache and 1.9 cm/s in double
  // (test_hydrostatic.cpp's bound: 4.2).
  m_fluidSums.resize(n);
  m_pairs.buildAndSum(m_sph.hood.fluid(), p.x, kernel, 1.0, false, m_fluidSums,
                      [](std::uint32_t, std::uint32_t, const Vec<D>&, double w, DensitySums<D>& a, DensitySums<D>& b) {
                        a.weight += w, b.weight += w;
                      });
  // By continuity the density is integrated (integrate); the sum starts it, no lower than
  // rho0 (the free surface's deficient sum would pull the liquid together).
  const bool integrated = m_params.continuity && m_densityKnown && m_rho.size() == static_cast<std::size_t>(n);
  if (integrated) {
    // A particle a faucet just added (zero) starts at rho0, and so does one whose kernel
    // sum reads under 0.7 rho0: a drop or a thin sheet in the air, whose integrated
    // density (from where it left the liquid) it would otherwise land with.
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) {
      double& rho = m_rho[i];
      if (rho == 0.0) rho = m_params.restDensity;
      const double fluid = m_sph.mass * (kernel.W0() + m_fluidSums[i].weight);
      if (fluid < kAirborne * m_params.restDensity) {
        const double wall = weightedKernelSum<D>(m_sph.hood.boundary()[i], p.x[i], walls, kernel, 1.0, 0.0);
        if (fluid + boundaryMass * wall < kAirborne * m_params.restDensity) rho = m_params.restDensity;
      }
    }
    return;
  }
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    const double wall = weightedKernelSum<D>(m_sph.hood.boundary()[i], p.x[i], walls, kernel, 1.0, 0.0);
    m_rho[i] = m_sph.mass * (kernel.W0() + m_fluidSums[i].weight) + boundaryMass * wall;
    if (m_params.continuity) m_rho[i] = std::max(m_rho[i], m_params.restDensity);
  }
  m_densityKnown = m_params.continuity;
}

// By continuity a run starts from the hydrostatic density (physics.md (4.7d)): each
// particle's depth d below the top of its column (one spacing wide, across the frame's
// acceleration g; the surface half a spacing above the top particle) and the Tait
// density of p = rho0 |g| d. From the lattice's rho0 the liquid would first fall and ring
// (its column sinks by g H^2 / (2 c^2)), which no viscosity would be there to calm.
template <int D>
void WcsphSolver<D>::hydrostaticDensity(const ParticleSet<D>& p, const StepContext<D>& ctx) {
  const std::size_t n = p.size();
  if (n == 0) return;
  Vec<D> centre(0.0);
  for (const Vec<D>& x : p.x) centre += x;
  centre /= static_cast<double>(n);
  const Vec<D> g = ctx.frame.acceleration(centre, Vec<D>(0.0));
  const double gLength = glm::length(g);
  if (!(gLength > 0.0)) return;
  const Vec<D> down = g / gLength;
  // Axes across g: in 2D the perpendicular; in 3D two.
  Vec<D> across[2];
  if constexpr (D == 2) {
    across[0] = Vec<D>(-down.y, down.x);
  } else {
    perpendicularAxes(down, across[0], across[1]);
  }
  auto column = [&](const Vec<D>& x) {
    std::int64_t key = 0;
    for (int k = 0; k < D - 1; ++k)
      key = key * 2000003 + static_cast<std::int64_t>(std::floor(glm::dot(x, across[k]) / m_spacing)) + 1000000;
    return key;
  };
  std::unordered_map<std::int64_t, double> top;  // the smallest x.down of each column
  for (const Vec<D>& x : p.x) {
    const auto [it, fresh] = top.try_emplace(column(x), glm::dot(x, down));
    if (!fresh) it->second = std::min(it->second, glm::dot(x, down));
  }
  const double rho0 = m_params.restDensity;
  const double B = rho0 * m_params.speedOfSound * m_params.speedOfSound / m_params.gamma;
  for (std::size_t i = 0; i < n; ++i) {
    const double depth = glm::dot(p.x[i], down) - top[column(p.x[i])] + 0.5 * m_spacing;
    m_rho[i] = rho0 * std::pow(1.0 + rho0 * gLength * depth / B, 1.0 / m_params.gamma);
  }
}

// The continuity equation (physics.md (4.7b)) with the walls' samples at rest in the
// container's frame, and delta-SPH's diffusion (4.7c) (Molteni & Colagrossi 2009) of the
// density less its hydrostatic part (Fourtakas et al. 2019), so that a tank at rest
// keeps its hydrostatic density:
//   d rho_i/dt = sum_j m_j (v_i - v_j).gradW_ij + sum_b m_b (v_i - v_b).gradW_ib
//              + delta h c sum_j (m_j/rho_j) psi_ij.gradW_ij,
//   psi_ij = 2 ((rho_j - rho_i) - (rho_j - rho_i)_H) (x_j - x_i)/|x_ij|^2,
//   (rho_j - rho_i)_H = rho0 g.(x_j - x_i)/c^2, g the frame's acceleration (gravity),
// taken at the box's centre,
// h the smoothing length of the literature, half the kernel's support here.
template <int D>
void WcsphSolver<D>::densityRate(const ParticleSet<D>& p, const StepContext<D>& ctx) {
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  const double rho0 = m_params.restDensity, c = m_params.speedOfSound;
  const double diffusion = m_params.densityDiffusion * m_sph.kernel.h * c;  // 2 delta h_s c, h_s = h / 2
  const double boundaryMass = m_params.restDensity * m_sph.hood.sampleVolume();
  const double mass = m_sph.mass;
  const auto walls = m_sph.hood.samples();
  const double h2 = m_sph.kernel.h * m_sph.kernel.h, eps = 0.01 * h2;
  // g at the box's centre: the frame's terms vary across the box, but they only correct
  // the diffusion, which acts over a kernel's width.
  const Vec<D> hydrostaticSlope = (rho0 / (c * c)) * ctx.frame.acceleration(0.5 * m_box, Vec<D>(0.0));
  m_rhoRate.assign(n, 0.0);
  m_pairs.sum(m_rhoRate, [&](std::uint32_t i, std::uint32_t j, const Vec<D>& gradW, double, double& toI, double& toJ) {
    const double flow = mass * glm::dot(p.v[i] - p.v[j], gradW);  // the same for both
    const Vec<D> xji = p.x[j] - p.x[i];
    const double psi = (m_rho[j] - m_rho[i] - glm::dot(hydrostaticSlope, xji)) / (lengthSquared<D>(xji) + eps);
    const double diffuse = diffusion * psi * glm::dot(xji, gradW);  // psi_ij.gradW_ij without the volume
    toI += flow + diffuse * mass / m_rho[j];
    toJ += flow - diffuse * mass / m_rho[i];
  });
  // A body's samples move with it (ctx.bodies->v); the container's and the obstacles'
  // stand still.
  const std::size_t firstBody = m_sph.hood.firstBodySample();
  const BodySamples<D>* bodies = ctx.bodies;
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    const Vec<D> xi = p.x[i], vi = p.v[i];
    double wall = 0.0;
    forNeighboursWithin<D>(m_sph.hood.boundary()[i], xi, walls, h2, [&](std::uint32_t b, const Vec<D>& r, double r2) {
      const Vec<D> vb = bodies && b >= firstBody ? bodies->v[m_sph.hood.bodySample(b)] : Vec<D>(0.0);
      wall += glm::dot(vi - vb, r) * m_sph.kernel.gradFactorInside(r2);
    });
    m_rhoRate[i] += boundaryMass * wall;
  }
}

// x^gamma of the Tait equation: by multiplication for the default gamma = 7 (std::pow
// cost a tenth of the 2D bottle's step).
inline double taitPower(double x, double gamma) {
  if (gamma != 7.0) return std::pow(x, gamma);
  const double x2 = x * x, x4 = x2 * x2;
  return x * x2 * x4;
}

// Tait equation of state p = B((rho/rho0)^gamma - 1), B = rho0 c^2/gamma [BT07] Eq. (7),
// physics.md (4.8).
template <int D>
void WcsphSolver<D>::computePressure(SolverReport& report) {
  const double rho0 = m_params.restDensity;
  const double B = rho0 * m_params.speedOfSound * m_params.speedOfSound / m_params.gamma;
  const std::int64_t n = static_cast<std::int64_t>(m_rho.size());
  m_p.resize(n);
  m_pTerm.resize(n);
  m_invRho.resize(n);
  m_compression.resize(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    double p = B * (taitPower(m_rho[i] / rho0, m_params.gamma) - 1.0);
    if (m_params.clampNegativePressure) p = std::max(p, 0.0);
    m_p[i] = p;
    m_invRho[i] = 1.0 / m_rho[i];
    m_pTerm[i] = p * m_invRho[i] * m_invRho[i];
    m_compression[i] = std::max(m_rho[i] - rho0, 0.0) / rho0;
  }
  reportDensityError(compressionError(m_compression), report);
}

// Wall pressure extrapolated from the fluid, [Ada12] Eq. (27), physics.md (4.10)-(4.11):
//   p_b = (sum_f p_f W_bf + (g_b . sum_f rho_f (x_b - x_f) W_bf)) / sum_f W_bf
// with g_b the body acceleration at the sample (gravity and the frame's terms), and
// rho_b from the inverse Tait equation.
template <int D>
void WcsphSolver<D>::wallPressure(const ParticleSet<D>& p, const StepContext<D>& ctx) {
  const auto walls = m_sph.hood.samples();
  const std::int64_t nb = static_cast<std::int64_t>(walls.size());
  const double rho0 = m_params.restDensity;
  const double B = rho0 * m_params.speedOfSound * m_params.speedOfSound / m_params.gamma;
  const double h2 = m_sph.kernel.h * m_sph.kernel.h;
  m_wallP.resize(nb);
  m_wallRho.resize(nb);
#pragma omp parallel for schedule(static)
  for (std::int64_t b = 0; b < nb; ++b) {
    const Vec<D> xb = walls[b];
    double sumW = 0.0, sumP = 0.0;
    Vec<D> sumRhoR(0.0);
    forNeighboursWithin<D>(m_sph.hood.wallFluid()[b], xb, p.x, h2, [&](std::uint32_t f, const Vec<D>& r, double r2) {
      const double W = m_sph.kernel.W(std::sqrt(r2));
      sumW += W;
      sumP += m_p[f] * W;
      sumRhoR += (m_rho[f] * W) * r;
    });
    double pb = 0.0;
    if (sumW > 0.0) pb = std::max(0.0, (sumP + glm::dot(ctx.frame.acceleration(xb, Vec<D>(0.0)), sumRhoR)) / sumW);
    m_wallP[b] = pb;
    m_wallRho[b] = pb > 0.0 ? rho0 * std::pow(pb / B + 1.0, 1.0 / m_params.gamma) : rho0;
  }
}

template <int D>
void WcsphSolver<D>::computeAccelerations(const ParticleSet<D>& p, const StepContext<D>& ctx) {
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  m_a.resize(n);
  const double h = m_sph.kernel.h;
  const double eps = 0.01 * h * h;
  const double laminar = 2.0 * (D + 2) * m_params.viscosity;
  const double artificial = m_params.artificialViscosity * m_params.speedOfSound * h;
  const double boundaryMass = m_params.restDensity * m_sph.hood.sampleVolume();
  const auto walls = m_sph.hood.samples();
  const double h2 = h * h;
  // Each fluid pair once, its term handed to both (gradW_ji = -gradW_ij):
  // the symmetric pressure force, physics.md (4.9), -(p_i/rho_i^2 + p_j/rho_j^2) gradW_ij,
  // and the viscosity (4.13): laminar [Mon05] Eq. (6.7), whose 1/rho is the other
  // particle's, plus Monaghan's artificial term [Mon92] on approaching pairs.
  m_fluidForce.resize(n);
  m_pairs.sum(m_fluidForce, [&](std::uint32_t i, std::uint32_t j, const Vec<D>& g, double, Vec<D>& toI, Vec<D>& toJ) {
    const Vec<D> r = p.x[i] - p.x[j];
    const double r2 = lengthSquared<D>(r);
    const double vr = glm::dot(p.v[i] - p.v[j], r);
    const double approaching = vr < 0.0 ? artificial * 2.0 / (m_rho[i] + m_rho[j]) : 0.0;
    const double pressure = -(m_pTerm[i] + m_pTerm[j]);
    const double shared = viscosityTerm(1.0, vr, r2, eps);
    toI += (pressure + (laminar * m_invRho[j] + approaching) * shared) * g;
    toJ -= (pressure + (laminar * m_invRho[i] + approaching) * shared) * g;
  });
  double aMax2 = 0.0;
#pragma omp parallel for schedule(static) reduction(max : aMax2)
  for (std::int64_t i = 0; i < n; ++i) {
    const Vec<D> xi = p.x[i], vi = p.v[i];
    const double pi = m_pTerm[i];
    Vec<D> a = m_sph.mass * m_fluidForce[i];
    // Boundary samples as fluid with the extrapolated wall pressure [Ada12] Eq. (22).
    forNeighboursWithin<D>(m_sph.hood.boundary()[i], xi, walls, h2, [&](std::uint32_t b, const Vec<D>& r, double r2) {
      const double rhob = m_wallRho[b];
      a -= (boundaryMass * (pi + m_wallP[b] / (rhob * rhob)) * m_sph.kernel.gradFactorInside(r2)) * r;
    });
    aMax2 = std::max(aMax2, lengthSquared<D>(a));
    m_a[i] = a + ctx.frame.acceleration(xi, vi) - m_params.damping * vi;
  }
  m_maxAcceleration = std::sqrt(aMax2);
  if (ctx.bodies) bodyImpulses(p, ctx, boundaryMass);
}

// Each body sample's push on the liquid in computeAccelerations, taken back by the body
// over the step (physics.md (16.12)): +m_i dt m_b (p_i/rho_i^2 + p_b/rho_b^2) gradW_ib.
// One particle after another, in order: the same sums for any thread count.
template <int D>
void WcsphSolver<D>::bodyImpulses(const ParticleSet<D>& p, const StepContext<D>& ctx, double boundaryMass) {
  const auto samples = m_sph.hood.samples();
  const std::size_t first = m_sph.hood.firstBodySample();
  const double h2 = m_sph.kernel.h * m_sph.kernel.h;
  for (std::size_t i = 0; i < p.size(); ++i)
    for (std::uint32_t b : m_sph.hood.boundary()[i]) {
      if (b < first) continue;
      const Vec<D> r = p.x[i] - samples[b];
      const double r2 = lengthSquared<D>(r);
      if (r2 >= h2) continue;
      const double rhob = m_wallRho[b];
      const double push = boundaryMass * (m_pTerm[i] + m_wallP[b] / (rhob * rhob)) * m_sph.kernel.gradFactorInside(r2);
      ctx.bodies->impulse[m_sph.hood.bodySample(b)] += (p.m[i] * ctx.dt * push) * r;
    }
}

// Symplectic Euler: v += dt a; x += dt v; then the walls keep every particle inside
// (physics.md (4.15), (2.5)).
template <int D>
void WcsphSolver<D>::integrate(ParticleSet<D>& p, const StepContext<D>& ctx) {
  integrateAndContain<D>(p, ctx.dt, m_a, m_box, 0.0, m_solids);
  // The density moves with the positions: its rate from the new velocities (symplectic;
  // from the old ones the tank at rest gained energy until the watchdog stopped it).
  if (m_params.continuity) {
    densityRate(p, ctx);
    // No lower than rho0: the liquid holds no tension (p >= 0), and a splash that spreads
    // would otherwise keep a deficit that lets it fall through the liquid it lands on.
    for (std::size_t i = 0; i < m_rho.size(); ++i)
      m_rho[i] = std::max(m_rho[i] + ctx.dt * m_rhoRate[i], m_params.restDensity);
  }
}

template <int D>
bool WcsphSolver<D>::field(FieldKind kind, const ParticleSet<D>& p, std::span<float> out) const {
  const std::span<const double> source = kind == FieldKind::Density    ? std::span<const double>(m_rho)
                                         : kind == FieldKind::Pressure ? std::span<const double>(m_p)
                                                                       : std::span<const double>();
  if (source.size() != p.size()) return false;
  for (std::size_t i = 0; i < source.size(); ++i) out[i] = static_cast<float>(source[i]);
  return true;
}

// The lists' reference positions, the acceleration bound of the next time step, and the
// density and pressure the colour fields show.
template <int D>
void WcsphSolver<D>::exchangeState(StateArchive& ar, ParticleSet<D>& p) {
  m_sph.hood.exchangeState(ar, p.size());
  ar.value(m_maxAcceleration, "the largest acceleration of the last step");
  ar.channel(m_rho, p.size(), "the density");
  ar.channel(m_p, p.size(), "the pressure");
  if (ar.loading()) m_densityKnown = m_params.continuity, m_fromRest = false;  // the density goes on
}

template class WcsphSolver<2>;
template class WcsphSolver<3>;

}  // namespace sloshlab
