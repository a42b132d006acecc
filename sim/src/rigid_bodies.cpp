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

const char* BodySpec::shapeName(Shape shape) {
  switch (shape) {
    case Shape::Box: return "box";
    case Shape::Ball: return "ball";
    case Shape::Capsule: return "capsule";
    case Shape::Hull: return "hull";
  }
  return "?";
}

namespace {
// A point this close to a surface touches it (m): a body the contacts put back exactly on
// the floor is still resting on it, so the velocity the liquid then gives it into the
// floor is taken out.
constexpr double kTouching = 1e-7;
constexpr double kForceAveraging = 1.0 / 3.0;  // s: BodyView::meanFluidForce's time constant
// A box given in x and y alone is as deep as it is tall in 3D (bodies.h).
Vec3 boxExtents(const BodySpec& b) { return {b.size.x, b.size.y, b.size.z > 0.0 ? b.size.z : b.size.y}; }
}  // namespace

// (16.16): the hull's section, counter-clockwise about its centroid: the keel (width b)
// at y = -y_c, the deck (width a) at H - y_c, y_c = H (b + 2a) / (3 (a + b)).
std::array<Vec2, 4> hullSection(const BodySpec& s) {
  const double a = s.size.x, b = s.bottom, H = s.size.y;
  const double yc = H * (b + 2.0 * a) / (3.0 * (a + b));
  return {Vec2(-0.5 * b, -yc), Vec2(0.5 * b, -yc), Vec2(0.5 * a, H - yc), Vec2(-0.5 * a, H - yc)};
}

// (16.2): volume; a 2D body's is its area (m^2), so its mass is per metre of depth as the
// particles' are.
double bodyVolume(const BodySpec& b, int dim) {
  const double r = b.radius, L = b.length;
  switch (b.shape) {
    case BodySpec::Shape::Box: {
      const Vec3 e = boxExtents(b);
      return dim == 2 ? e.x * e.y : e.x * e.y * e.z;
    }
    case BodySpec::Shape::Ball: return dim == 2 ? kPi * r * r : 4.0 / 3.0 * kPi * r * r * r;
    case BodySpec::Shape::Capsule: return dim == 2 ? 2.0 * r * L + kPi * r * r : kPi * r * r * L + 4.0 / 3.0 * kPi * r * r * r;
    case BodySpec::Shape::Hull: {
      const double area = 0.5 * (b.size.x + b.bottom) * b.size.y;
      return dim == 2 ? area : area * boxExtents(b).z;
    }
  }
  return 0.0;
}

double bodyThinnest(const BodySpec& b, int dim) {
  if (b.shape == BodySpec::Shape::Ball || b.shape == BodySpec::Shape::Capsule) return 2.0 * b.radius;
  const Vec3 e = boxExtents(b);
  const double across = b.shape == BodySpec::Shape::Hull ? std::min(e.x, b.bottom) : e.x;
  return dim == 2 ? std::min(across, e.y) : std::min({across, e.y, e.z});
}

