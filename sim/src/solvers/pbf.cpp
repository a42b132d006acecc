#include "solvers/pbf.h"

#include "containment.h"
#include "io/state_archive.h"
#include "sloshlab/particle_moments.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sloshlab {

template <int D>
const ParamTable& PbfSolver<D>::paramTable() {
  using P = PbfParams;
  static const ParamInfo entries[] = {
      {"rest_density", "Rest density", "kg/m^3", "Fluid", SLOSHLAB_PARAM_FIELD(P, restDensity), 100.0, 3000.0,
       false, "rho0 in the constraint C_i = rho_i/rho0 - 1 <= 0 [MM13] Eq. 1; particle mass m = rho0 V"},
      {"substeps", "Sub-steps per frame", "1", "Solver", SLOSHLAB_PARAM_FIELD(P, substeps), 1, 20, false,
       "dt = (1/60 s) / substeps (or less, see cfl): positions predicted x* = x + dt v, velocities "
       "v = (x* - x)/dt [MM13] Alg. 1"},
      {"cfl", "Sub-step CFL number", "1", "Solver", SLOSHLAB_PARAM_FIELD(P, cfl), 0.1, 20.0, false,
       "dt <= cfl d / |v|max, d the particle spacing: a fast flow takes more than `substeps` sub-steps per frame"},
      {"iterations", "Iterations", "1", "Solver", SLOSHLAB_PARAM_FIELD(P, iterations), 1, 50, false,
       "Jacobi sweeps of dlambda_i = -omega C_i/(sum_k |grad_k C_i|^2 + eps), x* += dx per sub-step [MM13] Eqs. 11, 14"},
      {"omega", "Relaxation", "1", "Solver", SLOSHLAB_PARAM_FIELD(P, omega), 0.05, 1.0, false,
       "omega in dlambda_i = -omega C_i / a_i: the sweeps converge for omega < 2/mu_max (0.53 in 2D, 0.71 in 3D)"},
      {"epsilon", "Constraint relaxation", "1", "Solver", SLOSHLAB_PARAM_FIELD(P, epsilon), 0.0, 1.0, false,
       "eps / a_ref in the lambda denominator [MM13] Eq. 11: softens the constraint (0: hard)"},
      {"tensile_k", "Tensile k", "1", "Surface", SLOSHLAB_PARAM_FIELD(P, tensileK), 0.0, 0.1, false,
       "k in s_corr = -k (W(r)/W(dq h))^n lambda_ref, n = 4: repels clustering at the surface [MM13] Eq. 13"},
      {"tensile_dq", "Tensile dq", "1", "Surface", SLOSHLAB_PARAM_FIELD(P, tensileDq), 0.05, 0.5, false,
       "dq / h in s_corr [MM13] Eq. 13"},
      {"xsph", "XSPH viscosity", "1", "Viscosity", SLOSHLAB_PARAM_FIELD(P, xsph), 0.0, 0.5, false,
       "c in v_i += c sum_j V (v_j - v_i) W_ij [MM13] Eq. 17"},
      {"vorticity", "Vorticity confinement", "m/s", "Viscosity", SLOSHLAB_PARAM_FIELD(P, vorticity), 0.0, 1.0,
       false, "epsilon in f_i = epsilon (N x omega_i), N = grad|omega| / |grad|omega|| [MM13] Eq. 16, [FSJ01]"},
      {"support", "Kernel support / spacing", "1", "Kernel", SLOSHLAB_PARAM_FIELD(P, support), 1.5, 3.0, false,
       "h / spacing: the cubic spline W(r, h) vanishes for r >= h"},
      {"warm_start", "Warm start", "1", "Solver", SLOSHLAB_PARAM_FIELD(P, warmStart), 0.0, 1.0, false,
       "w in lambda_i = -w dt^2 kappa_i,last at the start of a sub-step: carries pressure over; above 0.5 it boils"},
      {"chebyshev", "Chebyshev rho", "1", "Solver", SLOSHLAB_PARAM_FIELD(P, chebyshev), 0.0, 0.999, false,
       "rho in the Chebyshev weights w_{k+1} = 4/(4 - rho^2 w_k) of y = w (y^ - y_prev) + y_prev over the "
       "sweeps [Wang15] (0: plain Jacobi)"},
      {"weight_cfl", "Weight CFL number", "1", "Solver", SLOSHLAB_PARAM_FIELD(P, weightCfl), 0.0, 1.0, false,
       "dt <= C h / sqrt(|g - A| H), H = sqrt(12 var) the liquid's depth along g - A: the sweeps must carry "
       "its weight; a deep column boils without it (0: off)"},
      {"damping", "Settling damping", "1/s", "Viscosity", SLOSHLAB_PARAM_FIELD(P, damping), 0.0, 100.0, false,
       "zeta in a_i -= zeta v_i: removes kinetic energy, to let a scene settle to rest (0 for physics)"},
  };
  static const ParamTable table{"pbf", entries};
  return table;
}

