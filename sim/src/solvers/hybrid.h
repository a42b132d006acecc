// Hybrid particle-grid solvers: PIC, FLIP and APIC on a MAC grid (physics.md section 3).
//
// References
//   [Har64]  F. H. Harlow, "The particle-in-cell computing method for fluid dynamics",
//            Methods in Computational Physics 3:319-343, 1964 (PIC).
//   [HW65]   F. H. Harlow, J. E. Welch, "Numerical calculation of time-dependent viscous
//            incompressible flow of fluid with free surface", Phys. Fluids 8:2182-2189,
//            1965 (the MAC grid). doi:10.1063/1.1761178
//   [BR86]   J. U. Brackbill, H. M. Ruppel, "FLIP: a method for adaptively zoned,
//            particle-in-cell calculations of fluid flows in two dimensions",
//            J. Comput. Phys. 65:314-343, 1986. doi:10.1016/0021-9991(86)90211-1
//   [ZB05]   Y. Zhu, R. Bridson, "Animating sand as a fluid", ACM TOG 24(3):965-972, 2005
//            (FLIP for incompressible liquids, the PIC/FLIP blend).
//            doi:10.1145/1073204.1073298
//   [JSS+15] C. Jiang, C. Schroeder, A. Selle, J. Teran, A. Stomakhin, "The affine
//            particle-in-cell method", ACM TOG 34(4):51, 2015 (APIC, D_p, MAC form).
//            doi:10.1145/2766996
//   [GFCK02] F. Gibou, R. Fedkiw, L.-T. Cheng, M. Kang, "A second-order-accurate
//            symmetric discretization of the Poisson equation on irregular domains",
//            J. Comput. Phys. 176:205-227, 2002 (the ghost-fluid free surface).
//            doi:10.1006/jcph.2001.6977
//   [ENGF03] D. Enright, D. Nguyen, F. Gibou, R. Fedkiw, "Using the particle level set
//            method and a second order accurate pressure boundary condition for free
//            surface flows", ASME FEDSM2003-45144, 2003 (the same for liquids).
//   [BBB07]  C. Batty, F. Bertails, R. Bridson, "A fast variational framework for accurate
//            solid-fluid coupling", ACM TOG 26(3):100, 2007 (fractional faces, rigid
//            bodies in the pressure solve). doi:10.1145/1276377.1276502
//   [Bri15]  R. Bridson, "Fluid Simulation for Computer Graphics", 2nd ed., CRC Press,
//            2015 (labels, projection, extrapolation, CFL). doi:10.1201/9781315266008
//
// One step, in the order of [ZB05] Sec. 3 with advection last, so that a step ends
// with the particles where the grid field carried them:
//   particlesToGrid  bin particles by cell, label cells fluid/air, locate the free
//                    surface between cells, P2G, extrapolate u*
//   addForces        gravity and the container's fictitious accelerations on the faces
//   project          u.n = 0 on the walls, lap p = rho/dt div u*, solved by CG with a
//                    multigrid (default) or MIC(0) preconditioner; the change -dt/rho grad p
//   addPressureChange  that change extended into the air and added: u = u* - dt/rho grad p
//   gridToParticles  PIC, FLIP (blended with PIC by alpha) or APIC (v_p and C_p)
//   advect           RK2 through the grid velocity, particles kept inside the box
//   reseed           move particles from crowded cells to sparse cells inside the liquid
// Formulas: physics.md (3.1)-(3.21); the time step is (9.7).
// The three methods differ in the transfers only (particlesToGrid's affine term and
// gridToParticles), selected by the `transfer` parameter; the registry names pic,
// flip and apic only choose its default.
//
// APIC with the linear kernel uses the gradient form C_p = sum_i v_i grad w_ip^T, equal
// to B_p D_p^-1 with the particle's own D_p (bspline.h); the B-splines use D = h^2/4, h^2/3.
//
// Free surface. A cell holding a particle is fluid, one without is air. With
// free_surface = cell, p = 0 at the air cell's centre: the surface is known to a cell,
// and a slosh smaller than a cell meets no restoring pressure (a tank's first mode ran
// 13 % slow). With ghost_fluid [GFCK02, ENGF03] p = 0 where the liquid's volume
// fraction c crosses 1/2 between the two cell centres, a fraction
// theta = (c_f - 1/2)/(c_f - c_a) of the way from the fluid cell (clamped to
// [kMinTheta, 1]); c at a cell centre is the particles' quadratic B-spline sum
// sum_p (s/h)^D w_p, mirrored at the walls so that it reads 1 in the bulk there too
// (grid/ghost_fluid_surface.cpp).
//
// Walls. The grid is the container (mac_grid.h): its walls are the outermost faces,
// where u.n = 0 in the container's frame (the walls stand still there; the container's
// motion enters through the frame's accelerations). They are free-slip.
//
// Floating bodies (hybrid_bodies.cpp): faces weighted by their share outside the body,
// the body's velocity solved with the pressure [BBB07], physics.md (16.17)-(16.19).
//
// P2G without races. Particles are sorted by cell with the last axis slowest, so the
// particles of a slab of kSlab cell layers along that axis are contiguous. A particle
// writes to nodes at most 2 layers below and 3 above its own layer (cubic B-spline,
// staggered component), so two slabs kSlab = 5 layers apart never write to the same
// node: P2G runs all even slabs in parallel, then all odd slabs. Each node sums its
// contributions in the same order whatever the thread count.
#pragma once

