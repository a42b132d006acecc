// Smoothing kernels.
//
// CubicSpline: the cubic B-spline of Monaghan (1992) written with the support
// radius h (physics.md (4.1)-(4.2)), q = |r|/h:
//     W = sigma { 6(q^3 - q^2) + 1   0 <= q <= 1/2
//               { 2(1 - q)^3          1/2 < q <= 1
// sigma = 4/(3h) (1D), 40/(7 pi h^2) (2D), 8/(pi h^3) (3D), so that W integrates to 1.
//
// Toy kernels of the drag-the-bottle demo (physics.md (5.1)): (1 - r/R)^2 for
// density and (1 - r/R) for the pair forces. They are not normalised.
#pragma once

#include "sloshlab/math.h"

#include <algorithm>
#include <cmath>

namespace sloshlab {

template <int D>
struct CubicSpline {
  double h = 1.0;
  double invH = 1.0;
  double sigma = 1.0;

  CubicSpline() = default;
  explicit CubicSpline(double support) : h(support), invH(1.0 / support) {
    if constexpr (D == 1) sigma = 4.0 / (3.0 * h);
    else if constexpr (D == 2) sigma = 40.0 / (7.0 * kPi * h * h);
    else sigma = 8.0 / (kPi * h * h * h);
  }

  double W(double r) const {
    const double q = r * invH;
    if (q <= 0.5) return sigma * (6.0 * (q * q * q - q * q) + 1.0);
    if (q <= 1.0) {
      const double t = 1.0 - q;
      return sigma * 2.0 * t * t * t;
    }
    return 0.0;
  }
  double W(const Vec<D>& r) const { return W(glm::length(r)); }
  double W0() const { return sigma; }

  // dW/dr at distance r (physics.md (4.3)).
  double dWdr(double r) const {
    const double q = r * invH;
    if (q <= 0.5) return sigma * invH * (18.0 * q * q - 12.0 * q);
    if (q <= 1.0) {
      const double t = 1.0 - q;
      return -sigma * invH * 6.0 * t * t;
    }
    return 0.0;
  }

  // (dW/dr)/r for r^2 < h^2, so that gradW = gradFactor(|r|^2) r; 0 at r = 0.
  double gradFactor(double r2) const {
    if (r2 <= 1e-24 * h * h) return 0.0;
    const double r = std::sqrt(r2);
    return dWdr(r) / r;
  }

  // W and gradFactor together for r^2 < h^2 (physics.md (4.4)), with one square root and
  // no branch: the pair loops' q <= 1/2 test is a coin toss for the branch predictor,
  // and a select between the two pieces was still compiled into a branch (to skip the
  // outer piece's division), which cost the 3D dam break's pair cache a third of its
  // time. With t = 1 - q and u = max(1/2 - q, 0) the two pieces are one expression:
  //     W = sigma (2 t^3 - 8 u^3),   dW/dq = sigma (24 u^2 - 6 t^2),
  // (inside, 2 t^3 - 8 u^3 = 6 (q^3 - q^2) + 1). At r = 0 the factor x r is 0, as with
  // gradFactor.
  void weightAndGradFactor(double r2, double& w, double& factor) const {
    const double q = std::sqrt(r2) * invH;
    const double t = 1.0 - q;
    const double u = std::max(0.5 - q, 0.0);
    w = sigma * (2.0 * t * t * t - 8.0 * u * u * u);
    factor = gradFactorOf(q, t, u);
  }

  // gradFactor for r^2 < h^2 without a branch: weightAndGradFactor's factor alone (the
  // pair loops that need no W).
  double gradFactorInside(double r2) const {
    const double q = std::sqrt(r2) * invH;
    return gradFactorOf(q, 1.0 - q, std::max(0.5 - q, 0.0));
  }

  // (dW/dr)/r = (dW/dq) / (h^2 q) from q, t = 1 - q and u = max(1/2 - q, 0).
  double gradFactorOf(double q, double t, double u) const {
    return sigma * invH * invH * (24.0 * u * u - 6.0 * t * t) / std::max(q, 1e-12);
  }

  // Gradient with respect to x_i of W(x_i - x_j), r = x_i - x_j; zero at r = 0.
  Vec<D> gradW(const Vec<D>& r) const {
    const double len2 = lengthSquared<D>(r);
    if (len2 <= 1e-24 * h * h || len2 >= h * h) return Vec<D>(0.0);
    const double len = std::sqrt(len2);
    return (dWdr(len) / len) * r;
  }
};

// Toy kernels (physics.md (5.1)).
inline double toyDensityWeight(double r, double R) {
  const double t = 1.0 - r / R;
  return t * t;
}
inline double toyForceWeight(double r, double R) { return 1.0 - r / R; }

}  // namespace sloshlab
