// What the window writes, under Xvfb: VTK frames with their index, video (checked with
// ffprobe) and screenshots that never overwrite one another, save and resume (F5/F9,
// --load-state), and the Motions panel's motions.
#include "gui/gui_support.h"
#include "support/test_support.h"

#include "io/csv_reader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <sstream>

namespace sloshlab::test {
namespace {

namespace fs = std::filesystem;

// The window's export (the simulation thread's exporter, the one the Export panel
// starts): --export --format vtk leaves a .pvd listing every frame written, each file
// complete, and no temporary file.
TEST(Gui, ExportsVtkFramesWithTheirIndex) {
  const std::string dir = makeTempDir("gui_export");
  const CommandResult r = runCommand(kXvfb + "'" + SLOSHLAB_EXECUTABLE + "' --scene drop --frames 20 --export '" + dir +
                                     "/vtk' --format vtk --every 5");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::ifstream in(dir + "/vtk/particles.pvd");
  const std::string index(std::istreambuf_iterator<char>(in), {});
  EXPECT_NE(index.find("</VTKFile>"), std::string::npos) << index;
  int listed = 0;
  for (std::size_t at = 0; (at = index.find("file=\"", at)) != std::string::npos; ++listed) {
    at += 6;
    const std::string file = index.substr(at, index.find('"', at) - at);
    std::ifstream vtp(dir + "/vtk/" + file);
    const std::string text(std::istreambuf_iterator<char>(vtp), {});
    EXPECT_NE(text.find("</VTKFile>"), std::string::npos) << file;
  }
  EXPECT_GE(listed, 2) << index;  // step 0 and at least one more
  for (const auto& e : fs::directory_iterator(dir + "/vtk")) EXPECT_NE(e.path().extension(), ".tmp") << e.path();
  fs::remove_all(dir);
}

// --video FILE.mp4 --frames N: N frames of H.264 in yuv420p at the window's size and
// the frame rate asked for, none of them showing the view's messages (the hint at the
// top of the view is on screen all along, as nobody drags the bottle); nothing left
// under a temporary name; the simulation never ahead of the wall clock (it may fall
// behind: the video is made offline). In 2D with WCSPH at 30 fps, in 3D with FLIP at 60.
TEST(GuiVideo, Mp4HasEveryFrameAndNoMessages) {
  ASSERT_TRUE(haveFfmpeg()) << "ffmpeg is not installed (third_party/install_deps.sh)";
  struct Case {
    std::string args;
    int frames, fps;
  };
  for (const Case& c : {Case{"", 60, 30}, Case{"--solver flip --dim 3 --video-fps 60", 45, 60}}) {
    const std::string dir = makeTempDir("video");
    const std::string mp4 = dir + "/out.mp4";
    const CommandResult r = runCommand(kXvfb + "'" + SLOSHLAB_EXECUTABLE + "' --hide-ui --video '" + mp4 + "' --frames " +
                                       std::to_string(c.frames) + " " + c.args);
    ASSERT_EQ(r.exitCode, 0) << c.args << ": " << r.err;
    EXPECT_NE(r.out.find("saved " + mp4), std::string::npos) << r.out;
    EXPECT_LE(simulatedPerWall(r.out), 1.05) << r.out;
    auto probe = probeVideo(mp4);
    std::printf("[ figures  ] --video %s: %s %sx%s %s, %s frames at %s; %.3f simulated s per wall s\n",
                c.args.c_str(), probe["codec_name"].c_str(), probe["width"].c_str(), probe["height"].c_str(),
                probe["pix_fmt"].c_str(), probe["nb_read_frames"].c_str(), probe["r_frame_rate"].c_str(),
                simulatedPerWall(r.out));
    EXPECT_EQ(probe["codec_name"], "h264");
    EXPECT_EQ(probe["pix_fmt"], "yuv420p");
    EXPECT_EQ(probe["width"], "1280");
    EXPECT_EQ(probe["height"], "800");
    EXPECT_EQ(probe["nb_read_frames"], std::to_string(c.frames));
    EXPECT_EQ(probe["r_frame_rate"], std::to_string(c.fps) + "/1");
    for (const int index : {0, c.frames - 1}) {
      const Image frame = videoFrame(mp4, index, dir + "/frame.png");
      ASSERT_EQ(frame.w, 1280);
      EXPECT_EQ(brightPixels(frame, 0, 0, frame.w, 80), 0) << "a message at the top of frame " << index;
    }
    EXPECT_EQ(filesWithExtension(dir, ".tmp").size(), 0u);
    if (!HasFailure()) fs::remove_all(dir);
  }
}

// One frame per 1/fps of simulated time, whatever the solver's step: the simulation
// lands a step on every frame's time (its --stats file has a row at each), and the
// frames span (N - 1)/fps. WCSPH 2D (steps of about 0.27 ms) at 30 fps; FLIP 3D (steps
// up to 1/60 s, as long as a frame) at 60.
TEST(GuiVideo, OneFramePerPeriodOfSimulatedTime) {
  ASSERT_TRUE(haveFfmpeg()) << "ffmpeg is not installed (third_party/install_deps.sh)";
  struct Case {
    std::string args;
    int frames, fps;
  };
  for (const Case& c : {Case{"--solver wcsph --dim 2", 30, 30}, Case{"--solver flip --dim 3 --video-fps 60", 40, 60}}) {
    const std::string dir = makeTempDir("video");
    const CommandResult r = runCommand(kXvfb + "'" + SLOSHLAB_EXECUTABLE + "' --hide-ui --video '" + dir +
                                       "/out.mp4' --frames " + std::to_string(c.frames) + " --stats '" + dir +
                                       "/stats.csv' " + c.args);
    ASSERT_EQ(r.exitCode, 0) << c.args << ": " << r.err;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.out, m, std::regex(R"((\d+) frames, .* simulated t = ([0-9.e+-]+) to ([0-9.e+-]+) s)")))
        << r.out;
    EXPECT_EQ(std::stoi(m[1]), c.frames);
    const double first = std::stod(m[2]), last = std::stod(m[3]);
    EXPECT_NEAR(last - first, (c.frames - 1.0) / c.fps, 1e-8) << r.out;
    const CsvTable stats = readCsv(dir + "/stats.csv", "stats", true);
    const int time = stats.column("time");
    ASSERT_GE(time, 0);
    int landed = 0;
    for (int k = 0; k < c.frames; ++k) {
      const double t = first + k / static_cast<double>(c.fps);
      landed += std::any_of(stats.rows.begin(), stats.rows.end(),
                            [&](const auto& row) { return std::abs(row[static_cast<std::size_t>(time)] - t) < 1e-8; });
    }
    std::printf("[ figures  ] %s at %d fps: frames at t = %.6f .. %.6f s, %d of %d frame times are step times\n",
                c.args.c_str(), c.fps, first, last, landed, c.frames);
    EXPECT_EQ(landed, c.frames);
    if (!HasFailure()) fs::remove_all(dir);
  }
}

