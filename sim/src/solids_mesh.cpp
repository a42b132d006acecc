// The obstacles' surfaces for the window and the exports (solids.h, ObstacleMesh).
#include "sloshlab/bodies.h"
#include "sloshlab/solids.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace sloshlab {

namespace {

constexpr int kRing = 48;  // points on a full circle

// A convex polygon in the xy plane, counter-clockwise.
using Polygon = std::vector<Vec3>;

Polygon arc(const Vec3& centre, double radius, double from, double to, int points) {
  Polygon out;
  for (int k = 0; k <= points; ++k) {
    const double t = from + (to - from) * k / points;
    out.push_back(centre + radius * Vec3(std::cos(t), std::sin(t), 0.0));
  }
  return out;
}

// The outline of a shape in x and y (a box, a disc, a stadium).
Polygon outline(const Obstacle& o, const Vec3& size) {
  if (o.shape == Obstacle::Shape::Box) {
    const Vec3 lo = glm::max(o.min, Vec3(0.0)), hi = glm::min(o.max, size);
    return {{lo.x, lo.y, 0.0}, {hi.x, lo.y, 0.0}, {hi.x, hi.y, 0.0}, {lo.x, hi.y, 0.0}};
  }
  if (o.shape != Obstacle::Shape::Capsule) {
    Polygon ring = arc(Vec3(o.centre.x, o.centre.y, 0.0), o.radius, 0.0, 2.0 * kPi, kRing);
    ring.pop_back();
    return ring;
  }
  const Vec3 a(o.a.x, o.a.y, 0.0), b(o.b.x, o.b.y, 0.0);
  const double along = std::atan2(b.y - a.y, b.x - a.x);
  Polygon out = arc(b, o.radius, along - 0.5 * kPi, along + 0.5 * kPi, kRing / 2);
  const Polygon back = arc(a, o.radius, along + 0.5 * kPi, along + 1.5 * kPi, kRing / 2);
  out.insert(out.end(), back.begin(), back.end());
  return out;
}

void loop(std::vector<Vec3>& edges, const Polygon& p, double z) {
  for (std::size_t k = 0; k < p.size(); ++k) {
    const Vec3 a = p[k], b = p[(k + 1) % p.size()];
    edges.push_back({a.x, a.y, z});
    edges.push_back({b.x, b.y, z});
  }
}

// A fan over a convex polygon at height z (flipped: facing -z).
void fan(std::vector<Vec3>& tris, const Polygon& p, double z, bool flipped) {
  for (std::size_t k = 1; k + 1 < p.size(); ++k) {
    const Vec3 a(p[0].x, p[0].y, z), b(p[k].x, p[k].y, z), c(p[k + 1].x, p[k + 1].y, z);
    tris.push_back(a);
    tris.push_back(flipped ? c : b);
    tris.push_back(flipped ? b : c);
  }
}

// A prism over the polygon from z0 to z1.
void prism(ObstacleMesh& m, const Polygon& p, double z0, double z1) {
  fan(m.triangles, p, z0, true);
  fan(m.triangles, p, z1, false);
  for (std::size_t k = 0; k < p.size(); ++k) {
    const Vec3 a = p[k], b = p[(k + 1) % p.size()];
    const Vec3 a0(a.x, a.y, z0), b0(b.x, b.y, z0), a1(a.x, a.y, z1), b1(b.x, b.y, z1);
    m.triangles.insert(m.triangles.end(), {a0, b0, b1, a0, b1, a1});
  }
  loop(m.edges, p, z0);
  loop(m.edges, p, z1);
}

// A surface of revolution about the segment a-b: radius(t) for t in [0, 1] along the
// profile, position along the axis pos(t) (the capsule, the sphere).
template <class R, class P>
void lathe(ObstacleMesh& m, const Vec3& axis, const Vec3& origin, R radius, P pos, int rows) {
  Vec3 e1, e2;
  perpendicularAxes(axis, e1, e2);
  auto point = [&](int row, int col) {
    const double t = static_cast<double>(row) / rows, phi = 2.0 * kPi * col / kRing;
    return origin + pos(t) * axis + radius(t) * (std::cos(phi) * e1 + std::sin(phi) * e2);
  };
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < kRing; ++c) {
      const Vec3 a = point(r, c), b = point(r, c + 1), d = point(r + 1, c), e = point(r + 1, c + 1);
      m.triangles.insert(m.triangles.end(), {a, b, e, a, e, d});
    }
  for (int r : {rows / 4, rows / 2, 3 * rows / 4})
    for (int c = 0; c < kRing; ++c) {
      m.edges.push_back(point(r, c));
      m.edges.push_back(point(r, c + 1));
    }
}

