#include "sloshlab/solids.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace sloshlab {

const char* Obstacle::shapeName(Shape shape) {
  switch (shape) {
    case Shape::Box: return "box";
    case Shape::Sphere: return "sphere";
    case Shape::Disc: return "disc";
    case Shape::Capsule: return "capsule";
  }
  return "?";
}

std::vector<std::pair<std::size_t, std::size_t>> obstacleGroups(const std::vector<Obstacle>& obstacles) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t i = 0; i < obstacles.size(); ++i) {
    if (obstacles[i].hole && !out.empty()) out.back().second = i + 1;
    else out.push_back({i, i + 1});
  }
  return out;
}

template <int D>
Solids<D>::Solids(const std::vector<Obstacle>& obstacles, const Vec3& containerSize) {
  const Vec<D> box = fromVec3<D>(containerSize);
  for (std::size_t i = 0; i < obstacles.size(); ++i) {
    const Obstacle& o = obstacles[i];
    if (o.hole && (i == 0 || o.outside))
      throw std::runtime_error("obstacles[" + std::to_string(i) + "]: a hole must follow the shape it is cut from" +
                               (o.outside ? ", and cannot be 'outside_of' one" : ""));
    Prim p;
    p.shape = o.shape;
    p.outside = o.outside;
    p.hole = o.hole;
    p.planar = D == 3 && !o.hasDepth && o.shape != Obstacle::Shape::Sphere;
    if (D == 3 && o.shape == Obstacle::Shape::Disc) p.planar = true;
    Vec<D> lo(0.0), hi(0.0);  // bounds, to test that the obstacle meets the box
    if (o.shape == Obstacle::Shape::Box) {
      p.lo = atMidDepth<D>(o.min, o.hasDepth, containerSize.z);
      p.hi = atMidDepth<D>(o.max, o.hasDepth, containerSize.z);
      lo = p.lo, hi = p.hi;
      p.thinnest = std::numeric_limits<double>::infinity();
      for (int k = 0; k < (p.planar ? 2 : D); ++k) p.thinnest = std::min(p.thinnest, p.hi[k] - p.lo[k]);
      // A face on (or past) a container wall moves a box length beyond it: the wall's
      // side is never the nearest way out, so no particle is pushed through the wall.
      for (int k = 0; k < D && !o.outside; ++k) {
        if (p.lo[k] <= 1e-9 * box[k]) p.lo[k] = -box[k];
        if (p.hi[k] >= box[k] * (1.0 - 1e-9)) p.hi[k] = 2.0 * box[k];
      }
    } else {
      const bool capsule = o.shape == Obstacle::Shape::Capsule;
      p.a = atMidDepth<D>(capsule ? o.a : o.centre, o.hasDepth, containerSize.z);
      p.b = atMidDepth<D>(capsule ? o.b : o.centre, o.hasDepth, containerSize.z);
      p.radius = o.radius;
      p.thinnest = 2.0 * o.radius;
      for (int k = 0; k < D; ++k) {
        lo[k] = std::min(p.a[k], p.b[k]) - o.radius;
        hi[k] = std::max(p.a[k], p.b[k]) + o.radius;
      }
    }
    for (int k = 0; k < D; ++k) {
      // The complement of a shape fills the container around it.
      const bool through = (p.planar && k == D - 1) || o.outside;
      p.inLo[k] = through ? 0.0 : std::max(lo[k], 0.0);
      p.inHi[k] = through ? box[k] : std::min(hi[k], box[k]);
    }
    if (o.outside) p.thinnest = std::numeric_limits<double>::infinity();  // backed by the walls
    for (int k = 0; k < (p.planar ? 2 : D); ++k)
      if (!(hi[k] > 0.0 && lo[k] < box[k]))
        throw std::runtime_error("obstacles[" + std::to_string(i) + "] (" + (o.outside ? "outside_of " : "") +
                                 (o.hole ? "a hole, " : "") + Obstacle::shapeName(o.shape) +
                                 ") lies outside the container" +
                                 (o.outside ? ": the solid around it would fill the container" : ""));
    m_prims.push_back(p);
  }
}

// Signed distances of the primitives (physics.md (15.1)), each with its gradient (15.2);
// the complement of a shape has the opposite of both (15.1a).
template <int D>
double Solids<D>::primDistance(const Prim& p, const Vec<D>& x, Vec<D>& normal) {
  const double d = shapeDistance(p, x, normal);
  if (!p.outside) return d;
  normal = -normal;
  return -d;
}

