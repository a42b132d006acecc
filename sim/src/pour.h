// The faucet and the outlet of a run (sloshlab/pour.h): which particles they add and
// remove each step, in the container frame, and their running totals (physics.md §14).
#pragma once

#include "io/state_archive.h"
#include "sloshlab/particles.h"
#include "sloshlab/pour.h"
#include "sloshlab/scene.h"
#include "sloshlab/solids.h"

#include <cstdint>
#include <vector>

namespace sloshlab {

template <int D>
class Pour {
 public:
  // From the scene, for a box of `box` at particle spacing `spacing`; throws SceneError
  // for a faucet or an outlet the box cannot hold.
  void configure(const Scene& scene, const Vec<D>& box, double spacing);
  bool hasFaucet() const { return m_hasFaucet; }
  bool hasOutlet() const { return m_hasOutlet; }
  // Whether a step of dt would add or remove anything (only then are the particles read).
  bool busy() const { return (m_hasFaucet && m_faucetOn) || (m_hasOutlet && m_outletOn); }
  // Whether a step of dt reads the particles: the outlet is open, or the jet will have
  // advanced a spacing (a device-resident solver's particles are brought up only then).
  bool readsParticles(double dt) const {
    return (m_hasOutlet && m_outletOn) || (m_hasFaucet && m_faucetOn && m_advance + m_faucet.speed * dt >= m_spacing);
  }
  void setFaucetOn(bool on) { m_faucetOn = on; }
  void setOutletOn(bool on) { m_outletOn = on; }
  // Closing the hole: the particles past its wall (in the spout) have left; they are taken
  // as drain() takes them (origin as in apply). False when there were none.
  bool takeSpout(ParticleSet<D>& p, std::vector<std::int64_t>& origin);
  // The hole an outlet on a wall makes in it while open (physics.md (14.3)); none for an
  // outlet inside the container (a drain's mouth) or a closed one.
  WallOpening<D> opening() const { return m_outletOn ? m_hole : WallOpening<D>{}; }
  // How far beyond the wall's plane the solver keeps the jet (m; the hole's diameter for
  // the particle solvers, none for a grid, whose cells end at the walls).
  void setSpout(double spout) { m_hole.spout = spout; }
  double jetSpeed() const { return m_hasFaucet ? m_faucet.speed : 0.0; }

  // The outlet's removals, then the faucet's layers for a step of dt (14.1)-(14.2).
  // `origin` gets, for each particle after the change, its index before it (-1: new).
  // Returns false, and leaves the particles alone, when nothing changed.
  bool apply(ParticleSet<D>& p, double dt, std::vector<std::int64_t>& origin);

  PourStats stats() const;
  void exchangeState(StateArchive& ar);
  // The particles that left through the hole in the last apply (container frame: x, v).
  const std::vector<Vec<D>>& leftX() const { return m_leftX; }
  const std::vector<Vec<D>>& leftV() const { return m_leftV; }

 private:
  // Takes the particles past the hole's wall by more than `depth` (the outlet inside:
  // those within its radius).
  void drain(ParticleSet<D>& p, std::vector<std::int64_t>& origin, double depth);
  void fill(ParticleSet<D>& p, double dt, std::vector<std::int64_t>& origin);

  bool m_hasFaucet = false, m_hasOutlet = false;
  bool m_faucetOn = false, m_outletOn = false;
  Faucet m_faucet;
  Outlet m_outlet;
  Vec<D> m_nozzle{0.0}, m_direction{0.0}, m_centre{0.0};  // the faucet's and outlet's, in this dimension
  std::vector<Vec<D>> m_crossSection;  // the nozzle's lattice points, relative to its centre
  WallOpening<D> m_hole;  // the outlet's hole, when it lies on a wall
  Vec<D> m_box{0.0};
  double m_spacing = 0.0;
  double m_particleMass = 0.0;  // the last particle mass seen (the solver calibrates it)
  double m_advance = 0.0;       // how far the jet has left the nozzle since its last layer (m)
  double m_massIn = 0.0, m_massOut = 0.0;
  double m_outflowSpeedSum = 0.0;  // a diagnostic: not in the state file
  std::vector<Vec<D>> m_leftX, m_leftV;  // what passed the hole in the last apply
  long m_in = 0, m_out = 0, m_blocked = 0;
};

// The liquid that left through a hole in a wall, falling freely in the world frame
// (physics.md (14.7)) for `kLife` seconds: drawn, not simulated. Nothing collides with it,
// and state files leave it out.
class OutflowJet {
 public:
  static constexpr double kLife = 1.5;         // s
  static constexpr std::size_t kMost = 50000;  // the oldest go first beyond this
  void add(const Vec3& x, const Vec3& v);
  // x'' = g for dt; those older than kLife leave.
  void advance(double dt, const Vec3& gravity);
  const std::vector<Vec3>& positions() const { return m_x; }
  const std::vector<Vec3>& velocities() const { return m_v; }
  void clear() { m_x.clear(), m_v.clear(), m_age.clear(); }

 private:
  std::vector<Vec3> m_x, m_v;
  std::vector<double> m_age;
};

}  // namespace sloshlab