template <int D>
void PbfSolver<D>::reset(ParticleSet<D>& p, const SolverSetup<D>& setup) {
  m_box = setup.boxSize;
  m_solids = setup.solids;
  m_spacing = setup.spacing;
  m_sph.invalidate();
  // Every array that carries a value across a reorder of the particles (the neighbour
  // lists' sort by cell, between and within sub-steps) goes with them.
  for (std::vector<double>* channel : {&m_kappa, &m_rho, &m_carried, &m_lambda}) p.addChannel(*channel);
  p.addChannel(m_xOld);
  p.addChannel(m_xPrev);
  p.addChannel(m_lambdaPrev);
  m_lastDt = 0.0;
  m_kappa.assign(p.size(), 0.0);
  m_rho.assign(p.size(), 1.0);
  paramsChanged(p);
}

template <int D>
void PbfSolver<D>::paramsChanged(ParticleSet<D>& p) {
  const double h = m_params.support * m_spacing;
  // A wide skin: the constraint iterations move particles after the lists are built.
  m_sph.update({.support = h,
                .restDensity = m_params.restDensity,
                .spacing = m_spacing,
                .box = m_box,
                .solids = &m_solids,
                .skinFraction = 0.1,
                .halfLists = true},
               p);
  double aRef = 0.0;
  for (const Vec<D>& r : latticeNeighbourhood<D>(m_spacing, h))
    aRef += lengthSquared<D>(m_sph.volume * m_sph.kernel.gradW(r));
  m_lambdaRef = aRef > 0.0 ? 1.0 / aRef : 0.0;
}

template <int D>
double PbfSolver<D>::subStep() const {
  return 1.0 / (60.0 * m_params.substeps);
}

// The sub-steps of a 1/60 s frame ([MM13] runs 2-4 per frame; physics.md (9.6)), and more
// where the flow is fast: no particle moves more than cfl spacings in a sub-step. The
// constraints only see the pairs of the predicted positions; at 2 sub-steps a fine dam
// break (a/40 in 2D, a/25 in 3D) moved particles 5-10 spacings per sub-step, its 2D
// front ran twice too fast and the 3D one blew up.
//
// And no longer than the sweeps can carry the liquid's weight (9.6a): a gravity wave of the
// column's depth, sqrt(g H), may cross at most weightCfl kernel supports in a sub-step.
// The 3D bottle refined to 100k particles (a 34-layer column) boiled at 2 sub-steps and
// held at 4; more sweeps did not help.
template <int D>
double PbfSolver<D>::maxTimeStep(const ParticleSet<D>& p, const StepContext<D>& ctx) const {
  const double vmax = maxSpeed<D>(p.v);
  const double weight = m_params.weightCfl > 0.0
                            ? weightStep(m_params, m_params.support * m_spacing, momentsOf<D>(p, m_box),
                                         ctx.frame.gravityMinusA)
                            : std::numeric_limits<double>::infinity();
  const double frame = frameSubStep(m_params, weight);
  m_nominalDt = vmax > 0.0 ? std::min(frame, m_params.cfl * m_spacing / vmax) : frame;
  return m_nominalDt;
}

template <int D>
double PbfSolver<D>::frameSubStep(const PbfParams& params, double weightLimit) {
  const double frame = 1.0 / 60.0;
  double n = params.substeps;
  if (weightLimit < frame / n) n = std::ceil(frame / weightLimit * (1.0 - 1e-12));
  return frame / n;
}

