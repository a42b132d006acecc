// Divergence-free SPH (dfsph.h).
//
// Contents
//   parameters            the table
//   set-up and dt         reset, paramsChanged, maxTimeStep (9.5)
//   the step              step: the phases in [BK17] Algorithm 1's order
//   density and factor    rho~ (6.1), 1/a_i (6.4), the walls' weights and kappa_b (6.5)
//   the solves            predictError (6.6), applyKappa (6.3), startWarm (6.9), sweeps
//                         (6.7)-(6.8), divergenceSolve, densityWarmStart, forcesAndWarmPush
//                         (6.10), densitySolve, integrate (2.5)
//   fields and state      pressure (6.11), vorticity, exchangeState
#include "solvers/dfsph.h"

#include "containment.h"
#include "io/state_archive.h"

#include <algorithm>
#include <cmath>

namespace sloshlab {

template <int D>
const ParamTable& DfsphSolver<D>::paramTable() {
  using P = DfsphParams;
  static const ParamInfo entries[] = {
      {"rest_density", "Rest density", "kg/m^3", "Fluid", SLOSHLAB_PARAM_FIELD(P, restDensity), 100.0, 3000.0,
       false, "rho0: the density the solver holds, rho_i = rho0 (mean error <= eta); particle mass m = rho0 V"},
      {"max_density_error", "Max density error", "%", "Pressure solver",
       SLOSHLAB_PARAM_FIELD(P, maxDensityError), 0.01, 5.0, true,
       "eta: the density solver iterates until mean(max(rho*_i/rho0 - 1, 0)) <= 0.95 eta [BK17] Alg. 3, so that "
       "the density measured at the next step is within eta"},
      {"max_divergence_error", "Max divergence error", "%", "Pressure solver",
       SLOSHLAB_PARAM_FIELD(P, maxDivergenceError), 0.01, 10.0, true,
       "eta_v: the divergence solver iterates until mean(max(dt D rho~_i/Dt + min(rho~_i - 1, 0), 0)) <= eta_v "
       "[BK17] Alg. 2 (expanded liquid may compress back to rho0)"},
      {"min_iterations", "Min density iterations", "1", "Pressure solver", SLOSHLAB_PARAM_FIELD(P, minIterations),
       0, 10, false, "the density solver runs at least this many Jacobi sweeps kappa_i += e_i/(dt^2 a_i)"},
      {"max_iterations", "Max density iterations", "1", "Pressure solver", SLOSHLAB_PARAM_FIELD(P, maxIterations),
       1, 1000, true, "upper bound on density solver sweeps per step"},
      {"max_divergence_iterations", "Max divergence iterations", "1", "Pressure solver",
       SLOSHLAB_PARAM_FIELD(P, maxDivergenceIterations), 0, 1000, false,
       "upper bound on divergence solver sweeps per step (0 switches the solve off)"},
      {"cfl", "CFL number", "1", "Time step", SLOSHLAB_PARAM_FIELD(P, cfl), 0.05, 1.0, false,
       "dt <= cfl d / |v|max, d the particle spacing [BK17] Sec. 5"},
      {"acceleration_step", "Acceleration step factor", "1", "Time step",
       SLOSHLAB_PARAM_FIELD(P, accelerationStep), 0.05, 1.0, false,
       "c_a in dt <= c_a sqrt(d / |a|max): one step of gravity and the frame's pull moves a particle at rest "
       "c_a^2 d"},
      {"max_time_step", "Max time step", "s", "Time step", SLOSHLAB_PARAM_FIELD(P, maxTimeStep), 1e-4, 1.0 / 60.0,
       true, "upper bound on dt"},
      {"viscosity", "Kinematic viscosity", "m^2/s", "Viscosity", SLOSHLAB_PARAM_FIELD(P, viscosity), 0.0, 0.1,
       false, "nu in a_i += 2(d+2) nu sum_j V (v_ij.x_ij)/(|x_ij|^2 + 0.01h^2) gradW_ij [Mon05]"},
      {"support", "Kernel support / spacing", "1", "Kernel", SLOSHLAB_PARAM_FIELD(P, support), 1.5, 3.0, false,
       "h / spacing: the cubic spline W(r, h) vanishes for r >= h"},
      {"chebyshev", "Chebyshev rho (density)", "1", "Pressure solver", SLOSHLAB_PARAM_FIELD(P, chebyshev), 0.0, 0.9,
       false,
       "rho in w_{k+1} = 4/(4 - rho^2 w_k), the density sweeps' increments w_k d_k + (w_k - 1) dk_{k-1} "
       "[Wang15] (0: plain Jacobi)"},
      {"warm_start", "Warm start (density)", "1", "Pressure solver", SLOSHLAB_PARAM_FIELD(P, warmStart), 0.0, 1.0,
       false, "the density solve starts from kappa = w kappa_last (fewer sweeps) [BK17] Sec. 4.3"},
      {"warm_start_divergence", "Warm start (divergence)", "1", "Pressure solver",
       SLOSHLAB_PARAM_FIELD(P, warmStartDivergence), 0.0, 1.0, false,
       "the divergence solve starts from kappa_v = w kappa_v,last [BK17] Sec. 4.3; above 0 a splash against a wall "
       "gains energy (0 by default)"},
      {"extrapolated_walls", "Extrapolated wall pressure", "", "Walls", SLOSHLAB_PARAM_FIELD(P, extrapolatedWalls), 0.0,
       1.0, false,
       "kappa_b = sum_f w_bf kappa_f + a_b.(x_b - x_f) [Ada12] Eq. 27; off: Akinci's one-sided kappa_i B_i [Aki12]"},
      {"xsph", "XSPH viscosity", "1", "Viscosity", SLOSHLAB_PARAM_FIELD(P, xsph), 0.0, 0.5, false,
       "c in v_i += c sum_j V (v_j - v_i) W_ij [MM13] Eq. 17: damps particle-scale noise"},
      {"damping", "Settling damping", "1/s", "Viscosity", SLOSHLAB_PARAM_FIELD(P, damping), 0.0, 100.0, false,
       "zeta in a_i -= zeta v_i: removes kinetic energy, to let a scene settle to rest (0 for physics)"},
      {"divergence_solve", "Divergence-free solve", "", "Pressure solver",
       SLOSHLAB_PARAM_FIELD(P, divergenceSolve), 0.0, 1.0, false,
       "make D rho/Dt = 0 (div v = 0) each step, not only rho = rho0 [BK17] Alg. 2"},
  };
  static const ParamTable table{"dfsph", entries};
  return table;
}

template <int D>
void DfsphSolver<D>::reset(ParticleSet<D>& p, const SolverSetup<D>& setup) {
  m_box = setup.boxSize;
  m_solids = setup.solids;
  m_spacing = setup.spacing;
  m_sph.invalidate();
  m_kappa.assign(p.size(), 0.0);
  m_kappaV.assign(p.size(), 0.0);
  // The two solves' warm starts and the density ratio the colour fields show go with the
  // particles when the neighbour lists reorder them (the rest is recomputed every step).
  for (std::vector<double>* channel : {&m_kappa, &m_kappaV, &m_rho}) p.addChannel(*channel);
  paramsChanged(p);
}

template <int D>
void DfsphSolver<D>::paramsChanged(ParticleSet<D>& p) {
  m_sph.update({.support = m_params.support * m_spacing,
                .restDensity = m_params.restDensity,
                .spacing = m_spacing,
                .box = m_box,
                .solids = &m_solids,
                .skinFraction = 0.15,
                .adaptiveSkin = true,
                .halfLists = true},
               p);
  m_kappa.assign(p.size(), 0.0);
  m_kappaV.assign(p.size(), 0.0);
}

// [BK17] Sec. 5 (physics.md (9.5)): a CFL condition on the particle spacing, dt <= cfl d / |v|max. A fluid
// at rest needs a bound of its own: the acceleration bound dt <= c_a sqrt(d / |a|max)
// keeps what one step of gravity (and the frame's pull) does to a particle at rest,
// |a| dt^2 = c_a^2 d, to 1 % of a spacing. With the CFL number there (0.4, 16 % of a
// spacing) a 2D tank at 5 mm spacing ran at the 5 ms cap and its floor row rocked
// sideways at up to 0.5 m/s, flipping direction every step or two. At c_a = 0.1
// (2.3 ms there) the tank's interior is within 0.2 % of rho0 and its pressure within
// 3 % of rho g d; the density solve needs 10 sweeps a step instead of 26, so a second
// of a tank at rest costs about the same number of sweeps.
template <int D>
double DfsphSolver<D>::maxTimeStep(const ParticleSet<D>& p, const StepContext<D>& ctx) const {
  const double vmax = maxSpeed<D>(p.v);
  const double d = m_spacing;
  const double a = std::max(ctx.frame.bound(m_box, vmax), 1e-9);
  double dt = std::min({m_params.cfl * d / std::max(vmax, 1e-9), m_params.accelerationStep * std::sqrt(d / a),
                        m_params.maxTimeStep});
  dt = viscousStepLimit(dt, m_sph.kernel.h, m_params.viscosity, m_params.damping);
  m_nominalDt = dt;
  return dt;
}

template <int D>
void DfsphSolver<D>::step(ParticleSet<D>& p, const StepContext<D>& ctx, SolverReport& report) {
  PhaseClock clock;
  if (m_kappa.size() != p.size()) m_kappa.assign(p.size(), 0.0), m_kappaV.assign(p.size(), 0.0);
  m_bodies = ctx.bodies;
  m_sph.hood.setBodies(m_bodies);
  if (m_bodies) m_bodies->restDensity = m_params.restDensity;
  m_sph.hood.update(p, {.wallToFluid = false});
  clock.lap(report, "neighbours");
  densityAndFactor(p, ctx);
  clock.lap(report, "density");
  const bool divergenceSolved = divergenceSolve(p, ctx, report);
  clock.lap(report, "divergence");
  // The density solve's warm start rides on the forces' pass over the pairs when the
  // divergence solve has just predicted where the fluid is about to compress.
  const WarmStart warm = divergenceSolved ? densityWarmStart(p, ctx.dt) : WarmStart{};
  forcesAndWarmPush(p, ctx, warm);
  clock.lap(report, "forces");
  densitySolve(p, ctx, report, warm.started);
  clock.lap(report, "pressure");
  integrate(p, ctx.dt);
  clock.lap(report, "integrate");
  m_lastDt = ctx.dt;
}

// rho~_i = sum_j V W_ij + sum_b V_b W_ib ([Aki12] Eq. 5 over rho0; physics.md (6.1)), the gradient sums G_i
// and B_i, and the DFSPH factor 1/a_i ([BK17] Eq. 11, with the walls of the header; physics.md (6.4)).
template <int D>
void DfsphSolver<D>::densityAndFactor(const ParticleSet<D>& p, const StepContext<D>& ctx) {
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  const auto walls = m_sph.hood.samples();
  const double V = m_sph.volume, Vb = m_sph.hood.sampleVolume();
  const bool exact = m_sph.hood.skin() == 0.0;
  m_wallPairs.build(m_sph.hood.boundary(), p.x, walls, m_sph.kernel, Vb, exact);
  if (m_params.extrapolatedWalls) wallWeights(p, ctx);
  m_rho.resize(n);
  m_factor.resize(n);
  m_wallGrad.resize(n);
  buildWithDensitySums<D>(m_pairs, m_sph.hood.fluid(), p.x, m_sph.kernel, V, exact, m_fluidSums);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    const double fluidW = m_sph.kernel.W0() + m_fluidSums[i].weight;
    const Vec<D> G = m_fluidSums[i].grad;
    const double sumSquares = m_fluidSums[i].squares;
    const WallSums<D> wall = wallSums<D>(m_wallPairs, i);
    const Vec<D> B = wall.grad;
    m_rho[i] = V * fluidW + Vb * wall.weight;
    m_wallGrad[i] = B;
    // With extrapolated walls kappa_i also raises the samples' kappa_b by w_bi kappa_i.
    const Vec<D> own = m_params.extrapolatedWalls ? B + m_wallOwn[i] : B;
    const double a = std::max(glm::dot(G + own, G + B) + sumSquares, sumSquares);
    m_factor[i] = a > 1e-6 / (m_spacing * m_spacing) ? 1.0 / a : 0.0;
  }
  if (!m_bodies) return;
  // The bodies' samples move: D rho~_i/Dt loses sum_b V_b v_b . gradW_ib (physics.md (16.13)).
  m_wallMotion.resize(n);
  const std::size_t first = m_sph.hood.firstBodySample();
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    double motion = 0.0;
    const auto samples = m_wallPairs.neighbours(i);
    const auto grads = m_wallPairs.gradients(i);
    for (std::size_t k = 0; k < samples.size(); ++k)
      if (samples[k] >= first) motion += glm::dot(m_bodies->v[m_sph.hood.bodySample(samples[k])], Vec<D>(grads[k]));
    m_wallMotion[i] = motion;
  }
}

