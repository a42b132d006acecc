#include "grid/multigrid.h"

#include <algorithm>

namespace sloshlab {

namespace {
constexpr int kCoarsestSweeps = 8;   // mirrored red-black pairs on the coarsest level
constexpr int kMinCells = 4;         // stop coarsening below this many cells on an axis
constexpr int kMaxLevels = 10;
constexpr std::int64_t kParallelCells = 8192;  // smaller loops run on one thread: a fork costs more
}  // namespace

template <int D>
std::size_t MultigridPreconditioner<D>::padded(const Level& level, const IVec<D>& c) const {
  std::size_t idx = 0;
  for (int b = 0; b < D; ++b) idx += static_cast<std::size_t>(c[b] + 1) * level.stride[b];
  return idx;
}

// Diagonal, colour lists and work arrays of a labelled level.
template <int D>
void MultigridPreconditioner<D>::finish(Level& level) {
  const std::size_t count = level.label.size();
  level.diag.assign(count, 0.0);
  level.x.assign(count, 0.0), level.b.assign(count, 0.0), level.r.assign(count, 0.0);
  level.red.clear(), level.black.clear(), level.fluid.clear();
  IVec<D> c(0);
  while (true) {
    const std::size_t idx = padded(level, c);
    if (level.label[idx] == kFluid) {
      double diag = 0.0;
      for (int b = 0; b < D; ++b) {
        if (level.label[idx - level.stride[b]] != kSolid) diag += level.invH2[b];
        if (level.label[idx + level.stride[b]] != kSolid) diag += level.invH2[b];
      }
      level.diag[idx] = diag;
      int parity = 0;
      for (int b = 0; b < D; ++b) parity += c[b];
      (parity % 2 == 0 ? level.red : level.black).push_back(static_cast<std::uint32_t>(idx));
      level.fluid.push_back(static_cast<std::uint32_t>(idx));
    }
    int b = 0;
    while (b < D && ++c[b] == level.n[b]) c[b++] = 0;
    if (b == D) break;
  }
}

template <int D>
void MultigridPreconditioner<D>::build(const IVec<D>& cells, std::span<const std::uint32_t> fluidCells,
                                       const Vec<D>& invH2, std::span<const double> surfaceDiag) {
  m_levels.clear();
  auto layout = [](Level& level) {
    std::size_t s = 1;
    for (int b = 0; b < D; ++b) {
      level.stride[b] = s;
      s *= static_cast<std::size_t>(level.n[b] + 2);
    }
    level.label.assign(s, kSolid);
    IVec<D> c(0);
    while (true) {  // inside the box: air until marked fluid
      std::size_t idx = 0;
      for (int b = 0; b < D; ++b) idx += static_cast<std::size_t>(c[b] + 1) * level.stride[b];
      level.label[idx] = kAir;
      int b = 0;
      while (b < D && ++c[b] == level.n[b]) c[b++] = 0;
      if (b == D) break;
    }
  };
  Level fine;
  fine.n = cells;
  fine.invH2 = invH2;
  layout(fine);
  m_unknownCell.resize(fluidCells.size());
  for (std::size_t k = 0; k < fluidCells.size(); ++k) {
    std::size_t rest = fluidCells[k];
    IVec<D> c;
    for (int b = 0; b < D; ++b) {
      c[b] = static_cast<int>(rest % static_cast<std::size_t>(cells[b]));
      rest /= static_cast<std::size_t>(cells[b]);
    }
    const std::size_t idx = padded(fine, c);
    fine.label[idx] = kFluid;
    m_unknownCell[k] = static_cast<std::uint32_t>(idx);
  }
  finish(fine);
  for (std::size_t k = 0; k < surfaceDiag.size(); ++k) fine.diag[m_unknownCell[k]] += surfaceDiag[k];
  m_levels.push_back(std::move(fine));

  while (static_cast<int>(m_levels.size()) < kMaxLevels) {
    const Level& f = m_levels.back();
    bool coarsen = !f.fluid.empty();
    for (int b = 0; b < D; ++b) coarsen = coarsen && f.n[b] >= 2 * kMinCells;
    if (!coarsen) break;
    Level c;
    for (int b = 0; b < D; ++b) c.n[b] = (f.n[b] + 1) / 2;
    c.invH2 = 0.25 * f.invH2;
    layout(c);
    // A coarse cell is fluid when every child inside the box is fluid [MST10].
    IVec<D> cc(0);
    while (true) {
      bool allFluid = true;
      for (int corner = 0; corner < (1 << D); ++corner) {
        IVec<D> child;
        bool inside = true;
        for (int b = 0; b < D; ++b) {
          child[b] = 2 * cc[b] + ((corner >> b) & 1);
          inside = inside && child[b] < f.n[b];
        }
        if (inside && f.label[padded(f, child)] != kFluid) allFluid = false;
      }
      if (allFluid) c.label[padded(c, cc)] = kFluid;
      int b = 0;
      while (b < D && ++cc[b] == c.n[b]) cc[b++] = 0;
      if (b == D) break;
    }
    finish(c);
    if (c.fluid.empty()) break;
    // Parents of the fine fluid cells (the coarse cell, fluid or not).
    Level& fm = m_levels.back();
    fm.parent.resize(fm.fluid.size());
    for (std::size_t k = 0; k < fm.fluid.size(); ++k) {
      std::size_t rest = fm.fluid[k];
      IVec<D> fcell;
      for (int b = 0; b < D; ++b) {
        fcell[b] = static_cast<int>(rest % (static_cast<std::size_t>(fm.n[b]) + 2)) - 1;
        rest /= static_cast<std::size_t>(fm.n[b]) + 2;
      }
      fm.parent[k] = static_cast<std::uint32_t>(padded(c, fcell / 2));
    }
    m_levels.push_back(std::move(c));
  }
}

// Red-black Gauss-Seidel on one colour: x_i = (b_i + sum_j x_j / h^2) / diag_i, x = 0
// outside the fluid (air: Dirichlet; walls carry no term in diag).
template <int D>
void MultigridPreconditioner<D>::smooth(Level& level, const std::vector<std::uint32_t>& cells) {
  const std::int64_t count = static_cast<std::int64_t>(cells.size());
  double* x = level.x.data();
  const double* b = level.b.data();
#pragma omp parallel for schedule(static) if (count > kParallelCells)
  for (std::int64_t k = 0; k < count; ++k) {
    const std::size_t i = cells[k];
    double sum = b[i];
    for (int a = 0; a < D; ++a) sum += level.invH2[a] * (x[i - level.stride[a]] + x[i + level.stride[a]]);
    x[i] = sum / level.diag[i];
  }
}

template <int D>
void MultigridPreconditioner<D>::vcycle(std::size_t l) {
  Level& level = m_levels[l];
  for (std::uint32_t i : level.fluid) level.x[i] = 0.0;
  if (l + 1 == m_levels.size()) {
    for (int s = 0; s < kCoarsestSweeps; ++s) smooth(level, level.red), smooth(level, level.black);
    for (int s = 0; s < kCoarsestSweeps; ++s) smooth(level, level.black), smooth(level, level.red);
    return;
  }
  smooth(level, level.red);
  smooth(level, level.black);
  // r = b - A x on the fluid cells; the coarse right-hand side averages the children (physics.md (3.15)).
  Level& coarse = m_levels[l + 1];
  const std::int64_t count = static_cast<std::int64_t>(level.fluid.size());
#pragma omp parallel for schedule(static) if (count > kParallelCells)
  for (std::int64_t k = 0; k < count; ++k) {
    const std::size_t i = level.fluid[k];
    double Ax = level.diag[i] * level.x[i];
    for (int a = 0; a < D; ++a) Ax -= level.invH2[a] * (level.x[i - level.stride[a]] + level.x[i + level.stride[a]]);
    level.r[i] = level.b[i] - Ax;
  }
  for (std::uint32_t i : coarse.fluid) coarse.b[i] = 0.0;
  const double average = 1.0 / (1 << D);
  for (std::int64_t k = 0; k < count; ++k)  // serial: children add in a fixed order
    coarse.b[level.parent[k]] += average * level.r[level.fluid[k]];
  vcycle(l + 1);
#pragma omp parallel for schedule(static) if (count > kParallelCells)
  for (std::int64_t k = 0; k < count; ++k) {
    const std::size_t parent = level.parent[k];
    if (coarse.label[parent] == kFluid) level.x[level.fluid[k]] += coarse.x[parent];
  }
  smooth(level, level.black);
  smooth(level, level.red);
}

template <int D>
void MultigridPreconditioner<D>::apply(const double* r, double* z) {
  Level& fine = m_levels.front();
  const std::int64_t n = static_cast<std::int64_t>(m_unknownCell.size());
#pragma omp parallel for schedule(static) if (n > kParallelCells)
  for (std::int64_t k = 0; k < n; ++k) fine.b[m_unknownCell[k]] = r[k];
  vcycle(0);
#pragma omp parallel for schedule(static) if (n > kParallelCells)
  for (std::int64_t k = 0; k < n; ++k) z[k] = fine.x[m_unknownCell[k]];
}

template class MultigridPreconditioner<2>;
template class MultigridPreconditioner<3>;

}  // namespace sloshlab