TEST(GuiVideo, GifHasEveryFrame) {
  ASSERT_TRUE(haveFfmpeg()) << "ffmpeg is not installed (third_party/install_deps.sh)";
  const std::string dir = makeTempDir("video");
  const std::string gif = dir + "/out.gif";
  const CommandResult r =
      runCommand(kXvfb + "'" + SLOSHLAB_EXECUTABLE + "' --hide-ui --video '" + gif + "' --frames 20");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  auto probe = probeVideo(gif);
  EXPECT_EQ(probe["format_name"], "gif");
  EXPECT_EQ(probe["codec_name"], "gif");
  EXPECT_EQ(probe["width"], "1280");
  EXPECT_EQ(probe["height"], "800");
  EXPECT_EQ(probe["nb_read_frames"], "20");
  EXPECT_EQ(filesWithExtension(dir, ".tmp").size(), 0u);
  if (!HasFailure()) fs::remove_all(dir);
}

// Without ffmpeg on the PATH: one line saying how to install it, exit 2, no file.
TEST(GuiVideo, WithoutFfmpegOneLineAndNoFile) {
  const std::string dir = makeTempDir("video");
  fs::create_directories(dir + "/bin");  // a PATH without ffmpeg
  const CommandResult r = runCommand(kXvfb + "env PATH='" + dir + "/bin' '" + SLOSHLAB_EXECUTABLE + "' --video '" + dir +
                                     "/out.mp4' --frames 5");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("apt-get install ffmpeg"), std::string::npos) << r.err;
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1) << "only bin/ in " << dir;
  if (!HasFailure()) fs::remove_all(dir);
}

