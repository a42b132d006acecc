// Hard-sphere particles: the "particle gas" that a fluid is not (physics.md section 1).
//
// References
//   [Kim17] D. Kim, "Fluid Engine Development", CRC Press 2017, ch. 2 (particle
//           system phases, collider response).
//   [BFA02] R. Bridson, R. Fedkiw, J. Anderson, "Robust treatment of collisions,
//           contact and friction for cloth animation", SIGGRAPH 2002 (friction).
//   Source note 000: the oblique elastic collision of two spheres.
//
// Pair collision (spheres touching, |x1 - x2| < r1 + r2, and approaching),
// physics.md (1.1)-(1.2):
//     v1' = v1 - (1+e) m2/(m1+m2) <v1 - v2, x1 - x2>/|x1 - x2|^2 (x1 - x2)
//     v2' = v2 + (1+e) m1/(m1+m2) <v1 - v2, x1 - x2>/|x1 - x2|^2 (x1 - x2)
// Only the normal component is exchanged; for e = 1 momentum and kinetic energy are
// conserved exactly. Overlap left after the exchange is removed by moving the pair
// apart along the normal in inverse proportion to mass (momentum is untouched),
// physics.md (1.4).
//
// One step: accumulateForces (gravity, frame, drag -c(v - v_wind); physics.md (1.5))
// -> integrate (constant-acceleration flight, (1.5a)) -> resolveWalls (restitution e_w,
// the lift paid by the rebound, Coulomb friction mu; physics.md section 2, (2.1)-(2.4))
// -> findPairs -> resolvePairs.
// Pairs are resolved one after another in index order, so the result does not depend
// on the thread count.
#pragma once

#include "sph/neighbour_grid.h"
#include "sph/neighbour_list.h"
#include "sloshlab/solver.h"

namespace sloshlab {

struct CollisionParams {
  double restitution = 1.0;      // e between particles
  double wallRestitution = 1.0;  // e_w against the walls
  double wallFriction = 0.0;     // mu against the walls
  double radius = 0.4;           // sphere radius / spacing
  double drag = 0.0;             // c (1/s) in a = -c (v - v_wind)
  double windX = 0.0;            // v_wind, world frame (m/s)
  double windY = 0.0;
  bool gravity = true;
  double cfl = 0.2;              // dt = cfl r / |v|max
};

template <int D>
class CollisionSolver final : public Solver<D> {
 public:
  static const ParamTable& paramTable();

  const char* name() const override { return "collisions"; }
  ParamRef params() override { return {&m_params, &paramTable()}; }
  void reset(ParticleSet<D>& p, const SolverSetup<D>& setup) override;
  void paramsChanged(ParticleSet<D>& p) override;
  void setOpening(ParticleSet<D>&, const WallOpening<D>& opening) override { m_solids.setOpening(opening); }
  double maxTimeStep(const ParticleSet<D>& p, const StepContext<D>& ctx) const override;
  double interactionRadius() const override { return 2.0 * m_radius; }
  bool drivesEnergy() const override { return m_params.drag > 0.0 && (m_params.windX != 0.0 || m_params.windY != 0.0); }
  void step(ParticleSet<D>& p, const StepContext<D>& ctx, SolverReport& report) override;
  void exchangeState(StateArchive& ar, ParticleSet<D>& p) override;

  // The velocity change of a pair collision (source note 000; physics.md (1.2)),
  // exposed for tests.
  static void collide(Vec<D>& v1, Vec<D>& v2, double m1, double m2, const Vec<D>& x1, const Vec<D>& x2,
                      double restitution);

 private:
  FrameMotion<D> accelerations(const StepContext<D>& ctx) const;
  void integrate(ParticleSet<D>& p, const StepContext<D>& ctx, const FrameMotion<D>& frame);
  Vec<D> resolveWalls(ParticleSet<D>& p, const FrameMotion<D>& frame);
  Vec<D> resolveObstacle(Vec<D>& x, Vec<D>& v, const FrameMotion<D>& frame) const;
  int resolvePairs(ParticleSet<D>& p);

  CollisionParams m_params;
  Vec<D> m_box{1.0};
  Solids<D> m_solids;  // obstacles (solids.h)
  double m_spacing = 0.0;
  double m_radius = 0.0;
  NeighbourGrid<D> m_grid;
  NeighbourList m_pairs;
};

}  // namespace sloshlab
