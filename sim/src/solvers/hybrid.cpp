// Hybrid particle-grid solvers (see hybrid.h for the references and the design).
//
// Sections
//   1. Parameters
//   3. Set-up and time step
//   4. The step
//   5. Binning particles by cell, cell labels
//   7. Forces, projection, extrapolation
//   9. Advection
//  10. Colour fields
// Elsewhere: 2. the stencils (hybrid_stencils.h), 6. P2G and 8. G2P (hybrid_transfer.cpp),
// reseeding (hybrid_reseed.cpp), the free surface (grid/ghost_fluid_surface.cpp).
#include "solvers/hybrid.h"

#include "io/state_archive.h"

#include "solvers/hybrid_stencils.h"

#include <algorithm>
#include <cmath>

namespace sloshlab {

using namespace hybrid_detail;

// ---------------------------------------------------------------------------------
// 1. Parameters

namespace {

constexpr const char* kTransferNames[] = {"pic", "flip", "apic"};
constexpr const char* kKernelNames[] = {"linear", "quadratic", "cubic"};
constexpr const char* kPreconditionerNames[] = {"mic0", "multigrid"};
constexpr const char* kSurfaceNames[] = {"cell", "ghost_fluid"};

const ParamInfo kEntries[] = {
    {"transfer", "Transfer", "", "Transfer", SLOSHLAB_CHOICE_FIELD(HybridParams, transfer), 0.0, 2.0, false,
     "pic: v_p = sum_i v_i w_ip; flip: v_p += sum_i (v_i - v_i*) w_ip; apic: v_p and C_p from the grid [JSS+15]",
     kTransferNames},
    {"pic_fraction", "PIC fraction alpha: 0 = pure FLIP, 1 = pure PIC", "1", "Transfer",
     SLOSHLAB_PARAM_FIELD(HybridParams, picFraction), 0.0, 1.0, false,
     "alpha in v_p = alpha v_PIC + (1 - alpha) v_FLIP (flip only) [ZB05]"},
    {"kernel", "Transfer kernel", "", "Transfer", SLOSHLAB_CHOICE_FIELD(HybridParams, kernel), 0.0, 2.0, false,
     "w_ip = prod_k N((x_p - x_i)_k / h): linear (1 cell), quadratic (1.5) or cubic (2) B-spline",
     kKernelNames},
    {"cell_size", "Grid cell / spacing", "1", "Grid", SLOSHLAB_PARAM_FIELD(HybridParams, cellSize), 1.0, 4.0, false,
     "h / particle spacing: (h/s)^D particles per cell as emitted; walls lie on faces, h = size/round(size/h)"},
    {"cfl", "CFL number", "1", "Time step", SLOSHLAB_PARAM_FIELD(HybridParams, cfl), 0.1, 5.0, false,
     "dt from dt (|v|max + |a|max dt) = cfl h: particles cross at most cfl cells per step"},
    {"preconditioner", "PCG preconditioner", "", "Pressure", SLOSHLAB_CHOICE_FIELD(HybridParams, preconditioner), 0.0,
     1.0, false, "M in the PCG for lap p = rho/dt div u*: mic0 (incomplete Cholesky) or a multigrid V-cycle [MST10]",
     kPreconditionerNames},
    {"free_surface", "Free surface", "", "Pressure", SLOSHLAB_CHOICE_FIELD(HybridParams, freeSurface), 0.0, 1.0,
     false,
     "where p = 0: cell (at the air cell's centre) or ghost_fluid (where the liquid fraction crosses 1/2 between "
     "the cell centres, q_ghost = q_i (1 - 1/theta)) [GFCK02]",
     kSurfaceNames},
    {"tolerance", "Pressure tolerance", "1", "Pressure", SLOSHLAB_PARAM_FIELD(HybridParams, tolerance), 1e-12, 1e-2,
     true, "PCG stops when max|div u| h / max|u*| <= tolerance on fluid cells (lap p = rho/dt div u*)"},
    {"max_iterations", "Pressure iterations (max)", "1", "Pressure",
     SLOSHLAB_PARAM_FIELD(HybridParams, maxIterations), 1.0, 10000.0, true,
     "cap on the preconditioned conjugate gradient iterations per step"},
    {"rest_density", "Density", "kg/m^3", "Fluid", SLOSHLAB_PARAM_FIELD(HybridParams, restDensity), 100.0, 3000.0,
     false, "rho in u = u* - dt/rho grad p and in the particle mass m = rho s^D"},
    {"reseed", "Reseed", "", "Particles", SLOSHLAB_PARAM_FIELD(HybridParams, reseed), 0.0, 1.0, false,
     "move particles from cells above reseed_max (h/s)^D to cells inside the liquid below reseed_min (h/s)^D"},
    {"reseed_min", "Reseed below (x target)", "1", "Particles", SLOSHLAB_PARAM_FIELD(HybridParams, reseedMin), 0.0,
     1.0, false, "a cell inside the liquid with fewer than reseed_min (h/s)^D particles is filled towards (h/s)^D"},
    {"reseed_max", "Thin above (x target)", "1", "Particles", SLOSHLAB_PARAM_FIELD(HybridParams, reseedMax), 1.0,
     8.0, false, "a cell with more than reseed_max (h/s)^D particles gives the excess to sparse cells"},
};

const ParamTable kTables[] = {{"pic", kEntries}, {"flip", kEntries}, {"apic", kEntries}};

}  // namespace

template <int D>
const ParamTable& HybridSolver<D>::paramTable(Transfer owner) {
  return kTables[static_cast<int>(owner)];
}

template <int D>
HybridSolver<D>::HybridSolver(Transfer defaultTransfer) : m_owner(defaultTransfer) {
  m_params.transfer = static_cast<int>(defaultTransfer);
}

template <int D>
const char* HybridSolver<D>::name() const {
  // The transfer it runs: a `pic` solver switched to APIC is APIC.
  return kTransferNames[m_params.transfer];
}

// ---------------------------------------------------------------------------------
// 3. Set-up and time step

template <int D>
void HybridSolver<D>::reset(ParticleSet<D>& p, const SolverSetup<D>& setup) {
  m_box = setup.boxSize;
  m_solids = setup.solids;
  m_spacing = setup.spacing;
  m_appliedCell = 0.0;
  m_mass0 = 0.0;
  m_c.clear();
  m_cellStart.clear();
  m_moving = nullptr;
  m_bodyCell.clear(), m_bodyFaces.clear();
  m_steps = 0;
  paramsChanged(p);
  if (transfer() == Transfer::Apic) initialiseAffine(p);
}

// APIC particles carry C_p from the start: the emitter's velocities (v_block + omega x r)
// are affine, and one P2G / G2P pass recovers their gradient without touching v_p.
template <int D>
void HybridSolver<D>::initialiseAffine(ParticleSet<D>& p) {
  m_c.assign(p.size(), {});
  if (p.size() == 0) return;
  particlesToGrid(p);
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  withKernel(m_params.kernel, [&]<class K>() {
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) {
      Vec<D> v;
      sampleGrid<K>(p.x[i], v, m_c[i]);
    }
  });
}

