// Obstacles fixed to the container: baffles, posts, a divider that makes a U-tube.
//
// Each obstacle is a primitive solid given by its signed distance function phi (negative
// inside) in the container's frame, where the walls stand still (physics.md §15,
// (15.1)-(15.3)); the obstacles together are the union of their solids, phi = min_k phi_k.
// Primitives: a box, a sphere (in 2D a disc), a disc (in 3D a cylinder along z through the
// whole depth) and a capsule (a segment grown by a radius). As for the fluid blocks of a
// scene, a box or capsule given with two components spans the whole depth in 3D. A
// primitive may be turned inside out ("outside_of"): the solid is then the container
// outside it, phi -> -phi, and the liquid stays inside it: a capsule from below the floor
// to above the lid makes a cylindrical glass.
//
// A primitive may also be a hole cut out of the obstacle before it ("difference" in the
// scene file: the first shape less the rest, (15.1b)): a plate with a hole, or a box that
// fills the container less a cylinder and a narrower one above it, a bottle with a neck.
// The holes belong to that obstacle alone; the obstacles are still one union.
//
// A particle that ends a move inside an obstacle is put back on its surface, `margin`
// outside it, and keeps no velocity into it (15.3): the same invariant as the box walls
// (containment.h). The SPH solvers also sample the obstacles as boundary particles
// (boundary_samples.h) and the grid solvers mark the cells whose centre lies inside as
// solid (hybrid.cpp).
#pragma once

#include "sloshlab/math.h"

#include <string>
#include <utility>
#include <vector>

namespace sloshlab {

struct Obstacle {
  enum class Shape { Box, Sphere, Disc, Capsule };
  Shape shape = Shape::Box;
  Vec3 min{0.0}, max{0.0};  // Box
  Vec3 centre{0.0};         // Sphere, Disc
  Vec3 a{0.0}, b{0.0};      // Capsule: the segment's ends
  double radius = 0.0;      // Sphere, Disc, Capsule
  bool hasDepth = false;    // given with z: placed in depth in 3D; else through the whole depth
  bool outside = false;     // the solid is the container outside the shape: a glass, a round tank
  bool hole = false;        // cut out of the obstacle before it (a difference); never the first

  static const char* shapeName(Shape shape);
  bool operator==(const Obstacle&) const = default;
};

// The obstacles as a surface to draw or export, in the container's frame, clipped to the
// box: triangles (three points each; 2D: the filled shapes in the plane z = 0) and
// edges (two points each: 2D the outlines; 3D the silhouettes of the faces and rings).
struct ObstacleMesh {
  std::vector<Vec3> triangles;
  std::vector<Vec3> edges;
};
ObstacleMesh obstacleMesh(const std::vector<Obstacle>& obstacles, const Vec3& containerSize, int dim);

// The obstacles as groups: each base primitive with the holes that follow it, as the
// half-open ranges [first, end) of the list.
std::vector<std::pair<std::size_t, std::size_t>> obstacleGroups(const std::vector<Obstacle>& obstacles);

// A hole in one of the container's walls: an outlet on a wall (sloshlab/pour.h, physics.md
// (14.3)). The opening is the segment (2D) or disc (3D) of radius r about `centre`, in the
// wall's plane x[axis] = 0 (side 0) or L[axis] (side 1). Liquid across it is not held
// by that wall: it leaves the container, runs on as a jet through the spout (the space
// `spout` deep beyond the plane, where the particle solvers keep it) and the outlet takes
// it beyond that.
template <int D>
struct WallOpening {
  int axis = -1;  // -1: no opening
  int side = 0;
  Vec<D> centre{0.0};
  double radius = 0.0;
  double spout = 0.0;  // m beyond the wall's plane

  bool exists() const { return axis >= 0; }
  // x's offset from the centre along the wall (the wall's own axis left out) is under r.
  bool across(const Vec<D>& x) const {
    double d2 = 0.0;
    for (int k = 0; k < D; ++k)
      if (k != axis) d2 += (x[k] - centre[k]) * (x[k] - centre[k]);
    return d2 < radius * radius;
  }
  // x lies past the wall's plane by more than `depth`, outside the box [0, box].
  bool passed(const Vec<D>& x, const Vec<D>& box, double depth = 0.0) const {
    return side == 0 ? x[axis] < -depth : x[axis] > box[axis] + depth;
  }
  // x has left through the hole and the spout (the outlet takes it).
  bool gone(const Vec<D>& x, const Vec<D>& box) const { return passed(x, box, spout); }
};

// The union of a scene's obstacles in one dimension, resolved against the container.
template <int D>
class Solids {
 public:
  Solids() = default;
  // Throws std::runtime_error naming the obstacle when one lies wholly outside the box.
  Solids(const std::vector<Obstacle>& obstacles, const Vec3& containerSize);

  bool empty() const { return m_prims.empty(); }
  std::size_t size() const { return m_prims.size(); }  // primitives, holes included
  // phi(x) (15.1): the signed distance to the nearest obstacle (m), +infinity without one
  // (with holes, (15.1b): a bound on the distance, exact away from a hole's rim).
  double distance(const Vec<D>& x) const;
  // phi and its gradient, the outward normal of the nearest obstacle (15.2).
  double distance(const Vec<D>& x, Vec<D>& normal) const;
  // (15.3): x closer than margin to an obstacle (or inside one) moves out along the
  // normal to phi = margin, and loses its velocity into the obstacle. True if moved.
  bool pushOut(Vec<D>& x, Vec<D>& v, double margin) const;
  // The obstacle's thinnest extent (m): a box's smallest side, twice a round radius.
  double thinnest() const;
  // Boundary samples (physics.md (15.4)): lattice points at about `spacing` inside each
  // obstacle, no deeper than `depth`, within the box [0, box]. A box's lattice fits its
  // faces (its outer points half a spacing inside them, as the walls' first layer lies
  // outside the container); a round shape's lies on the container's lattice.
  std::vector<Vec<D>> samples(double spacing, double depth, const Vec<D>& box) const;

  // The primitives as resolved against the container (the GPU path evaluates the same
  // distances in its shaders, shaders/gpu/common.glsl).
  struct Prim {
    Obstacle::Shape shape;
    Vec<D> lo{0.0}, hi{0.0};  // Box (faces on the container's walls moved beyond them)
    Vec<D> inLo{0.0}, inHi{0.0};  // the part inside the container (any shape's bounds)
    Vec<D> a{0.0}, b{0.0};    // Capsule ends; Sphere and Disc: a = b = centre
    double radius = 0.0;
    bool planar = false;      // 3D: through the depth, measured in x and y only
    bool outside = false;     // the complement of the shape
    bool hole = false;        // cut out of the obstacle before it (15.1b)
    double thinnest = 0.0;
  };
  const std::vector<Prim>& primitives() const { return m_prims; }

  // The container's wall opening (an outlet on a wall, while it is open); none by default.
  const WallOpening<D>& opening() const { return m_opening; }
  void setOpening(const WallOpening<D>& opening) { m_opening = opening; }

 private:
  static double primDistance(const Prim& p, const Vec<D>& x, Vec<D>& normal);
  // phi of the obstacle whose base is m_prims[k], less its holes (15.1b); k moves to its
  // last hole.
  double groupDistance(std::size_t& k, const Vec<D>& x, Vec<D>& normal) const;
  static double shapeDistance(const Prim& p, const Vec<D>& x, Vec<D>& normal);
  std::vector<Prim> m_prims;
  WallOpening<D> m_opening;
};

}  // namespace sloshlab
