// Floating bodies in the window (physics.md §16): a press on a body holds it and a drag
// pulls it with the mouse's spring (16.10), and the inspector draws the forces on a
// pressed body, in 2D and 3D, through real input events.
#include "gui/gui_support.h"
#include "support/test_support.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>

namespace sloshlab::test {
namespace {

namespace fs = std::filesystem;

// The mean x of the points of an exported VTK PolyData file (a body's surface, whose
// vertices are symmetric about its centre: the mean is the centre).
double meanX(const std::string& path) {
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  const auto name = text.find("Name=\"position\"");
  if (name == std::string::npos) return 0.0;
  const auto from = text.find('>', name) + 1, to = text.find('<', from);
  std::istringstream numbers(text.substr(from, to - from));
  double sum = 0.0, x = 0.0, y = 0.0, z = 0.0;
  long n = 0;
  while (numbers >> x >> y >> z) sum += x, ++n;
  return n ? sum / static_cast<double>(n) : 0.0;
}

// A box at the centre of the container, without gravity (so that it waits there for the
// press), in air above a shallow liquid.
std::string heldBoxScene(const std::string& dir, const std::string& solver) {
  const std::string path = dir + "/held_box.json";
  std::ofstream(path) << R"({"name": "held_box", "solver": ")" + solver + R"(", "spacing": 0.01, "spacing_3d": 0.02,
    "gravity": [0, 0, 0], "container": {"size": [0.4, 0.3, 0.2]},
    "fluid": [{"box": {"min": [0, 0], "max": [0.4, 0.06]}}],
    "bodies": [{"box": {"size": [0.08, 0.06, 0.08]}, "density": 500, "position": [0.2, 0.15]}]})";
  return path;
}

// Pressed at the window centre (the body's centre on screen) and pulled 150 px right,
// then held still for 2 s: the body's centre has moved right by about the mouse's
// distance in metres (the drawn container's width gives the scale), within 15 %: the
// held point lags the mouse by what the spring and the drag leave.
void expectHeldBodyFollowsTheMouse(int dim, const std::string& solver = "dfsph") {
  const std::string dir = makeTempDir("body_drag_" + solver + std::to_string(dim));
  const std::string scene = heldBoxScene(dir, solver);
  const std::string dimArg = "--dim " + std::to_string(dim);
  const CommandResult shot = runCommand(kXvfb + "'" + SLOSHLAB_EXECUTABLE + "' --scene '" + scene + "' " + dimArg +
                                        " --hide-ui --frames 3 --screenshot '" + dir + "/scale.png'");
  ASSERT_EQ(shot.exitCode, 0) << shot.err;
  Box box{0, 0, 0, 0};
  ASSERT_TRUE(parseContainer(shot.out, box)) << shot.out;
  const int mousePx = 150;
  const CommandResult r = runCommand(kXvfb + "'" + std::string(SLOSHLAB_TEST_SOURCE_DIR) +
                                     "/gui/body_drag_session.sh' '" + SLOSHLAB_EXECUTABLE + "' '" + dir + "' '" + scene +
                                     "' " + std::to_string(mousePx) + " " + dimArg);
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  std::map<long, std::string> frames;
  for (const auto& e : fs::directory_iterator(dir + "/export")) {
    const std::string name = e.path().filename().string();
    if (name.rfind("bodies_", 0) == 0 && e.path().extension() == ".vtp")
      frames[std::stol(name.substr(7))] = e.path().string();
  }
  ASSERT_GE(frames.size(), 2u);
  const double moved = meanX(frames.rbegin()->second) - meanX(frames.begin()->second);
  // The 3D view looks at the box from an angle: its width on screen is that of its front
  // face's projection, so the scale is checked in 2D and the direction and size in 3D.
  const double metresPerPx = 0.4 / (box.x1 - box.x0);
  const double expected = mousePx * metresPerPx;
  std::printf("[ figures  ] %s %dD: mouse %d px (%.4f m in 2D's scale); the held box moved %.4f m\n", solver.c_str(),
              dim, mousePx, expected, moved);
  if (dim == 2) EXPECT_NEAR(moved, expected, 0.15 * expected);
  else EXPECT_GT(moved, 0.3 * expected);
  if (!::testing::Test::HasFailure()) fs::remove_all(dir);
}

TEST(GuiBodies, APressedBodyFollowsTheMouse2D) { expectHeldBodyFollowsTheMouse(2); }
TEST(GuiBodies, APressedBodyFollowsTheMouse3D) { expectHeldBodyFollowsTheMouse(3); }
// A grid solver's body (16.17)-(16.19) is held and pulled the same way.
TEST(GuiBodies, APressedBodyFollowsTheMouseInFlip2D) { expectHeldBodyFollowsTheMouse(2, "flip"); }

// The inspector's body view: floating_box settles 3 s, the Inspector is opened and the
// body pressed: the free-body diagram on it holds the liquid's force (cyan) above its
// centre and the weight (red) below it, each about 50 px long. Written with 147 red and 125 cyan pixels in 2D, 132 and 111 in 3D, the cyan
// 60 px above the red on average.
void expectBodyInspected(int dim) {
  ASSERT_TRUE(haveFfmpeg()) << "ffmpeg is not installed (third_party/install_deps.sh)";
  const std::string dir = makeTempDir("body_inspector_" + std::to_string(dim));
  const CommandResult r = runCommand(kXvfb + "'" + std::string(SLOSHLAB_TEST_SOURCE_DIR) +
                                     "/gui/body_inspector_session.sh' '" + SLOSHLAB_EXECUTABLE + "' '" + dir +
                                     "' floating_box 390 --dim " + std::to_string(dim));
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  const Image img = loadPng(dir + "/body_inspector.png");
  ASSERT_EQ(img.w, 1280);
  double red = 0.0, cyan = 0.0, redY = 0.0, cyanY = 0.0;
  for (int y = 280; y < 520; ++y)
    for (int x = 560; x < 720; ++x) {
      const unsigned char* p = img.at(x, y);
      if (p[0] > 230 && p[1] > 70 && p[1] < 110 && p[2] > 60 && p[2] < 100) red += 1.0, redY += y;
      if (p[0] > 60 && p[0] < 100 && p[1] > 200 && p[2] > 235) cyan += 1.0, cyanY += y;
    }
  std::printf("[ figures  ] %dD: the weight's arrow %.0f red pixels (mean y %.0f), the liquid's %.0f cyan (mean y %.0f)\n",
              dim, red, red > 0.0 ? redY / red : 0.0, cyan, cyan > 0.0 ? cyanY / cyan : 0.0);
  EXPECT_GT(red, 60.0);
  EXPECT_GT(cyan, 60.0);
  if (red > 0.0 && cyan > 0.0) {
    EXPECT_LT(cyanY / cyan, redY / red) << "the liquid pushes up, the weight pulls down";
  }
  if (!::testing::Test::HasFailure()) fs::remove_all(dir);
}

TEST(GuiBodies, TheInspectorDrawsABodysForces2D) { expectBodyInspected(2); }
TEST(GuiBodies, TheInspectorDrawsABodysForces3D) { expectBodyInspected(3); }

}  // namespace
}  // namespace sloshlab::test