// Through the real window: two Ctrl+S 100 ms apart are two pictures (named to the
// millisecond: by the second, the second one replaced the first), and the "saved"
// message of the first is not in the second; V ... V records a video, whose frames
// never show the recording line or the hint.
TEST(GuiVideo, QuickScreenshotsAndARecordingThroughTheWindow) {
  ASSERT_TRUE(haveFfmpeg()) << "ffmpeg is not installed (third_party/install_deps.sh)";
  const std::string dir = makeTempDir("captures");
  const CommandResult r = runCommand(kXvfb + "'" + std::string(SLOSHLAB_TEST_SOURCE_DIR) + "/gui/capture_session.sh' '" +
                                     SLOSHLAB_EXECUTABLE + "' '" + dir + "'");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  const auto pngs = filesWithExtension(dir, ".png");
  ASSERT_EQ(pngs.size(), 2u) << "Ctrl+S twice: two pictures";
  for (const std::string& png : pngs) {
    const Image img = loadPng(png);
    ASSERT_EQ(img.w, 1280) << png;
    // The toast sits at the bottom left, the hint at the top.
    EXPECT_EQ(brightPixels(img, 0, img.h - 100, 400, img.h), 0) << "a toast in " << png;
    EXPECT_EQ(brightPixels(img, 0, 0, img.w, 80), 0) << "a message in " << png;
  }
  const auto mp4s = filesWithExtension(dir, ".mp4");
  ASSERT_EQ(mp4s.size(), 1u) << "V ... V: one video";
  auto probe = probeVideo(mp4s[0]);
  const int frames = std::stoi(probe["nb_read_frames"].empty() ? "0" : probe["nb_read_frames"]);
  std::printf("[ figures  ] V ... V, 2 s apart: %d frames at %s\n", frames, probe["r_frame_rate"].c_str());
  EXPECT_GT(frames, 10);
  const Image last = videoFrame(mp4s[0], frames - 1, dir + "/frame.png");
  EXPECT_EQ(brightPixels(last, 0, 0, last.w, 80), 0) << "the recording line in the video";
  EXPECT_EQ(filesWithExtension(dir, ".tmp").size(), 0u);
  if (!HasFailure()) fs::remove_all(dir);
}

// The Motions panel through the real window: Play from the start runs the panel's
// shake (saved, it is 20 mm at 1 Hz for 3 s, what motions.h makes), a recorded live drag
// saves as the path the mouse took (100 px: about 0.1 m in the 2D bottle), and Replay
// restarts the scene without an error.
TEST(Gui, MotionsPanelPlaysRecordsSavesAndReplays) {
  const std::string dir = makeTempDir("motions");
  const CommandResult r = runCommand(kXvfb + "'" + std::string(SLOSHLAB_TEST_SOURCE_DIR) + "/gui/motions_session.sh' '" +
                                     SLOSHLAB_EXECUTABLE + "' '" + dir + "'");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  auto peakX = [](const CsvTable& t) {
    double peak = 0.0;
    for (const auto& row : t.rows) peak = std::max(peak, std::abs(row[t.column("x")]));
    return peak;
  };
  const CsvTable shake = readCsv(dir + "/shake.csv", "motion");
  EXPECT_NEAR(peakX(shake), 0.02, 0.0002);
  EXPECT_NEAR(shake.rows.back()[shake.column("t")], 3.0, 1e-9);
  const CsvTable drag = readCsv(dir + "/drag.csv", "motion");
  const double dragged = peakX(drag);
  std::printf("[ figures  ] the recorded drag: %zu rows over %.2f s, largest offset %.3f m\n", drag.rows.size(),
              drag.rows.back()[drag.column("t")], dragged);
  EXPECT_GT(dragged, 0.05);
  EXPECT_LT(dragged, 0.2);
  std::ifstream logFile(dir + "/app.log");
  const std::string log(std::istreambuf_iterator<char>(logFile), {});
  EXPECT_EQ(log.find("error"), std::string::npos) << log;
  if (!HasFailure()) fs::remove_all(dir);
}

