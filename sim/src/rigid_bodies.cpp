// The floating bodies' motion (physics.md §16): their step under gravity and the frame
// (16.3)-(16.4), contacts (16.7), the hand (16.10), and the momentum they trade with the
// liquid, contact by contact (16.5)-(16.6) and through the SPH solvers' samples
// (16.11)-(16.15). Their shapes are in body_shapes.cpp.
#include "rigid_bodies.h"

#include "containment.h"
#include "io/state_archive.h"
#include "sloshlab/params.h"

#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <stdexcept>

namespace sloshlab {

namespace {
// A point this close to a surface touches it (m): a body the contacts put back exactly on
// the floor is still resting on it, so the velocity the liquid then gives it into the
// floor is taken out.
constexpr double kTouching = 1e-7;
constexpr double kForceAveraging = 1.0 / 3.0;  // s: BodyView::meanFluidForce's time constant
}  // namespace

template <int D>
void RigidBodies<D>::configure(const std::vector<BodySpec>& specs, const Vec<D>& box, double spacing,
                               const Solids<D>& solids) {
  m_bodies.clear();
  m_spacing = spacing;
  m_sampleSpacing = m_sampleDepth = 0.0;
  for (std::size_t k = 0; k < specs.size(); ++k) {
    const std::string name = "body " + std::to_string(k + 1) + " (" + BodySpec::shapeName(specs[k].shape) + ")";
    Body b;
    b.spec = specs[k];
    if (!(b.spec.density > 0.0) || !std::isfinite(b.spec.density))
      throw std::runtime_error(name + ": its density must be positive");
    const double thin = bodyThinnest(b.spec, D);
    if (thin < 2.0 * spacing)
      throw std::runtime_error(name + " is " + formatNumber(thin) + " m thin, less than two particle spacings (" +
                               formatNumber(2.0 * spacing) + " m): the liquid would pass through it");
    b.x = atMidDepth<D>(b.spec.position, b.spec.hasDepth, D == 3 ? box[D - 1] : 0.0);
    b.v = fromVec3<D>(b.spec.velocity);
    const double c = std::cos(b.spec.angle), s = std::sin(b.spec.angle);
    b.R = Mat3(c, s, 0.0, -s, c, 0.0, 0.0, 0.0, 1.0);  // columns: the body's x and y axes
    derive(b);
    for (const Feature& f : b.features) {
      const Vec<D> p = b.x + rotateBy<D>(b.R, f.p);
      for (int a = 0; a < D; ++a)
        if (p[a] - f.radius < 0.0 || p[a] + f.radius > box[a])
          throw std::runtime_error(name + " does not fit inside the container where it is placed");
      if (!solids.empty() && solids.distance(p) < f.radius)
        throw std::runtime_error(name + " overlaps an obstacle where it is placed");
      for (const Body& other : m_bodies) {
        Vec<D> n;
        if (shapeDistance(other.spec, rotateByInverse<D>(other.R, p - other.x), n) < f.radius)
          throw std::runtime_error(name + " overlaps another body where it is placed");
      }
    }
    m_bodies.push_back(std::move(b));
  }
}

template <int D>
double RigidBodies<D>::distance(std::size_t k, const Vec<D>& x, Vec<D>& normal) const {
  const Body& b = m_bodies[k];
  Vec<D> local;
  const double phi = shapeDistance(b.spec, rotateByInverse<D>(b.R, x - b.x), local);
  normal = rotateBy<D>(b.R, local);
  return phi;
}

template <int D>
double RigidBodies<D>::distance(const Vec<D>& x) const {
  double best = std::numeric_limits<double>::infinity();
  Vec<D> n;
  for (std::size_t k = 0; k < m_bodies.size(); ++k) best = std::min(best, distance(k, x, n));
  return best;
}

template <int D>
Vec3 RigidBodies<D>::invInertiaTimes(const Body& b, const Vec3& t) const {
  if constexpr (D == 2) return Vec3(0.0, 0.0, t.z / b.inertia.z);
  const Vec3 local = glm::transpose(b.R) * t;
  return b.R * (local / b.inertia);
}

template <int D>
Vec<D> RigidBodies<D>::pointVelocity(const Body& b, const Vec<D>& x) const {
  return b.v + crossOmega<D>(b.w, x - b.x);
}

template <int D>
void RigidBodies<D>::applyImpulse(Body& b, const Vec<D>& x, const Vec<D>& j) const {
  b.v += b.invMass * j;
  b.w += invInertiaTimes(b, glm::cross(toVec3<D>(x - b.x), toVec3<D>(j)));
}

// (16.7): a contact at x along n (into a), `depth` deep. The normal impulse stops the
// approach (and, with `bounce`, reverses restitution of it); Coulomb friction at most
// mu times it; the depth is taken out of the positions in proportion to the inverse masses.
template <int D>
void RigidBodies<D>::resolveContact(Body& a, Body* b, const Vec<D>& x, const Vec<D>& n, double depth,
                                    bool bounce) const {
  noteTouch(a, n);
  if (b) noteTouch(*b, -n);
  const Vec3 ra = toVec3<D>(x - a.x), n3 = toVec3<D>(n);
  const auto along = [&](const Body& body, const Vec3& r, const Vec3& dir) {  // 1/m + (I^-1 (r x d) x r) . d
    return body.invMass + glm::dot(glm::cross(invInertiaTimes(body, glm::cross(r, dir)), r), dir);
  };
  const Vec<D> vRel = pointVelocity(a, x) - (b ? pointVelocity(*b, x) : Vec<D>(0.0));
  const double vn = glm::dot(vRel, n);
  const Vec3 rb = b ? toVec3<D>(x - b->x) : Vec3(0.0);
  if (vn < 0.0) {
    // A slow approach (resting under gravity) gets no bounce: it would jitter.
    const double e = bounce && vn < -0.05 ? m_restitution : 0.0;
    const double kn = along(a, ra, n3) + (b ? along(*b, rb, n3) : 0.0);
    const double jn = -(1.0 + e) * vn / kn;
    applyImpulse(a, x, jn * n);
    if (b) applyImpulse(*b, x, -jn * n);
    const Vec<D> vt = vRel - vn * n;
    const double speed = glm::length(vt);
    if (speed > 1e-12) {
      const Vec<D> t = vt / speed;
      const Vec3 t3 = toVec3<D>(t);
      const double kt = along(a, ra, t3) + (b ? along(*b, rb, t3) : 0.0);
      const double jt = std::min(speed / kt, m_friction * jn);
      applyImpulse(a, x, -jt * t);
      if (b) applyImpulse(*b, x, jt * t);
    }
  }
  if (depth <= 0.0) return;  // touching: the velocity alone
  const double wa = a.invMass, wb = b ? b->invMass : 0.0;
  a.x += depth * wa / (wa + wb) * n;
  if (b) b->x -= depth * wb / (wa + wb) * n;
}

template <int D>
void RigidBodies<D>::noteTouch(Body& b, const Vec<D>& n) {
  if (b.touching.size() == 2 * D) return;
  for (const Vec<D>& m : b.touching)
    if (glm::dot(m, n) > 0.9) return;
  b.touching.push_back(n);
}

template <int D>
void RigidBodies<D>::contacts(const Vec<D>& box, const Solids<D>& solids, bool bounce) {
  for (std::size_t k = 0; k < m_bodies.size(); ++k) {
    Body& a = m_bodies[k];
    for (const Feature& f : a.features) {
      Vec<D> p = a.x + rotateBy<D>(a.R, f.p);
      for (int axis = 0; axis < D; ++axis) {
        for (int side = 0; side < 2; ++side) {
          const double r = f.radius + m_clearance;
          const double depth = side == 0 ? r - p[axis] : p[axis] + r - box[axis];
          if (depth <= -kTouching) continue;
          Vec<D> n(0.0);
          n[axis] = side == 0 ? 1.0 : -1.0;
          Vec<D> at = p;
          at[axis] = side == 0 ? 0.0 : box[axis];
          resolveContact(a, nullptr, at, n, depth, bounce);
          p = a.x + rotateBy<D>(a.R, f.p);
        }
      }
      if (!solids.empty()) {
        Vec<D> n;
        const double phi = solids.distance(p, n);
        const double r = f.radius + m_clearance;
        if (phi < r + kTouching) resolveContact(a, nullptr, p - phi * n, n, r - phi, bounce);
      }
    }
    for (std::size_t l = 0; l < m_bodies.size(); ++l) {
      if (l == k) continue;
      Body& b = m_bodies[l];
      const double apart = a.reach + b.reach;
      if (lengthSquared<D>(a.x - b.x) > apart * apart) continue;
      for (const Feature& f : a.features) {
        const Vec<D> p = a.x + rotateBy<D>(a.R, f.p);
        Vec<D> n;
        const double phi = distance(l, p, n);
        const double r = f.radius + m_clearance;
        if (phi < r + kTouching) resolveContact(a, &b, p - phi * n, n, r - phi, bounce);
      }
    }
  }
}

template <int D>
void RigidBodies<D>::pull(std::size_t k, const Vec<D>& anchor, const Vec<D>& target) {
  if (k >= m_bodies.size()) return;
  m_pulled = true, m_pullBody = k, m_pullAnchor = anchor, m_pullTarget = target;
}

// (16.3)-(16.4): symplectic Euler in the container's frame. The centre feels gravity and
// the frame's accelerations (8.4) at its own position and velocity; the turn relative to
// the container loses the frame's angular acceleration and keeps its own gyroscopic term
// (3D). The frame's torque on an extended body (the centrifugal and Euler terms' moment
// about its centre) is left out.
template <int D>
void RigidBodies<D>::advance(double dt, const FrameMotion<D>& frame, const Vec<D>& box, const Solids<D>& solids,
                             bool pushed) {
  if (m_pulled && m_pullBody < m_bodies.size()) {
    // (16.10): the hand's spring at the held point, critically damped at 2 Hz for the
    // body's mass, as an impulse there (it turns the body as well as moving it).
    Body& b = m_bodies[m_pullBody];
    constexpr double kOmega = 2.0 * kPi * 2.0;
    const Vec<D> at = b.x + rotateBy<D>(b.R, m_pullAnchor);
    const Vec<D> force = b.mass * (kOmega * kOmega * (m_pullTarget - at) - 2.0 * kOmega * pointVelocity(b, at));
    applyImpulse(b, at, dt * force);
  }
  for (Body& b : m_bodies) b.touching.clear();
  for (Body& b : m_bodies) {
    if (!pushed) b.v += dt * frame.acceleration(b.x, b.v);
    Vec3 alpha = frame.alpha;
    if constexpr (D == 2) alpha = Vec3(0.0, 0.0, alpha.z);
    b.w -= dt * alpha;
    if constexpr (D == 3) {
      const Vec3 L = b.R * (b.inertia * (glm::transpose(b.R) * b.w));
      b.w -= dt * invInertiaTimes(b, glm::cross(b.w, L));
    }
    b.x += dt * b.v;
    const double turn = glm::length(b.w) * dt;
    if (turn > 0.0) {
      const Mat3 step = glm::mat3_cast(glm::angleAxis(turn, glm::normalize(b.w)));
      b.R = step * b.R;
      if constexpr (D == 3) {  // Gram-Schmidt: keep R a rotation
        Vec3 c0 = glm::normalize(b.R[0]);
        Vec3 c1 = glm::normalize(b.R[1] - glm::dot(b.R[1], c0) * c0);
        b.R = Mat3(c0, c1, glm::cross(c0, c1));
      }
    }
  }
  // A few sweeps: a body resting on another on the floor needs the floor's push passed up.
  for (int sweep = 0; sweep < 4; ++sweep) contacts(box, solids, sweep == 0);
}

// The pairs (particle, body) with the particle within `margin` of the body's bounding
// sphere, by particle and then body (m_nearPairs): the bodies are binned on a grid of cells at least as wide as any such sphere, so each
// particle looks at the bodies of the 3^D cells about its own (100 balls cost a pass over
// the particles, not a hundred).
template <int D>
void RigidBodies<D>::nearParticles(const ParticleSet<D>& p, double margin) {
  const std::size_t count = m_bodies.size();
  m_nearPairs.clear();
  if (count == 0) return;
  double widest = 0.0;
  Vec<D> lo(std::numeric_limits<double>::infinity()), hi(-std::numeric_limits<double>::infinity());
  for (const Body& b : m_bodies) {
    widest = std::max(widest, 2.0 * (b.reach + margin));
    lo = glm::min(lo, b.x - Vec<D>(b.reach + margin)), hi = glm::max(hi, b.x + Vec<D>(b.reach + margin));
  }
  IVec<D> dims;
  // At most 64 cells a side: clamping both a body's cell and a particle's keeps them
  // neighbours, so the cap costs speed only, for bodies strewn far apart (or not finite).
  for (int k = 0; k < D; ++k) {
    const double along = (hi[k] - lo[k]) / widest;
    dims[k] = along > 1.0 ? static_cast<int>(std::ceil(std::min(along, 64.0))) : 1;
  }
  const auto cellOf = [&](const Vec<D>& x) {
    IVec<D> c;
    for (int k = 0; k < D; ++k) {
      const double f = std::floor((x[k] - lo[k]) / widest);  // NaN and below 0 go to cell 0
      c[k] = f >= 1.0 ? static_cast<int>(std::min(f, static_cast<double>(dims[k] - 1))) : 0;
    }
    return c;
  };
  const auto flat = [&](const IVec<D>& c) {
    std::size_t f = 0;
    for (int k = D - 1; k >= 0; --k) f = f * static_cast<std::size_t>(dims[k]) + static_cast<std::size_t>(c[k]);
    return f;
  };
  std::size_t cells = 1;
  for (int k = 0; k < D; ++k) cells *= static_cast<std::size_t>(dims[k]);
  std::vector<std::uint32_t> start(cells + 1, 0), binned(count);
  for (const Body& b : m_bodies) ++start[flat(cellOf(b.x)) + 1];
  for (std::size_t c = 0; c < cells; ++c) start[c + 1] += start[c];
  std::vector<std::uint32_t> cursor(start.begin(), start.end() - 1);
  for (std::size_t k = 0; k < count; ++k) binned[cursor[flat(cellOf(m_bodies[k].x))]++] = static_cast<std::uint32_t>(k);
  // Calls visit(k) for each body whose sphere holds x, in increasing k.
  const auto forBodiesAt = [&](const Vec<D>& x, auto&& visit) {
    if (glm::any(glm::lessThan(x, lo)) || glm::any(glm::greaterThan(x, hi))) return;
    const IVec<D> c = cellOf(x);
    std::uint32_t found[64];
    int n = 0;
    IVec<D> o(-1);
    while (true) {
      IVec<D> q = c + o;
      bool inside = true;
      for (int k = 0; k < D; ++k) inside = inside && q[k] >= 0 && q[k] < dims[k];
      if (inside) {
        const std::size_t cell = flat(q);
        for (std::uint32_t s = start[cell]; s < start[cell + 1]; ++s) {
          const Body& b = m_bodies[binned[s]];
          const double r = b.reach + margin;
          if (lengthSquared<D>(x - b.x) < r * r) {
            if (n == 64) {  // crowded: the slow way, every body
              for (std::size_t k = 0; k < count; ++k)
                if (lengthSquared<D>(x - m_bodies[k].x) < (m_bodies[k].reach + margin) * (m_bodies[k].reach + margin))
                  visit(k);
              return;
            }
            found[n++] = binned[s];
          }
        }
      }
      int k = 0;
      while (k < D && ++o[k] > 1) o[k++] = -1;
      if (k == D) break;
    }
    std::sort(found, found + n);
    for (int i = 0; i < n; ++i) visit(found[i]);
  };
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  std::vector<std::uint8_t> near(static_cast<std::size_t>(n), 0);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) forBodiesAt(p.x[i], [&](std::size_t) { near[i] = 1; });
  for (std::int64_t i = 0; i < n; ++i)
    if (near[i])
      forBodiesAt(p.x[i], [&](std::size_t k) { m_nearPairs.push_back({static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(k)}); });
}

