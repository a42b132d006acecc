#include "grid/pressure_solver.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace sloshlab {

namespace {
constexpr std::int64_t kBlock = 2048;
constexpr double kTau = 0.97;    // MIC blend: 0 is IC(0), 1 is full MIC [Bri15] ch. 5
constexpr double kSigma = 0.25;  // safety: fall back to the diagonal when the pivot shrinks this much

// The sum of term(i) over i < n, in fixed blocks of kBlock added in order: the same
// rounding for any thread count (the solve is bit-reproducible across --threads).
template <class Term>
double blockedSum(std::int64_t n, std::vector<double>& partial, Term&& term) {
  const std::int64_t blocks = (n + kBlock - 1) / kBlock;
  partial.resize(blocks);
#pragma omp parallel for schedule(static)
  for (std::int64_t b = 0; b < blocks; ++b) {
    double sum = 0.0;
    const std::int64_t end = std::min(n, (b + 1) * kBlock);
    for (std::int64_t i = b * kBlock; i < end; ++i) sum += term(i);
    partial[b] = sum;
  }
  double sum = 0.0;
  for (double s : partial) sum += s;
  return sum;
}
}  // namespace

template <int D>
void PressureSolver<D>::build(std::vector<Neighbours>& neighbours, const Vec<D>& invH2,
                              Preconditioner preconditioner, const IVec<D>& cells,
                              std::span<const std::uint32_t> fluidCells, std::span<const double> surfaceDiag,
                              std::span<const Weights> faceWeights) {
  m_preconditioner = preconditioner;
  m_nbr.swap(neighbours);
  m_invH2 = invH2;
  const std::int64_t n = static_cast<std::int64_t>(m_nbr.size());
  m_diag.resize(n), m_precon.resize(n);
  m_index.resize(n), m_offDiagonal.resize(n);
  m_lower.resize(n), m_upper.resize(n), m_factorIndex.resize(n);
  const std::int64_t blocks = std::clamp<std::int64_t>(n / 4096, 1, 32);
  m_blockStart.resize(blocks + 1);
  for (std::int64_t b = 0; b <= blocks; ++b) m_blockStart[b] = n * b / blocks;
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    double diag = 0.0;
    for (int s = 0; s < 2 * D; ++s) {
      const int j = m_nbr[i][s];
      const double w = (faceWeights.empty() ? 1.0 : faceWeights[i][s]) * m_invH2[s / 2];
      if (j != kSolid) diag += w;
      m_index[i][s] = j >= 0 ? j : static_cast<int>(i);
      m_offDiagonal[i][s] = j >= 0 ? w : 0.0;
    }
    m_diag[i] = diag + (surfaceDiag.empty() ? 0.0 : surfaceDiag[i]);
  }
  if (preconditioner == Preconditioner::Multigrid) m_multigrid.build(cells, fluidCells, invH2, surfaceDiag);
  else buildMic0();
}

template <int D>
void PressureSolver<D>::buildMic0() {
  const std::int64_t blocks = static_cast<std::int64_t>(m_blockStart.size()) - 1;
  // MIC(0) per block: L = (F + E) F^-1 with E the strict lower part of A and F chosen so
  // that row sums of L L^T match those of A (blended by tau) [Gus78], as in [Bri15] ch. 5; physics.md (3.14).
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t b = 0; b < blocks; ++b) {
    const std::int64_t first = m_blockStart[b], last = m_blockStart[b + 1];
    auto inBlock = [&](int j) { return j >= first && j < last; };
    for (std::int64_t i = first; i < last; ++i) {
      double e = m_diag[i];
      for (int a = 0; a < D; ++a) {
        const int j = m_nbr[i][2 * a];
        if (j < 0 || !inBlock(j)) continue;
        const double Aj = -m_offDiagonal[i][2 * a], pj = m_precon[j];
        double other = 0.0;  // A's couplings of j to its plus neighbours off axis a, in the block
        for (int c = 0; c < D; ++c) {
          const int k = m_nbr[j][2 * c + 1];
          if (c != a && k >= 0 && inBlock(k)) other -= m_offDiagonal[j][2 * c + 1];
        }
        e -= (Aj * pj) * (Aj * pj) + kTau * Aj * other * pj * pj;
      }
      if (e < kSigma * m_diag[i]) e = m_diag[i];
      m_precon[i] = 1.0 / std::sqrt(e);
    }
    for (std::int64_t i = first; i < last; ++i)
      for (int a = 0; a < D; ++a) {
        const int j = m_nbr[i][2 * a], k = m_nbr[i][2 * a + 1];
        const bool lower = j >= 0 && inBlock(j), upper = k >= 0 && inBlock(k);
        m_lower[i][a] = lower ? m_offDiagonal[i][2 * a] * m_precon[j] : 0.0;
        m_upper[i][a] = upper ? m_offDiagonal[i][2 * a + 1] * m_precon[i] : 0.0;
        m_factorIndex[i][2 * a] = lower ? j : static_cast<int>(i);  // never another block's z
        m_factorIndex[i][2 * a + 1] = upper ? k : static_cast<int>(i);
      }
  }
}