// Extrapolated wall stiffness ([Ada12] Eq. 27 in kappa units, kappa ~ p/rho0; physics.md (6.5)):
//     kappa_b = sum_f w_bf kappa_f + a_b . sum_f (x_b - x_f) W_bf / sum_f W_bf,
// w_bf = W_bf / sum_f W_bf, a_b the body acceleration (gravity and the frame's
// terms), clamped at 0. Samples then push like fluid: sum_b V_b (kappa_i + kappa_b) gradW_ib.
// This prepares the extrapolation (sph/walls.h: the samples' fluid neighbours, their
// weights and the hydrostatic term) and for each particle the push its own kappa gives
// through the samples.
template <int D>
void DfsphSolver<D>::wallWeights(const ParticleSet<D>& p, const StepContext<D>& ctx) {
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  m_walls.build(m_wallPairs, p.x, m_sph.hood.samples(), ctx.frame);
  m_wallOwn.resize(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    Vec<D> own(0.0);
    const auto samples = m_wallPairs.neighbours(i);
    const auto grads = m_wallPairs.gradients(i);
    const auto weights = m_wallPairs.weights(i);
    for (std::size_t k = 0; k < samples.size(); ++k)
      if (m_walls.sumW(samples[k]) > 0.0) own += (weights[k] / m_walls.sumW(samples[k])) * Vec<D>(grads[k]);
    m_wallOwn[i] = own;
  }
}

