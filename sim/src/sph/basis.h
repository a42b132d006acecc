// What every SPH solver (WCSPH, DFSPH, PBF) derives from its support and rest density:
// the cubic spline, the neighbourhoods, the particle mass that puts the emitter's
// lattice at rest density (4.5), and how far inside the walls particle centres stay.
#pragma once

#include "sph/smoothing_kernel.h"
#include "sph/neighbourhood.h"
#include "sloshlab/emitter.h"
#include "sloshlab/particles.h"

#include <algorithm>

namespace sloshlab {

// The incompressible solvers (DFSPH, PBF) keep particle centres (physics.md (2.5)) at least this many
// spacings inside the walls. Their pressure alone does not: a particle at a wall with
// sparse fluid neighbours has the rest density with its centre on the wall (half its
// neighbourhood is boundary samples), and the 2D bottle drew particles half outside.
// Half a spacing (where the emitter puts the first layer) is too much: the bottom
// layer settles a little below it under its load, and clamping it there kept a 2D
// DFSPH tank 0.17 % compressed.
constexpr double kSphWallMargin = 0.25;

// m = rho0 / sum_j W(x_i - x_j) over the emitter's lattice (physics.md (4.5)): a particle inside the
// initial block then has exactly the rest density.
template <int D>
double calibratedMass(double rho0, double spacing, double support) {
  const CubicSpline<D> kernel(support);
  double sum = 0.0;
  for (const Vec<D>& p : latticeNeighbourhood<D>(spacing, support)) sum += kernel.W(p);
  return rho0 / sum;
}

// What every SPH solver (WCSPH, DFSPH, PBF) re-derives when its support or rest density
// is edited: the kernel and neighbourhood for h = support x spacing, and the one
// particle mass that puts the emitter's lattice at rho0.
template <int D>
class SphBasis {
 public:
  CubicSpline<D> kernel;
  SphNeighbourhood<D> hood;
  double mass = 0.0;    // every particle's mass (kg)
  double volume = 0.0;  // V = m / rho0 (m^D)

  void invalidate() { m_support = m_density = 0.0; }
  void update(const SphLayout<D>& layout, ParticleSet<D>& p) {
    m_layout = layout;
    const double h = layout.support, rho0 = layout.restDensity;
    if (h != m_support) {
      kernel = CubicSpline<D>(h);
      hood.configure(layout);
      m_support = h;
      m_density = 0.0;
    }
    if (rho0 != m_density || p.m.empty() || p.m[0] == 0.0) {
      mass = calibratedMass<D>(rho0, layout.spacing, h);
      volume = mass / rho0;
      std::fill(p.m.begin(), p.m.end(), mass);
      m_density = rho0;
    }
  }
  // The walls changed (the solids' opening, read through the layout's `solids`): the
  // boundary samples are laid out again and the lists rebuilt at the next update.
  void wallsChanged() {
    if (m_support > 0.0) hood.configure(m_layout);
  }

 private:
  SphLayout<D> m_layout;   // the last update's
  double m_support = 0.0;  // h the kernel and lists were built for
  double m_density = 0.0;  // rho0 the mass was calibrated for
};

}  // namespace sloshlab
