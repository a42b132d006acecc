#include "solvers/pbf.h"

#include <algorithm>
#include <cmath>

namespace sloshlab {

namespace {
constexpr double kMaxCorrection = 0.05;  // largest density error removed per iteration
}  // namespace

template <int D>
const ParamTable& PbfSolver<D>::paramTable() {
  using P = PbfParams;
  static const ParamInfo entries[] = {
      {"rest_density", "Rest density", "kg/m^3", "Fluid", SLOSHLAB_PARAM_FIELD(P, restDensity), 100.0, 3000.0,
       false, "rho0 in the constraint C_i = rho_i/rho0 - 1 <= 0 [MM13] Eq. 1; particle mass m = rho0 V"},
      {"substeps", "Sub-steps per frame", "1", "Solver", SLOSHLAB_PARAM_FIELD(P, substeps), 1, 20, false,
       "dt = (1/60 s) / substeps: positions predicted x* = x + dt v, velocities v = (x* - x)/dt [MM13] Alg. 1"},
      {"iterations", "Iterations", "1", "Solver", SLOSHLAB_PARAM_FIELD(P, iterations), 1, 50, false,
       "Jacobi sweeps of lambda_i = -C_i/(sum_k |grad_k C_i|^2 + eps) and x* += dx per sub-step [MM13] Eqs. 11, 14"},
      {"omega", "Relaxation", "1", "Solver", SLOSHLAB_PARAM_FIELD(P, omega), 0.1, 1.0, false,
       "omega in x* += omega dx: damps the over-correction of simultaneous Jacobi updates"},
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
      {"damping", "Settling damping", "1/s", "Viscosity", SLOSHLAB_PARAM_FIELD(P, damping), 0.0, 100.0, false,
       "zeta in a_i -= zeta v_i: removes kinetic energy, to let a scene settle to rest (0 for physics)"},
  };
  static const ParamTable table{"pbf", entries};
  return table;
}

template <int D>
void PbfSolver<D>::reset(ParticleSet<D>& p, const SolverSetup<D>& setup) {
  m_box = setup.boxSize;
  m_spacing = setup.spacing;
  m_sph.invalidate();
  m_lastDt = 0.0;
  paramsChanged(p);
}

template <int D>
void PbfSolver<D>::paramsChanged(ParticleSet<D>& p) {
  const double h = m_params.support * m_spacing;
  // A wide skin: the constraint iterations move particles after the lists are built.
  m_sph.update(h, m_params.restDensity, m_spacing, m_box, 0.3, p);
  double aRef = 0.0;
  for (const Vec<D>& r : latticeNeighbourhood<D>(m_spacing, h))
    aRef += lengthSquared<D>(m_sph.volume * m_sph.kernel.gradW(r));
  m_lambdaRef = aRef > 0.0 ? 1.0 / aRef : 0.0;
}

// A fixed step: the sub-steps of a 1/60 s frame ([MM13] runs 2-4 per frame).
template <int D>
double PbfSolver<D>::maxTimeStep(const ParticleSet<D>& p, const StepContext<D>& ctx) const {
  (void)p, (void)ctx;
  return 1.0 / (60.0 * m_params.substeps);
}

template <int D>
void PbfSolver<D>::step(ParticleSet<D>& p, const StepContext<D>& ctx, SolverReport& report) {
  PhaseClock clock;
  predictPositions(p, ctx);
  clock.lap(report, "predict");
  m_lambdaSum.assign(p.size(), 0.0);
  m_sph.hood.update(p, false, m_xOld);
  clock.lap(report, "neighbours");
  for (int it = 0; it < m_params.iterations; ++it) {
    computeLambda(p);
    applyCorrections(p, ctx.dt);
  }
  report.iterations = m_params.iterations;
  clock.lap(report, "constraints");
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
template <int D>
void PbfSolver<D>::predictPositions(ParticleSet<D>& p, const StepContext<D>& ctx) {
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  m_xOld.resize(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    m_xOld[i] = p.x[i];
    p.v[i] = (p.v[i] + ctx.dt * ctx.frame.acceleration(p.x[i], p.v[i])) / (1.0 + ctx.dt * m_params.damping);
    p.x[i] += ctx.dt * p.v[i];
    keepInside<D>(p.x[i], p.v[i], m_box, 0.0);
  }
}

// lambda_i = -C_i / (|grad_i C_i|^2 + sum_j |grad_j C_i|^2 + eps) [MM13] Eq. 11.
template <int D>
void PbfSolver<D>::computeLambda(const ParticleSet<D>& p) {
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  m_rho.resize(n);
  m_lambda.resize(n);
  const double V = m_sph.volume, Vb = m_sph.hood.walls().volume();
  const auto walls = m_sph.hood.walls().positions();
  const double h2 = m_sph.kernel.h * m_sph.kernel.h;
  const double eps = m_params.epsilon / std::max(m_lambdaRef, 1e-300);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    const Vec<D> xi = p.x[i];
    double rho = V * m_sph.kernel.W0();
    Vec<D> gradI(0.0);
    double sumSquares = 0.0;
    for (std::uint32_t j : m_sph.hood.fluid()[i]) {
      const Vec<D> r = xi - p.x[j];
      const double r2 = lengthSquared<D>(r);
      if (r2 >= h2) continue;
      const Vec<D> g = (V * m_sph.kernel.gradFactor(r2)) * r;
      rho += V * m_sph.kernel.W(std::sqrt(r2));
      gradI += g;
      sumSquares += lengthSquared<D>(g);
    }
    for (std::uint32_t b : m_sph.hood.boundary()[i]) {
      const Vec<D> r = xi - walls[b];
      const double r2 = lengthSquared<D>(r);
      if (r2 >= h2) continue;
      rho += Vb * m_sph.kernel.W(std::sqrt(r2));
      gradI += (Vb * m_sph.kernel.gradFactor(r2)) * r;
    }
    m_rho[i] = rho;
    // One-sided, and at most kMaxCorrection per iteration (see dfsph.cpp).
    const double C = std::clamp(rho - 1.0, 0.0, kMaxCorrection);
    m_lambda[i] = -C / (lengthSquared<D>(gradI) + sumSquares + eps);
    m_lambdaSum[i] += m_lambda[i];
  }
}

// dx_i = sum_j V (lambda_i + lambda_j + s_corr) gradW_ij + lambda_i sum_b V_b gradW_ib
// [MM13] Eq. 14; then the walls keep every particle inside.
template <int D>
void PbfSolver<D>::applyCorrections(ParticleSet<D>& p, double dt) {
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  m_dx.resize(n);
  const double V = m_sph.volume, Vb = m_sph.hood.walls().volume();
  const auto walls = m_sph.hood.walls().positions();
  const double h2 = m_sph.kernel.h * m_sph.kernel.h;
  const double invWdq = 1.0 / m_sph.kernel.W(m_params.tensileDq * m_sph.kernel.h);
  const double kCorr = m_params.tensileK * m_lambdaRef;
  // A step shorter than the sub-step (the last one before an output time) corrects
  // proportionally less: a correction dx becomes the velocity dx/dt, so the full
  // correction in a tiny step would fling particles off. Scaled by (dt/dt_sub)^2 the
  // correction acts like a force, the same for any step.
  const double ratio = std::min(1.0, dt / (1.0 / (60.0 * m_params.substeps)));
  const double scale = m_params.omega * ratio * ratio;
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    const Vec<D> xi = p.x[i];
    const double li = m_lambda[i];
    Vec<D> dx(0.0);
    for (std::uint32_t j : m_sph.hood.fluid()[i]) {
      const Vec<D> r = xi - p.x[j];
      const double r2 = lengthSquared<D>(r);
      if (r2 >= h2) continue;
      const double w = m_sph.kernel.W(std::sqrt(r2)) * invWdq;
      const double w2 = w * w;
      const double sCorr = -kCorr * w2 * w2;
      dx += ((li + m_lambda[j] + sCorr) * V * m_sph.kernel.gradFactor(r2)) * r;
    }
    if (li != 0.0) {
      for (std::uint32_t b : m_sph.hood.boundary()[i]) {
        const Vec<D> r = xi - walls[b];
        const double r2 = lengthSquared<D>(r);
        if (r2 >= h2) continue;
        dx += (li * Vb * m_sph.kernel.gradFactor(r2)) * r;
      }
    }
    m_dx[i] = scale * dx;
  }
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    p.x[i] += m_dx[i];
    keepInside<D>(p.x[i], p.v[i], m_box, 0.0);
  }
}