// kappa_b from the particles' applied kappa (see wallWeights); m_wallDKappa takes the change.
template <int D>
void DfsphSolver<D>::updateWallKappa(std::span<const double> kappaApplied, bool hydrostatic) {
  m_wallDKappa.resize(m_sph.hood.sampleCount(), 0.0);
  m_walls.extrapolate(kappaApplied, hydrostatic, [this](std::uint32_t b, double kappa) {
    m_wallDKappa[b] = kappa - m_wallKappa[b];
    m_wallKappa[b] = kappa;
  });
}

// Predicted error from the current velocities (physics.md (6.6)). Divergence: e_i = dt D rho~_i/Dt +
// min(rho~_i - 1, 0) (divergence solver, [BK17] Eq. 9, see below); otherwise
// e_i = rho~_i + dt D rho~_i/Dt - 1 (density solver, Eq. 12), with
// D rho~_i/Dt = sum_j V (v_i - v_j).gradW_ij + v_i.B_i (walls at rest in the container frame).
template <int D>
void DfsphSolver<D>::predictError(const ParticleSet<D>& p, double dt, Solve solve) {
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  const bool rate = solve == Solve::Divergence;
  // The density error the particles already have is removed over the CFL step, not
  // over dt: a step cut short (to land on an output time) would otherwise remove it in
  // a microsecond, at a velocity of e d/dt, and fling particles off. An error larger
  // than kMaxCorrection (a particle thrown against a wall by a violent shake) is
  // likewise removed by at most that much per step.
  const double existingShare = existingErrorShare(dt);
  // (v_i - v_j).gradW_ij is the same seen from j: (v_j - v_i).gradW_ji.
  m_pairDivergence.resize(n);
  m_pairs.sum(m_pairDivergence,
              [&v = p.v](std::uint32_t i, std::uint32_t j, const auto& g, float, double& a, double& b) {
                const double d = glm::dot(v[i] - v[j], Vec<D>(g));
                a += d, b += d;
              });
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    const double divergence =
        m_pairDivergence[i] + glm::dot(p.v[i], m_wallGrad[i]) - (m_bodies ? m_wallMotion[i] : 0.0);
    // The divergence solve lets expanded fluid (rho~ < 1) compress back to rho0: it
    // removes only compression beyond it. Holding D rho/Dt <= 0 everywhere froze liquid
    // that had expanded: a 2D tank stepped at c_a = 0.1 settled 2.4 % below rho0 inside,
    // its pressure 18 % off rho g d (now 0.2 % and 2.7 %).
    m_error[i] = rate ? dt * divergence + std::min(m_rho[i] - 1.0, 0.0)
                      : existingShare * std::min(m_rho[i] - 1.0, kMaxCorrection) + dt * divergence;
    m_positive[i] = std::max(m_error[i], 0.0);
  }
}