// (16.5)-(16.6): particle i at phi < margin moves to phi = margin; where it approaches the
// body there, the pair exchanges the impulse j = -v_n / (1/m_i + 1/M + (r x n) . I^-1 (r x n))
// along n, which stops the approach and keeps the pair's momentum.
template <int D>
void RigidBodies<D>::couple(ParticleSet<D>& p, double margin, double dt, const Vec<D>& box, const Solids<D>& solids) {
  for (Body& b : m_bodies) {  // the samples' share (takeImpulses), then the contacts' below
    b.force = b.sampleForce, b.torque = b.sampleTorque;
    b.sampleForce = b.sampleTorque = Vec3(0.0);
  }
  // One particle after another, in particle order (the same every run), each body it is
  // near in body order; then the walls.
  nearParticles(p, margin);
  for (std::size_t at = 0; at < m_nearPairs.size();) {
    const std::uint32_t i = m_nearPairs[at].first;
    for (; at < m_nearPairs.size() && m_nearPairs[at].first == i; ++at) {
      const std::uint32_t k = m_nearPairs[at].second;
      Body& b = m_bodies[k];
      Vec<D> normal;
      const double phi = distance(k, p.x[i], normal);
      if (phi >= margin) continue;
      p.x[i] += (margin - phi) * normal;
      const double vn = glm::dot(p.v[i] - pointVelocity(b, p.x[i]), normal);
      if (vn >= 0.0) continue;
      const Vec3 r = toVec3<D>(p.x[i] - b.x), n3 = toVec3<D>(normal);
      const double invM = p.m[i] > 0.0 ? 1.0 / p.m[i] : 0.0;
      const double kn = invM + b.invMass + glm::dot(glm::cross(invInertiaTimes(b, glm::cross(r, n3)), r), n3);
      if (invM == 0.0) {  // a massless particle only follows the body
        p.v[i] -= vn * normal;
        continue;
      }
      const double j = -vn / kn;
      p.v[i] += (j * invM) * normal;
      applyImpulse(b, p.x[i], -j * normal);
      b.force -= (j / dt) * n3;
      b.torque -= (j / dt) * glm::cross(r, n3);
    }
    // Squeezed between a body and a wall (a box resting on the floor on top of it), the
    // wall wins: the particle stays at the wall's margin, at most that deep in the body.
    contain<D>(p.x[i], p.v[i], box, margin, solids);
  }
  const double share = std::min(1.0, dt / kForceAveraging);
  for (Body& b : m_bodies) b.meanForce += share * (b.force - b.meanForce), b.meanTorque += share * (b.torque - b.meanTorque);
  // The liquid's impulses may press a body into a wall it rests on: the contacts again,
  // without bounce, so that a body at rest on the floor reads at rest.
  for (int sweep = 0; sweep < 4; ++sweep) contacts(box, solids, false);
}

