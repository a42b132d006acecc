// The particle inspector's look into the hybrid solvers' grid (see solver.h,
// GridInspection): the faces one particle's P2G stencil reaches with the very weights
// the scatter uses (hybrid_transfer.cpp: the same Stencil and forStencil), and the
// cells around the particle's with the last projection's pressure and divergence.
//
// The stencil is taken at the particle's position now, after the last step's advection:
// the weights the next step's P2G will scatter it with. The cells' figures are the last
// projection's, on the particles' positions before that advection; the particle may have
// crossed into a neighbouring cell since, which is why the neighbours are listed too.
#include "solvers/hybrid.h"

#include "solvers/hybrid_stencils.h"

namespace sloshlab {

using namespace hybrid_detail;

namespace {

template <int D>
std::array<int, 3> padded(const IVec<D>& c) {
  std::array<int, 3> out{};
  for (int b = 0; b < D; ++b) out[b] = c[b];
  return out;
}

}  // namespace

template <int D>
bool HybridSolver<D>::inspectGrid(const ParticleSet<D>& p, std::size_t i, GridInspection& out) const {
  out = GridInspection{};
  if (i >= p.size()) return false;
  for (int b = 0; b < D; ++b) out.cellSize[b] = m_grid.h()[b];

  // The stencil, component by component: w_ip of physics.md (3.1) as P2G's scatter
  // forms it (3.6).
  withKernel(m_params.kernel, [&]<class K>() {
    const Stencil<D, K> st(p.x[i], m_grid.invH(), m_grid.h());
    for (int a = 0; a < D; ++a) {
      const Axis<K>* ax[D];
      st.axes(a, ax);
      forStencil<D, K>(ax, m_grid.faceStride(a), [&](std::size_t, double w, int i0, int i1, int i2) {
        const int local[3] = {i0, i1, i2};
        IVec<D> node;
        for (int b = 0; b < D; ++b) node[b] = ax[b]->base + local[b];
        out.faces.push_back({a, padded<D>(node), toVec3<D>(m_grid.facePosition(a, node)), w});
      });
    }
  });

  // The particle's cell, then its neighbours inside the box.
  const IVec<D> n = m_grid.cells();
  const IVec<D> home = m_grid.cellOf(p.x[i]);
  std::vector<IVec<D>> cells{home};
  const int span = D == 2 ? 9 : 27;
  for (int k = 0; k < span; ++k) {
    IVec<D> c = home;
    int code = k;
    bool inside = true;
    for (int b = 0; b < D; ++b, code /= 3) {
      c[b] += code % 3 - 1;
      inside = inside && c[b] >= 0 && c[b] < n[b];
    }
    if (inside && c != home) cells.push_back(c);
  }
  const bool havePressure = m_pressure.size() == m_grid.cellCount();  // also after a state was loaded
  const bool projected = m_unknown.size() == m_grid.cellCount();        // a step has run
  const bool haveU = m_u[0].size() == m_grid.faceCount(0);
  const Vec<D> invH = m_grid.invH();
  for (const IVec<D>& c : cells) {
    InspectedCell cell;
    cell.cell = padded<D>(c);
    Vec<D> centre;
    for (int b = 0; b < D; ++b) centre[b] = (c[b] + 0.5) * m_grid.h()[b];
    cell.position = toVec3<D>(centre);
    const std::size_t idx = m_grid.cellIndex(c);
    if (havePressure) cell.pressure = m_pressure[idx];
    if (projected) {
      const int k = m_unknown[idx];
      cell.fluid = k >= 0;
      // project() keeps the right-hand side -(div u*)_c (3.11) of the solve.
      if (k >= 0 && static_cast<std::size_t>(k) < m_rhs.size()) cell.divergenceBefore = -m_rhs[static_cast<std::size_t>(k)];
    }
    if (haveU) {
      double div = 0.0;  // (3.11) on the projected field
      for (int a = 0; a < D; ++a) {
        IVec<D> right = c;
        right[a] += 1;
        div += (m_u[a][m_grid.faceIndex(a, right)] - m_u[a][m_grid.faceIndex(a, c)]) * invH[a];
      }
      cell.divergence = div;
    }
    out.cells.push_back(cell);
  }
  return true;
}

template bool HybridSolver<2>::inspectGrid(const ParticleSet<2>&, std::size_t, GridInspection&) const;
template bool HybridSolver<3>::inspectGrid(const ParticleSet<3>&, std::size_t, GridInspection&) const;

}  // namespace sloshlab
