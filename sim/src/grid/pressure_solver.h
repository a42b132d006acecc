// The pressure Poisson equation of the hybrid solvers on the fluid cells of a MAC
// grid, solved by conjugate gradient preconditioned by the modified incomplete
// Cholesky factor MIC(0) or by a multigrid V-cycle (multigrid.h).
//
// References
//   [Bri15] R. Bridson, "Fluid Simulation for Computer Graphics", 2nd ed., CRC Press
//           2015, ch. 5 (the discrete Poisson problem, the PCG algorithm and the
//           MIC(0) preconditioner with its tuning constant and safety factor).
//           doi:10.1201/9781315266008
//   [GFCK02] F. Gibou, R. Fedkiw, L.-T. Cheng, M. Kang, "A second-order-accurate
//           symmetric discretization of the Poisson equation on irregular domains",
//           J. Comput. Phys. 176:205-227, 2002. doi:10.1006/jcph.2001.6977
//   [Gus78] I. Gustafsson, "A class of first order factorization methods", BIT 18:142-156,
//           1978 (MIC). doi:10.1007/BF01931691
//
// Unknowns are q = p dt/rho on the fluid cells, numbered in lexicographic order (x
// fastest), so every "minus" neighbour of a cell has a smaller number: that is the
// order of MIC(0)'s triangular sweeps. Row i of A q = b (physics.md (3.11)) reads
//     sum_a sum_(sides) (q_i - q_nbr) / h_a^2 = -div u*_i,
// with q_nbr = 0 for an air neighbour (p = 0 at the free surface) and the term left
// out for a solid neighbour (its face velocity is fixed). A ghost-fluid free surface
// [GFCK02] puts p = 0 a fraction theta of the way to the air cell's centre instead:
// the air term becomes q_i / (theta h_a^2), which adds (1/theta - 1)/h_a^2 to the
// diagonal and keeps A symmetric (the caller passes these additions, surfaceDiag).
// Then b - A q = -div u on the projected field: the residual IS the divergence left (physics.md (3.13)),
// which is what the tolerance is stated in.
//
// Parallel MIC(0). Its triangular sweeps are sequential, so the unknowns are cut into
// contiguous blocks (slabs of the grid, their number set by the unknown count alone)
// and the preconditioner is block-Jacobi over per-block MIC(0) factors: couplings
// between blocks are left out of the factor (not out of A), each block is swept by one
// thread. A few blocks cost a few iterations and halve the time on two cores.
//
// Rigid bodies (physics.md (16.18)): a body whose velocity is solved with the pressure
// adds J W J^T to A, with J's rows on the unknowns next to it (the flux out of the cell
// per unit of the body's generalised velocity, over the cell's volume) and W its
// generalised inverse mass times rho V_c. The term is applied as a product, summed in a
// fixed order; the preconditioner leaves it out (it is of low rank: CG pays a few
// iterations for it).
//
// Determinism: dot products sum fixed chunks of 2048 rows, then the chunk sums in
// order, and the blocks do not depend on the thread count either, so neither does the
// result.
#pragma once

#include "grid/multigrid.h"
#include "sloshlab/math.h"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace sloshlab {

enum class Preconditioner { Mic0, Multigrid };

template <int D>
class PressureSolver {
 public:
  static constexpr int kAir = -1, kSolid = -2;
  // Neighbours of a fluid cell: [2a] on the minus side of axis a, [2a + 1] on the plus
  // side; the neighbour's unknown number, or kAir / kSolid.
  using Neighbours = std::array<int, 2 * D>;

  struct Result {
    int iterations = 0;
    double residual = 0.0;  // max |b - A q|
  };

  // Assembles A and the preconditioner for these cells. cells and fluidCells (the
  // unknowns' cells, lexicographic indices) give multigrid the geometry.
  // surfaceDiag: per unknown, the ghost-fluid addition to the diagonal (empty: none).
  // faceWeights: per unknown and side, the open share of the face (16.17), which scales
  // that face's term of the row (empty: all open). The multigrid preconditioner sees the
  // faces open: a preconditioner need only be near A.
  using Weights = std::array<double, 2 * D>;
  void build(std::vector<Neighbours>& neighbours, const Vec<D>& invH2, Preconditioner preconditioner,
             const IVec<D>& cells, std::span<const std::uint32_t> fluidCells,
             std::span<const double> surfaceDiag = {}, std::span<const Weights> faceWeights = {});
  // The bodies' terms of A (replacing the last ones); empty: none.
  static constexpr int kBodyDofs = D == 2 ? 3 : 6;  // (v, omega): 2 + 1 in 2D, 3 + 3 in 3D
  using BodyRow = std::array<double, kBodyDofs>;
  struct BodyCoupling {
    std::vector<int> unknowns;                 // each once
    std::vector<BodyRow> rows;                 // J's row of each (1/m per m/s; per rad/s: 1)
    std::array<BodyRow, kBodyDofs> weight{};   // W = rho V_c M^-1, symmetric
  };
  void setBodies(std::vector<BodyCoupling> bodies) { m_bodies = std::move(bodies); }
  // Solves A q = b from the initial guess in q until max |b - A q| <= tolerance.
  Result solve(std::span<const double> b, std::span<double> q, double tolerance, int maxIterations);
  std::size_t size() const { return m_diag.size(); }
  std::span<const Neighbours> neighbours() const { return m_nbr; }

 private:
  double multiplyDot(const double* x, double* y);  // y = A x, returns x.y
  void buildMic0();
  void precondition(const double* r, double* z);
  double dot(const double* x, const double* y);

  std::vector<Neighbours> m_nbr;
  Vec<D> m_invH2{1.0};
  // Branch-free rows: neighbour index (the cell itself where there is none) and the
  // coefficient -A_ij (0 where there is none); the same for the factor's couplings
  // inside a block: lower[i][a] = -A_(i-a,i) precon(i-a), upper[i][a] = -A_(i,i+a) precon(i).
  std::vector<std::array<int, 2 * D>> m_index;
  std::vector<std::array<double, 2 * D>> m_offDiagonal;
  std::vector<std::array<int, 2 * D>> m_factorIndex;
  std::vector<std::array<double, D>> m_lower, m_upper;
  std::vector<std::int64_t> m_blockStart;
  std::vector<double> m_diag, m_precon;
  Preconditioner m_preconditioner = Preconditioner::Mic0;
  MultigridPreconditioner<D> m_multigrid;
  std::vector<double> m_r, m_z, m_s, m_q, m_partial;
  std::vector<BodyCoupling> m_bodies;
};

}  // namespace sloshlab
