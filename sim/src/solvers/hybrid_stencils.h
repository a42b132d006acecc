// The hybrid solvers' stencils, shared by their transfers (hybrid_transfer.cpp), set-up
// and reseeding: the B-spline weights of one particle along each axis, the visit of a
// stencil's nodes, and the choice of kernel at run time.
#pragma once

#include "grid/bspline.h"
#include "grid/mac_grid.h"
#include "solvers/hybrid.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace sloshlab::hybrid_detail {

// The kWidth weights of one particle along one axis, their derivatives d/dg, and the
// offsets node - particle (m).
template <class K>
struct Axis {
  int base;
  double w[K::kWidth], dw[K::kWidth], dx[K::kWidth];
};

// shift = 1/2 for cell-centred nodes (a component's transverse axes), 0 for faces.
template <class K>
inline Axis<K> axisWeights(double x, double invH, double h, double shift) {
  Axis<K> a;
  const double g = x * invH - shift;
  a.base = K::weights(g, a.w, a.dw);
  for (int k = 0; k < K::kWidth; ++k) a.dx[k] = (a.base + k - g) * h;
  return a;
}

// A particle's weights on each axis for face and for centred positions; component a
// uses the face weights along a and the centred ones across.
template <int D, class K>
struct Stencil {
  Axis<K> face[D], centre[D];
  Stencil(const Vec<D>& x, const Vec<D>& invH, const Vec<D>& h) {
    for (int b = 0; b < D; ++b) {
      face[b] = axisWeights<K>(x[b], invH[b], h[b], 0.0);
      centre[b] = axisWeights<K>(x[b], invH[b], h[b], 0.5);
    }
  }
  void axes(int a, const Axis<K>** out) const {
    for (int b = 0; b < D; ++b) out[b] = a == b ? &face[b] : &centre[b];
  }
};

// Visits the kWidth^D nodes of a stencil: f(flat index, weight, local index per axis).
template <int D, class K, class F>
inline void forStencil(const Axis<K>* const* ax, const std::array<std::size_t, D>& stride, F&& f) {
  constexpr int W = K::kWidth;
  constexpr int G = MacGrid<D>::kGhost;
  std::size_t base = 0;
  for (int b = 0; b < D; ++b) base += static_cast<std::size_t>(ax[b]->base + G) * stride[b];
  if constexpr (D == 2) {
    for (int j = 0; j < W; ++j) {
      const std::size_t row = base + j * stride[1];
      const double wy = ax[1]->w[j];
      for (int i = 0; i < W; ++i) f(row + i, ax[0]->w[i] * wy, i, j, 0);
    }
  } else {
    for (int k = 0; k < W; ++k) {
      const double wz = ax[2]->w[k];
      for (int j = 0; j < W; ++j) {
        const std::size_t row = base + k * stride[2] + j * stride[1];
        const double wyz = ax[1]->w[j] * wz;
        for (int i = 0; i < W; ++i) f(row + i, ax[0]->w[i] * wyz, i, j, k);
      }
    }
  }
}

// Runs body.template operator()<K>() for the kernel chosen by the parameter.
template <class Body>
inline void withKernel(int kernel, Body&& body) {
  switch (static_cast<TransferKernel>(kernel)) {
    case TransferKernel::Linear: body.template operator()<LinearBSpline>(); break;
    case TransferKernel::Quadratic: body.template operator()<QuadraticBSpline>(); break;
    case TransferKernel::Cubic: body.template operator()<CubicBSpline>(); break;
  }
}

inline double kernelSupport(int kernel) {
  switch (static_cast<TransferKernel>(kernel)) {
    case TransferKernel::Linear: return LinearBSpline::kSupport;
    case TransferKernel::Quadratic: return QuadraticBSpline::kSupport;
    case TransferKernel::Cubic: return CubicBSpline::kSupport;
  }
  return 1.0;
}

// A reproducible pseudo-random number in [0, 1) (splitmix64 of the key).
inline double hashUniform(std::uint64_t key) {
  key += 0x9E3779B97F4A7C15ull;
  key = (key ^ (key >> 30)) * 0xBF58476D1CE4E5B9ull;
  key = (key ^ (key >> 27)) * 0x94D049BB133111EBull;
  key ^= key >> 31;
  return static_cast<double>(key >> 11) * 0x1.0p-53;
}

}  // namespace sloshlab::hybrid_detail