template <int D>
double RigidBodies<D>::shapeDistance(const BodySpec& s, const Vec<D>& p, Vec<D>& normal) {
  normal = Vec<D>(0.0);
  if (s.shape == BodySpec::Shape::Box) {
    const Vec<D> half = 0.5 * fromVec3<D>(boxExtents(s));
    Vec<D> q(0.0), outside(0.0);
    int deepest = 0;
    for (int k = 0; k < D; ++k) {
      q[k] = std::abs(p[k]) - half[k];
      outside[k] = std::max(q[k], 0.0) * (p[k] < 0.0 ? -1.0 : 1.0);
      if (q[k] > q[deepest]) deepest = k;
    }
    const double out = glm::length(outside);
    if (out > 0.0) {
      normal = outside / out;
      return out;
    }
    normal[deepest] = p[deepest] < 0.0 ? -1.0 : 1.0;
    return q[deepest];
  }
  if (s.shape == BodySpec::Shape::Hull) {
    // (16.16): the convex section's distance in x and y (inside: the nearest edge's line;
    // outside: the nearest edge), extruded along z in 3D.
    const auto v = hullSection(s);
    const Vec2 q(p.x, p.y);
    double inside = -std::numeric_limits<double>::infinity(), outside = std::numeric_limits<double>::infinity();
    Vec2 nIn(0.0), nOut(0.0);
    for (int k = 0; k < 4; ++k) {
      const Vec2 a = v[k], b = v[(k + 1) % 4], e = b - a;
      const Vec2 n = glm::normalize(Vec2(e.y, -e.x));
      const double side = glm::dot(q - a, n);
      if (side > inside) inside = side, nIn = n;
      const Vec2 foot = a + std::clamp(glm::dot(q - a, e) / glm::dot(e, e), 0.0, 1.0) * e;
      const double d = glm::length(q - foot);
      if (d < outside) outside = d, nOut = d > 0.0 ? (q - foot) / d : n;
    }
    const double d2 = inside <= 0.0 ? inside : outside;
    const Vec2 n2 = inside <= 0.0 ? nIn : nOut;
    if constexpr (D == 2) {
      normal = n2;
      return d2;
    } else {
      const double dz = std::abs(p.z) - 0.5 * boxExtents(s).z, sz = p.z < 0.0 ? -1.0 : 1.0;
      if (d2 > 0.0 && dz > 0.0) {
        const double len = std::hypot(d2, dz);
        normal = Vec<D>(n2.x * d2 / len, n2.y * d2 / len, sz * dz / len);
        return len;
      }
      if (d2 >= dz) normal = Vec<D>(n2.x, n2.y, 0.0);
      else normal = Vec<D>(0.0, 0.0, sz);
      return std::max(d2, dz);
    }
  }
  Vec<D> c(0.0);  // the nearest point of the core: the centre, or on the capsule's segment
  if (s.shape == BodySpec::Shape::Capsule) c.x = std::clamp(p.x, -0.5 * s.length, 0.5 * s.length);
  const Vec<D> d = p - c;
  const double len = glm::length(d);
  if (len > 0.0) normal = d / len;
  else normal.y = 1.0;
  return len - s.radius;
}