// dv_i = -dt [sum_j V (dk_i + dk_j) gradW_ij + dk_i B_i + sum_b V_b dk_b gradW_ib] (header; physics.md (6.3)).
// Push::WallsOnly: every dk_i is 0 (only the walls push), and the pass over the pairs
// is skipped.
template <int D>
void DfsphSolver<D>::applyKappa(ParticleSet<D>& p, double dt, std::span<const double> dKappa, Push push) {
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  m_pairPush.resize(n);
  if (push == Push::FluidAndWalls) addPairPush(dKappa, 1.0);
  else std::fill(m_pairPush.begin(), m_pairPush.end(), Vec<D>(0.0));
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) p.v[i] -= dt * (m_pairPush[i] + wallPush(i, dKappa[i]));
}

// m_pairPush = scale sum_j V (dk_i + dk_j) gradW_ij, which pushes j the opposite way
// (gradW_ji = -gradW_ij).
template <int D>
void DfsphSolver<D>::addPairPush(std::span<const double> dKappa, double scale) {
  m_pairs.sum(m_pairPush,
              [dKappa, scale](std::uint32_t i, std::uint32_t j, const auto& g, float, Vec<D>& a, Vec<D>& b) {
                const Vec<D> push = (scale * (dKappa[i] + dKappa[j])) * Vec<D>(g);
                a += push, b -= push;
              });
}

