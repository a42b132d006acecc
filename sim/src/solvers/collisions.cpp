#include "solvers/collisions.h"

#include "containment.h"
#include "io/state_archive.h"

#include "sph/particle_sort.h"

#include <algorithm>
#include <cmath>

namespace sloshlab {

template <int D>
const ParamTable& CollisionSolver<D>::paramTable() {
  using P = CollisionParams;
  static const ParamInfo entries[] = {
      {"restitution", "Restitution", "1", "Collisions", SLOSHLAB_PARAM_FIELD(P, restitution), 0.0, 1.0, false,
       "e in v1' = v1 - (1+e) m2/(m1+m2) <v12, x12>/|x12|^2 x12; e = 1 keeps kinetic energy"},
      {"wall_restitution", "Wall restitution", "1", "Walls", SLOSHLAB_PARAM_FIELD(P, wallRestitution), 0.0, 1.0,
       false, "e_w in |v_n'| = e_w sqrt(v_n^2 + 2 (a.n) l): the rebound pays for the lift l out of the wall"},
      {"wall_friction", "Wall friction", "1", "Walls", SLOSHLAB_PARAM_FIELD(P, wallFriction), 0.0, 2.0, false,
       "mu in v_t' = max(0, 1 - mu |v_n' - v_n|/|v_t|) v_t [BFA02]"},
      {"radius", "Radius / spacing", "1", "Collisions", SLOSHLAB_PARAM_FIELD(P, radius), 0.1, 0.5, false,
       "sphere radius r as a fraction of the spacing; contact when |x1 - x2| < 2r"},
      {"drag", "Air drag", "1/s", "Forces", SLOSHLAB_PARAM_FIELD(P, drag), 0.0, 50.0, false,
       "c in a = -c (v - v_wind)"},
      {"wind_x", "Wind x", "m/s", "Forces", SLOSHLAB_PARAM_FIELD(P, windX), -20.0, 20.0, false,
       "x component of v_wind (world frame) in the drag a = -c (v - v_wind)"},
      {"wind_y", "Wind y", "m/s", "Forces", SLOSHLAB_PARAM_FIELD(P, windY), -20.0, 20.0, false,
       "y component of v_wind (world frame) in the drag a = -c (v - v_wind)"},
      {"gravity", "Gravity", "", "Forces", SLOSHLAB_PARAM_FIELD(P, gravity), 0.0, 1.0, false,
       "adds the scene's g to a; off gives a gas in free fall's frame"},
      {"cfl", "CFL number", "1", "Time step", SLOSHLAB_PARAM_FIELD(P, cfl), 0.01, 0.5, false,
       "dt = cfl r/|v|max: no sphere crosses more than a fraction of its radius per step"},
  };
  static const ParamTable table{"collisions", entries};
  return table;
}

template <int D>
void CollisionSolver<D>::collide(Vec<D>& v1, Vec<D>& v2, double m1, double m2, const Vec<D>& x1, const Vec<D>& x2,
                                 double restitution) {
  const Vec<D> n = x1 - x2;
  const double n2 = lengthSquared<D>(n);
  if (n2 <= 0.0) return;
  const double approach = glm::dot(v1 - v2, n) / n2;  // < 0 when approaching
  if (approach >= 0.0) return;
  const double k = (1.0 + restitution) * approach / (m1 + m2);
  v1 -= (k * m2) * n;
  v2 += (k * m1) * n;
}

template <int D>
void CollisionSolver<D>::reset(ParticleSet<D>& p, const SolverSetup<D>& setup) {
  m_box = setup.boxSize;
  m_solids = setup.solids;
  m_spacing = setup.spacing;
  std::fill(p.m.begin(), p.m.end(), 1000.0 * std::pow(m_spacing, D));
  paramsChanged(p);
}

template <int D>
void CollisionSolver<D>::paramsChanged(ParticleSet<D>& p) {
  m_radius = m_params.radius * m_spacing;
  p.radius = m_radius;
  m_grid.configure(Vec<D>(0.0), m_box, 2.0 * m_radius);
}

template <int D>
double CollisionSolver<D>::maxTimeStep(const ParticleSet<D>& p, const StepContext<D>& ctx) const {
  const double vmax = maxSpeed<D>(p.v);
  const double a = ctx.frame.bound(m_box, vmax) + m_params.drag * vmax;
  double dt = 1.0 / 60.0;
  if (vmax > 0.0) dt = std::min(dt, m_params.cfl * m_radius / vmax);
  if (a > 0.0) dt = std::min(dt, m_params.cfl * std::sqrt(m_radius / a));
  return dt;
}

template <int D>
void CollisionSolver<D>::step(ParticleSet<D>& p, const StepContext<D>& ctx, SolverReport& report) {
  PhaseClock clock;
  const FrameMotion<D> frame = accelerations(ctx);
  integrate(p, ctx, frame);
  clock.lap(report, "integrate");
  const Vec<D> impulse = resolveWalls(p, frame);
  // Report the walls' impulse in the world frame (momentum balance checks).
  report.wallImpulse = toVec3<D>(rotateBy<D>(ctx.rotation, impulse));
  clock.lap(report, "walls");
  sortByCell(m_grid, p);
  m_pairs.build<D>(m_grid, p.x, p.x, 2.0 * m_radius, true);
  clock.lap(report, "pairs");
  report.collisions = resolvePairs(p);
  clock.lap(report, "collide");
}

// The frame's accelerations (8.3), with g dropped when the gravity switch is off (-A kept).
template <int D>
FrameMotion<D> CollisionSolver<D>::accelerations(const StepContext<D>& ctx) const {
  FrameMotion<D> frame = ctx.frame;
  if (!m_params.gravity) frame.gravityMinusA -= frame.gravity;
  return frame;
}

// Flight under the acceleration a of the step's start, exact for a constant one (1.5a):
// x += dt v + dt^2 a / 2, v += dt a. With the frame's accelerations and air drag
// a = -c (v_world - v_wind), written in the container frame (physics.md (1.5)).
template <int D>
void CollisionSolver<D>::integrate(ParticleSet<D>& p, const StepContext<D>& ctx, const FrameMotion<D>& frame) {
  const double dt = ctx.dt;
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  const Vec<D> wind = rotateByInverse<D>(ctx.rotation, fromVec3<D>(Vec3(m_params.windX, m_params.windY, 0.0)));
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    Vec<D> a = frame.acceleration(p.x[i], p.v[i]);
    if (m_params.drag > 0.0) {
      const Vec<D> vWorld = ctx.frameVelocity + p.v[i] + frame.rimVelocity(p.x[i]);
      a -= m_params.drag * (vWorld - wind);
    }
    p.x[i] += dt * (p.v[i] + (0.5 * dt) * a);
    p.v[i] += dt * a;
  }
}

