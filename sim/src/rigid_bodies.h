// The floating bodies of a run (sloshlab/bodies.h; physics.md §16): their motion in the
// container's frame, their contacts, and the momentum they trade with the liquid.
#pragma once

#include "sloshlab/bodies.h"
#include "sloshlab/container.h"
#include "sloshlab/particles.h"
#include "sloshlab/solids.h"
#include "sloshlab/solver.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace sloshlab {

class StateArchive;

// How close (in spacings) a particle may come to a body that pushes the liquid with its
// boundary samples before (16.5) moves it out: the samples' pressure keeps it about half a
// spacing off, as the walls do.
constexpr double kSampledBodyMargin = 0.25;
// The gap, in spacings, such a body keeps from the walls, the obstacles and the other
// bodies (16.15): room for one layer of liquid, which it can then not crush.
constexpr double kSampledBodyClearance = 1.0;

template <int D>
class RigidBodies {
 public:
  // Throws std::runtime_error (one line naming the body) for a body outside the box, in an
  // obstacle, overlapping another, or thinner than two spacings.
  void configure(const std::vector<BodySpec>& specs, const Vec<D>& box, double spacing, const Solids<D>& solids);
  bool empty() const { return m_bodies.empty(); }
  std::size_t size() const { return m_bodies.size(); }

  // The signed distance to body k (negative inside, (16.1)) and its outward normal.
  double distance(std::size_t k, const Vec<D>& x, Vec<D>& normal) const;
  // The distance to the nearest body (+infinity without one).
  double distance(const Vec<D>& x) const;

  // One step of the bodies alone: the frame's and gravity's acceleration (16.3), the turn
  // (16.4), then the contacts with the walls, the obstacles and each other (16.7).
  // `pushed`: takeImpulses gave the centres their acceleration already.
  void advance(double dt, const FrameMotion<D>& frame, const Vec<D>& box, const Solids<D>& solids,
               bool pushed = false);
  // The bodies as boundary samples for an SPH solver (physics.md (16.11)): layers (l + 1/2)
  // s inside each surface, down to `depth`, where the body is now, with the velocity of
  // the body there; the impulses zeroed.
  void layOutSamples(double spacing, double depth, BodySamples<D>& out);
  // The impulses the solver left on the samples, taken by their bodies before advance
  // (16.12). A body lighter than the liquid it displaces shares its push with the liquid
  // within `layer` of it (16.14): the momentum is kept and the exchange stays stable.
  // With them the body's weight and frame force, which advance then leaves out.
  void takeImpulses(const BodySamples<D>& samples, double dt, const FrameMotion<D>& frame, ParticleSet<D>& p,
                    double layer);
  // The bodies as moving solids for a grid solver (physics.md (16.17)): each with its
  // velocity after gravity and the frame's force over dt, which advance then leaves out.
  void describeMoving(double dt, const FrameMotion<D>& frame, MovingBodies<D>& out) const;
  // The velocities the grid's pressure solve gave them (16.19), and the liquid's force.
  void takeMoving(const MovingBodies<D>& solved, double dt);
  // The liquid after its step: each particle within `margin` of a body moved out, and the
  // impulse of the velocity it loses into the body given to the body (16.5)-(16.6);
  // then kept inside the box and out of the obstacles; then the bodies' contacts once
  // more (16.7), without bounce. Records each body's force.
  void couple(ParticleSet<D>& p, double margin, double dt, const Vec<D>& box, const Solids<D>& solids);

  // Each body as the window and the inspector show it; `level` is the liquid's surface
  // height (container y) for the draft, below 0 for none.
  std::vector<BodyView> views(double level) const;
  // The liquid's surface height away from the bodies (the median of the columns' tops),
  // for the drafts; -1 without liquid.
  double surfaceLevel(const ParticleSet<D>& p, double spacing) const;
  // Its parts, for particles kept elsewhere (a solver on the device: Solver::columnTops):
  // the columns' width, the zones about the bodies whose particles it leaves out (a
  // radius measured across y), and the level from the columns' tops.
  static double levelColumnWidth(double spacing) { return 2.0 * spacing; }
  void levelExclusions(double spacing, std::vector<Vec<D>>& centres, std::vector<double>& radii) const;
  static double levelFromTops(std::vector<double> tops, double spacing);
  // The mouse's hand on body k (16.10): the body's point `anchor` (its own axes) pulled to
  // `target` (container frame) by a critically damped spring scaled by the body's mass;
  // `release` lets go. Not kept in state files (a hand is not part of a run).
  void pull(std::size_t k, const Vec<D>& anchor, const Vec<D>& target);
  void release() { m_pulled = false; }
  bool pulled() const { return m_pulled; }
  // A new density (kg/m^3, clamped to the scene's [1, 1e5]) for body k, edited while the run
  // goes: the mass and inertia follow.
  void setDensity(std::size_t k, double density);
  // The longest step in which no body's surface moves more than `cfl` spacings (16.9).
  double maxTimeStep(double spacing, double cfl = 0.4) const;
  // The fastest point of any body (|v| + |w| reach, m/s, container frame); +infinity
  // when a body's state is not finite (a blow-up), 0 without bodies.
  double fastestSpeed() const;
  // Kinetic energy (J; 2D J/m) and momentum of the bodies, container frame.
  double kineticEnergy() const;
  Vec<D> momentum() const;