// The walls' part of the push on particle i: dk_i B_i + sum_b V_b dk_b gradW_ib.
template <int D>
Vec<D> DfsphSolver<D>::wallPush(std::int64_t i, double dKappa) const {
  Vec<D> push = dKappa * m_wallGrad[i];
  if (m_params.extrapolatedWalls) {
    const auto samples = m_wallPairs.neighbours(i);
    const auto grads = m_wallPairs.gradients(i);
    for (std::size_t k = 0; k < samples.size(); ++k) push += m_wallDKappa[samples[k]] * Vec<D>(grads[k]);
  }
  return push;
}

// Warm start [BK17] Sec. 4.3, physics.md (6.9): a fraction w of the last step's stiffness; the
// fraction lets a stiffness that was too large decay, since sweeps only ever add.
// The density solve starts warm only where the fluid is about to compress: a
// leftover push on a particle that has since left a wall or a splash (sweeps cannot
// take it back) flung dam-break particles off at 20 m/s. The divergence solve, when
// warm_start_divergence > 0, starts warm everywhere; by default it starts cold, since a
// reused push on particles already separating adds energy (docs/decisions/dfsph.md, Energy).
// The density solve's kappa grows as 1/dt on a step cut short to land on an output
// time (it removes the share dt/dt_cfl of the existing error in dt): reused as it is,
// it pushed the next full step far too hard (the 2D dam break ran 9 % fast), so it
// is scaled back to the full step it stands for.
//
// Where the density solve will compress: its error predicted from the velocities after
// the forces, or, with WarmErrors::FromDivergenceSolve, from the divergence solve's last
// prediction, e = s min(rho~ - 1, c) + dt D rho~/Dt (see predictError), which differs
// only by the forces' change of D rho~/Dt (none from gravity or a uniform frame
// acceleration). That saves a pass over the pairs, and the warm push then rides on the
// forces' pass (forcesAndWarmPush).
//
// Sets kappa, m_dKappa (the push to apply) and m_applied; kappa_b with the walls.
template <int D>
typename DfsphSolver<D>::WarmStart DfsphSolver<D>::startWarm(const ParticleSet<D>& p, double dt, Solve solve,
                                                             std::vector<double>& kappa, WarmErrors errors) {
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  const bool rate = solve == Solve::Divergence;
  m_error.resize(n);
  m_positive.resize(n);
  m_dKappa.resize(n);
  m_applied.resize(n);
  // The divergence solver stores kappa times dt (an impulse, independent of dt; see
  // the header); the increment e_i/(dt^2 a_i) is the same for both solvers because the
  // divergence error e_i already carries the factor dt.
  const double storedPerApplied = rate ? dt : 1.0;
  const double warm = rate ? m_params.warmStartDivergence : m_params.warmStart * m_kappaStepShare;
  const bool onlyCompressed = !rate;
  if (warm > 0.0 && onlyCompressed) {
    if (errors == WarmErrors::FromDivergenceSolve) {
      const double existingShare = existingErrorShare(dt);
#pragma omp parallel for schedule(static)
      for (std::int64_t i = 0; i < n; ++i) {
        const double rateError = m_error[i] - std::min(m_rho[i] - 1.0, 0.0);  // dt D rho~/Dt
        m_error[i] = existingShare * std::min(m_rho[i] - 1.0, kMaxCorrection) + rateError;
      }
    } else {
      predictError(p, dt, solve);
    }
  }
  bool fluid = false;
#pragma omp parallel for schedule(static) reduction(|| : fluid)
  for (std::int64_t i = 0; i < n; ++i) {
    const bool warmHere = (!onlyCompressed || m_error[i] > 0.0) && m_rho[i] >= kWarmStartMinDensity;
    kappa[i] = warm > 0.0 && warmHere ? warm * kappa[i] : 0.0;
    m_dKappa[i] = m_applied[i] = kappa[i] / storedPerApplied;
    fluid = fluid || kappa[i] != 0.0;
  }
  const bool walls = m_params.extrapolatedWalls;
  if (walls) {
    m_wallKappa.assign(m_sph.hood.sampleCount(), 0.0);
    m_wallDKappa.assign(m_sph.hood.sampleCount(), 0.0);
    updateWallKappa(m_applied, !rate);
  }
  return {true, fluid, walls};
}