template <int D>
double PressureSolver<D>::dot(const double* x, const double* y) {
  return blockedSum(static_cast<std::int64_t>(m_diag.size()), m_partial, [&](std::int64_t i) { return x[i] * y[i]; });
}

// y = A x and x.y in one pass; then each body's J W J^T x (16.18), whose part of x.y is
// (J^T x).W(J^T x).
template <int D>
double PressureSolver<D>::multiplyDot(const double* x, double* y) {
  double xy = blockedSum(static_cast<std::int64_t>(m_diag.size()), m_partial, [&](std::int64_t i) {
    double Ax = m_diag[i] * x[i];
    for (int s = 0; s < 2 * D; ++s) Ax -= m_offDiagonal[i][s] * x[m_index[i][s]];
    y[i] = Ax;
    return x[i] * Ax;
  });
  for (const BodyCoupling& body : m_bodies) {
    BodyRow g{}, w{};
    for (std::size_t k = 0; k < body.unknowns.size(); ++k)
      for (int d = 0; d < kBodyDofs; ++d) g[d] += body.rows[k][d] * x[body.unknowns[k]];
    for (int d = 0; d < kBodyDofs; ++d)
      for (int e = 0; e < kBodyDofs; ++e) w[d] += body.weight[d][e] * g[e];
    for (std::size_t k = 0; k < body.unknowns.size(); ++k) {
      double add = 0.0;
      for (int d = 0; d < kBodyDofs; ++d) add += body.rows[k][d] * w[d];
      y[body.unknowns[k]] += add;
    }
    for (int d = 0; d < kBodyDofs; ++d) xy += g[d] * w[d];
  }
  return xy;
}

// z = (L L^T)^-1 r per block: a forward sweep L t = r, then a backward sweep L^T z = t,
// in place. Neighbours outside the block carry a zero coefficient and point at i itself.
template <int D>
void PressureSolver<D>::precondition(const double* r, double* z) {
  if (m_preconditioner == Preconditioner::Multigrid) {
    m_multigrid.apply(r, z);
    return;
  }
  const std::int64_t blocks = static_cast<std::int64_t>(m_blockStart.size()) - 1;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t b = 0; b < blocks; ++b) {
    const std::int64_t first = m_blockStart[b], last = m_blockStart[b + 1];
    for (std::int64_t i = first; i < last; ++i) {
      double t = r[i];
      for (int a = 0; a < D; ++a) t += m_lower[i][a] * z[m_factorIndex[i][2 * a]];
      z[i] = t * m_precon[i];
    }
    for (std::int64_t i = last - 1; i >= first; --i) {
      double t = z[i];
      for (int a = 0; a < D; ++a) t += m_upper[i][a] * z[m_factorIndex[i][2 * a + 1]];
      z[i] = t * m_precon[i];
    }
  }
}

// Preconditioned conjugate gradient, [Bri15] ch. 5.
template <int D>
typename PressureSolver<D>::Result PressureSolver<D>::solve(std::span<const double> b, std::span<double> q,
                                                            double tolerance, int maxIterations) {
  const std::int64_t n = static_cast<std::int64_t>(m_diag.size());
  Result result;
  if (n == 0) return result;
  m_r.resize(n), m_z.resize(n), m_s.resize(n), m_q.resize(n);
  double* r = m_r.data();
  double* z = m_z.data();
  double* s = m_s.data();
  double* Aq = m_q.data();
  double* x = q.data();

  multiplyDot(x, Aq);  // r = b - A q0 (warm start)
  double rmax = 0.0;
#pragma omp parallel for schedule(static) reduction(max : rmax)
  for (std::int64_t i = 0; i < n; ++i) {
    r[i] = b[i] - Aq[i];
    rmax = std::max(rmax, std::abs(r[i]));
  }
  result.residual = rmax;
  if (rmax <= tolerance) return result;

  precondition(r, z);
  std::copy(z, z + n, s);
  double sigma = dot(z, r);
  for (int it = 1; it <= maxIterations; ++it) {
    const double sAs = multiplyDot(s, Aq);
    if (!(sAs > 0.0)) break;
    const double alpha = sigma / sAs;
    rmax = 0.0;
#pragma omp parallel for schedule(static) reduction(max : rmax)
    for (std::int64_t i = 0; i < n; ++i) {
      x[i] += alpha * s[i];
      r[i] -= alpha * Aq[i];
      rmax = std::max(rmax, std::abs(r[i]));
    }
    result.iterations = it;
    result.residual = rmax;
    if (rmax <= tolerance) break;
    precondition(r, z);
    const double sigmaNew = dot(z, r);
    const double beta = sigmaNew / sigma;
    sigma = sigmaNew;
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) s[i] = z[i] + beta * s[i];
  }
  return result;
}

template class PressureSolver<2>;
template class PressureSolver<3>;

}  // namespace sloshlab