#include "grid/mac_grid.h"
#include "grid/pressure_solver.h"
#include "sloshlab/solver.h"

#include <array>
#include <cstdint>
#include <vector>

namespace sloshlab {

// Particles stay this fraction of h inside the walls and outside the obstacles.
constexpr double kGridWallMargin = 1e-3;

enum class Transfer { Pic, Flip, Apic };
enum class TransferKernel { Linear, Quadratic, Cubic };
enum class FreeSurface { Cell, GhostFluid };

struct HybridParams {
  int transfer = static_cast<int>(Transfer::Flip);        // Transfer
  double picFraction = 0.02;                              // alpha in v = alpha v_PIC + (1 - alpha) v_FLIP
  int kernel = static_cast<int>(TransferKernel::Quadratic);  // TransferKernel
  double cellSize = 2.0;        // h / particle spacing
  double cfl = 1.0;             // dt (|u|max + |a| dt) <= cfl h
  int preconditioner = static_cast<int>(Preconditioner::Multigrid);  // Preconditioner
  double tolerance = 1e-6;      // PCG stops at max|div u| h / max|u*| <= tolerance
  int maxIterations = 1000;     // PCG iteration cap
  double restDensity = 1000.0;  // rho (kg/m^3)
  int freeSurface = 1;          // FreeSurface: cell (0) or ghost_fluid (1)
  bool reseed = true;
  double reseedMin = 0.5;       // fill interior cells with fewer than reseedMin x target particles
  double reseedMax = 2.0;       // thin cells with more than reseedMax x target particles
};

template <int D>
class HybridSolver final : public Solver<D> {
 public:
  explicit HybridSolver(Transfer defaultTransfer);
  static const ParamTable& paramTable(Transfer owner);

  const char* name() const override;
  ParamRef params() override { return {&m_params, &paramTable(m_owner)}; }
  void reset(ParticleSet<D>& p, const SolverSetup<D>& setup) override;
  void paramsChanged(ParticleSet<D>& p) override;
  void setOpening(ParticleSet<D>&, const WallOpening<D>& opening) override {
    m_solids.setOpening(opening);
    if (m_appliedCell > 0.0) markOpening();
  }
  double maxTimeStep(const ParticleSet<D>& p, const StepContext<D>& ctx) const override;
  void step(ParticleSet<D>& p, const StepContext<D>& ctx, SolverReport& report) override;
  void exchangeState(StateArchive& ar, ParticleSet<D>& p) override;
  bool field(FieldKind kind, const ParticleSet<D>& p, std::span<float> out) const override;
  bool inspectGrid(const ParticleSet<D>& p, std::size_t i, GridInspection& out) const override;  // hybrid_inspect.cpp
  double interactionRadius() const override;
  double gridCellSize() const override { return m_grid.h()[0]; }
  bool takesMovingBodies() const override { return true; }