// Jacobi sweeps (physics.md (6.7)-(6.8)): kappa_i += max(e_i, 0)/(dt^2 a_i), then the velocities take the
// change. Only compression is corrected ([BK17] Algs. 2-3 clamp the source): kappa
// never decreases within a solve, which keeps the iteration stable at omega = 1 (a
// variant projecting kappa >= 0 from both sides oscillated and blew up in 2D). Stops
// when the mean of max(e_i, 0) is at most the tolerance, after minIter sweeps.
template <int D>
int DfsphSolver<D>::sweeps(ParticleSet<D>& p, double dt, const SweepOptions& options, DensityError& finalError) {
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  const bool rate = options.solve == Solve::Divergence;
  std::vector<double>& kappa = *options.kappa;
  const double storedPerApplied = rate ? dt : 1.0;  // see startWarm
  const double invDt2 = 1.0 / (dt * dt);
  if (!options.warmStarted) {
    const WarmStart warm = startWarm(p, dt, options.solve, kappa, WarmErrors::Predicted);
    if (warm.fluid || warm.walls) applyKappa(p, dt, m_dKappa, warm.fluid ? Push::FluidAndWalls : Push::WallsOnly);
  }
  const bool walls = m_params.extrapolatedWalls;
  const bool accelerate = !rate && m_params.chebyshev > 0.0;
  ChebyshevWeights chebyshev(m_params.chebyshev);
  double weight = 1.0;
  m_lastDKappa.resize(n);
  int iterations = 0;
  while (true) {
    predictError(p, dt, options.solve);
    finalError = compressionError(m_positive);
    // The mean alone would let a thin layer (the bottom of a shallow tank) stay
    // compressed step after step; the worst particle must also be within 10 eta.
    const bool converged = finalError.mean <= options.tolerance && finalError.max <= 10.0 * options.tolerance;
    if ((converged && iterations >= options.minIterations) || iterations >= options.maxIterations) break;
    // Chebyshev weights over the density sweeps ([Wang15], physics.md (6.12); sph/chebyshev.h):
    // the increment w_k d_k + (w_k - 1) dk_{k-1} is never negative, so kappa still only grows.
    if (accelerate) weight = chebyshev.next();
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) {
      const double jacobi = m_positive[i] * m_factor[i] * invDt2;
      m_dKappa[i] = weight > 1.0 ? weight * jacobi + (weight - 1.0) * m_lastDKappa[i] : jacobi;
      m_lastDKappa[i] = m_dKappa[i];
      m_applied[i] += m_dKappa[i];
      kappa[i] = m_applied[i] * storedPerApplied;
    }
    if (walls) updateWallKappa(m_applied, !rate);
    applyKappa(p, dt, m_dKappa, Push::FluidAndWalls);
    ++iterations;
  }
  if (m_bodies) bodyImpulses(p, dt);
  return iterations;
}

