// The staggered MAC grid of the hybrid solvers (Harlow & Welch 1965, doi:10.1063/1.1761178;
// Bridson, "Fluid Simulation for Computer Graphics", 2nd ed. 2015, ch. 2).
//
// The grid is the container: in the container's frame the box spans [0, size] and
// its walls are grid faces. The cell count per axis is size/h rounded to an integer
// and the cell edge of that axis is size/n, so the walls lie exactly on faces; for
// the built-in scenes (sizes multiples of 2 x spacing) the cells are square.
//
// Layout (physics.md section 3). Velocity component a lives on the faces normal to axis a: face node
// (i, j, k) of component a sits at x_a = i h_a and x_b = (j + 1/2) h_b on the other
// axes. Each component is a flat array with kGhost layers of ghost nodes on every
// side, so transfer stencils near the walls need no range checks: P2G writes into
// ghosts (and the result there is dropped), G2P reads ghosts that fillGhostFaces()
// sets by reflection at the walls (odd for the normal component, which makes u.n = 0
// on the wall; even for the tangential ones: free slip). Cell labels carry one
// layer of Solid cells around the box: those are the walls.
#pragma once

#include "sloshlab/math.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace sloshlab {

enum class CellLabel : std::uint8_t { Air, Fluid, Solid };

template <int D>
using FaceArrays = std::array<std::vector<double>, D>;  // one flat array per velocity component

template <int D>
class MacGrid {
 public:
  static constexpr int kGhost = 2;

  void configure(const Vec<D>& box, double targetCell);

  const IVec<D>& cells() const { return m_n; }
  const Vec<D>& h() const { return m_h; }
  const Vec<D>& invH() const { return m_invH; }
  double cellVolume() const { return product<D>(m_h); }
  std::size_t cellCount() const { return m_cellCount; }

  // Cells without padding, x fastest: the order particles are binned in.
  std::size_t cellIndex(const IVec<D>& c) const {
    std::size_t idx = 0;
    for (int b = D - 1; b >= 0; --b) idx = idx * static_cast<std::size_t>(m_n[b]) + static_cast<std::size_t>(c[b]);
    return idx;
  }
  IVec<D> cellOf(const Vec<D>& x) const {
    IVec<D> c;
    for (int b = 0; b < D; ++b) {
      const int i = static_cast<int>(std::floor(x[b] * m_invH[b]));
      c[b] = i < 0 ? 0 : (i >= m_n[b] ? m_n[b] - 1 : i);
    }
    return c;
  }
  IVec<D> cellCoords(std::size_t idx) const {
    IVec<D> c;
    for (int b = 0; b < D; ++b) {
      c[b] = static_cast<int>(idx % static_cast<std::size_t>(m_n[b]));
      idx /= static_cast<std::size_t>(m_n[b]);
    }
    return c;
  }

  // Labels: one padding layer of Solid cells around the box.
  std::size_t labelIndex(const IVec<D>& c) const {
    std::size_t idx = 0;
    for (int b = 0; b < D; ++b) idx += static_cast<std::size_t>(c[b] + 1) * m_labelStride[b];
    return idx;
  }
  const std::array<std::size_t, D>& labelStride() const { return m_labelStride; }
  std::vector<CellLabel>& labels() { return m_labels; }
  const std::vector<CellLabel>& labels() const { return m_labels; }
  CellLabel label(const IVec<D>& c) const { return m_labels[labelIndex(c)]; }

  // Faces of component a: node[a] in [0, n_a] (0 and n_a are walls), node[b] in
  // [0, n_b - 1]; ghosts extend each range by kGhost on both sides.
  IVec<D> faceNodes(int a) const {
    IVec<D> f = m_n;
    f[a] += 1;
    return f;
  }
  std::size_t faceCount(int a) const { return m_faceCount[a]; }
  const std::array<std::size_t, D>& faceStride(int a) const { return m_faceStride[a]; }
  std::size_t faceIndex(int a, const IVec<D>& node) const {
    std::size_t idx = 0;
    for (int b = 0; b < D; ++b) idx += static_cast<std::size_t>(node[b] + kGhost) * m_faceStride[a][b];
    return idx;
  }
  Vec<D> facePosition(int a, const IVec<D>& node) const {
    Vec<D> x;
    for (int b = 0; b < D; ++b) x[b] = (node[b] + (b == a ? 0.0 : 0.5)) * m_h[b];
    return x;
  }
  // True for the faces on the container walls (normal velocity fixed to 0).
  void allocate(FaceArrays<D>& u, double value = 0.0) const {
    for (int a = 0; a < D; ++a) u[a].assign(m_faceCount[a], value);
  }

 private:
  IVec<D> m_n{1};
  Vec<D> m_h{1.0}, m_invH{1.0};
  std::size_t m_cellCount = 1;
  std::array<std::size_t, D> m_labelStride{};
  std::vector<CellLabel> m_labels;
  std::array<std::array<std::size_t, D>, D> m_faceStride{};
  std::array<std::size_t, D> m_faceCount{};
};

// Visits every node in [lo, hi) with x fastest; the slowest axis is split across threads.
template <int D, class F>
void parallelForNodes(const IVec<D>& lo, const IVec<D>& hi, F&& f) {
  if constexpr (D == 2) {
#pragma omp parallel for schedule(static)
    for (int j = lo.y; j < hi.y; ++j)
      for (int i = lo.x; i < hi.x; ++i) f(IVec<2>(i, j));
  } else {
#pragma omp parallel for schedule(static)
    for (int k = lo.z; k < hi.z; ++k)
      for (int j = lo.y; j < hi.y; ++j)
        for (int i = lo.x; i < hi.x; ++i) f(IVec<3>(i, j, k));
  }
}

// Extends a face velocity field (physics.md (3.7)) from the faces marked valid into the others, layer by
// layer: an invalid face next to valid ones takes their mean (Bridson 2015, on extrapolating velocity).
// Wall faces are never sources or targets; faces still invalid after `layers` get 0.
// valid: 1 where known on entry, 0 elsewhere; on return a face filled by layer k holds k + 1.
template <int D>
void extrapolateVelocity(const MacGrid<D>& grid, FaceArrays<D>& u, std::array<std::vector<std::uint8_t>, D>& valid,
                         int layers);

// Sets the ghost faces by reflection at the walls (physics.md (3.8)): odd for the normal component
// (u(-x) = -u(x): u.n = 0 on the wall), even for the tangential ones (free slip).
template <int D>
void fillGhostFaces(const MacGrid<D>& grid, FaceArrays<D>& u);

// The whole velocity at face `node` of component a: its own component, the others the mean
// of the four nearest faces of theirs (the node must be an interior face: no ghosts read).
template <int D>
Vec<D> velocityAtFace(const MacGrid<D>& grid, const FaceArrays<D>& u, int a, const IVec<D>& node) {
  Vec<D> v;
  v[a] = u[a][grid.faceIndex(a, node)];
  for (int b = 0; b < D; ++b) {
    if (b == a) continue;
    IVec<D> q = node;
    q[a] -= 1;
    const double s0 = u[b][grid.faceIndex(b, q)] + u[b][grid.faceIndex(b, node)];
    q[b] += 1;
    IVec<D> r = node;
    r[b] += 1;
    v[b] = 0.25 * (s0 + u[b][grid.faceIndex(b, q)] + u[b][grid.faceIndex(b, r)]);
  }
  return v;
}

// Linear interpolation of the face field at x (for advection); needs the ghosts filled.
template <int D>
Vec<D> interpolateVelocity(const MacGrid<D>& grid, const FaceArrays<D>& u, const Vec<D>& x);

}  // namespace sloshlab
