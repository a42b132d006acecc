// The hybrid solvers' reseeding (see hybrid.h), physics.md (3.21).
#include "solvers/hybrid.h"

#include "solvers/hybrid_stencils.h"

#include <algorithm>
#include <cmath>

namespace sloshlab {

namespace {
constexpr std::uint32_t kUnnumbered = 0xffffffffu;  // a particle reseeding just added
}  // namespace

using namespace hybrid_detail;

// Reseeding (physics.md (3.21)): bins the particles again, then moves particles from
// crowded cells (more than reseed_max x target, target = (h/s)^D) to sparse cells inside
// the liquid (fewer than reseed_min x target, every face neighbour fluid or wall; a
// surface cell must not be filled or the liquid would grow): emptiest cells first,
// filled towards the target, new particles in empty sub-cells with the grid's PIC
// velocity and APIC matrix. Only as many are added as are removed: filling every sparse
// cell, tried first, made a violently shaken liquid grow by half its volume in 3 s,
// because FLIP's sub-cell clumping and the holes it leaves come and go on their own;
// moving particles keeps the count, the mass and the volume. Leaves the particles
// sorted by cell.
template <int D>
void HybridSolver<D>::reseed(ParticleSet<D>& p) {
  const bool sorted = binParticles(p, false);
  if (!m_params.reseed) {
    if (!sorted) applyOrder(p);
    return;
  }
  const std::int64_t cells = static_cast<std::int64_t>(m_grid.cellCount());
  const IVec<D> n = m_grid.cells();
  const double low = m_params.reseedMin * m_target;
  const std::uint32_t high = static_cast<std::uint32_t>(std::max(1.0, std::floor(m_params.reseedMax * m_target)));
  const std::uint32_t target = static_cast<std::uint32_t>(m_target);
  m_newCount.resize(cells);
  auto countOf = [&](std::size_t c) { return static_cast<std::uint32_t>(m_cellStart[c + 1] - m_cellStart[c]); };
  // Inside the liquid: every neighbour across a face holds particles or is a wall.
  auto inside = [&](std::size_t c) {
    const IVec<D> cc = m_grid.cellCoords(c);
    for (int b = 0; b < D; ++b)
      for (int side = -1; side <= 1; side += 2) {
        IVec<D> nb = cc;
        nb[b] += side;
        if (nb[b] < 0 || nb[b] >= n[b]) continue;
        const std::size_t i = m_grid.cellIndex(nb);
        if (countOf(i) == 0 && !blocked(i)) return false;  // obstacles and bodies: walls
      }
    return true;
  };
  // What each cell would like: an excess to give away, or a deficit inside the liquid.
  std::int64_t wantAdd = 0, wantRemove = 0;
#pragma omp parallel for schedule(static) reduction(+ : wantAdd, wantRemove)
  for (std::int64_t c = 0; c < cells; ++c) {
    const std::uint32_t count = countOf(c);
    m_newCount[c] = count;
    if (count > high) {
      wantRemove += count - high;
    } else if (count < low && !blocked(c)) {
      if (inside(c)) wantAdd += target - count;
    }
  }
  // Particles move from crowded cells to sparse ones, never more than both sides want,
  // so the count (and the mass) stays; the emptiest and the most crowded cells first.
  std::int64_t budget = std::min(wantAdd, wantRemove);
  if (budget == 0) {
    if (!sorted) applyOrder(p);
    return;
  }
  std::vector<std::pair<std::uint32_t, std::uint32_t>> sparse, crowded;  // (count, cell)
  for (std::int64_t c = 0; c < cells; ++c) {
    const std::uint32_t count = countOf(c);
    if (count > high) crowded.emplace_back(count, static_cast<std::uint32_t>(c));
    else if (count < low && !blocked(c) && inside(c)) sparse.emplace_back(count, static_cast<std::uint32_t>(c));
  }
  std::sort(sparse.begin(), sparse.end());
  std::sort(crowded.begin(), crowded.end(), [](const auto& x, const auto& y) {
    return x.first != y.first ? x.first > y.first : x.second < y.second;
  });
  std::int64_t toAdd = budget, toRemove = budget;
  for (const auto& [count, c] : sparse) {
    if (toAdd == 0) break;
    const std::int64_t grant = std::min<std::int64_t>(toAdd, target - count);
    m_newCount[c] = count + static_cast<std::uint32_t>(grant);
    toAdd -= grant;
  }
  for (const auto& [count, c] : crowded) {
    if (toRemove == 0) break;
    const std::int64_t grant = std::min<std::int64_t>(toRemove, count - high);
    m_newCount[c] = count - static_cast<std::uint32_t>(grant);
    toRemove -= grant;
  }

  std::vector<std::size_t> start(cells + 1, 0);
  for (std::int64_t c = 0; c < cells; ++c) start[c + 1] = start[c] + m_newCount[c];
  const std::size_t total = start[cells];
  const bool apic = m_c.size() == p.size();
  m_scratchX.resize(total), m_scratchV.resize(total), m_scratchM.resize(total), m_scratchId.resize(total);
  if (apic) m_scratchC.resize(total);
  const int sub = std::max(1, static_cast<int>(std::lround(m_params.cellSize)));
  const Vec<D> h = m_grid.h();
  std::size_t added = 0, removed = 0;
#pragma omp parallel for schedule(static) reduction(+ : added, removed)
  for (std::int64_t c = 0; c < cells; ++c) {
    const std::size_t from = m_cellStart[c], count = countOf(c), to = start[c], wanted = m_newCount[c];
    const std::size_t keep = std::min(count, wanted);
    for (std::size_t k = 0; k < keep; ++k) {
      const std::size_t i = sorted ? from + k : m_order[from + k];
      m_scratchX[to + k] = p.x[i];
      m_scratchV[to + k] = p.v[i];
      m_scratchM[to + k] = p.m[i];
      m_scratchId[to + k] = p.id[i];
      if (apic) m_scratchC[to + k] = m_c[i];
    }
    removed += count - keep;
    if (wanted <= count) continue;
    // Sub-cells (sub^D of them, at most 64) that hold no particle yet.
    const IVec<D> cc = m_grid.cellCoords(c);
    Vec<D> corner;
    for (int b = 0; b < D; ++b) corner[b] = cc[b] * h[b];
    auto slotOf = [&](const Vec<D>& x) {
      int slot = 0;
      for (int b = D - 1; b >= 0; --b)
        slot = slot * sub + std::clamp(static_cast<int>((x[b] - corner[b]) / h[b] * sub), 0, sub - 1);
      return slot;
    };
    std::uint64_t taken = 0;
    for (std::size_t k = 0; k < keep; ++k) taken |= 1ull << slotOf(m_scratchX[to + k]);
    std::size_t next = to + keep;
    for (int slot = 0; slot < static_cast<int>(target) && next < to + wanted; ++slot) {
      if (taken & (1ull << slot)) continue;
      Vec<D> x;
      int rest = slot;
      for (int b = 0; b < D; ++b) {
        const double jitter = 0.5 * (hashUniform((m_steps * 1000003ull + static_cast<std::uint64_t>(c)) * 97ull +
                                                 static_cast<std::uint64_t>(slot * D + b)) -
                                     0.5);
        x[b] = corner[b] + ((rest % sub) + 0.5 + jitter) * h[b] / sub;
        rest /= sub;
      }
      if (!m_solidCell.empty()) {
        // A cell an obstacle cuts through: a new particle starts outside it (15.3), (15.5).
        Vec<D> still(0.0);
        m_solids.pushOut(x, still, kGridWallMargin * m_h);
        leaveSolidCell(x);
        for (int b = 0; b < D; ++b) x[b] = std::clamp(x[b], kGridWallMargin * h[b], m_box[b] - kGridWallMargin * h[b]);
      }
      Vec<D> v;
      std::array<Vec<D>, D> affine;
      withKernel(m_params.kernel, [&]<class K>() { sampleGrid<K>(x, v, affine); });
      m_scratchX[next] = x;
      m_scratchV[next] = v;
      m_scratchM[next] = m_mass0;
      m_scratchId[next] = kUnnumbered;  // numbered below, in order, whatever the threads
      if (apic) m_scratchC[next] = affine;
      ++next, ++added;
    }
  }
  for (std::uint32_t& id : m_scratchId)
    if (id == kUnnumbered) id = p.nextId++;
  p.x.swap(m_scratchX), p.v.swap(m_scratchV), p.m.swap(m_scratchM), p.id.swap(m_scratchId);
  if (apic) m_c.swap(m_scratchC);
  m_cellStart.swap(start);
}

template void HybridSolver<2>::reseed(ParticleSet<2>&);
template void HybridSolver<3>::reseed(ParticleSet<3>&);

}  // namespace sloshlab
