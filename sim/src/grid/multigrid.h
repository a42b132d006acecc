// A geometric multigrid V-cycle on the fluid cells of a MAC grid, used as the
// preconditioner of the pressure solve's conjugate gradient (MGPCG).
//
// References
//   [MST10] A. McAdams, E. Sifakis, J. Teran, "A parallel multigrid Poisson solver for
//           fluids simulation on large grids", SCA 2010 (coarse labels: a coarse cell is
//           air as soon as one child is; V-cycle as a CG preconditioner).
//           doi:10.2312/SCA/SCA10/065-074
//   [TOS01] U. Trottenberg, C. W. Oosterlee, A. Schueller, "Multigrid", Academic Press,
//           2001 (cell-centred coarsening, red-black Gauss-Seidel).
//
// Levels halve the cell count per axis. A coarse cell is fluid when all its children
// are, air otherwise (Dirichlet q = 0 dominates); the walls are a padding of solid
// cells on every level (Neumann). Each level re-discretises lap q with its own h.
// Restriction averages the children's residuals (physics.md (3.15)), prolongation copies a coarse value
// to its children: R = P^T / 2^D. Smoothing is red-black Gauss-Seidel, red then black
// before the coarse correction and black then red after, and the coarsest level is
// solved by the same sweeps in mirrored pairs, so the V-cycle is a symmetric positive
// definite operator, as conjugate gradient needs. Every sweep is parallel over the
// cells of one colour and sums in a fixed order: results do not depend on threads.
#pragma once

#include "sloshlab/math.h"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace sloshlab {

template <int D>
class MultigridPreconditioner {
 public:
  // cells: the fine grid; fluidCells: the fine cells of the unknowns, in their order
  // (lexicographic indices, x fastest); invH2: 1/h^2 per axis on the fine grid;
  // surfaceDiag: per unknown, what a ghost-fluid free surface adds to the fine
  // diagonal (empty: nothing), so the smoother sees the fine operator exactly.
  void build(const IVec<D>& cells, std::span<const std::uint32_t> fluidCells, const Vec<D>& invH2,
             std::span<const double> surfaceDiag = {});
  // z = M^-1 r: one V-cycle from z = 0.
  void apply(const double* r, double* z);
  int levels() const { return static_cast<int>(m_levels.size()); }

 private:
  enum Label : std::uint8_t { kAir = 0, kFluid = 1, kSolid = 2 };
  struct Level {
    IVec<D> n{1};
    std::array<std::size_t, D> stride{};  // padded by one solid cell on every side
    Vec<D> invH2{1.0};
    std::vector<std::uint8_t> label;
    std::vector<double> diag, x, b, r;
    std::vector<std::uint32_t> red, black, fluid;  // padded indices of fluid cells
    std::vector<std::uint32_t> parent;            // per fluid cell: padded index on the next level
  };
  std::size_t padded(const Level& level, const IVec<D>& c) const;
  void finish(Level& level);
  void smooth(Level& level, const std::vector<std::uint32_t>& cells);
  void vcycle(std::size_t l);

  std::vector<Level> m_levels;
  std::vector<std::uint32_t> m_unknownCell;  // unknown -> padded index on level 0
};

}  // namespace sloshlab
