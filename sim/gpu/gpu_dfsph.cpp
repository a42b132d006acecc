#include "gpu_dfsph.h"

#include "draw_frame.h"

#include "gl_context.h"
#include "sloshlab/gpu_kernel_timing.h"

#include "io/state_archive.h"

#include <algorithm>
#include <cmath>

namespace sloshlab::gpu {

template <int D>
GpuDfsphSolver<D>::Device::Device(int dim)
    : sort(dim),
      wallWeights(dim, {"common.glsl", "neighbours.glsl", "dfsph_wall_weights.comp"}),
      density(dim, {"common.glsl", "neighbours.glsl", "dfsph_density.comp"}),
      predict(dim, {"common.glsl", "neighbours.glsl", "dfsph_predict.comp"}),
      warm(dim, {"common.glsl", "dfsph_warm.comp"}),
      jacobi(dim, {"common.glsl", "dfsph_jacobi.comp"}),
      wallKappa(dim, {"common.glsl", "neighbours.glsl", "dfsph_wall_kappa.comp"}),
      push(dim, {"common.glsl", "neighbours.glsl", "dfsph_push.comp"}),
      forces(dim, {"common.glsl", "neighbours.glsl", "dfsph_forces.comp"}),
      integrate(dim, {"common.glsl", "dfsph_integrate.comp"}),
      vorticity(dim, {"common.glsl", "neighbours.glsl", "sph_vorticity.comp"}),
      bodyPush(dim, {"common.glsl", "neighbours.glsl", "dfsph_body_push.comp"}),
      moments(dim),
      errors(dim),
      near(dim) {}

template <int D>
GpuDfsphSolver<D>::GpuDfsphSolver() : m_params(DfsphSolver<D>::defaults()) {
  onComputeThread([this] { m_device = std::make_unique<Device>(D); });
}

template <int D>
GpuDfsphSolver<D>::~GpuDfsphSolver() {
  deleteOnComputeThread([this] { m_device.reset(); });
}

template <int D>
void GpuDfsphSolver<D>::reset(ParticleSet<D>& p, const SolverSetup<D>& setup) {
  onComputeThread([&] {
    m_solids = setup.solids;
    m_box = setup.boxSize;
    m_spacing = setup.spacing;
    m_lastDt = 0.0;
    m_kappaStepShare = 1.0;
    paramsChanged(p);
    const std::vector<double> zero(p.size(), 0.0), one(p.size(), 1.0);
    uploadState(p, &zero, &zero, &one);
    sumMoments();
  });
}

// What the parameters fix, as the CPU twin derives it (SphBasis): h, the calibrated mass
// (4.5), the boundary samples' volume and count, the sort's grid of cells h wide; all of
// it into the Step block. The solves' warm starts start again (the CPU twin's kappa = 0).
template <int D>
void GpuDfsphSolver<D>::paramsChanged(ParticleSet<D>& p) {
  onComputeThread([&] {
    m_h = m_params.support * m_spacing;
    StepUniforms& u = m_device->step.values;
    // The cells are h wide: the positions stand still through the solves.
    const SphSizes sizes = configureSph<D>(u, m_box, m_spacing, m_h, m_params.restDensity, m_h);
    m_mass = sizes.mass, m_cells = sizes.cells, m_samples = sizes.samples;
    std::fill(p.m.begin(), p.m.end(), m_mass);
    const double V = sizes.volume;
    u.damping = static_cast<float>(m_params.damping);
    u.xsph = static_cast<float>(m_params.xsph * V);
    u.n = static_cast<std::uint32_t>(m_n);
    m_device->solids.setObstacles(m_solids, m_spacing, m_h, m_box, u);
    m_device->step.upload();
    m_device->samples.reserve(16 * std::max<std::size_t>(m_samples, 1));
    if (m_n == 0) return;
    std::vector<float> aux = readBuffer<float>(m_device->aux, 4 * m_n);
    for (std::size_t i = 0; i < m_n; ++i) aux[4 * i] = aux[4 * i + 1] = 0.0f;
    m_device->aux.upload(aux.data(), 16 * m_n);
    sumMoments();  // the mass may have changed
  });
}

// x (the number in w), v and, where given, the stiffnesses and density into aux.
template <int D>
void GpuDfsphSolver<D>::uploadState(const ParticleSet<D>& p, const std::vector<double>* kappa,
                                    const std::vector<double>* kappaV, const std::vector<double>* rho) {
  Device& d = *m_device;
  m_n = uploadParticles<D>(p, d.x, d.v);
  const std::size_t bytes = 16 * m_n;
  if (kappa && kappaV && rho) {
    std::vector<float> aux(4 * m_n, 0.0f);
    for (std::size_t i = 0; i < m_n; ++i) {
      aux[4 * i] = static_cast<float>((*kappa)[i]);
      aux[4 * i + 1] = static_cast<float>((*kappaV)[i]);
      aux[4 * i + 2] = static_cast<float>((*rho)[i]);
    }
    d.aux.upload(aux.data(), bytes);
  }
  d.solve.reserve(bytes);
  d.solve.fillZero();
  for (Buffer* b : {&d.wallGrad, &d.vNext, &d.omega, &d.sortedA, &d.sortedB}) b->reserve(bytes);
  d.step.values.n = static_cast<std::uint32_t>(m_n);
  d.step.upload();
}

// [BK17] Sec. 5 (physics.md (9.5)): the CFL and acceleration bounds, from the fastest
// particle of the last step's moments (dfsph.cpp, maxTimeStep).
template <int D>
double GpuDfsphSolver<D>::maxTimeStep(const ParticleSet<D>&, const StepContext<D>& ctx) const {
  const double vmax = std::sqrt(m_moments.maxSpeedSquared);
  const double d = m_spacing;
  const double a = std::max(ctx.frame.bound(m_box, vmax), 1e-9);
  double dt = std::min({m_params.cfl * d / std::max(vmax, 1e-9), m_params.accelerationStep * std::sqrt(d / a),
                        m_params.maxTimeStep});
  dt = viscousStepLimit(dt, m_h, m_params.viscosity, m_params.damping);
  m_nominalDt = dt;
  return dt;
}

template <int D>
void GpuDfsphSolver<D>::step(ParticleSet<D>&, const StepContext<D>& ctx, SolverReport& report) {
  onComputeThread([&] {
    PhaseClock clock;
    Device& d = *m_device;
    d.solids.upload(ctx.bodies, d.step.values);  // the Step block goes up in setFrame
    d.solids.bind();
    m_bodies = ctx.bodies != nullptr && ctx.bodies->size() > 0;
    if (ctx.bodies) {
      ctx.bodies->restDensity = m_params.restDensity;
      d.bodyImpulses.reserve(16 * std::max<std::size_t>(d.solids.size(), 1));
      d.bodyImpulses.fillZero();
    }
    d.samples.reserve(16 * std::max<std::size_t>(allSamples(), 1));
    setFrame(ctx);
    sortByCell();
    densityAndFactor();
    const bool divergenceSolved = divergenceSolve(ctx.dt, report);
    // The density solve's warm start rides on the forces' pass (dfsph.cpp).
    const bool warm = divergenceSolved;
    if (warm) startWarm(ctx.dt, Solve::Density, WarmErrors::FromDivergenceSolve);
    forcesAndWarmPush(ctx.dt, warm);
    densitySolve(ctx.dt, report, warm);
    integrate();
    sumMoments();
    if (m_bodies) d.solids.addImpulses(d.bodyImpulses, 1, *ctx.bodies);
    clock.lap(report, "gpu step");  // the step's read-backs wait for the device
    collectKernelTimes();           // the benchmark's profile, where it is on
    m_lastDt = ctx.dt;
  });
}

template <int D>
void GpuDfsphSolver<D>::setFrame(const StepContext<D>& ctx) {
  StepUniforms& u = m_device->step.values;
  setStepFrame<D>(u, ctx);
  u.share = static_cast<float>(existingErrorShare(ctx.dt));
  m_device->step.upload();
}

// The counting sort at the step's positions; x, v and aux (the warm starts) follow.
template <int D>
void GpuDfsphSolver<D>::sortByCell() {
  Device& d = *m_device;
  d.sort.sort(d.x, m_n, m_cells);
  d.sort.gather(d.x, d.sortedA, &d.v, &d.sortedB, m_n);
  d.x.swap(d.sortedA);
  d.v.swap(d.sortedB);
  d.sort.gather(d.aux, d.sortedA, nullptr, nullptr, m_n);
  d.aux.swap(d.sortedA);
  d.sort.buildLists(d.x, m_n, d.step.values.listCapacity);
}

template <int D>
void GpuDfsphSolver<D>::densityAndFactor() {
  Device& d = *m_device;
  const int extrapolated = m_params.extrapolatedWalls ? 1 : 0;
  if (extrapolated)
    d.wallWeights.use({&d.x, &d.samples}).set("samples", static_cast<unsigned>(allSamples())).run(allSamples());
  d.density.use({&d.x, &d.aux, &d.wallGrad, &d.samples}).set("extrapolated", extrapolated).run(m_n);
}

template <int D>
void GpuDfsphSolver<D>::predictError(Solve solve) {
  Device& d = *m_device;
  d.predict.use({&d.x, &d.v, &d.aux, &d.wallGrad, &d.solve})
      .set("rate", solve == Solve::Divergence ? 1 : 0)
      .set("maxCorrection", static_cast<float>(DfsphSolver<D>::kMaxCorrection))
      .run(m_n);
}

template <int D>
void GpuDfsphSolver<D>::updateWallKappa(bool restart, bool hydrostatic) {
  if (!m_params.extrapolatedWalls) return;
  Device& d = *m_device;
  d.wallKappa.use({&d.x, &d.solve, &d.samples})
      .set("samples", static_cast<unsigned>(allSamples()))
      .set("restart", restart ? 1 : 0)
      .set("hydrostatic", hydrostatic ? 1 : 0)
      .run(allSamples());
}

template <int D>
void GpuDfsphSolver<D>::push() {
  Device& d = *m_device;
  d.push.use({&d.x, &d.v, &d.solve, &d.wallGrad, &d.samples})
      .set("extrapolated", m_params.extrapolatedWalls ? 1 : 0)
      .run(m_n);
}

// The warm start (physics.md (6.9), dfsph.cpp startWarm): its stiffness, the push to
// apply and, with the walls, kappa_b from 0.
template <int D>
void GpuDfsphSolver<D>::startWarm(double dt, Solve solve, WarmErrors errors) {
  Device& d = *m_device;
  const bool rate = solve == Solve::Divergence;
  const double warm = rate ? m_params.warmStartDivergence : m_params.warmStart * m_kappaStepShare;
  const bool onlyCompressed = !rate;
  const bool fromDivergence = warm > 0.0 && onlyCompressed && errors == WarmErrors::FromDivergenceSolve;
  if (warm > 0.0 && onlyCompressed && errors == WarmErrors::Predicted) predictError(solve);
  d.warm.use({&d.aux, &d.solve})
      .set("rate", rate ? 1 : 0)
      .set("fromDivergence", fromDivergence ? 1 : 0)
      .set("warmFraction", static_cast<float>(warm))
      .set("storedPerApplied", static_cast<float>(rate ? dt : 1.0))
      .set("maxCorrection", static_cast<float>(DfsphSolver<D>::kMaxCorrection))
      .set("minDensity", static_cast<float>(DfsphSolver<D>::kWarmStartMinDensity))
      .run(m_n);
  updateWallKappa(true, !rate);
}

// Projected Jacobi sweeps until the predicted error is within tolerance (dfsph.cpp sweeps).
template <int D>
typename GpuDfsphSolver<D>::SweepResult GpuDfsphSolver<D>::sweeps(double dt, const SweepOptions& options) {
  Device& d = *m_device;
  const bool rate = options.solve == Solve::Divergence;
  if (!options.warmStarted) {
    startWarm(dt, options.solve, WarmErrors::Predicted);
    push();
  }
  const bool accelerate = !rate && m_params.chebyshev > 0.0;
  const double rho2 = m_params.chebyshev * m_params.chebyshev;
  double weight = 1.0;
  SweepResult result;
  const int errorComponent = 3;
  while (true) {
    predictError(options.solve);
    const ScalarReducer::Sums e = d.errors.sum(d.solve, m_n, errorComponent);
    result.meanError = m_n > 0 ? e.positiveSum / static_cast<double>(m_n) : 0.0;
    result.maxError = e.rawMax;
    const bool converged = result.meanError <= options.tolerance && e.positiveMax <= 10.0 * options.tolerance;
    if ((converged && result.iterations >= options.minIterations) || result.iterations >= options.maxIterations)
      break;
    if (accelerate)
      weight = result.iterations == 0 ? 1.0 : result.iterations == 1 ? 2.0 / (2.0 - rho2) : 4.0 / (4.0 - rho2 * weight);
    d.jacobi.use({&d.aux, &d.solve})
        .set("rate", rate ? 1 : 0)
        .set("weight", static_cast<float>(weight))
        .set("storedPerApplied", static_cast<float>(rate ? dt : 1.0))
        .run(m_n);
    updateWallKappa(false, !rate);
    push();
    ++result.iterations;
  }
  pushBodies(dt);
  return result;
}

// The solve's push through the bodies' samples (dfsph_body_push.comp), from its totals.
template <int D>
void GpuDfsphSolver<D>::pushBodies(double dt) {
  Device& d = *m_device;
  if (!m_bodies) return;
  d.bodyPush.use({&d.x, &d.solve, &d.samples, &d.bodyImpulses})
      .set("massDt", static_cast<float>(m_mass * dt))
      .set("extrapolated", m_params.extrapolatedWalls ? 1 : 0)
      .run(d.solids.size());
}

template <int D>
void GpuDfsphSolver<D>::gatherNear(std::span<const Vec<D>> centres, std::span<const double> radii,
                                   ParticleSet<D>& near) {
  onComputeThread([&] { m_device->near.gather(m_device->x, m_device->v, m_n, m_mass, centres, radii, near); });
}

template <int D>
bool GpuDfsphSolver<D>::columnTops(double width, std::span<const Vec<D>> centres, std::span<const double> radii,
                                   std::vector<double>& tops) const {
  onComputeThread([&] { m_device->near.columnTops(m_device->x, m_n, m_box, width, centres, radii, tops); });
  return true;
}

// The contacts changed velocities: the moments (the next step's dt, the figures) follow.
template <int D>
void GpuDfsphSolver<D>::scatterNear(const ParticleSet<D>& near) {
  onComputeThread([&] {
    m_device->near.scatter(near, m_device->x, m_device->v);
    sumMoments();
  });
}

// [BK17] Algorithm 2. Returns whether it ran.
template <int D>
bool GpuDfsphSolver<D>::divergenceSolve(double dt, SolverReport& report) {
  if (!m_params.divergenceSolve || m_params.maxDivergenceIterations == 0) {
    report.divergenceIterations = 0;
    return false;
  }
  const SweepResult r = sweeps(dt, {.solve = Solve::Divergence,
                                    .minIterations = 1,
                                    .maxIterations = m_params.maxDivergenceIterations,
                                    .tolerance = 0.01 * m_params.maxDivergenceError});
  report.divergenceIterations = r.iterations;
  report.divergenceMax = r.meanError;
  return true;
}

// physics.md (6.10): gravity, the frame, viscosity, XSPH and the warm push.
template <int D>
void GpuDfsphSolver<D>::forcesAndWarmPush(double dt, bool warmStarted) {
  Device& d = *m_device;
  const int extrapolated = m_params.extrapolatedWalls ? 1 : 0;
  d.forces.use({&d.x, &d.v, &d.vNext, &d.solve, &d.wallGrad, &d.samples})
      .set("viscous", static_cast<float>(dt * 2.0 * (D + 2) * m_params.viscosity))
      .set("pushScale", static_cast<float>(warmStarted ? dt : 0.0))
      .set("warmStarted", warmStarted ? 1 : 0)
      .set("extrapolated", extrapolated)
      .run(m_n);
  d.v.swap(d.vNext);
}

// [BK17] Algorithm 3.
template <int D>
void GpuDfsphSolver<D>::densitySolve(double dt, SolverReport& report, bool warmStarted) {
  const SweepResult r =
      sweeps(dt, {.solve = Solve::Density,
                  .minIterations = m_params.minIterations,
                  .maxIterations = m_params.maxIterations,
                  .tolerance = DfsphSolver<D>::kDensityTargetShare * 0.01 * m_params.maxDensityError,
                  .warmStarted = warmStarted});
  report.iterations = r.iterations;
  report.densityErrorMean = r.meanError;
  report.residual = r.meanError;
  report.densityErrorMax = r.maxError;
  m_kappaStepShare = existingErrorShare(dt);
}

template <int D>
void GpuDfsphSolver<D>::integrate() {
  m_device->integrate.use({&m_device->x, &m_device->v}).run(m_n);
}

template <int D>
void GpuDfsphSolver<D>::sumMoments() {
  Device& d = *m_device;
  m_moments = d.moments.sum(d.x, d.v, d.aux, m_n, m_mass, 2, 1.0f).moments;
}

template <int D>
void GpuDfsphSolver<D>::download(ParticleSet<D>& p) const {
  onComputeThread([&] { downloadParticles<D>(m_device->x, m_device->v, m_n, m_mass, p); });
}

template <int D>
void GpuDfsphSolver<D>::upload(const ParticleSet<D>& p) {
  onComputeThread([&] {
    uploadState(p, nullptr, nullptr, nullptr);
    sumMoments();
  });
}

// Density rho0 rho~, pressure (kappa + kappa_v / dt) rho0 rho~^2 (6.11), vorticity (7.9);
// in the order of download().
template <int D>
bool GpuDfsphSolver<D>::field(FieldKind kind, const ParticleSet<D>&, std::span<float> out) const {
  bool known = true;
  onComputeThread([&] {
    const double rho0 = m_params.restDensity;
    const std::size_t n = std::min(m_n, out.size());
    if (kind == FieldKind::Density || kind == FieldKind::Pressure) {
      const std::vector<float> aux = readBuffer<float>(m_device->aux, 4 * m_n);
      const double toApplied = m_lastDt > 0.0 ? 1.0 / m_lastDt : 0.0;
      for (std::size_t i = 0; i < n; ++i) {
        const double rho = aux[4 * i + 2], kappa = aux[4 * i] + aux[4 * i + 1] * toApplied;
        out[i] = static_cast<float>(kind == FieldKind::Density ? rho0 * rho : kappa * rho0 * rho * rho);
      }
    } else if (kind == FieldKind::Vorticity) {
      const Device& d = *m_device;
      vorticityField<D>(d.vorticity, d.step, d.sort, d.x, d.v, m_device->omega, m_n, out);
    } else {
      known = false;
    }
  });
  return known;
}

// The window's frame from device memory (draw_frame.h): the fields of field() and the speed.
template <int D>
bool GpuDfsphSolver<D>::drawFrame(FieldKind kind, DeviceDrawTarget& target, DeviceDrawFrame& out) const {
  if (!m_device) return false;
  Device& d = *m_device;
  const float rho0 = static_cast<float>(m_params.restDensity);
  const float toApplied = m_lastDt > 0.0 ? static_cast<float>(1.0 / m_lastDt) : 0.0f;
  SolverFields fields{&d.x, &d.v, m_n,
                      {DrawSource::Product, &d.aux, 2, 2, 2, false, rho0, 0.0f},  // rho0 rho~
                      // rho0 (kappa + kappa_v / dt) rho~^2, as field() (6.6)
                      {DrawSource::Product, &d.aux, 0, 1, 2, true, rho0, toApplied},
                      [&] {
                        computeVorticity(d.vorticity, d.step, d.sort, d.x, d.v, d.omega, m_n);
                        return &d.omega;
                      }};
  return drawSolverFrame(D, kind, target, fields, out);
}

// The two solves' warm starts with the share of a step the density one was solved in,
// the last dt and the density ratio (the CPU twin's, less its lists); loading sends
// the particles to the device.
template <int D>
void GpuDfsphSolver<D>::exchangeState(StateArchive& ar, ParticleSet<D>& p) {
  std::vector<double> kappa(p.size(), 0.0), kappaV(p.size(), 0.0), rho(p.size(), 1.0);
  if (!ar.loading())
    onComputeThread([&] {
      const std::vector<float> aux = readBuffer<float>(m_device->aux, 4 * m_n);
      for (std::size_t i = 0; i < m_n; ++i) kappa[i] = aux[4 * i], kappaV[i] = aux[4 * i + 1], rho[i] = aux[4 * i + 2];
    });
  ar.channel(kappa, p.size(), "the density solver's stiffness");
  ar.channel(kappaV, p.size(), "the divergence solver's stiffness");
  ar.value(m_kappaStepShare, "the share of a step of the last density solve");
  ar.value(m_lastDt, "the last time step");
  ar.channel(rho, p.size(), "the density ratio");
  if (!ar.loading()) return;
  onComputeThread([&] {
    uploadState(p, &kappa, &kappaV, &rho);
    sumMoments();
  });
}

// The outlet's hole opened or closed (physics.md (14.3)): the walls' test and samples
// follow it through the Step block.
template <int D>
void GpuDfsphSolver<D>::setOpening(ParticleSet<D>&, const WallOpening<D>& opening) {
  onComputeThread([&] {
    m_solids.setOpening(opening);
    SolidSamples<D>::setOpening(opening, m_device->step.values);
    m_device->step.upload();
  });
}

// Particles added or removed (Solver::particlesChanged): each keeps its two stiffnesses
// and density ratio from before; a new one starts from none and rho~ = 1.
template <int D>
void GpuDfsphSolver<D>::particlesChanged(ParticleSet<D>& p, std::span<const std::int64_t> origin) {
  onComputeThread([&] {
    const std::vector<float> old = readBuffer<float>(m_device->aux, 4 * m_n);
    std::vector<double> kappa(p.size(), 0.0), kappaV(p.size(), 0.0), rho(p.size(), 1.0);
    for (std::size_t i = 0; i < p.size() && i < origin.size(); ++i) {
      const std::int64_t o = origin[i];
      if (o < 0 || static_cast<std::size_t>(o) >= m_n) continue;
      kappa[i] = old[4 * o], kappaV[i] = old[4 * o + 1], rho[i] = old[4 * o + 2];
    }
    uploadState(p, &kappa, &kappaV, &rho);
    sumMoments();
  });
}

template class GpuDfsphSolver<2>;
template class GpuDfsphSolver<3>;

}  // namespace sloshlab::gpu