template <int D>
void HybridSolver<D>::paramsChanged(ParticleSet<D>& p) {
  m_h = m_params.cellSize * m_spacing;
  if (m_h != m_appliedCell) {
    m_grid.configure(m_box, m_h);
    m_grid.allocate(m_mass);
    m_grid.allocate(m_u);
    m_grid.allocate(m_uOld);
    m_grid.allocate(m_delta);
    m_pressure.assign(m_grid.cellCount(), 0.0);
    m_cellStart.clear();
    m_bodyFaces.clear();  // the bodies' face arrays follow the grid (markBodies)
    for (int a = 0; a < D; ++a) m_open[a].clear(), m_solidVelocity[a].clear();
    markSolidCells();
    markOpening();
    const int sub = std::max(1, static_cast<int>(std::lround(m_params.cellSize)));
    m_target = 1;
    for (int b = 0; b < D; ++b) m_target *= sub;
    m_appliedCell = m_h;
  }
  double volume = 1.0;
  for (int b = 0; b < D; ++b) volume *= m_spacing;
  const double mass = m_params.restDensity * volume;
  if (mass != m_mass0) {
    std::fill(p.m.begin(), p.m.end(), mass);
    m_mass0 = mass;
  }
}

template <int D>
double HybridSolver<D>::interactionRadius() const {
  return kernelSupport(m_params.kernel) * m_h;
}

template <int D>
int HybridSolver<D>::extrapolationLayers() const {
  // G2P reads nodes within the kernel support of a particle (physics.md (3.7)), and advection
  // carries a particle at most cfl cells: the field must be defined that far into the air.
  return static_cast<int>(std::ceil(m_params.cfl) + std::ceil(kernelSupport(m_params.kernel))) + 1;
}