template <int D>
double Solids<D>::shapeDistance(const Prim& p, const Vec<D>& xIn, Vec<D>& normal) {
  Vec<D> x = xIn;
  const int axes = p.planar ? 2 : D;
  if (p.planar) x[D - 1] = p.a[D - 1];  // through the depth: measured in x and y
  normal = Vec<D>(0.0);
  if (p.shape == Obstacle::Shape::Box) {
    // q = |x - c| - half per axis: outside, the length of q's positive part; inside,
    // the largest (least negative) q, along its axis.
    Vec<D> q(0.0), sign(1.0);
    double outside = 0.0, inside = -std::numeric_limits<double>::infinity();
    int deepest = 0;
    for (int k = 0; k < axes; ++k) {
      const double c = 0.5 * (p.lo[k] + p.hi[k]), half = 0.5 * (p.hi[k] - p.lo[k]);
      sign[k] = x[k] >= c ? 1.0 : -1.0;
      q[k] = std::abs(x[k] - c) - half;
      if (q[k] > 0.0) outside += q[k] * q[k];
      if (q[k] > inside) inside = q[k], deepest = k;
    }
    if (outside > 0.0) {
      const double d = std::sqrt(outside);
      for (int k = 0; k < axes; ++k) normal[k] = q[k] > 0.0 ? sign[k] * q[k] / d : 0.0;
      return d;
    }
    normal[deepest] = sign[deepest];
    return inside;
  }
  // Sphere, disc, capsule: the distance to the segment [a, b], less the radius.
  const Vec<D> ab = p.b - p.a;
  const double len2 = lengthSquared<D>(ab);
  const double t = len2 > 0.0 ? std::clamp(glm::dot(x - p.a, ab) / len2, 0.0, 1.0) : 0.0;
  const Vec<D> r = x - (p.a + t * ab);
  const double d = glm::length(r);
  if (d > 0.0) normal = r / d;
  else normal[1] = 1.0;  // at the axis itself: out through the top
  return d - p.radius;
}

// (15.1b): the solid less its holes is where phi_base < 0 and every phi_hole > 0, so
// phi = max(phi_base, -phi_hole...), the normal from the larger term (a hole's inward).
template <int D>
double Solids<D>::groupDistance(std::size_t& k, const Vec<D>& x, Vec<D>& normal) const {
  double d = primDistance(m_prims[k], x, normal);
  while (k + 1 < m_prims.size() && m_prims[k + 1].hole) {
    Vec<D> n;
    const double cut = -primDistance(m_prims[++k], x, n);
    if (cut > d) d = cut, normal = -n;
  }
  return d;
}

template <int D>
double Solids<D>::distance(const Vec<D>& x, Vec<D>& normal) const {
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < m_prims.size(); ++k) {
    Vec<D> n;
    const double d = groupDistance(k, x, n);
    if (d < best) best = d, normal = n;
  }
  return best;
}

template <int D>
double Solids<D>::distance(const Vec<D>& x) const {
  Vec<D> n;
  return distance(x, n);
}

template <int D>
bool Solids<D>::pushOut(Vec<D>& x, Vec<D>& v, double margin) const {
  bool moved = false;
  // Each obstacle in turn, twice: a point pushed out of one into an overlapping one
  // comes out of that one too.
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t k = 0; k < m_prims.size(); ++k) {
      Vec<D> n;
      const double d = groupDistance(k, x, n);
      if (!(d < margin)) continue;
      x += (margin - d) * n;
      const double vn = glm::dot(v, n);
      if (vn < 0.0) v -= vn * n;
      moved = true;
    }
  return moved;
}

template <int D>
double Solids<D>::thinnest() const {
  double t = std::numeric_limits<double>::infinity();
  for (const Prim& p : m_prims)
    if (!p.hole) t = std::min(t, p.thinnest);  // a hole's rim may be thinner (not checked)
  return t;
}

template <int D>
std::vector<Vec<D>> Solids<D>::samples(double spacing, double depth, const Vec<D>& box) const {
  std::vector<Vec<D>> out;
  for (std::size_t base = 0; base < m_prims.size(); ++base) {
    const Prim& p = m_prims[base];
    if (p.hole) continue;  // its rim is sampled on its base's lattice
    // Per axis: evenly spaced coordinates across the box's extent inside the container
    // (a box; and every shape along a depth it runs through), else the container's
    // lattice (i + 1/2) s over the shape's bounds.
    std::array<std::vector<double>, D> axis;
    for (int k = 0; k < D; ++k) {
      const bool fitted = (p.shape == Obstacle::Shape::Box && !p.outside) || (p.planar && k == D - 1);
      if (fitted) {
        const double extent = p.inHi[k] - p.inLo[k];
        const int n = std::max(1, static_cast<int>(std::lround(extent / spacing)));
        for (int i = 0; i < n; ++i) axis[k].push_back(p.inLo[k] + (i + 0.5) * extent / n);
      } else {
        const int n = std::max(1, static_cast<int>(std::lround(box[k] / spacing)));
        const double step = box[k] / n;
        const int first = std::max(0, static_cast<int>(std::floor(p.inLo[k] / step)));
        const int last = std::min(n - 1, static_cast<int>(std::ceil(p.inHi[k] / step)));
        for (int i = first; i <= last; ++i) axis[k].push_back((i + 0.5) * step);
      }
    }
    IVec<D> idx(0);
    bool any = true;
    for (int k = 0; k < D; ++k) any = any && !axis[k].empty();
    while (any) {
      Vec<D> x;
      for (int k = 0; k < D; ++k) x[k] = axis[k][idx[k]];
      Vec<D> n;
      std::size_t last = base;
      const double own = groupDistance(last, x, n);
      // Inside this shape (less its holes) within the depth, and not deep inside another one.
      if (own < 0.0 && own > -depth && distance(x) > -depth) out.push_back(x);
      int k = 0;
      while (k < D && ++idx[k] == static_cast<int>(axis[k].size())) idx[k++] = 0;
      if (k == D) break;
    }
  }
  return out;
}

template class Solids<2>;
template class Solids<3>;

}  // namespace sloshlab