template <int D>
double PbfSolver<D>::weightStep(const PbfParams& params, double h, const ParticleMoments& m,
                                const Vec<D>& gravityMinusA) {
  const double g = std::sqrt(lengthSquared<D>(gravityMinusA));
  if (!(params.weightCfl > 0.0) || !(g > 0.0)) return std::numeric_limits<double>::infinity();
  const double depth = depthAlong(m, toVec3<D>(gravityMinusA) / g);
  if (!(depth > 0.0)) return std::numeric_limits<double>::infinity();
  return params.weightCfl * h / std::sqrt(g * depth);
}

template <int D>
void PbfSolver<D>::step(ParticleSet<D>& p, const StepContext<D>& ctx, SolverReport& report) {
  PhaseClock clock;
  const std::size_t n = p.size();
  if (m_kappa.size() != n) m_kappa.assign(n, 0.0);
  if (m_rho.size() != n) m_rho.assign(n, 1.0);
  predictPositions(p, ctx);
  clock.lap(report, "predict");
  m_bodies = ctx.bodies;
  m_sph.hood.setBodies(m_bodies);
  if (m_bodies) m_bodies->restDensity = m_params.restDensity;
  m_sph.hood.update(p, {.wallToFluid = false});
  clock.lap(report, "neighbours");
  solveDensityConstraints(p, ctx);
  report.iterations = m_params.iterations;
  clock.lap(report, "constraints");
  // Fresh lists for the density the next sub-step starts from (see the sweeps).
  m_sph.hood.update(p, {.wallToFluid = false});
  measureDensity(p, report);
  updateVelocities(p, ctx.dt);
  clock.lap(report, "velocities");
  vorticityConfinement(p, ctx.dt);
  xsphViscosity(p);
  clock.lap(report, "viscosity");
  m_lastDt = ctx.dt;
}

// v += dt (a_ext - zeta v) (gravity, the frame's fictitious accelerations, settling
// damping; the damping implicit, so that any zeta dt is stable); x* = x + dt v.
// physics.md (7.1).
template <int D>
void PbfSolver<D>::predictPositions(ParticleSet<D>& p, const StepContext<D>& ctx) {
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  m_xOld.resize(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    m_xOld[i] = p.x[i];
    p.v[i] = (p.v[i] + ctx.dt * ctx.frame.acceleration(p.x[i], p.v[i])) / (1.0 + ctx.dt * m_params.damping);
  }
  integrateAndContain<D>(p, ctx.dt, {}, m_box, kSphWallMargin * m_spacing, m_solids);
}