// CFL condition [Bri15], physics.md (9.7): dt (|v|max + |a| dt) = cfl h, solved for dt, with |a| bounding
// gravity and the frame's accelerations over the box.
template <int D>
double HybridSolver<D>::maxTimeStep(const ParticleSet<D>& p, const StepContext<D>& ctx) const {
  const double vmax = maxSpeed<D>(p.v);
  const double a = ctx.frame.bound(m_box, vmax);
  double hmin = m_grid.h()[0];
  for (int b = 1; b < D; ++b) hmin = std::min(hmin, m_grid.h()[b]);
  const double reach = m_params.cfl * hmin;
  const double denominator = vmax + std::sqrt(vmax * vmax + 4.0 * a * reach);
  return denominator > 0.0 ? 2.0 * reach / denominator : std::numeric_limits<double>::infinity();
}

// ---------------------------------------------------------------------------------
// 4. The step

template <int D>
void HybridSolver<D>::step(ParticleSet<D>& p, const StepContext<D>& ctx, SolverReport& report) {
  PhaseClock clock;
  m_moving = ctx.movingBodies;
  if (m_moving || !m_bodyFaces.empty() || !m_bodyCell.empty()) {
    markBodies();
    clock.lap(report, "bodies");
  }
  particlesToGrid(p);
  clock.lap(report, "P2G");
  addForces(ctx);
  clock.lap(report, "forces");
  project(ctx.dt, report);
  clock.lap(report, "project");
  addPressureChange();
  clock.lap(report, "pressure change");
  gridToParticles(p);
  clock.lap(report, "G2P");
  advect(p, ctx.dt);
  clock.lap(report, "advect");
  reseed(p);
  clock.lap(report, "reseed");
  m_moving = nullptr;
  ++m_steps;
}

// ---------------------------------------------------------------------------------
// 5. Binning particles by cell, cell labels

// A stable counting sort by cell (last axis slowest). The particles usually arrive
// sorted (reseed leaves them so), and then the permutation is skipped. With reorder
// false an unsorted set is left as it is, m_order holding the sorted order: reseed
// copies through it once instead of permuting and then copying. Returns whether the
// particles are in cell order.
template <int D>
bool HybridSolver<D>::binParticles(ParticleSet<D>& p, bool reorder) {
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  m_key.resize(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i)
    m_key[i] = static_cast<std::uint32_t>(m_grid.cellIndex(m_grid.cellOf(p.x[i])));
  std::int64_t unsorted = 0;
#pragma omp parallel for schedule(static) reduction(+ : unsorted)
  for (std::int64_t i = 1; i < n; ++i) unsorted += m_key[i - 1] > m_key[i];
  const std::size_t cells = m_grid.cellCount();
  m_cellStart.assign(cells + 1, 0);
  for (std::int64_t i = 0; i < n; ++i) ++m_cellStart[m_key[i] + 1];
  for (std::size_t c = 0; c < cells; ++c) m_cellStart[c + 1] += m_cellStart[c];
  if (unsorted == 0) return true;
  m_order.resize(n);
  std::vector<std::size_t> next(m_cellStart.begin(), m_cellStart.end() - 1);
  for (std::int64_t i = 0; i < n; ++i) m_order[next[m_key[i]]++] = static_cast<std::uint32_t>(i);
  if (!reorder) return false;
  applyOrder(p);
  return true;
}

template <int D>
void HybridSolver<D>::applyOrder(ParticleSet<D>& p) {
  permute(p.x, std::span<const std::uint32_t>(m_order), m_scratchX);
  permute(p.v, std::span<const std::uint32_t>(m_order), m_scratchV);
  permute(p.m, std::span<const std::uint32_t>(m_order), m_scratchM);
  permute(p.id, std::span<const std::uint32_t>(m_order), m_scratchId);
  if (m_c.size() == p.size()) permute(m_c, std::span<const std::uint32_t>(m_order), m_scratchC);
}

// A cell is fluid when it holds a particle, air otherwise; the padding and the cells
// inside obstacles are solid [Bri15]. (A body's cells are not: its faces' open shares
// say how much of them the liquid holds, hybrid_bodies.cpp.)
template <int D>
void HybridSolver<D>::labelCells() {
  std::vector<CellLabel>& labels = m_grid.labels();
  parallelForNodes<D>(IVec<D>(0), m_grid.cells(), [&](const IVec<D>& c) {
    const std::size_t idx = m_grid.cellIndex(c);
    if (!m_solidCell.empty() && m_solidCell[idx]) labels[m_grid.labelIndex(c)] = CellLabel::Solid;
    else labels[m_grid.labelIndex(c)] = m_cellStart[idx + 1] > m_cellStart[idx] ? CellLabel::Fluid : CellLabel::Air;
  });
}