// The solve's push through the bodies' samples, taken back by the bodies (physics.md
// (16.12)): every push of the solve is linear in the increments it applies at the same
// positions, so their sum is the push of the totals, kappa_i (m_applied) and kappa_b
// (m_wallKappa): the body's sample b takes +m_i dt (kappa_i + kappa_b) V_b gradW_ib.
template <int D>
void DfsphSolver<D>::bodyImpulses(const ParticleSet<D>& p, double dt) {
  const std::size_t first = m_sph.hood.firstBodySample();
  const bool walls = m_params.extrapolatedWalls;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto samples = m_wallPairs.neighbours(i);
    const auto grads = m_wallPairs.gradients(i);
    for (std::size_t k = 0; k < samples.size(); ++k) {
      const std::uint32_t b = samples[k];
      if (b < first) continue;
      const double kappa = m_applied[i] + (walls ? m_wallKappa[b] : 0.0);
      m_bodies->impulse[m_sph.hood.bodySample(b)] += (p.m[i] * dt * kappa) * Vec<D>(grads[k]);
    }
  }
}

// [BK17] Algorithm 2: make the velocity field divergence-free, D rho/Dt = 0.
// Returns whether it ran (its last predicted errors are then in m_error).
template <int D>
bool DfsphSolver<D>::divergenceSolve(ParticleSet<D>& p, const StepContext<D>& ctx, SolverReport& report) {
  if (!m_params.divergenceSolve || m_params.maxDivergenceIterations == 0) {
    report.divergenceIterations = 0;
    return false;
  }
  DensityError error;
  report.divergenceIterations = sweeps(p, ctx.dt,
                                       {.solve = Solve::Divergence,
                                        .kappa = &m_kappaV,
                                        .minIterations = 1,
                                        .maxIterations = m_params.maxDivergenceIterations,
                                        .tolerance = 0.01 * m_params.maxDivergenceError},
                                       error);
  report.divergenceMax = error.mean;
  return true;
}

// The density solve's warm start (startWarm), its errors taken from the divergence
// solve's last prediction; its push is applied by forcesAndWarmPush, on the same pass
// over the pairs as the forces.
template <int D>
typename DfsphSolver<D>::WarmStart DfsphSolver<D>::densityWarmStart(const ParticleSet<D>& p, double dt) {
  return startWarm(p, dt, Solve::Density, m_kappa, WarmErrors::FromDivergenceSolve);
}

// [BK17] Algorithm 1's non-pressure forces, fused with the push of the density solve's
// warm start (one pass over the pairs instead of two): gravity, the frame's fictitious
// accelerations and laminar viscosity [Mon05] Eq. (6.7), physics.md (6.10), v* = v + dt a_nonp;
// with a warm start (densityWarmStart), its push -dt sum_j V (dk_i + dk_j) gradW_ij as well.
template <int D>
void DfsphSolver<D>::forcesAndWarmPush(ParticleSet<D>& p, const StepContext<D>& ctx, const WarmStart& warm) {
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  const double h = m_sph.kernel.h;
  const double eps = 0.01 * h * h;
  const double laminar = 2.0 * (D + 2) * m_params.viscosity;
  const double dt = ctx.dt;
  m_vStar.resize(n);
  // Both pair terms change v_j by the opposite of v_i. XSPH [MM13] Eq. 17: velocities
  // drift towards the neighbourhood's, which damps the particle-scale noise the
  // pressure solves leave behind.
  const double viscous = dt * laminar, blend = m_params.xsph * m_sph.volume;
  // The warm start's push, -dt sum_j V (dk_i + dk_j) gradW_ij (applyKappa).
  const double push = warm.fluid ? dt : 0.0;
  const std::span<const double> dKappa = m_dKappa;
  m_pairPush.resize(n);
  if (viscous > 0.0 || blend > 0.0)
    m_pairs.sum(m_pairPush,
                [&x = p.x, &v = p.v, viscous, blend, eps, push, dKappa](std::uint32_t i, std::uint32_t j,
                                                                        const auto& g, float w, Vec<D>& a, Vec<D>& b) {
                  const Vec<D> r = x[i] - x[j], dv = v[i] - v[j];
                  const Vec<D> change = (viscosityTerm(viscous, glm::dot(dv, r), lengthSquared<D>(r), eps) -
                                         (push > 0.0 ? push * (dKappa[i] + dKappa[j]) : 0.0)) *
                                            Vec<D>(g) -
                                        (blend * w) * dv;
                  a += change, b -= change;
                });
  else if (warm.fluid)
    addPairPush(dKappa, -dt);
  else
    std::fill(m_pairPush.begin(), m_pairPush.end(), Vec<D>(0.0));
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    const Vec<D> vi = p.v[i];
    const Vec<D> a = ctx.frame.acceleration(p.x[i], vi) - m_params.damping * vi;
    m_vStar[i] = vi + m_pairPush[i] + dt * a;
    if (warm.started) m_vStar[i] -= dt * wallPush(i, dKappa[i]);
  }
  p.v.swap(m_vStar);
}