  // The phases, public so that the tests can run them one at a time.
  void particlesToGrid(ParticleSet<D>& p);
  void transferToGrid(ParticleSet<D>& p);  // the P2G part of particlesToGrid: bin, label, scatter, u = (m v)/m
  void addForces(const StepContext<D>& ctx);
  void project(double dt, SolverReport& report);
  void addPressureChange();
  void gridToParticles(ParticleSet<D>& p);
  void advect(ParticleSet<D>& p, double dt);
  void reseed(ParticleSet<D>& p);

  // Read access for the tests.
  const HybridParams& settings() const { return m_params; }
  const MacGrid<D>& grid() const { return m_grid; }
  const FaceArrays<D>& gridMass() const { return m_mass; }
  const FaceArrays<D>& gridVelocity() const { return m_u; }
  const std::vector<double>& cellPressure() const { return m_pressure; }  // Pa, per cell (MacGrid::cellIndex)
  // APIC's C_p, by rows: affine()[p][a] is the gradient of velocity component a.
  std::vector<std::array<Vec<D>, D>>& affine() { return m_c; }

 private:
  Transfer transfer() const { return static_cast<Transfer>(m_params.transfer); }
  int extrapolationLayers() const;
  void initialiseAffine(ParticleSet<D>& p);
  bool binParticles(ParticleSet<D>& p, bool reorder = true);
  void applyOrder(ParticleSet<D>& p);
  void labelCells();
  template <class K, bool kAffine>
  void scatter(const ParticleSet<D>& p);
  template <class K, Transfer T>
  void gather(ParticleSet<D>& p);
  template <class K>
  void sampleGrid(const Vec<D>& x, Vec<D>& v, std::array<Vec<D>, D>& c) const;
  // Which faces hold a known value: those particles reached (after P2G), or those next
  // to a fluid cell (after the projection).
  enum class KnownFaces { ReachedByParticles, NextToFluid };
  void markValidFaces(KnownFaces known);
  void locateSurface(const ParticleSet<D>& p);
  double surfaceTheta(std::size_t fluidCell, std::size_t airCell) const;

  Transfer m_owner;
  HybridParams m_params;
  Vec<D> m_box{1.0};
  Solids<D> m_solids;  // obstacles (solids.h)
  double m_spacing = 0.0;
  double m_h = 0.0;            // nominal cell size h = cellSize x spacing
  double m_appliedCell = 0.0;  // the h the grid was built for
  double m_mass0 = 0.0;        // particle mass rho s^D
  int m_target = 1;            // particles per cell as emitted: (h/s)^D
  MacGrid<D> m_grid;

  // Particles: APIC's extra channel and the binning by cell.
  std::vector<std::array<Vec<D>, D>> m_c;
  std::vector<std::uint32_t> m_key, m_order;
  std::vector<std::size_t> m_cellStart;  // particles of cell c: [m_cellStart[c], m_cellStart[c + 1])