// The summary of a headless run resumed from `state` for 0 steps: its time and step.
bool stateTimeAndStep(const std::string& state, double& time, long& step) {
  const CommandResult r = runSloshlab("--headless --load-state '" + state + "' --steps 0");
  std::smatch m;
  if (r.exitCode != 0 || !std::regex_search(r.out, m, std::regex(R"(resumed from .* at t = ([0-9.e+-]+) s, step (\d+))")))
    return false;
  time = std::stod(m[1]), step = std::stol(m[2]);
  return true;
}

// Save and resume in the window: it continues a headless run's state file (not the
// scene's start), F5 saves a state that continues from there, F9 goes back to it, and
// --save-state writes the state when the window closes.
TEST(Gui, ContinuesAStateAndSavesOneWithF5) {
  const std::string dir = makeTempDir("state");
  const std::string start = dir + "/start.slosh", atExit = dir + "/exit.slosh";
  ASSERT_EQ(runSloshlab("--headless --solver dfsph --steps 30 --save-state '" + start + "'").exitCode, 0);
  double t0 = 0, t5 = 0, tExit = 0;
  long s0 = 0, s5 = 0, sExit = 0;
  ASSERT_TRUE(stateTimeAndStep(start, t0, s0));
  const CommandResult r = runCommand(kXvfb + "'" + std::string(SLOSHLAB_TEST_SOURCE_DIR) + "/gui/state_session.sh' '" +
                                     SLOSHLAB_EXECUTABLE + "' '" + dir + "' --load-state '" + start +
                                     "' --save-state '" + atExit + "'");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  std::vector<std::string> saved;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().rfind("sloshlab_", 0) == 0 && e.path().extension() == ".slosh")
      saved.push_back(e.path().string());
  ASSERT_EQ(saved.size(), 1u) << "F5: one state file";
  ASSERT_TRUE(stateTimeAndStep(saved[0], t5, s5));
  ASSERT_TRUE(stateTimeAndStep(atExit, tExit, sExit));
  std::printf("[ figures  ] loaded t = %.3f s (step %ld), F5 at t = %.3f s (step %ld), exit at t = %.3f s (step %ld)\n",
              t0, s0, t5, s5, tExit, sExit);
  EXPECT_GT(s5, s0) << "the window went on from the loaded state";
  EXPECT_GT(t5, t0);
  // F9 went back to F5's state 1 s later, then the window ran about 1 s more: without
  // F9 the run would be about 2 s past F5 (less in slow motion, never more).
  EXPECT_GT(tExit, t5);
  EXPECT_LT(tExit - t5, 1.6) << "F9 did not go back";
  if (!HasFailure()) fs::remove_all(dir);
}

// Lecture mode (L): the panels and the menu go, the heads-up display shows the method
// and the pinned figures in large type at the top left; L again brings the panels back.
// Seen on the 2D DFSPH bottle: "dfsph 2D, bottle", then "Time", "Real time" and
// "Kinetic energy" in about 29 px type, the bottle in the middle, nothing on the right.
TEST(Gui, LectureViewHidesThePanelsAndShowsTheFigures) {
  ASSERT_TRUE(haveFfmpeg()) << "ffmpeg is not installed (third_party/install_deps.sh)";
  const std::string dir = makeTempDir("lecture");
  const CommandResult r = runCommand(kXvfb + "'" + std::string(SLOSHLAB_TEST_SOURCE_DIR) + "/gui/lecture_session.sh' '" +
                                     SLOSHLAB_EXECUTABLE + "' '" + dir + "' --scene bottle --solver dfsph");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  const Image lecture = loadPng(dir + "/lecture.png"), panels = loadPng(dir + "/panels.png");
  ASSERT_EQ(lecture.w, 1280);
  ASSERT_EQ(panels.w, 1280);
  // The right column (View and Stats panels, white text) is there with the panels only.
  const long rightWithPanels = brightPixels(panels, 1000, 30, 1280, 700);
  const long rightInLecture = brightPixels(lecture, 1000, 30, 1280, 700);
  // The heads-up display: four lines of large text at the top left.
  const long hud = brightPixels(lecture, 0, 0, 420, 200);
  std::printf("[ figures  ] bright pixels: right column %ld with panels, %ld in the lecture view; HUD %ld\n",
              rightWithPanels, rightInLecture, hud);
  EXPECT_GT(rightWithPanels, 2000);
  EXPECT_EQ(rightInLecture, 0);
  EXPECT_GT(hud, 800);  // 1,533 measured; the background alone has none
  if (!HasFailure()) fs::remove_all(dir);
}

