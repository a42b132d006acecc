// Floating bodies: rigid objects in the liquid, pushed by it and pushing it back
// (physics.md §16, eqs (16.1)-(16.16)).
//
// A body is a box, a ball (a disc in 2D), a capsule or a boat's hull with a density. It
// moves in the container's frame under gravity and the frame's own accelerations (8.4),
// bounces off the walls, the obstacles and the other bodies (restitution and friction),
// and trades momentum with the liquid. In the SPH solvers (WCSPH, DFSPH, PBF) the liquid
// sees it as walls, through boundary samples inside it, and it takes the opposite of each
// sample's push (16.11)-(16.14). In the grid solvers (PIC, FLIP, APIC) it is a moving
// solid on the grid's faces, its velocity solved with the pressure (16.17)-(16.19). In
// every solver a particle that ends a step
// within a margin of it is moved out to that margin and loses its velocity into it, and
// the body takes the impulse the particle lost (16.5)-(16.6), one contact after another,
// so each pair keeps its momentum.
#pragma once

#include "sloshlab/math.h"
#include "sloshlab/solids.h"

#include <array>
#include <string>
#include <vector>

namespace sloshlab {

struct BodySpec {
  enum class Shape { Box, Ball, Capsule, Hull };
  Shape shape = Shape::Box;
  // Box: full extents (m); without z the depth in 3D is size.y. Hull: the deck's width,
  // the height and (3D) the length along z, as a box's.
  Vec3 size{0.0};
  double bottom = 0.0;       // Hull: the keel's width (m): a trapezoid in x and y, extruded along z
  double radius = 0.0;       // Ball, Capsule (m)
  double length = 0.0;       // Capsule: the segment along the body's x axis (m)
  double density = 500.0;    // kg/m^3
  Vec3 position{0.0};        // the centre, in the container's frame (m); z: mid-depth when not given
  double angle = 0.0;        // rad about z (2D and 3D)
  Vec3 velocity{0.0};        // start velocity (m/s), container frame
  bool hasDepth = false;     // position given with z

  static const char* shapeName(Shape shape);
  bool operator==(const BodySpec&) const = default;
};

// A body's shape and where it is now, for the window, the exports and the inspector.
struct BodyView {
  BodySpec spec;               // shape and density (as edited)
  Vec3 position{0.0};          // centre, container frame (m)
  Mat3 rotation{1.0};          // body axes -> container axes
  Vec3 velocity{0.0};          // m/s, container frame
  Vec3 angularVelocity{0.0};   // rad/s, relative to the container
  double mass = 0.0;           // kg (2D: kg per metre of depth)
  Vec3 inertia{0.0};           // principal moments about its centre, body axes (kg m^2; 2D z alone, per metre)
  Vec3 fluidForce{0.0};        // the liquid's force on it over the last step (N; 2D N/m)
  Vec3 fluidTorque{0.0};       // about its centre (N m; 2D N m/m)
  // The same averaged over the last third of a second of simulated time (an exponential
  // average, step by step): the step's own come in bursts. Not kept in state files.
  Vec3 meanFluidForce{0.0}, meanFluidTorque{0.0};
  double draft = 0.0;          // depth of its lowest point below the liquid's surface (m), 0 when dry
};

// The body's surface where it is now, in the container's frame, for the window and the
// exports (as obstacleMesh draws the obstacles; 2D: its outline and fill in z = 0).
ObstacleMesh bodyMesh(const BodyView& body, int dim);
// The signed distance (m, negative inside) from the container-frame point x to the body
// where it is now (physics.md (16.1)); the window picks a body under the mouse with it.
double bodyDistance(const BodyView& body, const Vec3& x, int dim);

// A hull's section in x and y, counter-clockwise about its centroid (physics.md (16.16)).
std::array<Vec2, 4> hullSection(const BodySpec& hull);

// The body's volume (m^3; 2D m^2) and its shape's thinnest extent (m).
double bodyVolume(const BodySpec& body, int dim);
double bodyThinnest(const BodySpec& body, int dim);

}  // namespace sloshlab
