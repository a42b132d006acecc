// Liquid that behaves like water after a drag: no solver gains energy once the bottle
// stands still, free sloshing lasts, and the grid solvers slosh below one cell.
// Protocols in tests/support/sloshing.h; the references in docs/physics.md (11.4),
// (11.6)-(11.7a) and the watchdog in (10.10).
//
// Water in the 0.2 m tank filled to 0.1 m loses 0.65 % of its swing per period in 2D
// (wall boundary layers, (11.6)); none of the models has those boundary layers (free-slip
// or pressure-only walls), so what each loses is its own numerical dissipation, bounded
// below with the figures measured at the time of writing (test output, "[ figures ]").
#include "support/sloshing.h"

#include "energy_watchdog.h"

#include "sloshlab/solver_registry.h"

#include <gtest/gtest.h>

#include <map>

namespace sloshlab::test {
namespace {

// ---------------------------------------------------------------- after a drag

// Bounds once the bottle stands still. The watchdog allows 0.1 g H = 0.63 J/kg in the
// bottle; the compressible solvers give back up to 0.21 J/kg of elastic energy after the
// violent stop (WCSPH, toy), the others at most 0.04.
constexpr double kLargestGain = 0.3;  // J/kg
// "Still": kinetic energy at most this share of what it was when the bottle stopped,
// 3 s later in 2D (measured: 0.02-4.1 %; FLIP and APIC slosh on the longest) and 2 s
// later in 3D. Hard spheres are an elastic gas: they keep at least kGasKept of it.
constexpr double kStillShare = 0.12;
constexpr double kGasKept = 0.85;

template <int D>
void expectSettlesAfter(const std::string& solver, const MotionScript& motion) {
  const double spacing = D == 2 ? 0.01 : 0.03;
  const double rest = D == 2 ? 3.0 : 2.0;
  const AfterDragFigures f = afterDrag<D>(solver, spacing, motion, rest);
  ASSERT_FALSE(f.failed) << f.failure;
  EXPECT_EQ(f.outside, 0u);
  EXPECT_GT(f.kineticAtStill, 0.3) << "the drag set the liquid moving";  // J/kg
  EXPECT_LT(f.largestGain, kLargestGain) << solver << " gained energy with the bottle at rest";
  if (solver == "collisions") EXPECT_GT(f.kineticAtEnd, kGasKept * f.kineticAtStill);
  else EXPECT_LT(f.kineticAtEnd, kStillShare * f.kineticAtStill) << solver << " still moving";
}

class AfterDrag : public ::testing::TestWithParam<std::string> {};

TEST_P(AfterDrag, FastDragThenRest2D) { expectSettlesAfter<2>(GetParam(), fastDrag()); }
TEST_P(AfterDrag, FastDragThenRest3D) { expectSettlesAfter<3>(GetParam(), fastDrag()); }
TEST_P(AfterDrag, ViolentShakeAndSuddenStop2D) { expectSettlesAfter<2>(GetParam(), violentDrag()); }
TEST_P(AfterDrag, ViolentShakeAndSuddenStop3D) { expectSettlesAfter<3>(GetParam(), violentDrag()); }

INSTANTIATE_TEST_SUITE_P(EverySolver, AfterDrag, ::testing::ValuesIn(allSolverNames()),
                         [](const auto& param) { return param.param; });

// The watchdog: DFSPH with its divergence solve started warm (the defect behind a
// bottle that turned to gas after a drag) feeds energy in after the stop; the run is
// stopped with one line naming the step, well before the runaway speed.
TEST(EnergyWatchdog, StopsASolverThatGainsEnergyAtRest) {
  const AfterDragFigures f = afterDrag<2>("dfsph", 0.01, fastDrag(), 3.0, {{"warm_start_divergence", "0.5"}});
  ASSERT_TRUE(f.failed);
  EXPECT_NE(f.failure.find("gained energy at step "), std::string::npos) << f.failure;
  EXPECT_EQ(f.failure.find('\n'), std::string::npos);
  EXPECT_LT(f.kineticAtEnd, 5.0 * f.kineticAtStill) << "stopped before the liquid is a spray";
}

// Without gravity the allowance is a tenth of the emitted kinetic energy per kg: a
// compressible gas gives back what its compression stored (physics.md (10.10)); the
// 2D WCSPH gas (0.5 m/s) was stopped at step 9 for a 0.002 J/kg rise with no input.
TEST(EnergyWatchdog, LetsACompressibleGasGiveBackItsCompression) {
  SimSpec spec;
  spec.scene = "gas";
  spec.solver = "wcsph";
  auto sim = makeSim<2>(spec);
  sim->advanceTo(1.0);
  EXPECT_FALSE(sim->failed()) << sim->failureMessage();
  EnergyWatchdog dog;
  dog.configure(0.0, 0.57, 0.5);
  EXPECT_DOUBLE_EQ(dog.allowed(), 0.025);
  dog.configure(9.81, 0.57, 0.5);
  EXPECT_DOUBLE_EQ(dog.allowed(), 0.1 * 9.81 * 0.57);
}

// ---------------------------------------------------------------- free sloshing

struct SloshBounds {
  double kept2D, kept3D;  // swing kept after three free periods, at least
  double period;          // |measured / reference - 1| at most
  double keptShallow;     // the shallow tank's (2D)
  double periodShallow;
};

// Measured (2D / 3D, kept after three periods): APIC 97.7 / 94.5 %, FLIP 92.7 / 93.1 %,
// PIC 55.8 / 53.4 % (PIC averages the particles' velocities every step: it loses the
// most of the grid solvers, as the method does), DFSPH 62.5 / -, WCSPH 37.8 / -,
// PBF 16.9 / - (8.6 % before the weight limit of physics.md (9.6a) gave this tank 3
// sub-steps per frame in place of 2; at 16 sub-steps of 2 sweeps 29.5 %, at 20 of 4
// 38 %). Periods within 2.1 % of (11.4) (the hybrids' 1.1-2.0 % long). The shallow
// tank (2D), shaken at the same 5 mm, runs into bores and loses more: FLIP 76.5 %, PIC
// 61.1 %, APIC 59.7 %, DFSPH 31.2 %, WCSPH 4.9 %, PBF 1.9 % kept; periods -0.5 % (DFSPH),
// -1.4 to -4.9 % (hybrids). WCSPH's and PBF's swings fall into their particle noise
// within two periods, so their period is not asserted there. What was tried on the
// deep tank, kept after three periods: WCSPH's artificial viscosity 0.03 -> 0.01 -> 0,
// 38 -> 46 -> 52 % (at 0 a finer tank turns noisy, and a tank at rest gains energy from
// the walls' extrapolated pressure (4.10): docs/decisions/not_met_yet.md); its speed of sound 15 -> 30 m/s, no
// change; PBF's XSPH 0.01 -> 0, 9 -> 11 %; with 4 sub-steps, 24 %; 30 sweeps, s_corr
// off or no warm start, no change. Resolution helps all of them (2.5 mm: WCSPH 52 %,
// DFSPH 72 %, PBF 64 %).
const std::map<std::string, SloshBounds> kSloshBounds = {
    {"apic", {0.90, 0.88, 0.03, 0.50, 0.05}}, {"flip", {0.85, 0.85, 0.03, 0.65, 0.06}},
    {"pic", {0.45, 0.45, 0.03, 0.50, 0.07}},  {"dfsph", {0.55, 0.0, 0.03, 0.25, 0.03}},
    {"wcsph", {0.30, 0.0, 0.04, 0.02, 1.0}},  {"pbf", {0.12, 0.0, 0.04, 0.01, 1.0}},
};

// The shallow tank: 0.4 m long, filled to 0.05 m (k h = 0.39; ten particles, five
// cells deep).
SloshTank shallowTank() {
  SloshTank tank;
  tank.width = 0.4, tank.depth = 0.05;
  return tank;
}

template <int D>
void expectSloshingLasts(const std::string& solver, bool shallow = false) {
  const SloshBounds& bounds = kSloshBounds.at(solver);
  SloshTank tank = shallow ? shallowTank() : SloshTank{};
  if (D == 3) tank.thickness = 0.03;
  const SloshFigures f = printedFreeSlosh<D>(solver, tank);
  EXPECT_EQ(f.outside, 0u);
  EXPECT_GT(f.swings[0], 0.5 * tank.amplitude) << "one period of shaking at resonance set it sloshing";
  EXPECT_GE(f.keptAfterThree, shallow ? bounds.keptShallow : (D == 2 ? bounds.kept2D : bounds.kept3D));
  EXPECT_NEAR(f.period / f.referencePeriod, 1.0, shallow ? bounds.periodShallow : bounds.period);
}

class FreeSloshing : public ::testing::TestWithParam<std::string> {};

TEST_P(FreeSloshing, DeepTankKeepsSloshing2D) { expectSloshingLasts<2>(GetParam()); }
TEST_P(FreeSloshing, ShallowTankKeepsSloshing2D) { expectSloshingLasts<2>(GetParam(), true); }

INSTANTIATE_TEST_SUITE_P(Fluids, FreeSloshing, ::testing::Values("wcsph", "dfsph", "pbf", "pic", "flip", "apic"),
                         [](const auto& param) { return param.param; });

class FreeSloshingGrid : public ::testing::TestWithParam<std::string> {};
TEST_P(FreeSloshingGrid, DeepTankKeepsSloshing3D) { expectSloshingLasts<3>(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Hybrid, FreeSloshingGrid, ::testing::Values("pic", "flip", "apic"),
                         [](const auto& param) { return param.param; });

// A slosh smaller than one grid cell: a 0.03 m layer shaken by 0.5 mm for three periods
// at its first mode, on 5 mm cells. In linear theory the centre of mass swings by
// 2 a L / (pi^2 h) for a surface amplitude a, so the swing it builds (2.6-2.9 mm) is a
// wave of about 2 mm, under half a cell. With p = 0 at the air cells' centres
// (free_surface = cell) such a wave met no restoring pressure: on 1 cm cells FLIP built
// a 0.74 mm swing and kept 0.03 mm of it once free. With the ghost-fluid surface it
// lasts, at the period of (11.4) (measured -3.2 % FLIP, -4.6 % APIC; on 1 cm cells, three
// cells deep, +16 %).
TEST(SubCellSloshing, GhostFluidSurfaceKeepsASloshSmallerThanACell) {
  SloshTank tank;
  tank.depth = 0.03, tank.amplitude = 0.0005, tank.cycles = 3, tank.spacing = 0.0025;
  const double cell = 2.0 * tank.spacing;  // the hybrids' default cell_size
  for (const char* solver : {"flip", "apic"}) {
    const SloshFigures f = printedFreeSlosh<2>(solver, tank);
    const double wave = f.swings[0] * kPi * kPi * tank.depth / (2.0 * tank.width);
    EXPECT_GT(f.swings[0], 1.5e-3) << solver << ": the shaking built up a slosh";
    EXPECT_LT(wave, 0.5 * cell) << solver << ": the slosh is smaller than a cell";
    EXPECT_GE(f.keptAfterThree, 0.6) << solver;
    EXPECT_NEAR(f.period / f.referencePeriod, 1.0, 0.07) << solver;
  }
}

}  // namespace
}  // namespace sloshlab::test