// The density error left after the iterations (the last computeLambda's densities).
template <int D>
void PbfSolver<D>::measureDensity(const ParticleSet<D>& p, SolverReport& report) {
  (void)p;
  double worst = 0.0;
  std::vector<double>& compression = m_vScratch;
  compression.resize(m_rho.size());
  for (std::size_t i = 0; i < m_rho.size(); ++i) {
    compression[i] = std::max(m_rho[i] - 1.0, 0.0);
    worst = std::max(worst, compression[i]);
  }
  report.densityErrorMax = worst;
  report.densityErrorMean = m_rho.empty() ? 0.0 : orderedSum(compression) / static_cast<double>(m_rho.size());
  report.residual = report.densityErrorMean;
}

// v = (x* - x) / dt [MM13] Alg. 1, line 21.
template <int D>
void PbfSolver<D>::updateVelocities(ParticleSet<D>& p, double dt) {
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  const double invDt = 1.0 / dt;
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    p.v[i] = (p.x[i] - m_xOld[i]) * invDt;
    // A particle held by a wall keeps no velocity into it.
    keepInside<D>(p.x[i], p.v[i], m_box, 0.0);
  }
}

// f_i = epsilon (N x omega_i), N = eta/|eta|, eta = grad|omega| ([MM13] Eqs. 15-16).
template <int D>
void PbfSolver<D>::vorticityConfinement(ParticleSet<D>& p, double dt) {
  if (m_params.vorticity <= 0.0) return;
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  m_omega.resize(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) m_omega[i] = vorticityAt<D>(i, p, m_sph.hood.fluid(), m_sph.kernel, m_sph.volume);
  const double h2 = m_sph.kernel.h * m_sph.kernel.h;
  m_vNew.resize(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    const double wi = glm::length(m_omega[i]);
    Vec<D> eta(0.0);
    for (std::uint32_t j : m_sph.hood.fluid()[i]) {
      const Vec<D> r = p.x[i] - p.x[j];
      const double r2 = lengthSquared<D>(r);
      if (r2 >= h2) continue;
      eta += ((glm::length(m_omega[j]) - wi) * m_sph.volume * m_sph.kernel.gradFactor(r2)) * r;
    }
    const double len = glm::length(eta);
    Vec<D> dv(0.0);
    if (len > 1e-12) dv = fromVec3<D>(glm::cross(toVec3<D>(eta / len), m_omega[i])) * (m_params.vorticity * dt);
    m_vNew[i] = p.v[i] + dv;
  }
  p.v.swap(m_vNew);
}

