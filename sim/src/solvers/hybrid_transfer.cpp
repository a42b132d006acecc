// The hybrid solvers' transfers between particles and grid (see hybrid.h): P2G, the
// slab-coloured scatter of particle momentum to the faces, and G2P, the PIC, FLIP and
// APIC gathers [ZB05, JSS+15]: physics.md (3.1)-(3.6) and (3.16)-(3.19).
#include "solvers/hybrid.h"

#include "solvers/hybrid_stencils.h"

#include <algorithm>
#include <cmath>

namespace sloshlab {

using namespace hybrid_detail;

namespace {
constexpr int kSlab = 5;  // cell layers per P2G slab (see hybrid.h)
}  // namespace

// ---------------------------------------------------------------------------------
// 6. P2G

// P2G, then u* extended into the air it borders; a copy is kept for FLIP and the forces.
template <int D>
void HybridSolver<D>::particlesToGrid(ParticleSet<D>& p) {
  if (transfer() == Transfer::Apic && m_c.size() != p.size()) initialiseAffine(p);
  transferToGrid(p);
  markValidFaces(KnownFaces::ReachedByParticles);
  extrapolateVelocity<D>(m_grid, m_u, m_valid, extrapolationLayers());
  fillGhostFaces<D>(m_grid, m_u);
  extendThroughOpening();
  for (int a = 0; a < D; ++a) m_uOld[a] = m_u[a];
}

template <int D>
void HybridSolver<D>::transferToGrid(ParticleSet<D>& p) {
  binParticles(p);
  labelCells();
  locateSurface(p);
  for (int a = 0; a < D; ++a) {
    std::fill(m_mass[a].begin(), m_mass[a].end(), 0.0);
    std::fill(m_u[a].begin(), m_u[a].end(), 0.0);
  }
  const bool affine = transfer() == Transfer::Apic && m_c.size() == p.size();
  withKernel(m_params.kernel, [&]<class K>() {
    if (affine) scatter<K, true>(p);
    else scatter<K, false>(p);
  });
  // u_i = (m v)_i / m_i where any particle reached the node.
  for (int a = 0; a < D; ++a) {
    const std::int64_t count = static_cast<std::int64_t>(m_u[a].size());
    double* u = m_u[a].data();
    const double* m = m_mass[a].data();
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < count; ++i) u[i] = m[i] > 0.0 ? u[i] / m[i] : 0.0;
  }
}