// Obstacles as whole cells (physics.md (15.5)): a cell is solid when its centre lies
// inside one. The faces touching a solid cell hold u = 0: the obstacle stands still in
// the container's frame. (Fractional face weights, Batty, Bertails & Bridson 2007,
// would follow a surface that cuts through cells.)
template <int D>
void HybridSolver<D>::markSolidCells() {
  m_solidCell.clear();
  for (int a = 0; a < D; ++a) m_solidFaces[a].clear();
  if (m_solids.empty()) return;
  const std::size_t cells = m_grid.cellCount();
  m_solidCell.assign(cells, 0);
  const Vec<D> h = m_grid.h();
  for (std::size_t c = 0; c < cells; ++c)
    m_solidCell[c] = m_solids.distance((Vec<D>(m_grid.cellCoords(c)) + 0.5) * h) < 0.0;
  for (std::size_t c = 0; c < cells; ++c) {
    if (!m_solidCell[c]) continue;
    const IVec<D> cc = m_grid.cellCoords(c);
    for (int a = 0; a < D; ++a) {
      IVec<D> right = cc;
      right[a] += 1;
      m_solidFaces[a].push_back(m_grid.faceIndex(a, cc));
      m_solidFaces[a].push_back(m_grid.faceIndex(a, right));
    }
  }
}

template <int D>
void HybridSolver<D>::zeroSolidFaces() {
  for (int a = 0; a < D; ++a)
    for (std::size_t f : m_solidFaces[a]) m_u[a][f] = 0.0;
}

// The container's opening on the grid (physics.md (14.3)): the wall faces whose centre
// lies across it carry a velocity, with air (q = 0) beyond them.
template <int D>
void HybridSolver<D>::markOpening() {
  m_openingFaces.clear();
  m_openFace.clear();
  const WallOpening<D>& o = m_solids.opening();
  if (!o.exists()) return;
  const int a = o.axis;
  m_openFace.assign(m_grid.faceCount(a), 0);
  IVec<D> lo(0), hi = m_grid.cells();
  lo[a] = o.side == 0 ? 0 : hi[a];
  hi[a] = lo[a] + 1;
  IVec<D> node = lo, nearest = lo;
  double best = std::numeric_limits<double>::infinity();
  while (true) {
    const double d2 = lengthSquared<D>(m_grid.facePosition(a, node) - o.centre);
    if (d2 < best) best = d2, nearest = node;
    if (o.across(m_grid.facePosition(a, node))) m_openingFaces.push_back(node);
    int b = 0;
    while (b < D && ++node[b] == hi[b]) node[b] = lo[b], ++b;
    if (b == D) break;
  }
  // A hole narrower than the cells opens the face nearest its centre.
  if (m_openingFaces.empty()) m_openingFaces.push_back(nearest);
  for (const IVec<D>& f : m_openingFaces) m_openFace[m_grid.faceIndex(a, f)] = 1;
}

// Beyond the opening the normal velocity goes on as it leaves (the ghosts take the open
// face's value), where a wall mirrors it to u.n = 0 (fillGhostFaces).
template <int D>
void HybridSolver<D>::extendThroughOpening() {
  if (m_openingFaces.empty()) return;
  const WallOpening<D>& o = m_solids.opening();
  const int a = o.axis;
  for (const IVec<D>& node : m_openingFaces) {
    const double u = m_u[a][m_grid.faceIndex(a, node)];
    for (int g = 1; g <= MacGrid<D>::kGhost; ++g) {
      IVec<D> ghost = node;
      ghost[a] += o.side == 0 ? -g : g;
      m_u[a][m_grid.faceIndex(a, ghost)] = u;
    }
  }
}

// A particle in a solid cell (outside the obstacle's surface, in a cell its centre
// lies inside) moves across the nearest face to an open cell, kGridWallMargin h past it.
template <int D>
void HybridSolver<D>::leaveSolidCell(Vec<D>& x) const {
  const IVec<D> c = m_grid.cellOf(x);
  if (!m_solidCell[m_grid.cellIndex(c)]) return;
  const Vec<D> h = m_grid.h();
  const IVec<D> n = m_grid.cells();
  double best = std::numeric_limits<double>::infinity();
  Vec<D> target = x;
  for (int b = 0; b < D; ++b)
    for (int side = 0; side < 2; ++side) {
      IVec<D> nb = c;
      nb[b] += side == 0 ? -1 : 1;
      if (nb[b] < 0 || nb[b] >= n[b] || m_solidCell[m_grid.cellIndex(nb)]) continue;
      const double face = (c[b] + side) * h[b];
      const double to = face + (side == 0 ? -1.0 : 1.0) * kGridWallMargin * h[b];
      if (std::abs(to - x[b]) < best) best = std::abs(to - x[b]), target = x, target[b] = to;
    }
  x = target;
}

// ---------------------------------------------------------------------------------
// 7. Forces, projection, extrapolation

