// The hybrid solvers' ghost-fluid free surface (hybrid.h, Free surface;
// physics.md (3.12a)-(3.12d)): where p = 0 lies between a fluid cell and an air cell.
#include "solvers/hybrid.h"

#include "grid/bspline.h"

#include <algorithm>
#include <cmath>

namespace sloshlab {

namespace {
// Smallest fraction theta of a cell between a fluid cell's centre and the surface: the
// air term q_i/(theta h^2) stays bounded [GFCK02].
constexpr double kMinTheta = 0.02;
}  // namespace

// The liquid's volume fraction at the centres of the cells on either side of the free
// surface (hybrid.h, Free surface; physics.md (3.12a)): c = sum_p m_p / (rho h^D) prod_k N((x_c - x_p)_k / h_k),
// each axis's weight mirrored at the two walls (as if the liquid went on beyond them).
// Fluid cells away from the surface read 1, air cells 0.
template <int D>
void HybridSolver<D>::locateSurface(const ParticleSet<D>& p) {
  m_fraction.resize(m_grid.cellCount());
  if (static_cast<FreeSurface>(m_params.freeSurface) != FreeSurface::GhostFluid) return;
  const std::vector<CellLabel>& labels = m_grid.labels();
  const IVec<D> n = m_grid.cells();
  const Vec<D> h = m_grid.h(), invH = m_grid.invH();
  const double perMass = 1.0 / (m_params.restDensity * m_grid.cellVolume());
  auto isFluid = [&](const IVec<D>& c) { return labels[m_grid.labelIndex(c)] == CellLabel::Fluid; };
  parallelForNodes<D>(IVec<D>(0), n, [&](const IVec<D>& c) {
    const bool fluid = isFluid(c);
    bool surface = false;
    IVec<D> lo, hi;
    for (int a = 0; a < D; ++a) {
      lo[a] = std::max(c[a] - 1, 0), hi[a] = std::min(c[a] + 1, n[a] - 1);
      for (int side : {lo[a], hi[a]}) {
        IVec<D> nb = c;
        nb[a] = side;
        surface = surface || isFluid(nb) != fluid;
      }
    }
    const std::size_t idx = m_grid.cellIndex(c);
    if (!surface) {
      m_fraction[idx] = fluid ? 1.0 : 0.0;
      return;
    }
    Vec<D> centre, wall;
    for (int b = 0; b < D; ++b) centre[b] = (c[b] + 0.5) * h[b], wall[b] = n[b] * h[b];
    double sum = 0.0;
    IVec<D> q = lo;
    while (true) {  // the particles of the cells within one cell of c
      const std::size_t cell = m_grid.cellIndex(q);
      for (std::size_t i = m_cellStart[cell]; i < m_cellStart[cell + 1]; ++i) {
        double w = p.m[i];
        for (int b = 0; b < D; ++b) {
          const double x = p.x[i][b];
          w *= QuadraticBSpline::value((centre[b] - x) * invH[b]) + QuadraticBSpline::value((centre[b] + x) * invH[b]) +
               QuadraticBSpline::value((2.0 * wall[b] - centre[b] - x) * invH[b]);
        }
        sum += w;
      }
      int b = 0;
      while (b < D && ++q[b] > hi[b]) q[b] = lo[b], ++b;
      if (b == D) break;
    }
    m_fraction[idx] = sum * perMass;
  });
}

// The fraction theta of the way from a fluid cell's centre to its air neighbour's at
// which p = 0: where the liquid fraction crosses 1/2 (hybrid.h, Free surface; physics.md (3.12b)).
// It enters the Poisson row (3.12c) and the ghost value (3.12d).
template <int D>
double HybridSolver<D>::surfaceTheta(std::size_t fluidCell, std::size_t airCell) const {
  if (static_cast<FreeSurface>(m_params.freeSurface) != FreeSurface::GhostFluid) return 1.0;
  const double cf = m_fraction[fluidCell], ca = m_fraction[airCell];
  if (ca >= 0.5) return 1.0;        // the air cell's centre is in the liquid: a cell's surface
  if (cf <= 0.5) return kMinTheta;  // the fluid cell's centre is out of it: p ~ 0 there
  return std::clamp((cf - 0.5) / (cf - ca), kMinTheta, 1.0);
}

template void HybridSolver<2>::locateSurface(const ParticleSet<2>&);
template void HybridSolver<3>::locateSurface(const ParticleSet<3>&);
template double HybridSolver<2>::surfaceTheta(std::size_t, std::size_t) const;
template double HybridSolver<3>::surfaceTheta(std::size_t, std::size_t) const;

}  // namespace sloshlab