// The constraint solve of one sub-step ([MM13] Alg. 1, lines 8-19), with the multipliers
// accumulated over the sweeps and warm-started from the last sub-step's pressure
// (docs/decisions/pbf.md, "Accumulated multipliers" and "Short steps"; physics.md (7.2)-(7.7)).
template <int D>
void PbfSolver<D>::solveDensityConstraints(ParticleSet<D>& p, const StepContext<D>& ctx) {
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  const double dt = ctx.dt;
  m_lambda.resize(n);
  m_dLambda.resize(n);
  m_carried.resize(n);
  // The density error the particles start with is removed at the rate of a full
  // sub-step: a step cut short (to land on an output time) keeps the share 1 - dt/dt_sub
  // of it for later instead of turning it into a velocity e h / dt.
  const double share = std::min(1.0, dt / (m_nominalDt > 0.0 ? m_nominalDt : subStep()));
  for (std::int64_t i = 0; i < n; ++i) m_carried[i] = (1.0 - share) * std::max(m_rho[i] - 1.0, 0.0);
  // Warm start: lambda_i = -w dt^2 kappa_i where the predicted positions compress.
  computeConstraint(p);
  const double warm = m_params.warmStart * dt * dt;
  bool any = false;
  for (std::int64_t i = 0; i < n; ++i) {
    m_dLambda[i] = m_lambda[i] = m_C[i] > 0.0 ? -warm * m_kappa[i] : 0.0;
    any = any || m_dLambda[i] != 0.0;
  }
  m_bodyPush.assign(m_bodies ? m_bodies->size() : 0, Vec<D>(0.0));
  if (any) applyCorrections(p, dt, false);
  // Projected Jacobi sweeps: dlambda_i = -omega C_i / a_i, lambda_i = min(lambda_i +
  // dlambda_i, 0) (the pressure is never negative).
  for (int it = 0; it < m_params.iterations; ++it) {
    // Corrections can carry particles beyond the lists' skin at large steps: the lists
    // are renewed (and the registered channels reordered with the particles) when needed.
    if (it > 0) m_sph.hood.update(p, {.wallToFluid = false});
    if (m_params.chebyshev > 0.0) m_xNow = p.x, m_lambdaNow = m_lambda, m_bodyPushNow = m_bodyPush;
    if (it > 0 || any) computeConstraint(p);
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) {
      const double updated = std::min(m_lambda[i] - m_params.omega * m_C[i] * m_invDiag[i], 0.0);
      m_dLambda[i] = updated - m_lambda[i];
      m_lambda[i] = updated;
    }
    applyCorrections(p, dt, true);
    chebyshevStep(p, it);
  }
  // kappa_i = -lambda_i / dt^2 (m^2/s^2): the pressure this sub-step applied, p = rho0 rho~^2 kappa.
  const double invDt2 = 1.0 / (dt * dt);
  for (std::int64_t i = 0; i < n; ++i) m_kappa[i] = -m_lambda[i] * invDt2;
  if (m_bodies)  // the sweeps' impulses on the bodies' samples (applyCorrections, chebyshevStep)
    for (std::size_t b = 0; b < m_bodyPush.size(); ++b) m_bodies->impulse[b] += m_bodyPush[b];
}


// The pairs closer than h at the current positions, each once, with V gradW_ij and W_ij
// (symmetric_pairs.h; the lists hold each pair once), kept for the passes that follow at
// the same positions: each sweep evaluates the kernel once per pair; likewise the
// particle -> wall sample pairs (pair_cache.h). Per particle, the density ratio
// rho~_i = sum_j V W_ij + sum_b V_b W_ib (physics.md (7.2)), the sums of m_sums (G_i,
// sum_j |V gradW_ij|^2) and B_i = sum_b V_b gradW_ib in m_wallGrad (sph/walls.h).
template <int D>
void PbfSolver<D>::densityAndGradients(const ParticleSet<D>& p) {
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  const CubicSpline<D>& kernel = m_sph.kernel;
  buildWithDensitySums<D>(m_pairs, m_sph.hood.fluid(), p.x, kernel, m_sph.volume, false, m_sums);
  const double V = m_sph.volume, Vb = m_sph.hood.sampleVolume();
  m_wallPairs.build(m_sph.hood.boundary(), p.x, m_sph.hood.samples(), kernel, Vb);
  m_rhoNow.resize(n);
  m_wallGrad.resize(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    const WallSums<D> wall = wallSums<D>(m_wallPairs, i);
    m_rhoNow[i] = V * (kernel.W0() + m_sums[i].weight) + Vb * wall.weight;
    m_wallGrad[i] = wall.grad;
  }
}

// Chebyshev semi-iteration over the sweeps ([Wang15], physics.md (7.11)): from sweep
// kChebyshevStart on, the new iterate (positions and multipliers) is
// y_{k+1} = w_{k+1} (y^_{k+1} - y_{k-1}) + y_{k-1}, with y^ the plain sweep's result and
// the weights of sph/chebyshev.h (w_1 = 1: the sweeps before are plain).
template <int D>
void PbfSolver<D>::chebyshevStep(ParticleSet<D>& p, int it) {
  const double rho = m_params.chebyshev;
  if (rho <= 0.0) return;
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  if (it < kChebyshevStart) {
    m_chebyshev = ChebyshevWeights(rho);
    m_chebyshev.next();  // w_1 = 1
  } else {
    const double w = m_chebyshev.next();
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) {
      p.x[i] = w * (p.x[i] - m_xPrev[i]) + m_xPrev[i];
      m_lambda[i] = std::min(w * (m_lambda[i] - m_lambdaPrev[i]) + m_lambdaPrev[i], 0.0);
      contain<D>(p.x[i], p.v[i], m_box, kSphWallMargin * m_spacing, m_solids);
    }
    // The bodies' share of the displacements follows the same recurrence.
    for (std::size_t b = 0; b < m_bodyPush.size(); ++b)
      m_bodyPush[b] = w * (m_bodyPush[b] - m_bodyPushPrev[b]) + m_bodyPushPrev[b];
  }
  m_xPrev.swap(m_xNow);
  m_lambdaPrev.swap(m_lambdaNow);
  m_bodyPushPrev.swap(m_bodyPushNow);
}