// Marks the faces that hold a known value, walls excepted: after P2G those some particle
// reached (with APIC their value is the particles' affine field continued: a good
// guess a little into the air); after projection those next to a fluid cell.
template <int D>
void HybridSolver<D>::markValidFaces(KnownFaces known) {
  const std::vector<CellLabel>& labels = m_grid.labels();
  for (int a = 0; a < D; ++a) {
    m_valid[a].assign(m_grid.faceCount(a), 0);
    IVec<D> lo(0), hi = m_grid.faceNodes(a);
    lo[a] = 1, hi[a] -= 1;
    const std::size_t minus = m_grid.labelStride()[a];
    parallelForNodes<D>(lo, hi, [&](const IVec<D>& node) {
      const std::size_t right = m_grid.labelIndex(node), left = right - minus;
      const std::size_t idx = m_grid.faceIndex(a, node);
      m_valid[a][idx] = known == KnownFaces::ReachedByParticles ? m_mass[a][idx] > 0.0
                                      : labels[left] == CellLabel::Fluid || labels[right] == CellLabel::Fluid;
    });
  }
}

// u += dt a(x, u) on every face, a = R^T(g - A) - alpha x r - omega x (omega x r) - 2 omega x u
// (container.h; physics.md (3.9), (8.3)); the components a face does not store come from the mean of the four
// nearest faces of each other component (read from the field before this phase).
template <int D>
void HybridSolver<D>::addForces(const StepContext<D>& ctx) {
  const FrameMotion<D>& frame = ctx.frame;
  const double dt = ctx.dt;
  const bool uniform = !frame.turning();
  for (int a = 0; a < D; ++a) {
    IVec<D> lo(0), hi = m_grid.faceNodes(a);
    lo[a] = 1, hi[a] -= 1;
    std::vector<double>& ua = m_u[a];
    parallelForNodes<D>(lo, hi, [&](const IVec<D>& node) {
      const std::size_t idx = m_grid.faceIndex(a, node);
      if (uniform) {
        ua[idx] += dt * frame.gravityMinusA[a];
        return;
      }
      const Vec<D> v = velocityAtFace<D>(m_grid, m_uOld, a, node);
      ua[idx] += dt * frame.acceleration(m_grid.facePosition(a, node), v)[a];
    });
  }
  for (const IVec<D>& node : m_openingFaces) {  // the opening's faces, on the wall (14.3)
    const int a = m_solids.opening().axis;
    const Vec<D> v = velocityAtFace<D>(m_grid, m_uOld, a, node);
    m_u[a][m_grid.faceIndex(a, node)] +=
        dt * (uniform ? frame.gravityMinusA[a] : frame.acceleration(m_grid.facePosition(a, node), v)[a]);
  }
}

