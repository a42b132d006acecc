// Floating bodies in the hybrid solvers: moving solids on fractional faces whose velocity
// is solved with the pressure (physics.md (16.17)-(16.19); Batty, Bertails & Bridson
// 2007, doi:10.1145/1276377.1276502).
//
// Each face near a body has an open share w, the part of it outside the body, from the
// body's signed distance at its corners (a segment in 2D, four triangles in 3D). The flux
// through the face is w u_f + (1 - w) u_body(x_f), u_body = v + omega x (x_f - c)
// (16.17): the pressure's rows weigh the face by w, and the covered part makes cell i's
// divergence a linear function of the body's generalised velocity U = (v, omega), J_i . U
// with J_i = sum_f sigma_f (1 - w_f) / h_a (e_a, r_f x e_a). The pressure pushes back: its
// impulse on the body over the step is rho V_c sum_i q_i J_i (q = p dt / rho), so
// U = U* + M^-1 rho V_c sum_i q_i J_i, and the projection becomes
// (A_w + J W J^T) q = -div u*, W = rho V_c M^-1 (16.18): symmetric positive definite,
// solved by the same conjugate gradient. The body and the liquid about it change velocity
// together in one solve, so a light body (its added mass above its own) stays stable
// without the share the SPH solvers need (16.14). Around that: a body held against what
// it touches, the empty cells it holds closed, liquid trapped without air made
// consistent (16.19); after the solve a face wholly inside a body carries the liquid's
// velocity continued there with the body's normal part, which G2P and advection read.
#include "solvers/hybrid.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace sloshlab {

namespace {

// The share of a segment inside (phi < 0), phi linear between its ends.
double segmentInside(double p0, double p1) {
  if (p0 < 0.0 && p1 < 0.0) return 1.0;
  if (p0 >= 0.0 && p1 >= 0.0) return 0.0;
  const double neg = std::min(p0, p1), pos = std::max(p0, p1);
  return neg / (neg - pos);
}

// The share of a triangle inside, phi linear over it.
double triangleInside(double p, double q, double r) {
  // Sort so that the lone vertex (the one on its own side) is first.
  const int negatives = (p < 0.0) + (q < 0.0) + (r < 0.0);
  if (negatives == 0) return 0.0;
  if (negatives == 3) return 1.0;
  const bool loneInside = negatives == 1;
  double a = p, b = q, c = r;
  if ((q < 0.0) == loneInside) std::swap(a, b);
  else if ((r < 0.0) == loneInside) std::swap(a, c);
  const double corner = a * a / ((a - b) * (a - c));  // the lone vertex's corner triangle
  return loneInside ? corner : 1.0 - corner;
}

}  // namespace

// The share of face `node` of component a inside body k, from the body's signed
// distance at the face's corners.
template <int D>
double HybridSolver<D>::coveredShare(std::size_t k, int a, const IVec<D>& node) const {
  const Vec<D> h = m_grid.h();
  Vec<D> corner;
  for (int b = 0; b < D; ++b) corner[b] = node[b] * h[b];  // the face's lowest corner
  const auto phi = [&](const Vec<D>& x) {
    Vec<D> normal;
    return m_moving->distance(k, x, normal);
  };
  if constexpr (D == 2) {
    const int b = 1 - a;
    Vec<D> end = corner;
    end[b] += h[b];
    return segmentInside(phi(corner), phi(end));
  } else {
    const int b = (a + 1) % 3, c = (a + 2) % 3;
    std::array<double, 4> p;  // counter-clockwise in (b, c)
    for (int q = 0; q < 4; ++q) {
      Vec<D> x = corner;
      x[b] += (q == 1 || q == 2) ? h[b] : 0.0;
      x[c] += q >= 2 ? h[c] : 0.0;
      p[q] = phi(x);
    }
    Vec<D> mid = corner;
    mid[b] += 0.5 * h[b], mid[c] += 0.5 * h[c];
    const double centre = phi(mid);
    double share = 0.0;
    for (int q = 0; q < 4; ++q) share += 0.25 * triangleInside(centre, p[q], p[(q + 1) % 4]);
    return share;
  }
}