// m_i = sum_p m_p w_ip; (m v)_i = sum_p m_p w_ip (v_p + C_p (x_i - x_p)) (physics.md (3.6);
// [JSS+15] for the affine term, per MAC component). Race-free by slab colouring (hybrid.h).
template <int D>
template <class K, bool kAffine>
void HybridSolver<D>::scatter(const ParticleSet<D>& p) {
  const int layers = m_grid.cells()[D - 1];
  const std::size_t layerCells = m_grid.cellCount() / static_cast<std::size_t>(layers);
  const int slabs = (layers + kSlab - 1) / kSlab;
  const Vec<D> h = m_grid.h(), invH = m_grid.invH();
  for (int colour = 0; colour < 2; ++colour) {
#pragma omp parallel for schedule(dynamic, 1)
    for (int s = colour; s < slabs; s += 2) {
      const std::size_t first = m_cellStart[static_cast<std::size_t>(s * kSlab) * layerCells];
      const std::size_t last = m_cellStart[static_cast<std::size_t>(std::min(layers, (s + 1) * kSlab)) * layerCells];
      for (std::size_t i = first; i < last; ++i) {
        const Stencil<D, K> st(p.x[i], invH, h);
        const double m = p.m[i];
        for (int a = 0; a < D; ++a) {
          const Axis<K>* ax[D];
          st.axes(a, ax);
          double* mass = m_mass[a].data();
          double* mom = m_u[a].data();
          const double va = p.v[i][a];
          double affine[3][K::kWidth] = {};  // c_a[b] (x_i - x_p)_b, per axis
          if constexpr (kAffine)
            for (int b = 0; b < D; ++b)
              for (int k = 0; k < K::kWidth; ++k) affine[b][k] = m_c[i][a][b] * ax[b]->dx[k];
          forStencil<D, K>(ax, m_grid.faceStride(a), [&](std::size_t idx, double w, int i0, int i1, int i2) {
            double v = va;
            if constexpr (kAffine) {
              v += affine[0][i0] + affine[1][i1];
              if constexpr (D == 3) v += affine[2][i2];
            }
            (void)i0, (void)i1, (void)i2;
            mass[idx] += m * w;
            mom[idx] += m * w * v;
          });
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------
// 8. G2P

namespace {

// One particle's interpolations for component a: sum_i w_ip u_i (new field), the same
// of the old field (FLIP), and B_p D^-1 = sum_i w_ip u_i (x_i - x_p)^T D^-1, or for the
// linear kernel sum_i u_i grad w_ip^T (APIC, [JSS+15]).
template <int D, class K, bool kOld, bool kAffine>
inline void interpolateComponent(const Axis<K>* const* ax, const std::array<std::size_t, D>& stride,
                                 const double* u, const double* uOld, const Vec<D>& invH, double& value,
                                 double& old, Vec<D>& c) {
  value = 0.0, old = 0.0;
  c = Vec<D>(0.0);
  forStencil<D, K>(ax, stride, [&](std::size_t idx, double w, int i0, int i1, int i2) {
    const double ui = u[idx];
    value += w * ui;
    if constexpr (kOld) old += w * uOld[idx];
    if constexpr (kAffine) {
      const int k[3] = {i0, i1, i2};
      if constexpr (K::kInverseD == 0.0) {
        for (int b = 0; b < D; ++b) {
          double g = ax[b]->dw[k[b]] * invH[b];
          for (int e = 0; e < D; ++e)
            if (e != b) g *= ax[e]->w[k[e]];
          c[b] += ui * g;
        }
      } else {
        for (int b = 0; b < D; ++b) c[b] += w * ui * ax[b]->dx[k[b]];
      }
    }
    (void)i0, (void)i1, (void)i2;
  });
  if constexpr (kAffine && K::kInverseD != 0.0)
    for (int b = 0; b < D; ++b) c[b] *= K::kInverseD * invH[b] * invH[b];
}

}  // namespace

template <int D>
void HybridSolver<D>::gridToParticles(ParticleSet<D>& p) {
  if (transfer() == Transfer::Apic) m_c.resize(p.size());
  withKernel(m_params.kernel, [&]<class K>() {
    switch (transfer()) {
      case Transfer::Pic: gather<K, Transfer::Pic>(p); break;
      case Transfer::Flip: gather<K, Transfer::Flip>(p); break;
      case Transfer::Apic: gather<K, Transfer::Apic>(p); break;
    }
  });
}

// PIC: v_p = sum_i w_ip u_i. FLIP: v_p = alpha v_PIC + (1 - alpha)(v_p + sum_i w_ip (u_i - u*_i))
// [ZB05]. APIC: v_p = sum_i w_ip u_i, C_p = sum_i w_ip u_i (x_i - x_p)^T D^-1 [JSS+15]; physics.md (3.16)-(3.19).
template <int D>
template <class K, Transfer T>
void HybridSolver<D>::gather(ParticleSet<D>& p) {
  constexpr bool kFlip = T == Transfer::Flip, kApic = T == Transfer::Apic;
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  const Vec<D> h = m_grid.h(), invH = m_grid.invH();
  const double alpha = m_params.picFraction;
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    const Stencil<D, K> st(p.x[i], invH, h);
    Vec<D> v = p.v[i];
    for (int a = 0; a < D; ++a) {
      const Axis<K>* ax[D];
      st.axes(a, ax);
      double pic, old;
      Vec<D> c;
      interpolateComponent<D, K, kFlip, kApic>(ax, m_grid.faceStride(a), m_u[a].data(), m_uOld[a].data(), invH, pic,
                                                old, c);
      if constexpr (kFlip) v[a] = alpha * pic + (1.0 - alpha) * (v[a] + pic - old);
      else v[a] = pic;
      if constexpr (kApic) m_c[i][a] = c;
    }
    p.v[i] = v;
  }
}

// PIC velocity and APIC matrix of the grid field at x (for reseeded particles).
template <int D>
template <class K>
void HybridSolver<D>::sampleGrid(const Vec<D>& x, Vec<D>& v, std::array<Vec<D>, D>& c) const {
  const Stencil<D, K> st(x, m_grid.invH(), m_grid.h());
  for (int a = 0; a < D; ++a) {
    const Axis<K>* ax[D];
    st.axes(a, ax);
    double old;
    interpolateComponent<D, K, false, true>(ax, m_grid.faceStride(a), m_u[a].data(), nullptr, m_grid.invH(), v[a],
                                            old, c[a]);
  }
}

template void HybridSolver<2>::particlesToGrid(ParticleSet<2>&);
template void HybridSolver<3>::particlesToGrid(ParticleSet<3>&);
template void HybridSolver<2>::gridToParticles(ParticleSet<2>&);
template void HybridSolver<3>::gridToParticles(ParticleSet<3>&);
template void HybridSolver<2>::sampleGrid<LinearBSpline>(const Vec<2>&, Vec<2>&, std::array<Vec<2>, 2>&) const;
template void HybridSolver<2>::sampleGrid<QuadraticBSpline>(const Vec<2>&, Vec<2>&, std::array<Vec<2>, 2>&) const;
template void HybridSolver<2>::sampleGrid<CubicBSpline>(const Vec<2>&, Vec<2>&, std::array<Vec<2>, 2>&) const;
template void HybridSolver<3>::sampleGrid<LinearBSpline>(const Vec<3>&, Vec<3>&, std::array<Vec<3>, 3>&) const;
template void HybridSolver<3>::sampleGrid<QuadraticBSpline>(const Vec<3>&, Vec<3>&, std::array<Vec<3>, 3>&) const;
template void HybridSolver<3>::sampleGrid<CubicBSpline>(const Vec<3>&, Vec<3>&, std::array<Vec<3>, 3>&) const;

}  // namespace sloshlab
