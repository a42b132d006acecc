// The teaching additions through the real window, under Xvfb (1280x800, UI scale 1):
// the grid solvers' stencil in the inspector. Each test says
// what its pictures showed when it was written.
#include "gui/gui_support.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <functional>

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

}  // namespace
}  // namespace sloshlab::test