// The lattice the 2D solids are drawn on: cells 1/160 of the container's larger side.
struct Lattice2d {
  int nx, ny;
  double hx, hy;
  explicit Lattice2d(const Vec3& size) {
    const double cell = std::max(size.x, size.y) / 160.0;
    nx = std::max(1, static_cast<int>(std::ceil(size.x / cell)));
    ny = std::max(1, static_cast<int>(std::ceil(size.y / cell)));
    hx = size.x / nx, hy = size.y / ny;
  }
};

// The lattice's cells whose centre lies inside the solid, merged into one quad per run
// along x (triangles facing +z).
void solidCells2d(std::vector<Vec3>& tris, const Solids<2>& solid, const Lattice2d& l) {
  for (int j = 0; j < l.ny; ++j) {
    int start = -1;
    for (int i = 0; i <= l.nx; ++i) {
      const bool solidHere = i < l.nx && solid.distance(Vec<2>((i + 0.5) * l.hx, (j + 0.5) * l.hy)) < 0.0;
      if (solidHere && start < 0) start = i;
      if (!solidHere && start >= 0) {
        const Vec3 a(start * l.hx, j * l.hy, 0.0), b(i * l.hx, j * l.hy, 0.0), c(i * l.hx, (j + 1) * l.hy, 0.0),
            d(start * l.hx, (j + 1) * l.hy, 0.0);
        tris.insert(tris.end(), {a, b, c, a, c, d});
        start = -1;
      }
    }
  }
}

// The container around a shape (Obstacle::outside) in 2D: solidCells2d, and the shape's
// outline where it lies inside the box.
void complement2d(ObstacleMesh& m, const Obstacle& o, const Vec3& size) {
  solidCells2d(m.triangles, Solids<2>({o}, size), Lattice2d(size));
  Obstacle shape = o;
  shape.outside = false;
  const Polygon p = outline(shape, size);
  auto inBox = [&](const Vec3& v) { return v.x >= 0.0 && v.x <= size.x && v.y >= 0.0 && v.y <= size.y; };
  for (std::size_t k = 0; k < p.size(); ++k) {
    const Vec3 a = p[k], b = p[(k + 1) % p.size()];
    if (inBox(a) && inBox(b)) m.edges.insert(m.edges.end(), {a, b});
  }
}

// The zero line of phi over a lattice of nu x nv nodes (phi[i + nu j] at point(i, j)), by
// marching triangles (each lattice cell split along a diagonal): segments, two points
// each, with the solid (phi < 0) on their left.
template <class Point>
void zeroLine(std::vector<Vec3>& segs, const std::vector<double>& phi, int nu, int nv, Point point) {
  auto crossing = [&](int i0, int j0, int i1, int j1) {
    const double a = phi[i0 + nu * j0], b = phi[i1 + nu * j1];
    const double t = a / (a - b);
    return point(i0, j0) + t * (point(i1, j1) - point(i0, j0));
  };
  for (int j = 0; j + 1 < nv; ++j)
    for (int i = 0; i + 1 < nu; ++i) {
      const int corner[2][3][2] = {{{i, j}, {i + 1, j}, {i + 1, j + 1}}, {{i, j}, {i + 1, j + 1}, {i, j + 1}}};
      for (const auto& tri : corner) {
        std::array<bool, 3> in;
        int inside = 0;
        for (int v = 0; v < 3; ++v) inside += (in[v] = phi[tri[v][0] + nu * tri[v][1]] < 0.0);
        if (inside == 0 || inside == 3) continue;
        // The lone vertex (the one on its own side) and the line across its two edges.
        int lone = 0;
        for (int v = 0; v < 3; ++v)
          if ((inside == 1) == in[v]) lone = v;
        const auto& l = tri[lone];
        const auto& p = tri[(lone + 1) % 3];
        const auto& q = tri[(lone + 2) % 3];
        Vec3 a = crossing(l[0], l[1], p[0], p[1]), b = crossing(l[0], l[1], q[0], q[1]);
        // The triangle's vertices run counter-clockwise; going from the edge after the
        // lone vertex to the one before it keeps the lone vertex on the left.
        if (!in[lone]) std::swap(a, b);
        segs.push_back(a);
        segs.push_back(b);
      }
    }
}