template <int D>
void RigidBodies<D>::layOutSamples(double spacing, double depth, BodySamples<D>& out) {
  if (spacing != m_sampleSpacing || depth != m_sampleDepth) {
    for (Body& b : m_bodies) b.samples = shapeSamples(b.spec, spacing, depth);
    m_sampleSpacing = spacing, m_sampleDepth = depth;
  }
  out.x.clear(), out.v.clear(), out.owner.clear(), out.centre.clear(), out.reach.clear();
  for (std::size_t k = 0; k < m_bodies.size(); ++k) {
    const Body& b = m_bodies[k];
    for (const Vec<D>& local : b.samples) {
      const Vec<D> x = b.x + rotateBy<D>(b.R, local);
      out.x.push_back(x);
      out.v.push_back(pointVelocity(b, x));
      out.owner.push_back(static_cast<std::uint32_t>(k));
    }
    out.centre.push_back(b.x);
    out.reach.push_back(b.reach);
  }
  out.impulse.assign(out.x.size(), Vec<D>(0.0));
}

// (16.12): the liquid's push on each sample, as an impulse on its body at the sample.
// (16.14): pushed alone, a body takes in one step a velocity change that the liquid about
// it (its added mass m_a) must then follow, and the next step's pressure takes that back
// from the body: each step's change is -m_a/M times the last, and for m_a > M (a light
// body under water) the exchange grows step by step, the added-mass instability of
// explicit coupling. So the body shares its push, with its weight and frame force, with
// the liquid within `layer` of it, of mass m_l: the body and each of those particles
// change velocity by dv = (J + M a_frame dt) / (M + m_s), the particles by the share
// m_s / m_l of it, with m_s = clamp(1.5 m_a - M, 0, m_l), m_a = c rho0 V w (c = 1 for a
// disc, 1/2 for a ball; w the share of the body's samples the liquid touched). The
// step-to-step change is then -m_a / (M + m_s) times the last; the momentum is kept;
// a body heavier than 1.5 m_a takes its push alone, and a light one starts as if its
// mass were M + m_s. The turn takes the samples' torque alone.
template <int D>
void RigidBodies<D>::takeImpulses(const BodySamples<D>& samples, double dt, const FrameMotion<D>& frame,
                                  ParticleSet<D>& p, double layer) {
  std::vector<Vec<D>> linear(m_bodies.size(), Vec<D>(0.0));
  std::vector<double> touched(m_bodies.size(), 0.0), all(m_bodies.size(), 0.0);
  for (Body& b : m_bodies) b.sampleForce = b.sampleTorque = Vec3(0.0);
  for (std::size_t k = 0; k < samples.size(); ++k) {
    const std::uint32_t owner = samples.owner[k];
    Body& b = m_bodies[owner];
    const Vec<D> j = samples.impulse[k];
    const Vec3 turn = glm::cross(toVec3<D>(samples.x[k] - b.x), toVec3<D>(j));
    linear[owner] += j;
    b.w += invInertiaTimes(b, turn);
    b.sampleForce += toVec3<D>(j) / dt;
    b.sampleTorque += turn / dt;
    all[owner] += 1.0;
    if (j != Vec<D>(0.0)) touched[owner] += 1.0;
  }
  // The liquid within `layer` of each body, of mass m_l (only where a body needs a share).
  std::vector<double> share(m_bodies.size(), 0.0), liquid(m_bodies.size(), 0.0);
  bool sharing = false;
  for (std::size_t k = 0; k < m_bodies.size(); ++k) {
    const Body& b = m_bodies[k];
    const double wet = all[k] > 0.0 ? touched[k] / all[k] : 0.0;
    const double added = (D == 2 ? 1.0 : 0.5) * samples.restDensity * bodyVolume(b.spec, D) * wet;
    share[k] = 1.5 * added - b.mass;
    sharing = sharing || share[k] > 0.0;
  }
  m_sharers.clear();
  if (sharing) {
    nearParticles(p, layer);
    for (const auto& [i, k] : m_nearPairs) {
      Vec<D> n;
      if (share[k] <= 0.0 || distance(k, p.x[i], n) >= layer) continue;
      m_sharers.push_back({i, k});
      liquid[k] += p.m[i];
    }
  }
  std::vector<Vec<D>> dv(m_bodies.size());
  for (std::size_t k = 0; k < m_bodies.size(); ++k) {
    Body& b = m_bodies[k];
    share[k] = std::clamp(share[k], 0.0, liquid[k]);
    dv[k] = (linear[k] + (b.mass * dt) * frame.acceleration(b.x, b.v)) / (b.mass + share[k]);
    b.v += dv[k];
  }
  for (const auto& [i, k] : m_sharers) p.v[i] += (share[k] / liquid[k]) * dv[k];
}