// The cells whose centres this step's bodies hold (reseeding leaves them empty), and the
// faces they cover with their open shares. A face covered by two bodies belongs to the
// one covering more of it; the walls' faces are closed anyway.
template <int D>
void HybridSolver<D>::markBodies() {
  for (const BodyFace& f : m_bodyFaces) m_open[f.component][f.index] = 1.0;
  m_bodyFaces.clear();
  m_bodyCell.clear();
  if (!m_moving || m_moving->bodies.empty()) return;
  if (m_open[0].size() != m_grid.faceCount(0)) {
    m_grid.allocate(m_open, 1.0);
    m_grid.allocate(m_solidVelocity);
  }
  m_bodyCell.assign(m_grid.cellCount(), 0);
  const Vec<D> h = m_grid.h();
  const IVec<D> n = m_grid.cells();
  // Visits the nodes in [lo, hi) (x fastest), one thread: a body's box is small.
  const auto visit = [](const IVec<D>& lo, const IVec<D>& hi, auto&& f) {
    for (int d = 0; d < D; ++d)
      if (lo[d] >= hi[d]) return;
    IVec<D> node = lo;
    while (true) {
      f(node);
      int d = 0;
      while (d < D && ++node[d] == hi[d]) node[d] = lo[d], ++d;
      if (d == D) return;
    }
  };
  struct Covered {
    double share;
    BodyFace face;
  };
  std::vector<Covered> covered;
  std::vector<std::uint32_t> cells;  // the cells whose centres the bodies hold
  for (std::size_t k = 0; k < m_moving->bodies.size(); ++k) {
    typename MovingBodies<D>::Body& b = m_moving->bodies[k];
    b.solvedVelocity = b.velocity, b.solvedSpin = b.spin;  // v* until the solve
    bool finite = std::isfinite(b.reach);
    for (int a = 0; a < D; ++a) finite = finite && std::isfinite(b.centre[a]);
    if (!finite) continue;  // a blown-up body: the step's checks report it
    IVec<D> lo, hi;
    for (int a = 0; a < D; ++a) {
      lo[a] = std::clamp(static_cast<int>(std::floor((b.centre[a] - b.reach) / h[a])), 0, n[a]);
      hi[a] = std::clamp(static_cast<int>(std::ceil((b.centre[a] + b.reach) / h[a])) + 1, 0, n[a]);
    }
    const auto mark = static_cast<std::uint16_t>(k + 1);
    visit(lo, hi, [&](const IVec<D>& c) {
      const std::size_t idx = m_grid.cellIndex(c);
      if (m_bodyCell[idx] != 0 || (!m_solidCell.empty() && m_solidCell[idx])) return;
      Vec<D> normal;
      if (m_moving->distance(k, (Vec<D>(c) + 0.5) * h, normal) < 0.0) {
        m_bodyCell[idx] = mark;
        cells.push_back(static_cast<std::uint32_t>(idx));
      }
    });
    for (int a = 0; a < D; ++a) {
      IVec<D> flo = lo, fhi = hi;
      flo[a] = std::max(lo[a], 1), fhi[a] = std::min(hi[a] + 1, n[a]);  // interior faces of component a
      visit(flo, fhi, [&](const IVec<D>& node) {
        const double share = coveredShare(k, a, node);
        if (share > 1e-3) covered.push_back({share, BodyFace{a, m_grid.faceIndex(a, node), node, mark}});
      });
    }
  }
  // Every face of a cell whose centre a body holds is listed, however little of it the
  // body covers: closeBodyPockets may have to close it.
  for (std::uint32_t c : cells) {
    const IVec<D> cell = m_grid.cellCoords(c);
    for (int a = 0; a < D; ++a)
      for (int side = 0; side < 2; ++side) {
        IVec<D> node = cell;
        node[a] += side;
        if (node[a] == 0 || node[a] == n[a]) continue;
        covered.push_back({0.0, BodyFace{a, m_grid.faceIndex(a, node), node, m_bodyCell[c]}});
      }
  }
  // One entry per face, the body covering most of it (a fixed order: the run does not
  // depend on the threads or the bodies' order in memory).
  std::sort(covered.begin(), covered.end(), [](const Covered& x, const Covered& y) {
    if (x.face.component != y.face.component) return x.face.component < y.face.component;
    if (x.face.index != y.face.index) return x.face.index < y.face.index;
    if (x.share != y.share) return x.share > y.share;
    return x.face.body < y.face.body;
  });
  for (std::size_t i = 0; i < covered.size(); ++i) {
    const BodyFace& f = covered[i].face;
    if (i > 0 && covered[i - 1].face.component == f.component && covered[i - 1].face.index == f.index) continue;
    m_open[f.component][f.index] = covered[i].share > 1.0 - 1e-3 ? 0.0 : 1.0 - covered[i].share;
    m_bodyFaces.push_back(f);
  }
}

