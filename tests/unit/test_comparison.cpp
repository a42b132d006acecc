// Side by side (sloshlab/comparison.h): the --compare list, one simulation per pane,
// and the one container path every pane follows whatever its dt.
#include "sloshlab/comparison.h"
#include "sloshlab/scene.h"

#include <gtest/gtest.h>

#include <cmath>

namespace sloshlab {
namespace {

TEST(Comparison, ParsesSolversAndTheirParameters) {
  const auto panes = parsePaneList("pic,flip,apic,flip:pic_fraction=0.5:xsph=0");
  ASSERT_EQ(panes.size(), 4u);
  EXPECT_EQ(panes[0].solver, "pic");
  EXPECT_TRUE(panes[0].overrides.empty());
  EXPECT_EQ(panes[3].solver, "flip");
  ASSERT_EQ(panes[3].overrides.size(), 2u);
  EXPECT_EQ(panes[3].overrides[0].first, "pic_fraction");
  EXPECT_EQ(panes[3].overrides[0].second, "0.5");
  EXPECT_EQ(panes[3].label(), "flip pic_fraction=0.5 xsph=0");
  EXPECT_EQ(paneListText(panes), "pic,flip,apic,flip:pic_fraction=0.5:xsph=0");
}

TEST(Comparison, RefusesBadListsWithOneLine) {
  for (const char* bad : {"flip", "pic,flip,apic,wcsph,dfsph", "pic,,flip", "pic,flip,", "pic,fluid",
                          "pic,flip:pic_fraction", "pic,flip:=1", "pic,flip:pic_fraction=", "pic,flip:"}) {
    try {
      parsePaneList(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const std::runtime_error& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find("--compare"), std::string::npos) << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
  }
}

TEST(Comparison, AnUnknownParameterNamesItsPane) {
  SimulationSetup base;
  base.scene = loadScene("bottle");
  const auto panes = parsePaneList("wcsph,flip:no_such_key=1");
  try {
    createPanes(base, panes);
    ADD_FAILURE() << "accepted an unknown key";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("flip no_such_key=1"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("no_such_key"), std::string::npos) << e.what();
  }
}

// Three solvers with different steps (a grid solver's 1/60 s, WCSPH's fraction of a
// millisecond, DFSPH's few ms), one drag: every pane's container is, after every one
// of its steps, where the path is at that time, and all panes agree bit for bit at
// every frame.
TEST(Comparison, EveryPaneFollowsTheSamePathWhateverItsStep) {
  SimulationSetup base;
  base.scene = loadScene("bottle");
  base.dim = 2;
  auto sims = createPanes(base, parsePaneList("flip,wcsph,dfsph"));
  std::vector<Simulation*> panes;
  for (auto& s : sims) panes.push_back(s.get());
  const ContainerPose home = panes[0]->driver().home();
  ContainerPose target = home;
  target.position.x += 0.15;
  target.angle += 0.3;

  SharedContainerPath path;
  path.start(0.0, home, panes[0]->container(), target, panes);
  double worst = 0.0;
  long steps = 0;
  for (int frame = 1; frame <= 45; ++frame) {
    const double t = frame / 60.0;
    if (frame == 20) path.setTarget(home);  // and back: the spring turns round mid-way
    path.extendTo(t, panes);
    for (Simulation* pane : panes) {
      while (pane->time() < t - 1e-12 && !pane->failed()) {
        pane->step(t);
        ++steps;
        const ContainerPose on = path.poseAt(pane->time());
        const ContainerPose& is = pane->container().pose;
        worst = std::max({worst, glm::length(is.position - on.position), std::abs(is.angle - on.angle)});
      }
      ASSERT_FALSE(pane->failed()) << pane->failureMessage();
    }
    for (Simulation* pane : panes) {
      EXPECT_EQ(pane->container().pose.position, panes[0]->container().pose.position) << pane->solverName();
      EXPECT_EQ(pane->container().pose.angle, panes[0]->container().pose.angle) << pane->solverName();
    }
    if (frame == 19) {  // the spring has carried the bottle most of the way to the target
      EXPECT_GT(panes[0]->container().pose.position.x - home.position.x, 0.1);
      EXPECT_GT(panes[0]->container().pose.angle - home.angle, 0.2);
    }
  }
  EXPECT_LT(worst, 1e-12);
  EXPECT_GT(steps, 3 * 45);  // the panes did step with their own, shorter steps
  EXPECT_LT(panes[1]->stats().dt, panes[0]->stats().dt);
}

// The shared path is the mouse's spring (physics.md (8.7)): it stays within a
// millimetre of the path a single simulation's own driver takes for the same drag.
TEST(Comparison, ThePathIsTheSingleRunsSpring) {
  SimulationSetup base;
  base.scene = loadScene("bottle");
  base.solver = "flip";
  auto single = Simulation::create(base);
  auto sims = createPanes(base, parsePaneList("flip,pic"));
  std::vector<Simulation*> panes{sims[0].get(), sims[1].get()};
  const ContainerPose home = single->driver().home();
  ContainerPose target = home;
  target.position.x -= 0.2;
  single->driver().setTarget(target);
  SharedContainerPath path;
  path.start(0.0, home, panes[0]->container(), target, panes);
  double worst = 0.0;
  for (int frame = 1; frame <= 30; ++frame) {
    const double t = frame / 60.0;
    single->advanceTo(t);
    path.extendTo(t, panes);
    worst = std::max(worst, glm::length(single->container().pose.position - path.poseAt(t).position));
  }
  EXPECT_LT(worst, 1e-3);
  EXPECT_LT(single->container().pose.position.x - home.position.x, -0.15);  // it did move
}

TEST(Comparison, AStillPathAddsNoRows) {
  MotionScript script = MotionScript::fromRows({{0.0, Vec3(0.0), 0.0}});
  for (int k = 1; k <= 1000; ++k) script.append({k * 1e-3, Vec3(0.0), 0.0});
  EXPECT_EQ(script.rows().size(), 2u);
  EXPECT_DOUBLE_EQ(script.rows().back().t, 1.0);
  script.append({1.001, Vec3(0.01, 0.0, 0.0), 0.0});
  EXPECT_EQ(script.rows().size(), 3u);
  EXPECT_DOUBLE_EQ(script.sample(0.5).offset.x, 0.0);
  EXPECT_NEAR(script.sample(1.0005).offset.x, 0.005, 1e-12);
  EXPECT_THROW(script.append({1.0, Vec3(0.0), 0.0}), std::runtime_error);
}

}  // namespace
}  // namespace sloshlab