template <int D>
void RigidBodies<D>::describeMoving(double dt, const FrameMotion<D>& frame, MovingBodies<D>& out) const {
  out.bodies.resize(m_bodies.size());
  for (std::size_t k = 0; k < m_bodies.size(); ++k) {
    const Body& b = m_bodies[k];
    typename MovingBodies<D>::Body& m = out.bodies[k];
    m.centre = b.x;
    m.reach = b.reach;
    m.velocity = b.v + dt * frame.acceleration(b.x, b.v);
    m.spin = b.w;
    m.round = b.spec.shape == BodySpec::Shape::Ball;
    m.invMass = b.invMass;
    m.invInertia = Mat3(0.0);
    if constexpr (D == 2) m.invInertia[2][2] = 1.0 / b.inertia.z;
    else m.invInertia = b.R * Mat3(Vec3(1.0 / b.inertia.x, 0.0, 0.0), Vec3(0.0, 1.0 / b.inertia.y, 0.0),
                                    Vec3(0.0, 0.0, 1.0 / b.inertia.z)) * glm::transpose(b.R);
    m.impulse = Vec<D>(0.0), m.angularImpulse = Vec3(0.0);
    // What it touched: the directions it may not move into, orthonormalised; its
    // velocity into them is taken out now, as the contacts would.
    m.heldCount = 0;
    for (const Vec<D>& n : b.touching) {
      if (m.heldCount == D) break;
      Vec<D> e = n;
      for (int i = 0; i < m.heldCount; ++i) e -= glm::dot(e, m.held[i]) * m.held[i];
      const double length = glm::length(e);
      if (length < 0.1) continue;
      e /= length;
      m.held[m.heldCount++] = e;
      m.velocity -= std::min(glm::dot(m.velocity, e), 0.0) * e;
    }
    m.solvedVelocity = m.velocity, m.solvedSpin = m.spin;
  }
  out.distance = [this](std::size_t k, const Vec<D>& x, Vec<D>& normal) { return distance(k, x, normal); };
}

