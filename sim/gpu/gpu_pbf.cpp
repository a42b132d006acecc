#include "gpu_pbf.h"

#include "draw_frame.h"
#include "sloshlab/gpu_kernel_timing.h"

#include "io/state_archive.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace sloshlab::gpu {

template <int D>
GpuPbfSolver<D>::Device::Device(int dim)
    : sort(dim),
      predict(dim, {"common.glsl", "pbf_predict.comp"}),
      constraint(dim, {"common.glsl", "neighbours.glsl", "pbf_constraint.comp"}),
      correct(dim, {"common.glsl", "neighbours.glsl", "pbf_correct.comp"}),
      chebyshev(dim, {"common.glsl", "pbf_chebyshev.comp"}),
      density(dim, {"common.glsl", "neighbours.glsl", "pbf_density.comp"}),
      velocity(dim, {"common.glsl", "pbf_velocity.comp"}),
      vorticity(dim, {"common.glsl", "neighbours.glsl", "sph_vorticity.comp"}),
      confine(dim, {"common.glsl", "neighbours.glsl", "pbf_confine.comp"}),
      xsph(dim, {"common.glsl", "neighbours.glsl", "pbf_xsph.comp"}),
      bodyPush(dim, {"common.glsl", "neighbours.glsl", "pbf_body_push.comp"}),
      reduce(dim),
      near(dim) {}

template <int D>
GpuPbfSolver<D>::GpuPbfSolver() : m_params(PbfSolver<D>::defaults()) {
  onComputeThread([this] { m_device = std::make_unique<Device>(D); });
}

template <int D>
GpuPbfSolver<D>::~GpuPbfSolver() {
  deleteOnComputeThread([this] { m_device.reset(); });
}

template <int D>
void GpuPbfSolver<D>::reset(ParticleSet<D>& p, const SolverSetup<D>& setup) {
  onComputeThread([&] {
    m_solids = setup.solids;
    m_box = setup.boxSize;
    m_spacing = setup.spacing;
    m_lastDt = 0.0;
    paramsChanged(p);
    const std::vector<double> kappa(p.size(), 0.0), rho(p.size(), 1.0);
    upload(p, &kappa, &rho);
    sumMoments(nullptr);
  });
}

// What the parameters fix, as the CPU twin derives it (pbf.cpp paramsChanged, SphBasis):
// h, the calibrated mass (4.5), a_ref and lambda_ref = 1/a_ref, the boundary samples'
// volume, and the sort's grid; all of it into the Step block.
template <int D>
void GpuPbfSolver<D>::paramsChanged(ParticleSet<D>& p) {
  onComputeThread([&] {
    m_h = m_params.support * m_spacing;
    StepUniforms& u = m_device->step.values;
    const SphSizes sizes =
        configureSph<D>(u, m_box, m_spacing, m_h, m_params.restDensity, m_h * (1.0 + kSkin));
    m_mass = sizes.mass, m_cells = sizes.cells;
    std::fill(p.m.begin(), p.m.end(), m_mass);
    const double V = sizes.volume;
    const CubicSpline<D> kernel(m_h);
    double aRef = 0.0;
    for (const Vec<D>& r : latticeNeighbourhood<D>(m_spacing, m_h)) aRef += lengthSquared<D>(V * kernel.gradW(r));
    m_lambdaRef = aRef > 0.0 ? 1.0 / aRef : 0.0;
    u.damping = static_cast<float>(m_params.damping);
    u.relax = static_cast<float>(m_params.omega);
    u.eps = static_cast<float>(m_params.epsilon / std::max(m_lambdaRef, 1e-300));
    u.invWdq = static_cast<float>(1.0 / kernel.W(m_params.tensileDq * m_h));
    u.xsph = static_cast<float>(m_params.xsph * V);
    u.n = static_cast<std::uint32_t>(m_n);
    m_device->solids.setObstacles(m_solids, m_spacing, m_h, m_box, u);
    m_device->step.upload();
    if (m_n > 0) sumMoments(nullptr);  // the mass may have changed
  });
}

// x (the number in w), v and, where given, kappa and rho~ into aux; the rest keeps.
template <int D>
void GpuPbfSolver<D>::upload(const ParticleSet<D>& p, const std::vector<double>* kappa,
                             const std::vector<double>* rho) {
  Device& d = *m_device;
  m_n = uploadParticles<D>(p, d.x, d.v);
  const std::size_t bytes = 16 * m_n;
  if (kappa && rho) {
    std::vector<float> aux(4 * m_n, 0.0f);
    for (std::size_t i = 0; i < m_n; ++i)
      aux[4 * i] = static_cast<float>((*kappa)[i]), aux[4 * i + 1] = static_cast<float>((*rho)[i]);
    d.aux.upload(aux.data(), bytes);
  }
  for (Buffer* b : {&d.xOld, &d.wallGrad, &d.xNext, &d.xPrev, &d.omega, &d.sortedA, &d.sortedB, &d.positionAndDLambda})
    b->reserve(bytes);
  for (Buffer* b : {&d.lambdaNow, &d.lambdaPrev}) b->reserve(4 * m_n);
  d.step.values.n = static_cast<std::uint32_t>(m_n);
  d.step.upload();
}

