// Dam break against Martin & Moyce (1952), Table 2: the surge front of a collapsing
// water column, Z = x/a against T = t sqrt(2g/a) (physics.md (11.8)). One test over the
// solvers, each a row of kDamBreaks with its settings and bounds; the run and the
// comparison are in support/dam_break.h.
#include "support/dam_break.h"

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace sloshlab::test {
namespace {

TEST(DamBreak, TableIsTheProjectCopy) {
  const auto table = martinMoyceFront();
  ASSERT_EQ(table.size(), 15u);
  EXPECT_DOUBLE_EQ(table.front().T, 0.41);
  EXPECT_DOUBLE_EQ(table.back().Z, 4.11);
}

struct DamBreakCase {
  const char* name;    // the test's suffix
  const char* solver;
  std::vector<std::pair<std::string, std::string>> overrides;
  bool solverSteps;    // sampled after each of the solver's own steps (fixed-step PBF), not every dT = 0.05
  double rmsShifted;   // bound on the rms of Z_sim(T - 0.25) - Z_exp(T) (Z spans 1.1 to 4.1)
  double slopeError;   // bound on |front speed / the experiment's - 1|
};

// Every row is 2D at a/40. The same tolerances for all: the shifted curve within 0.15 in
// Z (rms) and the front speed (slope) within 10 %.
//   wcsph               its defaults
//   dfsph, CFL 0.5      large steps: it runs the dam break without blowing up
//   pbf, 4 sub-steps    4 sub-steps per 1/60 s frame (4.2 ms) with the sub-step CFL bound
//                       off (cfl 20: "at most 4 sub-steps"), at its own steps
//   pbf, defaults       2 sub-steps per frame, more where a particle would move more than
//                       0.8 spacings in one, at its own steps
//   flip, apic          the hybrid solvers at their defaults
const DamBreakCase kDamBreaks[] = {
    {"Wcsph", "wcsph", {}, false, 0.15, 0.10},
    {"DfsphAtCfl05", "dfsph", {{"cfl", "0.5"}}, false, 0.15, 0.10},
    {"PbfAtFourSubStepsPerFrame", "pbf", {{"substeps", "4"}, {"cfl", "20"}}, true, 0.15, 0.10},
    {"PbfAtItsDefaults", "pbf", {}, true, 0.15, 0.10},
    {"Flip", "flip", {}, false, 0.15, 0.10},
    {"Apic", "apic", {}, false, 0.15, 0.10},
};

// gtest and ctest name a row by its name.
void PrintTo(const DamBreakCase& c, std::ostream* os) { *os << c.name; }

class DamBreakFront : public ::testing::TestWithParam<DamBreakCase> {};

TEST_P(DamBreakFront, FollowsMartinMoyce) {
  const DamBreakCase& c = GetParam();
  const DamBreakFigures f = runDamBreak(c.solver, 40, c.overrides, c.solverSteps);
  printDamBreak(std::string(c.name) + " 2D a/40", f);
  EXPECT_LT(f.rmsShifted, c.rmsShifted);
  EXPECT_LT(f.slopeError, c.slopeError);
}

INSTANTIATE_TEST_SUITE_P(Solvers, DamBreakFront, ::testing::ValuesIn(kDamBreaks),
                         [](const auto& param) { return std::string(param.param.name); });

}  // namespace
}  // namespace sloshlab::test
