// Dam break against Martin & Moyce (1952), Table 2: the surge front of a collapsing
// water column, Z = x/a against T = t sqrt(2g/a) (physics.md (11.8)).
#include "support/dam_break.h"

#include <gtest/gtest.h>

namespace sloshlab::test {
namespace {

TEST(DamBreak, TableIsTheProjectCopy) {
  const auto table = martinMoyceFront();
  ASSERT_EQ(table.size(), 15u);
  EXPECT_DOUBLE_EQ(table.front().T, 0.41);
  EXPECT_DOUBLE_EQ(table.back().Z, 4.11);
}

// Tolerances: the shifted curve within 0.15 in Z (rms; Z spans 1.1 to 4.1) and the
// front speed (slope) within 10 %.
TEST(DamBreak, WcsphFrontFollowsMartinMoyce) {
  const DamBreakFigures f = runDamBreak("wcsph", 40);
  printDamBreak("wcsph 2D a/40", f);
  EXPECT_LT(f.rmsShifted, 0.15);
  EXPECT_LT(f.slopeError, 0.10);
}

}  // namespace
}  // namespace sloshlab::test