// An obstacle with holes ((15.1b), a difference), drawn from its signed distance: in 2D
// solidCells2d and its outline by zeroLine; in 3D
// through the depth the outline swept along z with the 2D fill as its caps; else its
// surface by marching tetrahedra, with its outline on three horizontal slices.
void differenceMesh(ObstacleMesh& m, const std::vector<Obstacle>& group, const Vec3& size, int dim) {
  bool planar = dim == 2;
  if (dim == 3) {
    const Solids<3> s3(group, size);
    planar = std::all_of(s3.primitives().begin(), s3.primitives().end(), [](const auto& p) { return p.planar; });
  }
  if (planar) {
    const Solids<2> solid(group, size);
    const Lattice2d l(size);
    const int nx = l.nx, ny = l.ny;
    const double hx = l.hx, hy = l.hy;
    std::vector<Vec3> fill;
    solidCells2d(fill, solid, l);
    std::vector<double> phi((nx + 1) * (ny + 1));
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) phi[i + (nx + 1) * j] = solid.distance(Vec<2>(i * hx, j * hy));
    std::vector<Vec3> line;
    zeroLine(line, phi, nx + 1, ny + 1, [&](int i, int j) { return Vec3(i * hx, j * hy, 0.0); });
    if (dim == 2) {
      m.triangles.insert(m.triangles.end(), fill.begin(), fill.end());
      m.edges.insert(m.edges.end(), line.begin(), line.end());
      return;
    }
    for (double z : {0.0, size.z}) {
      for (std::size_t k = 0; k < fill.size(); k += 3) {  // the back cap faces -z
        const Vec3 a(fill[k].x, fill[k].y, z), b(fill[k + 1].x, fill[k + 1].y, z), c(fill[k + 2].x, fill[k + 2].y, z);
        m.triangles.insert(m.triangles.end(), {a, z == 0.0 ? c : b, z == 0.0 ? b : c});
      }
      for (const Vec3& v : line) m.edges.push_back({v.x, v.y, z});
    }
    for (std::size_t k = 0; k < line.size(); k += 2) {  // the solid on the left: outward to the right
      const Vec3 a0(line[k].x, line[k].y, 0.0), b0(line[k + 1].x, line[k + 1].y, 0.0);
      const Vec3 a1(a0.x, a0.y, size.z), b1(b0.x, b0.y, size.z);
      m.triangles.insert(m.triangles.end(), {a0, b0, b1, a0, b1, a1});
    }
    return;
  }
  const Solids<3> solid(group, size);
  const int n = 64;
  const double cell = std::max({size.x, size.y, size.z}) / n;
  const IVec<3> cells(std::max(1, static_cast<int>(std::ceil(size.x / cell))),
                      std::max(1, static_cast<int>(std::ceil(size.y / cell))),
                      std::max(1, static_cast<int>(std::ceil(size.z / cell))));
  const Vec3 h = size / Vec3(cells);
  const IVec<3> nodes = cells + 1;
  auto node = [&](int i, int j, int k) { return static_cast<std::size_t>(i + nodes.x * (j + nodes.y * k)); };
  std::vector<double> phi(static_cast<std::size_t>(nodes.x) * nodes.y * nodes.z);
  for (int k = 0; k < nodes.z; ++k)
    for (int j = 0; j < nodes.y; ++j)
      for (int i = 0; i < nodes.x; ++i) phi[node(i, j, k)] = solid.distance(Vec<3>(i, j, k) * h);
  // The cube's six tetrahedra about its diagonal from corner 0 to corner 7 (corner bits:
  // x 1, y 2, z 4).
  static constexpr int kTets[6][4] = {{0, 1, 3, 7}, {0, 3, 2, 7}, {0, 2, 6, 7}, {0, 6, 4, 7}, {0, 4, 5, 7}, {0, 5, 1, 7}};
  for (int k = 0; k < cells.z; ++k)
    for (int j = 0; j < cells.y; ++j)
      for (int i = 0; i < cells.x; ++i)
        for (const auto& tet : kTets) {
          Vec3 x[4];
          double f[4];
          int inside = 0;
          for (int v = 0; v < 4; ++v) {
            const int c = tet[v], ci = i + (c & 1), cj = j + ((c >> 1) & 1), ck = k + ((c >> 2) & 1);
            x[v] = Vec3(ci, cj, ck) * h;
            f[v] = phi[node(ci, cj, ck)];
            inside += f[v] < 0.0;
          }
          if (inside == 0 || inside == 4) continue;
          auto cross = [&](int a, int b) { return x[a] + f[a] / (f[a] - f[b]) * (x[b] - x[a]); };
          std::vector<int> in, out;
          Vec3 centreIn(0.0), centreOut(0.0);
          for (int v = 0; v < 4; ++v) {
            (f[v] < 0.0 ? in : out).push_back(v);
            (f[v] < 0.0 ? centreIn : centreOut) += x[v];
          }
          const Vec3 outward = centreOut / double(out.size()) - centreIn / double(in.size());
          auto emit = [&](Vec3 a, Vec3 b, Vec3 c) {
            if (glm::dot(glm::cross(b - a, c - a), outward) < 0.0) std::swap(b, c);
            m.triangles.insert(m.triangles.end(), {a, b, c});
          };
          if (in.size() == 1) emit(cross(in[0], out[0]), cross(in[0], out[1]), cross(in[0], out[2]));
          else if (out.size() == 1) emit(cross(out[0], in[0]), cross(out[0], in[1]), cross(out[0], in[2]));
          else {
            const Vec3 a = cross(in[0], out[0]), b = cross(in[0], out[1]), c = cross(in[1], out[1]),
                       d = cross(in[1], out[0]);
            emit(a, b, c);
            emit(a, c, d);
          }
        }
  for (const double y : {0.25 * size.y, 0.5 * size.y, 0.75 * size.y}) {
    std::vector<double> slice(static_cast<std::size_t>(nodes.x) * nodes.z);
    for (int k = 0; k < nodes.z; ++k)
      for (int i = 0; i < nodes.x; ++i) slice[i + nodes.x * k] = solid.distance(Vec<3>(i * h.x, y, k * h.z));
    zeroLine(m.edges, slice, nodes.x, nodes.z, [&](int i, int k) { return Vec3(i * h.x, y, k * h.z); });
  }
}

}  // namespace