// lap q = div u* on fluid cells, q = p dt/rho = 0 in air, solid faces fixed; then
// u = u* - grad q on every face next to a fluid cell ([Bri15] ch. 5; pressure_solver.h; physics.md (3.10)-(3.12)).
template <int D>
void HybridSolver<D>::project(double dt, SolverReport& report) {
  const IVec<D> n = m_grid.cells();
  const Vec<D> invH = m_grid.invH();
  // The walls: u.n = 0 in the container's frame.
  for (int a = 0; a < D; ++a) {
    IVec<D> lo(0), hi = m_grid.faceNodes(a);
    for (int side = 0; side < 2; ++side) {
      lo[a] = side == 0 ? 0 : n[a];
      hi[a] = lo[a] + 1;
      parallelForNodes<D>(lo, hi, [&](const IVec<D>& node) {
        if (!openFace(a, node)) m_u[a][m_grid.faceIndex(a, node)] = 0.0;  // but across the opening (14.3)
      });
    }
  }
  zeroSolidFaces();  // and on the obstacles (15.5)
  const bool bodies = bodiesOnGrid();
  if (bodies) {
    closeBodyPockets();
    setBodyFaces();  // the bodies' faces move with them, at v* (16.17)
  }
  // A cell whose every face a body covers is no unknown, whatever it holds.
  const auto enclosed = [&](std::size_t c) {
    if (!bodies) return false;
    const IVec<D> cell = m_grid.cellCoords(c);
    for (int a = 0; a < D; ++a)
      for (int side = 0; side < 2; ++side) {
        IVec<D> node = cell;
        node[a] += side;
        if (m_open[a][m_grid.faceIndex(a, node)] > 0.0) return false;
      }
    return true;
  };
  // Unknowns: the fluid cells in lexicographic order.
  const std::size_t cells = m_grid.cellCount();
  const std::vector<CellLabel>& labels = m_grid.labels();
  m_unknown.assign(cells, -1);
  std::vector<std::uint32_t> fluidCells;
  for (std::size_t c = 0; c < cells; ++c)
    if (m_cellStart[c + 1] > m_cellStart[c] && (m_solidCell.empty() || !m_solidCell[c]) && !enclosed(c)) {
      m_unknown[c] = static_cast<int>(fluidCells.size());
      fluidCells.push_back(static_cast<std::uint32_t>(c));
    }
  const std::int64_t unknowns = static_cast<std::int64_t>(fluidCells.size());
  double cellVolume = 1.0;
  for (int a = 0; a < D; ++a) cellVolume *= m_grid.h()[a];
  report.liquidVolume = static_cast<double>(unknowns) * cellVolume;  // its drift shows volume loss
  std::vector<typename PressureSolver<D>::Neighbours> neighbours(unknowns);
  m_surfaceDiag.assign(unknowns, 0.0);
  m_faceWeights.assign(bodies ? unknowns : 0, {});
  m_rhs.resize(unknowns);
  m_q.resize(unknowns);
  const double rho = m_params.restDensity;
  double umax = 0.0;
#pragma omp parallel for schedule(static) reduction(max : umax)
  for (std::int64_t k = 0; k < unknowns; ++k) {
    const IVec<D> c = m_grid.cellCoords(fluidCells[k]);
    double div = 0.0;
    for (int a = 0; a < D; ++a) {
      IVec<D> right = c;
      right[a] += 1;
      const std::size_t fl = m_grid.faceIndex(a, c), fr = m_grid.faceIndex(a, right);
      for (int side = 0; side < 2; ++side) {
        IVec<D> nb = c;
        nb[a] += side == 0 ? -1 : 1;
        int& slot = neighbours[k][2 * a + side];
        const double open = bodies ? m_open[a][side == 0 ? fl : fr] : 1.0;  // (16.17)
        if (bodies) m_faceWeights[k][2 * a + side] = open;
        if ((nb[a] < 0 || nb[a] >= n[a]) && openFace(a, side == 0 ? c : right)) {
          // Air beyond the opening (14.3): q = 0 at the cell there. As a term of the
          // diagonal, so that the multigrid's walls (a solid padding) see it too.
          slot = PressureSolver<D>::kSolid;
          m_surfaceDiag[k] += invH[a] * invH[a];
        } else if (nb[a] < 0 || nb[a] >= n[a] || labels[m_grid.labelIndex(nb)] == CellLabel::Solid || open == 0.0)
          slot = PressureSolver<D>::kSolid;
        else if (labels[m_grid.labelIndex(nb)] == CellLabel::Fluid) slot = m_unknown[m_grid.cellIndex(nb)];
        else {
          slot = PressureSolver<D>::kAir;
          m_surfaceDiag[k] +=
              open * invH[a] * invH[a] * (1.0 / surfaceTheta(fluidCells[k], m_grid.cellIndex(nb)) - 1.0);
        }
      }
      const double ul = faceFlux(a, fl, m_u[a][fl]), ur = faceFlux(a, fr, m_u[a][fr]);
      div += (ur - ul) * invH[a];
      umax = std::max({umax, std::abs(ul), std::abs(ur)});
    }
    m_rhs[k] = -div;
    m_q[k] = m_pressure[fluidCells[k]] * dt / rho;  // warm start from the last step's pressure
  }
  if (bodies) balanceTrappedLiquid(neighbours);  // (16.18): no singular, inconsistent pocket
  Vec<D> invH2;
  for (int a = 0; a < D; ++a) invH2[a] = invH[a] * invH[a];
  m_pcg.build(neighbours, invH2, static_cast<Preconditioner>(m_params.preconditioner), n, fluidCells, m_surfaceDiag,
              m_faceWeights);
  const double scale = m_h / std::max(umax, 1e-12);  // turns max|div u| into max|div u| h / max|u*|
  const auto couplings = bodyCouplings();  // (16.18)
  const bool bodiesMove = !couplings.empty();  // one per body when the grid holds any
  m_pcg.setBodies(couplings);
  if (umax <= 1e-12) std::fill(m_q.begin(), m_q.end(), 0.0);
  const auto result = m_pcg.solve(m_rhs, m_q, m_params.tolerance / scale, m_params.maxIterations);

  if (bodiesMove) takeBodyImpulses(couplings);  // (16.19): the bodies' faces now at the solved velocity

  // Pressure per cell (Pa); q per cell for the gradient.
  std::fill(m_pressure.begin(), m_pressure.end(), 0.0);
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < unknowns; ++k) m_pressure[fluidCells[k]] = m_q[k];
  // The change -grad q on the faces next to fluid [Bri15] ch. 5; addPressureChange() extends it
  // into the air and adds it to u. At the surface the air side holds the ghost value
  // q_i (1 - 1/theta) [GFCK02] (q = 0 with free_surface = cell, theta = 1); physics.md (3.12d).
  for (int a = 0; a < D; ++a) {
    IVec<D> lo(0), hi = m_grid.faceNodes(a);
    lo[a] = 1, hi[a] -= 1;
    std::size_t step = 1;  // cell index step along a
    for (int b = 0; b < a; ++b) step *= static_cast<std::size_t>(n[b]);
    std::fill(m_delta[a].begin(), m_delta[a].end(), 0.0);
    parallelForNodes<D>(lo, hi, [&](const IVec<D>& node) {
      const std::size_t right = m_grid.cellIndex(node), left = right - step;
      const bool fluidLeft = m_unknown[left] >= 0, fluidRight = m_unknown[right] >= 0;
      if (!fluidLeft && !fluidRight) return;
      if (!m_solidCell.empty() && (m_solidCell[left] || m_solidCell[right])) return;  // u = 0 there
      const std::size_t f = m_grid.faceIndex(a, node);
      if (bodies && m_open[a][f] == 0.0) return;  // inside a body: continued there (addPressureChange)
      double qLeft = m_pressure[left], qRight = m_pressure[right];
      if (!fluidLeft) qLeft = qRight * (1.0 - 1.0 / surfaceTheta(right, left));
      if (!fluidRight) qRight = qLeft * (1.0 - 1.0 / surfaceTheta(left, right));
      m_delta[a][f] = -(qRight - qLeft) * invH[a];
    });
  }
  for (const IVec<D>& node : m_openingFaces) {  // q = 0 beyond the opening (14.3)
    const int a = m_solids.opening().axis;
    const std::size_t cell = m_grid.cellIndex(openingCell(node));
    if (m_unknown[cell] < 0) continue;
    const double q = m_pressure[cell];
    m_delta[a][m_grid.faceIndex(a, node)] = (m_solids.opening().side == 0 ? -q : q) * invH[a];
  }
  const double toPascal = rho / dt;
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < unknowns; ++k) m_pressure[fluidCells[k]] *= toPascal;

  // Measured: max |div u| h / max |u| on fluid cells after projection. |u| is the larger of
  // the field's scales before and after: a liquid at rest has u* = g dt and u ~ 0 after,
  // where the ratio to the leftover alone would be 0/0.
  double divMax = 0.0, uAfter = 0.0;
