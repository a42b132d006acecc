// Side by side in the real window (--compare, sloshlab/comparison.h): a drag on one
// pane moves every pane's bottle, by the mouse's distance; each pane is labelled; 3D
// and four panes draw.
#include "gui/gui_support.h"

#include <cstdio>
#include <fstream>
#include <iterator>

namespace sloshlab::test {
namespace {

namespace fs = std::filesystem;

// The container's outline, drawn in (0.9, 0.92, 0.95): the bounding box of the pixels
// of that colour in a rectangle (x0 > x1 when there are none).
struct Box {
  int x0 = 1 << 20, y0 = 1 << 20, x1 = -1, y1 = -1;
};
Box outline(const Image& img, int x0, int y0, int x1, int y1) {
  Box b;
  for (int y = y0; y < std::min(y1, img.h); ++y)
    for (int x = x0; x < std::min(x1, img.w); ++x) {
      const unsigned char* p = img.at(x, y);
      if (std::abs(p[0] - 230) <= 6 && std::abs(p[1] - 235) <= 6 && std::abs(p[2] - 242) <= 6)
        b.x0 = std::min(b.x0, x), b.x1 = std::max(b.x1, x), b.y0 = std::min(b.y0, y), b.y1 = std::max(b.y1, y);
    }
  return b;
}

// Two panes (WCSPH and FLIP, whose steps differ 30-fold), the panels hidden: panes
// [0, 640) and [640, 1280). A 100 px drag on the right pane's bottle moves both bottles
// alike (the same pose: the same place in their panes, within 2 px) by the mouse's
// distance (within 12 px: the follow spring settles in 0.5 s of the 2.5 s waited).
TEST(Gui, CompareDragOnOnePaneMovesEveryBottle) {
  const std::string dir = makeTempDir("compare_drag");
  const CommandResult r = runCommand(kXvfb + "'" + std::string(SLOSHLAB_TEST_SOURCE_DIR) + "/gui/compare_session.sh' '" +
                                     SLOSHLAB_EXECUTABLE + "' '" + dir + "' 960 400 100 --compare wcsph,flip --hide-ui");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  const Image before = loadPng(dir + "/before.png"), after = loadPng(dir + "/after.png");
  ASSERT_EQ(before.w, 1280);
  ASSERT_EQ(after.w, 1280);
  const Box left0 = outline(before, 0, 60, 636, 640), right0 = outline(before, 644, 60, 1280, 640);
  const Box left1 = outline(after, 0, 60, 636, 640), right1 = outline(after, 644, 60, 1280, 640);
  std::printf("[ bottles  ] before: left x %d..%d, right x %d..%d; after: left x %d..%d, right x %d..%d\n", left0.x0,
              left0.x1, right0.x0, right0.x1, left1.x0, left1.x1, right1.x0, right1.x1);
  ASSERT_LT(left0.x0, left0.x1);
  ASSERT_LT(right1.x0, right1.x1);
  EXPECT_NEAR(right0.x0 - 640, left0.x0, 2);
  EXPECT_NEAR(right1.x0 - 640, left1.x0, 2);
  EXPECT_NEAR(right1.y1, left1.y1, 2);
  EXPECT_NEAR(left1.x0 - left0.x0, 100, 12);
  EXPECT_NEAR(left1.x1 - left0.x1, 100, 12);
  const std::string log = [&] {
    std::ifstream in(dir + "/app.log");
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  // The exit summary: one line per pane after the window's.
  EXPECT_NE(log.find("pane 1 wcsph:"), std::string::npos) << log;
  EXPECT_NE(log.find("pane 2 flip:"), std::string::npos) << log;
  if (!HasFailure()) fs::remove_all(dir);
}

// Four panes in 3D, one shared camera: each pane draws its bottle and its label, and
// the window's exit line has one line per pane.
TEST(Gui, CompareFourPanesIn3D) {
  const std::string dir = makeTempDir("compare_3d");
  const CommandResult r = runCommand(kXvfb + "'" + SLOSHLAB_EXECUTABLE +
                                     "' --compare pic,flip,apic,flip:pic_fraction=0.5 --dim 3 --hide-ui --frames 20 "
                                     "--screenshot '" + dir + "/four.png'");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  const Image img = loadPng(dir + "/four.png");
  ASSERT_EQ(img.w, 1280);
  for (int k = 0; k < 4; ++k) {
    const int x0 = (k % 2) * 640, y0 = (k / 2) * 380;
    const Box b = outline(img, x0 + 4, y0 + 4, x0 + 636, y0 + 330);  // above the label
    EXPECT_LT(b.x0, b.x1) << "pane " << k + 1 << " has no bottle";
    EXPECT_GT(b.x1 - b.x0, 100) << "pane " << k + 1;
  }
  for (const char* line : {"pane 1 pic:", "pane 2 flip:", "pane 3 apic:", "pane 4 flip pic_fraction=0.5:"})
    EXPECT_NE(r.out.find(line), std::string::npos) << r.out;
  if (!HasFailure()) fs::remove_all(dir);
}

}  // namespace
}  // namespace sloshlab::test