// A face that opens onto an empty cell whose centre a body holds is closed: that cell is
// the body's, and an air cell there (p = 0 under water) would drain the liquid into it.
template <int D>
void HybridSolver<D>::closeBodyPockets() {
  const std::vector<CellLabel>& labels = m_grid.labels();
  for (const BodyFace& f : m_bodyFaces) {
    double& open = m_open[f.component][f.index];
    if (open == 0.0) continue;
    IVec<D> left = f.node;
    left[f.component] -= 1;
    for (const IVec<D>& cell : {left, f.node}) {
      const std::size_t c = m_grid.cellIndex(cell);
      if (m_bodyCell[c] != 0 && labels[m_grid.labelIndex(cell)] != CellLabel::Fluid) open = 0.0;
    }
  }
}

// (16.17): each body face's solid velocity as the body moves now (v* before the solve,
// the solved velocity after). The face's own u stays the liquid's: G2P and advection
// read the liquid's velocity continued into the body (addPressureChange), so that a
// particle beside it trades momentum with it only through the pressure and (16.5)-(16.6).
template <int D>
void HybridSolver<D>::setBodyFaces() {
  for (const BodyFace& f : m_bodyFaces) {
    const std::size_t k = f.body - 1u;
    const Vec<D> r = m_grid.facePosition(f.component, f.node) - m_moving->bodies[k].centre;
    const double u = bodyVelocityAt(k, r)[f.component];
    m_solidVelocity[f.component][f.index] = u;
  }
}

// After the projection, on the faces inside a body: the liquid's velocity continued there
// (addPressureChange), its normal part replaced by the body's, u = u_l - ((u_l - u_b).n) n
// (free slip, (16.17)). A particle beside the body then reads a velocity that neither
// enters the body nor drags the liquid sliding past it, whose momentum the body would not
// get (with the body's whole velocity there, a slab thrown at a ball lost 2.5-7 % of its
// momentum in 0.25 s).
template <int D>
void HybridSolver<D>::constrainBodyFaces() {
  std::vector<double> value(m_bodyFaces.size());
  for (std::size_t i = 0; i < m_bodyFaces.size(); ++i) {
    const BodyFace& f = m_bodyFaces[i];
    const int a = f.component;
    value[i] = m_u[a][f.index];
    if (m_open[a][f.index] != 0.0) continue;
    const std::size_t k = f.body - 1u;
    const Vec<D> x = m_grid.facePosition(a, f.node);
    Vec<D> n;
    m_moving->distance(k, x, n);
    const Vec<D> u = velocityAtFace<D>(m_grid, m_u, a, f.node);  // the liquid's there
    const Vec<D> body = bodyVelocityAt(k, x - m_moving->bodies[k].centre);
    value[i] = u[a] - glm::dot(u - body, n) * n[a];
  }
  for (std::size_t i = 0; i < m_bodyFaces.size(); ++i) m_u[m_bodyFaces[i].component][m_bodyFaces[i].index] = value[i];
}

// Liquid trapped where no face leads to air (between bodies pressed together, or a body
// and a wall) has only walls and bodies about it: its rows sum to what the bodies' motion
// sends into it, and where that motion is held (16.19) or a ball's spin, nothing in the
// solve can take it up: the system is singular and inconsistent, and conjugate gradient
// ran away (a pile of 100 balls blew up APIC at 0.31 s). Each such pocket gives up its
// mean divergence (it may change volume by that much for a step) and gets a diagonal a
// millionth of a row's, which leaves a consistent pocket's solution as it was.
template <int D>
void HybridSolver<D>::balanceTrappedLiquid(const std::vector<typename PressureSolver<D>::Neighbours>& neighbours) {
  using Pcg = PressureSolver<D>;
  const std::int64_t n = static_cast<std::int64_t>(neighbours.size());
  double invH2 = 0.0;
  for (int a = 0; a < D; ++a) invH2 = std::max(invH2, m_grid.invH()[a] * m_grid.invH()[a]);
  std::vector<std::uint8_t> seen(n, 0);
  std::vector<std::int64_t> pocket, stack;
  for (std::int64_t start = 0; start < n; ++start) {
    if (seen[start]) continue;
    pocket.clear(), stack.assign(1, start);
    seen[start] = 1;
    bool air = false;
    while (!stack.empty()) {
      const std::int64_t k = stack.back();
      stack.pop_back();
      pocket.push_back(k);
      for (int side = 0; side < 2 * D; ++side) {
        const int j = neighbours[k][side];
        if (j == Pcg::kAir) air = true;
        if (j >= 0 && !seen[j]) seen[j] = 1, stack.push_back(j);
      }
    }
    if (air) continue;
    std::sort(pocket.begin(), pocket.end());  // a fixed order for the sum
    double mean = 0.0;
    for (std::int64_t k : pocket) mean += m_rhs[k];
    mean /= static_cast<double>(pocket.size());
    for (std::int64_t k : pocket) m_rhs[k] -= mean, m_surfaceDiag[k] += 1e-6 * invH2;
  }
}