// The sub-steps of a 1/60 s frame, fewer where the flow is fast or deep (pbf.cpp, physics.md
// (9.6), (9.6a)), from the fastest particle and the depth of the last step's moments.
template <int D>
double GpuPbfSolver<D>::maxTimeStep(const ParticleSet<D>&, const StepContext<D>& ctx) const {
  const double vmax = std::sqrt(m_moments.maxSpeedSquared);
  const double frame =
      PbfSolver<D>::frameSubStep(m_params, PbfSolver<D>::weightStep(m_params, m_h, m_moments, ctx.frame.gravityMinusA));
  m_nominalDt = vmax > 0.0 ? std::min(frame, m_params.cfl * m_spacing / vmax) : frame;
  return m_nominalDt;
}

template <int D>
void GpuPbfSolver<D>::step(ParticleSet<D>&, const StepContext<D>& ctx, SolverReport& report) {
  onComputeThread([&] {
    PhaseClock clock;
    Device& d = *m_device;
    d.solids.upload(ctx.bodies, d.step.values);  // the Step block goes up in setFrame
    d.solids.bind();
    m_bodies = ctx.bodies != nullptr && ctx.bodies->size() > 0;
    if (ctx.bodies) {
      ctx.bodies->restDensity = m_params.restDensity;
      d.bodyPushes.reserve(32 * std::max<std::size_t>(d.solids.size(), 1));
      d.bodyPushes.fillZero();
    }
    setFrame(ctx);
    predictPositions();
    sortByCell();
    solveDensityConstraints();
    measureDensity();
    updateVelocities();
    vorticityConfinement();
    xsphViscosity();
    // The read-back waits for the device: the lap is the step's whole device time.
    sumMoments(&report);
    if (m_bodies) d.solids.addImpulses(d.bodyPushes, 2, *ctx.bodies);
    clock.lap(report, "gpu step");
    collectKernelTimes();  // the benchmark's profile, where it is on
    report.iterations = m_params.iterations;
    m_lastDt = ctx.dt;
  });
}

// The step's frame motion and the factors that depend on dt (pbf.cpp: the share of the
// start's density error removed in a short step, the warm start, s_corr's scale).
template <int D>
void GpuPbfSolver<D>::setFrame(const StepContext<D>& ctx) {
  StepUniforms& u = m_device->step.values;
  const double dt = ctx.dt;
  setStepFrame<D>(u, ctx);
  u.share = static_cast<float>(std::min(1.0, dt / (m_nominalDt > 0.0 ? m_nominalDt : subStep())));
  u.warm = static_cast<float>(m_params.warmStart * dt * dt);
  const double ratio = std::min(1.0, dt / subStep());
  u.tensile = static_cast<float>(m_params.omega * m_params.tensileK * m_lambdaRef * ratio * ratio);
  u.vorticity = static_cast<float>(m_params.vorticity * dt);
  m_device->step.upload();
}

// v += dt (a - zeta v), x* = x + dt v (7.1).
template <int D>
void GpuPbfSolver<D>::predictPositions() {
  m_device->predict.use({&m_device->x, &m_device->v, &m_device->xOld}).run(m_n);
}

// The counting sort at the predicted positions, then every array that lives across the
// step into the new order: x, v, x_old and aux (kappa and rho~ carry over).
template <int D>
void GpuPbfSolver<D>::sortByCell() {
  m_device->sort.sort(m_device->x, m_n, m_cells);
  m_device->sort.gather(m_device->x, m_device->sortedA, &m_device->v, &m_device->sortedB, m_n);
  m_device->x.swap(m_device->sortedA);
  m_device->v.swap(m_device->sortedB);
  m_device->sort.gather(m_device->xOld, m_device->sortedA, &m_device->aux, &m_device->sortedB, m_n);
  m_device->xOld.swap(m_device->sortedA);
  m_device->aux.swap(m_device->sortedB);
  m_device->sort.buildLists(m_device->x, m_n, m_device->step.values.listCapacity);
}