// Collider response of physics.md section 2, (2.1)-(2.4), for the six (four) still walls.
// The projection (2.1) lifts a sphere by its overlap against the acceleration, and the
// rebound pays for that lift (2.2a), so an elastic bounce under gravity keeps its energy.
template <int D>
Vec<D> CollisionSolver<D>::resolveWalls(ParticleSet<D>& p, const FrameMotion<D>& frame) {
  const double r = m_radius, e = m_params.wallRestitution, mu = m_params.wallFriction;
  Vec<D> impulse(0.0);
  for (std::size_t i = 0; i < p.size(); ++i) {
    Vec<D>& x = p.x[i];
    Vec<D>& v = p.v[i];
    for (int k = 0; k < D; ++k) {
      double normal = 0.0, lift = 0.0;
      if (passesWall<D>(m_solids.opening(), k, x, m_box, r)) continue;  // out through the outlet (14.3)
      if (x[k] < r) lift = r - x[k], x[k] = r, normal = 1.0;
      else if (x[k] > m_box[k] - r) lift = x[k] - (m_box[k] - r), x[k] = m_box[k] - r, normal = -1.0;
      if (normal == 0.0 || v[k] * normal >= 0.0) continue;
      const Vec<D> before = v;
      const double vn = v[k];
      Vec<D> vt = v;
      vt[k] = 0.0;
      const double an = normal * frame.acceleration(x, v)[k];  // < 0: pressed onto the wall
      const double vnNew = normal * e * std::sqrt(std::max(0.0, vn * vn + 2.0 * an * lift));
      const double vtLen = glm::length(vt);
      if (vtLen > 0.0) vt *= std::max(0.0, 1.0 - mu * std::abs(vnNew - vn) / vtLen);
      v = vt;
      v[k] = vnNew;
      impulse += p.m[i] * (v - before);
    }
    if (!m_solids.empty()) impulse += p.m[i] * resolveObstacle(x, v, frame);
  }
  return impulse;
}