ObstacleMesh obstacleMesh(const std::vector<Obstacle>& obstacles, const Vec3& size, int dim) {
  ObstacleMesh m;
  for (const auto& [first, end] : obstacleGroups(obstacles)) {
    const Obstacle& o = obstacles[first];
    if (end - first > 1) {
      differenceMesh(m, std::vector<Obstacle>(obstacles.begin() + first, obstacles.begin() + end), size, dim);
      continue;
    }
    const bool planar = dim == 2 || o.shape == Obstacle::Shape::Disc || (!o.hasDepth && o.shape != Obstacle::Shape::Sphere);
    if (o.outside && dim == 2) {
      complement2d(m, o, size);
      continue;
    }
    if (o.outside && planar && o.shape != Obstacle::Shape::Box) {
      // Around a shape through the depth: its wall, without caps.
      const Polygon p = outline(o, size);
      ObstacleMesh walls;
      prism(walls, p, 0.0, size.z);
      const std::size_t caps = 2 * 3 * (p.size() - 2);
      m.triangles.insert(m.triangles.end(), walls.triangles.begin() + static_cast<std::ptrdiff_t>(caps),
                         walls.triangles.end());
      m.edges.insert(m.edges.end(), walls.edges.begin(), walls.edges.end());
      continue;
    }
    if (planar) {
      const Polygon p = outline(o, size);
      if (dim == 2) {
        fan(m.triangles, p, 0.0, false);
        loop(m.edges, p, 0.0);
      } else {
        prism(m, p, 0.0, size.z);
      }
      continue;
    }
    if (o.shape == Obstacle::Shape::Box) {
      const Vec3 lo = glm::max(o.min, Vec3(0.0)), hi = glm::min(o.max, size);
      const Polygon p = outline(o, size);
      prism(m, p, lo.z, hi.z);
      for (const Vec3& c : p) m.edges.insert(m.edges.end(), {{c.x, c.y, lo.z}, {c.x, c.y, hi.z}});
      continue;
    }
    // A sphere (centre at mid-depth when given in x and y), or a capsule in depth.
    const Vec3 a = o.shape == Obstacle::Shape::Sphere ? Vec3(o.centre.x, o.centre.y, o.hasDepth ? o.centre.z : 0.5 * size.z)
                                                      : o.a;
    const Vec3 b = o.shape == Obstacle::Shape::Sphere ? a : o.b;
    if (o.outside && o.shape == Obstacle::Shape::Capsule) {
      // Around a capsule in depth (a glass): its side within the box, without the ends.
      const Vec3 a0 = glm::clamp(a, Vec3(0.0), size), b0 = glm::clamp(b, Vec3(0.0), size);
      const double len = glm::length(b0 - a0);
      const Vec3 axis = len > 0.0 ? (b0 - a0) / len : Vec3(0.0, 1.0, 0.0);
      lathe(m, axis, a0, [&](double) { return o.radius; }, [&](double t) { return t * len; }, 8);
      continue;
    }
    const double len = glm::length(b - a), r = o.radius;
    const Vec3 axis = len > 0.0 ? (b - a) / len : Vec3(0.0, 1.0, 0.0);
    // The profile: a half circle at a, the cylinder, a half circle at b, by arc length.
    const double total = kPi * r + len;
    auto at = [&](double t, bool wantRadius) {
      const double s = t * total;
      if (s < 0.5 * kPi * r) {
        const double th = s / r;  // from the pole at a
        return wantRadius ? r * std::sin(th) : -r * std::cos(th);
      }
      if (s < 0.5 * kPi * r + len) return wantRadius ? r : s - 0.5 * kPi * r;
      const double th = (s - 0.5 * kPi * r - len) / r;
      return wantRadius ? r * std::cos(th) : len + r * std::sin(th);
    };
    lathe(m, axis, a, [&](double t) { return at(t, true); }, [&](double t) { return at(t, false); }, 32);
  }
  return m;
}

