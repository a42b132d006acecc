// The window's panes (app/pane_set.h): side by side only with one spec per pane, the
// common clock at the slowest pane, each pane's own speed, one view again on demand.
#include "pane_set.h"

#include "support/test_support.h"

#include <gtest/gtest.h>

namespace sloshlab::test {
namespace {

TEST(PaneSet, TheClockFollowsTheSlowestPaneAndEachHasItsOwnSpeed) {
  SimulationSetup setup;
  setup.scene = loadScene("bottle");
  setup.dim = 2;
  const std::vector<PaneSpec> specs = parsePaneList("wcsph,pbf");
  app::PaneSet panes(createPanes(setup, specs), specs);
  ASSERT_TRUE(panes.comparing());
  ASSERT_EQ(panes.all().size(), 2u);
  EXPECT_EQ(panes.failure(), "");
  panes.first().advanceTo(0.05);
  panes.all()[1]->advanceTo(0.02);
  EXPECT_NEAR(panes.earliestTime(), 0.02, 1e-12);
  EXPECT_NEAR(panes.latestTime(), 0.05, 1e-12);
  panes.measureSpeeds();
  EXPECT_EQ(panes.ownSpeed(1), 0.0);  // no wall time counted yet
  panes.addWall(1, 0.01);
  panes.measureSpeeds();
  EXPECT_NEAR(panes.ownSpeed(1), 0.02 / 0.01, 1e-9);
  panes.single();
  EXPECT_FALSE(panes.comparing());
  EXPECT_TRUE(panes.specs().empty());
  EXPECT_NEAR(panes.earliestTime(), 0.05, 1e-12);
}

TEST(PaneSet, SpecsThatDoNotMatchThePanesGiveOneView) {
  SimulationSetup setup;
  setup.scene = loadScene("bottle");
  setup.dim = 2;
  const std::vector<PaneSpec> specs = parsePaneList("wcsph,dfsph");
  std::vector<PaneSpec> one(specs.begin(), specs.begin() + 1);
  app::PaneSet panes(createPanes(setup, specs), one);
  EXPECT_FALSE(panes.comparing());
  EXPECT_EQ(panes.all().size(), 1u);
  EXPECT_EQ(panes.first().solverName(), std::string("wcsph"));
}

}  // namespace
}  // namespace sloshlab::test
