// The colour fields of the SPH solvers (sloshlab/solver.h, FieldKind): vorticity over
// the pair cache, and the incompressible solvers' density, pressure and vorticity.
#pragma once

#include "sph/sums.h"
#include "sloshlab/solver.h"

#include <algorithm>
#include <span>
#include <vector>

namespace sloshlab {

// The colour for vorticity: omega_z in 2D (signed), |omega| in 3D.
template <int D>
float vorticityColour(const Vec3& omega) {
  return static_cast<float>(D == 2 ? omega.z : glm::length(omega));
}

// The vorticity colour field over a pair cache of the last step (pairVorticity); 0 where
// the cache is not the particles'.
template <int D>
void pairVorticityField(const SymmetricPairCache<D>& pairs, const ParticleSet<D>& p, std::span<float> out) {
  const std::size_t n = p.size();
  std::vector<Vec3> omega(n, Vec3(0.0));
  if (pairs.particles() == n) pairVorticity<D>(pairs, p.v, omega);
  for (std::size_t i = 0; i < n; ++i) out[i] = vorticityColour<D>(omega[i]);
}

// The colour fields of the incompressible solvers (DFSPH, PBF): density from the
// density ratio, the solver's pressure and vorticity (each computed only when asked for).
template <int D, class PressureFn, class VorticityFn>
bool incompressibleField(FieldKind kind, const ParticleSet<D>& p, std::span<const double> rhoRatio, double rho0,
                         PressureFn pressure, VorticityFn vorticity, std::span<float> out) {
  if (rhoRatio.size() != p.size()) return false;
  switch (kind) {
    case FieldKind::Density:
      for (std::size_t i = 0; i < p.size(); ++i) out[i] = static_cast<float>(rhoRatio[i] * rho0);
      return true;
    case FieldKind::Pressure: {
      const std::vector<double> pr = pressure();
      for (std::size_t i = 0; i < p.size(); ++i) out[i] = static_cast<float>(pr[i]);
      return true;
    }
    case FieldKind::Vorticity:
      vorticity(out);
      return true;
    default:
      return false;
  }
}

}  // namespace sloshlab