// The warm start (7.7), then the projected Jacobi sweeps (7.2)-(7.6) with the Chebyshev
// weights (7.11) where rho > 0: the CPU twin's solveDensityConstraints and chebyshevStep.
template <int D>
void GpuPbfSolver<D>::solveDensityConstraints() {
  Device& d = *m_device;
  auto constraint = [&](int warmStart) {
    d.constraint.use({&d.x, &d.aux, &d.wallGrad, &d.lambdaNow, &d.positionAndDLambda})
        .set("warmStart", warmStart)
        .run(m_n);
  };
  auto correct = [&](float sCorr) {
    d.correct.use({&d.x, &d.xNext, &d.positionAndDLambda, &d.wallGrad}).set("sCorr", sCorr).run(m_n);
    d.x.swap(d.xNext);
  };
  constraint(1);
  correct(0.0f);
  pushBodies(false, 1.0);
  const double rho = m_params.chebyshev;
  double weight = 1.0;
  for (int it = 0; it < m_params.iterations; ++it) {
    constraint(0);                  // lambdaNow: the multipliers before this sweep
    correct(d.step.values.tensile);  // xNext: the positions before it
    if (rho <= 0.0) {
      pushBodies(false, 1.0);
      continue;
    }
    if (it >= 1) {  // kChebyshevStart of the CPU twin
      weight = it == 1 ? 2.0 / (2.0 - rho * rho) : 4.0 / (4.0 - rho * rho * weight);
      d.chebyshev.use({&d.x, &d.xPrev, &d.aux, &d.lambdaPrev}).set("weight", static_cast<float>(weight)).run(m_n);
    }
    pushBodies(it >= 1, weight);
    d.xPrev.swap(d.xNext);
    d.lambdaPrev.swap(d.lambdaNow);
  }
}

// The sweep's impulses on the bodies' samples (pbf_body_push.comp), from the multipliers'
// increments and the positions the constraint pass left in positionAndDLambda.
template <int D>
void GpuPbfSolver<D>::pushBodies(bool accelerate, double weight) {
  Device& d = *m_device;
  if (!m_bodies) return;
  d.bodyPush.use({&d.positionAndDLambda, &d.bodyPushes})
      .set("massOverDt", static_cast<float>(m_mass / d.step.values.dt))
      .set("weight", static_cast<float>(weight))
      .set("accelerate", accelerate ? 1 : 0)
      .run(d.solids.size());
}

template <int D>
void GpuPbfSolver<D>::gatherNear(std::span<const Vec<D>> centres, std::span<const double> radii,
                                 ParticleSet<D>& near) {
  onComputeThread([&] { m_device->near.gather(m_device->x, m_device->v, m_n, m_mass, centres, radii, near); });
}

template <int D>
bool GpuPbfSolver<D>::columnTops(double width, std::span<const Vec<D>> centres, std::span<const double> radii,
                                 std::vector<double>& tops) const {
  onComputeThread([&] { m_device->near.columnTops(m_device->x, m_n, m_box, width, centres, radii, tops); });
  return true;
}

// The contacts changed velocities: the moments (the next step's dt, the figures) follow.
template <int D>
void GpuPbfSolver<D>::scatterNear(const ParticleSet<D>& near) {
  onComputeThread([&] {
    m_device->near.scatter(near, m_device->x, m_device->v);
    sumMoments(nullptr);
  });
}

template <int D>
void GpuPbfSolver<D>::measureDensity() {
  m_device->density.use({&m_device->x, &m_device->aux}).run(m_n);
}

template <int D>
void GpuPbfSolver<D>::measureDensityNow() {
  onComputeThread([&] {
    m_device->solids.bind();  // the last step's, which its Step block counts
    sortByCell();
    measureDensity();
  });
}

template <int D>
void GpuPbfSolver<D>::updateVelocities() {
  m_device->velocity.use({&m_device->x, &m_device->xOld, &m_device->v}).run(m_n);
}

template <int D>
void GpuPbfSolver<D>::vorticityConfinement() {
  if (m_params.vorticity <= 0.0) return;
  m_device->vorticity.use({&m_device->x, &m_device->v, &m_device->omega}).run(m_n);
  m_device->confine.use({&m_device->x, &m_device->v, &m_device->omega}).run(m_n);
}

template <int D>
void GpuPbfSolver<D>::xsphViscosity() {
  if (m_params.xsph <= 0.0) return;
  m_device->xsph.use({&m_device->x, &m_device->v, &m_device->xNext}).run(m_n);
  m_device->v.swap(m_device->xNext);
}

// The moments (10.11) and the density error (10.7), max(rho~ - 1, 0) of aux.y.
template <int D>
void GpuPbfSolver<D>::sumMoments(SolverReport* report) {
  Device& d = *m_device;
  const MomentReducer::Sums sums = d.reduce.sum(d.x, d.v, d.aux, m_n, m_mass, 1, 1.0f);
  m_moments = sums.moments;
  if (report) {
    report->densityErrorMax = sums.positiveMax;
    report->densityErrorMean = m_n > 0 ? sums.positiveSum / static_cast<double>(m_n) : 0.0;
    report->residual = report->densityErrorMean;
  }
}