#pragma omp parallel for schedule(static) reduction(max : divMax, uAfter)
  for (std::int64_t k = 0; k < unknowns; ++k) {
    const IVec<D> c = m_grid.cellCoords(fluidCells[k]);
    double div = 0.0;
    for (int a = 0; a < D; ++a) {
      IVec<D> right = c;
      right[a] += 1;
      const std::size_t il = m_grid.faceIndex(a, c), ir = m_grid.faceIndex(a, right);
      const double ul = faceFlux(a, il, m_u[a][il] + m_delta[a][il]), ur = faceFlux(a, ir, m_u[a][ir] + m_delta[a][ir]);
      div += (ur - ul) * invH[a];
      uAfter = std::max({uAfter, std::abs(ul), std::abs(ur)});
    }
    divMax = std::max(divMax, std::abs(div));
  }
  const double uScale = std::max(uAfter, umax);
  report.divergenceMax = uScale > 0.0 ? divMax * m_h / uScale : 0.0;
  report.iterations = result.iterations;
  report.residual = result.residual * scale;
}

// u += -grad q, first extended from the faces next to fluid into the air faces that G2P
// and advection will read, where it is added to u* (already defined there, from P2G and
// its extension): a smooth correction rather than the velocity itself, which
// keeps the particles' own (APIC: affine) field near the surface. In a tank at rest
// u* = g dt above the surface and the change -g dt: the air moves with the liquid, 0.
// Then the ghosts, by reflection at the walls.
template <int D>
void HybridSolver<D>::addPressureChange() {
  markValidFaces(KnownFaces::NextToFluid);
  const bool bodies = bodiesOnGrid();
  if (bodies)  // inside a body: the liquid's change continued (16.19)
    for (const BodyFace& f : m_bodyFaces)
      if (m_open[f.component][f.index] == 0.0) m_valid[f.component][f.index] = 0;
  extrapolateVelocity<D>(m_grid, m_delta, m_valid, extrapolationLayers());
  for (int a = 0; a < D; ++a) {
    const std::int64_t count = static_cast<std::int64_t>(m_u[a].size());
    double* u = m_u[a].data();
    const double* delta = m_delta[a].data();
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < count; ++i) u[i] += delta[i];  // walls and ghosts: delta = 0
  }
  zeroSolidFaces();
  if (bodies) constrainBodyFaces();
  fillGhostFaces<D>(m_grid, m_u);
  extendThroughOpening();
}

