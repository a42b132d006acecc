// The teaching additions through the real window, under Xvfb (1280x800, UI scale 1):
// the grid solvers' stencil in the inspector, the fictitious-force arrows in the
// container-frame view, the panel layout remembered between runs, and an experiment
// shown live. Each test says what its pictures showed when it was written.
#include "gui/gui_support.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cmath>
#include <cstdlib>
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

// The liquid's pixels in the view (between the side columns, above the legend's row): the
// water colour map's blues (blue above 100 and 40 above red; the background, the
// outline and the panels have none there). Their count and bounding box x0 y0 x1 y1.
struct Liquid {
  long pixels = 0;
  int x0 = 1 << 20, y0 = 1 << 20, x1 = -1, y1 = -1;
};
Liquid liquidIn(const Image& img) {
  Liquid l;
  for (int y = 20; y < 740; ++y)
    for (int x = 290; x < 1000; ++x) {
      const unsigned char* p = img.at(x, y);
      if (!(p[2] > 100 && p[2] > p[0] + 40)) continue;
      ++l.pixels;
      l.x0 = std::min(l.x0, x), l.x1 = std::max(l.x1, x), l.y0 = std::min(l.y0, y), l.y1 = std::max(l.y1, y);
    }
  return l;
}

// Pixels passing `test` inside the Experiments panel's plot: the rows of the right
// column that are mostly the plot's fill (30, 34, 40), so that the coloured legend below
// the plot ("Z_simulated", "Z_martin_moyce") does not count.
long inPlot(const Image& img, const PixelTest& test) {
  auto fill = [](int r, int g, int b) { return std::abs(r - 30) <= 2 && std::abs(g - 34) <= 2 && std::abs(b - 40) <= 2; };
  long n = 0;
  for (int y = 300; y < img.h; ++y)
    if (countPixels(img, 1010, y, 1260, y + 1, fill) > 150) n += countPixels(img, 1000, y, img.w, y + 1, test);
  return n;
}
bool curveBlue(int r, int g, int b) { return std::abs(r - 90) < 12 && std::abs(g - 170) < 12 && b > 240; }
bool referenceOrange(int r, int g, int b) { return r > 240 && std::abs(g - 170) < 12 && std::abs(b - 60) < 12; }

// The Experiments panel runs the dam break (2D, WCSPH) and shows it live: the screen is
// recorded at 10 frames a second from just before Run. The frames with the view's
// caption (orange text at its bottom left) are those of the run: in each the view
// shows the dam-break tank's liquid instead of the paused bottle's (its left edge at
// the wider tank's wall, about 40 px left of the bottle's), and the panel plots the
// measured front so far. At the end the view is back to the bottle, and the panel draws
// the front (blue) against Martin & Moyce's (orange). When written: 13 of the 40 frames
// showed the run (about 1.3 s): the column at the tank's left wall collapsing into a
// surge (white at its front), captioned "experiment dam_break running: t = 0.12 s
// (wcsph, 2D, 800 particles)", the panel at 61 % with "so far: front speed dZ/dT 0.937,
// reference 0.94: error 0.3 %" over a curve out to T = 2.2; the liquid's box x 389..514
// against the bottle's 431..848; 300 blue pixels in the plot in every running frame.
TEST(Gui, ExperimentsPanelShowsTheDamBreakLiveAndDrawsItsCurve) {
  ASSERT_TRUE(haveFfmpeg()) << "ffmpeg is not installed (third_party/install_deps.sh)";
  const std::string dir = makeTempDir("experiment");
  const CommandResult session = runCommand(kXvfb + "'" + std::string(SLOSHLAB_TEST_SOURCE_DIR) +
                                     "/gui/experiment_session.sh' '" + SLOSHLAB_EXECUTABLE + "' '" + dir + "'");
  ASSERT_EQ(session.exitCode, 0) << session.out << session.err;
  const Image before = loadPng(dir + "/before.png");
  ASSERT_EQ(before.w, 1280);
  const Liquid bottle = liquidIn(before);
  ASSERT_GT(bottle.pixels, 20000) << "the bottle's liquid before the run";
  auto caption = [](int r, int g, int b) { return r > 230 && g > 190 && g < 225 && b > 100 && b < 140; };

  int running = 0, runningWithCurve = 0;
  for (const std::string& file : filesWithExtension(dir, ".png")) {
    if (file.find("running_") == std::string::npos) continue;
    const Image frame = loadPng(file);
    ASSERT_EQ(frame.w, 1280) << file;
    if (countPixels(frame, 290, 740, 1000, 800, caption) < 200) continue;  // before the run or after it
    ++running;
    const Liquid tank = liquidIn(frame);
    const long curve = inPlot(frame, curveBlue);
    runningWithCurve += curve > 100;
    std::printf("[ figures  ] %s: liquid %ld pixels in x %d..%d, y %d..%d (the bottle's x %d..%d, y %d..%d); "
                "%ld blue pixels in the plot\n",
                fs::path(file).filename().c_str(), tank.pixels, tank.x0, tank.x1, tank.y0, tank.y1, bottle.x0,
                bottle.x1, bottle.y0, bottle.y1, curve);
    EXPECT_GT(tank.pixels, 3000) << file;
    EXPECT_LT(tank.x0, bottle.x0 - 20) << file << ": the tank's left wall is left of the bottle's";
  }
  EXPECT_GE(running, 2) << "frames showing the run";
  EXPECT_GE(runningWithCurve, 1) << "frames with the curve so far";

  const Image img = loadPng(dir + "/experiment.png");
  ASSERT_EQ(img.w, 1280);
  const long blue = inPlot(img, curveBlue), orange = inPlot(img, referenceOrange);
  const Liquid after = liquidIn(img);
  std::printf("[ figures  ] at the end: %ld blue pixels in the plot, %ld orange; the liquid in x %d..%d, y %d..%d\n",
              blue, orange, after.x0, after.x1, after.y0, after.y1);
  EXPECT_GT(blue, 100);
  EXPECT_GT(orange, 60);  // 124 when written: the blue, drawn after it, covers much of it
  EXPECT_EQ(countPixels(img, 290, 740, 1000, 800, caption), 0) << "the caption after the run";
  EXPECT_NEAR(after.x0, bottle.x0, 3) << "the view back to the bottle";
  EXPECT_NEAR(after.x1, bottle.x1, 3);
  if (!HasFailure()) fs::remove_all(dir);
}

}  // namespace
}  // namespace sloshlab::test