// C_i = rho~_i - 1 - carried_i and the Jacobi diagonal ([MM13] Eqs. 1, 9-11;
// physics.md (7.2)-(7.3))
//     a_i = |G_i + B_i|^2 + sum_j |V gradW_ij|^2 + eps,
// G_i = sum_j V gradW_ij, B_i = sum_b V_b gradW_ib.
template <int D>
void PbfSolver<D>::computeConstraint(const ParticleSet<D>& p) {
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  densityAndGradients(p);
  m_C.resize(n);
  m_invDiag.resize(n);
  const double eps = m_params.epsilon / std::max(m_lambdaRef, 1e-300);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    m_C[i] = m_rhoNow[i] - 1.0 - m_carried[i];
    const double a = lengthSquared<D>(m_sums[i].grad + m_wallGrad[i]) + m_sums[i].squares + eps;
    m_invDiag[i] = a > 0.0 ? 1.0 / a : 0.0;
  }
}

// dx_i = sum_j V (dlambda_i + dlambda_j + s_corr,ij) gradW_ij + dlambda_i sum_b V_b gradW_ib
// [MM13] Eq. 14 (physics.md (7.5)-(7.6)) for the increments of this sweep (the walls
// push with particle i's own multiplier [Aki12]); then the walls keep every particle
// inside.
template <int D>
void PbfSolver<D>::applyCorrections(ParticleSet<D>& p, double dt, bool tensile) {
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  m_dx.resize(n);
  // s_corr is a displacement per sweep: scaled by (dt/dt_sub)^2 it acts like a force,
  // the same in a step cut short (where the full displacement would be a velocity kick).
  const double ratio = std::min(1.0, dt / subStep());
  const double kCorr = tensile ? m_params.omega * m_params.tensileK * m_lambdaRef * ratio * ratio : 0.0;
  const double invWdq = 1.0 / m_sph.kernel.W(m_params.tensileDq * m_sph.kernel.h);
  // The pair term moves j the opposite way (gradW_ji = -gradW_ij); s_corr uses
  // (W_ij / W(dq h))^4.
  const std::span<const double> dLambda = m_dLambda;
  m_pairs.sum(m_dx,
              [dLambda, kCorr, invWdq](std::uint32_t i, std::uint32_t j, const auto& g, float w, Vec<D>& a, Vec<D>& b) {
                const double t = w * invWdq, t2 = t * t;
                const Vec<D> dx = (dLambda[i] + dLambda[j] - kCorr * t2 * t2) * Vec<D>(g);
                a += dx, b -= dx;
              });
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    p.x[i] += m_dx[i] + m_dLambda[i] * m_wallGrad[i];
    contain<D>(p.x[i], p.v[i], m_box, kSphWallMargin * m_spacing, m_solids);
  }
  if (!m_bodies) return;
  // The bodies' samples moved particle i by dlambda_i V_b gradW_ib, a velocity change of
  // that over dt (7.8): each sample takes the opposite impulse (physics.md (16.12)).
  const std::size_t first = m_sph.hood.firstBodySample();
  for (std::int64_t i = 0; i < n; ++i) {
    const auto samples = m_wallPairs.neighbours(i);
    const auto grads = m_wallPairs.gradients(i);
    for (std::size_t k = 0; k < samples.size(); ++k)
      if (samples[k] >= first)
        m_bodyPush[m_sph.hood.bodySample(samples[k])] -= (p.m[i] * m_dLambda[i] / dt) * Vec<D>(grads[k]);
  }
}