// --lecture: the window opens in the lecture view at slide 1 (WCSPH and FLIP side by
// side), PageDown shows slide 2 (PIC, FLIP and APIC: new simulations, the title
// follows), A appends the running state, panes and all, to the lecture file as slide 6. A missing or broken file is one line and exit 2, before
// any window opens.
TEST(Gui, LectureSlidesStepAndGrow) {
  const std::string dir = makeTempDir("slides");
  const std::string lecture = dir + "/lecture.json";
  fs::copy_file(std::string(SLOSHLAB_TEST_SOURCE_DIR) + "/../assets/lectures/intro.json", lecture);
  const CommandResult r = runCommand(kXvfb + "'" + std::string(SLOSHLAB_TEST_SOURCE_DIR) + "/gui/slides_session.sh' '" +
                                     SLOSHLAB_EXECUTABLE + "' '" + dir + "' '" + lecture + "'");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  std::ifstream titles(dir + "/titles");
  std::string first, second;
  std::getline(titles, first), std::getline(titles, second);
  std::printf("[ figures  ] titles: '%s', then '%s'\n", first.c_str(), second.c_str());
  EXPECT_NE(first.find("wcsph | flip 2D"), std::string::npos) << first;
  EXPECT_NE(second.find("pic | flip | apic 2D"), std::string::npos) << second;
  std::ifstream in(lecture);
  const std::string text(std::istreambuf_iterator<char>(in), {});
  const auto count = [&](const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("\"caption\""), 6u) << text;
  EXPECT_NE(text.find("\"caption\": \"slide 6\""), std::string::npos);
  EXPECT_EQ(count("\"compare\": \"pic,flip,apic\""), 2u) << text;
  EXPECT_GT(brightPixels(loadPng(dir + "/slides.png"), 0, 0, 900, 260), 800) << "the heads-up display";

  CommandResult bad = runSloshlab("--lecture '" + dir + "/missing.json'");
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
  EXPECT_NE(bad.err.find("lecture file '" + dir + "/missing.json': no such file"), std::string::npos) << bad.err;
  writeText(dir + "/bad.json", R"({"slides": [{"scene": "bottle", "solver": "magic"}]})");
  bad = runSloshlab("--lecture '" + dir + "/bad.json'");
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_NE(bad.err.find("slide 1: unknown solver 'magic'"), std::string::npos) << bad.err;
  if (!HasFailure()) fs::remove_all(dir);
}

// The inspector: a click pins the particle under the mouse; the view marks it, its
// support circle and its neighbours (orange), and the panel plots W(r) (orange curve)
// with the neighbours on it (blue dots) in the right column.
TEST(Gui, InspectorPinsTheClickedParticle) {
  ASSERT_TRUE(haveFfmpeg()) << "ffmpeg is not installed (third_party/install_deps.sh)";
  const std::string dir = makeTempDir("inspector");
  const CommandResult r = runCommand(kXvfb + "'" + std::string(SLOSHLAB_TEST_SOURCE_DIR) +
                                     "/gui/inspector_session.sh' '" + SLOSHLAB_EXECUTABLE + "' '" + dir + "'");
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  const Image img = loadPng(dir + "/inspector.png");
  ASSERT_EQ(img.w, 1280);
  auto orange = [&](int x0, int y0, int x1, int y1) {
    long n = 0;
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x) {
        const unsigned char* p = img.at(x, y);
        n += p[0] > 230 && p[1] > 130 && p[1] < 210 && p[2] < 110;
      }
    return n;
  };
  const long marks = orange(540, 440, 660, 560), curve = orange(1000, 300, 1280, 800);
  std::printf("[ figures  ] orange pixels: %ld around the click (neighbours, support), %ld in the panel (W(r))\n",
              marks, curve);
  EXPECT_GT(marks, 40);
  EXPECT_GT(curve, 100);
  if (!HasFailure()) fs::remove_all(dir);
}

}  // namespace
}  // namespace sloshlab::test