template <int D>
void RigidBodies<D>::takeMoving(const MovingBodies<D>& solved, double dt) {
  for (std::size_t k = 0; k < m_bodies.size(); ++k) {
    Body& b = m_bodies[k];
    const typename MovingBodies<D>::Body& m = solved.bodies[k];
    b.v = m.solvedVelocity;
    b.w = m.solvedSpin;
    b.sampleForce = toVec3<D>(m.impulse) / dt;
    b.sampleTorque = m.angularImpulse / dt;
  }
}

template <int D>
double RigidBodies<D>::surfaceLevel(const ParticleSet<D>& p, double spacing) const {
  const double width = levelColumnWidth(spacing);
  double zMax = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) zMax = std::max(zMax, D == 3 ? p.x[i][D - 1] : 0.0);
  const std::int64_t columnsZ = static_cast<std::int64_t>(zMax / width) + 1;
  std::vector<Vec<D>> centres;
  std::vector<double> radii;
  levelExclusions(spacing, centres, radii);
  std::map<std::int64_t, double> columns;  // column -> its highest centre
  for (std::size_t i = 0; i < p.size(); ++i) {
    bool clear = true;
    for (std::size_t k = 0; k < centres.size(); ++k) {
      Vec<D> d = p.x[i] - centres[k];
      d.y = 0.0;
      if (glm::length(d) < radii[k]) clear = false;
    }
    if (!clear) continue;
    const std::int64_t cx = static_cast<std::int64_t>(std::floor(p.x[i].x / width));
    const std::int64_t cz = D == 3 ? static_cast<std::int64_t>(std::floor(p.x[i][D - 1] / width)) : 0;
    const auto [it, fresh] = columns.emplace(cx * columnsZ + cz, p.x[i].y);
    if (!fresh) it->second = std::max(it->second, p.x[i].y);
  }
  std::vector<double> top;
  for (const auto& [c, y] : columns) top.push_back(y);
  return levelFromTops(std::move(top), spacing);
}

