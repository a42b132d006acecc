// One-dimensional B-spline weights for particle-grid transfers (physics.md (3.1)-(3.5)).
//
// A transfer kernel is the tensor product of 1D weights N((x - x_i)/h). Each struct
// below fills the weights w[k] = N(g - (base + k)) of the kWidth nodes base, ...,
// base + kWidth - 1 that a particle at grid coordinate g (node i sits at g = i) can
// see, and their derivatives dw[k] = dN/dg. Every kernel is a partition of unity
// (sum_k w[k] = 1) and reproduces linear functions (sum_k w[k] (base + k) = g), which is
// what makes P2G conserve mass and momentum and a PIC round trip of a linear field exact
// (physics.md (3.5)-(3.6)).
//
//   linear     N(x) = 1 - |x|                                     support 1 cell, C0
//   quadratic  N(x) = 3/4 - x^2 (|x| < 1/2), (3/2 - |x|)^2 / 2    support 1.5 cells, C1
//   cubic      N(x) = |x|^3/2 - x^2 + 2/3 (|x| < 1), (2 - |x|)^3/6   support 2 cells, C2
// (physics.md (3.2)-(3.4))
//
// kInverseD is APIC's D_p^-1 h^2 ([JSS+15] Sec. 5.3; physics.md (3.18)): D = h^2/4 for
// the quadratic and h^2/3 for the cubic B-spline. The linear kernel has no constant D;
// APIC then uses the equivalent gradient form C_p = sum_i v_i (grad w_ip)^T ([JSS+15]
// Sec. 5.3; physics.md (3.19)), which is B_p D_p^-1 with the particle's own
// D_p = diag(f (1 - f) h^2).
#pragma once

#include <cmath>

namespace sloshlab {

struct LinearBSpline {
  static constexpr int kWidth = 2;
  static constexpr double kSupport = 1.0;  // cells
  static constexpr double kInverseD = 0.0; // gradient form instead
  static int weights(double g, double* w, double* dw) {
    const double base = std::floor(g);
    const double f = g - base;
    w[0] = 1.0 - f, w[1] = f;
    dw[0] = -1.0, dw[1] = 1.0;
    return static_cast<int>(base);
  }
};

struct QuadraticBSpline {
  static constexpr int kWidth = 3;
  static constexpr double kSupport = 1.5;
  static constexpr double kInverseD = 4.0;
  static int weights(double g, double* w, double* dw) {
    const double base = std::floor(g - 0.5);
    const double d = g - base;  // in [0.5, 1.5): distance to the first node
    const double a = 1.5 - d, c = d - 0.5, b = d - 1.0;
    w[0] = 0.5 * a * a, dw[0] = -a;
    w[1] = 0.75 - b * b, dw[1] = -2.0 * b;
    w[2] = 0.5 * c * c, dw[2] = c;
    return static_cast<int>(base);
  }
  // N(u) itself, for a sum over particles at one point (grid/ghost_fluid_surface.cpp).
  static double value(double u) {
    u = std::abs(u);
    return u < 0.5 ? 0.75 - u * u : (u < 1.5 ? 0.5 * (1.5 - u) * (1.5 - u) : 0.0);
  }
};

struct CubicBSpline {
  static constexpr int kWidth = 4;
  static constexpr double kSupport = 2.0;
  static constexpr double kInverseD = 3.0;
  static int weights(double g, double* w, double* dw) {
    const double base = std::floor(g) - 1.0;
    const double d = g - base;  // in [1, 2)
    const double a = 2.0 - d;   // 2 - |x| for node 0
    const double x1 = d - 1.0;  // |x| for node 1, in [0, 1)
    const double x2 = 2.0 - d;  // |x| for node 2, in (0, 1]
    const double e = d - 1.0;   // 2 - |x| for node 3
    w[0] = a * a * a / 6.0, dw[0] = -0.5 * a * a;
    w[1] = 0.5 * x1 * x1 * x1 - x1 * x1 + 2.0 / 3.0, dw[1] = 1.5 * x1 * x1 - 2.0 * x1;
    w[2] = 0.5 * x2 * x2 * x2 - x2 * x2 + 2.0 / 3.0, dw[2] = -(1.5 * x2 * x2 - 2.0 * x2);
    w[3] = e * e * e / 6.0, dw[3] = 0.5 * e * e;
    return static_cast<int>(base);
  }
};

}  // namespace sloshlab