// v_i += c sum_j V (v_j - v_i) W_ij [MM13] Eq. 17: velocities drift towards the
// neighbourhood's, a viscosity that also damps the noise of the constraint solve.
template <int D>
void PbfSolver<D>::xsphViscosity(ParticleSet<D>& p) {
  if (m_params.xsph <= 0.0) return;
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  const double h2 = m_sph.kernel.h * m_sph.kernel.h;
  m_vNew.resize(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    Vec<D> blend(0.0);
    for (std::uint32_t j : m_sph.hood.fluid()[i]) {
      const double r2 = lengthSquared<D>(p.x[i] - p.x[j]);
      if (r2 >= h2) continue;
      blend += (m_sph.volume * m_sph.kernel.W(std::sqrt(r2))) * (p.v[j] - p.v[i]);
    }
    m_vNew[i] = p.v[i] + m_params.xsph * blend;
  }
  p.v.swap(m_vNew);
}

template <int D>
std::vector<double> PbfSolver<D>::pressure() const {
  std::vector<double> out(m_rho.size(), 0.0);
  if (m_lastDt <= 0.0) return out;
  const double scale = -m_params.omega * m_params.restDensity / (m_lastDt * m_lastDt);
  for (std::size_t i = 0; i < out.size() && i < m_lambdaSum.size(); ++i)
    out[i] = scale * m_lambdaSum[i] * m_rho[i] * m_rho[i];
  return out;
}

template <int D>
bool PbfSolver<D>::field(FieldKind kind, const ParticleSet<D>& p, std::span<float> out) const {
  return incompressibleField<D>(kind, p, m_rho, m_params.restDensity, [this] { return pressure(); }, m_sph.hood.fluid(),
                                m_sph.kernel, m_sph.volume, out);
}

template class PbfSolver<2>;
template class PbfSolver<3>;

}  // namespace sloshlab