// (16.18): per body, J's rows on the unknowns beside its faces and W = rho V_c M^-1. A
// face sends sigma (1 - w) u_body / h_a out of the cell on each side, sigma = +1 for the
// cell whose plus side it is.
template <int D>
std::vector<typename PressureSolver<D>::BodyCoupling> HybridSolver<D>::bodyCouplings() const {
  using Coupling = typename PressureSolver<D>::BodyCoupling;
  using Row = typename PressureSolver<D>::BodyRow;
  std::vector<Coupling> out;
  if (!bodiesOnGrid()) return out;
  const Vec<D> invH = m_grid.invH();
  std::vector<std::map<int, Row>> rows(m_moving->bodies.size());
  for (const BodyFace& f : m_bodyFaces) {
    const std::size_t k = f.body - 1u;
    const int a = f.component;
    const double covered = 1.0 - m_open[a][f.index];
    const Vec3 r = toVec3<D>(m_grid.facePosition(a, f.node) - m_moving->bodies[k].centre);
    Vec3 e(0.0);
    e[a] = 1.0;
    const Vec3 turn = glm::cross(r, e);
    IVec<D> left = f.node;
    left[a] -= 1;
    for (const auto& [cell, sigma] : {std::pair{left, 1.0}, std::pair{f.node, -1.0}}) {
      const int unknown = m_unknown[m_grid.cellIndex(cell)];
      if (unknown < 0) continue;
      const double s = sigma * covered * invH[a];
      Row& row = rows[k][unknown];
      row[a] += s;
      if constexpr (D == 2) row[2] += s * turn.z;
      else
        for (int d = 0; d < 3; ++d) row[3 + d] += s * turn[d];
    }
  }
  const double rhoVc = m_params.restDensity * m_grid.cellVolume();
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const typename MovingBodies<D>::Body& b = m_moving->bodies[k];
    Coupling coupling;  // one per body, empty for a body the liquid does not touch
    for (const auto& [unknown, row] : rows[k]) coupling.unknowns.push_back(unknown), coupling.rows.push_back(row);
    // A held body keeps its velocity along the directions it is held in.
    for (int d = 0; d < D; ++d)
      for (int e = 0; e < D; ++e) {
        double free = d == e ? 1.0 : 0.0;
        for (int i = 0; i < b.heldCount; ++i) free -= b.held[i][d] * b.held[i][e];
        coupling.weight[d][e] = rhoVc * b.invMass * free;
      }
    if (!b.round) {
      if constexpr (D == 2) coupling.weight[2][2] = rhoVc * b.invInertia[2][2];
      else
        for (int d = 0; d < 3; ++d)
          for (int e = 0; e < 3; ++e) coupling.weight[3 + d][3 + e] = rhoVc * b.invInertia[e][d];  // glm: [column][row]
    }
    out.push_back(std::move(coupling));
  }
  return out;
}

// (16.19): the pressure's impulse on each body, rho V_c sum_i q_i J_i, handed back to the
// caller, and the body's velocity from it, U = U* + M^-1 (impulse), for its faces.
template <int D>
void HybridSolver<D>::takeBodyImpulses(const std::vector<typename PressureSolver<D>::BodyCoupling>& couplings) {
  constexpr int kDofs = PressureSolver<D>::kBodyDofs;
  const double rhoVc = m_params.restDensity * m_grid.cellVolume();
  for (std::size_t k = 0; k < couplings.size(); ++k) {
    const auto& coupling = couplings[k];
    std::array<double, kDofs> g{};
    for (std::size_t i = 0; i < coupling.unknowns.size(); ++i)
      for (int d = 0; d < kDofs; ++d) g[d] += coupling.rows[i][d] * m_q[coupling.unknowns[i]];
    typename MovingBodies<D>::Body& b = m_moving->bodies[k];
    Vec3 angular(0.0);
    for (int d = 0; d < D; ++d) b.impulse[d] = rhoVc * g[d];
    if constexpr (D == 2) angular.z = rhoVc * g[2];
    else
      for (int d = 0; d < 3; ++d) angular[d] = rhoVc * g[3 + d];
    b.angularImpulse = angular;
    // The velocity the solve assumed: a held body's change along what holds it is taken
    // by the wall (next step, free of it, the liquid may lift it off).
    Vec<D> dv = b.invMass * b.impulse;
    for (int i = 0; i < b.heldCount; ++i) dv -= glm::dot(dv, b.held[i]) * b.held[i];
    b.solvedVelocity = b.velocity + dv;
    b.solvedSpin = b.round ? b.spin : b.spin + b.invInertia * angular;
  }
  setBodyFaces();
}

template class HybridSolver<2>;
template class HybridSolver<3>;

}  // namespace sloshlab
