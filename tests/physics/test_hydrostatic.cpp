// Hydrostatics, one test over the SPH solvers (WCSPH, DFSPH, PBF) in 2D and 3D: a tank
// settles to p = rho0 g d with depth d (physics.md (11.1)), holds its density and stays
// at rest. The protocol (settling, depth bins, speeds, densities) is in support/tank.h;
// each solver's bounds are a row of kTanks, with what was measured and why beside it.
// (The hybrid solvers' tank is HybridRest in test_hybrid.cpp: a grid solver has no
// per-particle pressure to bin.) Formulas: physics.md sections 4, 6, 7.
#include "solvers/dfsph.h"
#include "solvers/pbf.h"
#include "solvers/wcsph.h"
#include "support/tank.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <ostream>

namespace sloshlab::test {
namespace {

constexpr double kNone = std::numeric_limits<double>::infinity();  // a figure not bounded

struct TankCase {
  const char* name;    // the test's suffix
  const char* solver;  // at its defaults
  int dim;
  double spacing;      // m
  double free;         // s run undamped after settling
  double window;       // s the figures are averaged over, at the end
  // Bounds (kNone: not asserted).
  double worstBinError;     // |mean p / (rho0 g d) - 1| of the worst depth bin
  RestBounds rest;          // mean and max speed over sqrt(g H), kinetic energy per mass
  double meanCompression;   // mean max(rho~ - 1, 0)
  double floorRow;          // |mean rho~ - 1| of the row on the floor
  double floorVsAbove;      // |that - the same of the two rows above it|
};

// WCSPH (Tait pressure, Adami walls). The largest speed over the last 0.2 s (every step)
// is 3.1 cm/s in 3D, against 1.5 cm/s at its last step: the bound is 3 % of sqrt(g H)
// in 3D, 2 % in 2D; the mean below 0.2 %. Its density is not probed.
//
// DFSPH. It holds the density it is told to (0.1 % mean compression; 0.073-0.079 % in
// 2D, 0.095-0.096 % in 3D over twelve runs that differ only in rounding), carries the
// hydrostatic pressure within 5 % (from its own stiffness, both solves; the worst depth
// bin is 1.3-3.7 % off in 2D and 1.6-2.1 % in 3D) and rests. The row on the floor,
// against the walls' samples, is at the interior's density: within 0.3 % of rho0
// (measured -0.04 to +0.02 % in 2D, +0.09 % in 3D), and within 0.1 % of the two rows
// above it (measured 0.03 %). 3D: 0.095 % at the start of a step (before the solver
// aimed 5 % below eta, kDensityTargetShare, it measured 0.102 %: its error prediction is
// first order in dt). The figures are averaged over the last 0.6 s (2D) and 0.4 s (3D):
// DFSPH's jitter fluctuates slowly, and over 0.2 s its figures depended on the rounding.
// At rest: its pressure only pushes and its Jacobi sweeps only add, so an
// over-correction that leaves the fluid expanding is never taken back, and the settled
// tank keeps a jitter. Over the twelve runs: 2D 2.0-2.4 cm/s mean, 2.8-3.9e-4 J/kg, a
// largest single speed of 13-25 cm/s; 3D 1.7-2.0 cm/s mean, 1.9-2.4e-4 J/kg, largest
// 9-11 cm/s. Bounds: 2.5 % of sqrt(g H) mean (3.5 cm/s), 5e-4 J/kg, and a largest speed
// of 20 % of sqrt(g H) in 2D (28 cm/s: the fastest particles are at the free surface
// against a side wall, rho~ 0.86-0.99) and 12 % in 3D (17 cm/s). Before the
// acceleration bound on the time step (dfsph.cpp, maxTimeStep) the 2D tank ran at 5 ms
// steps, its floor row rocked sideways, and its largest speed was 16-52 cm/s. WCSPH's
// tank rests 10-75 times calmer; its Tait pressure pulls as well as pushes.
//
// PBF, at its defaults (8 Chebyshev sweeps in 3D, 16 plain ones in 2D). Its compression
// grows with depth: the fixed sweeps leave the long modes of a deep tank under-converged,
// so the liquid behaves as if slightly compressible. The weight limit (physics.md (9.6a))
// sets the sub-steps by the tank's depth: 4 per frame in 2D (4.2 ms), 3 in 3D (5.6 ms).
// At the scene's 2 (before that limit) the tanks held 3.2 % (2D) and 2.3 % (3D) mean
// compression, the floor row +5.7 % and +4.2 %. Now: 2D (40 layers, 1 s free) 0.82 %
// mean, the floor row +1.69 %, the two rows above it +1.27 %; 3D (20 layers, 0.5 s
// free) 1.04 %, +1.88 %, +1.69 %. Bounds: 1.5 % and 2 % mean, 3 % at the floor, 1 %
// between the floor row and the two above it (the one-sided wall push). At rest, over
// every (whole) step of the last 0.2 s: 2D 3.3 mm/s mean, 3.1 cm/s max, 8.9e-6 J/kg;
// 3D 5.5 mm/s, 6.0 cm/s, 2.4e-5 J/kg. The largest speed is one particle's and
// heavy-tailed: a change of rounding alone (the compiler no longer forming fused
// multiply-adds) once moved the 3D figure from 3.9 to 6.4 cm/s, while the mean moved by
// 1 %. Bounds: 0.6 % and 6 % of sqrt(g H) (8.4 mm/s and 8.4 cm/s), 5e-5 J/kg. Steps that
// change length stir it: with the weight limit's step left to follow the depth every
// sub-step (rather than a whole number per frame), the same tanks read 1.2 and 2.4 cm/s
// mean (docs/decisions/pbf.md, STATUS). Its pressure bins are not bounded.
const TankCase kTanks[] = {
    // name        solver  D  spacing free window  bin    rest {mean, max, J/kg}     compr   floor  floor-above
    {"Wcsph2D", "wcsph", 2, 0.005, 1.0, 0.2, 0.05, {0.002, 0.02, kNone}, kNone, kNone, kNone},
    {"Wcsph3D", "wcsph", 3, 0.01, 1.0, 0.2, 0.05, {0.002, 0.03, kNone}, kNone, kNone, kNone},
    {"Dfsph2D", "dfsph", 2, 0.005, 1.0, 0.6, 0.05, {0.025, 0.20, 5e-4}, 0.001, 0.003, 0.001},
    {"Dfsph3D", "dfsph", 3, 0.01, 0.5, 0.4, 0.05, {0.025, 0.12, 5e-4}, 0.001, 0.003, 0.001},
    {"Pbf2D", "pbf", 2, 0.005, 1.0, 0.2, kNone, {0.006, 0.06, 5e-5}, 0.015, 0.03, 0.01},
    {"Pbf3D", "pbf", 3, 0.01, 0.5, 0.2, kNone, {0.006, 0.06, 5e-5}, 0.02, 0.03, 0.01},
};

// The solver's pressure (Pa) and density ratio, whichever of the three it is.
template <int D>
TankFigures settle(const TankCase& c) {
  SimSpec spec;
  spec.scene = "hydrostatic";
  spec.solver = c.solver;
  spec.spacing = c.spacing;
  auto sim = makeSim<D>(spec);
  Solver<D>& solver = sim->solver();
  PressureOf pressure;
  DensityProbe density;
  if (auto* w = dynamic_cast<WcsphSolver<D>*>(&solver)) {
    pressure = [w] { return toVector(w->pressure()); };
  } else if (auto* d = dynamic_cast<DfsphSolver<D>*>(&solver)) {
    pressure = [d] { return d->pressure(); };
    density = {[d] { return toVector(d->densityRatio()); }, d->interactionRadius()};
  } else if (auto* b = dynamic_cast<PbfSolver<D>*>(&solver)) {
    pressure = [b] { return b->pressure(); };
    density = {[b] { return toVector(b->densityRatio()); }, b->interactionRadius()};
  } else {
    ADD_FAILURE() << c.solver << " has no tank probe here";
    return {};
  }
  return settleAndMeasureTank<D>(*sim, c.solver, c.spacing, c.free, pressure, density, c.window);
}

void expectBelow(double figure, double bound, const char* what) {
  if (bound != kNone) {
    EXPECT_LT(figure, bound) << what;
  }
}

// gtest and ctest name a row by its name.
void PrintTo(const TankCase& c, std::ostream* os) { *os << c.name; }

class Hydrostatic : public ::testing::TestWithParam<TankCase> {};

TEST_P(Hydrostatic, PressureDensityAndRestWithinTheSolversBounds) {
  const TankCase& c = GetParam();
  const TankFigures f = c.dim == 2 ? settle<2>(c) : settle<3>(c);
  expectBelow(f.worstBinError, c.worstBinError, "worst depth bin's pressure error");
  expectBelow(f.meanSpeed, c.rest.meanFraction * kTankSpeedScale, "mean speed");
  expectBelow(f.maxSpeed, c.rest.maxFraction * kTankSpeedScale, "largest speed");
  expectBelow(f.kineticPerMass, c.rest.kineticPerMass, "kinetic energy per mass");
  expectBelow(f.density.meanCompression, c.meanCompression, "mean compression");
  expectBelow(std::abs(f.density.floorRowError), c.floorRow, "floor row's density error");
  expectBelow(std::abs(f.density.floorRowError - f.density.aboveFloorError), c.floorVsAbove,
              "floor row against the two rows above it");
}

INSTANTIATE_TEST_SUITE_P(Solvers, Hydrostatic, ::testing::ValuesIn(kTanks),
                         [](const auto& param) { return std::string(param.param.name); });

}  // namespace
}  // namespace sloshlab::test
