// The teaching additions through the real window, under Xvfb (1280x800, UI scale 1):
// the grid solvers' stencil in the inspector, the fictitious-force arrows in the
// container-frame view, and the panel layout remembered between runs. Each test says
// what its pictures showed when it was written.
#include "gui/gui_support.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>
#include <sstream>

namespace sloshlab::test {
namespace {

namespace fs = std::filesystem;

using PixelTest = std::function<bool(int r, int g, int b)>;

long countPixels(const Image& img, int x0, int y0, int x1, int y1, const PixelTest& test) {
  long n = 0;
  for (int y = std::max(y0, 0); y < std::min(y1, img.h); ++y)
    for (int x = std::max(x0, 0); x < std::min(x1, img.w); ++x) {
      const unsigned char* p = img.at(x, y);
      n += test(p[0], p[1], p[2]);
    }
  return n;
}

std::string runSession(const std::string& script, const std::string& dir, const std::string& args) {
  const CommandResult r = runCommand(kXvfb + "'" + std::string(SLOSHLAB_TEST_SOURCE_DIR) + "/gui/" + script + "' '" +
                                     SLOSHLAB_EXECUTABLE + "' '" + dir + "' " + args);
  EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
  return r.out + r.err;
}

// A FLIP particle pinned in the 2D bottle at 10 mm spacing (cells of 20 mm, about
// 17 px): the view draws its quadratic stencil, 9 u faces (red squares on the cells'
// vertical edges) and 9 v faces (green, on the horizontal edges), more opaque for
// larger weights, and outlines its cell and the 8 around it; no orange neighbour dots.
// Written with 114 reddish and 141 greenish pixels around the click, against none in
// the same bottle without a pin.
TEST(GuiTeaching, InspectorDrawsTheGridStencil) {
  ASSERT_TRUE(haveFfmpeg()) << "ffmpeg is not installed (third_party/install_deps.sh)";
  const std::string dir = makeTempDir("grid_inspector");
  runSession("inspector_session.sh", dir, "--solver flip --spacing 0.01");
  const Image img = loadPng(dir + "/inspector.png");
  ASSERT_EQ(img.w, 1280);
  const long red = countPixels(img, 540, 440, 660, 560, [](int r, int g, int b) { return r > b + 10 && g < 0.6 * r; });
  const long green = countPixels(img, 540, 440, 660, 560, [](int r, int g, int b) { return g > r + 40 && g > b + 10; });
  std::printf("[ figures  ] around the pinned FLIP particle: %ld red (u faces), %ld green (v faces) pixels\n", red,
              green);
  EXPECT_GT(red, 40);
  EXPECT_GT(green, 40);
  if (!HasFailure()) fs::remove_all(dir);
}

// The bottle turned at 3 rad/s by a --motion script, in the container-frame view: with
// "Fictitious forces" off the bottle holds no magenta and no lime pixel; ticked, the
// centrifugal arrows (magenta, pointing out from the centre) and the Coriolis arrows
// (lime, across the relative flow) cover it. Written with 9,570 magenta and 14,114
// lime pixels inside the bottle, and none before the tick; the legend read
// "omega = 3.00 rad/s".
TEST(GuiTeaching, FictitiousForceArrowsWhileTheBottleTurns) {
  ASSERT_TRUE(haveFfmpeg()) << "ffmpeg is not installed (third_party/install_deps.sh)";
  const std::string dir = makeTempDir("frame_forces");
  writeText(dir + "/turn.csv", "t,x,y,angle\n0,0,0,0\n20,0,0,60\n");
  runSession("frame_forces_session.sh", dir, "'" + dir + "/turn.csv'");
  const PixelTest magenta = [](int r, int g, int b) { return r > 230 && g < 110 && b > 180; };
  const PixelTest lime = [](int r, int g, int b) { return r > 150 && r < 210 && g > 230 && b < 80; };
  // The bottle, parked at home in the container-frame view: x 430-850, y 230-570.
  const Image off = loadPng(dir + "/forces_off.png"), on = loadPng(dir + "/forces_on.png");
  ASSERT_EQ(on.w, 1280);
  const long offMagenta = countPixels(off, 420, 220, 860, 580, magenta), offLime = countPixels(off, 420, 220, 860, 580, lime);
  const long onMagenta = countPixels(on, 420, 220, 860, 580, magenta), onLime = countPixels(on, 420, 220, 860, 580, lime);
  std::printf("[ figures  ] magenta (centrifugal) %ld, lime (Coriolis) %ld pixels in the bottle; before the tick %ld, %ld\n",
              onMagenta, onLime, offMagenta, offLime);
  EXPECT_LT(offMagenta, 20);
  EXPECT_LT(offLime, 20);
  EXPECT_GT(onMagenta, 1500);
  EXPECT_GT(onLime, 1500);
  if (!HasFailure()) fs::remove_all(dir);
}

// "Pos=x,y" of the [Window][NAME] section of an ImGui settings file; (-1, -1): none.
std::pair<int, int> windowPos(const std::string& iniPath, const std::string& name) {
  std::ifstream in(iniPath);
  std::stringstream text;
  text << in.rdbuf();
  std::smatch m;
  const std::string all = text.str();
  const std::regex pos("\\[Window\\]\\[" + name + "\\]\\s*\\nPos=(-?\\d+),(-?\\d+)");
  if (!std::regex_search(all, m, pos)) return {-1, -1};
  return {std::stoi(m[1]), std::stoi(m[2])};
}

// The View panel dragged 400 px left and 300 px down (from its default place at the top
// of the right column, x 1000, y 22) is written to XDG_CONFIG_HOME/sloshlab/imgui.ini
// at (600, 322); the next run with the same XDG_CONFIG_HOME opens it there, and writes
// the same place back (a run that had not read the file would have put the panel at
// its default and written that). In the second run's picture the default place shows
// the empty view and the remembered one the panel: written with 100 % and 0 % of those
// rectangles the view's background colour.
TEST(GuiTeaching, PanelLayoutIsRememberedBetweenRuns) {
  ASSERT_TRUE(haveFfmpeg()) << "ffmpeg is not installed (third_party/install_deps.sh)";
  const std::string dir = makeTempDir("layout");
  runSession("layout_session.sh", dir, "");
  const auto first = windowPos(dir + "/first.ini", "View");
  const auto second = windowPos(dir + "/config/sloshlab/imgui.ini", "View");
  std::printf("[ figures  ] View panel at (%d, %d) after the drag, (%d, %d) after the second run\n", first.first,
              first.second, second.first, second.second);
  EXPECT_NEAR(first.first, 600, 3);
  EXPECT_NEAR(first.second, 322, 3);
  EXPECT_EQ(second, first);
  const Image img = loadPng(dir + "/restarted.png");
  ASSERT_EQ(img.w, 1280);
  const PixelTest background = [](int r, int g, int b) { return r == 28 && g == 31 && b == 36; };
  const long atDefault = countPixels(img, 1010, 45, 1260, 260, background);
  const long atRemembered = countPixels(img, 610, 345, 860, 560, background);
  const long area = 250 * 215;
  std::printf("[ figures  ] background pixels: %ld of %ld at the default place, %ld at the remembered one\n",
              atDefault, area, atRemembered);
  EXPECT_GT(atDefault, 9 * area / 10);
  EXPECT_LT(atRemembered, area / 20);
  if (!HasFailure()) fs::remove_all(dir);
}

// No file: --no-layout-file writes nothing into XDG_CONFIG_HOME; a configuration
// directory that cannot be made costs one warning line and the run goes on.
TEST(GuiTeaching, LayoutFileCanBeLeftOutOrUnwritable) {
  const std::string dir = makeTempDir("layout_off");
  CommandResult r = runCommand("XDG_CONFIG_HOME='" + dir + "/config' xvfb-run -a -s '-screen 0 1280x800x24' '" +
                               SLOSHLAB_EXECUTABLE + "' --no-layout-file --frames 3");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_FALSE(fs::exists(dir + "/config"));
  writeText(dir + "/file", "a file where the directory should be");
  r = runCommand("XDG_CONFIG_HOME='" + dir + "/file' xvfb-run -a -s '-screen 0 1280x800x24' '" + SLOSHLAB_EXECUTABLE +
                 "' --frames 3");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  std::size_t warnings = 0;
  for (auto at = r.err.find("cannot write the panel layout"); at != std::string::npos;
       at = r.err.find("cannot write the panel layout", at + 1))
    ++warnings;
  EXPECT_EQ(warnings, 1u) << r.err;
  r = runCommand("XDG_CONFIG_HOME='" + dir + "/config' xvfb-run -a -s '-screen 0 1280x800x24' '" + SLOSHLAB_EXECUTABLE +
                 "' --frames 3");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir + "/config/sloshlab/imgui.ini")) << "without the option the layout is written";
  if (!HasFailure()) fs::remove_all(dir);
}

}  // namespace
}  // namespace sloshlab::test