// A body's shape as an obstacle centred in a box of its own, meshed there, then turned
// and moved to where the body is (bodies.h).
ObstacleMesh bodyMesh(const BodyView& body, int dim) {
  const BodySpec& b = body.spec;
  if (b.shape == BodySpec::Shape::Hull) {  // its section, a prism along z in 3D
    Polygon p;
    for (const Vec2& v : hullSection(b)) p.push_back(Vec3(v.x, v.y, 0.0));
    ObstacleMesh m;
    if (dim == 2) {
      fan(m.triangles, p, 0.0, false);
      loop(m.edges, p, 0.0);
    } else {
      const double half = 0.5 * (b.size.z > 0.0 ? b.size.z : b.size.y);
      prism(m, p, -half, half);
      for (const Vec3& c : p) m.edges.insert(m.edges.end(), {{c.x, c.y, -half}, {c.x, c.y, half}});
    }
    const auto place = [&](Vec3& v) {
      v = body.position + body.rotation * v;
      if (dim == 2) v.z = 0.0;
    };
    for (Vec3& v : m.triangles) place(v);
    for (Vec3& v : m.edges) place(v);
    return m;
  }
  const double reach = b.shape == BodySpec::Shape::Box ? glm::length(b.size) + b.size.y
                                                       : 0.5 * b.length + b.radius;
  const Vec3 c(reach + 1.0);  // the shape's centre in its own box
  Obstacle o;
  o.hasDepth = true;
  if (b.shape == BodySpec::Shape::Box) {
    const Vec3 half = 0.5 * Vec3(b.size.x, b.size.y, b.size.z > 0.0 ? b.size.z : b.size.y);
    o.shape = Obstacle::Shape::Box, o.min = c - half, o.max = c + half;
  } else if (b.shape == BodySpec::Shape::Ball) {
    o.shape = Obstacle::Shape::Sphere, o.centre = c, o.radius = b.radius;
  } else {
    o.shape = Obstacle::Shape::Capsule, o.radius = b.radius;
    o.a = c - Vec3(0.5 * b.length, 0.0, 0.0), o.b = c + Vec3(0.5 * b.length, 0.0, 0.0);
  }
  ObstacleMesh m = obstacleMesh({o}, 2.0 * c, dim);
  const auto place = [&](Vec3& v) {
    Vec3 local = v - c;
    if (dim == 2) local.z = 0.0;
    v = body.position + body.rotation * local;
    if (dim == 2) v.z = 0.0;
  };
  for (Vec3& v : m.triangles) place(v);
  for (Vec3& v : m.edges) place(v);
  return m;
}

}  // namespace sloshlab