template <int D>
void RigidBodies<D>::derive(Body& b) const {
  const BodySpec& s = b.spec;
  b.mass = s.density * bodyVolume(s, D);
  b.invMass = 1.0 / b.mass;
  const double m = b.mass, r = s.radius, L = s.length;
  b.features.clear();
  switch (s.shape) {
    case BodySpec::Shape::Box: {
      const Vec3 e = boxExtents(s);
      b.inertia = m / 12.0 * Vec3(e.y * e.y + e.z * e.z, e.x * e.x + e.z * e.z, e.x * e.x + e.y * e.y);
      if (D == 2) b.inertia = Vec3(0.0, 0.0, m / 12.0 * (e.x * e.x + e.y * e.y));
      const Vec<D> half = 0.5 * fromVec3<D>(e);
      b.reach = glm::length(half);
      // Points on the surface, at most a third of the thinnest side apart: a round obstacle
      // or another body's corner meets the face, not only the corners.
      const double step = std::max(bodyThinnest(s, D) / 3.0, 1e-9);
      int n[3] = {1, 1, 1};
      for (int k = 0; k < D; ++k) n[k] = std::clamp(static_cast<int>(std::ceil(2.0 * half[k] / step)), 1, 12);
      for (int i = 0; i <= n[0]; ++i)
        for (int j = 0; j <= n[1]; ++j)
          for (int k = 0; k <= (D == 3 ? n[2] : 0); ++k) {
            const bool onFace = i == 0 || i == n[0] || j == 0 || j == n[1] || (D == 3 && (k == 0 || k == n[2]));
            if (!onFace) continue;
            Vec<D> p(0.0);
            p.x = -half.x + 2.0 * half.x * i / n[0];
            p.y = -half.y + 2.0 * half.y * j / n[1];
            if constexpr (D == 3) p.z = -half.z + 2.0 * half.z * k / n[2];
            b.features.push_back({p, 0.0});
          }
      break;
    }
    case BodySpec::Shape::Ball:
      b.inertia = D == 2 ? Vec3(0.0, 0.0, 0.5 * m * r * r) : Vec3(0.4 * m * r * r);
      b.reach = r;
      b.features.push_back({Vec<D>(0.0), r});
      break;
    case BodySpec::Shape::Capsule: {
      // The rectangle (2D) or cylinder (3D) between two half discs (half balls): the
      // halves' centroids lie 4r/(3 pi) (3r/8) beyond the segment's ends.
      if constexpr (D == 2) {
        const double mRect = s.density * 2.0 * r * L, mRound = s.density * kPi * r * r;
        const double rect = mRect * (L * L + 4.0 * r * r) / 12.0;
        const double round = mRound * (0.5 * r * r + 0.25 * L * L + L * 4.0 * r / (3.0 * kPi));
        b.inertia = Vec3(0.0, 0.0, rect + round);
      } else {
        const double mCyl = s.density * kPi * r * r * L, mBall = s.density * 4.0 / 3.0 * kPi * r * r * r;
        const double along = 0.5 * mCyl * r * r + 0.4 * mBall * r * r;
        const double across = mCyl * (3.0 * r * r + L * L) / 12.0 + mBall * (0.4 * r * r + 0.25 * L * L + 3.0 * L * r / 8.0);
        b.inertia = Vec3(along, across, across);
      }
      b.reach = 0.5 * L + r;
      const int pieces = std::max(1, static_cast<int>(std::ceil(L / std::max(r, 1e-9))));
      for (int i = 0; i <= pieces; ++i) {
        Vec<D> p(0.0);
        p.x = -0.5 * L + L * i / pieces;
        b.features.push_back({p, r});
      }
      break;
    }
    case BodySpec::Shape::Hull: {
      // (16.16): the section's second moments by strips across its height (the width
      // w(y) = b + (a - b) y / H): int x^2 dA = int w^3/12 dy, int y^2 dA about the centroid.
      const double a = s.size.x, bw = s.bottom, H = s.size.y, depth = boxExtents(s).z;
      const auto v = hullSection(s);
      const double area = 0.5 * (a + bw) * H;
      double xx = 0.0, yy = 0.0;
      const int strips = 2000;
      for (int k = 0; k < strips; ++k) {
        const double y = (k + 0.5) * H / strips, w = bw + (a - bw) * y / H, dy = H / strips;
        xx += w * w * w / 12.0 * dy;
        yy += (y + v[0].y) * (y + v[0].y) * w * dy;
      }
      if constexpr (D == 2) b.inertia = Vec3(0.0, 0.0, m / area * (xx + yy));
      else b.inertia = m / area * Vec3(yy + area * depth * depth / 12.0, xx + area * depth * depth / 12.0, xx + yy);
      b.reach = 0.0;
      for (const Vec2& c : v) b.reach = std::max(b.reach, std::hypot(glm::length(c), D == 3 ? 0.5 * depth : 0.0));
      // Points along the section's edges at most a third of the thinnest extent apart, at
      // both ends and across the length in 3D, and over the two end faces.
      const double step = std::max(bodyThinnest(s, D) / 3.0, 1e-9);
      const int layers = D == 3 ? std::clamp(static_cast<int>(std::ceil(depth / step)), 1, 12) : 0;
      for (int l = 0; l <= layers; ++l) {
        const double z = D == 3 ? -0.5 * depth + depth * l / layers : 0.0;
        const bool end = l == 0 || l == layers;
        for (int k = 0; k < 4; ++k) {
          const Vec2 p0 = v[k], p1 = v[(k + 1) % 4];
          const int n = std::clamp(static_cast<int>(std::ceil(glm::length(p1 - p0) / step)), 1, 24);
          for (int i = 0; i < n; ++i) {
            const Vec2 q = p0 + (p1 - p0) * (static_cast<double>(i) / n);
            Vec<D> p(0.0);
            p.x = q.x, p.y = q.y;
            if constexpr (D == 3) p.z = z;
            b.features.push_back({p, 0.0});
          }
        }
        if (D == 3 && end)  // the end face's inside, on a lattice of the same step
          for (double y = v[0].y + step; y < v[2].y - 0.5 * step; y += step) {
            const double half = 0.5 * (bw + (a - bw) * (y - v[0].y) / H);
            for (double x = -half + step; x < half - 0.5 * step; x += step) {
              Vec<D> p(0.0);
              p.x = x, p.y = y;
              if constexpr (D == 3) p.z = z;
              b.features.push_back({p, 0.0});
            }
          }
      }
      break;
    }
  }
}

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
  for (int k = 0; k < D; ++k) dims[k] = std::max(1, static_cast<int>(std::ceil((hi[k] - lo[k]) / widest)));
  const auto cellOf = [&](const Vec<D>& x) {
    IVec<D> c;
    for (int k = 0; k < D; ++k) c[k] = std::clamp(static_cast<int>(std::floor((x[k] - lo[k]) / widest)), 0, dims[k] - 1);
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

// (16.11): layers at depths (l + 1/2) s below the surface, while shallower than `depth`:
// a box's on a lattice fitted to its faces (a face then meets the fluid as a wall of the
// container does), a ball's and a capsule's on shells about their core (a point, a
// segment along x), each shell's points about s apart; the core itself where the shells
// reach it.
template <int D>
std::vector<Vec<D>> RigidBodies<D>::shapeSamples(const BodySpec& s, double spacing, double depth) {
  std::vector<Vec<D>> out;
  if (s.shape == BodySpec::Shape::Box || s.shape == BodySpec::Shape::Hull) {
    // A hull's on the lattice fitted to its bounding box: its deck, keel and ends are
    // faces of that box; its slanted sides cut the lattice.
    Vec<D> size = fromVec3<D>(boxExtents(s));
    if (s.shape == BodySpec::Shape::Hull) size.x = std::max(s.size.x, s.bottom);
    Vec<D> lo = -0.5 * size;
    if (s.shape == BodySpec::Shape::Hull) lo.y = hullSection(s)[0].y;
    IVec<D> count(1);
    for (int k = 0; k < D; ++k) count[k] = std::max(1, static_cast<int>(std::lround(size[k] / spacing)));
    IVec<D> idx(0);
    while (true) {
      Vec<D> p;
      for (int k = 0; k < D; ++k) p[k] = lo[k] + (idx[k] + 0.5) * size[k] / count[k];
      Vec<D> n;
      const double phi = shapeDistance(s, p, n);
      if (phi < 0.0 && phi > -depth) out.push_back(p);
      int k = 0;
      while (k < D && ++idx[k] == count[k]) idx[k++] = 0;
      if (k == D) break;
    }
    return out;
  }
  const double L = s.shape == BodySpec::Shape::Capsule ? s.length : 0.0;
  const int along = L > 0.0 ? std::max(1, static_cast<int>(std::lround(L / spacing))) : 0;
  const auto coreX = [&](int i) { return -0.5 * L + (i + 0.5) * L / along; };
  // Unit directions about s/rho apart over the whole sphere (Fibonacci lattice), or the circle.
  const auto directions = [](double count) {
    std::vector<Vec<D>> dirs;
    const int n = std::max(D == 2 ? 3 : 4, static_cast<int>(std::lround(count)));
    for (int k = 0; k < n; ++k) {
      Vec<D> d(0.0);
      if constexpr (D == 2) {
        const double a = (k + 0.5) * 2.0 * kPi / n;
        d = Vec<D>(std::cos(a), std::sin(a));
      } else {
        const double z = 1.0 - (2.0 * k + 1.0) / n, r = std::sqrt(std::max(0.0, 1.0 - z * z));
        const double a = k * kPi * (3.0 - std::sqrt(5.0));
        d = Vec<D>(r * std::cos(a), r * std::sin(a), z);
      }
      dirs.push_back(d);
    }
    return dirs;
  };
  for (int l = 0;; ++l) {
    const double d = (l + 0.5) * spacing;
    if (d >= depth) break;
    const double rho = s.radius - d;
    if (rho < 0.5 * spacing) {  // the core
      if (L == 0.0) out.push_back(Vec<D>(0.0));
      for (int i = 0; i < along; ++i) {
        Vec<D> p(0.0);
        p.x = coreX(i);
        out.push_back(p);
      }
      break;
    }
    const double sphere = D == 2 ? 2.0 * kPi * rho / spacing : 4.0 * kPi * rho * rho / (spacing * spacing);
    // The round ends (the whole ball): each direction on its own side of the segment.
    for (const Vec<D>& u : directions(sphere)) {
      Vec<D> p = rho * u;
      if (L > 0.0) p.x += (u.x >= 0.0 ? 0.5 : -0.5) * L;
      out.push_back(p);
    }
    // The capsule's straight part: rings (2D: the two sides) along the segment.
    for (int i = 0; i < along; ++i) {
      if constexpr (D == 2) {
        out.push_back(Vec<D>(coreX(i), rho));
        out.push_back(Vec<D>(coreX(i), -rho));
      } else {
        const int n = std::max(3, static_cast<int>(std::lround(2.0 * kPi * rho / spacing)));
        for (int k = 0; k < n; ++k) {
          const double a = (k + 0.5 * (i % 2)) * 2.0 * kPi / n;
          out.push_back(Vec<D>(coreX(i), rho * std::cos(a), rho * std::sin(a)));
        }
      }
    }
  }
  return out;
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
double RigidBodies<D>::surfaceLevel(const ParticleSet<D>& p, double spacing) const {
  const double width = 2.0 * spacing;
  std::vector<double> top;
  double zMax = 0.0;
  for (std::size_t i = 0; i < p.size(); ++i) zMax = std::max(zMax, D == 3 ? p.x[i][D - 1] : 0.0);
  const std::int64_t columnsZ = static_cast<std::int64_t>(zMax / width) + 1;
  std::map<std::int64_t, double> columns;  // column -> its highest centre
  for (std::size_t i = 0; i < p.size(); ++i) {
    bool clear = true;
    for (const Body& b : m_bodies) {
      Vec<D> d = p.x[i] - b.x;
      d.y = 0.0;
      if (glm::length(d) < b.reach + 2.0 * width) clear = false;
    }
    if (!clear) continue;
    const std::int64_t cx = static_cast<std::int64_t>(std::floor(p.x[i].x / width));
    const std::int64_t cz = D == 3 ? static_cast<std::int64_t>(std::floor(p.x[i][D - 1] / width)) : 0;
    const auto [it, fresh] = columns.emplace(cx * columnsZ + cz, p.x[i].y);
    if (!fresh) it->second = std::max(it->second, p.x[i].y);
  }
  if (columns.empty()) return -1.0;
  for (const auto& [c, y] : columns) top.push_back(y);
  std::nth_element(top.begin(), top.begin() + static_cast<std::ptrdiff_t>(top.size() / 2), top.end());
  return top[top.size() / 2] + 0.5 * spacing;
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
  m_bodies[k].spec.density = density;
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
Vec<D> RigidBodies<D>::momentum() const {
  Vec<D> P(0.0);
  for (const Body& b : m_bodies) P += b.mass * b.v;
  return P;
}

template <int D>
void RigidBodies<D>::exchangeState(StateArchive& ar) {
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
    if (ar.loading()) {
      if (!(b.spec.density > 0.0)) throw StateError("a body's density is not positive");
      derive(b);
    }
  }
}

double bodyDistance(const BodyView& body, const Vec3& x, int dim) {
  const Vec3 local = glm::transpose(body.rotation) * (x - body.position);
  if (dim == 2) {
    Vec2 n;
    return RigidBodies<2>::shapeDistance(body.spec, fromVec3<2>(local), n);
  }
  Vec3 n;
  return RigidBodies<3>::shapeDistance(body.spec, local, n);
}

template class RigidBodies<2>;
template class RigidBodies<3>;

}  // namespace sloshlab