template <int D>
void RigidBodies<D>::levelExclusions(double spacing, std::vector<Vec<D>>& centres, std::vector<double>& radii) const {
  centres.clear(), radii.clear();
  for (const Body& b : m_bodies) centres.push_back(b.x), radii.push_back(b.reach + 2.0 * levelColumnWidth(spacing));
}

template <int D>
double RigidBodies<D>::levelFromTops(std::vector<double> tops, double spacing) {
  if (tops.empty()) return -1.0;
  std::nth_element(tops.begin(), tops.begin() + static_cast<std::ptrdiff_t>(tops.size() / 2), tops.end());
  return tops[tops.size() / 2] + 0.5 * spacing;
}

template <int D>
std::vector<BodyView> RigidBodies<D>::views(double level) const {
  std::vector<BodyView> out;
  for (const Body& b : m_bodies) {
    BodyView v;
    v.spec = b.spec;
    v.position = toVec3<D>(b.x);
    v.rotation = b.R;
    v.velocity = toVec3<D>(b.v);
    v.angularVelocity = b.w;
    v.mass = b.mass;
    v.inertia = b.inertia;
    v.fluidForce = b.force;
    v.fluidTorque = b.torque;
    v.meanFluidForce = b.meanForce;
    v.meanFluidTorque = b.meanTorque;
    double lowest = std::numeric_limits<double>::infinity();
    for (const Feature& f : b.features) lowest = std::min(lowest, (b.x + rotateBy<D>(b.R, f.p)).y - f.radius);
    v.draft = level >= 0.0 ? std::max(level - lowest, 0.0) : 0.0;
    out.push_back(v);
  }
  return out;
}