// [BK17] Algorithm 3: hold rho = rho0 at the end of the step.
template <int D>
void DfsphSolver<D>::densitySolve(ParticleSet<D>& p, const StepContext<D>& ctx, SolverReport& report,
                                  bool warmStarted) {
  DensityError error;
  report.iterations = sweeps(p, ctx.dt,
                             {.solve = Solve::Density,
                              .kappa = &m_kappa,
                              .minIterations = m_params.minIterations,
                              .maxIterations = m_params.maxIterations,
                              .tolerance = kDensityTargetShare * 0.01 * m_params.maxDensityError,
                              .warmStarted = warmStarted},
                             error);
  reportDensityError(error, report);
  report.residual = error.mean;
  m_kappaStepShare = existingErrorShare(ctx.dt);
}

// x += dt v; the walls keep every particle centre kSphWallMargin spacings inside (physics.md (2.5)).
template <int D>
void DfsphSolver<D>::integrate(ParticleSet<D>& p, double dt) {
  integrateAndContain<D>(p, dt, {}, m_box, kSphWallMargin * m_spacing, m_solids);
}

template <int D>
std::vector<double> DfsphSolver<D>::pressure() const {
  // Both solves push against gravity (physics.md (6.11)): the divergence solve at the start of a step
  // takes back the compression the last step's gravity left, so the pressure is the
  // density solve's kappa plus the divergence solve's impulse over dt.
  std::vector<double> out(m_rho.size(), 0.0);
  const double toApplied = m_lastDt > 0.0 ? 1.0 / m_lastDt : 0.0;
  for (std::size_t i = 0; i < out.size() && i < m_kappa.size(); ++i)
    out[i] = (m_kappa[i] + m_kappaV[i] * toApplied) * m_params.restDensity * m_rho[i] * m_rho[i];
  return out;
}

template <int D>
bool DfsphSolver<D>::field(FieldKind kind, const ParticleSet<D>& p, std::span<float> out) const {
  return incompressibleField<D>(
      kind, p, m_rho, m_params.restDensity, [this] { return pressure(); },
      [&](std::span<float> field) { pairVorticityField<D>(m_pairs, p, field); }, out);
}

// The lists' reference positions, the two solvers' warm starts with the share of a step
// the density one was solved in, and the density ratio and last dt (the pressure field).
template <int D>
void DfsphSolver<D>::exchangeState(StateArchive& ar, ParticleSet<D>& p) {
  m_sph.hood.exchangeState(ar, p.size());
  ar.channel(m_kappa, p.size(), "the density solver's stiffness");
  ar.channel(m_kappaV, p.size(), "the divergence solver's stiffness");
  ar.value(m_kappaStepShare, "the share of a step of the last density solve");
  ar.value(m_lastDt, "the last time step");
  ar.channel(m_rho, p.size(), "the density ratio");
}

template class DfsphSolver<2>;
template class DfsphSolver<3>;

}  // namespace sloshlab