// The same response against the obstacles (solids.h), along the nearest one's normal
// (physics.md (15.2)); returns the change of velocity.
template <int D>
Vec<D> CollisionSolver<D>::resolveObstacle(Vec<D>& x, Vec<D>& v, const FrameMotion<D>& frame) const {
  const double r = m_radius, e = m_params.wallRestitution, mu = m_params.wallFriction;
  Vec<D> n;
  const double d = m_solids.distance(x, n);
  if (!(d < r)) return Vec<D>(0.0);
  const double lift = r - d;
  x += lift * n;
  const double vn = glm::dot(v, n);
  if (vn >= 0.0) return Vec<D>(0.0);
  const Vec<D> before = v;
  Vec<D> vt = v - vn * n;
  const double an = glm::dot(n, frame.acceleration(x, v));
  const double vnNew = e * std::sqrt(std::max(0.0, vn * vn + 2.0 * an * lift));
  const double vtLen = glm::length(vt);
  if (vtLen > 0.0) vt *= std::max(0.0, 1.0 - mu * std::abs(vnNew - vn) / vtLen);
  v = vt + vnNew * n;
  return v - before;
}

template <int D>
int CollisionSolver<D>::resolvePairs(ParticleSet<D>& p) {
  int collisions = 0;
  const double contact = 2.0 * m_radius;
  for (std::size_t i = 0; i < p.size(); ++i) {
    for (std::uint32_t j : m_pairs[i]) {
      if (j <= i) continue;
      const Vec<D> before = p.v[i];
      collide(p.v[i], p.v[j], p.m[i], p.m[j], p.x[i], p.x[j], m_params.restitution);
      if (p.v[i] != before) ++collisions;
      // Separate the overlap along the normal, weighted by the other's mass:
      // physics.md (1.4).
      const Vec<D> d = p.x[i] - p.x[j];
      const double dist = glm::length(d);
      if (dist > 0.0 && dist < contact) {
        const Vec<D> push = ((contact - dist) / (dist * (p.m[i] + p.m[j]))) * d;
        p.x[i] += p.m[j] * push;
        p.x[j] -= p.m[i] * push;
      }
    }
  }
  for (std::size_t i = 0; i < p.size(); ++i) {
    Vec<D> still(0.0);
    keepInside<D>(p.x[i], still, m_box, 0.0, m_solids.opening());
    // A pair's separation may push a sphere into an obstacle: back out to its surface.
    if (!m_solids.empty() && m_solids.pushOut(p.x[i], still, 0.0))
      keepInside<D>(p.x[i], still, m_box, 0.0, m_solids.opening());
  }
  return collisions;
}

// Nothing outlives a step: the grid and the contact pairs are rebuilt in every one.
template <int D>
void CollisionSolver<D>::exchangeState(StateArchive&, ParticleSet<D>&) {}

template class CollisionSolver<2>;
template class CollisionSolver<3>;

}  // namespace sloshlab