// ---------------------------------------------------------------------------------
// 9. Advection

// Midpoint rule (RK2) through the grid velocity, linearly interpolated [Bri15] ch. 3, physics.md (3.20);
// every position is clamped into the box, kGridWallMargin h inside the walls.
template <int D>
void HybridSolver<D>::advect(ParticleSet<D>& p, double dt) {
  const std::int64_t n = static_cast<std::int64_t>(p.size());
  Vec<D> lo, hi;
  for (int b = 0; b < D; ++b) {
    lo[b] = kGridWallMargin * m_grid.h()[b];
    hi[b] = m_box[b] - lo[b];
  }
  // Across an open face of the container's opening (14.3) a position may pass the wall,
  // by up to half a cell (the ghost faces hold its velocity there): the outlet then takes it.
  const WallOpening<D>& hole = m_solids.opening();
  Vec<D> loOut = lo, hiOut = hi;
  if (hole.exists()) {
    const double past = 0.5 * m_grid.h()[hole.axis];
    if (hole.side == 0) loOut[hole.axis] = -past;
    else hiOut[hole.axis] = m_box[hole.axis] + past;
  }
  // NaN goes to the low wall: a grid velocity that went non-finite (a blow-up, which
  // the step's checks then report) must not carry a NaN position into the cell
  // lookups that follow (reseed, the next interpolation), where it indexed memory.
  auto inside = [&](Vec<D> x) {
    bool out = false;  // across an open face of the opening
    if (hole.exists() && std::isfinite(lengthSquared<D>(x))) {
      IVec<D> node = m_grid.cellOf(x);
      if (hole.side == 1) node[hole.axis] = m_grid.cells()[hole.axis];
      else node[hole.axis] = 0;
      out = openFace(hole.axis, node);
    }
    const Vec<D>& l = out ? loOut : lo;
    const Vec<D>& u = out ? hiOut : hi;
    for (int b = 0; b < D; ++b) x[b] = x[b] > l[b] ? (x[b] < u[b] ? x[b] : u[b]) : l[b];
    return x;
  };
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    const Vec<D> x0 = p.x[i];
    const Vec<D> mid = inside(x0 + (0.5 * dt) * interpolateVelocity<D>(m_grid, m_u, x0));
    p.x[i] = inside(x0 + dt * interpolateVelocity<D>(m_grid, m_u, mid));
    if (!m_solidCell.empty()) {  // out of the obstacles (15.3), and of their cells (15.5)
      m_solids.pushOut(p.x[i], p.v[i], kGridWallMargin * m_h);
      leaveSolidCell(p.x[i]);
      p.x[i] = inside(p.x[i]);
    }
  }
}

// ---------------------------------------------------------------------------------
// 10. Colour fields

// Pressure: the cell's (Pa). Density: rho times the cell's particles over the target.
template <int D>
bool HybridSolver<D>::field(FieldKind kind, const ParticleSet<D>& p, std::span<float> out) const {
  if (kind != FieldKind::Pressure && kind != FieldKind::Density) return false;
  if (m_cellStart.size() != m_grid.cellCount() + 1 || m_cellStart.back() != p.size()) return false;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const std::size_t c = m_grid.cellIndex(m_grid.cellOf(p.x[i]));
    if (kind == FieldKind::Pressure) {
      out[i] = static_cast<float>(m_pressure[c]);
    } else {
      const double count = static_cast<double>(m_cellStart[c + 1] - m_cellStart[c]);
      out[i] = static_cast<float>(m_params.restDensity * count / m_target);
    }
  }
  return true;
}

// APIC's affine matrices, the pressure that starts the next solve, and the step count
// that seeds reseeding's jitter. The grid is rebuilt from the particles in every step.
template <int D>
void HybridSolver<D>::exchangeState(StateArchive& ar, ParticleSet<D>& p) {
  ar.channel(m_c, p.size(), "the APIC affine matrices");
  ar.channel(m_pressure, m_grid.cellCount(), "the grid pressure");
  if (ar.loading() && m_pressure.size() != m_grid.cellCount()) m_pressure.assign(m_grid.cellCount(), 0.0);
  ar.value(m_steps, "the step count");
}

template class HybridSolver<2>;
template class HybridSolver<3>;

}  // namespace sloshlab