  // Grid: mass, velocity (u* then u), the velocity before forces and projection (FLIP),
  // which faces hold a solved value, and per cell pressure and unknown numbers.
  FaceArrays<D> m_mass, m_u, m_uOld;
  FaceArrays<D> m_delta;  // the projection's change of u, -grad q, then extended into the air
  std::array<std::vector<std::uint8_t>, D> m_valid;
  std::vector<double> m_pressure;  // Pa, per cell (0 in air); the next solve starts from it
  std::vector<int> m_unknown;      // per cell: unknown number, or -1
  // Obstacles on the grid (physics.md (15.5)): 1 for a cell whose centre lies inside
  // one, and per component the faces that touch such a cell (u = 0 there).
  std::vector<std::uint8_t> m_solidCell;
  std::array<std::vector<std::size_t>, D> m_solidFaces;
  void markSolidCells();
  void zeroSolidFaces();
  // The container's opening (an outlet on a wall, physics.md (14.3)): the wall faces of
  // its axis whose centre lies across it, as nodes, and flagged per face of that axis.
  std::vector<IVec<D>> m_openingFaces;
  std::vector<std::uint8_t> m_openFace;
  void markOpening();
  bool openFace(int a, const IVec<D>& node) const {
    return a == m_solids.opening().axis && !m_openFace.empty() && m_openFace[m_grid.faceIndex(a, node)];
  }
  // The cell inside the container next to opening face `node`.
  IVec<D> openingCell(const IVec<D>& node) const {
    IVec<D> c = node;
    if (m_solids.opening().side == 1) c[m_solids.opening().axis] -= 1;
    return c;
  }
  void extendThroughOpening();
  void leaveSolidCell(Vec<D>& x) const;
  // Floating bodies as moving solids (hybrid_bodies.cpp; physics.md (16.17)-(16.19)).
  MovingBodies<D>* m_moving = nullptr;      // this step's bodies, or null
  std::vector<std::uint16_t> m_bodyCell;    // per cell: 1 + the body holding its centre, 0 for none
  struct BodyFace {
    int component = 0;
    std::size_t index = 0;  // in the component's face array
    IVec<D> node{0};
    std::uint16_t body = 0;
  };
  std::vector<BodyFace> m_bodyFaces;        // the faces a body covers, wholly or in part
  FaceArrays<D> m_open;                     // per face: the share outside the bodies (1 away from them)
  FaceArrays<D> m_solidVelocity;            // per body face: the body's velocity there
  // Body k's velocity at r from its centre, as it stands (v* before the solve, then the
  // solved one); a ball's spin moves no liquid.
  Vec<D> bodyVelocityAt(std::size_t k, const Vec<D>& r) const {
    const typename MovingBodies<D>::Body& b = m_moving->bodies[k];
    return b.solvedVelocity + (b.round ? Vec<D>(0.0) : crossOmega<D>(b.solvedSpin, r));
  }
  void markBodies();
  void setBodyFaces();
  void closeBodyPockets();
  void constrainBodyFaces();
  void balanceTrappedLiquid(const std::vector<typename PressureSolver<D>::Neighbours>& neighbours);
  double coveredShare(std::size_t body, int a, const IVec<D>& node) const;
  std::vector<typename PressureSolver<D>::BodyCoupling> bodyCouplings() const;
  void takeBodyImpulses(const std::vector<typename PressureSolver<D>::BodyCoupling>& couplings);
  // This step's bodies hold faces of the grid (within step() alone).
  bool bodiesOnGrid() const { return m_moving && !m_bodyFaces.empty(); }
  // The flux through a face per unit area: its open share at the liquid's velocity, the
  // rest at the body's (16.17).
  double faceFlux(int a, std::size_t f, const double u) const {
    if (!bodiesOnGrid()) return u;
    const double open = m_open[a][f];
    return open * u + (1.0 - open) * m_solidVelocity[a][f];
  }
  // A cell reseeding must not fill: in an obstacle, or its centre in a body.
  bool blocked(std::size_t c) const {
    return (!m_solidCell.empty() && m_solidCell[c]) || (!m_bodyCell.empty() && m_bodyCell[c]);
  }
  std::vector<typename PressureSolver<D>::Weights> m_faceWeights;  // per unknown: its faces' open shares
  std::vector<double> m_fraction;  // per cell: liquid volume fraction c next to the surface (locateSurface)
  std::vector<double> m_surfaceDiag;  // per unknown: the ghost-fluid addition to A's diagonal
  std::vector<double> m_q, m_rhs;
  PressureSolver<D> m_pcg;

  // Scratch for reordering and reseeding.
  std::vector<Vec<D>> m_scratchX, m_scratchV;
  std::vector<double> m_scratchM;
  std::vector<std::uint32_t> m_scratchId;
  std::vector<std::array<Vec<D>, D>> m_scratchC;
  std::vector<std::uint32_t> m_newCount;
  std::uint64_t m_steps = 0;
};

}  // namespace sloshlab