template <int D>
void RigidBodies<D>::setDensity(std::size_t k, double density) {
  if (k >= m_bodies.size() || !(density > 0.0) || !std::isfinite(density)) return;
  m_bodies[k].spec.density = std::clamp(density, 1.0, 1e5);  // a scene's bounds: a state file keeps it
  derive(m_bodies[k]);
}

// (16.9): a body ploughing through the liquid must not move its surface further than a
// fraction of a spacing per step, or (16.5) pushes particles into each other and the
// solver's pressure throws them apart.
template <int D>
double RigidBodies<D>::maxTimeStep(double spacing, double cfl) const {
  double fastest = 0.0;
  for (const Body& b : m_bodies) fastest = std::max(fastest, glm::length(b.v) + glm::length(b.w) * b.reach);
  return fastest > 0.0 ? cfl * spacing / fastest : std::numeric_limits<double>::infinity();
}

template <int D>
double RigidBodies<D>::kineticEnergy() const {
  double e = 0.0;
  for (const Body& b : m_bodies) {
    const Vec3 local = glm::transpose(b.R) * b.w;
    e += 0.5 * b.mass * lengthSquared<D>(b.v) + 0.5 * glm::dot(local, b.inertia * local);
  }
  return e;
}

template <int D>
double RigidBodies<D>::fastestSpeed() const {
  double fastest = 0.0;
  for (const Body& b : m_bodies) {
    const double speed = glm::length(b.v) + glm::length(b.w) * b.reach;
    if (!std::isfinite(speed + glm::length(b.x))) return std::numeric_limits<double>::infinity();
    fastest = std::max(fastest, speed);
  }
  return fastest;
}

