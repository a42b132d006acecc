// Shared by the window's tests (test_gui.cpp, test_gui_capture.cpp): the X server
// they run under, pictures read back, and video probed with ffprobe/ffmpeg.
#pragma once

#include "support/test_support.h"

#include "sloshlab/solver_registry.h"

#include <stb_image.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <regex>
#include <tuple>
#include <string>
#include <vector>

namespace sloshlab::test {

// Every run starts from a fresh, empty XDG_CONFIG_HOME: no panel layout remembered from
// the user's runs or an earlier test (app/layout_file.h) moves the panels. They are made
// in one directory per test process, removed when it ends.
struct ConfigRoot {
  std::string path;
  ConfigRoot() {
    char name[] = "/tmp/sloshlab-gui-config.XXXXXX";
    if (mkdtemp(name)) path = name;
  }
  ~ConfigRoot() {
    std::error_code ignored;
    if (!path.empty()) std::filesystem::remove_all(path, ignored);
  }
};
inline const ConfigRoot kConfigRoot;
inline const std::string kXvfb = "XDG_CONFIG_HOME=\"$(mktemp -d -p '" + (kConfigRoot.path.empty() ? "/tmp" : kConfigRoot.path) +
                                 "')\" xvfb-run -a -s '-screen 0 1280x800x24' ";

// The window's exit line's "simulated s per wall s" (-1 without one).
inline double simulatedPerWall(const std::string& out) {
  const auto at = out.find(" simulated s per wall s");
  if (at == std::string::npos) return -1.0;
  const auto from = out.rfind(", ", at);
  return std::stod(out.substr(from + 2, at - from - 2));
}

struct Image {
  int w = 0, h = 0;
  std::vector<unsigned char> rgb;
  const unsigned char* at(int x, int y) const { return &rgb[3 * (static_cast<std::size_t>(y) * w + x)]; }
};

// Liquid: the water colour map at rest is blue (b well above r and g).
inline bool isLiquid(const unsigned char* p) { return p[2] > 90 && p[2] > p[0] + 50 && p[2] > p[1] + 15; }

struct Box {
  double x0, x1, y0, y1;
};

// The pixel box the app's screenshot line gives for `what` ("container", "legend").
inline bool parsePixelBox(const std::string& out, const std::string& what, Box& box) {
  std::smatch m;
  if (!std::regex_search(out, m, std::regex(what + R"( at pixels x (-?\d+)\.\.(-?\d+), y (-?\d+)\.\.(-?\d+))")))
    return false;
  box = {std::stod(m[1]), std::stod(m[2]), std::stod(m[3]), std::stod(m[4])};
  return true;
}
inline bool parseContainer(const std::string& out, Box& box) { return parsePixelBox(out, "container", box); }
// The colour legend stays on screen with the panels hidden; its colour bar is not liquid.
inline bool parseLegend(const std::string& out, Box& box) { return parsePixelBox(out, "legend", box); }

// The engine's solvers, and the GPU path's, which the app registers (sloshlab/gpu.h).
inline std::vector<std::tuple<std::string, int>> solverDims() {
  std::vector<std::tuple<std::string, int>> out;
  for (const SolverInfo& info : solverInfos())
    for (int dim : {2, 3}) out.emplace_back(info.name, dim);
  for (const char* gpu : {"gpu-pbf", "gpu-dfsph"})
    for (int dim : {2, 3}) out.emplace_back(gpu, dim);
  return out;
}

inline Image loadPng(const std::string& path) {
  Image img;
  int channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &img.w, &img.h, &channels, 3);
  if (!data) return img;
  img.rgb.assign(data, data + 3 * static_cast<std::size_t>(img.w) * img.h);
  stbi_image_free(data);
  return img;
}

// What ffprobe says about a video's first stream and its container, counting frames
// by decoding them (nb_read_frames), key=value.
inline std::map<std::string, std::string> probeVideo(const std::string& path) {
  const CommandResult r = runCommand("ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                                     "stream=codec_name,width,height,pix_fmt,nb_read_frames,r_frame_rate:format=format_name "
                                     "-of default=noprint_wrappers=1 '" + path + "'");
  std::map<std::string, std::string> out;
  EXPECT_EQ(r.exitCode, 0) << "ffprobe " << path << ": " << r.err;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);)
    if (const auto eq = line.find('='); eq != std::string::npos) out[line.substr(0, eq)] = line.substr(eq + 1);
  return out;
}

inline bool haveFfmpeg() { return runCommand("command -v ffmpeg && command -v ffprobe").exitCode == 0; }

// Pixels with a channel above 200 in a rectangle of the picture: the view's messages
// are white, orange or red text on a dark box; the background has none, and the
// bottle and the legend are elsewhere.
inline long brightPixels(const Image& img, int x0, int y0, int x1, int y1) {
  long n = 0;
  for (int y = std::max(y0, 0); y < std::min(y1, img.h); ++y)
    for (int x = std::max(x0, 0); x < std::min(x1, img.w); ++x) {
      const unsigned char* p = img.at(x, y);
      n += std::max({p[0], p[1], p[2]}) > 200;
    }
  return n;
}

// The first and last frames of a video as PNG pictures.
inline Image videoFrame(const std::string& video, int index, const std::string& png) {
  const CommandResult r = runCommand("ffmpeg -v error -y -i '" + video + "' -vf 'select=eq(n\\," + std::to_string(index) +
                                     ")' -vframes 1 '" + png + "'");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  return loadPng(png);
}

inline std::vector<std::string> filesWithExtension(const std::string& dir, const std::string& ext) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ext) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace sloshlab::test