template <int D>
void GpuPbfSolver<D>::download(ParticleSet<D>& p) const {
  onComputeThread([&] { downloadParticles<D>(m_device->x, m_device->v, m_n, m_mass, p); });
}

// Density rho0 rho~, pressure rho0 rho~^2 kappa (7.7), vorticity (7.9); in the order of
// download().
template <int D>
bool GpuPbfSolver<D>::field(FieldKind kind, const ParticleSet<D>&, std::span<float> out) const {
  bool result = false;
  onComputeThread([&] {
    const double rho0 = m_params.restDensity;
    if (kind == FieldKind::Density || kind == FieldKind::Pressure) {
      const std::vector<float> aux = readBuffer<float>(m_device->aux, 4 * m_n);
      for (std::size_t i = 0; i < m_n && i < out.size(); ++i) {
        const double rho = aux[4 * i + 1], kappa = aux[4 * i];
        out[i] = static_cast<float>(kind == FieldKind::Density ? rho0 * rho : rho0 * kappa * rho * rho);
      }
      result = true;
      return;
    }
    if (kind == FieldKind::Vorticity) {
      const Device& d = *m_device;
      vorticityField<D>(d.vorticity, d.step, d.sort, d.x, d.v, m_device->omega, m_n, out);
      result = true;
      return;
    }
    result = false;
  });
  return result;
}

// The window's frame from device memory (draw_frame.h): the fields of field() and the speed.
template <int D>
bool GpuPbfSolver<D>::drawFrame(FieldKind kind, DeviceDrawTarget& target, DeviceDrawFrame& out) const {
  if (!m_device) return false;
  Device& d = *m_device;
  const float rho0 = static_cast<float>(m_params.restDensity);
  SolverFields fields{&d.x, &d.v, m_n,
                      {DrawSource::Product, &d.aux, 1, 1, 1, false, rho0, 0.0f},  // rho0 rho~
                      {DrawSource::Product, &d.aux, 0, 0, 1, true, rho0, 0.0f},   // rho0 kappa rho~^2 (7.7)
                      [&] {
                        computeVorticity(d.vorticity, d.step, d.sort, d.x, d.v, d.omega, m_n);
                        return &d.omega;
                      }};
  return drawSolverFrame(D, kind, target, fields, out);
}

// The pressure that warm-starts the next sub-step, the density ratio it starts from, the
// last dt (the CPU twin's, less its lists); loading sends the particles to the device.
template <int D>
void GpuPbfSolver<D>::exchangeState(StateArchive& ar, ParticleSet<D>& p) {
  onComputeThread([&] {
    std::vector<double> kappa(p.size(), 0.0), rho(p.size(), 1.0);
    if (!ar.loading()) {
      const std::vector<float> aux = readBuffer<float>(m_device->aux, 4 * m_n);
      for (std::size_t i = 0; i < m_n; ++i) kappa[i] = aux[4 * i], rho[i] = aux[4 * i + 1];
    }
    ar.channel(kappa, p.size(), "the pressure warm start");
    ar.channel(rho, p.size(), "the density ratio");
    ar.value(m_lastDt, "the last time step");
    if (!ar.loading()) return;
    upload(p, &kappa, &rho);
    sumMoments(nullptr);
  });
}

template <int D>
void GpuPbfSolver<D>::upload(const ParticleSet<D>& p) {
  onComputeThread([&] {
    upload(p, nullptr, nullptr);
    sumMoments(nullptr);
  });
}

// The outlet's hole opened or closed (physics.md (14.3)): the walls' test and samples
// follow it through the Step block.
template <int D>
void GpuPbfSolver<D>::setOpening(ParticleSet<D>&, const WallOpening<D>& opening) {
  onComputeThread([&] {
    m_solids.setOpening(opening);
    SolidSamples<D>::setOpening(opening, m_device->step.values);
    m_device->step.upload();
  });
}

// Particles added or removed (Solver::particlesChanged): each keeps its pressure warm
// start and density ratio from before; a new one starts from none and rho~ = 1.
template <int D>
void GpuPbfSolver<D>::particlesChanged(ParticleSet<D>& p, std::span<const std::int64_t> origin) {
  onComputeThread([&] {
    const std::vector<float> old = readBuffer<float>(m_device->aux, 4 * m_n);
    std::vector<double> kappa(p.size(), 0.0), rho(p.size(), 1.0);
    for (std::size_t i = 0; i < p.size() && i < origin.size(); ++i) {
      const std::int64_t o = origin[i];
      if (o < 0 || static_cast<std::size_t>(o) >= m_n) continue;
      kappa[i] = old[4 * o], rho[i] = old[4 * o + 1];
    }
    upload(p, &kappa, &rho);
    sumMoments(nullptr);
  });
}

template class GpuPbfSolver<2>;
template class GpuPbfSolver<3>;

}  // namespace sloshlab::gpu