template <int D>
Vec<D> RigidBodies<D>::momentum() const {
  Vec<D> P(0.0);
  for (const Body& b : m_bodies) P += b.mass * b.v;
  return P;
}

template <int D>
void RigidBodies<D>::exchangeState(StateArchive& ar, const Vec<D>& box) {
  std::uint64_t count = m_bodies.size();
  ar.value(count, "the body count");
  if (ar.loading() && count != m_bodies.size())
    throw StateError("it holds " + std::to_string(count) + " bodies where its scene has " +
                     std::to_string(m_bodies.size()));
  for (Body& b : m_bodies) {
    ar.value(b.x, "a body's position");
    ar.value(b.v, "a body's velocity");
    ar.value(b.w, "a body's turn rate");
    ar.value(b.R, "a body's orientation");
    ar.value(b.spec.density, "a body's density");
    ar.value(b.force, "a body's force");
    ar.value(b.torque, "a body's torque");
    // The last contacts' normals: a grid solver holds the body against them (16.19).
    std::uint64_t touching = b.touching.size();
    ar.value(touching, "a body's contact count");
    if (ar.loading() && touching > static_cast<std::uint64_t>(2 * D))
      throw StateError("a body touches " + std::to_string(touching) + " directions, more than " +
                       std::to_string(2 * D));
    b.touching.resize(touching);
    for (Vec<D>& n : b.touching) {
      ar.value(n, "a body's contact normal");
      if (ar.loading() && !(std::abs(glm::length(n) - 1.0) < 1e-6))
        throw StateError("a body's contact normal is not a unit vector");
    }
    if (ar.loading()) {
      // The scene's bounds on a density (1 to 1e5 kg/m^3), R a rotation (the archive
      // refuses values that are not finite), the centre in the box.
      if (!(b.spec.density >= 1.0 && b.spec.density <= 1e5))
        throw StateError("a body's density is outside [1, 1e5] kg/m^3");
      const Mat3 RtR = glm::transpose(b.R) * b.R;
      double offIdentity = 0.0;
      for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) offIdentity = std::max(offIdentity, std::abs(RtR[c][r] - (c == r ? 1.0 : 0.0)));
      if (!(offIdentity < 1e-6) || !(glm::determinant(b.R) > 0.0))
        throw StateError("a body's orientation is not a rotation");
      if (glm::any(glm::lessThan(b.x, Vec<D>(0.0))) || glm::any(glm::greaterThan(b.x, box)))
        throw StateError("a body's centre is outside the container");
      derive(b);
    }
  }
}

template class RigidBodies<2>;
template class RigidBodies<3>;

}  // namespace sloshlab
