// A floating body's shape (physics.md §16): a hull's section (16.16), the volume, the
// signed distance (16.1), mass and inertia with the contact points (16.2), (16.7), and
// the boundary samples the SPH solvers see (16.11). Its motion and its exchange with the
// liquid are in rigid_bodies.cpp.
#include "rigid_bodies.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

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
// A box given in x and y alone is as deep as it is tall in 3D (bodies.h); a hull's
// length likewise.
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

double bodyDistance(const BodyView& body, const Vec3& x, int dim) {
  const Vec3 local = glm::transpose(body.rotation) * (x - body.position);
  if (dim == 2) {
    Vec2 n;
    return RigidBodies<2>::shapeDistance(body.spec, fromVec3<2>(local), n);
  }
  Vec3 n;
  return RigidBodies<3>::shapeDistance(body.spec, local, n);
}

template double RigidBodies<2>::shapeDistance(const BodySpec&, const Vec<2>&, Vec<2>&);
template double RigidBodies<3>::shapeDistance(const BodySpec&, const Vec<3>&, Vec<3>&);
template std::vector<Vec<2>> RigidBodies<2>::shapeSamples(const BodySpec&, double, double);
template std::vector<Vec<3>> RigidBodies<3>::shapeSamples(const BodySpec&, double, double);
template void RigidBodies<2>::derive(RigidBodies<2>::Body&) const;
template void RigidBodies<3>::derive(RigidBodies<3>::Body&) const;

}  // namespace sloshlab
