// The Chebyshev semi-iteration's weights over a solver's sweeps k = 1, 2, ...
// ([Wang15]; physics.md (6.12), (7.11)), shared by DFSPH's density solve and PBF's
// constraint sweeps:
//     w_1 = 1,   w_2 = 2 / (2 - rho^2),   w_{k+1} = 4 / (4 - rho^2 w_k),
// rho the estimated spectral radius of the plain sweep. Each solver applies w_k its own
// way (DFSPH to the stiffness increments, PBF to positions and multipliers).
//
//   [Wang15] H. Wang, "A Chebyshev semi-iterative approach for accelerating projective
//            and position-based dynamics", ACM TOG 34(6):246, 2015. doi:10.1145/2816795.2818063
#pragma once

namespace sloshlab {

class ChebyshevWeights {
 public:
  explicit ChebyshevWeights(double rho = 0.0) : m_rho2(rho * rho) {}

  // w_k of the next sweep: w_1 = 1 (a plain sweep) on the first call, then w_2, w_3, ...
  double next() {
    m_weight = m_sweep == 0 ? 1.0 : m_sweep == 1 ? 2.0 / (2.0 - m_rho2) : 4.0 / (4.0 - m_rho2 * m_weight);
    ++m_sweep;
    return m_weight;
  }

 private:
  double m_rho2 = 0.0;
  double m_weight = 1.0;
  int m_sweep = 0;
};

}  // namespace sloshlab