  // Loading checks each body: a finite state, a rotation, a centre inside `box`.
  void exchangeState(StateArchive& ar, const Vec<D>& box);

 private:
  struct Feature {  // a contact point in the body's frame, grown by a radius
    Vec<D> p{0.0};
    double radius = 0.0;
  };
  struct Body {
    BodySpec spec;
    Vec<D> x{0.0}, v{0.0};        // centre and its velocity (container frame)
    Vec3 w{0.0};                  // angular velocity relative to the container, container axes
    Mat3 R{1.0};                  // body axes -> container axes
    double mass = 0.0, invMass = 0.0;
    Vec3 inertia{0.0};            // principal moments, body axes
    double reach = 0.0;           // bounding radius about the centre
    std::vector<Feature> features;
    Vec3 force{0.0}, torque{0.0}; // from the liquid over the last step
    Vec3 meanForce{0.0}, meanTorque{0.0};  // their average over the last third of a second
    Vec3 sampleForce{0.0}, sampleTorque{0.0};  // its part through the samples or the grid (takeImpulses, takeMoving)
    std::vector<Vec<D>> samples;  // boundary samples in the body's axes (layOutSamples)
    std::vector<Vec<D>> touching; // the contacts' normals since the last advance (into the body), one per direction
  };
 public:
  // The shape's signed distance at p in the body's own axes, with the outward normal (16.1).
  static double shapeDistance(const BodySpec& s, const Vec<D>& p, Vec<D>& normal);
  // A shape's boundary samples in its own axes (physics.md (16.11)).
  static std::vector<Vec<D>> shapeSamples(const BodySpec& s, double spacing, double depth);

 private:
  void derive(Body& b) const;      // mass, inertia, reach, features from the spec
  Vec3 invInertiaTimes(const Body& b, const Vec3& t) const;  // I^-1 t in container axes
  Vec<D> pointVelocity(const Body& b, const Vec<D>& x) const;
  // An impulse j at the container point x on body b (and -j on `other` when given).
  void applyImpulse(Body& b, const Vec<D>& x, const Vec<D>& j) const;
  // A contact of body a (and body b, or a fixed wall) along n at x, n pointing into a.
  void resolveContact(Body& a, Body* b, const Vec<D>& x, const Vec<D>& n, double depth, bool bounce) const;
  static void noteTouch(Body& b, const Vec<D>& n);
  void contacts(const Vec<D>& box, const Solids<D>& solids, bool bounce);
  void nearParticles(const ParticleSet<D>& p, double margin);

 public:
  // The gap a body keeps from the walls, the obstacles and the other bodies (m): 0, or
  // a spacing when the liquid sees the bodies through samples (physics.md (16.15)).
  void setClearance(double clearance) { m_clearance = clearance; }

 private:

  std::vector<Body> m_bodies;
  double m_spacing = 0.0;
  double m_restitution = 0.3, m_friction = 0.4;
  // Scratch: the (particle, body) pairs within a margin of a body's bounding sphere
  // (nearParticles), and those sharing a body's push (takeImpulses).
  std::vector<std::pair<std::uint32_t, std::uint32_t>> m_nearPairs, m_sharers;
  double m_sampleSpacing = 0.0, m_sampleDepth = 0.0;  // what the bodies' samples were laid for
  double m_clearance = 0.0;
  bool m_pulled = false;               // the mouse holds a body
  std::size_t m_pullBody = 0;
  Vec<D> m_pullAnchor{0.0}, m_pullTarget{0.0};
};

}  // namespace sloshlab