// The density at the end of the constraint solve, rho~_i = sum_j V W_ij + sum_b V_b W_ib:
// the step's reported error and the next step's starting density.
template <int D>
void PbfSolver<D>::measureDensity(const ParticleSet<D>& p, SolverReport& report) {
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  densityAndGradients(p);
  m_rho = m_rhoNow;
  std::vector<double>& compression = m_vScratch;
  compression.resize(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) compression[i] = std::max(m_rho[i] - 1.0, 0.0);
  reportDensityError(compressionError(compression), report);
  report.residual = report.densityErrorMean;
}

// v = (x* - x) / dt [MM13] Alg. 1, line 21; physics.md (7.8).
template <int D>
void PbfSolver<D>::updateVelocities(ParticleSet<D>& p, double dt) {
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  const double invDt = 1.0 / dt;
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    p.v[i] = (p.x[i] - m_xOld[i]) * invDt;
    // A particle held by a wall keeps no velocity into it.
    contain<D>(p.x[i], p.v[i], m_box, kSphWallMargin * m_spacing, m_solids);
  }
}

// f_i = epsilon (N x omega_i), N = eta/|eta|, eta = grad|omega| ([MM13] Eqs. 15-16;
// physics.md (7.9)), over the pairs of the sub-step's end positions (measureDensity).
template <int D>
void PbfSolver<D>::vorticityConfinement(ParticleSet<D>& p, double dt) {
  if (m_params.vorticity <= 0.0) return;
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  m_omega.resize(n);
  pairVorticity<D>(m_pairs, p.v, m_omega);
  std::vector<double>& speed = m_vScratch;  // |omega_i|
  speed.resize(n);
  for (std::int64_t i = 0; i < n; ++i) speed[i] = glm::length(m_omega[i]);
  // eta_i = sum_j (|omega_j| - |omega_i|) V gradW_ij: the same term seen from j.
  m_eta.resize(n);
  const auto term = [&speed](std::uint32_t i, std::uint32_t j, const auto& g, float, Vec<D>& a, Vec<D>& b) {
    const Vec<D> t = (speed[j] - speed[i]) * Vec<D>(g);
    a += t, b += t;
  };
  m_pairs.sum(m_eta, term);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    const double len = glm::length(m_eta[i]);
    if (len <= 1e-12) continue;
    const Vec3 N = toVec3<D>(m_eta[i] / len);
    p.v[i] += fromVec3<D>(glm::cross(N, m_omega[i])) * (m_params.vorticity * dt);
  }
}

// v_i += c sum_j V (v_j - v_i) W_ij [MM13] Eq. 17, physics.md (7.10): velocities drift
// towards the neighbourhood's, a viscosity that also damps the noise of the constraint
// solve.
template <int D>
void PbfSolver<D>::xsphViscosity(ParticleSet<D>& p) {
  if (m_params.xsph <= 0.0) return;
  pairXsph<D>(m_pairs, p.v, m_sph.volume, m_params.xsph, m_vNew);
  p.v.swap(m_vNew);
}

template <int D>
std::vector<double> PbfSolver<D>::pressure() const {
  std::vector<double> out(m_rho.size(), 0.0);
  for (std::size_t i = 0; i < out.size() && i < m_kappa.size(); ++i)
    out[i] = m_params.restDensity * m_kappa[i] * m_rho[i] * m_rho[i];
  return out;
}

template <int D>
bool PbfSolver<D>::field(FieldKind kind, const ParticleSet<D>& p, std::span<float> out) const {
  const auto vorticity = [&](std::span<float> field) { pairVorticityField<D>(m_pairs, p, field); };
  return incompressibleField<D>(kind, p, m_rho, m_params.restDensity, [this] { return pressure(); }, vorticity, out);
}

// The lists' reference positions, the pressure that warm-starts the next sub-step, the
// density ratio it starts from (the error carried over a short step), and the last dt.
template <int D>
void PbfSolver<D>::exchangeState(StateArchive& ar, ParticleSet<D>& p) {
  m_sph.hood.exchangeState(ar, p.size());
  ar.channel(m_kappa, p.size(), "the pressure warm start");
  ar.channel(m_rho, p.size(), "the density ratio");
  ar.value(m_lastDt, "the last time step");
}

template class PbfSolver<2>;
template class PbfSolver<3>;

}  // namespace sloshlab
